#include "export_commands.h"

#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "core/error.h"
#include "core/utf8.h"
#include "export/data.h"
#include "export/image.h"
#include "export/video.h"
#include "lab/lab_data.h"
#include "export_job.h"
#include "offscreen.h"
#include "lab/actions.h"
#include "lab/attention_input.h"
#include "state/compare.h"
#include "state/schema.h"

namespace ropelab {

namespace {

volatile int g_cancel = 0;

lab::Sweep parse_sweep(const std::string& name) {
    if (name == "position") return lab::Sweep::Position;
    if (name == "distance") return lab::Sweep::Distance;
    if (name == "theta") return lab::Sweep::Theta;
    return lab::Sweep::Factor;
}

// Paths given to render and export-data, checked before any is opened: a path reaches messages,
// the metadata of what is written (a config's path is the preset's name there) and the screen,
// so it must be UTF-8 on one line. Refused naming the flag and the path (bytes as \xNN).
void check_path_options(std::initializer_list<std::pair<const char*, const std::string*>> paths) {
    for (const auto& [flag, path] : paths) {
        if (const std::size_t bad = first_invalid_utf8(*path); bad != std::string::npos) {
            throw InputError(fmt::format("{}: \"{}\" is not UTF-8 text (byte \\x{:02X} at {})", flag, utf8_escaped(*path),
                                         static_cast<unsigned char>((*path)[bad]), bad));
        }
        if (const std::size_t c = first_control_character(*path); c != std::string::npos) {
            throw InputError(fmt::format("{}: \"{}\" holds the control character \\x{:02X} at byte {}", flag, utf8_escaped(*path),
                                         static_cast<unsigned char>((*path)[c]), c));
        }
    }
}

void progress(const ExportJob& job) {
    if (!isatty(STDERR_FILENO)) return;
    std::fprintf(stderr, "\rropelab: frame %d/%d, %.0f s left   ", job.done_frames(), job.total_frames(), job.eta_seconds());
    if (job.done_frames() == job.total_frames()) std::fputc('\n', stderr);
}

// --grid TxHxW: the image's frames, rows and columns (images.frames/height/width), each a whole
// number in its schema range, as the fields of --grid-frames, --grid-height and --grid-width: the
// lab's options with it, validated once with every other option (--grid 4x4x4 --frame-offset 1
// is valid whatever the order the checks run in). The query and the key frame, unless an option
// names them, are clamped into the image as the Lab does.
LabOptions with_grid_option(LabOptions o, const std::optional<std::string>& text, const Session* session) {
    if (!text) return o;
    std::int64_t sides[3] = {0, 0, 0};
    std::size_t at = 0;
    bool ok = true;
    for (int i = 0; i < 3 && ok; ++i) {
        const std::size_t end = i < 2 ? text->find('x', at) : text->size();
        const std::string part = end == std::string::npos ? "" : text->substr(at, end - at);
        ok = !part.empty() && part.size() <= 7 && part.find_first_not_of("0123456789") == std::string::npos;
        if (ok) sides[i] = std::stoll(part);
        at = end == std::string::npos ? text->size() : end + 1;
    }
    ok = ok && sides[0] >= 1 && sides[0] <= kMaxGridFrames && sides[1] >= 1 && sides[1] <= kMaxGridSide && sides[2] >= 1 &&
         sides[2] <= kMaxGridSide;
    if (!ok) {
        throw InputError(fmt::format("--grid: \"{}\" is not TxHxW (frames 1-{}, sides 1-{}, e.g. 1x16x16)", *text, kMaxGridFrames,
                                     kMaxGridSide));
    }
    for (const char* path : {"images.frames", "images.height", "images.width"}) {
        if (o.fields.contains(path)) {
            throw InputError(fmt::format("--grid: \"{}\" and {} both set {}: give one of them", *text,
                                         schema::by_path(path)->flag, path));
        }
    }
    LabParams p = session ? session->params : LabParams{};
    p.grid_frames = sides[0];
    p.grid_height = sides[1];
    p.grid_width = sides[2];
    const LabParams clamped = lab::with_query_in_image(p);
    o.fields["images.frames"] = std::to_string(sides[0]);
    o.fields["images.height"] = std::to_string(sides[1]);
    o.fields["images.width"] = std::to_string(sides[2]);
    o.fields.try_emplace("images.query_row", std::to_string(clamped.query_row));
    o.fields.try_emplace("images.query_column", std::to_string(clamped.query_column));
    o.fields.try_emplace("images.frame_offset", std::to_string(clamped.frame_offset));
    return o;
}

LabParams render_params(const RenderOptions& o, const Session* session) {
    LabParams p = lab_params_from(with_grid_option(o.lab, o.grid, session), 1.0f, session);
    p.playing = false;
    p.focused_view = view_option_index(o.view, true);
    p.show_controls = p.focused_view < 0;  // one view: the view alone; all: the whole window
    return p;
}

// --size W1xH1,W2xH2,…: one still per size, FILE-WxH.png beside FILE.png (empty for one size).
std::vector<std::pair<std::string, std::string>> still_per_size(const std::string& sizes, const std::string& out) {
    std::vector<std::pair<std::string, std::string>> each;
    if (sizes.find(',') == std::string::npos) return each;
    if (!is_still_path(out)) throw InputError("--size: several sizes render one still each: --out must be a .png, .svg or .pdf");
    const std::size_t dot = out.rfind('.');
    for (std::size_t at = 0; at <= sizes.size();) {
        const std::size_t end = std::min(sizes.find(',', at), sizes.size());
        const std::string size = sizes.substr(at, end - at);
        parse_size(size);  // every size checked before the first is drawn
        each.emplace_back(size, out.substr(0, dot) + "-" + size + out.substr(dot));
        at = end + 1;
    }
    // The names are made here, not typed by the user: like a default name, one never replaces a
    // file that is already there (checked for every size before the first is drawn).
    for (const auto& [size, path] : each) {
        std::error_code ec;
        if (std::filesystem::symlink_status(path, ec).type() != std::filesystem::file_type::not_found) {
            throw InputError("--size: " + path + " already exists; several sizes never replace a file (choose another --out)");
        }
    }
    return each;
}

}  // namespace

void add_render_options(CLI::App* cmd, RenderOptions& o) {
    add_lab_options(cmd, o.lab);
    cmd->add_option("--view", o.view, view_names_list(", ") + ", a number 1-" + std::to_string(kViewCount) + ", or all")
        ->capture_default_str();
    cmd->add_option("--grid", o.grid, "The grid view's image TxHxW in tokens (sets images.frames, height, width; e.g. 1x16x16)");
    cmd->add_option("--size", o.size, "Image size WxH, up to 8192x8192 (rendered at that size); a still at several sizes: "
                                      "W1xH1,W2xH2,… writes FILE-WxH.png for each, each rendered as its own run would")
        ->capture_default_str();
    cmd->add_option("--out", o.out, "FILE.png, FILE.svg or FILE.pdf (vector, text as text), FILE.gif, FILE.mp4, or DIR/ for a PNG sequence")->check(non_empty())->required();
    cmd->add_option("--frames", o.frames, "Animation frames (default 60)")->transform(in_range(1, 100000));
    cmd->add_option("--fps", o.fps, "Frames per second of the animation")->transform(in_range(1, 240))->capture_default_str();
    cmd->add_option("--animate", o.animate, "What moves: position, distance, theta (log), factor (log)")
        ->check(CLI::IsMember({"position", "distance", "theta", "factor"}));
    cmd->add_option("--from", o.from, "Start value of the sweep")->check(finite_number());
    cmd->add_option("--to", o.to, "End value of the sweep")->check(finite_number());
    cmd->add_flag("--transparent", o.transparent, "PNG: transparent background");
    cmd->add_flag("--progress", o.progress, "Print 'progress DONE TOTAL ETA_S FRAMES_PER_S' lines on stdout");
    cmd->add_option("--lesson", o.lesson, "Render a lesson (FILE, or a NAME from `ropelab lessons`): all scenes, or one with --scene")->check(non_empty());
    cmd->add_option("--scene", o.scene, "With --lesson: render scene K (1-based) as a slide")->transform(in_range(1, 1000));
}

void add_export_data_options(CLI::App* cmd, ExportDataOptions& o) {
    add_lab_options(cmd, o.lab);
    cmd->add_option("--view", o.view, "The view whose series to export: " + view_names_list(", ") + ", or a number 1-" +
                                          std::to_string(kViewCount))->capture_default_str();
    cmd->add_option("--grid", o.grid, "The grid view's image TxHxW in tokens (sets images.frames, height, width; e.g. 1x16x16)");
    cmd->add_option("--out", o.out, "FILE.csv or FILE.json")->check(non_empty())->required();
}

int run_render(const RenderOptions& o) {
    // Each size a render of its own (context, lab, ImGui), in one process: what separate runs
    // draw, without starting the program and its GL driver each time.
    if (const auto each = still_per_size(o.size, o.out); !each.empty()) {
        for (const auto& [size, out] : each) {
            RenderOptions one = o;
            one.size = size;
            one.out = out;
            if (const int status = run_render(one)) return status;
        }
        return 0;
    }
    check_path_options({{"--config", &o.lab.model.config_path}, {"--session", &o.lab.session}, {"--lesson", &o.lesson}, {"--out", &o.out}});
    const auto [width, height] = parse_size(o.size);
    const std::optional<Session> session = load_session_option(o.lab.session);
    const LabParams params = render_params(o, session ? &*session : nullptr);
    // The attention view alone: what export-data --view attention refuses (a missing or broken
    // vector file, a needle past the layout, more tokens than the view takes) is refused here in
    // the same words, before anything is written, rather than drawn into the picture.
    if (view_reads(params.focused_view, Product::Attention) && o.lesson.empty()) {
        lab::check_attention_state(params, setting_model(params, 0));
    }
    const bool still = is_still_path(o.out);
    if (still && o.lesson.empty() == false && o.scene == 0) {
        throw InputError("--scene: a .png, .svg or .pdf holds one slide; say which scene (or render the lesson to .mp4/.gif)");
    }
    if (still && (o.animate || o.frames.value_or(1) > 1)) {
        throw InputError("--out: a .png, .svg or .pdf holds one frame; animate into .gif, .mp4 or DIR/");
    }
    lab::ExportSpec spec;
    spec.path = o.out;
    spec.view = params.focused_view;
    spec.width = width;
    spec.height = height;
    spec.frames = o.frames.value_or(60);
    spec.fps = o.fps;
    spec.sweep = parse_sweep(o.animate.value_or("position"));
    spec.from = o.from;
    spec.to = o.to;
    spec.transparent = o.transparent;
    spec.ui_scale = params.ui_scale;
    spec.lesson = o.lesson;
    spec.scene = o.scene;
    // A theme the user chose wins over the lesson's own (and over presenting's light).
    if (o.lab.fields.contains("layout.theme")) spec.chosen_theme = params.theme;

    std::string notice;
    std::unique_ptr<ExportJob> job;
    try {
        job = ExportJob::start(spec, params, notice, session ? session->plots : std::map<std::string, plot::PlotState>{});
    } catch (const std::runtime_error& e) {
        if (dynamic_cast<const InputError*>(&e)) throw;
        std::fprintf(stderr, "ropelab: error: %s\n", e.what());
        return 1;
    }
    if (!notice.empty()) std::fprintf(stderr, "ropelab: notice: %s\n", notice.c_str());
    if (const float shown = fitted_ui_scale(params.ui_scale, static_cast<float>(width), static_cast<float>(height));
        shown < params.ui_scale) {
        std::fprintf(stderr, "ropelab: notice: UI scale %.2f is drawn at %.2f: a %dx%d image fits at most that\n",
                     params.ui_scale, shown, width, height);
    }
    // SIGTERM or Ctrl-C cancels cleanly between frames: the writer closes ffmpeg and removes its
    // files; a frame that takes longer than a second is cut short by the handler itself.
    remove_partials_on_signal(&g_cancel);
    while (!g_cancel && job->step()) {
        progress(*job);
        if (o.progress) {
            std::printf("progress %d %d %.1f %.2f\n", job->done_frames(), job->total_frames(), job->eta_seconds(),
                        job->frames_per_second());
            std::fflush(stdout);
        }
    }
    if (g_cancel) {
        job->cancel();
        signal_cancel_done();
    }
    if (!job->succeeded()) {
        std::fprintf(stderr, "ropelab: error: %s; nothing was written to %s\n", job->error().c_str(), o.out.c_str());
        return 2;
    }
    return 0;
}

int run_export_data(const ExportDataOptions& o) {
    check_path_options({{"--config", &o.lab.model.config_path}, {"--session", &o.lab.session}, {"--out", &o.out}});
    const std::optional<Session> session = load_session_option(o.lab.session);
    const LabParams params = lab_params_from(with_grid_option(o.lab, o.grid, session ? &*session : nullptr), 1.0f,
                                             session ? &*session : nullptr);
    const View view = static_cast<View>(view_option_index(o.view, false));
    if (!o.out.ends_with(".json") && !o.out.ends_with(".csv")) {
        throw InputError(fmt::format("--out: unknown data format \"{}\" (expected .csv or .json)", o.out));
    }
    if (const std::string problem = export_target_problem(o.out); !problem.empty()) {
        throw InputError(fmt::format("--out {}: {}", o.out, problem));
    }
    const std::string error = export_view_data(o.out, static_cast<int>(view), params, compute_lab_data(params));
    if (!error.empty()) {
        std::fprintf(stderr, "ropelab: error: %s\n", error.c_str());
        return 2;
    }
    return 0;
}

}  // namespace ropelab
