#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/cpu_kernels.h"
#include "core/frequencies.h"
#include "core/presets.h"
#include "core/rotation.h"
#include "core/scores.h"
#include "core/sinusoidal.h"
#include "support/reference.h"

namespace ropelab {
namespace {

// score(Δ) by rotating q to position m and k to m − Δ with explicit matrices (interleaved
// layout), angles from long double: shares nothing with the core's coefficient path. Each
// rotated vector carries the attention factor on its rotary part only, so the pass-through
// dot product is not scaled.
double reference_score(const std::vector<double>& q, const std::vector<double>& k,
                       const RopeFrequencies& f, std::int64_t m, std::int64_t delta) {
    const double af = f.attention_factor;
    return test::reference_dot(test::reference_rotate_interleaved(q, f.inv_freq, m, af),
                               test::reference_rotate_interleaved(k, f.inv_freq, m - delta, af));
}

struct ScoreCase {
    const char* preset;
    double theta;
    int head_dim;
};

class ScoresVsReference : public ::testing::TestWithParam<ScoreCase> {};

TEST_P(ScoresVsReference, WithinOneBillionthOfCoefficientScale) {
    if (!test::long_double_is_extended()) GTEST_SKIP() << "needs an 80-bit long double reference";
    ModelConfig c = preset_or_throw(GetParam().preset).config;
    c.layout = PairLayout::Interleaved;  // the reference rotates adjacent pairs
    if (GetParam().theta > 0) c.rope_theta = GetParam().theta;
    if (GetParam().head_dim > 0) c.head_dim = GetParam().head_dim;
    const RopeFrequencies f = compute_frequencies(c);
    test::TestRng rng{static_cast<std::uint64_t>(c.head_dim) * 31 + 5};
    const std::vector<double> q = rng.vector(c.head_dim), k = rng.vector(c.head_dim);
    const ScoreCoefficients coeffs = score_coefficients(q, k, f);
    const double tolerance = 1e-9 * coeffs.l1();

    const std::vector<double> scores = rope_scores(coeffs, f, 2048);
    for (std::int64_t delta = 0; delta < 2048; delta += 97) {
        EXPECT_NEAR(scores[delta], reference_score(q, k, f, delta, delta), tolerance)
            << "delta=" << delta;
    }
    for (std::int64_t delta : {16384, 131071, 1000000, 2000000000}) {
        // Query at m = Δ + 12345 so the key sits at a nonzero position too.
        EXPECT_NEAR(rope_score(coeffs, f, delta), reference_score(q, k, f, delta + 12345, delta),
                    tolerance)
            << "delta=" << delta;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Presets, ScoresVsReference,
    ::testing::Values(ScoreCase{"textbook", 0, 8}, ScoreCase{"textbook", 0, 0},
                      ScoreCase{"textbook", 1e6, 256}, ScoreCase{"llama3.1-8b", 0, 0},
                      ScoreCase{"qwen2.5-7b-yarn", 0, 0}, ScoreCase{"phi3-mini-128k", 0, 0},
                      ScoreCase{"gpt-j-6b", 0, 0}, ScoreCase{"gpt-neox-20b", 0, 0},
                      ScoreCase{"deepseek-v3", 0, 0}, ScoreCase{"textbook", 5e5, 64}));

TEST(Scores, AllOnesAtZeroDistanceIsTheSquaredNorm) {
    ModelConfig c;
    const RopeFrequencies f = compute_frequencies(c);
    const std::vector<double> ones(128, 1.0);
    EXPECT_NEAR(rope_score(score_coefficients(ones, ones, f), f, 0), 128.0, 1e-12);
}

TEST(Scores, PartialRotaryKeepsPassThroughDotProduct) {
    const ModelConfig c = preset_or_throw("gpt-neox-20b").config;  // 24 of 96 rotate
    const RopeFrequencies f = compute_frequencies(c);
    test::TestRng rng{12};
    const std::vector<double> q = rng.vector(96), k = rng.vector(96);
    const ScoreCoefficients coeffs = score_coefficients(q, k, f);
    double pass = 0.0;
    for (int j = 24; j < 96; ++j) pass += q[j] * k[j];
    EXPECT_NEAR(coeffs.passthrough, pass, 1e-14);
    // The score at any distance equals the honest dot product of rotated vectors.
    for (std::int64_t delta : {0, 3, 500, 99999}) {
        EXPECT_NEAR(rope_score(coeffs, f, delta), dot(rotate(q, f, delta + 7), rotate(k, f, 7)),
                    1e-12);
    }
}

TEST(Scores, AttentionFactorSquaredScalesTheRotaryPart) {
    ModelConfig c = preset_or_throw("qwen2.5-7b-yarn").config;
    const RopeFrequencies f = compute_frequencies(c);
    const std::vector<double> ones(128, 1.0);
    EXPECT_NEAR(rope_score(score_coefficients(ones, ones, f), f, 0),
                128.0 * f.attention_factor * f.attention_factor, 1e-11);
}

TEST(Scores, RoformerBoundSeedValues) {
    ModelConfig c;  // d = 128, θ = 10000
    const std::vector<double> bound = roformer_bound(compute_frequencies(c), 11);
    EXPECT_NEAR(bound[0], 32.5, 1e-12);  // S_j = j, Σ j / 64 = 2080 / 64
    EXPECT_NEAR(bound[10], 17.954, 5e-4);
    // Written out directly for one distance.
    std::complex<double> s = 0;
    double total = 0;
    for (int j = 0; j < 64; ++j) {
        s += std::polar(1.0, 10.0 * std::pow(10000.0, -2.0 * j / 128));
        total += std::abs(s);
    }
    EXPECT_NEAR(bound[10], total / 64, 1e-12);
}

// RoFormer's bound for the current q, k is a bound: |score − pass| ≤ factor·B(Δ) at every
// Δ < 2^20, for random q and k on every preset and on random configs. The score comes from the
// independent float64 reference (reference.h), B from the float64 CPU recurrence.
void expect_bound_holds(const ModelConfig& model, std::uint64_t seed, const std::string& where) {
    const RopeFrequencies f = compute_frequencies(model);
    test::TestRng rng{seed};
    const std::vector<double> q = rng.vector(model.head_dim), k = rng.vector(model.head_dim);
    const ScoreCoefficients c = score_coefficients(q, k, f);
    constexpr std::int64_t kCount = std::int64_t{1} << 20;
    const std::vector<double> theta(f.inv_freq.begin(), f.inv_freq.end());
    const std::vector<double> score = test::reference_phasor_scores(c.pair, theta, 0.0, kCount);
    const std::vector<double> shape = cpu_decay_bound_f64(f, kCount);
    const double factor = roformer_bound_factor(c);
    std::int64_t violations = 0;
    for (std::int64_t d = 0; d < kCount; ++d) {
        const double rotary = std::abs(score[static_cast<std::size_t>(d)]);
        const double bound = factor * shape[static_cast<std::size_t>(d)];
        if (rotary > bound + 1e-9 * c.l1()) ++violations;
    }
    EXPECT_EQ(violations, 0) << where;
    // And it is not vacuous: B(0) = (P + 1)/2 exactly.
    EXPECT_NEAR(shape[0], (f.pairs() + 1.0) / 2.0, 1e-12) << where;
}

TEST(RoformerBound, HoldsOnEveryPresetForRandomVectors) {
    std::uint64_t seed = 1;
    for (const Preset& p : presets()) expect_bound_holds(p.config, seed++, p.note.name);
}

TEST(RoformerBound, HoldsOnRandomConfigs) {
    test::TestRng rng{2024};
    for (int i = 0; i < 8; ++i) {
        ModelConfig m;
        m.head_dim = 2 * (1 + static_cast<int>((rng.uniform() + 1) * 63.5));  // 2 .. 256
        m.rope_theta = std::pow(10.0, 0.2 + (rng.uniform() + 1) * 4.4);      // 1.6 .. 10^9
        m.layout = rng.uniform() < 0 ? PairLayout::Interleaved : PairLayout::Half;
        if (i % 2) {
            m.rope_scaling.type = RopeType::Yarn;
            m.rope_scaling.factor = 1 + (rng.uniform() + 1) * 20;
        }
        expect_bound_holds(m, 100 + static_cast<std::uint64_t>(i),
                           "d=" + std::to_string(m.head_dim) + " theta=" + std::to_string(m.rope_theta));
    }
}

// All-ones q, k (c_i = 2 for every pair): the factor is (d/2)·|c_{d/2−1} − 0| = 2·64 at d = 128,
// bound(0) = 128·B(0) = 128·32.5 = 4160 against a score of 128 — loose by ×32.5, as the legend says.
TEST(RoformerBound, AllOnesFactorByHand) {
    const RopeFrequencies f = compute_frequencies(ModelConfig{});
    const std::vector<double> ones(128, 1.0);
    EXPECT_DOUBLE_EQ(roformer_bound_factor(score_coefficients(ones, ones, f)), 128.0);
}

TEST(Scores, RopeInvarianceIsFlatAndSinusoidalIsNot) {
    ModelConfig c;
    const RopeFrequencies f = compute_frequencies(c);
    test::TestRng rng{13};
    const std::vector<double> q = rng.vector(128), k = rng.vector(128);
    const double scale = score_coefficients(q, k, f).l1();
    const double expected = rope_score(score_coefficients(q, k, f), f, 5);

    for (std::int64_t from : {std::int64_t{5}, std::int64_t{1000000}}) {
        const std::vector<double> rope = rope_invariance(q, k, f, 5, from, from + 200);
        for (double s : rope) EXPECT_NEAR(s, expected, 1e-12 * scale);
    }
    const SinusoidalEncoding enc = sinusoidal_encoding(128, 10000.0);
    const std::vector<double> additive = sinusoidal_invariance(q, k, enc, 5, 5, 205);
    const auto [lo, hi] = std::minmax_element(additive.begin(), additive.end());
    EXPECT_GT(*hi - *lo, 1.0) << "the additive score must move with the absolute position";
}

TEST(Scores, SinusoidalScoresMatchDirectSum) {
    const SinusoidalEncoding enc = sinusoidal_encoding(32, 10000.0);
    test::TestRng rng{14};
    const std::vector<double> q = rng.vector(32), k = rng.vector(32);
    const std::int64_t m = 300;
    const std::vector<double> scores = sinusoidal_scores(q, k, enc, m, 300);
    for (std::int64_t delta : {0, 1, 99, 299}) {
        double direct = 0;
        for (int t = 0; t < 16; ++t) {
            const double w = std::pow(10000.0, -2.0 * t / 32);
            const double n = static_cast<double>(m - delta);
            direct += (q[2 * t] + std::sin(m * w)) * (k[2 * t] + std::sin(n * w));
            direct += (q[2 * t + 1] + std::cos(m * w)) * (k[2 * t + 1] + std::cos(n * w));
        }
        EXPECT_NEAR(scores[delta], direct, 1e-12) << "delta=" << delta;
    }
}

}  // namespace
}  // namespace ropelab
