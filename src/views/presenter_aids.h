#pragma once
// Presenter aids drawn over the lab: a spotlight that dims every view but one (S over a view,
// `--spotlight N`), and a laser pointer — a bright dot with a short fading trail while L or the
// right mouse button is held, or a still dot where `--laser X,Y` puts it (for exports); a pen
// that draws thick freehand strokes over the views while D is held (or the left button, with the
// pen switched on), kept until C or a scene change; and the hint over a view whose curves a
// scene hides until R.
#include <deque>
#include <span>
#include <vector>

#include <imgui.h>

namespace ropelab::views {

class PresenterAids {
public:
    // Views are recorded as they are laid out; the previous frame's rectangles answer view_under.
    void begin_frame();
    void add_view(int index, ImVec2 min, ImVec2 max);
    // 1-based view under a screen point in the last frame, 0 for none.
    int view_under(ImVec2 at) const;

    // Advances the trail's clock; while `held`, the pointer leaves a dot at `at`.
    void follow_pointer(double seconds, bool held, ImVec2 at);
    bool trail_visible() const { return !trail_.empty(); }

    // The pen: while `down`, the stroke follows `at`; lifting it ends the stroke.
    void follow_pen(bool down, ImVec2 at);
    void clear_pen();
    // The pen's strokes and the laser's trail gone at once: presenting ended, and what was drawn
    // over the audience's picture must not land on the lab's own window.
    void clear_ink();
    bool has_strokes() const { return !strokes_.empty(); }
    // Where the pen may draw with the left button: the bounding box of the views laid out so far.
    bool views_box(ImVec2& min, ImVec2& max) const;

    // "Predict the curve — press R to reveal", centred over a view (its window is current);
    // presenting, only "Predict the curve": the room is not the one with the key.
    void reveal_hint(ImVec2 view_min, ImVec2 view_size, bool presenting) const;

    // Over everything: the dimmed views (spotlight = 1..10) and the laser, live and still.
    void draw(int spotlight, std::span<const double> still_laser) const;

private:
    struct ViewRect {
        int index;
        ImVec2 min, max;
    };
    struct Dot {
        ImVec2 at;
        double time;
    };
    std::vector<ViewRect> rects_, last_rects_;
    std::deque<Dot> trail_;
    std::vector<std::vector<ImVec2>> strokes_;
    bool pen_down_ = false;
    double clock_ = 0.0;
};

}  // namespace ropelab::views
