// tests/ui: the bound on screen and the plots' zoom, the numbers view's legibility, and the
// presenter's blank, in the real window: Ctrl+wheel zooms the score plot's y about the pointer,
// Shift+drag zooms to a box, zooming out stops at the data, the y range is the curve's, never
// RoFormer's bound (arrows name the bound where it runs off), the difference plot shares the score plot's x.
#include "lab_test.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace ropelab {
namespace {

struct Ranges {
    plot::Range x, y;
};

// The plot's visible ranges as drawn in the last frame (its "plot range" log line).
std::optional<Ranges> drawn_ranges(const std::string& plot) {
    for (const ui::Widget& w : ui::log().this_frame()) {
        if (w.label != plot || w.kind != "plot range") continue;
        std::istringstream in(w.value);
        Ranges r;
        in >> r.x.min >> r.x.max >> r.y.min >> r.y.max;
        return r;
    }
    return std::nullopt;
}

std::optional<ui::Widget> logged(const std::string& label, const std::string& kind) {
    for (const ui::Widget& w : ui::log().this_frame()) {
        if (w.label == label && w.kind == kind) return w;
    }
    return std::nullopt;
}

class BoundTest : public LabTest {
protected:
    static constexpr std::int64_t kN = 4096;

    void score_plot_alone(bool bound) {
        set([&](LabParams& p) {
            p.encoding = Encoding::Rope;
            p.vectors = VectorChoice::Random;
            p.seed = 3;
            p.max_distance = kN;
            p.log_distance = false;
            p.show_bound = bound;
            p.focused_view = 2;
        });
        ASSERT_GE(frames_until_exact(), 0);
        frames(3);
    }

    // The bound's largest value over every Δ: factor · B(Δ) from the device's bound series, + pass.
    double bound_top() const {
        const LabData& d = lab_->compute().data();
        const std::vector<float> b = lab_->compute().device().read_series(Series::Bound);
        double largest = 0;
        for (float v : b) largest = std::max(largest, static_cast<double>(v));
        return d.coefficients.passthrough + d.bound_factor * largest;
    }

    // One wheel notch over `at`, with Ctrl held or not.
    void wheel(ImVec2 at, float notches, bool ctrl) {
        frames(2, [&](int k) {
            ImGui::GetIO().MousePos = at;
            ImGui::GetIO().KeyCtrl = ctrl;
            ImGui::GetIO().MouseWheel = k == 0 ? notches : 0.0f;
        });
        frames(1, [](int) { ImGui::GetIO().KeyCtrl = false; });
    }

    ImVec2 plot_point(float fx, float fy) {
        const ui::Widget plot = *logged("scores", "plot");
        return ImVec2(plot.x + plot.w * fx, plot.y + plot.h * fy);
    }
};

// With the bound on, the score plot's y range is still fitted to the curve (the bound, ten times
// it and more, would flatten the decay); arrows at the top and bottom edges name the bound's value.
TEST_F(BoundTest, ScoreYRangeIsTheCurvesAndArrowsNameTheBound) {
    score_plot_alone(true);
    const auto r = drawn_ranges("scores");
    ASSERT_TRUE(r);
    const double top = bound_top(), pass = lab_->compute().data().coefficients.passthrough;
    ASSERT_GT(top, pass);
    const std::vector<float> scores = lab_->compute().device().read_series(Series::Scores);
    const auto [low, high] = std::minmax_element(scores.begin(), scores.end());
    EXPECT_LE(r->y.min, *low);
    EXPECT_GE(r->y.max, *high);
    // The curve is what sets the range: a little padding, no more.
    EXPECT_LT(r->y.max - r->y.min, 1.2 * (*high - *low));
    EXPECT_LT(r->y.max, top);
    bool up = false, down = false;
    for (const ui::Widget& w : ui::log().this_frame()) {
        if (w.kind != "off-scale note") continue;
        up = up || w.label.find("↑") != std::string::npos;
        down = down || w.label.find("↓") != std::string::npos;
    }
    EXPECT_TRUE(up);
    EXPECT_TRUE(down);
}

// Ctrl+wheel zooms y about the pointer, x untouched; zoomed in on the curve, arrows at the top and
// bottom edges name the bound's value; Ctrl+wheel out stops at the data's range, wheel out at the
// full x range.
TEST_F(BoundTest, CtrlWheelZoomsYAndZoomOutStopsAtTheData) {
    score_plot_alone(true);
    const Ranges full = *drawn_ranges("scores");
    const ImVec2 at = plot_point(0.5f, 0.5f);
    wheel(at, 1.0f, true);
    const Ranges one = *drawn_ranges("scores");
    EXPECT_EQ(one.x.min, full.x.min);
    EXPECT_EQ(one.x.max, full.x.max);
    EXPECT_NEAR(one.y.max - one.y.min, 0.85 * (full.y.max - full.y.min), 1e-9 * (full.y.max - full.y.min));
    // The value under the pointer stays where it was.
    const ui::Widget plot = *logged("scores", "plot");
    (void)plot;
    const double before = full.y.min + 0.5 * (full.y.max - full.y.min);  // about mid-plot (the area's centre is near it)
    EXPECT_GT(one.y.max, before);
    EXPECT_LT(one.y.min, before);
    EXPECT_TRUE(lab_->plots().at("scores").user_view);
    EXPECT_TRUE(lab_->plots().at("scores").y.valid());

    for (int k = 0; k < 12; ++k) wheel(at, 1.0f, true);  // 0.85^13 ≈ 0.12 of the range
    const double top = bound_top(), pass = lab_->compute().data().coefficients.passthrough;
    const Ranges zoomed = *drawn_ranges("scores");
    ASSERT_LT(zoomed.y.max, top);
    bool up = false, down = false;
    for (const ui::Widget& w : ui::log().this_frame()) {
        if (w.kind != "off-scale note") continue;
        std::istringstream in(w.label);
        std::string word, arrow;
        double value = 0;
        in >> word >> value >> arrow;
        EXPECT_EQ(word, "bound");
        if (arrow == "↑") {
            up = true;
            EXPECT_NEAR(value, top, 1e-5 * top) << w.label;
        } else if (arrow == "↓") {
            down = true;
            EXPECT_NEAR(value, 2 * pass - top, 1e-5 * top) << w.label;
        }
        EXPECT_GE(w.h, 10.0f);
    }
    EXPECT_TRUE(up);
    EXPECT_TRUE(down);

    for (int k = 0; k < 40; ++k) wheel(at, -1.0f, true);
    const Ranges out_y = *drawn_ranges("scores");
    EXPECT_NEAR(out_y.y.min, full.y.min, 1e-9 * (full.y.max - full.y.min));
    EXPECT_NEAR(out_y.y.max, full.y.max, 1e-9 * (full.y.max - full.y.min));
    for (int k = 0; k < 40; ++k) wheel(at, -1.0f, false);
    const Ranges out_x = *drawn_ranges("scores");
    EXPECT_EQ(out_x.x.min, 0.0);
    EXPECT_EQ(out_x.x.max, static_cast<double>(kN - 1));
}

// Shift+drag a rectangle: x and y become the box's (inside the old ranges, about its share of
// them); the right button stays the laser pointer.
TEST_F(BoundTest, ShiftDragZoomsToABox) {
    score_plot_alone(true);
    const Ranges full = *drawn_ranges("scores");
    const ImVec2 from = plot_point(0.35f, 0.35f), to = plot_point(0.65f, 0.7f);
    frames(8, [&](int k) {
        ImGuiIO& io = ImGui::GetIO();
        io.KeyShift = true;
        const float t = std::clamp((k - 1) / 4.0f, 0.0f, 1.0f);
        io.MousePos = ImVec2(from.x + t * (to.x - from.x), from.y + t * (to.y - from.y));
        io.MouseDown[0] = k >= 1 && k <= 6;
    });
    frames(2, [](int) { ImGui::GetIO().KeyShift = false; });
    const Ranges box = *drawn_ranges("scores");
    EXPECT_GT(box.x.min, full.x.min);
    EXPECT_LT(box.x.max, full.x.max);
    EXPECT_GT(box.y.min, full.y.min);
    EXPECT_LT(box.y.max, full.y.max);
    const double x_share = (box.x.max - box.x.min) / (full.x.max - full.x.min);
    const double y_share = (box.y.max - box.y.min) / (full.y.max - full.y.min);
    EXPECT_GT(x_share, 0.25);  // the box is 0.3 of the frame's width, a little more of the plot area's
    EXPECT_LT(x_share, 0.45);
    EXPECT_GT(y_share, 0.3);  // 0.35 of the frame's height
    EXPECT_LT(y_share, 0.6);
    // Double-click: back to the data.
    const ImVec2 centre = plot_point(0.5f, 0.5f);
    frames(6, [&](int k) {
        ImGui::GetIO().MousePos = centre;
        ImGui::GetIO().MouseDown[0] = k == 1 || k == 3;
    });
    frames(2);
    EXPECT_FALSE(lab_->plots().at("scores").user_view);
}

// The naive − exact plot below the scores follows the score plot's x zoom.
TEST_F(BoundTest, DifferencePlotSharesTheScorePlotsX) {
    set([&](LabParams& p) {
        p.encoding = Encoding::Rope;
        p.vectors = VectorChoice::Random;
        p.max_distance = kN;
        p.log_distance = false;
        p.angle_mode = AngleMode::Bf16;
        p.mode_difference = true;
        p.focused_view = 2;
    });
    ASSERT_GE(frames_until_exact(), 0);
    frames(3);
    ASSERT_TRUE(drawn_ranges("mode error"));
    for (int k = 0; k < 3; ++k) wheel(plot_point(0.3f, 0.5f), 1.0f, false);
    const Ranges scores = *drawn_ranges("scores"), below = *drawn_ranges("mode error");
    EXPECT_LT(scores.x.max - scores.x.min, 0.7 * (kN - 1));
    EXPECT_EQ(below.x.min, scores.x.min);
    EXPECT_EQ(below.x.max, scores.x.max);
}

// B blanks the screen to black in every theme (a light grey lit the room before).
TEST_F(BoundTest, BlankIsBlackInEveryTheme) {
    for (const Theme theme : {Theme::Dark, Theme::Light, Theme::Projector}) {
        set([&](LabParams& p) {
            p.theme = theme;
            p.blank = true;
        });
        const Image image = capture(4);
        ASSERT_GT(image.width, 0);
        int lit = 0;
        for (int y = 0; y < image.height; y += 7) {
            for (int x = 0; x < image.width; x += 7) {
                if (std::max({image.channel(x, y, 0), image.channel(x, y, 1), image.channel(x, y, 2)}) > 8) ++lit;
            }
        }
        EXPECT_EQ(lit, 0) << "theme " << static_cast<int>(theme);
    }
}

// At 1280×720 and UI scale 1 the numbers view's lines are at least 12 px high, and every line
// breaks at a space: no number is split across lines.
TEST_F(BoundTest, NumbersViewIsLegibleAt1280x720) {
    for (const int view : {-1, 6}) {  // the grid's cell, and the view alone
        set([&](LabParams& p) {
            p.focused_view = view;
            p.position = 171;
            p.focused_pair = 2;
        });
        frames(4);
        int lines = 0;
        for (const ui::Widget& w : ui::log().this_frame()) {
            if (w.kind != "numbers line") continue;
            ++lines;
            EXPECT_GE(w.h, 12.0f) << w.label;
            // The piece lies in its source line between spaces (or the line's ends).
            const std::size_t at = w.value.find(w.label);
            ASSERT_NE(at, std::string::npos) << w.label << " | " << w.value;
            EXPECT_TRUE(at == 0 || w.value[at - 1] == ' ') << w.label << " | " << w.value;
            const std::size_t end = at + w.label.size();
            EXPECT_TRUE(end == w.value.size() || w.value[end] == ' ') << w.label << " | " << w.value;
        }
        EXPECT_GE(lines, 4) << "view " << view;
    }
}

}  // namespace
}  // namespace ropelab
