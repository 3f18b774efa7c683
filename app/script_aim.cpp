// Script's clicks and drags: aiming at a widget where the last frame laid it out, as a person
// would — waiting for it to appear, scrolling its panel towards it, aiming again if it moved.
#include <cmath>
#include <cstdio>
#include <memory>
#include <utility>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <fmt/format.h>

#include "script.h"
#include "ui/widgets.h"

namespace ropelab {

namespace {

constexpr int kDragFrames = 8;
constexpr int kMaxScrollFrames = 60;
constexpr int kAppearFrames = 8;

// The first visible widget with that label in a frame's log, else the first hidden one.
const ui::Widget* find_widget(const std::vector<ui::Widget>& frame, const std::string& label) {
    const ui::Widget* hidden = nullptr;
    for (const ui::Widget& w : frame) {
        if (w.label != label || w.kind == "message") continue;
        if (w.visible) return &w;
        if (!hidden) hidden = &w;
    }
    return hidden;
}

const ui::Widget* find_widget(const std::string& label) { return find_widget(ui::log().this_frame(), label); }

// The point at that fraction of the widget.
std::pair<double, double> point_on(const ui::Widget& widget, std::pair<double, double> at) {
    return {widget.x + widget.w * at.first, widget.y + widget.h * at.second};
}

}  // namespace

// Shared by the frames an aim queues, since any of them may aim again.
struct Script::Aim {
    std::string label;
    bool optional = false;
    double dx = 0, dy = 0;
    bool drag = false;
    std::pair<double, double> at;
};

// Aims at the widget as laid out in the last frame: scrolls its panel with the wheel until it is
// in view, moves the pointer there, presses, (drags,) releases — one frame each.
bool Script::click(const std::string& label, bool optional, double dx, double dy, bool drag, std::pair<double, double> at) {
    auto aim = std::make_shared<Aim>(Aim{.label = label, .optional = optional, .dx = dx, .dy = dy, .drag = drag, .at = at});
    actions_.push_back([this, aim](Window& w) { return aim_at(aim, w, 0); });
    return true;
}

bool Script::aim_at(const std::shared_ptr<Aim>& aim, Window& w, int tries) {
    const ui::Widget* widget = find_widget(aim->label);
    if (!widget && tries < kAppearFrames) return aim_again(aim, tries);  // a popup closing or a section opening: give it a few frames
    if (!widget) {
        return give_up(*aim, fmt::format("no widget \"{}\" in view", aim->label),
                       fmt::format("no visible widget labelled \"{}\"", aim->label));
    }
    const bool in_popup = !widget->item_of.empty();
    if (!widget->visible && in_popup && tries < kAppearFrames) return aim_again(aim, tries);  // a popup placing itself: wait, do not scroll
    if (!widget->visible) return scroll_towards(aim, *widget, w, tries);
    const auto [x, y] = point_on(*widget, aim->at);
    // A person aims at what holds still: a layout that moved in the last frame (a section
    // opening, a scrollbar appearing) is given another frame before the pointer goes there.
    const ui::Widget* before = find_widget(previous_layout_, aim->label);
    const bool held_still = before && before->visible && point_on(*before, aim->at) == std::pair{x, y};
    if (!held_still && tries < kMaxScrollFrames) return aim_again(aim, tries);
    std::printf("script: %s \"%s\" (%s) at %.0f, %.0f\n", aim->drag ? "drag" : "click", aim->label.c_str(), widget->kind.c_str(), x, y);
    w.move_pointer(x, y);
    press(aim, x, y, tries);
    return true;
}

bool Script::aim_again(const std::shared_ptr<Aim>& aim, int tries) {
    actions_.push_front([this, aim, tries](Window& again) { return aim_at(aim, again, tries + 1); });
    return true;
}

bool Script::give_up(const Aim& aim, const std::string& skipped, const std::string& problem) {
    if (aim.optional) {
        std::printf("script: skipped: %s\n", skipped.c_str());
        return true;
    }
    error_ = fmt::format("{}: {}", where(), problem);
    return false;
}

bool Script::scroll_towards(const std::shared_ptr<Aim>& aim, const ui::Widget& widget, Window& w, int tries) {
    if (tries >= kMaxScrollFrames) {
        return give_up(*aim, fmt::format("\"{}\" stays out of view", aim->label),
                       fmt::format("\"{}\" stays out of view after scrolling", aim->label));
    }
    // The wheel over its panel, towards it.
    w.move_pointer((widget.clip[0] + widget.clip[2]) / 2, (widget.clip[1] + widget.clip[3]) / 2);
    w.send_scroll(widget.y < widget.clip[1] ? 1.0 : -1.0);
    // A frame for the scroll to settle, then aim again at where the widget is now.
    aim_again(aim, tries);
    actions_.push_front([](Window&) { return true; });
    return true;
}

void Script::point(const std::string& label, std::pair<double, double> at, double notches, std::pair<double, double> glide) {
    auto from = std::make_shared<std::pair<double, double>>();  // where the pointer landed
    actions_.push_back([this, label, at, from](Window& w) {
        const ui::Widget* widget = find_widget(label);
        if (!widget || !widget->visible) {
            error_ = fmt::format("{}: no visible widget labelled \"{}\"", where(), label);
            return false;
        }
        *from = {widget->x + widget->w * at.first, widget->y + widget->h * at.second};
        w.move_pointer(from->first, from->second);
        return true;
    });
    // Across, as a hand moves a pointer: a step each frame (a pen stroke while D is held).
    if (glide.first != 0.0 || glide.second != 0.0) {
        for (int k = 1; k <= kDragFrames; ++k) {
            actions_.push_back([from, glide, k](Window& w) {
                w.move_pointer(from->first + glide.first * k / kDragFrames, from->second + glide.second * k / kDragFrames);
                return true;
            });
        }
    }
    // The wheel a frame after the move, once ImGui knows where the pointer is.
    if (notches != 0.0) actions_.push_back([notches](Window& w) { w.send_scroll(notches); return true; });
}

GLFWwindow* Script::audience_or_error() {
    if (!audience_) error_ = fmt::format("{}: no audience window (gui --presenter --lesson …)", where());
    return audience_;
}

// The audience window's buttons through its own callbacks (audience.cpp's, which hand the pointer
// to the lab), called as GLFW calls them for a mouse. The pointer is warped there from the
// lecturer's window, which keeps the focus (GLFW warps only a focused window's pointer, and
// focusing the audience's would raise it and take the keyboard from the lecturer).
void Script::point_at_audience(std::pair<double, double> at, double dx, double dy, bool press, bool right_button) {
    const int which = right_button ? GLFW_MOUSE_BUTTON_RIGHT : GLFW_MOUSE_BUTTON_LEFT;
    const auto button = [which](GLFWwindow* w, bool down) {
        const GLFWmousebuttonfun pressed = glfwSetMouseButtonCallback(w, nullptr);
        glfwSetMouseButtonCallback(w, pressed);
        if (pressed) pressed(w, which, down ? GLFW_PRESS : GLFW_RELEASE, 0);
    };
    // The pointer to frame k of the glide: a fraction of the audience window, moved by k/8 of
    // dx, dy, in the lecturer's window's coordinates.
    const auto move = [this, at, dx, dy](Window& lecturer, int k) {
        GLFWwindow* w = audience_or_error();
        if (!w) return false;
        int width = 0, height = 0, ax = 0, ay = 0, lx = 0, ly = 0;
        glfwGetWindowSize(w, &width, &height);
        glfwGetWindowPos(w, &ax, &ay);
        glfwGetWindowPos(lecturer.glfw_window(), &lx, &ly);
        const double x = width * at.first + dx * k / kDragFrames, y = height * at.second + dy * k / kDragFrames;
        if (k == 0) std::printf("script: the audience window at %.0f, %.0f\n", x, y);
        glfwSetCursorPos(lecturer.glfw_window(), ax - lx + x, ay - ly + y);
        return true;
    };
    actions_.push_back([move](Window& lecturer) { return move(lecturer, 0); });
    if (press) actions_.push_back([this, button](Window&) {
        GLFWwindow* w = audience_or_error();
        if (w) button(w, true);
        return w != nullptr;
    });
    if (dx != 0.0 || dy != 0.0) {
        for (int k = 1; k <= kDragFrames; ++k) actions_.push_back([move, k](Window& lecturer) { return move(lecturer, k); });
    }
    if (press) actions_.push_back([this, button](Window&) {
        GLFWwindow* w = audience_or_error();
        if (w) button(w, false);
        return w != nullptr;
    });
}

void Script::audience_key(int key, bool press) {
    actions_.push_back([this, key, press](Window&) {
        GLFWwindow* w = audience_or_error();
        if (!w) return false;
        const GLFWkeyfun keyed = glfwSetKeyCallback(w, nullptr);
        glfwSetKeyCallback(w, keyed);
        if (keyed) keyed(w, key, glfwGetKeyScancode(key), press ? GLFW_PRESS : GLFW_RELEASE, 0);
        return true;
    });
}

// The press, the drag's moves and the release, one frame each, ahead of anything queued.
void Script::press(const std::shared_ptr<Aim>& aim, double x, double y, int tries) {
    std::deque<Action> rest;
    // Press only where the widget still is: if the layout moved since the aim (a panel's scroll
    // clamped a frame after its content changed can carry the widget out of view), aim again.
    rest.push_back([this, aim, x, y, tries](Window& win) {
        const ui::Widget* now = find_widget(aim->label);
        const bool still_there = now && now->visible && std::abs(point_on(*now, aim->at).first - x) <= 1 &&
                                 std::abs(point_on(*now, aim->at).second - y) <= 1;
        if (!still_there && tries < kMaxScrollFrames) {
            // Drop this attempt's drag and release frames, then aim afresh once it settles.
            const std::size_t attempt = aim->drag ? kDragFrames + 1 : 1;
            actions_.erase(actions_.begin(), actions_.begin() + static_cast<std::ptrdiff_t>(std::min(attempt, actions_.size())));
            return aim_again(aim, tries);
        }
        win.send_mouse_button(true);
        return true;
    });
    if (aim->drag) {
        for (int k = 1; k <= kDragFrames; ++k) {
            rest.push_back([x, y, dx = aim->dx, dy = aim->dy, k](Window& win) {
                win.move_pointer(x + dx * k / kDragFrames, y + dy * k / kDragFrames);
                win.send_mouse_button(true);  // still held
                return true;
            });
        }
    }
    rest.push_back([](Window& win) { win.send_mouse_button(false); return true; });
    actions_.insert(actions_.begin(), rest.begin(), rest.end());
}

}  // namespace ropelab
