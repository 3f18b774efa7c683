#include "gui_command.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <random>
#include <cmath>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/number_text.h"
#include "core/input_file.h"
#include "gpu/compute_device.h"
#include "gpu/gl_context.h"
#include "output_table.h"
#include "views/lab_view.h"
#include "core/presets.h"
#include "export_job.h"
#include "platform.h"
#include "lesson/lesson.h"
#include "script.h"
#include "ui/widgets.h"
#include "window.h"

namespace ropelab {

namespace {

LabParams initial_params(const GuiOptions& o, float content_scale, const Session* session) {
    LabParams p = lab_params_from(o.lab, content_scale, session);
    if (o.view > 0) p.focused_view = o.view - 1;
    if (o.paused) p.playing = false;
    if (o.fullscreen) p.fullscreen = true;
    if (o.help) p.show_help = true;
    return p;
}

double mean(const std::vector<double>& v) {
    return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

// Frame times of a --frames run. The first frame counts from the window's opening (the lab's
// first computation included); exact_ms is when the last exact curve was shown (-1: never).
struct FrameStats {
    std::vector<double> ms, build_ms, render_ms;
    double first_frame_ms = 0.0, exact_ms = -1.0;
    int exact_frame = -1;
    int worst_frame = 0;  // the index of the slowest frame (0: the first)
};

void print_stats(FrameStats st, const std::string& device) {
    std::vector<double>& ms = st.ms;
    if (ms.empty()) return;
    st.worst_frame = static_cast<int>(std::max_element(ms.begin(), ms.end()) - ms.begin());
    std::sort(ms.begin(), ms.end());
    const double p95 = ms[std::min(ms.size() - 1, static_cast<std::size_t>(0.95 * static_cast<double>(ms.size())))];
    std::printf("{\"frames\": %zu, \"mean_ms\": %s, \"p95_ms\": %s, \"max_ms\": %s, \"worst_frame\": %d, \"first_frame_ms\": %s, "
                "\"exact_frame\": %d, \"exact_ms\": %s, \"build_ms\": %s, \"render_ms\": %s, \"gl_errors\": %d, "
                "\"device\": %s}\n",
                ms.size(), exact_number(mean(ms)).c_str(), exact_number(p95).c_str(), exact_number(ms.back()).c_str(),
                st.worst_frame, exact_number(st.first_frame_ms).c_str(), st.exact_frame, exact_number(st.exact_ms).c_str(),
                exact_number(mean(st.build_ms)).c_str(), exact_number(mean(st.render_ms)).c_str(), gpu::gl_error_count(),
                json_string(device).c_str());
}

// The soak's first frames visit every size, view, preset, angle mode and encoding once, so that
// every buffer and cache has reached its largest before memory is measured: what grows after
// that is a leak.
constexpr int kTourSizes = 21;  // N = 2^4 .. 2^24
int soak_tour_length() { return kTourSizes + static_cast<int>(presets().size()) + 9; }

// Through the lab's one writer, like every other change.
void soak_tour_step(Lab& lab, int k) {
    LabParams p = lab.params();
    lab::Status& s = lab.status();
    p.focused_view = k % (kViewCount + 1) - 1;
    if (k < kTourSizes) {
        p.max_distance = std::int64_t{1} << (4 + k);
    } else if (k - kTourSizes < static_cast<int>(presets().size())) {
        lab::select_preset(p, s, presets()[static_cast<std::size_t>(k - kTourSizes)].note.name);
    } else {
        k -= kTourSizes + static_cast<int>(presets().size());
        p.angle_mode = static_cast<AngleMode>(k % 3);
        p.encoding = static_cast<Encoding>(k / 3);
    }
    lab.apply(p);
}

// One random change through the controls, as a restless user would make it.
void soak_step(Lab& lab, std::mt19937_64& rng) {
    LabParams p = lab.params();
    lab::Status& s = lab.status();
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
    switch (pick(12)) {
        case 0: {
            const auto all = presets();
            lab::select_preset(p, s, all[static_cast<std::size_t>(pick(static_cast<int>(all.size())))].note.name);
            break;
        }
        case 1: lab::apply_sweep(p, s, lab::Sweep::Theta, std::pow(10.0, 0.1 + 8.9 * (rng() % 1000) / 1000.0)); break;
        case 2: lab::apply_sweep(p, s, lab::Sweep::Factor, std::pow(10.0, 3.0 * (rng() % 1000) / 1000.0)); break;
        case 3: lab::apply_sweep(p, s, lab::Sweep::Position, static_cast<double>(rng() % static_cast<std::uint64_t>(kMaxPosition + 1))); break;
        case 4: p.focused_view = pick(kViewCount + 1) - 1; break;
        case 5: p.encoding = static_cast<Encoding>(pick(3)); break;
        case 6: p.vectors = static_cast<VectorChoice>(pick(4)); break;
        case 7: p.max_distance = std::int64_t{1} << (4 + pick(pick(8) == 0 ? 21 : 17)); break;  // now and then up to 2^24
        case 8: p.angle_mode = static_cast<AngleMode>(pick(3)); break;
        case 9: {
            ModelConfig m = p.model;
            m.layout = m.layout == PairLayout::Half ? PairLayout::Interleaved : PairLayout::Half;
            m.head_dim = 2 * (1 + pick(256));  // up to 512, sometimes refused with partial rotary
            lab::try_set_model(p, s, m);
            break;
        }
        case 10: p.log_distance = !p.log_distance; break;
        case 11: p.focused_pair = pick(512); break;  // refused past the model's pairs
    }
    lab.apply(p);
}

// Memory over a soak, sampled ~90 times after warm-up, each time in the same reference state
// (the starting parameters, drawn for one frame): what a 2^24-distance curve legitimately holds
// while it is shown must not read as growth. Growth compares medians of the first and the last
// third of the samples. Resident memory is what the system sees; the live heap (sanitizer
// builds) is what the program holds.
class MemoryWatch {
public:
    MemoryWatch(int frames, int warm_frame) : warm_frame_(warm_frame), every_(std::max(1, (frames - warm_frame) / 90)) {}
    bool due(int frame) const { return frame >= warm_frame_ && (frame - warm_frame_) % every_ == 0; }
    void sample() {
        resident_.push_back(platform::resident_kib());
        heap_.push_back(platform::live_heap_kib());
    }
    const std::vector<long>& resident() const { return resident_; }
    const std::vector<long>& heap() const { return heap_; }
    static long early(const std::vector<long>& v) { return median(v, 0, v.size() / 3); }
    static long late(const std::vector<long>& v) { return median(v, v.size() - v.size() / 3, v.size()); }
    static double growth_percent(const std::vector<long>& v) {
        return early(v) > 0 ? 100.0 * static_cast<double>(late(v) - early(v)) / static_cast<double>(early(v)) : 0.0;
    }

private:
    static long median(const std::vector<long>& v, std::size_t from, std::size_t to) {
        if (from >= to) return 0;
        std::vector<long> part(v.begin() + static_cast<std::ptrdiff_t>(from), v.begin() + static_cast<std::ptrdiff_t>(to));
        std::nth_element(part.begin(), part.begin() + static_cast<std::ptrdiff_t>(part.size() / 2), part.end());
        return part[part.size() / 2];
    }
    int warm_frame_, every_;
    std::vector<long> resident_, heap_;
};

// Non-finite numbers must never reach the screen: checks what the views draw from.
bool all_finite(const Lab& lab) {
    const LabData& d = lab.compute().data();
    for (const auto* series : {&d.invariance_rope, &d.invariance_sinusoidal, &d.naive_error, &d.bf16_error}) {
        for (double v : *series) {
            if (!std::isfinite(v)) return false;
        }
    }
    for (double f : d.freqs.inv_freq) {
        if (!std::isfinite(f) || f <= 0) return false;
    }
    return true;
}

}  // namespace

void add_gui_options(CLI::App* cmd, GuiOptions& o) {
    add_lab_options(cmd, o.lab);
    cmd->add_option("--frames", o.frames, "Run this many frames (vsync off, fixed 1/60 s steps) and exit")
        ->check(in_range(1, 1e7));
    cmd->add_flag("--stats", o.stats, "With --frames: print frame times as JSON");
    cmd->add_option("--screenshot", o.screenshot, "With --frames: save the last frame as this PNG (the first frame only announces the computation: use --frames 2 or more)");
    cmd->add_option("--size", o.size, "Window size WxH")->capture_default_str();
    cmd->add_option("--view", o.view, "0: all views; 1-8: one view large")->check(in_range(0, 8));
    cmd->add_flag("--paused", o.paused, "Start with playback paused");
    cmd->add_flag("--fullscreen", o.fullscreen, "Start fullscreen");
    cmd->add_flag("--help-overlay", o.help, "Start with the shortcut overlay (F1) open");
    cmd->add_flag("--churn", o.churn, "Change θ every frame (frame-time measurement)");
    cmd->add_option("--lesson", o.lesson, "Open a lesson: FILE.json or builtin");
    cmd->add_flag("--present", o.present, "With --lesson: presenter mode (fullscreen, large text, arrows step scenes)");
    cmd->add_option("--soak", o.soak, "Soak test: a seeded random parameter and view change every frame");
    cmd->add_option("--script", o.script,
                    "Drive the real window with a JSON array of steps (click, drag, type, key, wait, screenshot, "
                    "state, widgets), then exit; see the README");
    cmd->add_option("--monitor", o.monitor, "Monitor for fullscreen and presenting (0: primary, 1, 2, …)")
        ->check(in_range(0, 16));
}

int run_gui(const GuiOptions& o) {
    const auto [width, height] = parse_size(o.size);
    if (width < 64 || height < 64) throw InputError("--size: the window needs at least 64x64");
    if (!o.screenshot.empty()) {
        if (const std::string problem = file_target_problem(o.screenshot); !problem.empty()) {
            throw InputError("--screenshot " + o.screenshot + ": " + problem);
        }
    }
    const std::optional<Session> session = load_session_option(o.lab.session);
    const Session* from = session ? &*session : nullptr;
    GuiOptions check = o;
    check.lab.model.quiet = true;  // the notes are said once, below
    initial_params(check, 1.0f, from);  // bad options fail before a window opens
    std::optional<Lesson> lesson;
    if (!o.lesson.empty()) lesson = load_lesson(o.lesson);
    for (const std::string& w : lesson ? lesson->warnings : std::vector<std::string>{}) std::fprintf(stderr, "ropelab: warning: %s\n", w.c_str());
    if (o.present && !lesson) throw InputError("--present: needs --lesson FILE|builtin");
    std::optional<Script> script;
    if (!o.script.empty()) script = Script::load(o.script);  // a malformed script fails before a window opens
    WindowOptions window_options;
    window_options.width = width;
    window_options.height = height;
    window_options.vsync = o.frames == 0 && !script;
    window_options.monitor = o.monitor;
    std::string why;
    auto window = Window::open(window_options, why);
    if (!window) {
        std::fprintf(stderr, "ropelab: cannot open a window: %s\n"
                             "The command line works without a display: ropelab --help\n", why.c_str());
        return 1;
    }
    std::string notice;
    auto device = gpu::ComputeDevice::open(gpu::DeviceRequest::Auto, false, notice);
    if (!notice.empty()) std::fprintf(stderr, "ropelab: notice: %s\n", notice.c_str());

    const auto opened = std::chrono::steady_clock::now();
    Lab lab(*device, initial_params(o, window->content_scale(), from));
    views::LabView view(lab);
    if (session) lab.open_session(Session{lab.params(), session->plots}, o.lab.session.size() > 60 ? "the share string" : o.lab.session);
    if (!o.lab.model.config_path.empty()) {  // the panel shows the file, its layer types and what was read
        ModelOptions quiet = o.lab.model;
        quiet.quiet = true;
        const LoadedConfig loaded = resolve_loaded(quiet);
        lab::Status& s = lab.status();
        s.config_path = o.lab.model.config_path;
        s.layer_types = loaded.layer_types;
        s.what_was_read = explain_lines(loaded);
        s.notice = "loaded " + s.config_path;
        for (const std::string& note : loaded.notes) s.notice += "\n" + note;
    }
    if (lesson) lab.open_lesson(std::move(*lesson), o.present);
    if (o.frames && !script) window->park_pointer();  // fixed runs: no stray hover from wherever the pointer is
    FrameStats stats;
    std::optional<std::mt19937_64> soak_rng;
    if (o.soak) soak_rng.emplace(*o.soak);
    // Warm-up: the tour has shown every size, view and preset; caches have filled.
    MemoryWatch memory(o.frames, std::max(soak_tour_length() + 50, std::min(2000, o.frames / 4)));
    const LabParams soak_reference = lab.params();
    int non_finite_frames = 0;
    std::string capture_error;
    auto last = std::chrono::steady_clock::now();
    ExportPanelRunner exports;
    for (int frame = 0; o.frames == 0 || frame < o.frames; ++frame) {
        exports.step(lab);
        if (window->should_close()) break;
        const auto start = std::chrono::steady_clock::now();
        const bool fixed_steps = o.frames || script;
        const double seconds = fixed_steps ? 1.0 / 60.0 : std::chrono::duration<double>(start - last).count();
        last = start;
        if (soak_rng) {
            if (frame < soak_tour_length()) {
                // Exact curves at every size the tour visits (2^24 included), so the series'
                // front and back buffers are at their largest before memory is first sampled.
                lab.set_pace(frame + 1 < soak_tour_length() ? Pace::AllAtOnce : Pace::Interactive);
                soak_tour_step(lab, frame);
            } else if (memory.due(frame)) {
                lab.apply(soak_reference);
            } else {
                soak_step(lab, *soak_rng);
            }
            if (!all_finite(lab)) ++non_finite_frames;
        }
        if (o.churn) {  // a parameter change every frame, through the controls' validated path
            LabParams p = lab.params();
            p.model.rope_theta = 10000.0 * (1.0 + 0.01 * (frame % 50));
            lab.apply(p);
        }
        if (script && !script->before_frame(*window)) {
            std::fprintf(stderr, "ropelab: error: %s\n", script->error().c_str());
            return 2;
        }
        const bool last_frame = (o.frames && frame == o.frames - 1) || (script && script->done());
        const std::string capture = script && !script->capture_path().empty() ? script->capture_path()
                                    : last_frame                              ? o.screenshot
                                                                              : "";
        const bool drawn = window->frame(
            lab.params(), [&](const lab::Input& input) { view.frame(seconds, input); }, capture, &capture_error);
        if (script && !script->after_frame(lab)) {
            std::fprintf(stderr, "ropelab: error: %s\n", script->error().c_str());
            return 2;
        }
        if (soak_rng && memory.due(frame)) memory.sample();
        if (drawn) {
            const auto now = std::chrono::steady_clock::now();
            const bool first = stats.ms.empty();
            stats.ms.push_back(std::chrono::duration<double, std::milli>(now - (first ? opened : start)).count());
            if (first) stats.first_frame_ms = stats.ms.back();
            stats.build_ms.push_back(window->last_build_ms());
            stats.render_ms.push_back(window->last_render_ms());
            const bool exact = !lab.compute().progress();
            if (exact && stats.exact_frame < 0) {
                stats.exact_frame = frame;
                stats.exact_ms = std::chrono::duration<double, std::milli>(now - opened).count();
            } else if (!exact) {
                stats.exact_frame = -1;  // a later change started another exact pass
                stats.exact_ms = -1.0;
            }
        }
        if (script && script->done()) break;
    }
    // Two widgets sharing one ImGui ID make one of them dead: named, and fatal to scripted runs.
    for (const std::string& clash : ui::log().duplicates()) std::fprintf(stderr, "ropelab: error: duplicate %s\n", clash.c_str());
    if (!ui::log().duplicates().empty() && (script || o.frames)) return 3;
    if (o.stats) print_stats(stats, device->name());
    if (soak_rng) {
        const auto& rss = memory.resident();
        const auto& heap = memory.heap();
        std::printf("{\"soak_frames\": %zu, \"non_finite_frames\": %d, \"gl_errors\": %d, "
                    "\"rss_early_kib\": %ld, \"rss_late_kib\": %ld, \"rss_growth_percent\": %s, "
                    "\"heap_early_kib\": %ld, \"heap_late_kib\": %ld, \"heap_growth_percent\": %s, "
                    "\"rss_samples_kib\": [%s], \"heap_samples_kib\": [%s]}\n",
                    stats.ms.size(), non_finite_frames, gpu::gl_error_count(), MemoryWatch::early(rss),
                    MemoryWatch::late(rss), exact_number(MemoryWatch::growth_percent(rss)).c_str(), MemoryWatch::early(heap),
                    MemoryWatch::late(heap), exact_number(MemoryWatch::growth_percent(heap)).c_str(),
                    fmt::format("{}", fmt::join(rss, ", ")).c_str(), fmt::format("{}", fmt::join(heap, ", ")).c_str());
    }
    if (!capture_error.empty()) {
        std::fprintf(stderr, "ropelab: error: %s\n", capture_error.c_str());
        return 2;
    }
    return 0;
}

}  // namespace ropelab
