// View 3: score vs distance, ⟨R_m q, R_{m−Δ} k⟩ for Δ = 0 .. N−1, straight from the compute
// device (GPU core or CPU fast path); only M4 columns per pixel come back. Around the RoPE curve,
// RoFormer's bound for these q and k (a true bound: the curve never leaves it; the y range is the
// curves', the band running off it where loose), and below, both divided by the bound at Δ = 0, the decay shape B(Δ)/B(0) the paper plots
// with the curve inside it. The marker is the distance shown in the rotation planes.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "state/compare.h"
#include "views/views.h"
#include "ui/widgets.h"

namespace ropelab::views {

namespace {

ImU32 mode_color(const Context& ctx, AngleMode mode) { return mode == AngleMode::Bf16 ? ctx.colors.bf16 : ctx.colors.naive; }

// Asks the lab for the device series a plot draws, decimated for its pixel columns, and returns
// the columns it holds for that plot (those asked for in the previous frame).
const lab::Columns& columns_for(Context& ctx, const std::string& plot, lab::SeriesColumns wanted) {
    ctx.requests.columns[plot] = std::move(wanted);
    return ctx.lab.columns(plot);
}

// A sample of a device series under the pointer: asked for now, shown from the next frame on.
std::string sample_text(Context& ctx, Series series, std::int64_t index, double factor = 1.0, int digits = 6) {
    ctx.requests.samples.push_back({series, index});
    const std::optional<double> value = ctx.lab.sample(series, index);
    return value ? fmt::format("{:.{}g}", factor * *value, digits) : "…";
}

// A columns series drawn with where its samples lie, so that the hover reads the sample under
// the pointer (sample i at Δ = i·stride).
void sampled_columns(plot::Plot& plot, const lab::Columns& cache, const char* name, Series s, std::int64_t stride,
                     ImU32 color, double scale = 1.0, double offset = 0.0, bool fit = true) {
    plot.columns(name, cache[s], color, scale, offset, fit);
    plot.sampled_at(cache.bounds(s), 0.0, static_cast<double>(stride));
}

// A line of the score tooltip; the widget log holds it too (scripts and tests read it).
void readout(const std::string& name, const std::string& value) {
    ImGui::Text("%s: %s", name.c_str(), value.c_str());
    ui::log().record(name, "readout", value);
}

// A series' column boundaries on this plot: its samples lie `stride` distances apart.
std::vector<std::uint32_t> bounds_for(plot::Plot& plot, std::int64_t max_distance, std::int64_t stride) {
    return plot.column_boundaries((max_distance + stride - 1) / stride, 0.0, static_cast<double>(stride));
}

// The plots below the score plot share its x range: each starts from the score plot's visible
// x (its own y stays its own), and a zoom or pan made on it is handed back to the score plot.
void follow_x(const plot::PlotState& scores, plot::PlotState& below) {
    const bool own_y = below.user_view && below.y.valid();
    below.x = scores.x;
    below.user_view = scores.user_view || own_y;
    if (!own_y) below.y = {0.0, 0.0};  // fitted
    if (!scores.user_view) below.x = {0.0, 0.0};  // the full range
}

void hand_back_x(const plot::PlotState& before, const plot::PlotState& below, plot::PlotState& scores) {
    if (!below.user_view) {  // reset (double-click): the score plot's x too
        if (before.user_view && scores.user_view) {
            scores.user_view = scores.y.valid();
            scores.x = {0.0, 0.0};
        }
        return;
    }
    if (below.x.min == before.x.min && below.x.max == before.x.max) return;
    const bool scores_own_y = scores.user_view && scores.y.valid();
    scores.x = below.x;
    scores.user_view = true;
    if (!scores_own_y) scores.y = {0.0, 0.0};
}

// How loose the bound is, K: the bound is at least K times |score − pass| at every distance.
// Worked out over a fixed set of blocks of the whole range — kLoosenessBlocks equal runs of the
// series' samples, whatever the window, the zoom or the log axis — as the smallest, over the
// blocks, of the bound's least value in a block over the curve's largest |score − pass| there.
// Each block's ratio is at most every ratio B(Δ)/|s(Δ) − pass| inside it, so K is a true bound
// ratio of the data, the same at every window size (tests/export/test_score_decay.cpp).
constexpr int kLoosenessBlocks = 512;

std::vector<std::uint32_t> looseness_blocks(std::int64_t samples) {
    std::vector<std::uint32_t> bounds;
    for (int b = 0; b <= kLoosenessBlocks; ++b) {
        bounds.push_back(static_cast<std::uint32_t>((samples * b + kLoosenessBlocks - 1) / kLoosenessBlocks));
    }
    return bounds;
}

double looseness(const std::vector<M4Column>& rope, const std::vector<M4Column>& bound, double pass, double factor) {
    double ratio = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < rope.size() && i < bound.size(); ++i) {
        if (rope[i].empty() || bound[i].empty()) continue;
        const double curve = std::max(std::abs(rope[i].max - pass), std::abs(rope[i].min - pass));
        if (curve > 0.0) ratio = std::min(ratio, factor * bound[i].min / curve);
    }
    return ratio;
}

// The paper's figure: B(Δ)/B(0), and the rotary score divided by the same bound at Δ = 0,
// factor·B(0). Divided alike, the curve stays inside ±B(Δ)/B(0) wherever the bound holds (at
// every Δ): the shape drawn bounds the curve drawn.
void decay_shape_plot(Context& ctx, float height, std::int64_t stride) {
    const LabParams& p = ctx.params;
    const LabCompute& compute = ctx.compute;
    plot::Options options{"distance Δ", "÷ bound at Δ = 0", p.log_distance, false, true, true};
    const plot::Range full{p.log_distance ? 1.0 : 0.0, static_cast<double>(p.max_distance - 1)};
    follow_x(ctx.state.scores, ctx.state.decay_shape);
    const plot::PlotState before = ctx.state.decay_shape;
    plot::Plot plot("decay shape", ctx.state.decay_shape, ImVec2(ImGui::GetContentRegionAvail().x, height), full, options);
    const auto bounds = bounds_for(plot, p.max_distance, stride);
    const lab::Columns& cache = columns_for(ctx, "decay shape", {{Series::Bound, bounds}, {Series::Scores, bounds}});
    const LabData& d = compute.data();
    const double b0 = roformer_bound_at_zero(d.freqs.pairs());
    sampled_columns(plot, cache, "±B(Δ)/B(0), the paper's decay shape", Series::Bound, stride, ctx.colors.bound, 1.0 / b0);
    plot.columns("", cache[Series::Bound], ctx.colors.bound, -1.0 / b0);
    const double pass = d.coefficients.passthrough;
    if (const double at_zero = d.bound_factor * b0; at_zero > 0.0) {
        sampled_columns(plot, cache, "(RoPE − pass) ÷ bound(0)", Series::Scores, stride, ctx.colors.rope, 1.0 / at_zero,
                        -pass / at_zero);
    }
    plot.finish();
    hand_back_x(before, ctx.state.decay_shape, ctx.state.scores);
}

// A naive angle mode's error, naive − exact, on its own axis: far smaller than the score, and
// growing with the positions' size (q sits at m = N − 1).
void mode_error_plot(Context& ctx, float height, std::int64_t stride) {
    const LabParams& p = ctx.params;
    plot::Options options{"distance Δ", "naive − exact", p.log_distance, false, true, true};
    follow_x(ctx.state.scores, ctx.state.mode_error);
    const plot::PlotState before = ctx.state.mode_error;
    plot::Plot plot("mode error", ctx.state.mode_error, ImVec2(ImGui::GetContentRegionAvail().x, height),
                    {p.log_distance ? 1.0 : 0.0, static_cast<double>(p.max_distance - 1)}, options);
    const lab::Columns& cache = columns_for(ctx, "mode error", {{Series::ModeError, bounds_for(plot, p.max_distance, stride)}});
    const std::string name = fmt::format("{} − exact", angle_mode_label(p.angle_mode));
    sampled_columns(plot, cache, name.c_str(), Series::ModeError, stride, mode_color(ctx, p.angle_mode));
    plot.finish();
    hand_back_x(before, ctx.state.mode_error, ctx.state.scores);
}

}  // namespace

int settings_of(const LabParams& p, const LabCompute& compute) { return std::min(compute.settings(), setting_count(p)); }

// Where the exact pass stands, under the header: a thin bar while the full curves are computed
// a frame's budget at a time over the preview, the worker averaging a mean of many vectors, or
// why the exact pass was refused.
void exact_pass_line(const LabCompute& compute, int settings) {
    if (!compute.refusal().empty()) {
        ui::message(compute.refusal(), warning_color());
        return;
    }
    if (!compute.averaging().empty()) {
        ui::text_disabled(compute.averaging() + " (a worker thread); the curves shown stay until it is done");
        return;
    }
    const auto progress = compute.progress();
    if (!progress) return;
    const std::string whose = settings > 1 ? fmt::format(" of setting {} ({} more after it)", progress->setting + 1, progress->settings_left)
                                           : "";
    // A new angle mode over a finished exact curve: the naive curve alone, the exact one stays.
    const std::string line = progress->naive ? fmt::format("computing the naive-angle curve (the exact one is done): {:.0f} %",
                                                           100.0 * progress->fraction)
                                             : fmt::format("computing the exact curve{}: {:.0f} %", whose, 100.0 * progress->fraction);
    ImGui::ProgressBar(static_cast<float>(progress->fraction), ImVec2(-FLT_MIN, std::max(3.0f, 0.25f * ImGui::GetFontSize())), "");
    ui::tip("The full curve is computed a slice per frame, the preview shown meanwhile; any change restarts it.");
    ui::message(line, ImGui::GetColorU32(ImGuiCol_TextDisabled));
}

namespace {

// The lines under the caption: how many distances, how far the exact pass is, and what q and k
// are (the device is the lab's status line's to name).
void score_status(const LabParams& p, const LabCompute& compute) {
    const std::int64_t preview = compute.largest_stride();
    ui::text_disabled(fmt::format("N = {} distances{}", p.max_distance,
                                  preview > 1 ? fmt::format(" (preview: every {}th distance)", preview) : ""));
    exact_pass_line(compute, settings_of(p, compute));
    if (const std::string note = vectors_note(p); !note.empty()) {
        ui::same_line_if_fits("· " + note);
        ui::text_disabled("· " + note);
    }
}

// The score plot's height, and which plot (if any) goes below it.
struct ScoreLayout {
    ImVec2 avail;
    float spacing, main_height;
    bool with_error, with_shape;
    float lower_height() const { return avail.y - main_height - spacing; }
};

ScoreLayout score_layout(const LabParams& p, const LabCompute& compute) {
    ScoreLayout layout{ImGui::GetContentRegionAvail(), ImGui::GetStyle().ItemSpacing.y, 0.0f, false, false};
    const float font = ImGui::GetFontSize();
    const bool room_below = layout.avail.y > 20 * font;
    if (compute.has_mode_error() && !room_below) {  // requested, but no room here: say where it is
        ui::same_line_if_fits("· naive − exact: large view (3)");
        ui::text_disabled("· naive − exact: large view (3)");
        layout.avail = ImGui::GetContentRegionAvail();
    }
    // The decay-shape plot needs room for its own axis and legend: in a small grid cell only the
    // score plot shows (a view shown large, or a bigger window, has both).
    layout.with_error = compute.has_mode_error() && room_below;
    // Each plot needs its legend (two lines where names wrap), three lines of curve and its
    // x axis: about nine lines; below that only the score plot shows.
    // In compare mode the settings' curves take the whole height (the shape is the base's alone).
    layout.with_shape = !layout.with_error && !comparing(p) && compute.has_rope() && p.show_bound && room_below;
    const float share = layout.with_error ? 0.45f : 0.36f;
    const float lower = layout.with_error || layout.with_shape
                            ? std::max(9 * font, std::floor((layout.avail.y - layout.spacing) * share))
                            : 0.0f;
    layout.main_height = layout.with_error || layout.with_shape ? layout.avail.y - layout.spacing - lower : layout.avail.y;
    return layout;
}

// The series the score plot draws, each decimated at its own stride (a compared curve may still
// be a preview).
const lab::Columns& score_columns(Context& ctx, plot::Plot& plot, std::int64_t stride) {
    const LabParams& p = ctx.params;
    const LabCompute& compute = ctx.compute;
    const auto bounds = bounds_for(plot, p.max_distance, stride);
    lab::SeriesColumns drawn;
    if (compute.has_rope()) {
        for (int i = 0; i < settings_of(p, compute); ++i) {
            drawn.emplace_back(setting_series(i), bounds_for(plot, p.max_distance, compute.setting_stride(i)));
        }
    }
    if (compute.has_sinusoidal()) drawn.emplace_back(Series::SecondScores, bounds);
    if (compute.has_rope() && p.show_bound) drawn.emplace_back(Series::Bound, bounds);
    if (compute.has_mode_scores()) drawn.emplace_back(Series::ModeScores, bounds);
    return columns_for(ctx, "scores", std::move(drawn));
}

// The bound's looseness K over the whole range (looseness above), from its own fixed blocks.
double bound_looseness(Context& ctx, std::int64_t stride) {
    const LabData& d = ctx.compute.data();
    const auto blocks = looseness_blocks((ctx.params.max_distance + stride - 1) / stride);
    const lab::Columns& cache = columns_for(ctx, "bound looseness", {{Series::Scores, blocks}, {Series::Bound, blocks}});
    return looseness(cache[Series::Scores], cache[Series::Bound], d.coefficients.passthrough, d.bound_factor);
}

void bound_band(Context& ctx, plot::Plot& plot, const lab::Columns& cache, std::int64_t stride) {
    const LabParams& p = ctx.params;
    const LabData& d = ctx.compute.data();
    if (cache[Series::Bound].empty() || !p.show_bound || !(d.bound_factor > 0)) return;
    // The y range is fitted to the scores, never to the band: the bound is often a hundred times
    // the curve, and holding it would flatten the decay it bounds. Where the band runs off the
    // plot an arrow at the edge gives its value; its shape is the decay-shape plot's below.
    const double passthrough = d.coefficients.passthrough;
    const double loose = bound_looseness(ctx, stride);
    const std::string whose = comparing(p) ? ", " + setting_name(p, 0) : "";
    const bool named = std::isfinite(loose) && loose >= 1.0;
    const std::string name = named ? fmt::format("RoFormer bound{} (≥{:.3g}× here)", whose, loose) : "RoFormer bound" + whose;
    sampled_columns(plot, cache, name.c_str(), Series::Bound, stride, ctx.colors.bound, d.bound_factor, passthrough, false);
    plot.columns("", cache[Series::Bound], ctx.colors.bound, -d.bound_factor, passthrough, false);
    if (named) {
        plot.legend_tip(name.c_str(), fmt::format("|score − pass| ≤ bound at every Δ < N, and the bound is at least {:.3g} times "
                                                  "|score − pass| everywhere: K is the smallest, over {} equal blocks of all N "
                                                  "distances, of the bound's least value in a block over the curve's largest "
                                                  "|score − pass| there (the same whatever the window or zoom).",
                                                  loose, kLoosenessBlocks));
    }
    double largest = 0.0;
    for (const M4Column& c : cache[Series::Bound]) {
        if (!c.empty()) largest = std::max(largest, static_cast<double>(c.max));
    }
    if (largest > 0.0) {
        plot.off_scale_note("bound", passthrough + d.bound_factor * largest, ctx.colors.bound);
        plot.off_scale_note("bound", passthrough - d.bound_factor * largest, ctx.colors.bound);
    }
}

void score_curves(Context& ctx, plot::Plot& plot, const lab::Columns& cache, std::int64_t stride) {
    const LabParams& p = ctx.params;
    const LabCompute& compute = ctx.compute;
    const bool compare = comparing(p);
    if (p.show_unencoded) {
        // Without any encoding q·k is one number whatever the distance: attention alone is blind to order.
        const double from = p.log_distance ? 1.0 : 0.0, to = static_cast<double>(p.max_distance - 1);
        const double xs[] = {from, to}, ys[] = {compute.data().unencoded, compute.data().unencoded};
        plot.line("no encoding (q·k)", xs, ys, ctx.colors.exact, 2.5f);
    }
    if (compute.has_sinusoidal()) {
        const std::string name = compare ? "sinusoidal (additive), " + setting_name(p, 0) : "sinusoidal (additive)";
        sampled_columns(plot, cache, name.c_str(), Series::SecondScores, stride, ctx.colors.sinusoidal);
    }
    if (compute.has_rope() && compare) {
        // Every setting's exact curve for the same q and k, in the setting's own colour.
        for (int i = 0; i < settings_of(p, compute); ++i) {
            const std::string name = setting_name(p, i) + (i == 0 && compute.has_mode_scores() ? ", exact" : "");
            sampled_columns(plot, cache, name.c_str(), setting_series(i), compute.setting_stride(i), setting_color(ctx, i));
        }
    } else if (compute.has_rope()) {
        sampled_columns(plot, cache, compute.has_mode_scores() ? "RoPE, exact" : "RoPE", Series::Scores, stride, ctx.colors.rope);
    }
    if (compute.has_mode_scores()) {
        // Over the exact curve: where the two part, the naive angles have drifted.
        const std::string name = fmt::format("{}, {}", compare ? setting_name(p, 0) : "RoPE", angle_mode_label(p.angle_mode));
        sampled_columns(plot, cache, name.c_str(), Series::ModeScores, stride, mode_color(ctx, p.angle_mode));
    }
}

// The exact samples under the mouse at x, not just their columns' ranges.
void score_tooltip(Context& ctx, double x, std::int64_t stride) {
    const LabParams& p = ctx.params;
    const LabCompute& compute = ctx.compute;
    const auto index = static_cast<std::int64_t>(std::llround(x / static_cast<double>(stride)));
    const std::int64_t count = (p.max_distance + stride - 1) / stride;
    if (index < 0 || index >= count || !compute.has_rope() || !ui::tooltips_allowed()) return;
    const bool compare = comparing(p);
    const int settings = settings_of(p, compute);
    ImGui::BeginTooltip();
    if (compare) {
        ImGui::Text("score at Δ = %lld", static_cast<long long>(index * stride));
    } else {
        readout(fmt::format("RoPE score at Δ = {}", index * stride), sample_text(ctx, Series::Scores, index));
    }
    for (int i = compare ? 0 : settings; i < settings; ++i) {
        // Each curve's own nearest sample (a compared curve may still be a preview).
        const std::int64_t own = compute.setting_stride(i);
        const auto at = std::llround(x / static_cast<double>(own));
        readout(setting_name(p, i), sample_text(ctx, setting_series(i), at) +
                                        (own != stride ? fmt::format(" (at Δ = {})", at * own) : ""));
    }
    if (compute.has_mode_scores()) {
        readout(std::string(angle_mode_label(p.angle_mode)), sample_text(ctx, Series::ModeScores, index));
    }
    if (compute.has_mode_error()) {
        readout("naive − exact", sample_text(ctx, Series::ModeError, index, 1.0, 3));
    }
    if (p.show_bound && compute.data().bound_factor > 0) {
        readout("bound: |score − pass| ≤", sample_text(ctx, Series::Bound, index, compute.data().bound_factor));
    }
    ImGui::EndTooltip();
}

}  // namespace

void score_view(Context& ctx) {
    const LabParams& p = ctx.params;
    const LabCompute& compute = ctx.compute;
    caption("q·k against the distance m − n, computed for every Δ < N.",
            "RoPE's score depends on the distance only; it oscillates and decays. The grey curves either side are "
            "RoFormer's bound for these q and k, |score − pass| ≤ max_j |c_{j−1} − c_j| · Σ_j |S_j(Δ)| "
            "(Abel summation, S_j = Σ_{k<j} e^{iΔθ_k}): true at every Δ, and usually loose (the legend's K×: it is at "
            "least K times |score − pass| everywhere); the y axis fits the curves, and where the band runs off it an "
            "arrow at the edge gives its value. Below, both divided by the bound at Δ = 0: the "
            "shape ±B(Δ)/B(0) = Σ|S_j| / Σ|S_j(0)| that the paper plots, and the curve inside it. The additive score "
            "also depends on where the query sits (here at m = N − 1). A naive angle mode is drawn over the "
            "exact curve (q at m = N − 1 too, k at m − Δ), its difference below on request (sharing the x range). Wheel zooms x, "
            "Ctrl+wheel zooms y, Shift+drag zooms to a box, drag pans, double-click resets; zooming out stops at the data; "
            "drag the linked Δ's line to move the key distance in every view.");
    const std::int64_t stride = compute.series_stride();
    score_status(p, compute);
    const ScoreLayout layout = score_layout(p, compute);
    plot::Options options{"distance Δ", "score", p.log_distance, false, true, true};
    plot::Plot plot("scores", ctx.state.scores, ImVec2(layout.avail.x, std::max(40.0f, layout.main_height)),
                    {p.log_distance ? 1.0 : 0.0, static_cast<double>(p.max_distance - 1)}, options);
    const lab::Columns& cache = score_columns(ctx, plot, stride);
    if (!curves_hidden(ctx)) {  // a scene's "predict, then reveal"
        bound_band(ctx, plot, cache, stride);
        score_curves(ctx, plot, cache, stride);
    }
    // The linked Δ: dragged here, followed by every view that shows a distance.
    if (p.link_distance) plot.draggable_vline(static_cast<double>(p.key_distance), ctx.colors.marker, "linked Δ");
    else plot.vline(static_cast<double>(p.key_distance), ctx.colors.marker, "planes' Δ");
    for (const Annotation& a : ctx.annotations) {
        if (a.at == "distance") plot.vline(a.x, ctx.colors.naive, a.text.c_str());
    }
    if (const auto x = plot.finish()) score_tooltip(ctx, *x, stride);
    if (const auto dragged = plot.dragged()) ctx.requests.key_distance = std::llround(std::max(0.0, *dragged));
    if (layout.with_error) mode_error_plot(ctx, layout.lower_height(), stride);
    if (layout.with_shape) decay_shape_plot(ctx, layout.lower_height(), stride);
}

}  // namespace ropelab::views
