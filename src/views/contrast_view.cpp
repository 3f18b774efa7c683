// View 2: addition vs rotation. The same 2D content vector x (the focused pair of q) at one
// position m: left the sinusoidal encoding adds p_m, so the arrow jumps and its length changes;
// right RoPE rotates it by m·θ_i, so its length stays.
#include <algorithm>
#include <cmath>
#include <complex>

#include <fmt/format.h>

#include "views/views.h"
#include "ui/widgets.h"
#include "plot/screen.h"

namespace ropelab::views {

namespace {

ImVec2 at(ImVec2 c, float unit, std::complex<double> z) {
    return ImVec2(c.x + unit * static_cast<float>(z.real()), c.y - unit * static_cast<float>(z.imag()));
}

void arrow(draw::Canvas& dl, ImVec2 from, ImVec2 to, ImU32 color, float thickness) {
    dl.line(from, to, color, thickness);
    dl.disc(to, thickness * 1.6f, color);
}

void panel(const char* title, ImVec2 origin, ImVec2 size, float unit, draw::Canvas& dl) {
    const ImVec2 c(origin.x + size.x / 2, origin.y + size.y / 2);
    const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border);
    dl.rect(origin, ImVec2(origin.x + size.x, origin.y + size.y), grid);
    dl.line(ImVec2(origin.x, c.y), ImVec2(origin.x + size.x, c.y), grid);
    dl.line(ImVec2(c.x, origin.y), ImVec2(c.x, origin.y + size.y), grid);
    dl.circle(c, unit, grid, 48);  // the unit circle: where p_m lives
    dl.text(ImVec2(origin.x + 4, origin.y + 2), ImGui::GetColorU32(ImGuiCol_Text), title);
}

}  // namespace

void contrast_view(Context& ctx) {
    caption("Adding p_m changes the length; rotating does not.",
            "Sinusoidal encoding adds p_m to the vector: its length and direction jump with m and "
            "content mixes with position. RoPE rotates it by m·θ_i: the length never changes.");
    const lab::products::Contrast& v = ctx.frame.contrast(single_setting_header(ctx));
    const auto x = v.x, added = v.added, rotated = v.rotated;

    ui::text(fmt::format("|x| = {:.4f}    |x + p_m| = {:.4f} (angle {:.1f}°)    |R(mθ)x| = {:.4f} (angle {:.1f}°)",
                         std::abs(x), std::abs(added), std::arg(added) * 180 / M_PI, std::abs(rotated),
                         std::arg(rotated) * 180 / M_PI));
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = ImGui::GetFontSize() * 0.5f;
    const ImVec2 half(std::max(10.0f, (avail.x - gap) / 2), std::max(10.0f, avail.y));
    const double reach = std::max(1.0, std::abs(x)) + 1.0;
    const float unit = static_cast<float>(0.46 * std::min(half.x, half.y) / reach);
    draw::Canvas dl = draw::Canvas::window();

    panel("addition: x + p_m", origin, half, unit, dl);
    const ImVec2 c1(origin.x + half.x / 2, origin.y + half.y / 2);
    arrow(dl, c1, at(c1, unit, x), ctx.colors.bound, 2.0f);
    arrow(dl, at(c1, unit, x), at(c1, unit, added), ctx.colors.sinusoidal, 2.0f);
    arrow(dl, c1, at(c1, unit, added), ctx.colors.q, 3.0f);

    const ImVec2 o2(origin.x + half.x + gap, origin.y);
    panel("rotation: R(m·θ_i) x", o2, half, unit, dl);
    const ImVec2 c2(o2.x + half.x / 2, o2.y + half.y / 2);
    dl.circle(c2, unit * static_cast<float>(std::abs(x)), ctx.colors.q & 0x60FFFFFF, 48);
    arrow(dl, c2, at(c2, unit, x), ctx.colors.bound, 2.0f);
    arrow(dl, c2, at(c2, unit, rotated), ctx.colors.q, 3.0f);
    ImGui::Dummy(ImVec2(avail.x, half.y));
}

}  // namespace ropelab::views
