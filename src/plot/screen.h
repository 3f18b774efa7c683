#pragma once
// The screen renderer: display-list items drawn into Dear ImGui's draw lists. Views and plots
// draw through a Canvas, which renders each item at once (so it interleaves with ImGui's own
// widgets exactly as direct draw-list calls did) and, while a frame is being captured for a
// vector figure (plot/capture.h), remembers the item and fences its ImGui geometry, so the
// figure holds the item itself — a curve as a curve, text as text — instead of its triangles.
#include <string_view>

#include <imgui.h>

#include "plot/display_list.h"

namespace ropelab::draw {

inline Point point(ImVec2 v) { return {v.x, v.y}; }
inline ImVec2 imvec(Point p) { return {p.x, p.y}; }

// A font's em square and ascent in pixels when drawn at `size` (ImGui's size is the line height).
struct TextMetrics {
    float em = 0, ascent = 0;
};
TextMetrics text_metrics(const ImFont* font, float size);

// A text item at the current font and size, its maths markup typeset (ui/math_text.h), with
// the metrics and, for maths, the advances that let a file place it as the screen does.
Text screen_text(ImVec2 at, ImU32 color, std::string_view text);

// Draws one item (or a list) into `dl` now.
void render(ImDrawList* dl, const Item& item);

class Canvas {
public:
    explicit Canvas(ImDrawList* target) : dl_(target) {}
    // The current ImGui window's draw list, and the one over every window (the laser pointer).
    static Canvas window() { return Canvas(ImGui::GetWindowDrawList()); }
    static Canvas foreground() { return Canvas(ImGui::GetForegroundDrawList()); }

    void draw(const List& list);
    void draw(Item item);

    // The shapes views draw, in ImGui's units and colours.
    void line(ImVec2 a, ImVec2 b, ImU32 color, float width = 1.0f) { list_.line(point(a), point(b), color, width); flush(); }
    void rect(ImVec2 min, ImVec2 max, ImU32 color, float width = 1.0f, float rounding = 0.0f) {
        list_.rect(point(min), point(max), color, width, rounding);
        flush();
    }
    void fill_rect(ImVec2 min, ImVec2 max, ImU32 color, float rounding = 0.0f) {
        list_.fill_rect(point(min), point(max), color, rounding);
        flush();
    }
    void triangle(ImVec2 a, ImVec2 b, ImVec2 c, ImU32 color) { list_.triangle(point(a), point(b), point(c), color); flush(); }
    void circle(ImVec2 c, float r, ImU32 color, int segments = 0, float width = 1.0f) {
        list_.circle(point(c), r, color, width, segments);
        flush();
    }
    void disc(ImVec2 c, float r, ImU32 color, int segments = 0) { list_.disc(point(c), r, color, segments); flush(); }
    void bezier(ImVec2 a, ImVec2 b, ImVec2 c, ImVec2 d, ImU32 color, float width = 1.0f) {
        list_.bezier(point(a), point(b), point(c), point(d), color, width);
        flush();
    }
    // Text in the current font at its current size.
    void text(ImVec2 at, ImU32 color, std::string_view text);
    void text(ImVec2 at, ImU32 color, const char* begin, const char* end) { text(at, color, std::string_view(begin, static_cast<std::size_t>(end - begin))); }
    void push_clip(ImVec2 min, ImVec2 max);
    void pop_clip();

    ImDrawList* target() const { return dl_; }

private:
    void flush();
    ImDrawList* dl_;
    List list_;
};

}  // namespace ropelab::draw
