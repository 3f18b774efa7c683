// View 5: the rotation angle of every pair at every position (rows: positions, columns: pairs)
// through a cyclic colormap, drawn from the compute device's texture, with its colour bar; the
// window of rows is the page holding the current position, whose row is marked; hover reads the
// exact angle. Below it, the angle of each pair at the current position.
#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "core/colormap.h"
#include "state/compare.h"
#include "views/views.h"
#include "ui/widgets.h"
#include "plot/screen.h"

namespace ropelab::views {

namespace {

// The cyclic colormap from −π to π with its ticks: without it the colours mean nothing.
void colour_bar(float width, bool diverging = false) {
    const float h = 0.8f * ImGui::GetFontSize();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    draw::Canvas dl = draw::Canvas::window();
    constexpr int kSteps = 96;
    for (int k = 0; k < kSteps; ++k) {
        const float angle = static_cast<float>(-M_PI + 2.0 * M_PI * (k + 0.5) / kSteps);
        const auto rgb = diverging ? diverging_color(angle) : cyclic_color(angle);
        const ImU32 color = IM_COL32(static_cast<int>(rgb[0] * 255), static_cast<int>(rgb[1] * 255),
                                     static_cast<int>(rgb[2] * 255), 255);
        dl.fill_rect(ImVec2(at.x + width * k / kSteps, at.y), ImVec2(at.x + width * (k + 1) / kSteps, at.y + h), color);
    }
    static const char* const kTicks[] = {"−π", "−π/2", "0", "π/2", "π"};
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    for (int t = 0; t < 5; ++t) {
        const float x = at.x + width * t / 4.0f;
        const float tw = ImGui::CalcTextSize(kTicks[t]).x;
        const float tx = std::clamp(x - tw / 2, at.x, at.x + width - tw);
        dl.line(ImVec2(x, at.y + h), ImVec2(x, at.y + h + 3), text);
        dl.text(ImVec2(tx, at.y + h + 2), text, kTicks[t]);
    }
    ImGui::Dummy(ImVec2(width, h + ImGui::GetFontSize() + 4));
}

// Which angles the heatmap shows: with a difference, whose minus whose; else the base's, and why
// an asked-for difference is not shown.
void heatmap_heading(Context& ctx, int diff) {
    const LabParams& p = ctx.params;
    const LabCompute& compute = ctx.compute;
    if (diff > 0) {
        ui::text(fmt::format("angle of {} − angle of {}", setting_name(p, 0), setting_name(p, diff)), setting_color(ctx, diff));
        if (ImGui::IsItemHovered() && ui::tooltips_allowed()) {
            ImGui::SetTooltip("White: the two settings turn pair i to the same angle at m; red or blue: the base leads or "
                              "lags, up to half a turn (the ends meet)");
        }
        return;
    }
    base_setting_note(ctx);
    if (comparing(p) && p.heatmap_difference > 0 && p.heatmap_difference <= p.compared_count) {
        ui::text_disabled(fmt::format("base − {} needs as many pairs as the base ({} vs {})", setting_name(p, p.heatmap_difference),
                                      compute.setting_data(std::min(p.heatmap_difference, compute.settings() - 1)).freqs.pairs(),
                                      compute.data().freqs.pairs()));
    }
}

// Where the heatmap's image lies on screen, and the positions its rows hold.
struct HeatmapImage {
    ImVec2 min, size;
    std::int64_t first, stride;
};

// A lesson pointing at a cell: x = pair, y = position, circled and labelled.
void cell_annotations(Context& ctx, const HeatmapImage& image) {
    const int pairs = ctx.compute.data().freqs.pairs();
    for (const Annotation& a : ctx.annotations) {
        if (a.at != "cell") continue;
        // Only a cell on this page of rows: a position far off it (or a pair the model lacks)
        // would map to pixels far outside the window, or to no float at all.
        const double row = (a.y - static_cast<double>(image.first)) / static_cast<double>(image.stride);
        if (!(a.x >= 0 && a.x < pairs && row >= 0 && row < kHeatmapRows)) continue;
        const float cx = image.min.x + (static_cast<float>(a.x) + 0.5f) / static_cast<float>(pairs) * image.size.x;
        const float cy = image.min.y + static_cast<float>(row / kHeatmapRows) * image.size.y;
        draw::Canvas dl = draw::Canvas::window();
        const float r = 0.6f * ImGui::GetFontSize();
        dl.circle(ImVec2(cx, cy), r, ImGui::GetColorU32(ImGuiCol_Text), 24, 3.0f);
        const ImVec2 text_at(cx + r * 1.5f, cy - r);
        const ImVec2 size = ImGui::CalcTextSize(a.text.c_str());
        dl.fill_rect(ImVec2(text_at.x - 4, text_at.y - 2), ImVec2(text_at.x + size.x + 4, text_at.y + size.y + 2),
                          ImGui::GetColorU32(ImGuiCol_PopupBg), 4.0f);  // readable over any colour
        dl.text(text_at, ImGui::GetColorU32(ImGuiCol_Text), a.text.c_str());
    }
}

// The exact angle (or difference) of the cell under the mouse, at an integer m.
void cell_tooltip(Context& ctx, const HeatmapImage& image, int diff) {
    const LabCompute& compute = ctx.compute;
    const LabData& d = compute.data();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const int pair = std::clamp(static_cast<int>((mouse.x - image.min.x) / image.size.x * d.freqs.pairs()), 0,
                                d.freqs.pairs() - 1);
    const auto row = static_cast<std::int64_t>((mouse.y - image.min.y) / image.size.y * kHeatmapRows);
    const std::int64_t m = image.first + std::clamp<std::int64_t>(row, 0, kHeatmapRows - 1) * image.stride;
    const double degrees = ctx.frame.heatmap(diff).cell_degrees(pair, m);
    if (ui::tooltips_allowed() && diff > 0) {
        ImGui::SetTooltip("m = %lld, pair %d: angle difference %.4f°", static_cast<long long>(m), pair, degrees);
    } else if (ui::tooltips_allowed()) {
        ImGui::SetTooltip("m = %lld, pair %d: angle %.4f°", static_cast<long long>(m), pair, degrees);
    }
}

// Below the heatmap, the current token's angle (or difference) pair by pair, where a readable
// plot fits.
void angles_plot(Context& ctx, int diff) {
    const LabParams& p = ctx.params;
    const LabCompute& compute = ctx.compute;
    const LabData& d = compute.data();
    // With a difference shown, the current row's differences, exact as the texture's.
    const std::vector<double>& angles = ctx.frame.heatmap(diff).row;
    std::vector<double> pairs;
    for (std::size_t i = 0; i < angles.size(); ++i) pairs.push_back(static_cast<double>(i));
    const ImVec2 rest = ImGui::GetContentRegionAvail();
    if (rest.y < 5.0f * ImGui::GetFontSize()) return;
    plot::Plot plot("angles", ctx.state.angles, ImVec2(rest.x, std::max(40.0f, rest.y)),
                    {0.0, std::max(1.0, d.freqs.pairs() - 1.0)}, {"pair i", diff > 0 ? "difference at m (degrees)" : "angle at m (degrees)", false, false, true});
    const std::string name = diff > 0 ? "difference of pair i at m" : "angle of pair i at m";
    plot.line(name.c_str(), pairs, angles, diff > 0 ? setting_color(ctx, diff) : ctx.colors.q, 2.0f);
    plot.vline(p.focused_pair, ctx.colors.marker, "focused");
    plot.finish();
}

}  // namespace

void heatmap_view(Context& ctx) {
    const LabParams& p = ctx.params;
    const LabCompute& compute = ctx.compute;
    const LabData& d = compute.data();
    caption("m·θ_i mod 2π: positions down, pairs across.",
            "The rotation angle of every pair at every position, through a cyclic colormap: fast "
            "pairs wrap often, slow ones drift; the bar below maps colour to angle. The rows are the "
            "page of positions holding the current one (marked), so the window follows m. Hover for "
            "the exact angle. Below, the current token's angle pair by pair.");
    // Compare mode: the base's angles, or the base's minus a compared setting's.
    const int diff = comparing(p) ? compute.difference_setting() : 0;
    heatmap_heading(ctx, diff);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const HeatmapImage image{ImGui::GetCursorScreenPos(), ImVec2(avail.x, std::max(20.0f, avail.y * 0.45f)),
                             compute.heatmap_first(), compute.heatmap_stride()};
    const unsigned texture = diff > 0 ? compute.difference_texture() : compute.heatmap_texture();
    ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(texture)), image.size);
    cell_annotations(ctx, image);
    const bool hovered = ImGui::IsItemHovered();
    {  // the current position's row
        const double row = static_cast<double>(p.position - image.first) / static_cast<double>(image.stride);
        const float y = image.min.y + static_cast<float>((row + 0.5) / kHeatmapRows) * image.size.y;
        // A dark and a light stroke around the marker's colour: it stands out from every colour
        // of the cyclic map (a single stroke vanished where the map shares its hue).
        const ImVec2 from(image.min.x, y), to(image.min.x + avail.x, y);
        draw::Canvas canvas = draw::Canvas::window();
        canvas.line(from, to, IM_COL32(0, 0, 0, 255), 7.0f);
        canvas.line(from, to, IM_COL32(255, 255, 255, 255), 4.0f);
        canvas.line(from, to, ctx.colors.marker, 2.0f);
        ui::log().record_rect("current position's row", "marker", std::to_string(p.position), ImVec2(from.x, y - 3.5f),
                              ImVec2(avail.x, 7.0f));
    }
    if (hovered) cell_tooltip(ctx, image, diff);
    colour_bar(avail.x, diff > 0);
    ui::text_disabled(fmt::format("positions {} .. {} (every {}; m = {} marked), pairs 0 .. {}", image.first,
                                  image.first + (kHeatmapRows - 1) * image.stride, image.stride, p.position, d.freqs.pairs() - 1));
    angles_plot(ctx, diff);
}

}  // namespace ropelab::views
