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
#include "views/presenter_aids.h"
#include "views/views.h"

namespace ropelab {

// How the lab computes: Interactive (the window) draws its first frame before computing
// anything, shows coarse previews after each change and the exact curves a slice per frame;
// AllAtOnce (exports, render) computes every curve exactly before the first frame.
enum class Pace { Interactive, AllAtOnce };

class LabUi {
public:
    LabUi(gpu::ComputeDevice& device, LabParams initial, Pace pace = Pace::Interactive);

    // Builds this frame's ImGui content; `seconds` since the previous frame drives playback.
    void frame(double seconds, const controls::Commands& commands);

    const LabParams& params() const { return params_; }
    const LabCompute& compute() const { return compute_; }
    // AllAtOnce from the next change on: the soak's tour uses it so that every series buffer
    // reaches its largest size before memory is measured.
    void set_pace(Pace pace) { compute_.set_previews(pace == Pace::Interactive); }
    const controls::ControlsState& controls_state() const { return controls_; }
    controls::ControlsState& controls_state() { return controls_; }

    // The one writer of the lab state. Every change — the panel, keys, views' requests, lessons,
    // sessions, exports, the soak — arrives as a candidate state; it is validated against the
    // schema (lab/schema.h) and committed, or refused with the reason shown and the current
    // state kept. Returns whether it was committed.
    bool apply(const LabParams& candidate);

    // The whole state as a session, and opening one (closes an open lesson first).
    Session session() const;
    bool open_session(const Session& session, const std::string& source);

    // Lessons play beside the lab. While presenting, the scene drives the state; otherwise
    // editing any control pauses the scene and the edit stays. Closing returns the lab to
    // exactly the state it had before the lesson opened.
    void open_lesson(Lesson lesson, bool present);
    void close_lesson();
    bool has_lesson() const { return lesson_.has_value(); }
    bool scene_playing() const { return scene_playing_; }
    int scene() const { return scene_; }
    int scene_count() const { return lesson_ ? static_cast<int>(lesson_->scenes.size()) : 0; }
    double scene_time() const { return scene_time_; }
    void go_to_scene(int k, double t = 0.0);
    // Presenter mode: large text, light theme, fullscreen; leaving it restores the user's own.
    void set_presenting(bool on);

private:
    enum class Origin { User, Lesson, Playback, Session };
    bool commit(const LabParams& candidate, Origin origin);
    void show_scene_state();
    void view(int index, ImVec2 size);
    void grid(ImVec2 origin, ImVec2 size);
    void tabs();
    void help_overlay();
    void handle_session_request();
    void presenter_keys(const std::vector<controls::Key>& keys);
    void presenter_aid_keys(double seconds);
    void lesson_bar(bool presenting);
    void scene_views(ImVec2 origin, ImVec2 size);

    LabParams params_;
    controls::ControlsState controls_;
    LabCompute compute_;
    bool started_ = false;  // the starting frame was shown
    void starting_frame();
    views::ViewState view_state_;
    views::Requests requests_;
    views::PresenterAids aids_;
    std::optional<Lesson> lesson_;
    int scene_ = 0;
    double scene_time_ = 0.0;
    bool scene_playing_ = true;
    LabParams lesson_base_;       // the lab as it was when the lesson opened
    LabParams before_presenting_; // the user's scale, theme, fullscreen and panel
};

}  // namespace ropelab
