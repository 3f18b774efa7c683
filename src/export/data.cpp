#include "export/data.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "core/cpu_kernels.h"
#include "core/parallel.h"
#include "core/recurrence.h"
#include "core/number_text.h"
#include "core/atomic_file.h"
#include "core/attention.h"
#include "core/error.h"
#include "core/utf8.h"
#include "lab/attention_input.h"
#include "lab/token_positions.h"
#include "core/grid_scores.h"
#include "lab/products/contrast.h"
#include "lab/products/numbers.h"
#include "lab/products/phasors.h"
#include "lab/products/planes.h"
#include "lab/products/weights.h"
#include "models/model_weights.h"
#include "state/compare.h"
#include "state/schema.h"
#include "lab/lab_compute.h"
#include "lab/lab_data.h"

namespace ropelab {

namespace {

// Rows one thread computes and formats at a time: a block's columns (6 × 64 KB of doubles) and
// its text (~700 KB) stay in a core's cache while it works.
constexpr std::int64_t kRowsPerBlock = 8192;

std::vector<std::pair<std::string, std::string>> parameters(const LabParams& p, const LabData& d) {
    const ModelConfig& m = p.model;
    return {{"preset", p.preset},
            {"head_dim", std::to_string(m.head_dim)},
            {"rotary_dim", std::to_string(d.freqs.rotary_dim)},
            {"rope_theta", exact_number(m.rope_theta)},
            {"rope_type", std::string(to_string(m.rope_scaling.type))},
            {"factor", exact_number(m.rope_scaling.factor.value_or(1.0))},
            {"attention_factor", exact_number(d.freqs.attention_factor)},
            {"layout", std::string(to_string(m.layout))},
            {"encoding", std::string(to_string(p.encoding))},
            {"vectors", std::string(to_string(p.vectors))},
            {"max_distance", std::to_string(p.max_distance)},
            {"position", std::to_string(p.position)},
            {"focused_pair", std::to_string(p.focused_pair)},
            {"angle_mode", std::string(to_string(p.angle_mode))}};
}

// Every field of the model as the state holds it, by its schema path ("model.p_rope = 0.5"):
// read from the one state through its rows, so a model flag cannot be applied and yet left
// out of what the export says it was computed with.
void model_fields(DataTable& t, const LabParams& p) {
    for (const schema::Field& f : schema::fields()) {
        if (f.slot != 0 || !f.get || !f.path.starts_with("model.")) continue;
        const schema::Value v = f.get(p);
        if (std::holds_alternative<std::monostate>(v)) continue;  // an optional field not given
        t.parameters.emplace_back(std::string(f.path), schema::value_text(f, v));
    }
}

// The columns of the score view, computed a block of distances at a time (DataTable::compute).
// Everything is copied in: the table may outlive the LabData it came from.
struct ScoreColumns {
    enum class Kind { Distance, Rope, RopeMode, ModeMinusExact, Bound, RelativeBound, Unencoded, Sinusoidal };
    std::vector<Kind> kinds;
    PhasorSum rope, sinusoidal;
    std::vector<PhaseStep> bound_steps;
    AngleMode mode = AngleMode::Exact;
    double bound_factor = 0.0, bound_at_zero = 1.0, unencoded = 0.0;

    void operator()(std::int64_t first, std::int64_t count, std::span<double* const> out) const {
        const auto n = static_cast<std::size_t>(count);
        const double* shape = bound_shape(first, count, out);  // B(Δ), for the bound and the relative bound
        for (std::size_t c = 0; c < kinds.size(); ++c) {
            double* column = out[c];
            if (!column) continue;
            const std::span<double> values(column, n);
            switch (kinds[c]) {
                case Kind::Distance:
                    for (std::size_t j = 0; j < n; ++j) column[j] = static_cast<double>(first + static_cast<std::int64_t>(j));
                    break;
                case Kind::Rope: exact_phasor_sum_into(rope.coefficient, rope.step, rope.constant, first, values); break;
                case Kind::Sinusoidal:
                    exact_phasor_sum_into(sinusoidal.coefficient, sinusoidal.step, sinusoidal.constant, first, values);
                    break;
                case Kind::RopeMode:
                    for (std::size_t j = 0; j < n; ++j) column[j] = evaluate(rope, first + static_cast<std::int64_t>(j), mode);
                    break;
                case Kind::ModeMinusExact:
                    for (std::size_t j = 0; j < n; ++j) column[j] = mode_minus_exact(first + static_cast<std::int64_t>(j));
                    break;
                case Kind::Bound:
                case Kind::RelativeBound:
                    for (std::size_t j = 0; j < n; ++j) {
                        column[j] = kinds[c] == Kind::Bound ? bound_factor * shape[j] : shape[j] / bound_at_zero;
                    }
                    break;
                case Kind::Unencoded: std::fill(values.begin(), values.end(), unencoded); break;
            }
        }
    }

    // B(Δ) of a block asked for the bound alone, kept for the relative bound asked for alone
    // later: JSON writes a column at a time, and the two would each compute B, the costliest
    // column there is (a square root per pair and distance). Held only then, and at most one
    // float64 column (128 MB at 2^24); CSV asks for both at once and holds nothing.
    struct ShapeMemo {
        std::mutex mutex;
        std::vector<double> shape;  // every row's B, sized on first use
        std::vector<char> ready;    // per block of kRowsPerBlock rows
    };
    std::shared_ptr<ShapeMemo> memo = std::make_shared<ShapeMemo>();
    std::int64_t rows = 0;

    // Where this block's B(Δ) is (computed now if needed); null when neither column is asked for.
    const double* bound_shape(std::int64_t first, std::int64_t count, std::span<double* const> out) const {
        int bound = -1, relative = -1;
        for (std::size_t c = 0; c < kinds.size(); ++c) {
            if (kinds[c] == Kind::Bound && out[c]) bound = static_cast<int>(c);
            if (kinds[c] == Kind::RelativeBound && out[c]) relative = static_cast<int>(c);
        }
        if (bound < 0 && relative < 0) return nullptr;
        const auto n = static_cast<std::size_t>(count);
        const bool both_columns = std::count(kinds.begin(), kinds.end(), Kind::Bound) > 0 &&
                                  std::count(kinds.begin(), kinds.end(), Kind::RelativeBound) > 0;
        if ((bound >= 0) == (relative >= 0) || !both_columns || first % kRowsPerBlock != 0) {
            // Both at once (or only one exists): this block's own, kept in the relative column,
            // which the columns' loop reaches after the bound and then divides in place.
            double* at = out[static_cast<std::size_t>(relative >= 0 ? relative : bound)];
            exact_decay_bound_into(bound_steps, first, std::span<double>(at, n));
            return at;
        }
        const auto block = static_cast<std::size_t>(first / kRowsPerBlock);
        double* at = nullptr;
        bool ready = false;
        {
            const std::lock_guard lock(memo->mutex);
            if (memo->shape.empty()) {
                memo->shape.resize(static_cast<std::size_t>(rows));
                memo->ready.assign(static_cast<std::size_t>((rows + kRowsPerBlock - 1) / kRowsPerBlock), 0);
            }
            at = memo->shape.data() + first;
            ready = memo->ready[block] != 0;
        }
        if (!ready) {
            exact_decay_bound_into(bound_steps, first, std::span<double>(at, n));
            const std::lock_guard lock(memo->mutex);
            memo->ready[block] = 1;
        }
        return at;
    }

    // naive(Δ) − exact(Δ) summed term by term in float64 (the difference of the two sums would
    // be mostly their rounding), as the score view's mode-error curve.
    double mode_minus_exact(std::int64_t delta) const {
        double total = 0.0;
        for (std::size_t i = 0; i < rope.coefficient.size(); ++i) {
            const std::complex<double> exact = std::polar(1.0, phase_radians(phase_at(rope.step[i], delta)));
            const double w = rope.radians_per_step[i];
            const std::complex<double> naive =
                naive_rotor(w, rope.query_position, mode) * std::conj(naive_rotor(w, rope.query_position - delta, mode));
            total += (rope.coefficient[i] * (naive - exact)).real();
        }
        return total;
    }
};

void scores(DataTable& t, const LabParams& p, const LabData& d) {
    using Kind = ScoreColumns::Kind;
    ScoreColumns columns;
    t.columns = {"distance"};
    columns.kinds = {Kind::Distance};
    std::string precision = kExactPrecision;
    if (p.encoding != Encoding::Sinusoidal) {
        columns.rope = d.rope_sum;
        t.columns.push_back("rope");
        columns.kinds.push_back(Kind::Rope);
        if (p.angle_mode != AngleMode::Exact) {
            // Beside the exact curve, as the score view draws it: the mode's curve and its error.
            std::string mode(to_string(p.angle_mode));  // the CLI's name, as a column name
            std::replace(mode.begin(), mode.end(), '-', '_');
            t.columns.insert(t.columns.end(), {"rope_" + mode, mode + "_minus_exact"});
            columns.kinds.insert(columns.kinds.end(), {Kind::RopeMode, Kind::ModeMinusExact});
            columns.mode = p.angle_mode;
            precision += fmt::format("; rope_{0} and {0}_minus_exact: the mode's own float32 angles (cos and sin as it forms them), "
                                     "summed in float64",
                                     mode);
        }
        if (p.show_bound) {
            // RoFormer's bound of |rope − passthrough| for these q, k, and the paper's shape B(Δ)/B(0).
            t.columns.insert(t.columns.end(), {"bound", "relative_bound"});
            columns.kinds.insert(columns.kinds.end(), {Kind::Bound, Kind::RelativeBound});
            columns.bound_steps = d.freqs.phase_step;
            columns.bound_factor = d.bound_factor;
            columns.bound_at_zero = roformer_bound_at_zero(d.freqs.pairs());
        }
    }
    if (p.show_unencoded) {
        t.columns.push_back("no_encoding");
        columns.kinds.push_back(Kind::Unencoded);
        columns.unencoded = d.unencoded;
    }
    if (p.encoding != Encoding::Rope) {
        t.columns.push_back("sinusoidal");
        columns.kinds.push_back(Kind::Sinusoidal);
        columns.sinusoidal = d.sinusoidal_sum;
    }
    t.parameters.emplace_back("precision", precision);
    columns.rows = p.max_distance;
    t.computed_rows = p.max_distance;
    t.compute = std::move(columns);
}

// The planes view's product, as drawn: each pair's angle at m and q at m, k at m − Δk.
void planes(DataTable& t, const LabParams& p, const LabData& d) {
    const lab::products::Planes planes = lab::products::compute_planes(lab::products::planes_inputs(p, d));
    t.columns = {"pair", "angle_deg", "q_re", "q_im", "k_re", "k_im"};
    t.values.assign(6, {});
    for (std::size_t i = 0; i < planes.pairs.size(); ++i) {
        const lab::products::PlanePair& pair = planes.pairs[i];
        const double row[] = {static_cast<double>(i), pair.angle_at_m, pair.q_at_m.real(), pair.q_at_m.imag(), pair.k_at_n.real(), pair.k_at_n.imag()};
        for (int c = 0; c < 6; ++c) t.values[static_cast<std::size_t>(c)].push_back(row[c]);
    }
}

// The contrast view's product: x, p_m, x + p_m and R(m·θ_i) x.
void contrast(DataTable& t, const LabParams& p, const LabData& d) {
    const lab::products::Contrast v = lab::products::compute_contrast(lab::products::contrast_inputs(p, d));
    t.columns = {"vector", "re", "im", "length"};
    t.values = {{0, 1, 2, 3},
                {v.x.real(), v.p_m.real(), v.added.real(), v.rotated.real()},
                {v.x.imag(), v.p_m.imag(), v.added.imag(), v.rotated.imag()},
                {std::abs(v.x), std::abs(v.p_m), std::abs(v.added), std::abs(v.rotated)}};
    t.parameters.emplace_back("vector_rows", "0: x, 1: p_m, 2: x + p_m, 3: R(m·θ_i) x");
}

void heatmap(DataTable& t, const LabParams& p, const LabData& d) {
    // The rows the view shows: the page of positions holding the current one.
    const std::int64_t stride = heatmap_stride_for(p.max_distance);
    const std::int64_t first = heatmap_first_for(p.position, stride);
    t.parameters.emplace_back("precision", "float64 (each angle reduced from its exact fixed-point phase)");
    t.columns = {"position"};
    t.values = {{}};
    for (int r = 0; r < kHeatmapRows; ++r) t.values[0].push_back(static_cast<double>(first + r * stride));
    for (int i = 0; i < d.freqs.pairs(); ++i) {
        t.columns.push_back(fmt::format("pair_{}_rad", i));
        std::vector<double> column;
        for (int r = 0; r < kHeatmapRows; ++r) {
            column.push_back(phase_radians(phase_at(d.freqs.phase_step[static_cast<std::size_t>(i)], first + r * stride)));
        }
        t.values.push_back(std::move(column));
    }
}

// A number per axis letter, as the CSV holds numbers only.
double axis_code(char axis) { return axis == 't' ? 0.0 : axis == 'h' ? 1.0 : axis == 'w' ? 2.0 : 3.0; }

void frequencies(DataTable& t, const LabParams& p, const LabData& d) {
    t.columns = {"pair", "inv_freq", "unscaled_inv_freq", "wavelength", "scaling"};
    t.values.assign(5, {});
    for (int i = 0; i < d.freqs.pairs(); ++i) {
        const auto k = static_cast<std::size_t>(i);
        t.values[0].push_back(i);
        t.values[1].push_back(d.freqs.inv_freq[k]);
        t.values[2].push_back(d.freqs.unscaled_inv_freq[k]);
        t.values[3].push_back(wavelength(d.freqs.inv_freq[k]));
        t.values[4].push_back(static_cast<double>(d.pair_scaling[k]));
    }
    t.parameters.emplace_back("scaling_codes", "0: unchanged, 1: blended, 2: interpolated");
    if (d.pair_axes.empty()) return;
    // Multi-axis, as the view draws it: each pair's axis, its speed |ω_j| and wavelength
    // 2π/|ω_j| (the axial and even-odd rules do not follow the 1-D ladder), and its turns across
    // the image along its axis.
    const std::size_t n = std::min(d.pair_axes.size(), d.pair_omegas.size());
    t.columns.insert(t.columns.end(), {"axis", "axis_speed", "axis_wavelength", "turns_across_image"});
    t.values.resize(9);
    for (std::size_t j = 0; j < n; ++j) {
        const double lambda = pair_wavelength(d.pair_omegas[j]);
        t.values[5].push_back(axis_code(d.pair_axes[j]));
        t.values[6].push_back(pair_speed(d.pair_omegas[j]));
        t.values[7].push_back(lambda);
        t.values[8].push_back(static_cast<double>(axis_extent(p, d.pair_axes[j])) / lambda);
    }
    t.parameters.emplace_back("axis_codes", "0: t, 1: h, 2: w, 3: mixed (RoPE-Mixed)");
    t.parameters.emplace_back("image_tokens", fmt::format("frames {}, height {}, width {}", p.grid_frames, p.grid_height, p.grid_width));
    for (const AxisBand& b : axis_bands(d, p)) {
        t.parameters.emplace_back(fmt::format("axis_{}", b.axis),
                                  fmt::format("{} pairs, wavelengths {} .. {}, turns across {} {} {} .. {}", b.pairs,
                                              exact_number(b.shortest), exact_number(b.longest), b.extent,
                                              b.axis == 't' ? "frames" : "tokens",
                                              exact_number(b.slowest_turns), exact_number(b.fastest_turns)));
    }
}

// The numbers view's product: the focused pair's rotation at m.
void numbers(DataTable& t, const LabParams& p, const LabData& d) {
    const lab::products::Numbers r = lab::products::compute_numbers(lab::products::numbers_inputs(p, d));
    // cos and sin as HF applies them: times the attention factor (1 unless YaRN or LongRoPE).
    t.columns = {"pair", "theta", "m_theta", "reduced_angle", "attention_factor", "cos", "sin"};
    t.values = {{static_cast<double>(r.pair)}, {r.theta}, {r.m_theta}, {r.angle}, {r.attention}, {r.cos_a}, {r.sin_a}};
}

// The phasor view's product at Δ = the key distance, as drawn: the running sum after the
// pass-through part (row "pair" −1, on the real axis) and after each pair; the last row's re is
// the score at Δ.
void phasors(DataTable& t, const LabParams& p, const LabData& d) {
    const lab::products::Phasors phasors = lab::products::compute_phasors(lab::products::phasors_inputs(p, d));
    t.columns = {"pair", "re", "im"};
    t.values.assign(3, {});
    for (std::size_t i = 0; i < phasors.chain.size(); ++i) {
        t.values[0].push_back(static_cast<double>(i) - 1.0);
        t.values[1].push_back(phasors.chain[i].real());
        t.values[2].push_back(phasors.chain[i].imag());
    }
    t.parameters.emplace_back("key_distance", std::to_string(p.key_distance));
    t.parameters.emplace_back("pair_rows", "-1: the pass-through (unrotated) part; i: the running sum after pair i (exact angles)");
}

// Every offset (Δt, Δh, Δw) of the image's T×H×W grid and its score, Δt slowest, Δw fastest.
void grid(DataTable& t, const LabParams& p, const LabData& d) {
    const GridSize size{p.grid_frames, p.grid_height, p.grid_width};
    if (size.offsets() > kMaxGridExportRows) {
        throw InputError(fmt::format("--grid {}x{}x{} has {} offsets; an export holds at most {} (fewer frames or smaller sides)",
                                     size.frames, size.height, size.width, size.offsets(), kMaxGridExportRows));
    }
    const std::vector<AxisVector> omega = grid_frequency_vectors(p.model, d.freqs, size);
    t.parameters.emplace_back("grid", fmt::format("{}x{}x{}", size.frames, size.height, size.width));
    t.parameters.emplace_back("multi_axis_rule", std::string(to_string(p.model.multi_axis.rule)));
    if (!is_multi_axis(p.model)) t.parameters.emplace_back("grid_positions", "1-D model: raster order, omega_j = f_j (H*W, W, 1)");
    t.columns = {"dt", "dh", "dw", "score"};
    t.values.assign(4, {});
    for (auto& column : t.values) column.reserve(static_cast<std::size_t>(size.offsets()));
    for (std::int64_t dt = -(size.frames - 1); dt < size.frames; ++dt) {
        const GridSlice slice = grid_slice(d.coefficients, omega, size, dt);
        for (std::int64_t dh = -(size.height - 1); dh < size.height; ++dh) {
            for (std::int64_t dw = -(size.width - 1); dw < size.width; ++dw) {
                t.values[0].push_back(static_cast<double>(dt));
                t.values[1].push_back(static_cast<double>(dh));
                t.values[2].push_back(static_cast<double>(dw));
                t.values[3].push_back(slice.at(dh, dw));
            }
        }
    }
}

// Every visible entry (m, n) of the layer's attention, row by row: its logit and its weight.
// Masked entries are left out (said in the metadata), so each row's weights sum to 1.
void attention(DataTable& t, const LabParams& p, const LabData&) {
    // The export's limit first, before any vector file is read for a layout it would refuse.
    const lab::TokenPositions positions = lab::compute_token_positions(p.tokens, p.position_rule, p.model.multi_axis);
    if (positions.error.empty() && static_cast<std::int64_t>(positions.ids.size()) > kMaxAttentionExportTokens) {
        throw InputError(fmt::format("images.tokens: the layout has {} tokens; an attention export holds every entry of at most {} "
                                     "(a shorter --tokens)", positions.ids.size(), kMaxAttentionExportTokens));
    }
    const AttentionInput input = lab::attention_input(p, p.model);
    const std::int64_t tokens = input.tokens();
    const AttentionRows rows(input);
    const LayerAttention& layer = input.model.attention;
    t.parameters.emplace_back("tokens", std::to_string(tokens));
    t.parameters.emplace_back("token_vectors", std::string(to_string(p.token_vectors)));
    t.parameters.emplace_back("logit", "tau_m * <R q_m, R k_n> * logit_scale");
    t.parameters.emplace_back("logit_scale", fmt::format("{} (1/sqrt({}))", exact_number(logit_scale(input.model)),
                                                         input.model.query_pre_attn_scalar > 0 ? "query_pre_attn_scalar" : "head_dim"));
    t.parameters.emplace_back("weight", "softmax of the row's logits over its visible keys; every row's weights sum to 1");
    t.parameters.emplace_back("masked", "entries the layer does not attend to (n > m, outside the window or chunk) are left out");
    t.parameters.emplace_back("layer_rope", layer.rope ? "true" : "false (NoPE)");
    t.parameters.emplace_back("sliding_window", std::to_string(layer.sliding_window));
    t.parameters.emplace_back("attention_chunk", std::to_string(layer.attention_chunk));
    t.parameters.emplace_back("tau_m", !layer.rope && layer.temperature_tuning
                                           ? fmt::format("1 + {} * log1p(floor((m + 1) / {})) (Llama 4 temperature tuning)", layer.attn_scale,
                                                         layer.floor_scale)
                                           : std::string("1"));
    t.parameters.emplace_back("p_rope", exact_number(input.model.p_rope));
    t.columns = {"m", "n", "logit", "weight"};
    t.values.assign(4, {});
    std::vector<double> logits(static_cast<std::size_t>(tokens));
    for (std::int64_t m = 0; m < tokens; ++m) {
        rows.logits(m, 0, tokens, logits.data());
        const std::vector<double> weights = softmax_row(layer, m, logits);
        for (std::int64_t n = first_visible_key(layer, m); n <= m; ++n) {
            t.values[0].push_back(static_cast<double>(m));
            t.values[1].push_back(static_cast<double>(n));
            t.values[2].push_back(logits[static_cast<std::size_t>(n)]);
            t.values[3].push_back(weights[static_cast<std::size_t>(n)]);
        }
    }
}

void invariance(DataTable& t, const LabParams& p, const LabData& d) {
    t.columns = {"position", "rope", "sinusoidal"};
    t.values = {d.invariance_positions, d.invariance_rope, d.invariance_sinusoidal};
    t.parameters.emplace_back("invariance_distance", std::to_string(invariance_delta(p)));
}

void precision(DataTable& t, const LabParams&, const LabData& d) {
    t.columns = {"position", "bf16_error_rad", "fp32_error_rad", "fp32_worst_pair_error_rad"};
    t.values = {d.precision_positions, d.bf16_error, d.naive_error, d.naive_error_worst};
}

// One layer of the model file's W_q and W_k (--weights-layer): a row per query head and pair,
// its key head, both energies, their product (the bound on the pair's share of q·k for unit
// inputs) and the pair's wavelength (lab/products/weights.h: the view's numbers).
void weights(DataTable& t, const LabParams& p, const LabData& d) {
    const std::string source = lab::products::weights_source(p.preset);
    if (source.empty()) {
        throw InputError(fmt::format("--view weights: {} has no weights (a GGUF, or a safetensors checkpoint with its config.json)", p.preset));
    }
    const std::shared_ptr<const models::ModelWeights> file = models::ModelWeights::open(source);
    if (p.weights_layer >= file->layers()) {
        throw InputError(fmt::format("weights.layer = {} is out of range: {} has {} layers (0 .. {})", p.weights_layer, source,
                                     file->layers(), file->layers() - 1));
    }
    const lab::products::WeightsLayer l = lab::products::compute_weights_layer(*file, p.weights_layer);
    const bool wavelengths = l.pairs == d.freqs.pairs();
    const std::vector<double> wavelength = lab::products::pair_wavelengths(d.freqs);
    t.parameters.emplace_back("weights", source);
    t.parameters.emplace_back("layers", std::to_string(l.layers));
    t.parameters.emplace_back("q_heads", std::to_string(l.q_heads));
    t.parameters.emplace_back("kv_heads", std::to_string(l.kv_heads));
    t.parameters.emplace_back("pairs", std::to_string(l.pairs));
    t.parameters.emplace_back("training_context", std::to_string(lab::products::training_context(p.model)));
    t.parameters.emplace_back("q_energy", "sqrt of the sum of squares of the two W_q rows of pair i of head h (float64)");
    t.parameters.emplace_back("product", "q_energy * k_energy of kv_head: bounds pair i's share of q.k for unit inputs; activations decide the real share");
    for (std::size_t n = 0; n < l.notes.size(); ++n) t.parameters.emplace_back(fmt::format("weights_note_{}", n + 1), l.notes[n]);
    t.columns = {"layer", "head", "kv_head", "pair", "q_energy", "k_energy", "product"};
    if (wavelengths) t.columns.emplace_back("wavelength");
    t.values.assign(t.columns.size(), {});
    for (int h = 0; h < l.q_heads; ++h) {
        for (int i = 0; i < l.pairs; ++i) {
            const int g = l.kv_head_of(h);
            const double row[] = {static_cast<double>(l.layer), static_cast<double>(h), static_cast<double>(g), static_cast<double>(i),
                                  l.q_energy(h, i), l.k_energy(g, i), l.product(h, i)};
            for (std::size_t c = 0; c < std::size(row); ++c) t.values[c].push_back(row[c]);
            if (wavelengths) t.values[7].push_back(wavelength[static_cast<std::size_t>(i)]);
        }
    }
}

// Each view's table, bound in the view table's order (state/view_table.h).
using Writer = void (*)(DataTable&, const LabParams&, const LabData&);
constexpr Writer kWriters[] = {planes, contrast, scores, invariance, heatmap, frequencies, numbers, precision, phasors, grid, attention, weights};
static_assert(std::size(kWriters) == kViewCount, "one data writer per row of the view table");

}  // namespace

DataTable view_data(View view, const LabParams& p, const LabData& d) {
    DataTable t;
    t.view = std::string(view_name(view));
    t.parameters = parameters(p, d);
    model_fields(t, p);
    // Where the math degenerates travels with the numbers, as the panel shows it.
    const std::vector<MathNote> notes = lab_math_notes(p, d);
    for (std::size_t i = 0; i < notes.size(); ++i) {
        t.parameters.emplace_back(fmt::format("{}_{}", notes[i].degenerate ? "warning" : "note", i + 1),
                                  notes[i].summary + " (" + notes[i].detail + ")");
    }
    if (!view_row(view).data_export) throw InputError(fmt::format("the {} view has no data to export", view_name(view)));
    kWriters[static_cast<int>(view)](t, p, d);
    const bool stated = std::any_of(t.parameters.begin(), t.parameters.end(), [](const auto& kv) { return kv.first == "precision"; });
    if (!stated) t.parameters.emplace_back("precision", "float64");
    return t;
}

void hold_values(DataTable& t) {
    if (!t.compute) return;
    const std::size_t rows = static_cast<std::size_t>(t.computed_rows);
    t.values.assign(t.columns.size(), std::vector<double>(rows));
    parallel_for((t.computed_rows + kRowsPerBlock - 1) / kRowsPerBlock, [&](std::int64_t from, std::int64_t to) {
        std::vector<double*> out(t.values.size());
        for (std::int64_t b = from; b < to; ++b) {
            const std::int64_t first = b * kRowsPerBlock;
            for (std::size_t c = 0; c < out.size(); ++c) out[c] = t.values[c].data() + first;
            t.compute(first, std::min(kRowsPerBlock, t.computed_rows - first), out);
        }
    });
    t.computed_rows = 0;
    t.compute = nullptr;
}

DataTable compared_view_data(View view, const LabParams& p, std::span<const LabData> settings) {
    std::vector<DataTable> tables;
    for (int i = 0; i < static_cast<int>(settings.size()); ++i) {
        tables.push_back(view_data(view, setting_params(p, i), settings[static_cast<std::size_t>(i)]));
    }
    // Side by side, settings whose tables are all computed with the same rows (the score view:
    // its index is the distance 0 .. N − 1 for every one) stay computed, each setting's block
    // beside the others', so compare mode streams as a single export does. Otherwise they are held.
    const bool streamed = view_row(view).compare_rows != CompareRows::Stacked &&
                          std::all_of(tables.begin(), tables.end(), [&](const DataTable& other) {
                              return other.compute && other.computed_rows == tables[0].computed_rows && !other.columns.empty() &&
                                     other.columns[0] == tables[0].columns[0];
                          });
    if (!streamed) {
        for (DataTable& table : tables) hold_values(table);
    }
    DataTable t;
    t.view = std::string(view_name(view));
    if (view_row(view).compare_rows == CompareRows::Stacked) {
        // Chains of different lengths (phasors), grids of different rules, attention with
        // different masks: one after another, a setting column says whose row it is.
        t.columns = {"setting"};
        t.columns.insert(t.columns.end(), tables[0].columns.begin(), tables[0].columns.end());
        t.values.assign(t.columns.size(), {});
        for (std::size_t i = 0; i < tables.size(); ++i) {
            t.parameters.emplace_back(fmt::format("setting_{}", i), setting_name(p, static_cast<int>(i)));
            for (const auto& [key, value] : tables[i].parameters) t.parameters.emplace_back(setting_slug(p, static_cast<int>(i)) + "." + key, value);
            for (std::size_t r = 0; r < tables[i].values[0].size(); ++r) {
                t.values[0].push_back(static_cast<double>(i));
                for (std::size_t c = 0; c + 1 < t.columns.size(); ++c) t.values[c + 1].push_back(tables[i].values[c][r]);
            }
        }
        return t;
    }
    // An index column every setting shares (same name, same values) is written once.
    const bool shared_index = streamed || std::all_of(tables.begin(), tables.end(), [&](const DataTable& other) {
        return !other.columns.empty() && other.columns[0] == tables[0].columns[0] && other.values[0] == tables[0].values[0];
    });
    if (shared_index) {
        t.columns.push_back(tables[0].columns[0]);
        if (!streamed) t.values.push_back(tables[0].values[0]);
    }
    for (std::size_t i = 0; i < tables.size(); ++i) {
        const std::string slug = setting_slug(p, static_cast<int>(i));
        t.parameters.emplace_back(fmt::format("setting_{}", i + 1), fmt::format("{} (columns {}.*)", setting_name(p, static_cast<int>(i)), slug));
        for (const auto& [key, value] : tables[i].parameters) t.parameters.emplace_back(slug + "." + key, value);
        for (std::size_t c = shared_index ? 1 : 0; c < tables[i].columns.size(); ++c) {
            t.columns.push_back(slug + "." + tables[i].columns[c]);
            if (!streamed) t.values.push_back(std::move(tables[i].values[c]));
        }
    }
    if (streamed) {
        // Setting i's columns (its index only for the first) at their place among t's.
        t.computed_rows = tables[0].computed_rows;
        t.compute = [settings = std::make_shared<const std::vector<DataTable>>(std::move(tables))](
                        std::int64_t first, std::int64_t count, std::span<double* const> out) {
            std::size_t at = 1;
            for (std::size_t i = 0; i < settings->size(); ++i) {
                const DataTable& table = (*settings)[i];
                std::vector<double*> own(table.columns.size(), nullptr);
                own[0] = i == 0 ? out[0] : nullptr;
                for (std::size_t c = 1; c < own.size(); ++c) own[c] = out[at++];
                if (std::any_of(own.begin(), own.end(), [](const double* column) { return column != nullptr; })) table.compute(first, count, own);
            }
        };
    }
    return t;
}

namespace {

// A buffered writer onto a FILE for the metadata and the text between columns; the rows
// themselves go through BlockWriter, after flush().
class TextSink {
public:
    explicit TextSink(std::FILE* out) : out_(out) {}
    ~TextSink() { flush(); }
    void put(std::string_view text) { buffer_.append(text); }
    void put(char c) { buffer_.push_back(c); }
    bool flush() {
        if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), out_) != buffer_.size()) failed_ = true;
        buffer_.clear();
        return !failed_;
    }
    bool ok() { return flush() && !std::ferror(out_); }

private:
    std::FILE* out_;
    std::string buffer_;
    bool failed_ = false;
};

// One block's text, in memory the formatting writes without first zero-filling it.
struct TextBlock {
    std::unique_ptr<char[]> bytes;
    std::size_t capacity = 0, size = 0;
    char* room(std::size_t n) {
        if (n > capacity) {
            bytes.reset(new char[n]);
            capacity = n;
        }
        return bytes.get();
    }
};

// Blocks a batch formats in parallel: 32 × 8192 rows, ~22 MB of text at six columns. While a
// batch is written (one thread, large fwrites), the next one is formatted: the file grows at
// the pace of the slower of the two rather than of their sum. Two batches of text are the
// memory it takes, whatever the table's length.
constexpr int kBlocksPerBatch = 32;

class BlockWriter {
public:
    explicit BlockWriter(std::FILE* out) : out_(out) {}
    ~BlockWriter() { finish(); }
    // format(block, text) for block = 0 .. blocks − 1, written in order.
    template <class Format>
    void write(std::int64_t blocks, const Format& format) {
        for (std::int64_t at = 0; at < blocks; at += kBlocksPerBatch) {
            const int n = static_cast<int>(std::min<std::int64_t>(kBlocksPerBatch, blocks - at));
            std::vector<TextBlock>& batch = formatting_;
            batch.resize(kBlocksPerBatch);
            parallel_for(n, [&](std::int64_t from, std::int64_t to) {
                for (std::int64_t b = from; b < to; ++b) format(at + b, batch[static_cast<std::size_t>(b)]);
            });
            finish();  // the previous batch is written
            std::swap(formatting_, writing_);
            pending_ = start_async([this, n] {
                for (int b = 0; b < n; ++b) {
                    const TextBlock& text = writing_[static_cast<std::size_t>(b)];
                    if (std::fwrite(text.bytes.get(), 1, text.size, out_) != text.size) return errno ? errno : EIO;
                }
                return 0;
            });
        }
    }
    // Waits for the batch being written; false once any write failed. errno is thread-local and
    // the write ran on another thread: the failed write's errno is handed back here, so the commit
    // path can say why ("disk full"), not only that it failed.
    bool finish() {
        if (pending_.valid()) {
            const int e = pending_.get();
            if (e != 0 && write_errno_ == 0) write_errno_ = e;
        }
        if (write_errno_ != 0) errno = write_errno_;
        return write_errno_ == 0;
    }

private:
    std::FILE* out_;
    std::vector<TextBlock> formatting_, writing_;
    std::future<int> pending_;
    int write_errno_ = 0;
};

// Rows first .. first + count − 1 of every column: pointers into the held values, or into
// `scratch` where the table computes them. A column shorter than the table has fewer (`size`).
struct BlockColumns {
    std::vector<const double*> data;
    std::vector<std::size_t> size;
};

BlockColumns block_columns(const DataTable& t, std::int64_t first, std::int64_t count, std::vector<double>& scratch,
                           std::size_t only = std::string::npos) {
    const std::size_t columns = t.columns.size();
    BlockColumns b{std::vector<const double*>(columns, nullptr), std::vector<std::size_t>(columns, 0)};
    if (t.compute) {
        scratch.resize(columns * static_cast<std::size_t>(count));
        std::vector<double*> out(columns, nullptr);
        for (std::size_t c = 0; c < columns; ++c) {
            if (only != std::string::npos && c != only) continue;
            out[c] = scratch.data() + c * static_cast<std::size_t>(count);
            b.data[c] = out[c];
            b.size[c] = static_cast<std::size_t>(count);
        }
        t.compute(first, count, out);
        return b;
    }
    for (std::size_t c = 0; c < columns && c < t.values.size(); ++c) {
        const auto held = static_cast<std::int64_t>(t.values[c].size());
        b.data[c] = t.values[c].data() + std::min(first, held);
        b.size[c] = static_cast<std::size_t>(std::clamp<std::int64_t>(held - first, 0, count));
    }
    return b;
}

std::int64_t table_rows(const DataTable& t) {
    if (t.compute) return t.computed_rows;
    std::size_t rows = 0;
    for (const auto& column : t.values) rows = std::max(rows, column.size());
    return static_cast<std::int64_t>(rows);
}

std::int64_t column_rows(const DataTable& t, std::size_t c) {
    if (t.compute) return t.computed_rows;
    return c < t.values.size() ? static_cast<std::int64_t>(t.values[c].size()) : 0;
}

std::int64_t blocks_of(std::int64_t rows) { return (rows + kRowsPerBlock - 1) / kRowsPerBlock; }

// Each thread's block of computed values, kept between blocks (no allocation per block).
std::vector<double>& thread_scratch() {
    thread_local std::vector<double> scratch;
    return scratch;
}

// A JSON string: valid UTF-8 (a byte that is not becomes U+FFFD), with '"', '\\' and control
// characters escaped.
std::string quoted(const std::string& text) {
    const std::string s = utf8_or_replacement(text);
    std::string q = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            q += '\\';
            q += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            q += fmt::format("\\u{:04x}", static_cast<int>(c));
        } else {
            q += c;
        }
    }
    return q + "\"";
}

// Text on a CSV comment line ("# key: value"): valid UTF-8, and one line — a newline, carriage
// return or other control character is written as \n, \r or \xNN, a backslash as \\.
std::string csv_comment_text(const std::string& text) {
    std::string out;
    for (const char c : utf8_or_replacement(text)) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c == '\\') out += "\\\\";
        else if (u < 0x20 || u == 0x7F) out += fmt::format("\\x{:02X}", u);
        else out += c;
    }
    return out;
}

// A CSV header field (RFC 4180): quoted when it holds a comma, a quote or a line break, its
// quotes doubled; valid UTF-8.
std::string csv_field(const std::string& text) {
    const std::string s = utf8_or_replacement(text);
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (const char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

// A std::string as a FILE, for to_csv and to_json.
template <class Write>
std::string to_text(const DataTable& t, Write write) {
    char* data = nullptr;
    std::size_t size = 0;
    std::FILE* memory = open_memstream(&data, &size);
    if (!memory) return "";
    write(memory, t);
    std::fclose(memory);
    std::string out(data, size);
    std::free(data);
    return out;
}

}  // namespace

bool write_csv(std::FILE* out, const DataTable& t) {
    TextSink sink(out);
    sink.put(fmt::format("# ropelab export: view {}\n", csv_comment_text(t.view)));
    for (const auto& [key, value] : t.parameters) sink.put(fmt::format("# {}: {}\n", csv_comment_text(key), csv_comment_text(value)));
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        if (c) sink.put(',');
        sink.put(csv_field(t.columns[c]));
    }
    sink.put('\n');
    if (!sink.flush()) return false;
    const std::int64_t rows = table_rows(t);
    const std::size_t columns = t.columns.size();
    BlockWriter writer(out);
    writer.write(blocks_of(rows), [&](std::int64_t block, TextBlock& text) {
        const std::int64_t first = block * kRowsPerBlock, count = std::min(kRowsPerBlock, rows - first);
        const BlockColumns b = block_columns(t, first, count, thread_scratch());
        char* at = text.room(static_cast<std::size_t>(count) * (columns * (kMaxNumberChars + 1) + 1));
        char* const start = at;
        for (std::size_t r = 0; r < static_cast<std::size_t>(count); ++r) {
            for (std::size_t c = 0; c < columns; ++c) {
                if (c) *at++ = ',';
                if (r < b.size[c]) at = write_number(at, b.data[c][r]);
            }
            *at++ = '\n';
        }
        text.size = static_cast<std::size_t>(at - start);
    });
    return writer.finish() && sink.ok();
}

bool write_json(std::FILE* out, const DataTable& t) {
    TextSink sink(out);
    sink.put("{\n  \"view\": " + quoted(t.view) + ",\n  \"parameters\": {");
    for (std::size_t i = 0; i < t.parameters.size(); ++i) {
        sink.put((i ? ", " : "") + quoted(t.parameters[i].first) + ": " + quoted(t.parameters[i].second));
    }
    sink.put("},\n  \"columns\": {");
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        sink.put((c ? ",\n    " : "\n    ") + quoted(t.columns[c]) + ": [");
        if (!sink.flush()) return false;
        const std::int64_t rows = column_rows(t, c);
        BlockWriter writer(out);
        writer.write(blocks_of(rows), [&](std::int64_t block, TextBlock& text) {
            const std::int64_t first = block * kRowsPerBlock, count = std::min(kRowsPerBlock, rows - first);
            const BlockColumns b = block_columns(t, first, count, thread_scratch(), c);
            char* at = text.room(static_cast<std::size_t>(count) * (kMaxNumberChars + 1));
            char* const start = at;
            for (std::size_t r = 0; r < static_cast<std::size_t>(count); ++r) {
                if (r || first) *at++ = ',';
                at = write_number(at, b.data[c][r]);
            }
            text.size = static_cast<std::size_t>(at - start);
        });
        if (!writer.finish()) return false;
        sink.put(']');
    }
    sink.put("\n  }\n}\n");
    return sink.ok();
}

std::string to_csv(const DataTable& t) { return to_text(t, write_csv); }
std::string to_json(const DataTable& t) { return to_text(t, write_json); }

std::string export_view_data(const std::string& path, int view, const LabParams& params, const LabData& data) {
    const bool json = path.ends_with(".json");
    if (!json && !path.ends_with(".csv")) return "unknown data format (expected .csv or .json)";
    if (view < 0) return "choose one view to export its data";
    if (const std::string problem = export_target_problem(path); !problem.empty()) return problem;
    DataTable table;
    if (comparing(params)) {
        // Each compared setting's data as its own single export computes it.
        std::vector<LabData> settings{data};
        for (int i = 1; i < setting_count(params); ++i) settings.push_back(compute_lab_data(setting_params(params, i)));
        table = compared_view_data(static_cast<View>(view), params, settings);
    } else {
        table = view_data(static_cast<View>(view), params, data);
    }
    std::string error;
    write_file_atomically(path, [&](std::FILE* out) { return json ? write_json(out, table) : write_csv(out, table); }, error);
    return error;
}

}  // namespace ropelab
