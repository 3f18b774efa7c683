#include "export_job.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "core/atomic_file.h"
#include "core/embedded.h"
#include "core/error.h"
#include "core/presets.h"
#include "export/data.h"
#include "export/image.h"
#include "state/compare.h"
#include "lesson/lesson.h"
#include "plot/pdf.h"
#include "plot/svg.h"
#include "state/schema.h"

namespace ropelab {

namespace {

// A vector figure written atomically as SVG or PDF (by the name's extension), its text in the
// font the screen used.
bool write_figure(const std::string& path, const draw::Figure& figure, std::string& error) {
    std::string bytes;
    if (path.ends_with(".pdf")) {
        bytes = draw::to_pdf(figure, embedded::fonts().front().data, error);
        if (bytes.empty()) return false;
    } else {
        bytes = draw::to_svg(figure);
    }
    return write_file_atomically(path, bytes, error);
}

}  // namespace

std::unique_ptr<ExportJob> ExportJob::start(const lab::ExportSpec& spec, const LabParams& params,
                                            std::string& notice, const std::map<std::string, plot::PlotState>& plots) {
    if (spec.width < 1 || spec.height < 1 || spec.width > 8192 || spec.height > 8192) {
        throw InputError(fmt::format("--size: each side must be in 1 .. 8192 (got {}x{})", spec.width, spec.height));
    }
    std::unique_ptr<ExportJob> job(new ExportJob);
    job->spec_ = spec;
    job->still_ = is_still_path(spec.path);
    VideoFormat format = VideoFormat::Mp4;
    std::string error;
    if (!job->still_ && !video_format_for(spec.path, format, error)) throw InputError(error);
    if (const std::string problem = job->still_ ? export_target_problem(spec.path) : ""; !problem.empty()) {
        throw InputError(fmt::format("--out {}: {}", spec.path, problem));
    }
    if (spec.frames < 1 || spec.fps < 1) throw InputError("--frames and --fps must be at least 1");
    job->log_scale_ = spec.sweep == lab::Sweep::Theta || spec.sweep == lab::Sweep::Factor;
    std::tie(job->from_, job->to_) = lab::default_sweep_range(spec.sweep, spec.frames);
    job->from_ = spec.from.value_or(job->from_);
    job->to_ = spec.to.value_or(job->to_);
    if (job->log_scale_ && (job->from_ <= 0 || job->to_ <= 0)) {
        throw InputError("--from/--to: a log sweep needs positive values");
    }

    std::string why;
    job->renderer_ = OffscreenRenderer::create(spec.width, spec.height, why);
    if (!job->renderer_) throw std::runtime_error("cannot render: " + why);
    notice = job->renderer_->device_notice();

    LabParams p = params;
    p.playing = false;
    p.show_help = false;
    p.fullscreen = false;
    p.focused_view = spec.view;
    p.show_controls = spec.view < 0;  // one view alone; the whole window with its controls
    p.ui_scale = spec.ui_scale;
    job->start_params_ = p;
    job->lab_ = std::make_unique<Lab>(job->renderer_->device(), p, Pace::AllAtOnce);
    job->view_ = std::make_unique<views::LabView>(*job->lab_, views::Surface::Figure);  // a picture: no menu, no device line
    // The session's plots and the lesson, through the lab's door in one step before any frame.
    lab::Commands opening;
    if (!plots.empty()) opening.push_back(lab::cmd::OpenReadSession{.session = Session{p, plots}, .source = "the session"});
    if (!spec.lesson.empty()) {
        Lesson lesson = load_lesson(spec.lesson);
        for (const std::string& w : lesson.warnings) std::fprintf(stderr, "ropelab: warning: %s\n", w.c_str());
        if (spec.scene < 0 || spec.scene > static_cast<int>(lesson.scenes.size())) {
            throw InputError(fmt::format("--scene: the lesson has scenes 1 .. {} (got {})", lesson.scenes.size(), spec.scene));
        }
        double t = 0.0;
        for (const Scene& s : lesson.scenes) {
            job->scene_starts_.push_back(t);
            t += s.duration;
        }
        job->scene_starts_.push_back(t);
        opening.push_back(lab::cmd::OpenReadLesson{.lesson = std::move(lesson), .present = true, .source = "", .chosen_theme = spec.chosen_theme});
        if (spec.scene > 0) {  // a slide: the scene at its end
            const auto k = static_cast<std::size_t>(spec.scene - 1);
            opening.push_back(lab::cmd::GoToScene{.scene = spec.scene - 1, .time = job->scene_starts_[k + 1] - job->scene_starts_[k]});
        }
        if (!job->still_) job->spec_.frames = std::max(1, static_cast<int>(std::ceil(t * spec.fps)));
    }
    if (!opening.empty()) {
        job->lab_->update(0.0, {}, opening);
        job->start_params_ = job->lab_->params();
    }
    if (!job->still_) {
        job->writer_ = std::make_unique<VideoWriter>(spec.path, format, spec.width, spec.height, spec.fps, job->spec_.frames);
    }
    job->started_ = std::chrono::steady_clock::now();
    return job;
}

ExportJob::~ExportJob() {
    view_.reset();
    lab_.reset();  // its GL objects go before the renderer's context
    renderer_.reset();
}

int ExportJob::total_frames() const { return still_ ? 1 : spec_.frames * (writer_ ? writer_->passes() : 1); }

// The rate since the first frame was written: that frame also paid for the start (the lab's
// first computation, fonts, shaders), which would make the rate look low and the time left long.
double ExportJob::frames_per_second() const {
    if (done_ < 2) return 0.0;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - first_done_).count();
    return elapsed > 0 ? (done_ - 1) / elapsed : 0.0;
}

double ExportJob::eta_seconds() const {
    if (done_ == 0) return 0.0;
    if (const double rate = frames_per_second(); rate > 0) return (total_frames() - done_) / rate;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    return elapsed / done_ * (total_frames() - done_);
}

bool is_figure_path(const std::string& path) { return path.ends_with(".svg") || path.ends_with(".pdf"); }

bool is_still_path(const std::string& path) { return path.ends_with(".png") || is_figure_path(path); }

bool ExportJob::finish_still() {
    if (is_figure_path(spec_.path)) {
        write_figure(spec_.path, renderer_->render_figure(*view_, 3), error_);
    } else {
        write_png(spec_.path, renderer_->render(*view_, spec_.transparent, 0.0, 3), error_);
    }
    done_ = 1;
    finished_ = true;
    return false;
}

template <typename Frame>
bool ExportJob::write_frame(const Frame* frame, bool last) {
    if (!frame && last) error_ = "the last frame could not be read back from the GPU";
    if ((frame && writer_->write(*frame, error_)) || (!frame && !last)) return true;
    cancel();
    return false;
}

bool ExportJob::step() {
    if (finished_) return false;
    if (still_) return finish_still();
    if (frame_ == 0 && !writer_->begin_pass(pass_, error_)) {
        cancel();
        return false;
    }
    if (frame_ == 0) view_->send(lab::cmd::SetState{.state = start_params_, .control = "", .notice = ""});  // every pass replays the timeline
    if (!scene_starts_.empty()) {
        lesson_frame(frame_);
    } else if (!sweep_frame()) {
        return false;
    }
    // Frame k is handed to the writer while frame k + 1 is drawn (the renderer's read-back runs
    // one frame behind), and the writer's thread feeds ffmpeg meanwhile.
    // MP4 frames leave the GPU as yuv420p (1.5 bytes a pixel instead of 4) and ffmpeg
    // only encodes; GIF and PNG frames stay RGBA.
    const double seconds_per_frame = 1.0 / spec_.fps;
    const int settle = frame_ == 0 ? 3 : 1;
    const bool wrote = writer_->takes_yuv420() ? write_frame(renderer_->render_next_yuv420(*view_, seconds_per_frame, settle), false)
                                               : write_frame(renderer_->render_next(*view_, seconds_per_frame, settle), false);
    if (!wrote) return false;
    if (++done_ == 1) first_done_ = std::chrono::steady_clock::now();
    if (++frame_ < spec_.frames) return true;
    if (!(writer_->takes_yuv420() ? write_frame(renderer_->flush_yuv420(), true) : write_frame(renderer_->flush(), true))) return false;
    frame_ = 0;
    if (!writer_->end_pass(error_)) {
        cancel();
        return false;
    }
    if (++pass_ < writer_->passes()) return true;
    finished_ = true;
    return false;
}


bool ExportJob::sweep_frame() {
    const double t = spec_.frames > 1 ? static_cast<double>(frame_) / (spec_.frames - 1) : 0.0;
    const double value = log_scale_ ? from_ * std::pow(to_ / from_, t) : from_ + (to_ - from_) * t;
    // Refused here, where the frame is known, rather than drawn as the previous state.
    LabParams next = frame_ == 0 ? start_params_ : lab_->params();  // a pass starts from the start
    lab::Status answer;
    bool valid = lab::apply_sweep(next, answer, spec_.sweep, value);
    try {
        if (valid) schema::validate(lab::with_query_in_image(next));
    } catch (const InputError& e) {
        answer.error = e.what();
        valid = false;
    }
    if (!valid) {
        error_ = fmt::format("frame {}: {}", frame_, answer.error);
        cancel();
        return false;
    }
    view_->send(lab::cmd::SetState{.state = next, .control = "", .notice = ""});
    return true;
}

// Frame k of a lesson shows time k/fps on the lesson's clock: the scene it falls in, at its
// time within that scene.
void ExportJob::lesson_frame(int k) {
    const double t = static_cast<double>(k) / spec_.fps;
    std::size_t scene = 0;
    while (scene + 2 < scene_starts_.size() && t >= scene_starts_[scene + 1]) ++scene;
    view_->send(lab::cmd::GoToScene{.scene = static_cast<int>(scene), .time = t - scene_starts_[scene]});
}

void ExportJob::cancel() {
    if (writer_) writer_->cancel();
    if (error_.empty()) error_ = "cancelled";
    finished_ = true;
}

std::vector<std::string> render_arguments(const lab::ExportSpec& spec, const Session& session) {
    static constexpr const char* kSweeps[] = {"position", "distance", "theta", "factor"};
    std::vector<std::string> a = {
        "render", "--progress", "--out", spec.path,
        "--session", share_string(session),
        "--view", spec.view < 0 ? "all" : std::string(view_name(static_cast<View>(spec.view))),
        "--size", fmt::format("{}x{}", spec.width, spec.height),
        "--ui-scale", fmt::format("{}", spec.ui_scale)};
    if (!is_still_path(spec.path)) {
        a.insert(a.end(), {"--frames", std::to_string(spec.frames), "--fps", std::to_string(spec.fps),
                           "--animate", kSweeps[static_cast<int>(spec.sweep)]});
        if (spec.from) a.insert(a.end(), {"--from", fmt::format("{:.17g}", *spec.from)});
        if (spec.to) a.insert(a.end(), {"--to", fmt::format("{:.17g}", *spec.to)});
    }
    if (spec.transparent) a.push_back("--transparent");
    return a;
}

void ExportPanelRunner::step(views::LabView& view) {
    const Lab& lab = view.lab();
    lab::ExportStatus status = lab.status().export_status;
    const lab::ExportStatus before = status;
    step(lab, status);
    if (!(status == before)) view.send(lab::cmd::ExportProgress{status});  // the panel's bar at the lab's next step
}

void ExportPanelRunner::step(const Lab& lab, lab::ExportStatus& status) {
    const lab::ExportSpec& spec = lab.status().export_spec;
    const bool requested = lab.status().exports_asked > started_;
    if (requested && !child_) {
        started_ = lab.status().exports_asked;
        status.message.clear();
        if (spec.path.ends_with(".csv") || spec.path.ends_with(".json")) {
            const std::string error = export_view_data(spec.path, spec.view, lab.params(), lab.compute().data());
            status.message = error.empty() ? "saved " + spec.path : "not saved: " + error;
            if (!error.empty()) std::fprintf(stderr, "ropelab: export to %s: not saved: %s\n", spec.path.c_str(), error.c_str());
            return;
        }
        // The target is checked here, where the reason can be shown; the child checks again.
        std::string problem;
        VideoFormat format = VideoFormat::Mp4;
        if (is_still_path(spec.path)) {
            problem = export_target_problem(spec.path);
        } else {
            video_format_for(spec.path, format, problem);
        }
        if (!problem.empty()) {
            status.message = "not saved: " + problem;
            std::fprintf(stderr, "ropelab: export to %s: not saved: %s\n", spec.path.c_str(), problem.c_str());
            return;
        }
        child_ = std::make_unique<platform::ChildProcess>();
        std::string error;
        if (!child_->start(program_, render_arguments(spec, lab.session()), error)) {
            status.message = "not saved: " + error;
            child_.reset();
            return;
        }
        path_ = spec.path;
        status.running = true;
        status.done_frames = status.total_frames = 0;
        status.frames_per_second = status.eta_seconds = 0.0;
        return;
    }
    if (!child_) return;
    if (lab.status().cancels_asked > cancelled_) {
        cancelled_ = lab.status().cancels_asked;
        child_->terminate();
    }
    for (const std::string& line : child_->read_lines()) {
        // The renderer's refusal: the reason the panel shows when it ends.
        if (line.starts_with("ropelab: error: ")) reason_ = line.substr(16);
        int done = 0, total = 1;
        double eta = 0.0, fps = 0.0;
        if (std::sscanf(line.c_str(), "progress %d %d %lf %lf", &done, &total, &eta, &fps) >= 3) {
            status.eta_seconds = eta;
            status.done_frames = done;
            status.total_frames = total;
            status.frames_per_second = fps;
        }
    }
    int exit_status = 0;
    if (child_->finished(exit_status)) {
        for (const std::string& line : child_->read_lines()) {
            if (line.starts_with("ropelab: error: ")) reason_ = line.substr(16);
        }
        const std::string why = !reason_.empty() ? reason_ : exit_status == 2 ? "stopped or refused" : fmt::format("failed (exit {})", exit_status);
        status.message = exit_status == 0 ? "saved " + path_ : "not saved: " + why;
        if (exit_status != 0) std::fprintf(stderr, "ropelab: export to %s: not saved: %s\n", path_.c_str(), why.c_str());
        status.running = false;
        reason_.clear();
        child_.reset();
    }
}


}  // namespace ropelab
