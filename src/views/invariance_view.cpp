// View 4: translation invariance. The score at one fixed distance Δ as the query moves along
// the sequence: RoPE is flat (it depends on m − n only), the additive encoding moves.
#include <fmt/format.h>

#include "state/compare.h"
#include "views/views.h"
#include "ui/widgets.h"

namespace ropelab::views {

void invariance_view(Context& ctx) {
    const LabParams& p = ctx.params;
    caption("Same Δ, moving query: RoPE is flat, addition wanders.",
            "The score at one fixed distance as the query moves along the sequence. RoPE's stays "
            "put (it depends on m − n only); the sinusoidal (additive) score wanders. Measured by "
            "rotating q and k for real, not by formula.");
    const int shown = single_setting_header(ctx);
    const LabData& d = ctx.compute.setting_data(shown);
    const std::string delta = fmt::format("Δ = {}{}, query positions {} .. {}", invariance_delta(p),
                                          p.link_distance ? " (linked: the key distance)" : "", d.invariance_positions.front(),
                                          d.invariance_positions.back());
    ui::text_disabled(delta);
    ui::log().record_box(delta, "readout", ImGui::GetItemRectMin(), ImGui::GetItemRectSize());
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    plot::Plot plot("invariance", ctx.state.invariance, ImVec2(avail.x, std::max(40.0f, avail.y)),
                    {d.invariance_positions.front(), d.invariance_positions.back()},
                    {"query position m", "score at fixed Δ", false, false, true, true});
    if (p.encoding != Encoding::Rope) {
        plot.line("sinusoidal (additive)", d.invariance_positions, d.invariance_sinusoidal, ctx.colors.sinusoidal);
    }
    if (p.encoding != Encoding::Sinusoidal) {
        plot.line("RoPE", d.invariance_positions, d.invariance_rope, comparing(ctx.params) ? setting_color(ctx, shown) : ctx.colors.rope, 2.5f);
    }
    if (p.position >= d.invariance_positions.front() && p.position <= d.invariance_positions.back()) {
        plot.vline(static_cast<double>(p.position), ctx.colors.marker, "m");
    }
    plot.finish();
}

}  // namespace ropelab::views
