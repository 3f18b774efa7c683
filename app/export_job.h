#pragma once
// One export (image, animation or data), run a frame at a time so the window can show progress
// and cancel between frames; the command line runs the same job to the end.
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "export/data.h"
#include "export/video.h"
#include "state/params.h"
#include "state/session.h"
#include "offscreen.h"
#include "platform.h"
#include "lab/actions.h"
#include "views/lab_view.h"

namespace ropelab {

class ExportJob {
public:
    // Checks the spec (InputError naming the problem: size, extension, folder) and opens the
    // offscreen renderer and the writer. Leaves the offscreen GL context current.
    // `plots` are the session's plot zoom and pan, so the export shows what the window showed.
    static std::unique_ptr<ExportJob> start(const lab::ExportSpec& spec, const LabParams& params,
                                            std::string& notice, const std::map<std::string, plot::PlotState>& plots = {});
    ~ExportJob();

    // Renders and writes one frame. Returns false once finished or failed (see error()).
    bool step();
    void cancel();

    int done_frames() const { return done_; }
    int total_frames() const;
    double eta_seconds() const;
    double frames_per_second() const;  // frames rendered and written per second (0 until two are)
    bool succeeded() const { return finished_ && error_.empty(); }
    const std::string& error() const { return error_; }
    const std::string& path() const { return spec_.path; }

private:
    ExportJob() = default;
    bool finish_still();
    // Hand a frame from the renderer to the writer; false (and the export cancelled) on failure.
    // Hands a frame the renderer gave back (RgbaImage or Yuv420Frame) to the writer; nullptr is
    // no frame yet, or at the end a last frame that could not be read back.
    template <typename Frame>
    bool write_frame(const Frame* frame, bool last);

    void lesson_frame(int k);
    bool sweep_frame();

    lab::ExportSpec spec_;
    std::vector<double> scene_starts_;  // lesson export: each scene's start time, then the total
    std::unique_ptr<OffscreenRenderer> renderer_;
    std::unique_ptr<Lab> lab_;
    std::unique_ptr<views::LabView> view_;  // draws lab_
    std::unique_ptr<VideoWriter> writer_;
    LabParams start_params_;
    bool still_ = false, finished_ = false, log_scale_ = false;
    double from_ = 0, to_ = 0;
    int pass_ = 0, frame_ = 0, done_ = 0;
    std::string error_;
    std::chrono::steady_clock::time_point started_, first_done_;
};

// The export panel's driver, called once per window frame. Rendering exports run in a child
// `ropelab render` process (its own GL context; the window never waits), whose progress lines
// feed the panel's bar; Cancel stops it with SIGTERM and it removes its temporary file. Data
// exports are written at once from the lab's own data.
class ExportPanelRunner {
public:
    // `program` is the ropelab executable (by default this one).
    explicit ExportPanelRunner(std::string program = platform::this_executable()) : program_(std::move(program)) {}
    // Starts what the lab was asked for since the last step (lab::Status::exports_asked), stops
    // it when cancelled, and reports progress to the lab as a command (cmd::ExportProgress).
    void step(views::LabView& view);

private:
    void step(const Lab& lab, lab::ExportStatus& status);
    std::string program_;
    int started_ = 0, cancelled_ = 0;  // the lab's export and cancel requests already handled
    std::unique_ptr<platform::ChildProcess> child_;
    std::string path_;
    std::string reason_;  // the renderer's last "ropelab: error:" line
};

// One picture rather than an animation: .png, or a vector figure (.svg, .pdf).
bool is_still_path(const std::string& path);
bool is_figure_path(const std::string& path);  // .svg or .pdf

// The `ropelab render` arguments that perform `spec` on exactly this state: the whole session
// travels as a share string, so the child renders the lab on screen, field for field.
std::vector<std::string> render_arguments(const lab::ExportSpec& spec, const Session& session);


}  // namespace ropelab
