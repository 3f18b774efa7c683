#include "gui_command.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <numeric>
#include <cmath>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <imgui.h>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/number_text.h"
#include "core/input_file.h"
#include "gpu/gl_device.h"
#include "gpu/gl_context.h"
#include "gpu/program.h"
#include "lab/actions.h"
#include "output_table.h"
#include "views/lab_view.h"
#include "core/presets.h"
#include "audience.h"
#include "export_job.h"
#include "idle_pacer.h"
#include "platform.h"
#include "lesson/lesson.h"
#include "script.h"
#include "soak.h"
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
    // Per frame, where its time went: the lab's products (Lab::frame_costs), the views' drawing
    // (the build less the lab's update) and the GL rendering.
    std::vector<lab::FrameCosts> costs;
    double first_frame_ms = 0.0, exact_ms = -1.0;
    double attention_ms = -1.0;  // from opening until the attention view's matrix was whole
    // Bytes copied from GPU buffers to host memory: in all, and in the frame that copied most.
    std::uint64_t host_bytes_at_open = gpu::bytes_copied_to_host(), host_bytes_before = host_bytes_at_open;
    std::uint64_t host_bytes_max_frame = 0;
    int exact_frame = -1;
    int worst_frame = 0;  // the index of the slowest frame (0: the first)
};

void print_stats(FrameStats st, const std::string& device) {
    std::vector<double>& ms = st.ms;
    if (ms.empty()) return;
    std::string each;  // every frame's time in order, for tests that check frames after start-up
    for (double v : ms) each += (each.empty() ? "" : ", ") + exact_number(v);
    st.worst_frame = static_cast<int>(std::max_element(ms.begin(), ms.end()) - ms.begin());
    // Each frame's costliest part, and the worst frame's parts: what to move off the frame.
    std::string products, worst_parts;
    for (const lab::FrameCosts& c : st.costs) {
        const lab::FrameCosts::Part* most = c.largest();
        products += (products.empty() ? "" : ", ") + json_string(most ? most->product : "");
    }
    if (static_cast<std::size_t>(st.worst_frame) < st.costs.size()) {
        for (const lab::FrameCosts::Part& part : st.costs[static_cast<std::size_t>(st.worst_frame)].parts) {
            worst_parts += (worst_parts.empty() ? "" : ", ") + json_string(part.product) + ": " + exact_number(part.ms);
        }
    }
    std::sort(ms.begin(), ms.end());
    const double p95 = ms[std::min(ms.size() - 1, static_cast<std::size_t>(0.95 * static_cast<double>(ms.size())))];
    std::printf("{\"frames\": %zu, \"mean_ms\": %s, \"p95_ms\": %s, \"max_ms\": %s, \"worst_frame\": %d, \"first_frame_ms\": %s, "
                "\"exact_frame\": %d, \"exact_ms\": %s, \"build_ms\": %s, \"render_ms\": %s, \"gl_errors\": %d, "
                "\"device\": %s, \"attention_ms\": %s, \"host_bytes\": %llu, \"host_bytes_max_frame\": %llu, "
                "\"worst_frame_parts\": {%s}, \"frame_ms\": [%s], \"frame_product\": [%s]}\n",
                ms.size(), exact_number(mean(ms)).c_str(), exact_number(p95).c_str(), exact_number(ms.back()).c_str(),
                st.worst_frame, exact_number(st.first_frame_ms).c_str(), st.exact_frame, exact_number(st.exact_ms).c_str(),
                exact_number(mean(st.build_ms)).c_str(), exact_number(mean(st.render_ms)).c_str(), gpu::gl_error_count(),
                json_string(device).c_str(), exact_number(st.attention_ms).c_str(),
                static_cast<unsigned long long>(gpu::bytes_copied_to_host() - st.host_bytes_at_open),
                static_cast<unsigned long long>(st.host_bytes_max_frame), worst_parts.c_str(), each.c_str(), products.c_str());
}

using Clock = std::chrono::steady_clock;

// What a run reads before its window opens, so that bad options, lessons and scripts fail first.
struct GuiInputs {
    int width = 0, height = 0;
    std::optional<Session> session;
    std::optional<Lesson> lesson;
    std::optional<Script> script;
    const Session* from() const { return session ? &*session : nullptr; }
};

// The positional FILE as --session, --lesson or --config, by its content (lab::file_kind): a file
// manager hands over whatever the user double-clicked.
GuiOptions with_file_opened(GuiOptions o) {
    if (o.file.empty()) return o;
    if (!o.lab.session.empty() || !o.lesson.empty()) {
        throw InputError(o.file + ": give a file to open, or --session/--lesson, not both");
    }
    // `ropelab scorse` is more likely a mistyped subcommand than a missing file: say both.
    std::error_code ec;
    if (!std::filesystem::exists(o.file, ec)) {
        throw InputError(o.file + ": no such file to open, and not a subcommand (see `ropelab --help`)");
    }
    switch (lab::file_kind(o.file)) {
        case lab::FileKind::Session: o.lab.session = o.file; break;
        case lab::FileKind::Lesson: o.lesson = o.file; break;
        case lab::FileKind::Config:
            if (!o.lab.model.preset.empty() || !o.lab.model.config_path.empty()) {
                throw InputError(o.file + ": a model config; give it or --preset/--config, not both");
            }
            o.lab.model.config_path = o.file;
            break;
    }
    return o;
}

GuiInputs read_inputs(const GuiOptions& o) {
    GuiInputs in;
    std::tie(in.width, in.height) = parse_size(o.size);
    if (in.width < 64 || in.height < 64) throw InputError("--size: the window needs at least 64x64");
    if (!o.screenshot.empty()) {
        if (const std::string problem = export_target_problem(o.screenshot); !problem.empty()) {
            throw InputError("--screenshot " + o.screenshot + ": " + problem);
        }
    }
    in.session = load_session_option(o.lab.session);
    GuiOptions check = o;
    check.lab.model.quiet = true;  // the notes are said once, when the lab opens
    initial_params(check, 1.0f, in.from());
    if (!o.lesson.empty()) in.lesson = load_lesson(o.lesson);
    for (const std::string& w : in.lesson ? in.lesson->warnings : std::vector<std::string>{}) std::fprintf(stderr, "ropelab: warning: %s\n", w.c_str());
    if (o.present && !in.lesson) throw InputError("--present: needs --lesson FILE|NAME (`ropelab lessons` lists the names)");
    if (o.presenter && !in.lesson) throw InputError("--presenter: needs --lesson FILE|NAME (the lesson to present with notes)");
    if (!o.script.empty()) in.script = Script::load(o.script);
    return in;
}

std::unique_ptr<Window> open_window(const GuiOptions& o, const GuiInputs& in) {
    WindowOptions window_options;
    window_options.width = in.width;
    window_options.height = in.height;
    window_options.vsync = o.frames == 0 && !in.script;
    window_options.monitor = o.monitor;
    // A double-clicked file names the window, as desktop apps do: "ropelab — lecture.ropelab".
    if (!o.file.empty()) window_options.title = "ropelab — " + std::filesystem::path(o.file).filename().string();
    std::string why;
    auto window = Window::open(window_options, why);
    if (!window) {
        std::fprintf(stderr, "ropelab: cannot open a window: %s\n"
                             "The command line works without a display: ropelab --help\n", why.c_str());
    }
    return window;
}

// The session, the config file and the lesson the options named, opened in the lab.
void open_inputs(views::LabView& view, const GuiOptions& o, GuiInputs& in) {
    const Lab& lab = view.lab();
    if (in.session) {
        view.send(lab::cmd::OpenReadSession{.session = Session{lab.params(), in.session->plots},
                                            .source = o.lab.session.size() > 60 ? "the share string" : o.lab.session});
    }
    if (!o.lab.model.config_path.empty()) {  // the panel shows the file, its layer types and what was read
        ModelOptions quiet = o.lab.model;
        quiet.quiet = true;
        view.send(lab::cmd::ShowLoadedConfig{.path = o.lab.model.config_path, .loaded = resolve_loaded(quiet)});
    } else if (!o.lab.model.preset.empty()) {  // a preset's layers (Llama 4, Gemma 3) in the picker
        view.send(lab::cmd::ShowPresetLayers{o.lab.model.preset});
    }
    if (in.lesson) {  // --theme, if given, is the user's choice for presenting, over the lesson's own
        const std::optional<Theme> theme = o.lab.fields.contains("layout.theme") ? std::optional(lab.params().theme) : std::nullopt;
        view.send(lab::cmd::OpenReadLesson{.lesson = std::move(*in.lesson), .present = o.present || o.presenter,
                                           .source = o.lesson, .chosen_theme = theme});
    }
    if (o.presenter) view.send(lab::cmd::PresentWithNotes{});
}

// A drawn frame's times. The first counts from the window's opening (the lab's first computation
// included).
void record_frame(FrameStats& stats, const Window& window, const Lab& lab, int frame, Clock::time_point opened,
                  Clock::time_point start) {
    const auto now = Clock::now();
    const bool first = stats.ms.empty();
    stats.ms.push_back(std::chrono::duration<double, std::milli>(now - (first ? opened : start)).count());
    if (first) stats.first_frame_ms = stats.ms.back();
    stats.build_ms.push_back(window.last_build_ms());
    stats.render_ms.push_back(window.last_render_ms());
    lab::FrameCosts costs = lab.frame_costs();
    costs.add("drawing the views", std::max(0.0, window.last_build_ms() - costs.total_ms()));
    costs.add("rendering", window.last_render_ms());
    stats.costs.push_back(std::move(costs));
    const std::uint64_t host_bytes = gpu::bytes_copied_to_host();
    stats.host_bytes_max_frame = std::max(stats.host_bytes_max_frame, host_bytes - stats.host_bytes_before);
    stats.host_bytes_before = host_bytes;
    if (stats.attention_ms < 0 && lab.attention().current()) {
        stats.attention_ms = std::chrono::duration<double, std::milli>(now - opened).count();
    }
    const bool exact = !lab.compute().progress();
    if (exact && stats.exact_frame < 0) {
        stats.exact_frame = frame;
        stats.exact_ms = std::chrono::duration<double, std::milli>(now - opened).count();
    } else if (!exact) {
        stats.exact_frame = -1;  // a later change started another exact pass
        stats.exact_ms = -1.0;
    }
}

int script_failed(const Script& script) {
    std::fprintf(stderr, "ropelab: error: %s\n", script.error().c_str());
    return 2;
}

// What one run's frames share.
struct GuiRun {
    const GuiOptions& o;
    Window& window;
    const Lab& lab;  // read; changed only through the view's commands
    views::LabView& view;
    std::optional<Script>& script;
    std::optional<Soak>& soak;
    ExportPanelRunner& exports;
    Clock::time_point opened;
    FrameStats stats = {};
    std::string capture_error = {};
    std::unique_ptr<Presentation> presentation = {};
    LabParams lecturer_look = {};  // the lab's look before presenting: the lecturer window keeps it
    int audience_asked = 0;        // the lab's Present with notes requests already seen
};

// Presenting with notes begins when asked (--presenter, the panel's button) and ends when the
// lab stops presenting (Esc) or the audience window closes; the lecturer window then shows the
// lab again, the lesson still open.
void follow_presentation(GuiRun& run) {
    if (!run.presentation) {
        const bool wanted = std::exchange(run.audience_asked, run.lab.status().audience_asked) != run.lab.status().audience_asked;
        if (!run.lab.params().presenting) run.lecturer_look = run.lab.params();
        if (!wanted || !run.lab.params().presenting || !run.lab.has_lesson()) return;
        const auto [width, height] = run.window.framebuffer_size();
        std::string why;
        run.presentation = Presentation::open(run.window, width, height, run.o.monitor, why);
        if (!run.presentation) run.view.send(lab::cmd::Refuse{.control = "presenting with notes", .why = why});
        return;
    }
    if (run.presentation->closed() || !run.lab.params().presenting || !run.lab.has_lesson()) {
        run.presentation.reset();
        if (run.lab.params().presenting) run.view.send(lab::cmd::Present{false});
    }
}

// While presenting with notes the lecturer's window keeps the lab's own look (not the
// projector's large text and fullscreen).
LabParams window_look(const GuiRun& run) {
    if (!run.presentation) return run.lab.params();
    LabParams p = run.lab.params();
    p.presenting = false;
    p.blank = false;
    p.ui_scale = run.lecturer_look.ui_scale;
    p.theme = run.lecturer_look.theme;
    p.fullscreen = run.lecturer_look.fullscreen;
    return p;
}

// Work that advances from frame to frame: the window draws at full rate while it goes on.
bool lab_is_working(const GuiRun& run) {
    const LabParams& p = run.lab.params();
    const LabCompute& compute = run.lab.compute();
    return p.playing || p.presenting || run.presentation || compute.progress() || !compute.averaging().empty() ||
           run.lab.status().export_status.running || run.window.input_queued();
}

// The frames, until the window closes, the frames run out or the script is done. Returns an exit
// status when the script failed, nothing otherwise.
std::optional<int> run_frames(GuiRun& run) {
    const GuiOptions& o = run.o;
    std::optional<Script>& script = run.script;
    // Fixed frames (--frames, --script, the soak, --churn) are drawn back to back; a person's
    // window sleeps while nothing moves.
    const bool paced = o.frames == 0 && !script && !run.soak && !o.churn;
    IdlePacer pacer(run.window.refresh_rate());
    const auto seconds_since_open = [&run] { return std::chrono::duration<double>(Clock::now() - run.opened).count(); };
    auto last = Clock::now();
    for (int frame = 0; o.frames == 0 || frame < o.frames; ++frame) {
        if (paced) {
            if (const double wait = pacer.wait_before_next(seconds_since_open()); wait > 0.0) run.window.wait_for_input(wait);
        }
        const double frame_started = seconds_since_open();
        run.exports.step(run.view);
        if (run.window.should_close() || run.view.quit_requested()) break;  // the window's close box, or File › Quit
        const auto start = Clock::now();
        const bool fixed_steps = o.frames || script;
        const double seconds = fixed_steps ? 1.0 / 60.0 : std::chrono::duration<double>(start - last).count();
        last = start;
        if (run.soak) run.soak->before_frame(run.view, frame);
        if (o.churn) {  // a parameter change every frame, through the controls' door
            LabParams p = run.lab.params();
            p.model.rope_theta = 10000.0 * (1.0 + 0.01 * (frame % 50));
            run.view.send(lab::cmd::SetState{.state = p, .control = "", .notice = ""});
        }
        follow_presentation(run);
        if (script) script->set_audience(run.presentation ? run.presentation->audience_window() : nullptr);
        if (script && !script->before_frame(run.window)) return script_failed(*script);
        const bool last_frame = (o.frames && frame == o.frames - 1) || (script && script->done());
        const bool audience_shot = script && script->capture_audience();
        const std::string capture = script && !script->capture_path().empty() ? (audience_shot ? "" : script->capture_path())
                                    : last_frame                              ? o.screenshot
                                                                              : "";
        const auto build = [&](const lab::Input& input) {
            if (run.presentation) {
                run.presentation->frame(run.view, seconds, input);
            } else {
                run.view.frame(seconds, input);
            }
        };
        const bool drawn = run.window.frame(window_look(run), build, capture, &run.capture_error);
        if (audience_shot && !script->capture_path().empty()) {
            std::string error;
            if (!run.presentation) {
                run.capture_error = script->capture_path() + ": no audience window (gui --presenter --lesson …)";
            } else if (!run.presentation->save_png(script->capture_path(), error)) {
                run.capture_error = error;
            }
        }
        if (run.presentation) run.presentation->present();
        if (script && !script->after_frame(run.lab)) return script_failed(*script);
        if (run.soak) run.soak->after_frame(frame);
        if (drawn) record_frame(run.stats, run.window, run.lab, frame, run.opened, start);
        if (paced) {
            pacer.after_frame({.started = frame_started,
                               .input_events = run.window.input_events(),
                               .busy = !drawn || lab_is_working(run),
                               .picture = draw_fingerprint(ImGui::GetDrawData())});
        }
        if (script && script->done()) break;
    }
    return std::nullopt;
}

// After the frames: duplicate widget IDs, the statistics asked for, and the exit status.
int finish(const GuiRun& run, const std::string& device) {
    // Two widgets sharing one ImGui ID make one of them dead: named, and fatal to scripted runs.
    for (const std::string& clash : ui::log().duplicates()) std::fprintf(stderr, "ropelab: error: duplicate %s\n", clash.c_str());
    if (!ui::log().duplicates().empty() && (run.script || run.o.frames)) return 3;
    if (run.o.stats) print_stats(run.stats, device);
    if (run.soak) run.soak->print(run.stats.ms.size());
    if (!run.capture_error.empty()) {
        std::fprintf(stderr, "ropelab: error: %s\n", run.capture_error.c_str());
        return 2;
    }
    return 0;
}

}  // namespace

void add_gui_options(CLI::App* cmd, GuiOptions& o) {
    add_lab_options(cmd, o.lab);
    add_file_argument(cmd, o);
    cmd->add_option("--frames", o.frames, "Run this many frames (vsync off, fixed 1/60 s steps) and exit")
        ->transform(in_range(1, 1e7));
    cmd->add_flag("--stats", o.stats, "With --frames: print frame times as JSON");
    cmd->add_option("--screenshot", o.screenshot, "With --frames: save the last frame as this PNG (the first frame only announces the computation: use --frames 2 or more)")->check(non_empty());
    cmd->add_option("--size", o.size, "Window size WxH")->capture_default_str();
    cmd->add_option("--view", o.view, "all or 0: all views; a view's name or number 1-12: that view large")->transform(view_option_number());
    cmd->add_flag("--paused", o.paused, "Start with playback paused");
    cmd->add_flag("--fullscreen", o.fullscreen, "Start fullscreen");
    cmd->add_flag("--help-overlay", o.help, "Start with the shortcut overlay (F1) open");
    cmd->add_flag("--churn", o.churn, "Change θ every frame (frame-time measurement)");
    cmd->add_option("--lesson", o.lesson, "Open a lesson: FILE.json or a built-in lesson's NAME (ropelab lessons)")->check(non_empty());
    cmd->add_flag("--present", o.present, "With --lesson: presenter mode (fullscreen, large text, arrows step scenes)");
    cmd->add_flag("--presenter", o.presenter,
                  "With --lesson: present with notes. The lesson shows in an audience window (fullscreen on --monitor "
                  "when there are several monitors, else beside this one, on the screen); this window is the lecturer's: "
                  "the audience's picture, speaker notes, the next scene, a scene list, elapsed time (from the first scene; "
                  "Pause) and clock. Keys work in either window; the pointer over the audience window or its picture here "
                  "steers the laser (L, right button), pen (D) and spotlight (S) on the audience's screen. Esc or closing the "
                  "audience window ends presenting and shows the lab here, the lesson still open; closing this window quits");
    cmd->add_option("--soak", o.soak, "Soak test: a seeded random parameter and view change every frame");
    cmd->add_option("--script", o.script,
                    "Drive the real window with a JSON array of steps (click, drag, type, key, wait, screenshot, "
                    "state, widgets), then exit; see the README")
        ->check(non_empty());
    cmd->add_option("--monitor", o.monitor, "Monitor for fullscreen and presenting (0: primary, 1, 2, …)")
        ->transform(in_range(0, 16));
}

void add_file_argument(CLI::App* cmd, GuiOptions& o) {
    cmd->add_option("file", o.file, "A session, lesson, config.json, GGUF file or checkpoint folder to open (told apart by its content)")->check(non_empty());
}

int run_gui(const GuiOptions& options) {
    const GuiOptions o = with_file_opened(options);
    GuiInputs in = read_inputs(o);
    const auto window = open_window(o, in);
    if (!window) return 1;
    std::string notice;
    auto device = gpu::GlDevice::open(gpu::DeviceRequest::Auto, false, notice);
    if (!notice.empty()) std::fprintf(stderr, "ropelab: notice: %s\n", notice.c_str());

    const auto opened = Clock::now();
    Lab lab(*device, initial_params(o, window->content_scale(), in.from()));
    lab.keep_recent_files(recent_files_path());  // the window remembers the files it used (core/user_dirs.h)
    views::LabView view(lab);
    const LabParams lecturer_look = lab.params();
    open_inputs(view, o, in);
    if (o.frames && !in.script) window->park_pointer();  // fixed runs: no stray hover from wherever the pointer is
    std::optional<Soak> soak;
    if (o.soak) soak.emplace(*o.soak, o.frames, lab.params());
    ExportPanelRunner exports;
    GuiRun run{.o = o, .window = *window, .lab = lab, .view = view, .script = in.script, .soak = soak, .exports = exports,
               .opened = opened, .lecturer_look = lecturer_look};
    if (const std::optional<int> failed = run_frames(run)) return *failed;
    return finish(run, device->name());
}

}  // namespace ropelab
