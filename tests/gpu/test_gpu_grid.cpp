// The GPU's scores over an image (grid_scores.comp) against the core's grid_slice, rule by rule:
// float coefficients and 2^-32-turn phase words put it within 1e-5·l1 of the float64 grid.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/frequencies.h"
#include "core/grid_scores.h"
#include "support/gl.h"
#include "support/reference.h"

namespace ropelab {
namespace {

using test::GlTest;

struct GpuGridCase {
    AxisRule rule;
    std::vector<double> sections;
    int head_dim;
    double theta;
    GridSize size;
    std::int64_t dt;
};

ModelConfig model_of(const GpuGridCase& g) {
    ModelConfig c;
    c.head_dim = g.head_dim;
    c.rope_theta = g.theta;
    c.multi_axis.rule = g.rule;
    c.multi_axis.sections = g.sections;
    c.multi_axis.mixed_angle = 30;
    return c;
}

TEST_F(GlTest, GridScoresMatchTheCoreForEveryRule) {
    const GpuGridCase cases[] = {
        {AxisRule::Sections, {16, 24, 24}, 128, 1e6, {1, 16, 16}, 0},
        {AxisRule::Interleaved, {24, 20, 20}, 128, 1e6, {2, 8, 12}, 1},
        {AxisRule::Axial, {0, 20, 20}, 80, 1e4, {1, 33, 7}, 0},
        {AxisRule::EvenOdd, {}, 128, 1e4, {3, 5, 64}, -2},
        {AxisRule::Mixed, {}, 128, 100, {1, 16, 16}, 0},
        {AxisRule::None, {}, 128, 1e4, {4, 16, 16}, -3},  // raster order: Δ up to 3·256 + 15·16 + 15
        {AxisRule::Sections, {16, 24, 24}, 128, 1e6, {1, 256, 256}, 0},
    };
    for (const GpuGridCase& g : cases) {
        const ModelConfig c = model_of(g);
        const RopeFrequencies f = compute_frequencies(c);
        test::TestRng rng{static_cast<std::uint64_t>(g.size.width * 13 + g.head_dim)};
        const std::vector<double> q = rng.vector(c.head_dim), k = rng.vector(c.head_dim);
        const ScoreCoefficients coeffs = score_coefficients(q, k, f);
        const std::vector<AxisVector> omega = grid_frequency_vectors(c, f, g.size);
        const GridSlice want = grid_slice(coeffs, omega, g.size, g.dt);
        const std::vector<float> got = core().compute_grid(coeffs, omega, g.size.height, g.size.width, g.dt);
        ASSERT_EQ(got.size(), want.values.size());
        const double tolerance = 1e-5 * coeffs.l1();
        double worst = 0;
        for (std::size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::abs(got[i] - want.values[i]));
        EXPECT_LE(worst, tolerance) << to_string(g.rule) << " " << g.size.height << "x" << g.size.width << " dt " << g.dt;
    }
}

}  // namespace
}  // namespace ropelab
