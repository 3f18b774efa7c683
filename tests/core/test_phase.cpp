#include <gtest/gtest.h>

#include <cmath>

#include "core/frequencies.h"
#include "core/phase.h"
#include "core/rotation.h"
#include "support/reference.h"

namespace ropelab {
namespace {

using test::angle_difference;
using test::reference_angle;

TEST(Phase, MatchesExtendedPrecisionReferenceUpTo2To31) {
    if (!test::long_double_is_extended()) GTEST_SKIP() << "needs an 80-bit long double reference";
    test::TestRng rng{42};
    double worst = 0.0;
    for (int trial = 0; trial < 200; ++trial) {
        // Frequencies across RoPE's range: 1 down to 1e-9 rad per position.
        const double omega = std::pow(10.0, -9.0 * (0.5 + 0.5 * rng.uniform()));
        const PhaseStep step = phase_step(omega);
        for (std::int64_t m : {std::int64_t{1}, std::int64_t{3}, std::int64_t{1000000},
                               std::int64_t{123456789}, (std::int64_t{1} << 31) - 1}) {
            const double err = std::abs(
                angle_difference(phase_radians(phase_at(step, m)), reference_angle(omega, m)));
            worst = std::max(worst, err);
        }
    }
    EXPECT_LT(worst, 2e-9) << "exact phases must stay within 2e-9 rad up to m = 2^31";
}

TEST(Phase, Float32ProductIsVisiblyWrongWhereExactPhaseIsNot) {
    if (!test::long_double_is_extended()) GTEST_SKIP() << "needs an 80-bit long double reference";
    // The mistake the app teaches about: sin(float(m)·θ) at m = 10^6.
    const std::int64_t m = 1000000;
    double worst_float = 0.0, worst_exact = 0.0;
    for (double omega : test::reference_inv_freq(128, 10000.0)) {
        const float naive = static_cast<float>(m) * static_cast<float>(omega);
        worst_float = std::max(worst_float,
                               std::abs(angle_difference(naive, reference_angle(omega, m))));
        worst_exact = std::max(worst_exact, std::abs(angle_difference(
            phase_radians(phase_at(phase_step(omega), m)), reference_angle(omega, m))));
    }
    EXPECT_GT(worst_float, 1e-2);
    EXPECT_LT(worst_exact, 1e-9);
}

TEST(Phase, DegreesAreWrappedToHalfOpenInterval) {
    EXPECT_DOUBLE_EQ(phase_degrees(0), 0.0);
    EXPECT_DOUBLE_EQ(phase_degrees(std::uint64_t{1} << 63), 180.0);  // half a turn
    EXPECT_DOUBLE_EQ(phase_degrees(std::uint64_t{1} << 62), 90.0);
    EXPECT_DOUBLE_EQ(phase_degrees(std::uint64_t{3} << 62), -90.0);
    const double just_past_half = phase_degrees((std::uint64_t{1} << 63) + 1);
    EXPECT_GT(just_past_half, -180.0);
    EXPECT_LE(just_past_half, 180.0);
}

TEST(Phase, NegativePositionsRotateBackwards) {
    const PhaseStep step = phase_step(0.3);
    EXPECT_NEAR(phase_radians(phase_at(step, -2)), -0.6, 1e-15);
    EXPECT_NEAR(phase_radians(phase_at(step, 2)), 0.6, 1e-15);
}

TEST(Phase, StepOfWholeTurnIsZero) {
    EXPECT_EQ(phase_step(0.0), 0u);
    // 2π rad per position is a whole turn: every position lands back on angle 0.
    EXPECT_NEAR(phase_radians(phase_at(phase_step(2 * M_PI), 12345)), 0.0, 1e-9);
}

// Seed 000: d = 512, θ = 10000, token 3 → 171.8873°, 165.8131°, 159.9536°, … (pair angles).
TEST(Phase, SeedAnglesAtPosition3ForDim512) {
    ModelConfig config;
    config.head_dim = 512;
    config.rope_theta = 10000.0;
    const RopeFrequencies f = compute_frequencies(config);
    const std::vector<double> angles = pair_angles_deg(f, 3);
    const double seed[] = {171.8873, 165.8131, 159.9536, 154.3011, 148.8483,
                           143.5883, 138.5141, 133.6192, 128.8973, 124.3423};
    for (int i = 0; i < 10; ++i) EXPECT_NEAR(angles[i], seed[i], 6e-5) << "pair " << i;
}

TEST(Phase, AnglesLieInHalfOpenDegreeRange) {
    ModelConfig config;
    const RopeFrequencies f = compute_frequencies(config);
    for (std::int64_t m : {0, 1, 7, 100, 99999, 1 << 30}) {
        for (double a : pair_angles_deg(f, m)) {
            EXPECT_GT(a, -180.0);
            EXPECT_LE(a, 180.0);
        }
    }
}

}  // namespace
}  // namespace ropelab
