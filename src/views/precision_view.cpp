// View 8: precision. How far the angles of two common implementations drift from the exact one
// as the position grows, for the focused pair: fp32 sin/cos of float(m)·θ, and the same rounded
// to bfloat16 as bf16 models store cos/sin.
#include <algorithm>

#include <fmt/format.h>

#include "state/compare.h"
#include "views/views.h"

namespace ropelab::views {

void precision_view(Context& ctx) {
    const LabParams& p = ctx.params;
    const LabData& d = ctx.compute.data();
    if (comparing(p)) {
        caption("How far each setting's fp32 angle drifts from exact.",
                "|naive − exact| angle of the focused pair vs position, for every compared setting: fp32 sin/cos("
                "float(m)·θ_i) rounds the angle relative to its size, so it loses up to about 6e-8·m·θ_i rad: a "
                "setting that slows this pair drifts less, and an exact product (θ_i = 1) not at all. bf16 tables: "
                "show one setting alone.");
    } else {
        caption("How far fp32 and bf16 angles drift from exact.",
                "|naive − exact| angle vs position. fp32 sin/cos(float(m)·θ) loses about 6e-8·m rad "
                "(0.06 rad at a million); bf16 cos/sin tables are off by ~4e-3 from the start. Pair 0 "
                "has θ = 1 exactly, so its fp32 product is exact: the worst pair is drawn too.");
    }
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    if (comparing(p)) {
        // Each setting's focused pair in fp32: its θ_i decides how the rounding of float(m)·θ grows.
        const int settings = std::min(ctx.compute.settings(), setting_count(p));
        plot::Plot plot("precision", ctx.state.precision, ImVec2(avail.x, std::max(40.0f, avail.y)),
                        {1.0, d.precision_positions.back()}, {"position m", "fp32 angle error (rad)", true, true, true, true});
        for (int s = 0; s < settings; ++s) {
            const LabData& sd = ctx.compute.setting_data(s);
            std::string name = fmt::format("{}, pair {}", setting_name(p, s), std::clamp(p.focused_pair, 0, sd.freqs.pairs() - 1));
            // Settings that leave this pair at the same θ_i draw the same curve: say which one covers it.
            for (int t = settings - 1; t > s; --t) {
                if (ctx.compute.setting_data(t).naive_error == sd.naive_error) {
                    name += fmt::format(" (under {})", setting_name(p, t));
                    break;
                }
            }
            plot.line(name.c_str(), sd.precision_positions, sd.naive_error, setting_color(ctx, s));
        }
        plot.vline(std::max<double>(1.0, static_cast<double>(p.position)), ctx.colors.marker, "m");
        plot.finish();
        return;
    }
    plot::Plot plot("precision", ctx.state.precision, ImVec2(avail.x, std::max(40.0f, avail.y)),
                    {1.0, d.precision_positions.back()}, {"position m", "angle error (rad)", true, true, true, true});
    plot.line("bf16", d.precision_positions, d.bf16_error, ctx.colors.bf16);
    plot.line("fp32, worst pair", d.precision_positions, d.naive_error_worst, ctx.colors.bound);
    plot.line("fp32, this pair", d.precision_positions, d.naive_error, ctx.colors.naive);
    plot.vline(std::max<double>(1.0, static_cast<double>(p.position)), ctx.colors.marker, "m");
    plot.finish();
}

}  // namespace ropelab::views
