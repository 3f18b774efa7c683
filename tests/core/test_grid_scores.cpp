#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <string>
#include <vector>

#include "core/frequencies.h"
#include "core/grid_scores.h"
#include "core/scores.h"
#include "support/reference.h"

namespace ropelab {
namespace {

// A model's rule written out again for the test: each pair's (ω_t, ω_h, ω_w) in long double,
// from the rule's definition in core/model_config.h (not from core/multi_axis.cpp).
using OmegaL = std::array<long double, 3>;

std::vector<OmegaL> reference_omega(const ModelConfig& c, const GridSize& g) {
    const int d = c.head_dim, pairs = d / 2;
    auto ladder = [](int dims, double theta) {
        std::vector<long double> f;
        for (int i = 0; i < dims / 2; ++i) f.push_back(std::pow(static_cast<long double>(theta), -2.0L * i / dims));
        return f;
    };
    const std::vector<long double> f = ladder(d, c.rope_theta);
    const auto& s = c.multi_axis.sections;
    std::vector<OmegaL> out;
    switch (c.multi_axis.rule) {
        case AxisRule::None:
            for (long double x : f) out.push_back({x * g.height * g.width, x * g.width, x});
            break;
        case AxisRule::Sections:
            for (int j = 0; j < pairs; ++j) {
                const int axis = j < s[0] ? 0 : j < s[0] + s[1] ? 1 : 2;
                OmegaL w{0, 0, 0};
                w[axis] = f[j];
                out.push_back(w);
            }
            break;
        case AxisRule::Interleaved:
            for (int j = 0; j < pairs; ++j) {
                int axis = 0;
                if (j % 3 == 1 && j < 3 * s[1]) axis = 1;
                if (j % 3 == 2 && j < 3 * s[2]) axis = 2;
                OmegaL w{0, 0, 0};
                w[axis] = f[j];
                out.push_back(w);
            }
            break;
        case AxisRule::Axial:
            for (int axis = 0; axis < 3; ++axis) {
                for (long double x : ladder(2 * static_cast<int>(s[axis]), c.rope_theta)) {
                    OmegaL w{0, 0, 0};
                    w[axis] = x;
                    out.push_back(w);
                }
            }
            break;
        case AxisRule::Alternating:  // ERNIE 4.5-VL: h on even, w on odd pairs below 2·s_h; t above
            for (int j = 0; j < pairs; ++j) {
                OmegaL w{0, 0, 0};
                w[j >= 2 * s[1] ? 0 : j % 2 == 0 ? 1 : 2] = f[j];
                out.push_back(w);
            }
            break;
        case AxisRule::EvenOdd:
            for (int j = 0; j < pairs; j += 2) out.push_back({0, f[j], 0});
            for (int j = 1; j < pairs; j += 2) out.push_back({0, 0, f[j]});
            break;
        case AxisRule::Mixed: {
            const long double phi = c.multi_axis.mixed_angle * test::kPiL / 180;
            for (long double turn : {0.0L, test::kPiL / 2}) {
                for (int k = 0; k < d / 4; ++k) {
                    const long double m = std::pow(static_cast<long double>(c.rope_theta), -4.0L * k / d);
                    out.push_back({0, m * std::sin(phi + turn), m * std::cos(phi + turn)});
                }
            }
            break;
        }
    }
    return out;
}

// score(Δ) from q and k themselves (interleaved pairs): Σ_j Re[(q_2j + i q_2j+1)·conj(k_2j + i k_2j+1)·e^{iω_j·Δ}]
// plus the pass-through, all in long double.
double reference_grid_score(const std::vector<double>& q, const std::vector<double>& k, const std::vector<OmegaL>& omega,
                            long double dt, long double dh, long double dw) {
    long double sum = 0;
    for (std::size_t j = 0; j < omega.size(); ++j) {
        const long double angle = omega[j][0] * dt + omega[j][1] * dh + omega[j][2] * dw;
        const long double qr = q[2 * j], qi = q[2 * j + 1], kr = k[2 * j], ki = k[2 * j + 1];
        const long double re = qr * kr + qi * ki, im = qi * kr - qr * ki;  // q̃·conj(k̃)
        sum += re * std::cos(angle) - im * std::sin(angle);
    }
    for (std::size_t i = 2 * omega.size(); i < q.size(); ++i) sum += static_cast<long double>(q[i]) * k[i];
    return static_cast<double>(sum);
}

struct GridCase {
    const char* name;
    AxisRule rule;
    std::vector<double> sections;
    int head_dim;
    double theta;
};

ModelConfig model_of(const GridCase& g) {
    ModelConfig c;
    c.head_dim = g.head_dim;
    c.rope_theta = g.theta;
    c.layout = PairLayout::Interleaved;  // the reference reads adjacent pairs
    c.multi_axis.rule = g.rule;
    c.multi_axis.sections = g.sections;
    c.multi_axis.mixed_angle = 30;
    return c;
}

const GridCase kCases[] = {
    {"sections", AxisRule::Sections, {16, 24, 24}, 128, 1e6},
    {"interleaved", AxisRule::Interleaved, {24, 20, 20}, 128, 1e6},
    {"axial", AxisRule::Axial, {0, 20, 20}, 80, 1e4},
    {"even_odd", AxisRule::EvenOdd, {}, 128, 1e4},
    {"mixed", AxisRule::Mixed, {}, 128, 100},
    {"raster", AxisRule::None, {}, 128, 1e4},
};

class GridVsReference : public ::testing::TestWithParam<GridCase> {};

TEST_P(GridVsReference, FastGridWithinOneBillionthOfL1) {
    if (!test::long_double_is_extended()) GTEST_SKIP() << "needs an 80-bit long double reference";
    const ModelConfig c = model_of(GetParam());
    const RopeFrequencies f = compute_frequencies(c);
    for (const GridSize size : {GridSize{1, 16, 16}, GridSize{2, 8, 12}}) {
        test::TestRng rng{static_cast<std::uint64_t>(size.height * 7 + c.head_dim)};
        const std::vector<double> q = rng.vector(c.head_dim), k = rng.vector(c.head_dim);
        const ScoreCoefficients coeffs = score_coefficients(q, k, f);
        const double tolerance = 1e-9 * coeffs.l1();
        const std::vector<AxisVector> omega = grid_frequency_vectors(c, f, size);
        const std::vector<OmegaL> ref = reference_omega(c, size);
        ASSERT_EQ(omega.size(), ref.size());
        const std::vector<GridSlice> grid = grid_scores(coeffs, omega, size);
        ASSERT_EQ(static_cast<std::int64_t>(grid.size()), size.offsets_t());
        std::int64_t checked = 0;
        for (const GridSlice& slice : grid) {
            ASSERT_EQ(static_cast<std::int64_t>(slice.values.size()), size.offsets_h() * size.offsets_w());
            for (std::int64_t dh = -(size.height - 1); dh < size.height; ++dh) {
                for (std::int64_t dw = -(size.width - 1); dw < size.width; ++dw) {
                    const double want = reference_grid_score(q, k, ref, slice.dt, dh, dw);
                    ASSERT_NEAR(slice.at(dh, dw), want, tolerance) << GetParam().name << " Δ=" << slice.dt << "," << dh << "," << dw;
                    ASSERT_NEAR(grid_score(coeffs, omega, {double(slice.dt), double(dh), double(dw)}), want, tolerance);
                    ++checked;
                }
            }
        }
        EXPECT_EQ(checked, size.offsets());
    }
}

INSTANTIATE_TEST_SUITE_P(Rules, GridVsReference, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

// The longest rows (2047 steps of the recurrence) at the largest side still hold the tolerance.
TEST(GridScores, LargestRowsStayWithinTolerance) {
    const ModelConfig c = model_of(kCases[0]);
    const RopeFrequencies f = compute_frequencies(c);
    test::TestRng rng{99};
    const std::vector<double> q = rng.vector(c.head_dim), k = rng.vector(c.head_dim);
    const ScoreCoefficients coeffs = score_coefficients(q, k, f);
    const GridSize size{1, 3, 1024};
    const std::vector<AxisVector> omega = grid_frequency_vectors(c, f, size);
    const GridSlice slice = grid_slice(coeffs, omega, size, 0);
    for (std::int64_t dw = -1023; dw <= 1023; dw += 31) {
        EXPECT_NEAR(slice.at(2, dw), grid_score(coeffs, omega, {0, 2, double(dw)}), 1e-9 * coeffs.l1()) << dw;
    }
}

TEST(GridScores, ZeroOffsetIsTheSumOfRealCoefficientsPlusPassthrough) {
    ModelConfig c = model_of(kCases[0]);
    c.partial_rotary_factor = 0.75;  // a pass-through part too
    c.multi_axis.sections = {12, 18, 18};
    const RopeFrequencies f = compute_frequencies(c);
    test::TestRng rng{3};
    const std::vector<double> q = rng.vector(c.head_dim), k = rng.vector(c.head_dim);
    const ScoreCoefficients coeffs = score_coefficients(q, k, f);
    ASSERT_NE(coeffs.passthrough, 0.0);
    double expected = coeffs.passthrough;
    for (const auto& cj : coeffs.pair) expected += cj.real();
    // And that sum is q·k itself.
    double dot = 0;
    for (int i = 0; i < c.head_dim; ++i) dot += q[i] * k[i];
    EXPECT_NEAR(expected, dot, 1e-12 * coeffs.l1());
    const GridSize size{2, 5, 7};
    const std::vector<GridSlice> grid = grid_scores(coeffs, grid_frequency_vectors(c, f, size), size);
    EXPECT_NEAR(grid[1].at(0, 0), expected, 1e-12 * coeffs.l1());
}

// With k = q every c_j is real (|q̃_j|²), so score(−Δ) = score(Δ): the heatmap is point-symmetric.
TEST(GridScores, SelfScoreIsSymmetricUnderNegation) {
    for (const GridCase& g : kCases) {
        const ModelConfig c = model_of(g);
        const RopeFrequencies f = compute_frequencies(c);
        test::TestRng rng{11};
        const std::vector<double> q = rng.vector(c.head_dim);
        const ScoreCoefficients coeffs = score_coefficients(q, q, f);
        const GridSize size{2, 6, 9};
        const std::vector<GridSlice> grid = grid_scores(coeffs, grid_frequency_vectors(c, f, size), size);
        for (std::int64_t dh = -5; dh <= 5; ++dh) {
            for (std::int64_t dw = -8; dw <= 8; ++dw) {
                EXPECT_NEAR(grid[2].at(dh, dw), grid[0].at(-dh, -dw), 1e-9 * coeffs.l1()) << g.name;
                EXPECT_NEAR(grid[1].at(dh, dw), grid[1].at(-dh, -dw), 1e-9 * coeffs.l1()) << g.name;
            }
        }
    }
}

// M-RoPE sections put w on the last, slowest pairs: at θ 1e6 a few steps in w turn them far
// less than the same steps in h, so with q = k (all c_j > 0) the score falls less along w.
TEST(GridScores, SectionsMoveLessAlongWidthThanHeight) {
    const ModelConfig c = model_of(kCases[0]);
    const RopeFrequencies f = compute_frequencies(c);
    test::TestRng rng{5};
    const std::vector<double> q = rng.vector(c.head_dim);
    const ScoreCoefficients coeffs = score_coefficients(q, q, f);
    const GridSize size{1, 16, 16};
    const GridSlice s = grid_slice(coeffs, grid_frequency_vectors(c, f, size), size, 0);
    const double at_zero = s.at(0, 0);
    double moved_w = 0, moved_h = 0;
    for (std::int64_t d = 1; d <= 4; ++d) {
        moved_w += std::abs(s.at(0, d) - at_zero);
        moved_h += std::abs(s.at(d, 0) - at_zero);
    }
    EXPECT_LT(moved_w, moved_h);
}

// A 1-D model sees the image in raster order: one step down is W steps along the sequence.
TEST(GridScores, RasterOrderForOneAxisModels) {
    ModelConfig c;
    const RopeFrequencies f = compute_frequencies(c);
    test::TestRng rng{8};
    const std::vector<double> q = rng.vector(c.head_dim), k = rng.vector(c.head_dim);
    const ScoreCoefficients coeffs = score_coefficients(q, k, f);
    const GridSize size{2, 4, 5};
    const std::vector<GridSlice> grid = grid_scores(coeffs, grid_frequency_vectors(c, f, size), size);
    // Δ = (1, −2, 3): 1·20 − 2·5 + 3 = 13 positions.
    EXPECT_NEAR(grid[2].at(-2, 3), rope_score(coeffs, f, 13), 1e-9 * coeffs.l1());
    EXPECT_NEAR(grid[1].at(1, -4), rope_score(coeffs, f, 1), 1e-9 * coeffs.l1());
}

}  // namespace
}  // namespace ropelab
