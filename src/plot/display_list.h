#pragma once
// A figure as a list of drawing primitives in pixel coordinates: what a plot or a view draws,
// independent of who renders it. The screen renderer (plot/screen.h) turns a list into Dear
// ImGui draw commands; the SVG and PDF writers (plot/svg.h, plot/pdf.h) write it as a file, with
// text kept as text. No ImGui here: a display list is plain data.
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ui/math_text.h"

namespace ropelab::draw {

struct Point {
    float x = 0, y = 0;
};

// 0xAABBGGRR: the packing ImGui's IM_COL32 uses, so colours pass through unchanged.
using Color = std::uint32_t;
inline constexpr Color rgba(int r, int g, int b, int a = 255) {
    return static_cast<Color>(r) | static_cast<Color>(g) << 8 | static_cast<Color>(b) << 16 |
           static_cast<Color>(a) << 24;
}
inline int red(Color c) { return static_cast<int>(c & 0xFF); }
inline int green(Color c) { return static_cast<int>(c >> 8 & 0xFF); }
inline int blue(Color c) { return static_cast<int>(c >> 16 & 0xFF); }
inline int alpha(Color c) { return static_cast<int>(c >> 24 & 0xFF); }

// An open or closed line through `points`.
struct Polyline {
    std::vector<Point> points;
    Color color = 0;
    float width = 1.0f;
    bool closed = false;
};

// Separate segments, points taken two at a time: a decimated curve's columns.
struct Segments {
    std::vector<Point> points;
    Color color = 0;
    float width = 1.0f;
};

// A filled polygon (rectangles, triangles, arrow heads): convex, in drawing order.
struct Polygon {
    std::vector<Point> points;
    Color color = 0;
};

// An axis-aligned rectangle; width 0: filled.
struct Rect {
    Point min, max;
    Color color = 0;
    float width = 0.0f;
    float rounding = 0.0f;  // corner radius
};

// width 0: filled. `segments` is how finely the screen draws it (0: ImGui's choice); files
// draw a true circle.
struct Circle {
    Point center;
    float radius = 0;
    Color color = 0;
    float width = 0.0f;
    int segments = 0;
};

// A line of text: `at` is its box's top-left corner (as ImGui places text), `size` the font's
// pixel size. With `advances` (one per character, in pixels) the characters sit exactly where
// the screen put them; without, the writer's font lays them out.
// `em` and `ascent` are the font's em square and the baseline's depth below `at`, in pixels at
// this size (ImGui sizes a font by its line height, files by its em): with them a file's text
// sits on the screen's baseline at the screen's size.
// `spans` typeset maths (ui/math_text.h): `text` is what is shown, markup already read, and
// each span of it sits at its level — scripts smaller, raised or lowered (math_text::placement);
// no spans: all on the baseline. `advances` then hold each character's advance at its own size.
struct Text {
    Point at;
    std::string text;  // UTF-8
    float size = 13.0f;
    Color color = 0;
    std::vector<float> advances;
    float em = 0.0f, ascent = 0.0f;  // 0: estimated from size
    std::vector<math_text::Span> spans;
};

// The text of `marked` with its maths markup read into spans (the way every text enters a list).
Text typeset_text(Point at, std::string_view marked, float size, Color color, float em = 0.0f, float ascent = 0.0f);

// Pixels (RGBA, top row first) stretched over [min, max].
struct Image {
    Point min, max;
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgba;
};

// Everything after it is cut to [min, max], until the matching PopClip.
struct PushClip {
    Point min, max;
};
struct PopClip {};

using Item = std::variant<Polyline, Segments, Polygon, Rect, Circle, Text, Image, PushClip, PopClip>;

// Builds a list; the names follow what is drawn, not how.
class List {
public:
    void line(Point a, Point b, Color color, float width = 1.0f);
    void polyline(std::vector<Point> points, Color color, float width = 1.0f, bool closed = false);
    void segments(std::vector<Point> points, Color color, float width = 1.0f);
    void rect(Point min, Point max, Color color, float width = 1.0f, float rounding = 0.0f);
    void fill_rect(Point min, Point max, Color color, float rounding = 0.0f);
    void triangle(Point a, Point b, Point c, Color color);
    void circle(Point center, float radius, Color color, float width = 1.0f, int segments = 0);
    void disc(Point center, float radius, Color color, int segments = 0);
    // A cubic Bézier from a to d, as a polyline fine enough at any zoom of a figure.
    void bezier(Point a, Point b, Point c, Point d, Color color, float width = 1.0f);
    // `text` may hold maths markup (ui/math_text.h): it is typeset.
    void text(Point at, std::string text, float size, Color color);
    void image(Point min, Point max, int width, int height, std::vector<std::uint8_t> rgba);
    void push_clip(Point min, Point max);
    void pop_clip();
    void add(Item item) { items_.push_back(std::move(item)); }

    const std::vector<Item>& items() const { return items_; }
    bool empty() const { return items_.empty(); }
    void clear() { items_.clear(); }

private:
    std::vector<Item> items_;
};

// A whole frame or view as a file shows it: its size, a background, and the items in order.
struct Figure {
    float width = 0, height = 0;
    Color background = 0;  // alpha 0: none
    std::vector<Item> items;
};

}  // namespace ropelab::draw
