#pragma once
// `ropelab gui --script FILE.json`: drives the real window as a person would, through the GLFW
// callbacks a mouse and keyboard use, aiming at widgets where ImGui laid them out in the last
// frame (the widget log, ui/widgets.h). A JSON array of steps, one per frame unless it waits
// (or is a capture step next to another: see below):
//   {"wait": N}                      N frames of nothing
//   {"click": "LABEL"}               the centre of the first visible widget with that visible label
//                                    (scrolling its panel with the wheel first if it is out of view);
//                                    the pointer goes there once it stood at the same place in the
//                                    last two frames drawn, then a frame to press, one to release
//   {"drag": "LABEL", "dx": PX, "dy": PX}
//   {"type": "TEXT"}                 replaces the focused field's text (Ctrl+A, the characters), Enter
//   {"key": "NAME", "repeat": N}     a GLFW key name (Escape, Right, PageDown, Space, F1, A, …);
//                                    N > 1 presses it N times within one frame, like a fast clicker
//   {"drop": "FILE"}                 FILE dropped onto the window (GLFW's drop callback)
//   {"screenshot": "F.png"}  {"state": "F.json"}  {"widgets": "F.json"}
//   {"screenshot": "F.png", "window": "audience"}   presenting with notes: the audience's window
//                                    ("lecturer", the default, is the window the script drives)
//   {"hover": "LABEL", "dx": PX, "dy": PX}   the pointer onto the widget, then (with dx, dy) across
//                                    by that much over 8 frames, no button pressed
//   {"hold": "NAME"}  {"release": "NAME"}   a key pressed and left down across the steps between
//                                    (hold D, hover across: the pen draws), then let go
//   "window": "audience" on a hover, drag, click, hold or release (gui --presenter): the pointer,
//                                    left button and keys of the audience's window, through its
//                                    GLFW callbacks; the step aims at "audience", the whole
//                                    window ("at" a fraction of it); "button": "right" on a drag
//                                    or click there presses the right button (the laser)
//   {"until_exact": N}               frames until every curve is exact (at most N; an error after)
//   {"progress": "F.json"}           where the exact pass stands: frame, exact, setting, fraction, slices
//   {"curve": "F.f32"}               the base RoPE curve shown, raw float32 (every Δ < N once exact)
// Capture steps (state, widgets, clipped, progress, curve) write their files after the frame in
// which the step runs; capture steps that follow each other share that one frame (a state and
// the widgets after an action: one frame, not two). A screenshot or overlaps step has a frame of
// its own (its capture is set up before the frame is built).
// "optional": true on a click or drag skips it (logged) when the label is not visible;
// "at": [x, y] aims at that fraction of the widget instead of its centre (the first of two fields).
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/json_input.h"

#include "lab/lab.h"
#include "ui/widgets.h"
#include "window.h"

struct GLFWwindow;

namespace ropelab {

namespace draw {
class FrameCapture;
}

class Script {
public:
    // Reads and checks every step; throws InputError naming the file, step and problem.
    static Script load(const std::string& path);

    // Before a frame: this frame's input. After it: files the step asked for. Both return false
    // with error() set when the script cannot go on (a label not visible, a file not written).
    bool before_frame(Window& window);
    bool after_frame(const Lab& lab);
    bool done() const { return next_ >= steps_.size() && actions_.empty(); }
    // The screenshot this frame should be saved as, if a step asked for one.
    const std::string& capture_path() const { return capture_; }
    // That screenshot is of the audience window (gui --presenter), not the one driven.
    bool capture_audience() const { return capture_audience_; }
    const std::string& error() const { return error_; }
    // The audience's window while presenting with notes (nullptr otherwise), for the steps that
    // name it; set before each frame.
    void set_audience(GLFWwindow* window) { audience_ = window; }

private:
    using Action = std::function<bool(Window&)>;
    // A capture step's file, written after the frame: what ("state", "widgets", "clipped",
    // "progress", "curve"), where, and the step's number (for errors).
    struct Capture {
        std::string what, path;
        std::size_t step = 0;
    };
    bool run_next_action(Window& window);
    bool expand(const Json& step, Window& window);
    void announce(const Json& step) const;
    // The step, and the capture steps right after it, in one frame.
    void capture_in_one_frame(const Json& step);
    bool write_capture(const Capture& capture, const Lab& lab);
    void type_text(const std::string& text);
    void press_key(int key, int repeat, const std::vector<int>& mods = {});
    // Clicks and drags (script_aim.cpp).
    struct Aim;
    bool click(const std::string& label, bool optional, double dx, double dy, bool drag, std::pair<double, double> at);
    bool aim_at(const std::shared_ptr<Aim>& aim, Window& w, int tries);
    bool aim_again(const std::shared_ptr<Aim>& aim, int tries);
    bool scroll_towards(const std::shared_ptr<Aim>& aim, const ui::Widget& widget, Window& w, int tries);
    void press(const std::shared_ptr<Aim>& aim, double x, double y, int tries);
    bool give_up(const Aim& aim, const std::string& skipped, const std::string& problem);
    // The pointer moved onto a widget (at a fraction of it) and, with `notches` ≠ 0, the wheel
    // turned there: hover and wheel steps.
    void point(const std::string& label, std::pair<double, double> at, double notches, std::pair<double, double> glide);
    // The audience window's (script_aim.cpp): the pointer to a fraction of it, across by dx, dy
    // over the drag's frames, the left (or right) button pressed throughout when `press`; a key
    // held or let go.
    void point_at_audience(std::pair<double, double> at, double dx, double dy, bool press, bool right_button);
    void audience_key(int key, bool press);
    GLFWwindow* audience_or_error();
    std::string where() const;  // the step being run
    std::string where(std::size_t step) const;
    void wait_until_exact(int limit, int waited);

    std::string path_;
    std::vector<Json> steps_;
    std::size_t next_ = 0;        // the next step to expand
    std::deque<Action> actions_;  // the current step's remaining frames
    std::string capture_, error_;
    std::vector<Capture> captures_;  // written after this frame
    // The frame before the one just drawn, as the widget log had it: an aim presses at once when
    // its widget stood at the same place in both (the log's own last frame is the audience's
    // view while presenting with notes).
    std::vector<ui::Widget> previous_layout_;
    bool capture_audience_ = false;
    GLFWwindow* audience_ = nullptr;
    // {"overlaps": file}: this frame captured as a figure, checked after it (plot/layout_check.h).
    std::shared_ptr<draw::FrameCapture> overlap_capture_;
    std::string overlaps_out_;
    bool exact_ = false;  // the last frame drawn showed every curve exact
    int frames_ = 0;      // frames drawn so far
};

}  // namespace ropelab
