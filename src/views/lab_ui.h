#pragma once
// The lab's window content: the controls panel beside a grid of all views (or one view large),
// the shortcut overlay, and the order of work in a frame: commands and shortcuts, playback,
// recompute if the parameters changed, draw, apply what the views asked for.
#include <optional>

#include "gpu/compute_device.h"
#include "lab/lab_compute.h"
#include "lab/params.h"
#include "lab/session.h"
#include "lesson/lesson.h"
#include "views/controls.h"
#include "views/views.h"

namespace ropelab {

class LabUi {
public:
    LabUi(gpu::ComputeDevice& device, LabParams initial);

    // Builds this frame's ImGui content; `seconds` since the previous frame drives playback.
    void frame(double seconds, const controls::Commands& commands);

    const LabParams& params() const { return params_; }
    const LabCompute& compute() const { return compute_; }
    const controls::ControlsState& controls_state() const { return controls_; }
    // Exports need every frame exact: no coarse preview after a parameter change.
    void set_previews(bool on) { compute_.set_previews(on); }
    // The whole state as a session, and opening one (through the controls, the one writer).
    Session session() const;
    void open_session(const Session& session, const std::string& source);

    // Lessons: open one (presenting: fullscreen-style, controls hidden, large light text), move
    // between scenes. The state is lesson_state(scene, time): what presenting shows is what
    // an export of the lesson renders.
    void open_lesson(Lesson lesson, bool present);
    bool has_lesson() const { return lesson_.has_value(); }
    int scene() const { return scene_; }
    int scene_count() const { return lesson_ ? static_cast<int>(lesson_->scenes.size()) : 0; }
    double scene_time() const { return scene_time_; }
    void go_to_scene(int k, double t = 0.0);

    // For tests and exports: the parameter writer with the same validation the panel uses.
    LabParams& params_for_controls() { return params_; }
    controls::ControlsState& controls_state_for_controls() { return controls_; }

private:
    void view(int index, ImVec2 size);
    void grid(ImVec2 origin, ImVec2 size);
    void tabs();
    void help_overlay();
    void handle_session_request();
    void presenter_keys();
    void lesson_bar(bool presenting);
    void scene_views(ImVec2 origin, ImVec2 size);

    LabParams params_;
    controls::ControlsState controls_;
    LabCompute compute_;
    views::ViewState view_state_;
    views::Requests requests_;
    bool tab_synced_ = false;  // the tab bar has taken params_.tab_view once
    std::optional<Lesson> lesson_;
    int scene_ = 0;
    double scene_time_ = 0.0;
    bool scene_playing_ = true;
    LabParams lesson_base_;
};

}  // namespace ropelab
