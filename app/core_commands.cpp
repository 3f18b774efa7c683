#include "core_commands.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <span>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "core/frequencies.h"
#include "core/multi_axis.h"
#include "core/number_text.h"
#include "core/phasor_sum.h"
#include "core/rotation.h"
#include "core/scores.h"
#include "core/sinusoidal.h"
#include "core/vector_spec.h"
#include "gpu/gl_device.h"
#include "state/compare.h"
#include "lab/lab_data.h"
#include "state/schema.h"
#include "output_table.h"

namespace ropelab {

namespace {

constexpr std::int64_t kMaxSweep = std::int64_t{1} << 22;
// The lab's own position range (0 .. 2^31 - 1). Angles are m · step mod 2^64 turns with a step
// rounded to 2^-64 turns: off by at most m · 2^-65 turns, 4e-10 rad at 2^31 but 0.09° at 2^53,
// where this used to reach; sinusoidal angles m·ω in float64 lose more still.
constexpr std::int64_t kMaxCorePosition = kMaxPosition;

void add_device_options(CLI::App* cmd, DeviceOptions& d) {
    cmd->add_option("--device", d.device,
                    "auto (GPU core when a compute context exists), gpu, cpu (fast path), or "
                    "reference (float64 core, slow)")
        ->check(CLI::IsMember({"auto", "gpu", "cpu", "reference"}))
        ->capture_default_str();
    cmd->add_option("--kernel", d.kernel,
                    "GPU kernel: auto (serial on software rasterisers such as llvmpipe, tiled on real GPUs), "
                    "serial (64 distances per invocation) or tiled (16 per invocation, 256 per workgroup)")
        ->check(CLI::IsMember({"auto", "serial", "tiled"}))
        ->capture_default_str();
    cmd->add_option("--repeat", d.repeat,
                    "Runs to time; compute_ms is their median (compute + readback into host memory), "
                    "kernel_ms (GL timer queries) and transfer_ms its two parts on the GPU")
        ->transform(in_range(1, 1000))
        ->capture_default_str();
}

void emit(const ModelOptions& o, const OutputTable& table) {
    if (o.format == "json") {
        write_json(stdout, table);
    } else {
        write_csv(stdout, table);
    }
}

std::vector<double> parse_vector_option(const std::string& option, const std::string& spec,
                                        const ModelConfig& config) {
    try {
        // Given for the model's head; the core keeps the rotary part first (DeepSeek: [nope | rope]).
        return rotary_part_first(parse_vector_spec(spec, config.head_dim), config.rotary_offset, rotary_dim(config));
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}", option, e.what()));
    }
}

// q and k for one setting's model as the vector flags choose them: the lab's own choice (so
// `scores --vectors random` and `export-data --vectors random` draw the same vectors); custom
// ones are read here so a bad one is refused naming --q or --k.
std::pair<std::vector<double>, std::vector<double>> chosen_vectors(const LabParams& p, const ModelConfig& config) {
    if (p.vectors == VectorChoice::Custom) {
        return {parse_vector_option("--q", p.custom_q, config), parse_vector_option("--k", p.custom_k, config)};
    }
    LabParams setting = p;
    setting.model = config;
    return lab_vectors(setting, config.head_dim, rotary_dim(config));
}

// The core commands compute one encoding: rope unless --encoding says sinusoidal (the lab's
// default, both, draws two curves and is refused here by name).
bool sinusoidal(const LabParams& p, const ModelOptions& o) {
    if (!o.fields.contains("curves.encoding")) return false;
    if (p.encoding == Encoding::Both) {
        throw InputError("--encoding: curves.encoding = both draws two curves in the lab; this subcommand computes "
                         "one (rope or sinusoidal)");
    }
    return p.encoding == Encoding::Sinusoidal;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Median times of R runs of one computation, in milliseconds.
struct Timed {
    double compute_ms = 0.0, kernel_ms = 0.0, transfer_ms = 0.0;
    Timed& operator+=(const Timed& o) {
        compute_ms += o.compute_ms;
        kernel_ms += o.kernel_ms;
        transfer_ms += o.transfer_ms;
        return *this;
    }
};

// Runs `work` R times; the medians of its wall time and of the device's split of it.
Timed median_times(int repeat, const gpu::GlDevice* device, const std::function<void()>& work) {
    std::vector<double> wall, kernel, transfer;
    for (int i = 0; i < repeat; ++i) {
        const auto start = std::chrono::steady_clock::now();
        work();
        wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        if (device) {
            kernel.push_back(device->last_timing().kernel_ms);
            transfer.push_back(device->last_timing().transfer_ms);
        }
    }
    return {median(wall), kernel.empty() ? 0.0 : median(kernel), transfer.empty() ? 0.0 : median(transfer)};
}

// Compare mode's settings, named, for JSON output: [{"name": …, "column_prefix": …}, …].
std::string settings_json(const LabParams& p) {
    std::string out = "[";
    for (int i = 0; i < setting_count(p); ++i) {
        out += fmt::format("{}{{\"name\": {}, \"column_prefix\": {}}}", i ? ", " : "", json_string(setting_name(p, i)),
                           json_string(setting_slug(p, i)));
    }
    return out + "]";
}

// Where the numbers come from: the float64 reference core, or the GPU/CPU fast paths.
struct Engine {
    std::unique_ptr<gpu::GlDevice> device;  // null for the reference
    std::string name = "reference";
};

Engine open_engine(const DeviceOptions& d) {
    Engine engine;
    if (d.device == "reference") return engine;
    std::string notice;
    try {
        engine.device = gpu::GlDevice::open(gpu::parse_device_request(d.device), true, notice,
                                                 gpu::parse_kernel_request(d.kernel));
    } catch (const gpu::DeviceError& e) {
        throw InputError(fmt::format("--device gpu: {}", e.what()));
    }
    if (!notice.empty()) std::fprintf(stderr, "ropelab: notice: %s\n", notice.c_str());
    engine.name = engine.device->name();
    engine.device->set_timing(d.repeat > 1);
    return engine;
}

std::vector<double> widen(std::span<const float> v) { return {v.begin(), v.end()}; }

// device, kernel and the medians, for JSON output.
std::vector<std::pair<std::string, std::string>> timing_scalars(const Engine& engine, const Timed& t) {
    std::vector<std::pair<std::string, std::string>> out = {{"device", json_string(engine.name)},
                                                            {"compute_ms", exact_number(t.compute_ms)}};
    if (engine.device) out.emplace_back("kernel", json_string(std::string(engine.device->kernel_name())));
    if (engine.device && engine.device->is_gpu()) {
        out.emplace_back("kernel_ms", exact_number(t.kernel_ms));
        out.emplace_back("transfer_ms", exact_number(t.transfer_ms));
    }
    return out;
}

// ---- subcommands --------------------------------------------------------------------------

void run_freqs(const ModelOptions& o) {
    if (o.explain) {
        std::printf("%s", explain_config(resolve_loaded(o)).c_str());
        return;
    }
    const LabParams p = resolve_settings(o);
    OutputTable t{"pair", 0, {}, {}};
    // Compare mode: each setting's columns are its own single run's, named "SLUG.column".
    for (int i = 0; i < setting_count(p); ++i) {
        const ModelConfig& model = setting_model(p, i);
        const RopeFrequencies f = compute_frequencies(model);
        // Multi-axis rules with their own ladders (axial, even-odd, mixed) turn pair j at |ω_j|,
        // not at the 1-D ladder's j-th frequency; for sections the two are the same.
        std::vector<double> inv_freq = f.inv_freq;
        if (is_multi_axis(model)) {
            inv_freq.clear();
            for (const AxisVector& w : pair_frequency_vectors(model, f)) inv_freq.push_back(std::hypot(w[0], w[1], w[2]));
        }
        std::vector<double> wavelengths;
        for (double w : inv_freq) wavelengths.push_back(wavelength(w));
        const std::string prefix = comparing(p) ? setting_slug(p, i) + "." : "";
        t.columns.emplace_back(prefix + "inv_freq", std::move(inv_freq));
        t.columns.emplace_back(prefix + "wavelength", std::move(wavelengths));
        // Multi-axis models: the axis each pair turns with (t, h, w; m for RoPE-Mixed's mix of h and w).
        const std::string letters = pair_axis_letters(model);
        if (!letters.empty()) {
            std::vector<std::string> axis;
            for (char letter : letters) axis.emplace_back(1, letter);
            t.text_columns.emplace_back(prefix + "axis", std::move(axis));
        }
        t.json_scalars.emplace_back(prefix + "rotary_dim", exact_number(f.rotary_dim));
        t.json_scalars.emplace_back(prefix + "attention_factor", exact_number(f.attention_factor));
    }
    if (comparing(p)) t.json_scalars.emplace_back("settings", settings_json(p));
    emit(o, t);
}

void run_angles(const ModelOptions& o) {
    const LabParams p = resolve_settings(o);
    emit(o, {"pair", 0, {{"angle_deg", pair_angles_deg(compute_frequencies(p.model), p.position)}}, {}});
}

// The phasor sum a score run evaluates for one model (q, k given for its head).
PhasorSum score_sum(const LabParams& p, bool additive, const ModelConfig& config, std::int64_t query_position) {
    const RopeFrequencies f = compute_frequencies(config);
    if (additive) {
        if (p.angle_mode != AngleMode::Exact) {
            throw InputError("--angle-mode: the naive modes apply to --encoding rope only");
        }
        if (p.vectors == VectorChoice::MeanOfRandom) throw InputError("--vectors mean (--samples): applies to --encoding rope only");
        const auto [q, k] = chosen_vectors(p, config);
        return sinusoidal_phasor_sum(q, k, sinusoidal_encoding(config.head_dim, config.rope_theta), query_position);
    }
    if (p.vectors == VectorChoice::MeanOfRandom) {
        return rope_phasor_sum(mean_random_coefficients(f, p.seed, p.samples), f, query_position);
    }
    const auto [q, k] = chosen_vectors(p, config);
    return rope_phasor_sum(score_coefficients(q, k, f), f, query_position);
}

// Each setting's curve, timed; the result is read where the device left it and widened for
// output afterwards (formatting is not computing).
std::vector<std::vector<double>> score_curves(const std::vector<PhasorSum>& sums, std::int64_t n, AngleMode mode,
                                              const Engine& engine, int repeat, Timed& times) {
    std::vector<std::vector<double>> curves(sums.size());
    for (std::size_t i = 0; i < sums.size(); ++i) {
        std::span<const float> fast;
        times += median_times(repeat, engine.device.get(), [&] {
            if (engine.device) {
                fast = engine.device->scores(sums[i], n, mode);
            } else {
                curves[i].resize(static_cast<std::size_t>(n));
                for (std::int64_t d = 0; d < n; ++d) curves[i][static_cast<std::size_t>(d)] = evaluate(sums[i], d, mode);
            }
        });
        if (engine.device) curves[i] = widen(fast);
    }
    return curves;
}

void run_scores(const CoreOptions& c) {
    const ModelOptions& o = c.model;
    const LabParams p = resolve_settings(o);
    const bool additive = sinusoidal(p, o);
    const std::int64_t query_position = c.query_position.value_or(p.max_distance - 1);
    std::vector<PhasorSum> sums;
    for (int i = 0; i < setting_count(p); ++i) {
        try {
            sums.push_back(score_sum(p, additive, setting_model(p, i), query_position));
        } catch (const InputError& e) {
            if (!comparing(p)) throw;
            throw InputError(fmt::format("setting {} ({}): {}", i + 1, setting_name(p, i), e.what()));
        }
    }
    const Engine engine = open_engine(c.device);
    Timed times;
    std::vector<std::vector<double>> curves = score_curves(sums, p.max_distance, p.angle_mode, engine, c.device.repeat, times);
    OutputTable t{"distance", 0, {}, {}};
    for (std::size_t i = 0; i < curves.size(); ++i) {
        t.columns.emplace_back(comparing(p) ? setting_slug(p, static_cast<int>(i)) + ".score" : "score", std::move(curves[i]));
    }
    t.json_scalars = timing_scalars(engine, times);
    if (comparing(p)) t.json_scalars.emplace_back("settings", settings_json(p));
    emit(o, t);
}

std::pair<std::int64_t, std::int64_t> parse_position_range(const std::string& text) {
    const auto colon = text.find(':');
    std::int64_t from = 0, to = 0;
    if (colon == std::string::npos ||
        !CLI::detail::lexical_cast(text.substr(0, colon), from) ||
        !CLI::detail::lexical_cast(text.substr(colon + 1), to)) {
        throw InputError(fmt::format("--positions: expected A:B with integers A < B (got \"{}\")", text));
    }
    if (from < 0 || to <= from || to - 1 > kMaxCorePosition) {
        throw InputError(fmt::format("--positions: need 0 <= A < B <= 2^31 (positions up to {}, where angles are exact; "
                                     "got \"{}\")", kMaxCorePosition, text));
    }
    if (to - from > kMaxSweep) {
        throw InputError(fmt::format("--positions: at most {} positions per sweep (got {})",
                                     kMaxSweep, to - from));
    }
    return {from, to};
}

void run_invariance(const CoreOptions& c) {
    const ModelOptions& o = c.model;
    const LabParams p = resolve_settings(o);
    const auto [from, to] = parse_position_range(c.positions);
    if (p.vectors == VectorChoice::MeanOfRandom) {
        throw InputError("--vectors mean (--samples): invariance takes one q and one k (ones, random, pair or custom)");
    }
    const auto [q, k] = chosen_vectors(p, p.model);
    std::vector<double> scores;
    if (sinusoidal(p, o)) {
        scores = sinusoidal_invariance(q, k, sinusoidal_encoding(p.model.head_dim, p.model.rope_theta),
                                       p.invariance_distance, from, to);
    } else {
        scores = rope_invariance(q, k, compute_frequencies(p.model), p.invariance_distance, from, to);
    }
    emit(o, {"position", from, {{"score", std::move(scores)}}, {}});
}

void run_decay_bound(const CoreOptions& c) {
    const LabParams p = resolve_settings(c.model);
    const RopeFrequencies f = compute_frequencies(p.model);
    const Engine engine = open_engine(c.device);
    std::span<const float> fast;
    std::vector<double> exact;
    const Timed times = median_times(c.device.repeat, engine.device.get(), [&] {
        if (engine.device) {
            fast = engine.device->decay_bound(f, p.max_distance);
        } else {
            exact = roformer_bound(f, p.max_distance);
        }
    });
    OutputTable t{"distance", 0, {{"bound", engine.device ? widen(fast) : std::move(exact)}}, {}};
    t.json_scalars = timing_scalars(engine, times);
    emit(c.model, t);
}

}  // namespace

void add_core_subcommands(CLI::App& app, CoreOptions& c, std::function<void()>& action) {
    ModelOptions& model = c.model;
    std::map<std::string, std::string>& fields = model.fields;  // every schema field, by path

    auto* freqs = app.add_subcommand("freqs", "Per-pair inv_freq and wavelength after scaling; multi-axis models add an axis "
                                              "column: the letter of the position coordinate each pair turns with (t, h or w; "
                                              "m for RoPE-Mixed, whose pairs turn with a mix of h and w)");
    add_model_options(freqs, model);
    add_compare_options(freqs, model);
    freqs->add_flag("--explain", model.explain,
                    "List every config field used (from the file, a default, or derived), every field ignored and why, "
                    "and the notes, instead of the frequencies");
    freqs->callback([&] { action = [&] { run_freqs(model); }; });

    auto* angles = app.add_subcommand("angles", "Per-pair rotation angle at a position, degrees in (-180, 180]");
    add_model_options(angles, model);
    add_field_options(angles, fields, {"focus.position"}).front()->required();
    angles->callback([&] { action = [&] { run_angles(model); }; });

    auto* scores = app.add_subcommand("scores", "Attention score vs distance Δ = 0..N-1");
    add_model_options(scores, model);
    add_compare_options(scores, model);
    add_vector_options(scores, fields);
    add_curve_options(scores, fields);
    scores->add_option("--query-position", c.query_position,
                       "Query position m for sinusoidal (default N-1, so keys sit at 0..N-1)")
        ->transform(in_range(0, static_cast<double>(kMaxCorePosition)));
    add_device_options(scores, c.device);
    scores->callback([&] { action = [&] { run_scores(c); }; });

    auto* invariance = app.add_subcommand("invariance", "Score at a fixed distance for query positions A..B-1");
    add_model_options(invariance, model);
    add_vector_options(invariance, fields);
    add_field_options(invariance, fields, {"curves.encoding", "curves.invariance_distance"});
    invariance->add_option("--positions", c.positions, "Query positions A:B")->required();
    invariance->callback([&] { action = [&] { run_invariance(c); }; });

    auto* bound = app.add_subcommand("decay-bound", "RoFormer's decay shape B(Δ) = Σ|S_j|/(d/2); (d/2)·max|c_{j−1} − c_j|·B(Δ) bounds |score − pass| (export-data --view scores writes both)");
    add_model_options(bound, model);
    add_field_options(bound, fields, {"curves.max_distance"});
    add_device_options(bound, c.device);
    bound->callback([&] { action = [&] { run_decay_bound(c); }; });
}

}  // namespace ropelab
