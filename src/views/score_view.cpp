// View 3: score vs distance, ⟨R_m q, R_{m−Δ} k⟩ for Δ = 0 .. N−1, straight from the compute
// device (GPU core or CPU fast path); only M4 columns per pixel come back. The RoFormer bound
// brackets the RoPE curve; the marker is the distance shown in the rotation planes.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "views/views.h"
#include "views/widgets.h"

namespace ropelab::views {

void score_view(Context& ctx) {
    const LabParams& p = ctx.params;
    LabCompute& compute = ctx.compute;
    gpu::ComputeDevice& device = compute.device();
    caption("q·k against the distance m − n, computed for every Δ < N.",
            "RoPE's score depends on the distance only; it oscillates and decays, bracketed by "
            "RoFormer's relative bound B(Δ) = Σ|S_j|/(d/2), scaled to meet the score at Δ = 0. The "
            "additive score also depends on where the query sits (here at m = N − 1). Wheel "
            "zooms, drag pans, double-click resets.");
    const std::int64_t stride = compute.series_stride();
    ImGui::TextDisabled("%s, N = %lld%s", device.name().c_str(), static_cast<long long>(p.max_distance),
                        stride > 1 ? fmt::format(" (preview: every {}th distance)", stride).c_str() : "");
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    plot::Options options{"distance Δ", "score", p.log_distance, false, true};
    plot::Plot plot("scores", ctx.state.scores, ImVec2(avail.x, std::max(40.0f, avail.y)),
                    {p.log_distance ? 1.0 : 0.0, static_cast<double>(p.max_distance - 1)}, options);

    const std::int64_t count = (p.max_distance + stride - 1) / stride;
    ColumnCache& cache = ctx.state.score_columns;
    auto bounds = plot.column_boundaries(count, 0.0, static_cast<double>(stride));
    if (cache.version != compute.series_version() || cache.boundaries != bounds) {
        const bool with_bound = compute.has_rope() && p.show_bound;
        cache.rope = compute.has_rope() ? device.decimate(gpu::Series::Scores, bounds) : std::vector<M4Column>{};
        cache.sinusoidal = compute.has_sinusoidal() ? device.decimate(gpu::Series::SecondScores, bounds)
                                                    : std::vector<M4Column>{};
        cache.bound = with_bound ? device.decimate(gpu::Series::Bound, bounds) : std::vector<M4Column>{};
        cache.boundaries = std::move(bounds);
        cache.version = compute.series_version();
    }
    const double passthrough = compute.data().coefficients.passthrough;
    if (!cache.bound.empty() && p.show_bound && compute.data().bound_scale > 0) {
        const double scale = compute.data().bound_scale;
        plot.columns("RoFormer bound (relative)", cache.bound, ctx.colors.bound, scale, passthrough);
        plot.columns("", cache.bound, ctx.colors.bound, -scale, passthrough);
    }
    if (compute.has_sinusoidal()) plot.columns("sinusoidal (additive)", cache.sinusoidal, ctx.colors.sinusoidal);
    if (compute.has_rope()) {
        const std::string name = p.angle_mode == AngleMode::Exact ? "RoPE"
                                                                   : fmt::format("RoPE ({})", to_string(p.angle_mode));
        plot.columns(name.c_str(), cache.rope, ctx.colors.rope);
    }
    plot.vline(static_cast<double>(p.key_distance), ctx.colors.marker, "planes' Δ");
    for (const Annotation& a : ctx.annotations) {
        if (a.at == "distance") plot.vline(a.x, ctx.colors.naive, a.text.c_str());
    }
    if (const auto x = plot.finish()) {
        // The exact sample under the mouse, not just its column's range.
        const auto index = static_cast<std::int64_t>(std::llround(*x / static_cast<double>(stride)));
        if (index >= 0 && index < count && compute.has_rope() && ui::tooltips_allowed()) {
            ImGui::BeginTooltip();
            ImGui::Text("RoPE score at Δ = %lld: %.6g", static_cast<long long>(index * stride),
                        device.series_value(gpu::Series::Scores, index));
            ImGui::EndTooltip();
        }
    }
}

}  // namespace ropelab::views
