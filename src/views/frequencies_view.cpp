// View 6: frequencies and scaling. inv_freq and wavelength per pair on log axes, the selected
// scaling against the unscaled ladder, each pair coloured as unchanged / blended / interpolated,
// and the training context marked: pairs whose wavelength exceeds it never complete a turn in
// training.
#include <algorithm>
#include <vector>

#include "views/views.h"
#include "views/widgets.h"

namespace ropelab::views {

void frequencies_view(Context& ctx) {
    const LabParams& p = ctx.params;
    const LabData& d = ctx.compute.data();
    caption("θ_i and wavelengths; what scaling does to each pair.",
            "θ_i = base^(−2i/d) falls geometrically. Scaling (linear, NTK, YaRN, llama3, LongRoPE) "
            "slows some pairs: coloured as unchanged, blended, or interpolated by the factor. "
            "Pairs whose wavelength exceeds the training context never complete a turn in training.");
    std::vector<double> pairs, scaled, unscaled, wave_scaled, wave_unscaled;
    std::vector<ImU32> colors;
    for (int i = 0; i < d.freqs.pairs(); ++i) {
        const auto k = static_cast<std::size_t>(i);
        pairs.push_back(i);
        scaled.push_back(d.freqs.inv_freq[k]);
        unscaled.push_back(d.freqs.unscaled_inv_freq[k]);
        wave_scaled.push_back(wavelength(d.freqs.inv_freq[k]));
        wave_unscaled.push_back(wavelength(d.freqs.unscaled_inv_freq[k]));
        const PairScaling s = d.pair_scaling[k];
        colors.push_back(s == PairScaling::Unchanged ? ctx.colors.unchanged
                         : s == PairScaling::Blended ? ctx.colors.blended
                                                     : ctx.colors.interpolated);
    }
    const int counts[3] = {
        static_cast<int>(std::count(d.pair_scaling.begin(), d.pair_scaling.end(), PairScaling::Unchanged)),
        static_cast<int>(std::count(d.pair_scaling.begin(), d.pair_scaling.end(), PairScaling::Blended)),
        static_cast<int>(std::count(d.pair_scaling.begin(), d.pair_scaling.end(), PairScaling::Interpolated))};
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ctx.colors.unchanged), "%d unchanged", counts[0]);
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ctx.colors.blended), "%d blended", counts[1]);
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ctx.colors.interpolated), "%d interpolated", counts[2]);
    if (ImGui::IsItemHovered()) {
        if (ui::tooltips_allowed()) ImGui::SetTooltip("attention factor %.6g, effective base %.6g", d.freqs.attention_factor, d.freqs.effective_theta);
    }

    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = ImGui::GetFontSize() * 0.5f;
    // Side by side when wide, stacked when tall.
    const bool side_by_side = avail.x > 1.6f * avail.y;
    const ImVec2 half = side_by_side ? ImVec2(std::max(40.0f, (avail.x - gap) / 2), std::max(40.0f, avail.y))
                                     : ImVec2(std::max(40.0f, avail.x), std::max(40.0f, (avail.y - gap) / 2));
    const plot::Range x{0.0, std::max(1.0, d.freqs.pairs() - 1.0)};
    {
        plot::Plot plot("inv_freq", ctx.state.frequencies, half, x, {"pair i", "θ_i (rad/position)", false, true, true});
        plot.line("unscaled", pairs, unscaled, ctx.colors.bound);
        plot.points("scaled", pairs, scaled, colors);
        plot.vline(p.focused_pair, ctx.colors.marker, "focused");
        plot.finish();
    }
    if (side_by_side) ImGui::SameLine(0, gap);
    {
        plot::Plot plot("wavelength", ctx.state.wavelengths, half, x, {"pair i", "wavelength 2π/θ_i", false, true, true});
        plot.line("unscaled", pairs, wave_unscaled, ctx.colors.bound);
        plot.points("scaled", pairs, wave_scaled, colors);
        const auto context = p.model.rope_scaling.original_max_position_embeddings.value_or(
            p.model.original_max_position_embeddings.value_or(p.model.max_position_embeddings));
        plot.hline(static_cast<double>(context), ctx.colors.marker, "training context");
        plot.finish();
    }
}

}  // namespace ropelab::views
