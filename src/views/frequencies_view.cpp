// View 6: frequencies and scaling. inv_freq and wavelength per pair on log axes, the selected
// scaling against the unscaled ladder, each pair coloured as unchanged / blended / interpolated
// (the coloured counts are the dots' legend), the training and target contexts marked, and where
// the scaling's rule changes: llama3's band edges L₀/high and L₀/low (wavelengths), YaRN's ramp
// ends (pairs). A multi-axis model (images, video) colours each pair by the axis that turns it
// and sets each axis's band of wavelengths against the image's size in tokens: with Qwen2-VL's
// chunked sections the width gets the slowest pairs and barely turns across an image. Pairs left
// unrotated (p-RoPE's lowest frequencies) have θ_i = 0 and an infinite wavelength, off both log
// axes: they are drawn as grey markers at the edge they run off, named in the legend; a NoPE
// layer (no pair rotates) shows a sentence instead of the plots.
#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "state/compare.h"
#include "views/views.h"
#include "ui/widgets.h"

namespace ropelab::views {

namespace {

// The training context L₀ a setting's scaling stretches from.
std::int64_t training_context(const ModelConfig& m) {
    return m.rope_scaling.original_max_position_embeddings.value_or(m.original_max_position_embeddings.value_or(m.max_position_embeddings));
}

// Where the two plots go. Side by side when wide, stacked when tall; a plot needs about 22 × 10
// lines for its legend, axes and markers. Where two do not fit, the wavelengths (with the
// contexts) alone, and in the lab a line says where θ_i is (a slide gives the plot that line).
struct PlotsLayout {
    bool both, side_by_side;
    ImVec2 size;  // of each plot
};
PlotsLayout plots_layout(float gap, bool slide) {
    ImVec2 avail = ImGui::GetContentRegionAvail();
    const float font = ImGui::GetFontSize();
    const bool side_by_side = avail.x > 1.6f * avail.y;
    const bool both = side_by_side ? (avail.x - gap) / 2 >= 22 * font : (avail.y - gap) / 2 >= 10 * font;
    if (!both && !slide) {
        ui::text_disabled("θ_i per pair: large view (6)");
        avail = ImGui::GetContentRegionAvail();
    }
    const ImVec2 size = !both        ? ImVec2(std::max(40.0f, avail.x), std::max(40.0f, avail.y))
                        : side_by_side ? ImVec2(std::max(40.0f, (avail.x - gap) / 2), std::max(40.0f, avail.y))
                                       : ImVec2(std::max(40.0f, avail.x), std::max(40.0f, (avail.y - gap) / 2));
    return {both, side_by_side, size};
}

// Pairs of each scaling class among those that rotate, and how many do not (p-RoPE, NoPE).
struct PairCounts {
    int unchanged = 0, blended = 0, interpolated = 0, unrotated = 0;
};
PairCounts pair_counts(const LabData& d) {
    PairCounts c;
    for (std::size_t i = 0; i < d.pair_scaling.size(); ++i) {
        if (i < d.freqs.unrotated.size() && d.freqs.unrotated[i]) {
            ++c.unrotated;
            continue;
        }
        const PairScaling s = d.pair_scaling[i];
        ++(s == PairScaling::Unchanged ? c.unchanged : s == PairScaling::Blended ? c.blended : c.interpolated);
    }
    return c;
}

std::string scaling_counts(const LabData& d) {
    const PairCounts c = pair_counts(d);
    std::string text = fmt::format("{} unchanged · {} blended · {} interpolated", c.unchanged, c.blended, c.interpolated);
    if (c.unrotated > 0) text += fmt::format(" · {} not rotated", c.unrotated);
    return text;
}

// The colour of pairs that pass through unrotated: the palette's purple, apart from the scaling
// classes' colours (and ≥ 4.5:1 on every theme, as the palette is).
ImU32 unrotated_color(const Context& ctx) { return ctx.colors.bf16; }

// "layer applies no RoPE (NoPE)": every pair passes through, so there is no ladder to draw.
void nope_note(const Context& ctx) {
    const LabParams& p = ctx.params;
    caption("This layer applies no RoPE (NoPE): no pair rotates.",
            "A NoPE layer (Llama 4's every 4th layer, SmolLM3's no_rope_layers 0, the full_attention layers of "
            "Cohere2 and EXAONE 4, linear-attention layers) leaves q and k as they are: q_m·k_n does not depend on "
            "m − n, and position reaches attention only through the causal mask (and Llama 4's query temperature). "
            "Pick another layer, or set the layer's RoPE back on, to see frequencies.");
    ui::text(p.layer >= 0 ? fmt::format("this layer applies no RoPE (NoPE): layer {}, all {} pairs unrotated", p.layer,
                                        ctx.compute.data().freqs.pairs())
                          : fmt::format("this layer applies no RoPE (NoPE): all {} pairs unrotated", ctx.compute.data().freqs.pairs()),
             unrotated_color(ctx));
    ui::log().record_box("this layer applies no RoPE (NoPE)", "readout", ImGui::GetItemRectMin(), ImGui::GetItemRectSize());
}

// Compare mode: each setting's scaling counts on its own line where a plot still has room below
// them; else on hover. Not on a slide: the room cannot hover, and the plots need the lines more
// (the lines they mark say where each setting keeps, blends and interpolates).
void compared_counts(Context& ctx, int settings) {
    const LabParams& p = ctx.params;
    const LabCompute& compute = ctx.compute;
    if (on_slide(p)) return;
    if (ImGui::GetContentRegionAvail().y > (1.5f * static_cast<float>(settings) + 14.0f) * ImGui::GetFontSize()) {
        for (int i = 0; i < settings; ++i) {
            ui::text(fmt::format("{}: {}", setting_name(p, i), scaling_counts(compute.setting_data(i))), setting_color(ctx, i));
        }
        return;
    }
    ui::text_disabled("pairs kept, blended, interpolated: hover");
    if (ImGui::IsItemHovered() && ui::tooltips_allowed()) {
        ImGui::BeginTooltip();
        for (int i = 0; i < settings; ++i) {
            ImGui::TextUnformatted(fmt::format("{}: {}", setting_name(p, i), scaling_counts(compute.setting_data(i))).c_str());
        }
        ImGui::EndTooltip();
    }
}

// Each setting's θ_i and wavelengths over the x axis (the pair index, or in tokens its own
// unscaled wavelength / L₀), and the x range that holds them all.
struct ComparedCurves {
    struct Curve {
        std::vector<double> x, inv_freq, wavelength;
        std::vector<double> unrotated_x;  // pairs left unrotated (p-RoPE): markers at the plots' edges
    };
    std::vector<Curve> curves;
    plot::Range x{0.0, 1.0};
};

ComparedCurves compared_curves(const LabParams& p, const LabCompute& compute, int settings) {
    const bool tokens = p.wavelength_axis;
    ComparedCurves all;
    all.curves.resize(static_cast<std::size_t>(settings));
    bool any = false;
    for (int i = 0; i < settings; ++i) {
        const LabData& d = compute.setting_data(i);
        const ModelConfig& m = setting_model(p, i);
        ComparedCurves::Curve& c = all.curves[static_cast<std::size_t>(i)];
        for (int j = 0; j < d.freqs.pairs(); ++j) {
            const auto k = static_cast<std::size_t>(j);
            const double x = tokens ? wavelength(d.freqs.unscaled_inv_freq[k]) / static_cast<double>(training_context(m)) : j;
            if (!d.freqs.rotates(j)) {  // θ_i = 0: off the log axes, a marker at the edge
                c.unrotated_x.push_back(x);
                continue;
            }
            c.x.push_back(x);
            c.inv_freq.push_back(d.freqs.inv_freq[k]);
            c.wavelength.push_back(wavelength(d.freqs.inv_freq[k]));
        }
        if (c.x.empty()) continue;  // a NoPE setting: nothing on the axes
        const plot::Range r{c.x.front(), c.x.back()};
        all.x = !any ? r : plot::Range{std::min(all.x.min, r.min), std::max(all.x.max, r.max)};
        any = true;
    }
    if (!tokens) all.x.max = std::max(1.0, all.x.max);
    if (tokens && all.x.max <= all.x.min) all.x.max = all.x.min + 1.0;
    return all;
}

// YaRN's ramp ends of each setting, in pairs (so not on a token axis).
void compared_ramps(Context& ctx, plot::Plot& plot, int settings) {
    for (int i = 0; i < settings; ++i) {
        const LabData& d = ctx.compute.setting_data(i);
        if (!d.freqs.yarn_correction_range || ctx.params.wavelength_axis) continue;
        plot.vline(d.freqs.yarn_correction_range->first, setting_color(ctx, i), fmt::format("{}: ramp", setting_name(ctx.params, i)).c_str());
        plot.vline(d.freqs.yarn_correction_range->second, setting_color(ctx, i), "");
    }
}

// Each setting's training context, once per distinct length, as a legend entry in the colour
// of the first setting with it (marker labels at one edge would overlap). On a slide the legend
// names the settings only, so the plot keeps its height: a line named where it runs.
void compared_contexts(Context& ctx, plot::Plot& plot, int settings, plot::Range x) {
    const LabParams& p = ctx.params;
    const bool slide = on_slide(p);
    std::vector<std::int64_t> marked;
    for (int i = 0; i < settings; ++i) {
        const std::int64_t context = training_context(setting_model(p, i));
        if (std::find(marked.begin(), marked.end(), context) != marked.end()) continue;
        marked.push_back(context);
        const double ys[] = {static_cast<double>(context), static_cast<double>(context)}, xs[] = {x.min, x.max};
        const ImU32 color = i == 0 ? ctx.colors.marker : setting_color(ctx, i);
        if (slide) {
            plot.hline(static_cast<double>(context), color, fmt::format("L₀ = {}", context).c_str());
            continue;
        }
        const std::string label = fmt::format("L₀ = {} ({})", context, setting_name(p, i));
        plot.line(label.c_str(), xs, ys, color, 1.0f);
    }
}

// llama3's band: wavelengths shorter than L₀/high are kept, longer than L₀/low divided by
// the factor, blended between; dashed-thin in the setting's colour, one legend entry each.
void compared_bands(Context& ctx, plot::Plot& plot, int settings, plot::Range x) {
    const LabParams& p = ctx.params;
    for (int i = 0; i < settings; ++i) {
        const ModelConfig& m = setting_model(p, i);
        const RopeScaling& sc = m.rope_scaling;
        if (sc.type != RopeType::Llama3 || !sc.low_freq_factor || !sc.high_freq_factor) continue;
        const double context = static_cast<double>(training_context(m)), xs[] = {x.min, x.max};
        const double high[] = {context / *sc.high_freq_factor, context / *sc.high_freq_factor};
        const double low[] = {context / *sc.low_freq_factor, context / *sc.low_freq_factor};
        if (on_slide(p)) {  // named where they run (compared_contexts says why)
            plot.hline(high[0], setting_color(ctx, i), fmt::format("{}: L₀/high", setting_name(p, i)).c_str());
            plot.hline(low[0], setting_color(ctx, i), fmt::format("{}: L₀/low", setting_name(p, i)).c_str());
            continue;
        }
        plot.line(fmt::format("{}: band L₀/high … L₀/low", setting_name(p, i)).c_str(), xs, high, setting_color(ctx, i), 1.0f);
        plot.line("", xs, low, setting_color(ctx, i), 1.0f);
    }
}

// Compare mode: every setting's θ_i and wavelengths in its colour, over the pair index (or its
// own unscaled wavelength / L₀), with each setting's training context and YaRN ramp marked.
void compared_frequencies(Context& ctx) {
    const LabParams& p = ctx.params;
    const int settings = std::min(ctx.compute.settings(), setting_count(p));
    const float gap = ImGui::GetFontSize() * 0.5f;
    compared_counts(ctx, settings);
    const auto [both, side_by_side, half] = plots_layout(gap, on_slide(ctx.params));
    const bool tokens = p.wavelength_axis;
    const ComparedCurves all = compared_curves(p, ctx.compute, settings);
    const char* x_label = tokens ? "unscaled wavelength / L₀ (each setting's)" : "pair i";
    // The plots' edges, where unrotated pairs (θ_i = 0, wavelength ∞) are marked.
    double lowest = INFINITY, longest = 0.0;
    for (const ComparedCurves::Curve& c : all.curves) {
        for (double v : c.inv_freq) lowest = std::min(lowest, v);
        for (double v : c.wavelength) longest = std::max(longest, v);
    }
    const auto edge_markers = [&](plot::Plot& plot, double edge) {
        for (int i = 0; i < settings; ++i) {
            const ComparedCurves::Curve& c = all.curves[static_cast<std::size_t>(i)];
            if (c.unrotated_x.empty() || !std::isfinite(edge) || edge <= 0) continue;
            const std::vector<double> ys(c.unrotated_x.size(), edge);
            const std::vector<ImU32> colors(c.unrotated_x.size(), setting_color(ctx, i));
            plot.points(fmt::format("{}: not rotated", setting_name(p, i)).c_str(), c.unrotated_x, ys, colors);
        }
    };
    if (both) {
        plot::Plot plot("inv_freq", ctx.state.frequencies, half, all.x, {x_label, "θ_i (rad/position)", tokens, true, true, !tokens});
        for (int i = 0; i < settings; ++i) {
            const ComparedCurves::Curve& c = all.curves[static_cast<std::size_t>(i)];
            plot.line(setting_name(p, i).c_str(), c.x, c.inv_freq, setting_color(ctx, i));
        }
        edge_markers(plot, lowest);
        compared_ramps(ctx, plot, settings);
        plot.finish();
    }
    if (both && side_by_side) ImGui::SameLine(0, gap);
    plot::Plot plot("wavelength", ctx.state.wavelengths, half, all.x, {x_label, "wavelength 2π/θ_i", tokens, true, true, !tokens});
    for (int i = 0; i < settings; ++i) {
        const ComparedCurves::Curve& c = all.curves[static_cast<std::size_t>(i)];
        plot.line(setting_name(p, i).c_str(), c.x, c.wavelength, setting_color(ctx, i));
    }
    edge_markers(plot, longest);
    compared_contexts(ctx, plot, settings, all.x);
    compared_bands(ctx, plot, settings, all.x);
    compared_ramps(ctx, plot, settings);
    plot.finish();
}

// One setting's ladder: per pair, θ_i and its wavelength scaled and unscaled, and the dot's
// colour for what the scaling did to the pair.
// The rotated pairs' dots; `unrotated` lists the pairs p-RoPE leaves as they are (θ_i = 0).
struct Ladder {
    std::vector<double> pairs, scaled, unscaled, wave_scaled, wave_unscaled;
    std::vector<ImU32> colors;
    std::vector<double> unrotated;
};

Ladder ladder(const Context& ctx, const LabData& d) {
    Ladder l;
    for (int i = 0; i < d.freqs.pairs(); ++i) {
        const auto k = static_cast<std::size_t>(i);
        l.unscaled.push_back(d.freqs.unscaled_inv_freq[k]);
        l.wave_unscaled.push_back(wavelength(d.freqs.unscaled_inv_freq[k]));
        if (!d.freqs.rotates(i)) {
            l.unrotated.push_back(i);
            continue;
        }
        l.pairs.push_back(i);
        l.scaled.push_back(d.freqs.inv_freq[k]);
        l.wave_scaled.push_back(wavelength(d.freqs.inv_freq[k]));
        const PairScaling s = d.pair_scaling[k];
        l.colors.push_back(s == PairScaling::Unchanged ? ctx.colors.unchanged
                           : s == PairScaling::Blended ? ctx.colors.blended
                                                       : ctx.colors.interpolated);
    }
    return l;
}

// The counts in their dots' colours: the dots' legend.
void count_line(const Context& ctx, const LabData& d) {
    const PairCounts c = pair_counts(d);
    // No scaling and every pair rotating: "64 unchanged · 0 blended · 0 interpolated" tells the
    // room nothing, and a slide gives its line to the plots.
    if (on_slide(ctx.params) && c.blended == 0 && c.interpolated == 0 && c.unrotated == 0) return;
    const std::string count_text[3] = {fmt::format("{} unchanged", c.unchanged), fmt::format("{} blended", c.blended),
                                       fmt::format("{} interpolated", c.interpolated)};
    ui::text(count_text[0], ctx.colors.unchanged);
    ui::same_line_if_fits(count_text[1]);
    ui::text(count_text[1], ctx.colors.blended);
    ui::same_line_if_fits(count_text[2]);
    ui::text(count_text[2], ctx.colors.interpolated);
    if (ImGui::IsItemHovered()) {
        if (ui::tooltips_allowed()) ImGui::SetTooltip("attention factor %.6g, effective base %.6g", d.freqs.attention_factor, d.freqs.effective_theta);
    }
    if (c.unrotated > 0) {
        const std::string text = fmt::format("{} not rotated (p-RoPE)", c.unrotated);
        ui::same_line_if_fits(text);
        ui::text(text, unrotated_color(ctx));
        ui::log().record_box(text, "readout", ImGui::GetItemRectMin(), ImGui::GetItemRectSize());
        if (ImGui::IsItemHovered() && ui::tooltips_allowed()) {
            ImGui::SetTooltip("p-RoPE (Barbero et al. 2024) leaves the lowest-frequency pairs as they are: θ_i = 0, wavelength "
                              "infinite, so they sit off the log axes; grey markers at the plots' edges show which.");
        }
    }
}

// The unrotated pairs as grey markers at the edge their value runs off: the bottom of the θ_i
// plot (θ_i = 0), the top of the wavelength plot (∞). `edge` is the plotted values' extreme.
void unrotated_markers(const Context& ctx, plot::Plot& plot, const std::vector<double>& xs, double edge) {
    if (xs.empty() || !std::isfinite(edge)) return;
    const std::vector<double> ys(xs.size(), edge);
    const std::vector<ImU32> colors(xs.size(), unrotated_color(ctx));
    plot.points("not rotated (p-RoPE)", xs, ys, colors);
}

// The x axis: the pair index, or (in tokens) each pair's unscaled wavelength over L₀.
struct PairAxis {
    const LabParams& p;
    const LabData& d;
    const lab::products::Frequencies& wavelengths;  // the base's (the product's unscaled wavelengths)
    std::int64_t context;
    bool tokens;
    double operator()(double pair) const {  // pair may be fractional (YaRN's ramp ends)
        if (!tokens) return pair;
        return wavelengths.unscaled_wavelength(pair) / static_cast<double>(context);
    }
    bool llama3() const {
        const RopeScaling& s = p.model.rope_scaling;
        return s.type == RopeType::Llama3 && s.low_freq_factor && s.high_freq_factor;
    }
};

// Where the scaling's rule changes, along x: YaRN's ramp (pairs), llama3's band edges (tokens).
void rule_lines(const Context& ctx, plot::Plot& plot, const PairAxis& x_of) {
    const RopeScaling& s = x_of.p.model.rope_scaling;
    if (const auto& range = x_of.d.freqs.yarn_correction_range) {
        plot.vline(x_of(range->first), ctx.colors.blended, "ramp starts");
        plot.vline(x_of(range->second), ctx.colors.interpolated, "ramp ends");
    }
    if (x_of.tokens && x_of.llama3()) {
        plot.vline(1.0 / *s.high_freq_factor, ctx.colors.blended, "1/high");
        if (*s.low_freq_factor != 1.0) plot.vline(1.0 / *s.low_freq_factor, ctx.colors.interpolated, "1/low");
    }
    if (x_of.tokens) plot.vline(1.0, ctx.colors.marker, "L₀");
}

// The wavelengths against the contexts: training, target, and llama3's band edges.
void context_lines(const Context& ctx, plot::Plot& plot, const PairAxis& x_of) {
    const LabParams& p = ctx.params;
    const RopeScaling& s = p.model.rope_scaling;
    const std::int64_t context = x_of.context;
    // With low_freq_factor 1 (Llama 3.1) the band's upper edge is the training context itself.
    const bool low_edge_is_context = x_of.llama3() && *s.low_freq_factor == 1.0;
    plot.hline(static_cast<double>(context), ctx.colors.marker, low_edge_is_context ? "training context L₀ = L₀/low" : "training context L₀");
    if (s.type != RopeType::Default && p.model.max_position_embeddings > context) {
        plot.hline(static_cast<double>(p.model.max_position_embeddings), ctx.colors.sinusoidal, "target context");
    }
    if (x_of.llama3()) {
        // Shorter than L₀/high: kept; longer than L₀/low: divided by the factor; between: blended.
        plot.hline(static_cast<double>(context) / *s.high_freq_factor, ctx.colors.blended, "L₀/high");
        if (!low_edge_is_context) {
            plot.hline(static_cast<double>(context) / *s.low_freq_factor, ctx.colors.interpolated, "L₀/low");
        }
    }
}


// Multi-axis: one axis's pairs as points (pair j, |ω_j| and 2π/|ω_j|), in the lab's order t, h, w, m.
struct AxisSeries {
    char axis;
    std::vector<double> pairs, speed, wave;
};

std::vector<AxisSeries> axis_series(const LabData& d) {
    std::vector<AxisSeries> out;
    const std::size_t n = std::min(d.pair_axes.size(), d.pair_omegas.size());
    for (char axis : {'t', 'h', 'w', 'm'}) {
        AxisSeries s{axis, {}, {}, {}};
        for (std::size_t j = 0; j < n; ++j) {
            if (d.pair_axes[j] != axis || pair_speed(d.pair_omegas[j]) == 0.0) continue;  // unrotated: off the log axes
            s.pairs.push_back(static_cast<double>(j));
            s.speed.push_back(pair_speed(d.pair_omegas[j]));
            s.wave.push_back(pair_wavelength(d.pair_omegas[j]));
        }
        if (!s.pairs.empty()) out.push_back(std::move(s));
    }
    return out;
}

const char* axis_name(char axis) {
    switch (axis) {
        case 't': return "t (frames)";
        case 'h': return "h (height)";
        case 'w': return "w (width)";
        default: return "mixed (h and w)";
    }
}

// "w (width): 24 pairs, 3.2e-06–0.00045 turns across 16 tokens": how far the slowest and the
// fastest pair of the axis turn from one edge of the image to the other.
std::string band_line(const AxisBand& b) {
    const char* unit = b.axis == 't' ? (b.extent == 1 ? "frame" : "frames") : (b.extent == 1 ? "token" : "tokens");
    return fmt::format("{}: {} pairs, {:.2g}–{:.2g} turns across {} {}", axis_name(b.axis), b.pairs, b.slowest_turns,
                       b.fastest_turns, b.extent, unit);
}

std::string wavelength_band(const AxisBand& b) {
    return fmt::format("{}: wavelengths 2π/|ω_j| {:.3g} … {:.3g} tokens", axis_name(b.axis), b.shortest, b.longest);
}

// Each axis's line in its colour (the key of the dots); the wavelength bands on hover. In a
// small cell, where the lines would crowd out the plot, each axis's pair count alone and the
// lines on hover.
void band_lines(const Context& ctx, const std::vector<AxisBand>& bands) {
    const float font = ImGui::GetFontSize();
    if (ImGui::GetContentRegionAvail().y > (1.5f * static_cast<float>(bands.size()) + 14.0f) * font) {
        for (const AxisBand& b : bands) {
            ui::text(band_line(b), axis_color(ctx.colors, b.axis));
            ui::log().record_box(band_line(b), "readout", ImGui::GetItemRectMin(), ImGui::GetItemRectSize());
            if (ImGui::IsItemHovered() && ui::tooltips_allowed()) ImGui::SetTooltip("%s", wavelength_band(b).c_str());
        }
        return;
    }
    for (std::size_t i = 0; i < bands.size(); ++i) {
        const std::string count = fmt::format("{} {} pairs", bands[i].axis, bands[i].pairs);
        if (i > 0) ui::same_line_if_fits(count);
        ui::text(count, axis_color(ctx.colors, bands[i].axis));
        ui::log().record_box(count, "readout", ImGui::GetItemRectMin(), ImGui::GetItemRectSize());
        if (ImGui::IsItemHovered() && ui::tooltips_allowed()) {
            ImGui::BeginTooltip();
            for (const AxisBand& b : bands) ImGui::TextUnformatted((band_line(b) + "; " + wavelength_band(b)).c_str());
            ImGui::EndTooltip();
        }
    }
}

// The image's size in tokens on the wavelength axis: a pair whose wavelength is far above it
// turns by a sliver across the image.
void image_lines(const Context& ctx, plot::Plot& plot, const LabParams& p) {
    if (p.grid_height == p.grid_width) {
        plot.hline(static_cast<double>(p.grid_height), ctx.colors.marker, fmt::format("image height = width {}", p.grid_height).c_str());
    } else {
        plot.hline(static_cast<double>(p.grid_height), ctx.colors.axis_h, fmt::format("image height {}", p.grid_height).c_str());
        plot.hline(static_cast<double>(p.grid_width), ctx.colors.axis_w, fmt::format("width {}", p.grid_width).c_str());
    }
    if (p.grid_frames > 1) plot.hline(static_cast<double>(p.grid_frames), ctx.colors.axis_t, fmt::format("frames {}", p.grid_frames).c_str());
}

// One setting's pairs by axis: points named by their axis (the legend is the key); a 1-D
// setting's pairs in `plain` (compare mode).
void axis_points(const Context& ctx, plot::Plot& plot, const LabData& d, bool wavelengths, ImU32 plain) {
    const std::vector<AxisSeries> series = axis_series(d);
    if (series.empty()) {
        std::vector<double> xs, ys;
        for (int j = 0; j < d.freqs.pairs(); ++j) {
            if (!d.freqs.rotates(j)) continue;  // θ_j = 0: off the log axes
            xs.push_back(j);
            ys.push_back(wavelengths ? wavelength(d.freqs.inv_freq[static_cast<std::size_t>(j)]) : d.freqs.inv_freq[static_cast<std::size_t>(j)]);
        }
        const std::vector<ImU32> colors(xs.size(), plain);
        plot.points("1-D: every pair on each axis", xs, ys, colors);
        return;
    }
    for (const AxisSeries& s : series) {
        const std::vector<ImU32> colors(s.pairs.size(), axis_color(ctx.colors, s.axis));
        plot.points(axis_name(s.axis), s.pairs, wavelengths ? s.wave : s.speed, colors);
    }
}

// A multi-axis model alone: the bands' lines, then |ω_j| and the wavelengths per pair by axis.
void axis_frequencies(Context& ctx) {
    const LabParams& p = ctx.params;
    const LabData& d = ctx.compute.data();
    band_lines(ctx, axis_bands(d, p));
    const float gap = ImGui::GetFontSize() * 0.5f;
    const auto [both, side_by_side, half] = plots_layout(gap, on_slide(ctx.params));
    const plot::Range x{0.0, std::max(1.0, d.freqs.pairs() - 1.0)};
    // In a small cell the coloured lines above are the key; a legend there would not fit its names.
    const bool legend = half.x >= 24 * ImGui::GetFontSize();
    if (both) {
        plot::Plot plot("inv_freq", ctx.state.frequencies, half, x, {"pair j", "|ω_j| (rad/position)", false, true, legend, true});
        axis_points(ctx, plot, d, false, ctx.colors.rope);
        plot.vline(p.focused_pair, ctx.colors.marker, "focused");
        plot.finish();
    }
    if (both && side_by_side) ImGui::SameLine(0, gap);
    plot::Plot plot("wavelength", ctx.state.wavelengths, half, x, {"pair j", "wavelength 2π/|ω_j| (tokens)", false, true, legend, true});
    axis_points(ctx, plot, d, true, ctx.colors.rope);
    image_lines(ctx, plot, p);
    plot.finish();
}

// Whether any compared setting turns its pairs by axis (then compare mode shows them by axis).
bool any_multi_axis(const LabParams& p, int settings) {
    for (int i = 0; i < settings; ++i) {
        if (is_multi_axis(setting_model(p, i))) return true;
    }
    return false;
}

// Compare mode with a multi-axis setting: one wavelength strip per setting, its pairs coloured
// by axis against the image's size, under a line naming the setting and its axes' pair counts
// (the turns across the image on hover) — chunked against interleaved at a glance.
void compared_axes(Context& ctx, int settings) {
    const LabParams& p = ctx.params;
    const float font = ImGui::GetFontSize();
    // A strip needs about 7 lines (its name and axis counts, plot, ticks and axis label): the settings
    // that fit are drawn, the rest named under them, so no strip is squashed into its labels.
    const int shown = std::clamp(static_cast<int>(ImGui::GetContentRegionAvail().y / (7.0f * font)), 1, settings);
    const float lines = 1.4f * font * static_cast<float>(shown) + (shown < settings ? 1.4f * font : 0.0f);
    const float strip = std::max(3.0f * font, (ImGui::GetContentRegionAvail().y - lines) / static_cast<float>(shown) - 0.3f * font);
    for (int i = 0; i < shown; ++i) {
        const LabData& d = ctx.compute.setting_data(i);
        const std::vector<AxisBand> bands = axis_bands(d, p);
        ui::text(setting_name(p, i), setting_color(ctx, i));
        std::string counts = setting_name(p, i) + ":";
        for (const AxisBand& b : bands) counts += fmt::format(" {} {}", b.axis, b.pairs);
        ui::log().record_box(bands.empty() ? counts + " 1-D" : counts, "readout", ImGui::GetItemRectMin(), ImGui::GetItemRectSize());
        if (ImGui::IsItemHovered() && ui::tooltips_allowed()) {
            ImGui::BeginTooltip();
            for (const AxisBand& b : bands) ImGui::TextUnformatted((band_line(b) + "; " + wavelength_band(b)).c_str());
            if (bands.empty()) ImGui::TextUnformatted("1-D: every pair turns with the one position (t = h = w)");
            ImGui::EndTooltip();
        }
        for (const AxisBand& b : bands) {
            const std::string count = fmt::format("{} {}", b.axis, b.pairs);
            ui::same_line_if_fits(count);
            ui::text(count, axis_color(ctx.colors, b.axis));
        }
        const plot::Range x{0.0, std::max(1.0, d.freqs.pairs() - 1.0)};
        const std::string id = fmt::format("wavelength##axes{}", i);
        plot::Plot plot(id.c_str(), ctx.state.axis_wavelengths[static_cast<std::size_t>(i)],
                        ImVec2(std::max(40.0f, ImGui::GetContentRegionAvail().x), strip), x,
                        {"pair j", "2π/|ω_j|", false, true, false, true});  // the counts line above is the key
        axis_points(ctx, plot, d, true, setting_color(ctx, i));
        image_lines(ctx, plot, p);
        plot.finish();
    }
    if (shown < settings) ui::text_disabled(fmt::format("+{} more settings: show this view large (6)", settings - shown));
}

}  // namespace

void frequencies_view(Context& ctx) {
    const LabParams& p = ctx.params;
    const LabData& d = ctx.compute.data();
    if (comparing(p) && any_multi_axis(p, std::min(ctx.compute.settings(), setting_count(p)))) {
        caption("Each setting's pairs by axis: t, h, w.",
                "Per setting, each pair's wavelength 2π/|ω_j| in tokens, coloured by the axis of the image that turns it "
                "(t frames, h height, w width), against the image's height and width. A pair far above the image's size "
                "barely turns across it: chunked sections (Qwen2-VL) give the width the slowest pairs, interleaving "
                "(Qwen3-VL) gives every axis the whole band. Hover a setting's name for its turns across the image.");
        compared_axes(ctx, std::min(ctx.compute.settings(), setting_count(p)));
        return;
    }
    if (!comparing(p) && !p.model.attention.rope) {
        nope_note(ctx);
        return;
    }
    if (!comparing(p) && !d.pair_axes.empty()) {
        caption("Pairs by axis (t, h, w): how far each axis turns across the image.",
                "Each pair turns with one coordinate of a token's (t, h, w) position: its wavelength 2π/|ω_j| in tokens, "
                "coloured by axis, against the image's height and width. The lines say how many turns each axis's slowest "
                "and fastest pair make across the image: far below one turn, two ends of the image are hardly told apart. "
                "Hover a line for the axis's band of wavelengths.");
        axis_frequencies(ctx);
        return;
    }
    if (comparing(p)) {
        caption("θ_i and wavelengths of every compared setting.",
                "Each setting's θ_i and wavelength 2π/θ_i per pair, in its colour, with each one's training context L₀ "
                "(the length its scaling stretches from), llama3's band L₀/high … L₀/low and YaRN's ramp between its marks. The counts say how many pairs "
                "each setting's scaling keeps, blends or interpolates.");
        compared_frequencies(ctx);
        return;
    }
    caption("θ_i and wavelengths; what scaling does to each pair.",
            "θ_i = base^(−2i/d) falls geometrically. Scaling (linear, NTK, YaRN, llama3, LongRoPE) "
            "slows some pairs: coloured as unchanged, blended, or interpolated by the factor. "
            "Pairs whose wavelength exceeds the training context never complete a turn in training. "
            "Lines mark llama3's band edges (wavelengths L₀/high and L₀/low) and YaRN's ramp (pairs).");
    const Ladder l = ladder(ctx, d);
    count_line(ctx, d);

    const float gap = ImGui::GetFontSize() * 0.5f;
    const auto [both, side_by_side, half] = plots_layout(gap, on_slide(ctx.params));
    const bool tokens = p.wavelength_axis;
    const PairAxis x_of{p, d, ctx.frame.frequencies(), training_context(p.model), tokens};
    std::vector<double> xs, all_xs, unrotated_xs;
    for (double i : l.pairs) xs.push_back(x_of(i));
    for (int i = 0; i < d.freqs.pairs(); ++i) all_xs.push_back(x_of(i));
    for (double i : l.unrotated) unrotated_xs.push_back(x_of(i));
    const plot::Range x = tokens ? plot::Range{all_xs.front(), std::max(all_xs.back(), all_xs.front() * 1.0001)}
                                 : plot::Range{0.0, std::max(1.0, d.freqs.pairs() - 1.0)};
    // The unscaled ladder spans every pair, so its ends are the plots' edges.
    const double lowest = std::min(*std::min_element(l.unscaled.begin(), l.unscaled.end()),
                                   l.scaled.empty() ? INFINITY : *std::min_element(l.scaled.begin(), l.scaled.end()));
    const double longest = std::max(*std::max_element(l.wave_unscaled.begin(), l.wave_unscaled.end()),
                                    l.wave_scaled.empty() ? 0.0 : *std::max_element(l.wave_scaled.begin(), l.wave_scaled.end()));
    const char* x_label = tokens ? "unscaled wavelength / L₀" : "pair i";
    if (both) {
        // The dots' colours are explained by the counts above; the legend names the line only.
        plot::Plot plot("inv_freq", ctx.state.frequencies, half, x, {x_label, "θ_i (rad/position)", tokens, true, true, !tokens});
        plot.line("unscaled", all_xs, l.unscaled, ctx.colors.bound);
        plot.points("", xs, l.scaled, l.colors);
        unrotated_markers(ctx, plot, unrotated_xs, lowest);
        plot.vline(x_of(p.focused_pair), ctx.colors.marker, "focused");
        rule_lines(ctx, plot, x_of);
        plot.finish();
    }
    if (both && side_by_side) ImGui::SameLine(0, gap);
    plot::Plot plot("wavelength", ctx.state.wavelengths, half, x, {x_label, "wavelength 2π/θ_i", tokens, true, true, !tokens});
    plot.line("unscaled", all_xs, l.wave_unscaled, ctx.colors.bound);
    plot.points("", xs, l.wave_scaled, l.colors);
    unrotated_markers(ctx, plot, unrotated_xs, longest);
    context_lines(ctx, plot, x_of);
    rule_lines(ctx, plot, x_of);
    plot.finish();
}

}  // namespace ropelab::views
