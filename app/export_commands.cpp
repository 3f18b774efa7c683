#include "export_commands.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "core/error.h"
#include "export/data.h"
#include "export/image.h"
#include "export/video.h"
#include "lab/lab_data.h"
#include "offscreen.h"
#include "views/controls.h"

namespace ropelab {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

controls::Sweep parse_sweep(const std::string& name) {
    if (name == "position") return controls::Sweep::Position;
    if (name == "distance") return controls::Sweep::Distance;
    if (name == "theta") return controls::Sweep::Theta;
    return controls::Sweep::Factor;
}

// The default range of each sweep, and whether it runs on a log scale.
void sweep_range(controls::Sweep sweep, int frames, double& from, double& to, bool& log_scale) {
    log_scale = sweep == controls::Sweep::Theta || sweep == controls::Sweep::Factor;
    switch (sweep) {
        case controls::Sweep::Position: from = 0, to = frames - 1; break;
        case controls::Sweep::Distance: from = 0, to = 64; break;
        case controls::Sweep::Theta: from = 1e3, to = 1e6; break;
        case controls::Sweep::Factor: from = 1, to = 32; break;
    }
}

// Frame k of n shows time k/fps; the swept value moves from `from` to `to` over the animation.
double sweep_value(int k, int n, double from, double to, bool log_scale) {
    const double t = n > 1 ? static_cast<double>(k) / (n - 1) : 0.0;
    return log_scale ? from * std::pow(to / from, t) : from + (to - from) * t;
}

void progress(int done, int total, std::chrono::steady_clock::time_point start, int pass, int passes) {
    if (!isatty(STDERR_FILENO)) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double eta = done ? elapsed / done * (total - done) : 0.0;
    std::fprintf(stderr, "\rropelab: pass %d/%d, frame %d/%d, %.0f s left   ", pass + 1, passes, done, total, eta);
    if (done == total) std::fputc('\n', stderr);
}

LabParams render_params(const RenderOptions& o) {
    LabParams p = lab_params_from(o.lab, 1.0f);
    p.playing = false;
    p.focused_view = o.view == "all" ? -1 : static_cast<int>(parse_view_name(o.view));
    p.show_controls = o.view == "all";  // one view: the view alone; all: the whole window
    return p;
}

}  // namespace

void add_render_options(CLI::App* cmd, RenderOptions& o) {
    add_lab_options(cmd, o.lab);
    cmd->add_option("--view", o.view, "planes, contrast, scores, invariance, heatmap, frequencies, numbers, "
                                      "precision, or all")->capture_default_str();
    cmd->add_option("--size", o.size, "Image size WxH, up to 8192x8192 (rendered at that size)")->capture_default_str();
    cmd->add_option("--out", o.out, "FILE.png, FILE.gif, FILE.mp4, or DIR/ for a PNG sequence")->required();
    cmd->add_option("--frames", o.frames, "Animation frames (default 60)")->check(in_range(1, 100000));
    cmd->add_option("--fps", o.fps, "Frames per second of the animation")->check(in_range(1, 240))->capture_default_str();
    cmd->add_option("--animate", o.animate, "What moves: position, distance, theta (log), factor (log)")
        ->check(CLI::IsMember({"position", "distance", "theta", "factor"}));
    cmd->add_option("--from", o.from, "Start value of the sweep");
    cmd->add_option("--to", o.to, "End value of the sweep");
    cmd->add_flag("--transparent", o.transparent, "PNG: transparent background");
    cmd->add_option("--scale", o.lab.ui_scale, "UI scale, so text stays readable at 4K")->check(in_range(1, 8));
}

void add_export_data_options(CLI::App* cmd, ExportDataOptions& o) {
    add_lab_options(cmd, o.lab);
    cmd->add_option("--view", o.view, "The view whose series to export")->capture_default_str();
    cmd->add_option("--out", o.out, "FILE.csv or FILE.json")->required();
}

int run_render(const RenderOptions& o) {
    const auto [width, height] = parse_size(o.size);
    LabParams params = render_params(o);
    const bool still = ends_with(o.out, ".png");
    VideoFormat format = VideoFormat::Mp4;
    std::string error;
    if (!still && !video_format_for(o.out, format, error)) throw InputError(error + " (or .png for one image)");
    if (still && (o.animate || o.frames.value_or(1) > 1)) {
        throw InputError("--out: a .png holds one frame; animate into .gif, .mp4 or DIR/");
    }
    if (const std::string problem = folder_problem(o.out); !problem.empty()) {
        throw InputError(fmt::format("--out {}: {}", o.out, problem));
    }

    std::string why;
    auto renderer = OffscreenRenderer::create(width, height, why);
    if (!renderer) {
        std::fprintf(stderr, "ropelab: error: cannot render: %s\n", why.c_str());
        return 1;
    }
    if (!renderer->device_notice().empty()) std::fprintf(stderr, "ropelab: notice: %s\n", renderer->device_notice().c_str());
    LabUi lab(renderer->device(), params);
    lab.set_previews(false);

    if (still) {
        const RgbaImage image = renderer->render(lab, o.transparent, 0.0, 3);
        if (!write_png(o.out, image, error)) {
            std::fprintf(stderr, "ropelab: error: %s\n", error.c_str());
            return 2;
        }
        return 0;
    }

    const int frames = o.frames.value_or(60);
    const controls::Sweep sweep = parse_sweep(o.animate.value_or("position"));
    double from = 0, to = 0;
    bool log_scale = false;
    sweep_range(sweep, frames, from, to, log_scale);
    from = o.from.value_or(from);
    to = o.to.value_or(to);
    if (log_scale && (from <= 0 || to <= 0)) throw InputError("--from/--to: a log sweep needs positive values");

    VideoWriter writer(o.out, format, width, height, o.fps);
    const LabParams start_params = lab.params();
    const auto start = std::chrono::steady_clock::now();
    for (int pass = 0; pass < writer.passes(); ++pass) {
        if (!writer.begin_pass(pass, error)) break;
        lab.params_for_controls() = start_params;  // every pass replays the same timeline
        for (int k = 0; k < frames && error.empty(); ++k) {
            if (!controls::apply_sweep(lab.params_for_controls(), lab.controls_state_for_controls(), sweep,
                                       sweep_value(k, frames, from, to, log_scale))) {
                error = "frame " + std::to_string(k) + ": " + lab.controls_state().error;
                break;
            }
            writer.write(renderer->render(lab, false, 1.0 / o.fps, k == 0 ? 3 : 1), error);
            progress(k + 1, frames, start, pass, writer.passes());
        }
        if (!error.empty() || !writer.end_pass(error)) break;
    }
    if (!error.empty()) {
        writer.cancel();
        std::fprintf(stderr, "ropelab: error: %s; nothing was written to %s\n", error.c_str(), o.out.c_str());
        return 2;
    }
    return 0;
}

int run_export_data(const ExportDataOptions& o) {
    LabParams params = lab_params_from(o.lab, 1.0f);
    const View view = parse_view_name(o.view);
    const bool json = ends_with(o.out, ".json");
    if (!json && !ends_with(o.out, ".csv")) {
        throw InputError(fmt::format("--out: unknown data format \"{}\" (expected .csv or .json)", o.out));
    }
    if (const std::string problem = folder_problem(o.out); !problem.empty()) {
        throw InputError(fmt::format("--out {}: {}", o.out, problem));
    }
    const LabData data = compute_lab_data(params);
    const DataTable table = view_data(view, params, data);
    std::string error;
    if (!write_text_file(o.out, json ? to_json(table) : to_csv(table), error)) {
        std::fprintf(stderr, "ropelab: error: %s\n", error.c_str());
        return 2;
    }
    return 0;
}

}  // namespace ropelab
