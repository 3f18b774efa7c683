#pragma once
// What lands on what in a figure: the layout check reads a display list (a captured frame or a
// figure as a file shows it) and reports text a reader cannot read whole — two runs of text on
// top of each other, a run under a patch drawn later (a series' label box, a legend's or a
// note's background), and a run cut by its clip rectangle. Pure: no ImGui, positions only.
#include <string>
#include <vector>

#include "plot/display_list.h"

namespace ropelab::draw {

struct Box {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    float width() const { return x1 - x0; }
    float height() const { return y1 - y0; }
};

struct LayoutFinding {
    enum class Kind {
        Overlap,  // two text runs share more than the slack
        Covered,  // a text run lies under a filled box drawn after it
        Cut,      // a text run runs past its clip rectangle
    };
    Kind kind = Kind::Overlap;
    std::string text;   // the run that suffers
    Box box;            // its box
    std::string other;  // the other run (Overlap), "" for a box or a clip
    Box other_box;      // the other run's box, the covering box, or the clip rectangle
};

// A run's box: `at` its top-left, one line (the font size) high, as wide as its advances add up
// to (the glyph advances the capture read from the screen), estimated from the size without.
Box text_box(const Text& text);

// Every finding in `figure`, in drawing order. Boxes must share more than `slack` pixels both
// ways to overlap (glyphs that touch do not), and a run must stick out of its clip by more than
// `slack` to be cut; text wholly outside its clip is not drawn and not checked.
std::vector<LayoutFinding> check_layout(const Figure& figure, float slack = 1.0f);

// "overlap", "covered" or "cut".
const char* kind_name(LayoutFinding::Kind kind);

}  // namespace ropelab::draw
