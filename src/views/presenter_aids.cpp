#include "views/presenter_aids.h"
#include "plot/screen.h"

#include <algorithm>

namespace ropelab::views {

namespace {

constexpr double kTrailSeconds = 0.6;  // how long a laser dot takes to fade

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
