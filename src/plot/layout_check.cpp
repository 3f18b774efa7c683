#include "plot/layout_check.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ropelab::draw {

namespace {

Box intersection(const Box& a, const Box& b) {
    return {std::max(a.x0, b.x0), std::max(a.y0, b.y0), std::min(a.x1, b.x1), std::min(a.y1, b.y1)};
}

bool empty(const Box& b) { return b.x1 <= b.x0 || b.y1 <= b.y0; }

// Two boxes overlap when they share more than `slack` pixels across and down.
bool overlap(const Box& a, const Box& b, float slack) {
    const Box both = intersection(a, b);
    return both.width() > slack && both.height() > slack;
}

// How far `box` sticks out of `clip` on its worst side.
float overhang(const Box& box, const Box& clip) {
    return std::max({clip.x0 - box.x0, clip.y0 - box.y0, box.x1 - clip.x1, box.y1 - clip.y1});
}

std::size_t codepoints(const std::string& s) {
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

bool blank(const std::string& s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t' || c == '\n'; });
}

// A run drawn as it is seen: its whole box and the part of it its clip lets through.
struct Seen {
    const Text* text;
    Box box, visible;
};

// A filled box drawn over whatever came before it.
struct Patch {
    std::size_t order;  // how many runs were drawn before it
    Box visible;
};

// The same words drawn twice within a pixel or two (a shadow, an outline) read as one run.
bool doubled(const Seen& a, const Seen& b) {
    return a.text->text == b.text->text && std::abs(a.box.x0 - b.box.x0) <= 2.0f && std::abs(a.box.y0 - b.box.y0) <= 2.0f;
}

}  // namespace

Box text_box(const Text& text) {
    // Without the screen's advances, about half an em a character (ImGui's default font).
    const float width = text.advances.empty() ? 0.5f * text.size * static_cast<float>(codepoints(text.text))
                                              : std::accumulate(text.advances.begin(), text.advances.end(), 0.0f);
    return {text.at.x, text.at.y, text.at.x + width, text.at.y + text.size};
}

std::vector<LayoutFinding> check_layout(const Figure& figure, float slack) {
    std::vector<LayoutFinding> out;
    std::vector<Box> clips{{0, 0, figure.width, figure.height}};
    std::vector<Seen> seen;
    std::vector<Patch> patches;
    for (const Item& item : figure.items) {
        if (const auto* push = std::get_if<PushClip>(&item)) {
            clips.push_back(intersection(clips.back(), {push->min.x, push->min.y, push->max.x, push->max.y}));
        } else if (std::holds_alternative<PopClip>(item)) {
            if (clips.size() > 1) clips.pop_back();
        } else if (const auto* rect = std::get_if<Rect>(&item)) {
            const Box visible = intersection(clips.back(), {rect->min.x, rect->min.y, rect->max.x, rect->max.y});
            if (rect->width == 0.0f && alpha(rect->color) > 0 && !empty(visible)) patches.push_back({seen.size(), visible});
        } else if (const auto* text = std::get_if<Text>(&item)) {
            if (blank(text->text)) continue;
            const Box box = text_box(*text);
            const Box visible = intersection(box, clips.back());
            if (empty(visible)) continue;  // not drawn at all: scrolled away, nothing to read
            if (overhang(box, clips.back()) > slack) {
                out.push_back({LayoutFinding::Kind::Cut, text->text, box, "", clips.back()});
            }
            seen.push_back({text, box, visible});
        }
    }
    for (std::size_t i = 0; i < seen.size(); ++i) {
        for (std::size_t j = i + 1; j < seen.size(); ++j) {
            if (overlap(seen[i].visible, seen[j].visible, slack) && !doubled(seen[i], seen[j])) {
                out.push_back({LayoutFinding::Kind::Overlap, seen[i].text->text, seen[i].box, seen[j].text->text, seen[j].box});
            }
        }
        for (const Patch& patch : patches) {
            if (patch.order > i && overlap(seen[i].visible, patch.visible, slack)) {
                out.push_back({LayoutFinding::Kind::Covered, seen[i].text->text, seen[i].box, "", patch.visible});
            }
        }
    }
    return out;
}

const char* kind_name(LayoutFinding::Kind kind) {
    switch (kind) {
        case LayoutFinding::Kind::Overlap: return "overlap";
        case LayoutFinding::Kind::Covered: return "covered";
        case LayoutFinding::Kind::Cut: return "cut";
    }
    return "?";
}

}  // namespace ropelab::draw
