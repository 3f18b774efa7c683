#pragma once
// The lab's window content: the controls panel beside a grid of all views (or one view large),
// the shortcut overlay, and the order of work in a frame: ImGui's keys into the lab's input,
// the lab's step with the commands asked for since the last one (the panel's, the views'
// requests, the app's), then drawing from the const lab, which asks for the next frame's.
#include <span>

#include "lab/command.h"
#include "lab/input.h"
#include "lab/lab.h"
#include "views/panel/panel.h"
#include "views/presenter_aids.h"
#include "views/views.h"

namespace ropelab::views {

// Where the lab is drawn: the window (a menu bar, the workspace tabs, the device and status lines
// under the views) or a figure (an exported picture: the lab's content alone, nothing that says
// which machine drew it or what was last clicked).
enum class Surface { Window, Figure };

class LabView {
public:
    explicit LabView(Lab& lab, Surface surface = Surface::Window) : lab_(lab), surface_(surface) {}

    // Builds this frame's ImGui content; `seconds` since the previous frame drives playback.
    void frame(double seconds, const lab::Input& window_input);
    // A command for the lab's next step (the app's: the soak, --churn, the export runner, the
    // presenter console, the command line's files), after those the last frame's drawing asked for.
    void send(lab::Command command) { pending_.push_back(std::move(command)); }

    Lab& lab() { return lab_; }
    const Lab& lab() const { return lab_; }
    // The panel's fields (tests type into them as a person would).
    controls::PanelState& panel() { return panel_; }
    // File › Quit was chosen: the app closes the window (the view cannot).
    bool quit_requested() const { return quit_requested_; }

private:
    void starting_frame();
    lab::Input read_input(const lab::Input& window_input) const;
    void draw();
    void view(int index, ImVec2 size);
    void grid(ImVec2 origin, ImVec2 size);
    void grid_status_line(float width);
    void tabs(std::span<const View> views);
    // The workspace's views in the room left: the first largest, the others beside or under it.
    void workspace_views(ImVec2 origin, ImVec2 size);
    void workspace_tabs();
    // The menu bar, the workspace tabs, the device and status lines: the window's, not a figure's
    // nor the slides'.
    bool window_chrome() const;
    void menu_bar();
    void help_overlay();
    void status_line(const std::string& message, bool error);
    void presenter_aid_keys(double seconds, const lab::Input& window_input);
    void lesson_bar(bool presenting);
    // The pen switched on: a window over the views takes the left button from the plots.
    void pen_canvas();
    void scene_views(ImVec2 origin, ImVec2 size);
    void take_opened_plots();
    void hand_back_plots();

    Lab& lab_;
    Surface surface_;
    bool quit_requested_ = false;
    bool started_ = false;  // the starting frame was shown
    int plots_opened_ = 0;  // the lab's sessions opened whose plots this view took
    controls::PanelState panel_;
    lab::Commands pending_;  // for the lab's next update
    ViewState view_state_;
    Requests requests_;
    PresenterAids aids_;
    bool pen_on_ = false;     // the lesson bar's Pen: the left button draws over the views
    bool pen_key_ = false;    // D held this frame
    int pen_scene_ = -1;      // the scene the strokes belong to (−1: no lesson)
    bool was_presenting_ = false;  // the last frame's: leaving a presentation wipes its aids
};

}  // namespace ropelab::views
