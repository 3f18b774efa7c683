// tests/ui: rough edges a lecturer met, tried in the real window: the score plot's hover at deep
// zoom, the heatmap's current-row marker, marker labels in a small plot.
#include "lab_test.h"

#include <algorithm>
#include <map>
#include <vector>

#include "state/compare.h"
#include "support/reference.h"

namespace ropelab {
namespace {

// The readout lines (kind "readout") of the frame just drawn, by name.
std::map<std::string, std::string> readouts() {
    std::map<std::string, std::string> out;
    for (const ui::Widget& w : ui::log().this_frame()) {
        if (w.kind == "readout") out[w.label] = w.value;
    }
    return out;
}

const ui::Widget* widget(const std::string& label, const std::string& kind) {
    for (const ui::Widget& w : ui::log().this_frame()) {
        if (w.label == label && w.kind == kind) return &w;
    }
    return nullptr;
}

// score(Δ) with q at m = N − 1 and k at m − Δ, both rotated by explicit 2×2 matrices at
// θ^(−2i/d) with long double angles (interleaved pairs): shares nothing with the lab's path.
double reference_score(const std::vector<double>& q, const std::vector<double>& k, double theta, std::int64_t m,
                       std::int64_t delta) {
    const std::vector<double> inv_freq = test::reference_inv_freq(static_cast<int>(q.size()), theta);
    return test::reference_dot(test::reference_rotate_interleaved(q, inv_freq, m),
                               test::reference_rotate_interleaved(k, inv_freq, m - delta));
}

// Zoomed in until a pixel column holds one or two distances (where a column's one sample can be
// the next distance), the hover's every line reads the sample under the pointer: the plot's
// "RoPE" line and the tooltip's exact line both equal a float64 score at the Δ the header names.
TEST_F(LabTest, ScoreHoverReadsTheSampleUnderThePointerAtDeepZoom) {
    if (!test::long_double_is_extended()) GTEST_SKIP() << "needs an 80-bit long double reference";
    constexpr std::int64_t kN = 65536;
    set([&](LabParams& p) {
        p.model.head_dim = 64;
        p.model.rope_theta = 10000.0;
        p.model.layout = PairLayout::Interleaved;
        p.encoding = Encoding::Rope;
        p.vectors = VectorChoice::Random;
        p.seed = 7;
        p.max_distance = kN;
        p.show_bound = false;
        p.focused_view = 2;
    });
    ASSERT_GE(frames_until_exact(), 0);
    frames(3);
    ASSERT_NE(widget("scores", "plot"), nullptr);
    const ui::Widget scores = *widget("scores", "plot");  // the log changes every frame
    const ui::Widget* plot = &scores;
    const ImVec2 centre(plot->x + plot->w / 2, plot->y + plot->h / 2);
    // Wheel in, a notch a frame, until the visible range holds 1 to 2 distances per pixel.
    double per_pixel = kN / plot->w;
    for (int notch = 0; notch < 80 && per_pixel > 1.9; ++notch) {
        frames(2, [&](int k) {
            ImGui::GetIO().MousePos = centre;
            ImGui::GetIO().MouseWheel = k == 0 ? 1.0f : 0.0f;
        });
        const plot::PlotState& state = lab_->plots().at("scores");
        if (state.user_view) per_pixel = (state.x.max - state.x.min) / plot->w;
    }
    ASSERT_LE(per_pixel, 1.9);
    ASSERT_GE(per_pixel, 0.5);
    frames(3);

    const LabData& d = lab_->compute().data();
    const std::vector<double> q = d.q, k = d.k;
    double scale = 0;
    for (std::size_t i = 0; i < q.size(); ++i) scale += std::abs(q[i] * k[i]) + std::abs(q[i] * k[i ^ 1]);
    int checked = 0, mismatched_plot = 0, mismatched_exact = 0;
    for (int step = 0; step < 40; ++step) {
        // Fractions of a pixel too: where the pointer's x rounds to one distance and its pixel
        // column holds the next.
        const ImVec2 at(plot->x + plot->w * 0.2f + 5.37f * static_cast<float>(step), centre.y);
        frames(3, [&](int) { ImGui::GetIO().MousePos = at; });
        const auto lines = readouts();
        const auto delta_text = lines.find("distance Δ");
        ASSERT_NE(delta_text, lines.end()) << "no hover readout at x = " << at.x;
        const std::int64_t delta = std::stoll(delta_text->second);
        const double expected = reference_score(q, k, 10000.0, kN - 1, delta);
        const double tolerance = 2e-5 * scale;
        const auto line = lines.find("RoPE");
        ASSERT_NE(line, lines.end());
        if (std::abs(std::stod(line->second) - expected) > tolerance) {
            ++mismatched_plot;
            ADD_FAILURE() << "Δ = " << delta << ": the plot's line reads " << line->second << ", float64 " << expected
                          << " (at Δ+1: " << reference_score(q, k, 10000.0, kN - 1, delta + 1) << ")";
        }
        const auto exact = lines.find("RoPE score at Δ = " + std::to_string(delta));
        ASSERT_NE(exact, lines.end()) << "the tooltip's exact line names another Δ";
        if (std::abs(std::stod(exact->second) - expected) > tolerance) ++mismatched_exact;
        ++checked;
    }
    EXPECT_EQ(checked, 40);
    EXPECT_EQ(mismatched_plot, 0);
    EXPECT_EQ(mismatched_exact, 0);
}

double luma(const Image& image, int x, int y) {
    return 0.299 * image.channel(x, y, 0) + 0.587 * image.channel(x, y, 1) + 0.114 * image.channel(x, y, 2);
}

// The heatmap's current-row marker stands out of every colour of the map: across its whole width
// the pixels within its few rows hold both a near-black and a near-white, at every position of
// the row in the page (rows over dark, light and saturated colours alike).
TEST_F(LabTest, HeatmapRowMarkerHasADarkAndALightStroke) {
    set([&](LabParams& p) { p.focused_view = 4; });
    for (const std::int64_t position : {0, 300, 777, 2000}) {
        set([&](LabParams& p) { p.position = position; });
        const Image image = capture(4);
        const ui::Widget* marker = widget("current position's row", "marker");
        ASSERT_NE(marker, nullptr);
        ASSERT_EQ(marker->value, std::to_string(position));
        const int top = static_cast<int>(std::floor(marker->y)) - 1, bottom = static_cast<int>(std::ceil(marker->y + marker->h)) + 1;
        int columns = 0, outlined = 0;
        for (int x = static_cast<int>(marker->x) + 2; x < static_cast<int>(marker->x + marker->w) - 2; x += 7) {
            double darkest = 255, lightest = 0;
            for (int y = std::max(0, top); y < std::min(image.height, bottom); ++y) {
                darkest = std::min(darkest, luma(image, x, y));
                lightest = std::max(lightest, luma(image, x, y));
            }
            ++columns;
            outlined += darkest < 40 && lightest > 215;
        }
        ASSERT_GT(columns, 50);
        EXPECT_EQ(outlined, columns) << "m = " << position << ": the marker lacks its dark and light strokes somewhere";
    }
}

// In the grid's small frequencies view (and every other plot of the grid), the labels of the
// marker lines never overlap: scaled models with many markers, and a comparison of four.
TEST_F(LabTest, MarkerLabelsDoNotOverlapInTheSmallFrequenciesView) {
    const auto check = [&](const std::string& what) {
        frames(4);
        std::vector<ui::Widget> labels;
        for (const ui::Widget& w : ui::log().this_frame()) {
            if (w.kind == "marker label") labels.push_back(w);
        }
        EXPECT_GE(labels.size(), 2u) << what;
        for (std::size_t a = 0; a < labels.size(); ++a) {
            for (std::size_t b = a + 1; b < labels.size(); ++b) {
                const ui::Widget &u = labels[a], &v = labels[b];
                const bool overlap = u.x < v.x + v.w && v.x < u.x + u.w && u.y < v.y + v.h && v.y < u.y + u.h;
                EXPECT_FALSE(overlap) << what << ": \"" << u.label << "\" at (" << u.x << ", " << u.y << ") over \"" << v.label
                                      << "\" at (" << v.x << ", " << v.y << ")";
            }
        }
    };
    for (const char* name : {"qwen2.5-7b-yarn", "llama3.1-8b", "phi3-mini-128k"}) {
        if (!preset(name)) continue;
        check(name);
    }
    set([](LabParams& p) { p = apply_comparison(p, "llama3.1-scaling"); });
    check("llama3.1-scaling");
}

}  // namespace
}  // namespace ropelab
