// The head's rotary components as a row of cells, once per layout, with an arc joining the two
// cells of every pair: interleaved pairs (2i, 2i+1) are neighbours, half pairs (i, i + d/2) span
// half the head. The same q shades both rows (the vector does not change, only which components
// turn together); the focused pair's arcs and cells stand out, so stepping the pair (or a lesson
// keyframe on it) shows how each layout forms its pairs.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "views/views.h"
#include "ui/widgets.h"
#include "plot/screen.h"

namespace ropelab::views {

void pairing_strip(Context& ctx, ImVec2 size) {
    const lab::products::PairingStrip& strip = ctx.frame.pairing_strip();
    const int dim = strip.dim, pairs = dim / 2;
    const int focus = strip.focused;
    draw::Canvas dl = draw::Canvas::window();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float font = ImGui::GetFontSize();
    const float label_w = std::max(ImGui::CalcTextSize("interleaved").x, ImGui::CalcTextSize("half").x) + 0.6f * font;
    const float left = at.x + label_w, width = std::max(1.0f, size.x - label_w);
    const float cell = width / static_cast<float>(dim), row_h = 0.9f * font;
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), faint = ImGui::GetColorU32(ImGuiCol_Text, 0.25f);

    const auto row = [&](PairLayout layout, float top, bool arcs_above) {
        const std::string_view name = layout == PairLayout::Interleaved ? "interleaved" : "half";
        dl.text(ImVec2(at.x, top), layout == strip.layout ? text : ImGui::GetColorU32(ImGuiCol_TextDisabled),
                    name.data(), name.data() + name.size());
        const auto& components = strip.of(layout);
        if (components.empty()) return;
        const auto [fa, fb] = components[static_cast<std::size_t>(focus)];
        for (int c = 0; c < dim; ++c) {
            // Shade: |q_c| against the largest component, in q's colour.
            const double v = strip.shade[static_cast<std::size_t>(c)];
            const ImVec2 a(left + c * cell, top), b(left + (c + 1) * cell - (cell > 3 ? 1.0f : 0.0f), top + row_h);
            ImVec4 q = ImGui::ColorConvertU32ToFloat4(ctx.colors.q);
            q.w = static_cast<float>(0.15 + 0.85 * v);
            dl.fill_rect(a, b, ImGui::ColorConvertFloat4ToU32(q));
            if (c == fa || c == fb) dl.rect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), ctx.colors.marker, 2.0f);
        }
        // One arc per pair, bowing away from the row; the focused pair's drawn bold.
        const float edge = arcs_above ? top : top + row_h, sign = arcs_above ? -1.0f : 1.0f;
        for (int i = 0; i < pairs; ++i) {
            const auto [ca, cb] = components[static_cast<std::size_t>(i)];
            const float xa = left + (ca + 0.5f) * cell, xb = left + (cb + 0.5f) * cell;
            const float rise = sign * std::min(1.0f * font, 0.25f * font + 0.5f * (xb - xa));
            const bool focused = i == focus;
            if (!focused && pairs > 64 && i % (pairs / 64) != 0) continue;  // keep a dense head legible
            dl.bezier(ImVec2(xa, edge), ImVec2(xa, edge + rise), ImVec2(xb, edge + rise), ImVec2(xb, edge),
                               focused ? ctx.colors.marker : faint, focused ? 2.5f : 1.0f);
        }
        const std::string which = fmt::format("({}, {})", fa, fb);
        const float wx = std::clamp(left + (fa + fb + 1) * 0.5f * cell - ImGui::CalcTextSize(which.c_str()).x / 2, left,
                                    at.x + size.x - ImGui::CalcTextSize(which.c_str()).x);
        const float wy = arcs_above ? top - 2.0f * font : top + row_h + 1.0f * font;
        dl.text(ImVec2(wx, wy), ctx.colors.marker, which.c_str());
        ui::log().check_fits(which, ImVec2(wx, wy), ImVec2(wx + ImGui::CalcTextSize(which.c_str()).x, wy + font),
                             ImVec4(at.x, at.y, at.x + size.x, at.y + size.y));
    };
    // Interleaved on top with its arcs above it, half below with its arcs under it.
    const float top = at.y + 2.1f * font;
    row(PairLayout::Interleaved, top, true);
    row(PairLayout::Half, top + row_h + 0.3f * font, false);
    ImGui::Dummy(size);
}

}  // namespace ropelab::views
