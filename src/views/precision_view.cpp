// View 8: precision. How far the angles of two common implementations drift from the exact one
// as the position grows, for the focused pair: fp32 sin/cos of float(m)·θ, and the same rounded
// to bfloat16 as bf16 models store cos/sin.
#include <algorithm>

#include "views/views.h"

namespace ropelab::views {

void precision_view(Context& ctx) {
    const LabParams& p = ctx.params;
    const LabData& d = ctx.compute.data();
    caption("How far fp32 and bf16 angles drift from exact.",
            "|naive − exact| angle vs position. fp32 sin/cos(float(m)·θ) loses about 6e-8·m rad "
            "(0.06 rad at a million); bf16 cos/sin tables are off by ~4e-3 from the start. Pair 0 "
            "has θ = 1 exactly, so its fp32 product is exact: the worst pair is drawn too.");
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    plot::Plot plot("precision", ctx.state.precision, ImVec2(avail.x, std::max(40.0f, avail.y)),
                    {1.0, d.precision_positions.back()}, {"position m", "angle error (rad)", true, true, true, true});
    plot.line("bf16", d.precision_positions, d.bf16_error, ctx.colors.bf16);
    plot.line("fp32, worst pair", d.precision_positions, d.naive_error_worst, ctx.colors.bound);
    plot.line("fp32, this pair", d.precision_positions, d.naive_error, ctx.colors.naive);
    plot.vline(std::max<double>(1.0, static_cast<double>(p.position)), ctx.colors.marker, "m");
    plot.finish();
}

}  // namespace ropelab::views
