#include "cli.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "core/config_json.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/number_text.h"
#include "core/frequencies.h"
#include "core/presets.h"
#include "lab/compare.h"
#include "lab/schema.h"
#include "core/rotation.h"
#include "core/scores.h"
#include "core/sinusoidal.h"
#include "core/vector_spec.h"
#include "core/phasor_sum.h"
#include "gpu/compute_device.h"
#include "export_commands.h"
#include "gui_command.h"
#include "model_options.h"
#include "output_table.h"

namespace ropelab {

namespace {

constexpr std::int64_t kMaxSweep = std::int64_t{1} << 22;
// The core commands reach further than the lab: angles stay exact to 2^53 (float64 integers).
constexpr std::int64_t kMaxCorePosition = std::int64_t{1} << 53;

// Where a core command computes, and how often to time it.
struct DeviceOptions {
    std::string device = "auto";
    std::string kernel = "auto";
    int repeat = 1;
};

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
        ->check(in_range(1, 1000))
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
Timed median_times(int repeat, const gpu::ComputeDevice* device, const std::function<void()>& work) {
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
        const RopeFrequencies f = compute_frequencies(setting_model(p, i));
        std::vector<double> wavelengths;
        for (double w : f.inv_freq) wavelengths.push_back(wavelength(w));
        const std::string prefix = comparing(p) ? setting_slug(p, i) + "." : "";
        t.columns.emplace_back(prefix + "inv_freq", f.inv_freq);
        t.columns.emplace_back(prefix + "wavelength", std::move(wavelengths));
        t.json_scalars.emplace_back(prefix + "rotary_dim", exact_number(f.rotary_dim));
        t.json_scalars.emplace_back(prefix + "attention_factor", exact_number(f.attention_factor));
    }
    if (comparing(p)) t.json_scalars.emplace_back("settings", settings_json(p));
    emit(o, t);
}

struct AnglesOptions {
    std::int64_t position = 0;
};

void run_angles(const ModelOptions& o, const AnglesOptions& a) {
    const RopeFrequencies f = compute_frequencies(resolve_model(o));
    emit(o, {"pair", 0, {{"angle_deg", pair_angles_deg(f, a.position)}}, {}});
}

struct ScoreOptions {
    std::int64_t max_distance = 4096;
    std::string encoding = "rope";
    std::optional<std::int64_t> query_position;
    std::string q = "ones";
    std::string k = "ones";
    std::optional<int> samples;
    std::uint64_t seed = 1;
    std::string angle_mode = "exact";
    DeviceOptions device;
};

// Where the numbers come from: the float64 reference core, or the GPU/CPU fast paths.
struct Engine {
    std::unique_ptr<gpu::ComputeDevice> device;  // null for the reference
    std::string name = "reference";
};

Engine open_engine(const DeviceOptions& d) {
    Engine engine;
    if (d.device == "reference") return engine;
    std::string notice;
    try {
        engine.device = gpu::ComputeDevice::open(gpu::parse_device_request(d.device), true, notice,
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

// The phasor sum a score run evaluates for one model (q, k given for its head).
PhasorSum score_sum(const ScoreOptions& s, const ModelConfig& config, AngleMode mode, std::int64_t query_position) {
    const RopeFrequencies f = compute_frequencies(config);
    if (s.encoding == "sinusoidal") {
        if (mode != AngleMode::Exact) {
            throw InputError("--angle-mode: the naive modes apply to --encoding rope only");
        }
        if (s.samples) throw InputError("--samples: applies to --encoding rope only");
        const std::vector<double> q = parse_vector_option("--q", s.q, config);
        const std::vector<double> k = parse_vector_option("--k", s.k, config);
        return sinusoidal_phasor_sum(q, k, sinusoidal_encoding(config.head_dim, config.rope_theta), query_position);
    }
    if (s.samples) return rope_phasor_sum(mean_random_coefficients(f, s.seed, *s.samples), f, query_position);
    const std::vector<double> q = parse_vector_option("--q", s.q, config);
    const std::vector<double> k = parse_vector_option("--k", s.k, config);
    return rope_phasor_sum(score_coefficients(q, k, f), f, query_position);
}

void run_scores(const ModelOptions& o, const ScoreOptions& s) {
    const LabParams p = resolve_settings(o);
    const AngleMode mode = parse_angle_mode(s.angle_mode);
    const std::int64_t query_position = s.query_position.value_or(s.max_distance - 1);
    std::vector<PhasorSum> sums;
    for (int i = 0; i < setting_count(p); ++i) {
        try {
            sums.push_back(score_sum(s, setting_model(p, i), mode, query_position));
        } catch (const InputError& e) {
            if (!comparing(p)) throw;
            throw InputError(fmt::format("setting {} ({}): {}", i + 1, setting_name(p, i), e.what()));
        }
    }

    const Engine engine = open_engine(s.device);
    std::vector<std::vector<double>> curves(sums.size());
    Timed times;
    // Timed per setting: the result is read where the device left it, and widened for output
    // afterwards (formatting is not computing).
    for (std::size_t i = 0; i < sums.size(); ++i) {
        std::span<const float> fast;
        times += median_times(s.device.repeat, engine.device.get(), [&] {
            if (engine.device) {
                fast = engine.device->scores(sums[i], s.max_distance, mode);
            } else {
                curves[i].resize(static_cast<std::size_t>(s.max_distance));
                for (std::int64_t d = 0; d < s.max_distance; ++d) curves[i][static_cast<std::size_t>(d)] = evaluate(sums[i], d, mode);
            }
        });
        if (engine.device) curves[i] = widen(fast);
    }
    OutputTable t{"distance", 0, {}, {}};
    for (std::size_t i = 0; i < curves.size(); ++i) {
        t.columns.emplace_back(comparing(p) ? setting_slug(p, static_cast<int>(i)) + ".score" : "score", std::move(curves[i]));
    }
    t.json_scalars = timing_scalars(engine, times);
    if (comparing(p)) t.json_scalars.emplace_back("settings", settings_json(p));
    emit(o, t);
}

struct InvarianceOptions {
    std::int64_t distance = 0;
    std::string positions;
    std::string encoding = "rope";
    std::string q = "ones";
    std::string k = "ones";
};

std::pair<std::int64_t, std::int64_t> parse_position_range(const std::string& text) {
    const auto colon = text.find(':');
    std::int64_t from = 0, to = 0;
    if (colon == std::string::npos ||
        !CLI::detail::lexical_cast(text.substr(0, colon), from) ||
        !CLI::detail::lexical_cast(text.substr(colon + 1), to)) {
        throw InputError(fmt::format("--positions: expected A:B with integers A < B (got \"{}\")", text));
    }
    if (from < 0 || to <= from || to > kMaxCorePosition) {
        throw InputError(fmt::format("--positions: need 0 <= A < B <= 2^53 (got \"{}\")", text));
    }
    if (to - from > kMaxSweep) {
        throw InputError(fmt::format("--positions: at most {} positions per sweep (got {})",
                                     kMaxSweep, to - from));
    }
    return {from, to};
}

void run_invariance(const ModelOptions& o, const InvarianceOptions& s) {
    const ModelConfig config = resolve_model(o);
    const auto [from, to] = parse_position_range(s.positions);
    const std::vector<double> q = parse_vector_option("--q", s.q, config);
    const std::vector<double> k = parse_vector_option("--k", s.k, config);
    std::vector<double> scores;
    if (s.encoding == "sinusoidal") {
        scores = sinusoidal_invariance(q, k, sinusoidal_encoding(config.head_dim, config.rope_theta),
                                       s.distance, from, to);
    } else {
        scores = rope_invariance(q, k, compute_frequencies(config), s.distance, from, to);
    }
    emit(o, {"position", from, {{"score", std::move(scores)}}, {}});
}

struct BoundOptions {
    std::int64_t max_distance = 4096;
    DeviceOptions device;
};

void run_decay_bound(const ModelOptions& o, const BoundOptions& b) {
    const RopeFrequencies f = compute_frequencies(resolve_model(o));
    const Engine engine = open_engine(b.device);
    std::span<const float> fast;
    std::vector<double> exact;
    const Timed times = median_times(b.device.repeat, engine.device.get(), [&] {
        if (engine.device) {
            fast = engine.device->decay_bound(f, b.max_distance);
        } else {
            exact = roformer_bound(f, b.max_distance);
        }
    });
    OutputTable t{"distance", 0, {{"bound", engine.device ? widen(fast) : std::move(exact)}}, {}};
    t.json_scalars = timing_scalars(engine, times);
    emit(o, t);
}

// Pads to a width in characters, not bytes: titles hold θ and ×.
std::string pad_right(const std::string& text, std::size_t width) {
    std::size_t chars = 0;
    for (unsigned char c : text) chars += (c & 0xC0) != 0x80;
    return text + std::string(chars < width ? width - chars : 0, ' ');
}

void run_presets() {
    for (const Preset& p : presets()) {
        const ModelConfig& c = p.config;
        std::printf("%s %s d=%d rot=%d theta=%g %s %s\n", pad_right(p.note.name, 16).c_str(),
                    pad_right(p.note.title, 46).c_str(), c.head_dim, rotary_dim(c), c.rope_theta,
                    std::string(to_string(c.rope_scaling.type)).c_str(),
                    std::string(to_string(c.layout)).c_str());
    }
}

// The lab state's schema: every field with its session path, flag, lesson name and range.
void run_fields() {
    std::printf("%s %s %s %s\n", pad_right("session path", 52).c_str(), pad_right("flag", 36).c_str(),
                pad_right("lesson", 24).c_str(), "valid values");
    for (const schema::Field& f : schema::fields()) {
        if (f.scope != schema::Scope::Session) continue;
        std::printf("%s %s %s %s%s\n", pad_right(std::string(f.path), 52).c_str(),
                    pad_right(f.flag.empty() ? "-" : std::string(f.flag), 36).c_str(),
                    pad_right(f.lesson.empty() ? "-" : std::string(f.lesson), 24).c_str(), schema::range_text(f).c_str(),
                    f.optional ? " (or none)" : "");
    }
}

}  // namespace

int run_cli(int argc, char** argv) {
    CLI::App app{"ropelab: a lab for Rotary Position Embeddings (RoPE).\n"
                 "Every subcommand prints the exact core's numbers as CSV (default) or JSON.",
                 "ropelab"};
    app.require_subcommand(0, 1);

    ModelOptions model;
    std::function<void()> action;

    auto* freqs = app.add_subcommand("freqs", "Per-pair inv_freq and wavelength after scaling");
    add_model_options(freqs, model);
    add_compare_options(freqs, model);
    freqs->add_flag("--explain", model.explain,
                    "List every config field used (from the file, a default, or derived), every field ignored and why, "
                    "and the notes, instead of the frequencies");
    freqs->callback([&] { action = [&] { run_freqs(model); }; });

    AnglesOptions angles_opts;
    auto* angles = app.add_subcommand("angles", "Per-pair rotation angle at a position, degrees in (-180, 180]");
    add_model_options(angles, model);
    angles->add_option("--position", angles_opts.position, "Token position m")
        ->required()
        ->check(in_range(0, static_cast<double>(kMaxCorePosition)));
    angles->callback([&] { action = [&] { run_angles(model, angles_opts); }; });

    ScoreOptions score_opts;
    auto* scores = app.add_subcommand("scores", "Attention score vs distance Δ = 0..N-1");
    add_model_options(scores, model);
    add_compare_options(scores, model);
    scores->add_option("--max-distance", score_opts.max_distance, "Number of distances N")
        ->check(in_range(1, static_cast<double>(kMaxDistances)))
        ->capture_default_str();
    scores->add_option("--encoding", score_opts.encoding, "rope or sinusoidal (additive)")
        ->check(CLI::IsMember({"rope", "sinusoidal"}))
        ->capture_default_str();
    scores->add_option("--query-position", score_opts.query_position,
                       "Query position m for sinusoidal (default N-1, so keys sit at 0..N-1)")
        ->check(in_range(0, static_cast<double>(kMaxCorePosition)));
    scores->add_option("--q", score_opts.q, "Query: ones | random:SEED | v0,v1,... | @FILE")
        ->capture_default_str();
    scores->add_option("--k", score_opts.k, "Key: ones | random:SEED | v0,v1,... | @FILE")
        ->capture_default_str();
    scores->add_option("--samples", score_opts.samples,
                       "Mean over S random vectors with k = q: the expected decay (replaces --q/--k)")
        ->check(in_range(1, 100000));
    scores->add_option("--seed", score_opts.seed, "First seed for --samples")->capture_default_str();
    scores->add_option("--angle-mode", score_opts.angle_mode,
                       "exact, or the teaching modes naive-fp32 and bf16")
        ->check(CLI::IsMember({"exact", "naive-fp32", "bf16"}))
        ->capture_default_str();
    add_device_options(scores, score_opts.device);
    scores->callback([&] { action = [&] { run_scores(model, score_opts); }; });

    InvarianceOptions inv_opts;
    auto* invariance = app.add_subcommand(
        "invariance", "Score at a fixed distance for query positions A..B-1");
    add_model_options(invariance, model);
    invariance->add_option("--distance", inv_opts.distance, "Distance Δ = m - n")
        ->required()
        ->check(in_range(0, static_cast<double>(kMaxCorePosition)));
    invariance->add_option("--positions", inv_opts.positions, "Query positions A:B")->required();
    invariance->add_option("--encoding", inv_opts.encoding, "rope or sinusoidal (additive)")
        ->check(CLI::IsMember({"rope", "sinusoidal"}))
        ->capture_default_str();
    invariance->add_option("--q", inv_opts.q, "Query vector")->capture_default_str();
    invariance->add_option("--k", inv_opts.k, "Key vector")->capture_default_str();
    invariance->callback([&] { action = [&] { run_invariance(model, inv_opts); }; });

    BoundOptions bound_opts;
    auto* bound = app.add_subcommand("decay-bound", "RoFormer's decay shape B(Δ) = Σ|S_j|/(d/2); (d/2)·max|c_{j−1} − c_j|·B(Δ) bounds |score − pass| (export-data --view scores writes both)");
    add_model_options(bound, model);
    bound->add_option("--max-distance", bound_opts.max_distance, "Number of distances N")
        ->check(in_range(1, static_cast<double>(kMaxDistances)))
        ->capture_default_str();
    add_device_options(bound, bound_opts.device);
    bound->callback([&] { action = [&] { run_decay_bound(model, bound_opts); }; });

    app.add_subcommand("fields", "List the lab's fields: session path, flag, lesson name and valid range")->callback([&] {
        action = [] { run_fields(); };
    });
    app.add_subcommand("presets", "List the built-in model presets")->callback([&] {
        action = [] { run_presets(); };
    });

    RenderOptions render_opts;
    auto* render = app.add_subcommand("render", "Render views headless to PNG, GIF, MP4 or a PNG sequence");
    add_render_options(render, render_opts);
    ExportDataOptions data_opts;
    auto* export_data = app.add_subcommand("export-data", "Write a view's series as CSV or JSON");
    add_export_data_options(export_data, data_opts);

    GuiOptions gui_opts;
    int gui_status = 0;
    render->callback([&] { action = [&] { gui_status = run_render(render_opts); }; });
    export_data->callback([&] { action = [&] { gui_status = run_export_data(data_opts); }; });
    auto* gui = app.add_subcommand("gui", "Open the interactive lab (the default without a subcommand)");
    add_gui_options(gui, gui_opts);
    // Plain `ropelab --lesson builtin --present` opens the lab too.
    app.add_option("--lesson", gui_opts.lesson, "Open a lesson in the lab: FILE.json or builtin");
    app.add_flag("--present", gui_opts.present, "With --lesson: presenter mode");
    app.add_option("--monitor", gui_opts.monitor, "Monitor for presenting (0: primary)")->check(in_range(0, 16));
    gui->callback([&] { action = [&] { gui_status = run_gui(gui_opts); }; });

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "ropelab: error: %s\nRun `ropelab --help` for usage.\n", e.what());
        return 2;
    }

    if (!action) action = [&] { gui_status = run_gui(gui_opts); };  // plain `ropelab` opens the lab
    remove_partials_on_signal();  // Ctrl-C or SIGTERM at any point leaves no file of this run behind
    try {
        action();
    } catch (const InputError& e) {
        std::fprintf(stderr, "ropelab: error: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ropelab: internal error: %s\n", e.what());
        return 1;
    }
    return gui_status;
}

}  // namespace ropelab
