#include "plot/display_list.h"

namespace ropelab::draw {

void List::line(Point a, Point b, Color color, float width) { items_.push_back(Polyline{{a, b}, color, width, false}); }

void List::polyline(std::vector<Point> points, Color color, float width, bool closed) {
    if (points.size() > 1) items_.push_back(Polyline{std::move(points), color, width, closed});
}

void List::segments(std::vector<Point> points, Color color, float width) {
    if (points.size() > 1) items_.push_back(Segments{std::move(points), color, width});
}

void List::rect(Point min, Point max, Color color, float width, float rounding) {
    items_.push_back(Rect{min, max, color, width, rounding});
}

void List::fill_rect(Point min, Point max, Color color, float rounding) {
    items_.push_back(Rect{min, max, color, 0.0f, rounding});
}

void List::triangle(Point a, Point b, Point c, Color color) { items_.push_back(Polygon{{a, b, c}, color}); }

void List::circle(Point center, float radius, Color color, float width, int segments) {
    items_.push_back(Circle{center, radius, color, width, segments});
}

void List::disc(Point center, float radius, Color color, int segments) {
    items_.push_back(Circle{center, radius, color, 0.0f, segments});
}

void List::bezier(Point a, Point b, Point c, Point d, Color color, float width) {
    constexpr int kSteps = 24;
    std::vector<Point> points;
    points.reserve(kSteps + 1);
    for (int s = 0; s <= kSteps; ++s) {
        const float t = static_cast<float>(s) / kSteps, u = 1.0f - t;
        // Bernstein weights of the four control points.
        const float w0 = u * u * u, w1 = 3 * u * u * t, w2 = 3 * u * t * t, w3 = t * t * t;
        points.push_back({w0 * a.x + w1 * b.x + w2 * c.x + w3 * d.x, w0 * a.y + w1 * b.y + w2 * c.y + w3 * d.y});
    }
    items_.push_back(Polyline{std::move(points), color, width, false});
}

Text typeset_text(Point at, std::string_view marked, float size, Color color, float em, float ascent) {
    math_text::Typeset t = math_text::typeset(marked);
    return Text{at, std::move(t.text), size, color, {}, em, ascent, std::move(t.spans)};
}

void List::text(Point at, std::string text, float size, Color color) {
    if (!text.empty()) items_.push_back(typeset_text(at, text, size, color));
}

void List::image(Point min, Point max, int width, int height, std::vector<std::uint8_t> rgba) {
    items_.push_back(Image{min, max, width, height, std::move(rgba)});
}

void List::push_clip(Point min, Point max) { items_.push_back(PushClip{min, max}); }

void List::pop_clip() { items_.push_back(PopClip{}); }

}  // namespace ropelab::draw
