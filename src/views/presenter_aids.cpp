#include "views/presenter_aids.h"
#include "plot/screen.h"
#include "ui/widgets.h"

#include <algorithm>
#include <utility>

namespace ropelab::views {

namespace {

constexpr double kTrailSeconds = 0.6;  // how long a laser dot takes to fade
// The pen's ink: a saturated magenta no view draws with, on a dark rim, readable on both themes
// and on a projector. Bounded so that a long talk's scribbles cannot grow without end.
constexpr ImU32 kPenInk = IM_COL32(255, 0, 170, 255), kPenRim = IM_COL32(20, 0, 30, 200);
constexpr std::size_t kMaxPenPoints = 20000;

// A laser dot: a soft red glow, a saturated core and a white centre, readable on both themes
// and on a projector.
void laser_dot(draw::Canvas& dl, ImVec2 at, float radius, float alpha) {
    const auto red = [&](float a) { return IM_COL32(255, 30, 30, static_cast<int>(255 * a * alpha)); };
    dl.disc(at, radius * 2.2f, red(0.18f), 24);
    dl.disc(at, radius * 1.5f, red(0.35f), 24);
    dl.disc(at, radius, red(1.0f), 24);
    dl.disc(at, radius * 0.45f, IM_COL32(255, 235, 235, static_cast<int>(255 * alpha)), 16);
}

}  // namespace

void PresenterAids::begin_frame() {
    last_rects_ = std::move(rects_);
    rects_.clear();
}

void PresenterAids::add_view(int index, ImVec2 min, ImVec2 max) { rects_.push_back({index, min, max}); }

int PresenterAids::view_under(ImVec2 at) const {
    for (const ViewRect& r : last_rects_) {
        if (at.x >= r.min.x && at.x < r.max.x && at.y >= r.min.y && at.y < r.max.y) return r.index + 1;
    }
    return 0;
}

void PresenterAids::follow_pointer(double seconds, bool held, ImVec2 at) {
    clock_ += seconds;
    while (!trail_.empty() && clock_ - trail_.front().time > kTrailSeconds) trail_.pop_front();
    if (held && at.x > -1e6f && at.y > -1e6f) trail_.push_back({at, clock_});
}

void PresenterAids::follow_pen(bool down, ImVec2 at) {
    const bool on_screen = at.x > -1e6f && at.y > -1e6f;
    if (!down || !on_screen) {
        pen_down_ = false;
        return;
    }
    std::size_t points = 0;
    for (const auto& s : strokes_) points += s.size();
    if (points >= kMaxPenPoints) return;
    if (!pen_down_) strokes_.emplace_back();
    pen_down_ = true;
    auto& stroke = strokes_.back();
    if (stroke.empty() || stroke.back().x != at.x || stroke.back().y != at.y) stroke.push_back(at);
}

void PresenterAids::clear_pen() {
    strokes_.clear();
    pen_down_ = false;
}

void PresenterAids::clear_ink() {
    clear_pen();
    trail_.clear();
}

bool PresenterAids::views_box(ImVec2& min, ImVec2& max) const {
    if (rects_.empty()) return false;
    min = rects_.front().min;
    max = rects_.front().max;
    for (const ViewRect& r : rects_) {
        min = ImVec2(std::min(min.x, r.min.x), std::min(min.y, r.min.y));
        max = ImVec2(std::max(max.x, r.max.x), std::max(max.y, r.max.y));
    }
    return true;
}

void PresenterAids::reveal_hint(ImVec2 view_min, ImVec2 view_size, bool presenting) const {
    const float pad = 0.5f * ImGui::GetFontSize();
    // On a slide the room reads it: the key is the lecturer's (in the scene's notes), not theirs.
    // The short form where a small view has no room for the whole sentence.
    const char* hint = presenting ? "Predict the curve" : "Predict the curve — press R to reveal";
    if (ImGui::CalcTextSize(hint).x + 2 * pad > view_size.x) hint = presenting ? "Predict" : "Predict — R reveals";
    const ImVec2 size = ImGui::CalcTextSize(hint);
    const ImVec2 at(view_min.x + (view_size.x - size.x) / 2, view_min.y + (view_size.y - size.y) / 2);
    draw::Canvas dl = draw::Canvas::window();
    dl.fill_rect(ImVec2(at.x - pad, at.y - pad), ImVec2(at.x + size.x + pad, at.y + size.y + pad),
                 ImGui::GetColorU32(ImGuiCol_PopupBg), pad);
    dl.rect(ImVec2(at.x - pad, at.y - pad), ImVec2(at.x + size.x + pad, at.y + size.y + pad), ImGui::GetColorU32(ImGuiCol_Border), 1.0f, pad);
    dl.text(at, ImGui::GetColorU32(ImGuiCol_Text), hint);
    ui::log().record_box(hint, "hint", at, size);
}

void PresenterAids::draw(int spotlight, std::span<const double> still_laser) const {
    draw::Canvas dl = draw::Canvas::foreground();
    if (spotlight > 0 && std::any_of(rects_.begin(), rects_.end(), [&](const ViewRect& r) { return r.index + 1 == spotlight; })) {
        // The background colour over the others: darker on the dark theme, paler on the light.
        const ImU32 veil = ImGui::GetColorU32(ImGuiCol_WindowBg, 0.82f);
        for (const ViewRect& r : rects_) {
            if (r.index + 1 != spotlight) dl.fill_rect(r.min, r.max, veil);
        }
    }
    const float radius = 0.4f * ImGui::GetFontSize();
    // The pen under the laser: a dark rim, then the ink, round at every joint.
    const float ink = std::max(3.0f, 0.22f * ImGui::GetFontSize());
    for (const auto& [width, color] : {std::pair{ink + 3.0f, kPenRim}, std::pair{ink, kPenInk}}) {
        for (const auto& stroke : strokes_) {
            for (std::size_t i = 0; i < stroke.size(); ++i) {
                if (i > 0) dl.line(stroke[i - 1], stroke[i], color, width);
                dl.disc(stroke[i], width / 2, color, 12);
            }
        }
    }
    for (const Dot& d : trail_) {
        const auto fade = static_cast<float>(1.0 - (clock_ - d.time) / kTrailSeconds);
        laser_dot(dl, d.at, radius * (0.5f + 0.5f * fade), fade);
    }
    if (still_laser.size() == 2) {
        const ImVec2 origin = ImGui::GetMainViewport()->Pos, size = ImGui::GetMainViewport()->Size;
        laser_dot(dl, ImVec2(origin.x + static_cast<float>(still_laser[0]) * size.x,
                             origin.y + static_cast<float>(still_laser[1]) * size.y),
                  radius, 1.0f);
    }
}

}  // namespace ropelab::views
