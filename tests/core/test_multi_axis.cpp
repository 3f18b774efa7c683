// Which axis turns each pair, and how fast, for every multi-axis rule — against lists worked out
// by hand from the modeling code's index arithmetic and against the frequency formulas in float64.
#include <cmath>
#include <numbers>
#include <string>

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/multi_axis.h"

namespace ropelab {
namespace {

ModelConfig multi_axis(AxisRule rule, int head_dim, double theta, std::vector<double> sections = {}) {
    ModelConfig c;
    c.head_dim = head_dim;
    c.rope_theta = theta;
    c.layout = PairLayout::Half;
    c.multi_axis.rule = rule;
    c.multi_axis.sections = std::move(sections);
    return c;
}

std::string repeat(char c, int n) { return std::string(static_cast<std::size_t>(n), c); }

TEST(MultiAxis, ContiguousSectionsGiveTheSlowestPairsToWidth) {
    // Qwen2-VL: mrope_section [16, 24, 24] over 64 pairs — pairs 0–15 t, 16–39 h, 40–63 w.
    const ModelConfig c = multi_axis(AxisRule::Sections, 128, 1e6, {16, 24, 24});
    EXPECT_EQ(pair_axis_letters(c), repeat('t', 16) + repeat('h', 24) + repeat('w', 24));
    const RopeFrequencies f = compute_frequencies(c);
    const auto omega = pair_frequency_vectors(c, f);
    ASSERT_EQ(omega.size(), 64u);
    for (std::size_t j = 0; j < 64; ++j) {
        const double expected = std::pow(1e6, -2.0 * static_cast<double>(j) / 128.0);
        const int axis = j < 16 ? 0 : j < 40 ? 1 : 2;
        for (int a = 0; a < kAxes; ++a) EXPECT_NEAR(omega[j][static_cast<std::size_t>(a)], a == axis ? expected : 0.0, 1e-15 * expected) << j;
    }
    // The width band: 2π·10^(6·80/128) ≈ 3.5·10^4 to 2π·10^(6·126/128) ≈ 5.1·10^6 tokens per turn.
    EXPECT_NEAR(2 * std::numbers::pi / omega[40][2], 35330.0, 5.0);
    EXPECT_NEAR(2 * std::numbers::pi / omega[63][2], 5.063e6, 1e3);
}

TEST(MultiAxis, InterleavedSectionsGiveEveryAxisTheFullBand) {
    // Qwen3-VL's apply_interleaved_mrope, [24, 20, 20]: h at 1, 4, …, 58; w at 2, 5, …, 59; t elsewhere.
    const ModelConfig c = multi_axis(AxisRule::Interleaved, 128, 5e6, {24, 20, 20});
    std::string expected;
    for (int j = 0; j < 64; ++j) expected += j < 60 ? "thw"[j % 3] : 't';
    EXPECT_EQ(pair_axis_letters(c), expected);
    EXPECT_EQ(std::count(expected.begin(), expected.end(), 't'), 24);
}

TEST(MultiAxis, AxialRulesTakeALadderPerAxis) {
    // Qwen2-VL's vision tower: head 80, VisionRotaryEmbedding(40) for h then w: θ^(−2j/40), j < 20, twice.
    const ModelConfig c = multi_axis(AxisRule::Axial, 80, 1e4, {0, 20, 20});
    EXPECT_EQ(pair_axis_letters(c), repeat('h', 20) + repeat('w', 20));
    const auto omega = pair_frequency_vectors(c, compute_frequencies(c));
    for (std::size_t j = 0; j < 20; ++j) {
        const double expected = std::pow(1e4, -2.0 * static_cast<double>(j) / 40.0);
        EXPECT_NEAR(omega[j][1], expected, 1e-15 * expected);
        EXPECT_NEAR(omega[j + 20][2], expected, 1e-15 * expected);
    }
}

TEST(MultiAxis, EvenOddSplitsOneLadderBetweenTheAxes) {
    // Pixtral: freqs = θ^(−2i/64), h takes freqs[0::2], w freqs[1::2], h first.
    const ModelConfig c = multi_axis(AxisRule::EvenOdd, 64, 1e4);
    EXPECT_EQ(pair_axis_letters(c), repeat('h', 16) + repeat('w', 16));
    const auto omega = pair_frequency_vectors(c, compute_frequencies(c));
    for (std::size_t j = 0; j < 16; ++j) {
        EXPECT_DOUBLE_EQ(omega[j][1], std::pow(1e4, -2.0 * static_cast<double>(2 * j) / 64.0));
        EXPECT_DOUBLE_EQ(omega[j + 16][2], std::pow(1e4, -2.0 * static_cast<double>(2 * j + 1) / 64.0));
    }
}

TEST(MultiAxis, MixedPairsTurnAlongTwoOrthogonalDirections) {
    ModelConfig c = multi_axis(AxisRule::Mixed, 64, 10.0);
    c.multi_axis.mixed_angle = 30.0;
    EXPECT_EQ(pair_axis_letters(c), repeat('m', 32));
    const auto omega = pair_frequency_vectors(c, compute_frequencies(c));
    for (std::size_t k = 0; k < 16; ++k) {
        const double magnitude = std::pow(10.0, -4.0 * static_cast<double>(k) / 64.0);
        EXPECT_NEAR(std::hypot(omega[k][1], omega[k][2]), magnitude, 1e-15);
        EXPECT_NEAR(std::atan2(omega[k][1], omega[k][2]), std::numbers::pi / 6, 1e-12);  // φ = 30°
        // The second half turns at 90° to the first: their directions' dot product is 0.
        EXPECT_NEAR(omega[k][1] * omega[k + 16][1] + omega[k][2] * omega[k + 16][2], 0.0, 1e-15);
        EXPECT_EQ(omega[k][0], 0.0);
    }
}

TEST(MultiAxis, OneDimensionalModelsUseOnePositionForAllThree) {
    ModelConfig c;
    EXPECT_EQ(pair_axis_letters(c), "");
    const RopeFrequencies f = compute_frequencies(c);
    for (std::size_t j = 0; const AxisVector& w : pair_frequency_vectors(c, f)) {
        EXPECT_EQ(w[0], f.inv_freq[j]);
        EXPECT_EQ(w[1], f.inv_freq[j]);
        EXPECT_EQ(w[2], f.inv_freq[j++]);
    }
}

TEST(MultiAxis, StructureErrorsNameTheFieldAndTheNumbers) {
    const auto message = [](const ModelConfig& c) {
        try {
            validate(c);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(message(multi_axis(AxisRule::Sections, 128, 1e6, {16, 24, 16})).find("add up to 56 pairs; rotary dim 128 has 64"),
              std::string::npos);
    EXPECT_NE(message(multi_axis(AxisRule::Sections, 128, 1e6, {16, 48})).find("has 2 entries"), std::string::npos);
    EXPECT_NE(message(multi_axis(AxisRule::Sections, 128, 1e6, {16.5, 24, 23.5})).find("whole numbers"), std::string::npos);
    EXPECT_NE(message(multi_axis(AxisRule::Interleaved, 128, 1e6, {0, 32, 32})).find("a third of the pairs"), std::string::npos);
    ModelConfig scaled = multi_axis(AxisRule::Axial, 80, 1e4, {0, 20, 20});
    scaled.rope_scaling.type = RopeType::Linear;
    scaled.rope_scaling.factor = 2.0;
    EXPECT_NE(message(scaled).find("unscaled frequencies"), std::string::npos);
    EXPECT_EQ(message(multi_axis(AxisRule::Sections, 128, 1e6, {16, 24, 24})), "accepted");
}

}  // namespace
}  // namespace ropelab
