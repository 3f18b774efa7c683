// The numbers the views show about one pair (lab/pair_maths.h) against independent float64
// sums and the seeds' worked values.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "lab/lab_data.h"
#include "lab/pair_maths.h"

namespace ropelab::lab {
namespace {

constexpr double kPi = 3.14159265358979323846;

// The default lab (textbook: d = 128, θ = 10^4, interleaved, all-ones q and k) with a head dim.
LabData lab_data(int head_dim) {
    LabParams p;
    p.model.head_dim = head_dim;
    return compute_lab_data(p);
}

TEST(PairMaths, SeedAnglesAtPosition3ForDim512) {
    // Seed 000's worked example: pair i turns 3·10000^(−2i/512) rad at m = 3, in (−180°, 180°].
    const LabData d = lab_data(512);
    for (int i : {0, 1, 2, 100, 255}) {
        const double turned = 3.0 * std::pow(10000.0, -2.0 * i / 512) * 180.0 / kPi;
        const double wrapped = turned - 360.0 * std::floor((turned + 180.0) / 360.0);
        EXPECT_NEAR(angle_degrees(d.freqs, i, 3), wrapped, 1e-9) << "pair " << i;
    }
    EXPECT_NEAR(angle_degrees(d.freqs, 0, 3), 171.88733853924697, 1e-9);
}

TEST(PairMaths, RotationOfAllOnesByHand) {
    const LabData d = lab_data(128);
    for (std::int64_t m : {0, 1, 7, 1000003}) {
        const PairRotation r = pair_rotation(d, 5, m);
        const double theta = std::pow(10000.0, -10.0 / 128);
        EXPECT_DOUBLE_EQ(r.theta, theta);
        EXPECT_DOUBLE_EQ(r.base_theta, theta);
        const double angle = std::remainder(static_cast<double>(m) * theta, 2 * kPi);
        EXPECT_NEAR(std::cos(r.angle), std::cos(angle), 1e-9 * (1 + static_cast<double>(m) * theta * 1e-7));
        EXPECT_EQ(r.x, std::complex<double>(1.0, 1.0));
        // (1 + i)(cos + i sin): the rotation keeps the length √2.
        EXPECT_NEAR(r.rotated.real(), r.cos_a - r.sin_a, 1e-15);
        EXPECT_NEAR(r.rotated.imag(), r.sin_a + r.cos_a, 1e-15);
        EXPECT_NEAR(std::abs(r.rotated), std::sqrt(2.0), 1e-12);
    }
}

TEST(PairMaths, AdditionChangesTheLengthRotationDoesNot) {
    const LabData d = lab_data(128);
    const AdditionVsRotation v = addition_vs_rotation(d, 3, 50);
    EXPECT_NEAR(std::abs(v.p_m), 1.0, 1e-12);  // (sin, cos) of one angle
    EXPECT_NEAR(std::abs(v.rotated), std::abs(v.x), 1e-12);
    EXPECT_GT(std::abs(std::abs(v.added) - std::abs(v.x)), 1e-3);
    EXPECT_EQ(v.added, v.x + v.p_m);
}

TEST(PairMaths, GlidingRotorEndsAtTheNextPosition) {
    const LabData d = lab_data(64);
    for (int j : {0, 7, 31}) {
        const auto half = gliding_rotor(d.freqs, j, 41, 0.5), whole = gliding_rotor(d.freqs, j, 42, 0.0);
        const auto almost = gliding_rotor(d.freqs, j, 41, 1.0);
        EXPECT_NEAR(std::abs(almost - whole), 0.0, 1e-12) << j;
        EXPECT_NEAR(std::abs(half), 1.0, 1e-12);
    }
}

TEST(PairMaths, UnscaledWavelengthAtTheBandEnds) {
    EXPECT_DOUBLE_EQ(unscaled_wavelength(10000.0, 0, 128), 2 * kPi);
    EXPECT_NEAR(unscaled_wavelength(10000.0, 64, 128), 2 * kPi * 10000.0, 1e-9);
    EXPECT_NEAR(unscaled_wavelength(500000.0, 31.5, 128), 2 * kPi * std::pow(500000.0, 63.0 / 128), 1e-6);
}

}  // namespace
}  // namespace ropelab::lab
