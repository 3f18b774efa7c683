// View 9: the phasor sum. The score at Δ is Re Σ c_i·e^{iΔθ_i} (+ the pass-through part): each
// pair an arrow of length |c_i| turned by Δθ_i, laid head to tail (the phasors product, lab/products/phasors.h). At Δ = 0
// the arrows line up; as Δ grows the fast pairs scatter, the chain curls up and its end's real
// part — the score — shrinks. Δ is the lab's key distance, the planes' and the score cursor's.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "plot/plot.h"
#include "plot/screen.h"
#include "state/compare.h"
#include "ui/widgets.h"
#include "views/views.h"

namespace ropelab::views {

namespace {

using Chain = std::vector<std::complex<double>>;

// A pair's colour is its speed: the fastest pair (0) vermillion, through orange and green, to
// the slowest blue (Okabe–Ito colours, told apart with colour-vision deficiencies), so the
// picture itself shows which arrows scatter first. Alternate pairs a shade apart (towards the
// background), so neighbouring arrows stay told apart.
ImU32 pair_color(const Context& ctx, int pair, int pairs) {
    static constexpr float kStops[4][3] = {{213, 94, 0}, {230, 159, 0}, {0, 158, 115}, {0, 114, 178}};
    const float t = pairs > 1 ? static_cast<float>(pair) / static_cast<float>(pairs - 1) * 3.0f : 0.0f;
    const int k = std::min(2, static_cast<int>(t));
    const float u = t - static_cast<float>(k);
    ImVec4 c(0, 0, 0, 1);
    float* rgb[3] = {&c.x, &c.y, &c.z};
    for (int j = 0; j < 3; ++j) *rgb[j] = (kStops[k][j] + (kStops[k + 1][j] - kStops[k][j]) * u) / 255.0f;
    if (pair % 2 == 1) {
        const float towards = ctx.params.theme == Theme::Dark ? 0.0f : 1.0f;  // towards the background, still readable
        for (float* v : rgb) *v += (towards - *v) * 0.3f;
    }
    return ImGui::ColorConvertFloat4ToU32(c);
}

ImU32 dimmed(ImU32 color, float alpha) {
    ImVec4 c = ImGui::ColorConvertU32ToFloat4(color);
    c.w *= alpha;
    return ImGui::ColorConvertFloat4ToU32(c);
}

void arrow(draw::Canvas& dl, ImVec2 from, ImVec2 to, ImU32 color, float thickness) {
    thickness *= plot::line_emphasis();  // thick lines for a projector
    dl.line(from, to, color, thickness);
    const ImVec2 d(to.x - from.x, to.y - from.y);
    const float len = std::sqrt(d.x * d.x + d.y * d.y);
    if (len < 3.0f * thickness + 3.0f) return;  // too short for a head: the line alone
    const ImVec2 u(d.x / len, d.y / len), n(-u.y, u.x);
    const float head = std::min(len * 0.35f, 3.0f * thickness + 4.0f);
    dl.triangle(to, ImVec2(to.x - u.x * head + n.x * head * 0.45f, to.y - u.y * head + n.y * head * 0.45f),
                ImVec2(to.x - u.x * head - n.x * head * 0.45f, to.y - u.y * head - n.y * head * 0.45f), color);
}

// Distance from p to the segment a–b, in pixels.
float segment_distance(ImVec2 p, ImVec2 a, ImVec2 b) {
    const float dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
    const float t = len2 > 0 ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0.0f, 1.0f) : 0.0f;
    const float ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y;
    return std::sqrt(ex * ex + ey * ey);
}

struct Frame {
    ImVec2 origin;  // the complex 0 on screen
    double scale;   // pixels per unit, the same on both axes
    ImVec2 to_screen(std::complex<double> z) const {
        return ImVec2(origin.x + static_cast<float>(scale * z.real()), origin.y - static_cast<float>(scale * z.imag()));
    }
};

// Chains drawn from the origin: the pass-through link (0 → constant) first, then pair 0, 1, …
Chain from_origin(const lab::products::Phasors& phasors) {
    Chain chain = phasors.chain;
    chain.insert(chain.begin(), std::complex<double>(0.0, 0.0));
    return chain;
}

// The box the chains fill: each setting's product's box (its extent over 0 .. N − 1, so the
// picture keeps its scale as Δ sweeps, and its chain now).
PhasorExtent chains_box(const Context& ctx, int settings) {
    PhasorExtent box;
    for (int s = 0; s < settings; ++s) {
        const PhasorExtent& e = ctx.frame.phasors(s).box;
        box.add({e.min_re, e.min_im});
        box.add({e.max_re, e.max_im});
    }
    return box;
}

// With `labelled` false (a cell too small for them to keep apart) the axes without their words.
void axes(draw::Canvas& dl, const Frame& f, ImVec2 min, ImVec2 max, ImU32 text_color, bool labelled) {
    const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border);
    const float font = ImGui::GetFontSize();
    dl.line(ImVec2(min.x, f.origin.y), ImVec2(max.x, f.origin.y), text_color, 1.0f);
    dl.line(ImVec2(f.origin.x, min.y), ImVec2(f.origin.x, max.y), grid, 1.0f);
    dl.circle(f.origin, 0.3f * font, text_color, 16, 1.5f);  // the origin
    if (!labelled) return;
    // Half an em in from the right: the window's clip can end a few pixels short of its content
    // region (a frame's border, a scrollbar's gutter), and the label must not be cut there.
    const char* real_label = "score = Re(sum)";
    const float w = ImGui::CalcTextSize(real_label).x;
    const ImVec2 real_at(max.x - w - 0.5f * font, f.origin.y - 1.2f * font);
    dl.text(real_at, text_color, real_label);
    ui::log().record_box(real_label, "readout", real_at, ImGui::CalcTextSize(real_label));
    dl.text(ImVec2(f.origin.x + 0.3f * font, min.y), text_color, "Im");
    dl.text(ImVec2(f.origin.x - 0.9f * font, f.origin.y + 0.1f * font), text_color, "0");
}

// The chain's end, projected onto the real axis: the score, with its value.
// With `labelled` false (compare mode, whose values head the view) the triangle alone.
void score_marker(draw::Canvas& dl, const Frame& f, std::complex<double> end, ImU32 color, bool labelled, ImVec2 max) {
    const float font = ImGui::GetFontSize();
    const ImVec2 tip = f.to_screen(end), on_axis = f.to_screen({end.real(), 0.0});
    dl.line(tip, on_axis, dimmed(color, 0.7f), 1.0f);
    dl.disc(tip, 0.25f * font, color, 12);
    dl.triangle(on_axis, ImVec2(on_axis.x - 0.4f * font, on_axis.y + 0.6f * font), ImVec2(on_axis.x + 0.4f * font, on_axis.y + 0.6f * font),
                color);
    if (!labelled) return;
    const std::string value = fmt::format("{:.4g}", end.real());
    const float w = ImGui::CalcTextSize(value.c_str()).x;
    const ImVec2 at(std::clamp(on_axis.x - w / 2, 0.0f, max.x - w), on_axis.y + 0.65f * font);
    dl.text(at, color, value);
}

}  // namespace

void phasors_view(Context& ctx) {
    const LabParams& p = ctx.params;
    const bool compare = comparing(p);
    caption("score(Δ) = Re Σ c_i e^{iΔθ_i}: at Δ = 0 the arrows line up; fast pairs scatter as Δ grows.",
            "Each pair i adds an arrow c_i·e^{iΔθ_i}: its length |c_i| = |q_i|·|k_i|, pair i of q and k as complex numbers (times the attention factor²), and "
            "its angle turning at the pair's speed θ_i as the distance Δ grows. Laid head to tail, the arrows end at "
            "the sum, and its real part (the triangle on the real axis) is the score the score view plots at Δ. At "
            "Δ = 0 they line up as far as q and k agree; as Δ grows the fast pairs scatter and the chain curls up, "
            "while the slow pairs stay aligned for long — why RoPE's score decays. The components RoPE leaves "
            "unrotated (partial rotary) are the chain's first link, on the real axis. Arrows are coloured by speed: the "
            "fastest pair (0) vermillion, then orange, green, and the slowest blue; the focused pair is drawn thick: click an arrow to focus its pair. "
            "Exact angles. Δ is the key distance (the planes' k at m − Δ; drag the score plot's cursor when linked).");
    const int settings = compare ? settings_of(p, ctx.compute) : 1;
    std::vector<Chain> chains;
    for (int s = 0; s < settings; ++s) {
        chains.push_back(from_origin(ctx.frame.phasors(s)));
    }
    const std::string delta = fmt::format("Δ = {}{}", p.key_distance, p.link_distance ? " (linked)" : " (key distance)");
    // A scene's "predict, then reveal": the axes stay; no chain and no score until R.
    const bool hidden = curves_hidden(ctx);
    const std::string readout = compare || hidden ? delta : fmt::format("{} · score = {:.6g}", delta, chains[0].back().real());
    ui::text(readout);
    ui::log().record_box(readout, "readout", ImGui::GetItemRectMin(), ImGui::GetItemRectSize());
    ui::tip("Δ is the lab's key distance: with Linked Δ on, the planes, the score cursor, invariance and numbers share it");
    if (!compare) {  // the colour key: a pair's colour is its speed
        const int pairs = ctx.compute.setting_data(0).freqs.pairs();
        // As text the colours are darkened on a light background, to read at ≥ 4.5:1 there.
        const auto key_color = [&](int pair) {
            ImVec4 c = ImGui::ColorConvertU32ToFloat4(pair_color(ctx, pair, pairs));
            if (ctx.params.theme != Theme::Dark) c.x *= 0.6f, c.y *= 0.6f, c.z *= 0.6f;
            return ImGui::ColorConvertFloat4ToU32(c);
        };
        ui::same_line_if_fits("   fast pair 0");
        ui::text("   fast pair 0", key_color(0));
        ImGui::SameLine(0.0f, 0.0f);
        ui::text(fmt::format(" → slow pair {}", pairs - 1), key_color(pairs - 1));
    }
    if (compare && !hidden) {
        for (int s = 0; s < settings; ++s) {
            if (s > 0) ui::same_line_if_fits(setting_name(p, s) + "  ");
            // In a narrow grid cell (five views in a row) a long name ends in "…"; hover: whole.
            const std::string line = fmt::format("{}: {:.4g}", setting_name(p, s), chains[static_cast<std::size_t>(s)].back().real());
            ui::text(ui::cut_to_width(line, ImGui::GetContentRegionAvail().x), setting_color(ctx, s));
            ui::tip((line + "\n" + setting_source(p, s)).c_str());
        }
    }

    const ImVec2 min = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 size(std::max(1.0f, avail.x), std::max(1.0f, avail.y));
    const ImVec2 max(min.x + size.x, min.y + size.y);
    const float font = ImGui::GetFontSize();
    // Equal aspect: the box scaled to fit, centred, with room for the labels around it.
    const PhasorExtent box = chains_box(ctx, settings);
    const double width = std::max(box.max_re - box.min_re, 1e-300), height = std::max(box.max_im - box.min_im, 1e-300);
    const double room_x = std::max(1.0f, size.x - 2.0f * font), room_y = std::max(1.0f, size.y - 3.5f * font);
    double scale = std::min(room_x / width, room_y / height);
    if (!std::isfinite(scale) || scale <= 0) scale = 1.0;
    const ImVec2 centre(min.x + size.x / 2, min.y + size.y / 2);
    const Frame frame{ImVec2(centre.x - static_cast<float>(scale * (box.min_re + box.max_re) / 2),
                             centre.y + static_cast<float>(scale * (box.min_im + box.max_im) / 2)),
                      scale};

    ImGui::InvisibleButton("phasors", size);
    ui::log().record("phasors", "plot");
    const bool hovered = ImGui::IsItemHovered();
    const bool clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
    draw::Canvas dl = draw::Canvas::window();
    dl.push_clip(min, max);
    const ImU32 text_color = ImGui::GetColorU32(ImGuiCol_Text);
    // The axis words and the score's value need lines of their own above and below the real
    // axis, and the width of "score = Re(sum)" beside "Im": a smaller cell draws the chains alone
    // rather than words on words.
    const bool roomy = size.y >= 6.0f * font && size.x >= 16.0f * font;
    axes(dl, frame, min, max, text_color, roomy);

    // The pair under the pointer: the nearest link within reach, of any chain.
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    int near_pair = -1, near_setting = 0;
    float nearest = 0.6f * font;
    for (std::size_t s = 0; s < chains.size() && hovered && !hidden; ++s) {
        for (std::size_t i = 2; i < chains[s].size(); ++i) {
            const float dist = segment_distance(mouse, frame.to_screen(chains[s][i - 1]), frame.to_screen(chains[s][i]));
            if (dist < nearest) nearest = dist, near_pair = static_cast<int>(i) - 2, near_setting = static_cast<int>(s);
        }
    }

    for (std::size_t s = 0; s < chains.size() && !hidden; ++s) {
        const Chain& chain = chains[s];
        const LabData& d = ctx.compute.setting_data(static_cast<int>(s));
        const int focus = std::clamp(p.focused_pair, 0, d.freqs.pairs() - 1);
        if (std::abs(chain[1]) > 0) arrow(dl, frame.to_screen(chain[0]), frame.to_screen(chain[1]), ctx.colors.marker, 1.5f);  // pass-through
        for (std::size_t i = 2; i < chain.size(); ++i) {
            const int pair = static_cast<int>(i) - 2;
            if (pair == focus) continue;  // drawn last, over the others
            const ImU32 color = compare ? setting_color(ctx, static_cast<int>(s)) : pair_color(ctx, pair, d.freqs.pairs());
            arrow(dl, frame.to_screen(chain[i - 1]), frame.to_screen(chain[i]), dimmed(color, 0.75f), 1.5f);
        }
        if (s == 0) {  // each arrow by its box, where a person (or a script) aims to click it
            for (std::size_t i = 2; i < chain.size(); ++i) {
                const ImVec2 a = frame.to_screen(chain[i - 1]), b = frame.to_screen(chain[i]);
                const ImVec2 lo(std::min(a.x, b.x), std::min(a.y, b.y));
                ui::log().record_box(fmt::format("phasor of pair {}", i - 2), "arrow", lo, ImVec2(std::max(a.x, b.x) - lo.x, std::max(a.y, b.y) - lo.y));
            }
        }
        const auto f = static_cast<std::size_t>(focus) + 2;
        if (f < chain.size()) {
            const ImU32 color = compare ? setting_color(ctx, static_cast<int>(s)) : ctx.colors.marker;
            arrow(dl, frame.to_screen(chain[f - 1]), frame.to_screen(chain[f]), color, 3.5f);
        }
        score_marker(dl, frame, chain.back(), compare ? setting_color(ctx, static_cast<int>(s)) : ctx.colors.rope, !compare && roomy, max);
    }
    dl.pop_clip();

    if (near_pair >= 0) {
        const auto i = static_cast<std::size_t>(near_pair);
        const lab::products::Phasors& near = ctx.frame.phasors(near_setting);
        const lab::products::Planes& planes = ctx.frame.planes(near_setting);
        const double theta = i < planes.pairs.size() ? planes.pairs[i].theta : 0.0;
        if (ui::tooltips_allowed()) {
            ImGui::SetTooltip("%spair %d: |c| = %.4g, θ = %.6g rad/position\nΔθ = %.2f° (mod 360°); click to focus it",
                              compare ? (setting_name(p, near_setting) + ", ").c_str() : "", near_pair, near.length[i],
                              theta, near.turned[i] * 180.0 / 3.14159265358979323846);
        }
        if (clicked) ctx.requests.focus_pair = near_pair;
    } else if (hovered && ui::tooltips_allowed()) {
        ImGui::SetTooltip("The first link (grey, on the real axis) is the unrotated pass-through part, if any; then pair 0, 1, …");
    }
}

}  // namespace ropelab::views
