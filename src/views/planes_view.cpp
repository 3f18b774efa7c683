// View 1: rotation planes. The focused pair's 2D plane with q at m and k at m − Δk, a fading
// trail of q's past positions and the angle read-out; beside it one small plane per pair with q
// at m and k at n, so the spread of speeds is visible. Clicking a small plane focuses it.
#include <algorithm>
#include <cmath>
#include <complex>

#include <fmt/format.h>

#include "state/compare.h"
#include "views/views.h"
#include "ui/widgets.h"
#include "plot/screen.h"

namespace ropelab::views {

namespace {

using lab::products::kTrail;

using lab::products::Planes;

// A pair's point at m + f, 0 ≤ f < 1, from its exact point at m: turned on by f·θ_j, so the
// planes glide between whole positions while playing (the readouts stay at m).
std::complex<double> glide(std::complex<double> at_m, double theta, double f) {
    return f == 0.0 ? at_m : at_m * std::polar(1.0, f * theta);
}

ImVec2 to_screen(ImVec2 center, float radius, std::complex<double> z) {
    return ImVec2(center.x + radius * static_cast<float>(z.real()),
                  center.y - radius * static_cast<float>(z.imag()));
}

void arrow(draw::Canvas& dl, ImVec2 from, ImVec2 to, ImU32 color, float thickness) {
    dl.line(from, to, color, thickness);
    const ImVec2 d(to.x - from.x, to.y - from.y);
    const float len = std::sqrt(d.x * d.x + d.y * d.y);
    if (len < 1.0f) return;
    const ImVec2 u(d.x / len, d.y / len), n(-u.y, u.x);
    const float head = std::min(len * 0.3f, 4.0f * thickness + 4.0f);
    dl.triangle(to, ImVec2(to.x - u.x * head + n.x * head * 0.5f, to.y - u.y * head + n.y * head * 0.5f),
                          ImVec2(to.x - u.x * head - n.x * head * 0.5f, to.y - u.y * head - n.y * head * 0.5f), color);
}

void plane_background(draw::Canvas& dl, ImVec2 c, float r) {
    const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border);
    dl.circle(c, r, grid, 64, 1.0f);
    dl.line(ImVec2(c.x - r, c.y), ImVec2(c.x + r, c.y), grid);
    dl.line(ImVec2(c.x, c.y - r), ImVec2(c.x, c.y + r), grid);
}

void focused_plane(Context& ctx, ImVec2 origin, float side, const Planes& planes, bool labels = true) {
    const LabParams& p = ctx.params;
    if (planes.pairs.empty()) return;
    const lab::products::PlanePair& pair = planes.pairs[static_cast<std::size_t>(planes.focused)];
    const double scale = planes.scale;
    draw::Canvas dl = draw::Canvas::window();
    const float font = ImGui::GetFontSize();
    const ImVec2 c(origin.x + side / 2, origin.y + side / 2);
    const float r = side / 2 - font;
    plane_background(dl, c, r);
    if (curves_hidden(ctx)) {  // a scene's "predict, then reveal": the plane, no arrows
        ImGui::SetCursorScreenPos(origin);
        ImGui::Dummy(ImVec2(side, side));
        return;
    }
    ImVec4 trail = ImGui::ColorConvertU32ToFloat4(ctx.colors.q);
    for (int t = kTrail; t >= 1; --t) {  // older positions fade out
        const auto past = glide(planes.trail[static_cast<std::size_t>(t - 1)] / scale, pair.theta, ctx.position_fraction);
        trail.w = 0.6f * (1.0f - static_cast<float>(t) / (kTrail + 1));
        dl.disc(to_screen(c, r, past), 0.18f * font, ImGui::ColorConvertFloat4ToU32(trail));
    }
    const auto q_now = glide(pair.q_at_m / scale, pair.theta, ctx.position_fraction);
    const auto k_now = glide(pair.k_at_n / scale, pair.theta, ctx.position_fraction);
    arrow(dl, c, to_screen(c, r, k_now), ctx.colors.k, 2.5f);
    arrow(dl, c, to_screen(c, r, q_now), ctx.colors.q, 3.0f);
    if (labels) {
        dl.text(ImVec2(origin.x, origin.y), ctx.colors.q, fmt::format("q at m = {}", p.position).c_str());
        const std::string k_text = fmt::format("k at n = m − {}", p.key_distance);
        dl.text(ImVec2(origin.x, origin.y + font * 1.1f), ctx.colors.k, k_text.c_str());
        ui::log().record_box(k_text, "readout", ImVec2(origin.x, origin.y + font * 1.1f), ImGui::CalcTextSize(k_text.c_str()));
    }
    ImGui::SetCursorScreenPos(origin);
    ImGui::Dummy(ImVec2(side, side));
}

// A lesson's label for a pair of the grid, where it covers no plane: in the line above the grid
// (the readout's line, right of `free_from_x`), joined to its cell by a thin leader; where that
// line has no room, on a backing of its own under the cell.
void pair_label(const Context& ctx, const std::string& text, ImVec2 cell_min, float cell, ImVec2 grid_min, float grid_right,
                float free_from_x) {
    draw::Canvas dl = draw::Canvas::window();
    const ImU32 color = ctx.colors.naive;
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    const float font = ImGui::GetFontSize();
    const float x = std::clamp(cell_min.x + (cell - size.x) / 2, free_from_x + font, grid_right - size.x);
    const ImVec2 at(x, grid_min.y - size.y - 0.15f * font);
    if (x >= free_from_x + font && x + size.x <= grid_right) {
        dl.line(ImVec2(at.x + size.x / 2, at.y + size.y), ImVec2(cell_min.x + cell / 2, cell_min.y), color, 1.5f);
        dl.text(at, color, text);
        ui::log().record_box(text, "annotation", at, size);
        return;
    }
    const ImVec2 below(cell_min.x, cell_min.y + cell);
    dl.fill_rect(ImVec2(below.x - 0.2f * font, below.y), ImVec2(below.x + size.x + 0.2f * font, below.y + size.y),
                 ImGui::GetColorU32(ImGuiCol_WindowBg), 3.0f);
    dl.text(below, color, text);
    ui::log().record_box(text, "annotation", below, size);
}

void pair_grid(Context& ctx, ImVec2 origin, ImVec2 size, float free_from_x) {
    const Planes& planes = ctx.frame.planes();
    const LabParams& p = ctx.params;
    const int pairs = static_cast<int>(planes.pairs.size());
    // As square as the area allows.
    int columns = std::max(1, static_cast<int>(std::ceil(std::sqrt(pairs * size.x / std::max(size.y, 1.0f)))));
    int rows = (pairs + columns - 1) / columns;
    const float cell = std::min(size.x / columns, size.y / rows);
    draw::Canvas dl = draw::Canvas::window();
    // The focused pair: a faint grey tint and an outline, which hide neither q's red nor k's blue.
    const ImU32 tint = ImGui::GetColorU32(ImGuiCol_TextDisabled, 0.18f), outline = ImGui::GetColorU32(ImGuiCol_Text);
    const float grid_right = origin.x + size.x;
    for (int j = 0; j < pairs; ++j) {
        const ImVec2 cell_min(origin.x + (j % columns) * cell, origin.y + (j / columns) * cell);
        const ImVec2 c(cell_min.x + cell / 2, cell_min.y + cell / 2);
        const float r = cell * 0.42f;
        if (j == p.focused_pair) {
            dl.fill_rect(cell_min, ImVec2(cell_min.x + cell, cell_min.y + cell), tint);
            dl.rect(cell_min, ImVec2(cell_min.x + cell, cell_min.y + cell), outline, 2.0f);
        }
        for (const Annotation& a : ctx.annotations) {  // a lesson pointing at this pair
            if (a.at == "pair" && static_cast<int>(a.x) == j) {
                dl.rect(cell_min, ImVec2(cell_min.x + cell, cell_min.y + cell), ctx.colors.naive, 3.0f);
                pair_label(ctx, a.text, cell_min, cell, origin, grid_right, free_from_x);
            }
        }
        dl.circle(c, r, ImGui::GetColorU32(ImGuiCol_Border), 20);
        const bool hidden = curves_hidden(ctx);
        // q at m and k at n = m − Δk, as in the focused plane: the angle between them is (m−n)·θ_j.
        const auto unit = [](std::complex<double> z) { return std::abs(z) > 0 ? z / std::abs(z) : std::complex<double>(1.0, 0.0); };
        const float thickness = std::max(1.0f, cell / 24);
        const lab::products::PlanePair& pair = planes.pairs[static_cast<std::size_t>(j)];
        const double f = ctx.position_fraction;
        if (!hidden) {
            dl.line(c, to_screen(c, r * 0.8f, glide(unit(pair.k_at_n), pair.theta, f)), ctx.colors.k, thickness);
            dl.line(c, to_screen(c, r, glide(unit(pair.q_at_m), pair.theta, f)), ctx.colors.q, thickness);
        }
        ImGui::SetCursorScreenPos(cell_min);
        ImGui::PushID(j);
        // ImGui refuses a 0 px button.
        if (ImGui::InvisibleButton("pair", ImVec2(std::max(1.0f, cell), std::max(1.0f, cell)))) ctx.requests.focus_pair = j;
        ui::log().record_box(fmt::format("plane of pair {}", j), "plane", cell_min, ImVec2(cell, cell));  // for scripts
        if (ImGui::IsItemHovered()) {
            if (ui::tooltips_allowed()) ImGui::SetTooltip("pair %d: θ = %.6g rad/position, wavelength %.4g positions\nangle at m: %.4f°", j,
                              pair.theta, pair.wavelength, pair.angle_at_m);
        }
        ImGui::PopID();
    }
}

// Compare mode: the focused pair of each setting side by side at the same m, each headed by its
// name (in its colour) and its angles.
void compared_planes(Context& ctx) {
    const LabParams& p = ctx.params;
    const int settings = std::min(ctx.compute.settings(), setting_count(p));
    ui::text(fmt::format("q at m = {}", p.position), ctx.colors.q);
    ui::same_line_if_fits(fmt::format("k at n = m − {}", p.key_distance));
    ui::text(fmt::format("k at n = m − {}", p.key_distance), ctx.colors.k);
    // A column per setting: its name, its angles (wrapped in the column), then its plane, the
    // planes level with each other.
    if (!ImGui::BeginTable("compared planes", settings, ImGuiTableFlags_SizingStretchSame)) return;
    ImGui::TableNextRow();
    for (int s = 0; s < settings; ++s) {
        const Planes& planes = ctx.frame.planes(s);
        if (planes.pairs.empty()) continue;
        const int i = planes.focused;
        ImGui::TableNextColumn();
        // The name on one line, cut to the column with "…" (whole on hover): wrapped, four long
        // config names took the cell's height from the angles and planes below.
        ui::text(ui::cut_to_width(setting_name(p, s), ImGui::GetContentRegionAvail().x), setting_color(ctx, s));
        ui::tip((setting_name(p, s) + "\n" + setting_source(p, s)).c_str());
        // The longest reading that fits the column on one line (four settings share a small cell).
        const double at_m = planes.pairs[static_cast<std::size_t>(i)].angle_at_m, between = planes.pairs[static_cast<std::size_t>(i)].angle_between;
        const std::string readings[] = {fmt::format("pair {}: m·θ = {:.2f}°, (m−n)·θ = {:.2f}°", i, at_m, between),
                                        fmt::format("pair {}: m·θ = {:.2f}°", i, at_m), fmt::format("m·θ = {:.1f}°", at_m)};
        const float room = ImGui::GetContentRegionAvail().x;
        const std::string* shown = &readings[2];
        for (const std::string& r : readings) {
            if (ImGui::CalcTextSize(r.c_str()).x <= room) {
                shown = &r;
                break;
            }
        }
        ui::text_disabled(*shown);
        if (ImGui::IsItemHovered() && ui::tooltips_allowed()) ImGui::SetTooltip("%s", readings[0].c_str());
    }
    ImGui::TableNextRow();
    const float height = ImGui::GetContentRegionAvail().y - ImGui::GetStyle().CellPadding.y * 2;
    for (int s = 0; s < settings; ++s) {
        ImGui::TableNextColumn();
        const float width = ImGui::GetContentRegionAvail().x;
        const float side = std::max(10.0f, std::min(width, height));
        const ImVec2 at = ImGui::GetCursorScreenPos();
        ImGui::PushID(s);
        focused_plane(ctx, ImVec2(at.x + (width - side) / 2, at.y), side, ctx.frame.planes(s), false);
        ImGui::PopID();
    }
    ImGui::EndTable();
}

}  // namespace

void planes_view(Context& ctx) {
    const LabParams& p = ctx.params;
    const Planes& planes = ctx.frame.planes();
    if (comparing(p)) {
        caption("The focused pair of every compared setting at the same m.",
                "Each setting's pair i as a point in its plane, q at m and k at n = m − Δk, rotated by its own θ_i: "
                "where the settings' θ_i differ, so do the angles (a setting with fewer pairs shows its last). The "
                "angle between q and k is (m − n)·θ_i in each.");
        compared_planes(ctx);
        return;
    }
    caption("Pair i turns by m·θ_i: fast pairs first, slow pairs last.",
            "Each pair of components of q and k is a point in its own plane, rotated by m·θ_i at "
            "position m. Pair 0 spins fast, the last pairs barely move. The small planes show every "
            "pair's q at m and (shorter) k at n = m − Δk; click one to focus it.");
    if (planes.pairs.empty()) return;
    const int i = planes.focused;
    const lab::products::PlanePair& pair = planes.pairs[static_cast<std::size_t>(i)];
    if (curves_hidden(ctx)) {  // the angles would give the answer away
        ui::text(fmt::format("pair {}: θ = {:.4g}", i, pair.theta));
    } else {
        ui::text(fmt::format("pair {}: θ = {:.4g}, m·θ = {:.2f}°, (m−n)·θ = {:.2f}°", i, pair.theta, pair.angle_at_m, pair.angle_between));
    }
    const float readout_end = ImGui::GetItemRectMax().x;  // a lesson's pair label may sit right of it
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float side = std::max(10.0f, std::min(avail.y, avail.x * 0.48f));
    focused_plane(ctx, origin, side, planes);
    const float gap = ImGui::GetFontSize() * 0.5f;
    pair_grid(ctx, ImVec2(origin.x + side + gap, origin.y), ImVec2(avail.x - side - gap, side), readout_end);
}

}  // namespace ropelab::views
