// The CPU fast path against independent float64 references.
#include <gtest/gtest.h>

#include <cmath>

#include "core/cpu_kernels.h"
#include "core/m4.h"
#include "core/phasor_sum.h"
#include "core/presets.h"
#include "core/recurrence.h"
#include "core/rotation.h"
#include "support/reference.h"

namespace ropelab {
namespace {

PhasorSum random_rope_sum(const ModelConfig& c, std::uint64_t seed, std::int64_t query) {
    const RopeFrequencies f = compute_frequencies(c);
    test::TestRng rng{seed};
    const auto q = rng.vector(c.head_dim), k = rng.vector(c.head_dim);
    return rope_phasor_sum(score_coefficients(q, k, f), f, query);
}

double max_error(const std::vector<float>& fast, const std::vector<double>& exact) {
    double worst = 0;
    for (std::size_t i = 0; i < exact.size(); ++i) {
        worst = std::max(worst, std::abs(static_cast<double>(fast[i]) - exact[i]));
    }
    return worst;
}

double l1(const PhasorSum& s) {
    double sum = std::abs(s.constant);
    for (auto c : s.coefficient) sum += std::abs(c);
    return sum;
}

// The head-to-tail chain of phasors ends at the score: its last point's real part equals an
// independent float64 sum at every Δ tried (within 1e-9·Σ|c_i|); each link is as long as its
// coefficient; at Δ = 0 with k = q every phasor is |q̃_i|² ≥ 0 on the real axis, so the chain runs
// straight out to Σ|c_i| — and far out it has curled up: the score has decayed.
// The phasor view's scale: the extent holds the origin and every point of the chain at each of
// its sampled distances, and is no larger than Σ|c_i| + |constant| in any direction.
TEST(PhasorChain, ExtentHoldsTheSampledChains) {
    const PhasorSum sum = random_rope_sum(preset_or_throw("llama3.1-8b").config, 5, 77);
    const PhasorExtent box = phasor_chain_extent(sum, 4096, 16);
    EXPECT_LE(box.min_re, 0.0);
    EXPECT_GE(box.max_re, 0.0);
    for (int k = 0; k <= 16; ++k) {
        for (const auto& z : phasor_chain(sum, 4095 * k / 16)) {
            EXPECT_GE(z.real(), box.min_re);
            EXPECT_LE(z.real(), box.max_re);
            EXPECT_GE(z.imag(), box.min_im);
            EXPECT_LE(z.imag(), box.max_im);
        }
    }
    const double reach = l1(sum) + std::abs(sum.constant);
    EXPECT_LE(std::max({-box.min_re, box.max_re, -box.min_im, box.max_im}), reach * (1 + 1e-12));
}

TEST(PhasorChain, EndsAtTheScoreEachLinkItsCoefficient) {
    for (const char* preset : {"textbook", "llama3.1-8b", "gpt-neox-20b"}) {
        const ModelConfig c = preset_or_throw(preset).config;
        const PhasorSum sum = random_rope_sum(c, 5, 77);
        const auto exact = test::reference_phasor_scores(sum.coefficient, sum.radians_per_step, sum.constant, 5000);
        for (std::int64_t delta : {0, 1, 2, 17, 1000, 4999}) {
            const auto chain = phasor_chain(sum, delta);
            ASSERT_EQ(chain.size(), sum.coefficient.size() + 1);
            EXPECT_EQ(chain.front(), std::complex<double>(sum.constant, 0.0));
            EXPECT_NEAR(chain.back().real(), exact[static_cast<std::size_t>(delta)], 1e-9 * l1(sum)) << preset << " Δ " << delta;
            for (std::size_t i = 0; i < sum.coefficient.size(); ++i) {
                EXPECT_NEAR(std::abs(chain[i + 1] - chain[i]), std::abs(sum.coefficient[i]), 1e-12 * l1(sum));
            }
        }
    }
    const ModelConfig c = preset_or_throw("textbook").config;
    const RopeFrequencies f = compute_frequencies(c);
    const auto q = test::TestRng{9}.vector(c.head_dim);
    const PhasorSum same = rope_phasor_sum(score_coefficients(q, q, f), f, 0);
    const auto at_zero = phasor_chain(same, 0);
    for (std::size_t i = 1; i < at_zero.size(); ++i) {
        EXPECT_NEAR(at_zero[i].imag(), 0.0, 1e-12 * l1(same));
        EXPECT_GE(at_zero[i].real(), at_zero[i - 1].real() - 1e-12 * l1(same));
    }
    EXPECT_NEAR(at_zero.back().real(), l1(same), 1e-9 * l1(same));
    EXPECT_LT(std::abs(phasor_chain(same, 4096).back()), 0.5 * std::abs(at_zero.back()));
}

TEST(Rotor, MatchesLongDoubleToRoundoff) {
    if (!test::long_double_is_extended()) GTEST_SKIP() << "needs an 80-bit long double reference";
    test::TestRng rng{3};
    double worst = 0;
    for (int i = 0; i < 100000; ++i) {
        const Phase p = static_cast<Phase>((rng.uniform() + 1.0) * 4.6e18) * 2 + static_cast<Phase>(i);
        const long double angle = static_cast<long double>(static_cast<std::int64_t>(p)) *
                                  (2 * test::kPiL) / 18446744073709551616.0L;
        const std::complex<double> expected(static_cast<double>(std::cos(angle)),
                                            static_cast<double>(std::sin(angle)));
        worst = std::max(worst, std::abs(rotor(p) - expected));
    }
    EXPECT_LT(worst, 1e-15);  // about 4 ulps: table entry, series and one complex product
}

TEST(CpuKernels, ExactScoresOverAMillionDistances) {
    if (!test::long_double_is_extended()) GTEST_SKIP() << "needs an 80-bit long double reference";
    for (const char* preset : {"textbook", "llama3.1-8b", "phi3-mini-128k", "gpt-neox-20b"}) {
        const ModelConfig c = preset_or_throw(preset).config;
        const PhasorSum sum = random_rope_sum(c, 17, 0);
        const std::int64_t n = std::int64_t{1} << 20;
        const auto fast = cpu_scores(sum, n, AngleMode::Exact);
        const auto exact = test::reference_phasor_scores(sum.coefficient, sum.radians_per_step,
                                                         sum.constant, n);
        EXPECT_LE(max_error(fast, exact), 1e-5 * l1(sum)) << preset;
    }
}

TEST(CpuKernels, FoldedTermsAndOddCounts) {
    // θ > π/2 per position (a linear "factor" below 1) exercises the folded recurrence; a count
    // that is not a multiple of the block size exercises the tail.
    ModelConfig c;
    c.head_dim = 16;
    c.rope_scaling.type = RopeType::Linear;
    c.rope_scaling.factor = 0.4;
    const PhasorSum sum = random_rope_sum(c, 5, 0);
    const auto fast = cpu_scores(sum, 5000, AngleMode::Exact);
    ASSERT_EQ(fast.size(), 5000u);
    const auto exact =
        test::reference_phasor_scores(sum.coefficient, sum.radians_per_step, sum.constant, 5000);
    EXPECT_LE(max_error(fast, exact), 1e-5 * l1(sum));
}

TEST(CpuKernels, SinusoidalPhasorSumEqualsDirectScores) {
    const SinusoidalEncoding enc = sinusoidal_encoding(64, 10000.0);
    test::TestRng rng{21};
    const auto q = rng.vector(64), k = rng.vector(64);
    const auto direct = sinusoidal_scores(q, k, enc, 4095, 4096);
    const PhasorSum sum = sinusoidal_phasor_sum(q, k, enc, 4095);
    for (std::int64_t d : {0, 1, 100, 4095}) EXPECT_NEAR(evaluate(sum, d), direct[d], 1e-10);
    EXPECT_LE(max_error(cpu_scores(sum, 4096, AngleMode::Exact), direct), 1e-5 * l1(sum));
}

TEST(CpuKernels, NaiveModesMatchTheirDefinition) {
    const PhasorSum sum = random_rope_sum(ModelConfig{}, 9, 4000);
    for (AngleMode mode : {AngleMode::NaiveFp32, AngleMode::Bf16}) {
        const auto fast = cpu_scores(sum, 4001, mode);
        for (std::int64_t d : {0, 1, 77, 4000}) {
            EXPECT_NEAR(fast[d], evaluate(sum, d, mode), 1e-5 * l1(sum)) << to_string(mode);
        }
    }
}

TEST(CpuKernels, DecayBoundMatchesCore) {
    const RopeFrequencies f = compute_frequencies(ModelConfig{});
    const auto fast = cpu_decay_bound(f, 5000);
    const auto exact = roformer_bound(f, 5000);
    EXPECT_LE(max_error(fast, exact), 1e-5 * exact[0]);
}

TEST(CpuKernels, HeatmapIsTheExactAngle) {
    const RopeFrequencies f = compute_frequencies(ModelConfig{});
    const auto map = cpu_angle_heatmap(f.phase_step, 1000000, 7, 5);
    ASSERT_EQ(map.size(), 5u * 64);
    EXPECT_FLOAT_EQ(map[2 * 64 + 3], static_cast<float>(phase_radians(phase_at(f.phase_step[3], 1000014))));
}

TEST(M4, ColumnsHoldFirstLastMinMax) {
    const std::vector<float> y = {3, -1, 4, 1, 5, 9, 2, 6};
    const std::vector<std::uint32_t> bounds = {0, 3, 3, 8};
    const auto cols = m4_decimate(y, bounds);
    ASSERT_EQ(cols.size(), 3u);
    EXPECT_EQ(cols[0].first, 3);
    EXPECT_EQ(cols[0].last, 4);
    EXPECT_EQ(cols[0].min, -1);
    EXPECT_EQ(cols[0].max, 4);
    EXPECT_TRUE(cols[1].empty());
    EXPECT_EQ(cols[2].first, 1);
    EXPECT_EQ(cols[2].last, 6);
    EXPECT_EQ(cols[2].min, 1);
    EXPECT_EQ(cols[2].max, 9);
    EXPECT_EQ(m4_linear_boundaries(0, 10, 4), (std::vector<std::uint32_t>{0, 2, 5, 7, 10}));
}

}  // namespace
}  // namespace ropelab
