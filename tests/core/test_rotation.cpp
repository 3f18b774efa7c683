#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "core/frequencies.h"
#include "core/presets.h"
#include "core/rotation.h"
#include "core/sinusoidal.h"
#include "support/reference.h"

namespace ropelab {
namespace {

ModelConfig model(int head_dim, double theta, PairLayout layout = PairLayout::Interleaved) {
    ModelConfig c;
    c.head_dim = head_dim;
    c.rope_theta = theta;
    c.layout = layout;
    return c;
}

double norm(const std::vector<double>& v) { return std::sqrt(test::reference_dot(v, v)); }

// Seed 002: xq = [5, 6, 7, 8] at position 1 with dim 4 — pairs (5+6i)·e^{i·1} and
// (7+8i)·e^{i·0.01}. The seed prints them with cos/sin rounded to two digits
// (-2.34+7.44i, 6.85+8.0i); here they are checked to full precision by hand-expanded products.
TEST(Rotation, SeedComplexProductsAtPositions1And2) {
    const RopeFrequencies f = compute_frequencies(model(4, 10000.0));
    const std::vector<double> x = {5, 6, 7, 8};
    const std::vector<double> r1 = rotate(x, f, 1);
    EXPECT_NEAR(r1[0], 5 * std::cos(1.0) - 6 * std::sin(1.0), 1e-14);
    EXPECT_NEAR(r1[1], 5 * std::sin(1.0) + 6 * std::cos(1.0), 1e-14);
    EXPECT_NEAR(r1[2], 7 * std::cos(0.01) - 8 * std::sin(0.01), 1e-14);
    EXPECT_NEAR(r1[3], 7 * std::sin(0.01) + 8 * std::cos(0.01), 1e-14);
    EXPECT_NEAR(r1[0], -2.34, 0.01);  // the seed's rounded figures
    EXPECT_NEAR(r1[1], 7.44, 0.01);

    // The seed's freqs_cis table: position 2 → [-0.42+0.91i, 0.99+0.02i] (two digits).
    EXPECT_NEAR(pair_rotor(f, 0, 2).real(), -0.42, 0.005);
    EXPECT_NEAR(pair_rotor(f, 0, 2).imag(), 0.91, 0.005);
    EXPECT_NEAR(pair_rotor(f, 1, 2).real(), 0.9998, 1e-4);
    EXPECT_NEAR(pair_rotor(f, 1, 2).imag(), 0.02, 1e-5);
    const std::vector<double> r2 = rotate(x, f, 2);
    EXPECT_NEAR(r2[0], 5 * std::cos(2.0) - 6 * std::sin(2.0), 1e-14);
    EXPECT_NEAR(r2[1], 5 * std::sin(2.0) + 6 * std::cos(2.0), 1e-14);
}

TEST(Rotation, PreservesNormAtAnyPosition) {
    test::TestRng rng{7};
    for (PairLayout layout : {PairLayout::Interleaved, PairLayout::Half}) {
        for (int d : {2, 8, 64, 128, 256}) {
            const RopeFrequencies f = compute_frequencies(model(d, 10000.0, layout));
            const std::vector<double> x = rng.vector(d);
            for (std::int64_t m : {std::int64_t{0}, std::int64_t{1}, std::int64_t{4097},
                                   std::int64_t{1000000}, (std::int64_t{1} << 31) - 1}) {
                EXPECT_NEAR(norm(rotate(x, f, m)), norm(x), 1e-13 * norm(x)) << "d=" << d;
            }
        }
    }
}

TEST(Rotation, AttentionFactorScalesOnlyTheRotaryPart) {
    ModelConfig c = model(64, 10000.0);
    c.partial_rotary_factor = 0.5;
    c.rope_scaling.type = RopeType::Yarn;
    c.rope_scaling.factor = 16.0;
    const RopeFrequencies f = compute_frequencies(c);
    test::TestRng rng{8};
    const std::vector<double> x = rng.vector(64);
    const std::vector<double> r = rotate(x, f, 999);
    const std::vector<double> x_rot(x.begin(), x.begin() + 32), r_rot(r.begin(), r.begin() + 32);
    EXPECT_NEAR(norm(r_rot), f.attention_factor * norm(x_rot), 1e-13);
    for (int j = 32; j < 64; ++j) EXPECT_EQ(r[j], x[j]) << "pass-through component " << j;
}

TEST(Rotation, MatchesExplicitMatrixReference) {
    if (!test::long_double_is_extended()) GTEST_SKIP() << "needs an 80-bit long double reference";
    test::TestRng rng{9};
    const RopeFrequencies f = compute_frequencies(model(128, 500000.0));
    const std::vector<double> x = rng.vector(128);
    for (std::int64_t m : {std::int64_t{5}, std::int64_t{1000000}, std::int64_t{2000000000}}) {
        const auto expected = test::reference_rotate_interleaved(x, f.inv_freq, m);
        const auto actual = rotate(x, f, m);
        for (int j = 0; j < 128; ++j) EXPECT_NEAR(actual[j], expected[j], 2e-9) << "m=" << m;
    }
}

TEST(Rotation, DotProductDependsOnlyOnDistance) {
    test::TestRng rng{10};
    for (PairLayout layout : {PairLayout::Interleaved, PairLayout::Half}) {
        const RopeFrequencies f = compute_frequencies(model(128, 10000.0, layout));
        const std::vector<double> q = rng.vector(128), k = rng.vector(128);
        for (std::int64_t delta : {0, 1, 17, 4096}) {
            const double at_origin = dot(rotate(q, f, delta), rotate(k, f, 0));
            for (std::int64_t shift : {1, 1000, 123457, 1000000}) {
                const double shifted = dot(rotate(q, f, shift + delta), rotate(k, f, shift));
                EXPECT_NEAR(shifted, at_origin, 1e-11) << "delta=" << delta << " shift=" << shift;
            }
        }
    }
}

TEST(Rotation, LayoutsAgreeAfterThePermutation) {
    // The half layout pairs (i, i + d/2); moving component 2i to i and 2i+1 to i + d/2 turns an
    // interleaved vector into the half-layout vector that rotates identically.
    const int d = 64;
    const RopeFrequencies inter = compute_frequencies(model(d, 10000.0, PairLayout::Interleaved));
    const RopeFrequencies half = compute_frequencies(model(d, 10000.0, PairLayout::Half));
    auto to_half = [d](const std::vector<double>& v) {
        std::vector<double> out(v.size());
        for (int i = 0; i < d / 2; ++i) {
            out[i] = v[2 * i];
            out[i + d / 2] = v[2 * i + 1];
        }
        return out;
    };
    test::TestRng rng{11};
    const std::vector<double> x = rng.vector(d);
    for (std::int64_t m : {3, 777, 1000000}) {
        const auto a = to_half(rotate(x, inter, m));
        const auto b = rotate(to_half(x), half, m);
        for (int j = 0; j < d; ++j) EXPECT_DOUBLE_EQ(a[j], b[j]);
    }
}

TEST(Rotation, PairComponentsPerLayout) {
    EXPECT_EQ(pair_components(3, 128, PairLayout::Interleaved), std::make_pair(6, 7));
    EXPECT_EQ(pair_components(3, 128, PairLayout::Half), std::make_pair(3, 67));
    EXPECT_EQ(pair_components(11, 24, PairLayout::Half), std::make_pair(11, 23));
}

// Vaswani et al.: p_{pos+k} = M_k p_pos with M_k block-diagonal, independent of pos.
TEST(Sinusoidal, LinearShiftProperty) {
    const SinusoidalEncoding enc = sinusoidal_encoding(64, 10000.0);
    for (std::int64_t pos : {0, 5, 1234, 1000000}) {
        for (std::int64_t k : {1, 7, 300}) {
            const auto p = sinusoidal_vector(enc, pos);
            const auto shifted = sinusoidal_vector(enc, pos + k);
            for (int t = 0; t < 32; ++t) {
                const double a = std::cos(k * enc.omega[t]), b = std::sin(k * enc.omega[t]);
                EXPECT_NEAR(shifted[2 * t], a * p[2 * t] + b * p[2 * t + 1], 1e-12);
                EXPECT_NEAR(shifted[2 * t + 1], -b * p[2 * t] + a * p[2 * t + 1], 1e-12);
            }
        }
    }
}

TEST(Sinusoidal, MatchesVaswaniFormulaAtSmallPositions) {
    const SinusoidalEncoding enc = sinusoidal_encoding(16, 10000.0);
    for (std::int64_t pos : {0, 1, 2, 50}) {
        const auto p = sinusoidal_vector(enc, pos);
        for (int t = 0; t < 8; ++t) {
            const double w = std::pow(10000.0, -2.0 * t / 16);
            EXPECT_NEAR(p[2 * t], std::sin(pos * w), 1e-14);
            EXPECT_NEAR(p[2 * t + 1], std::cos(pos * w), 1e-14);
        }
    }
}

}  // namespace
}  // namespace ropelab
