// The notes the lab shows where the math degenerates; the expected counts are worked by hand
// in the comments (θ_i = θ^(−2i/d)).
#include <gtest/gtest.h>

#include <algorithm>

#include "core/frequencies.h"
#include "core/math_notes.h"

namespace ropelab {
namespace {

RopeFrequencies freqs(int head_dim, double theta, RopeType type = RopeType::Default, double factor = 1.0) {
    ModelConfig c;
    c.head_dim = head_dim;
    c.rope_theta = theta;
    c.rope_scaling.type = type;
    if (type != RopeType::Default) c.rope_scaling.factor = factor;
    return compute_frequencies(c);
}

bool has(const std::vector<MathNote>& notes, const std::string& words, bool degenerate) {
    return std::any_of(notes.begin(), notes.end(), [&](const MathNote& n) {
        return n.degenerate == degenerate && (n.summary + " " + n.detail).find(words) != std::string::npos;
    });
}

std::string all_text(const std::vector<MathNote>& notes) {
    std::string text;
    for (const MathNote& n : notes) text += n.summary + " | " + n.detail + "\n";
    return text;
}

TEST(MathNotes, TextbookSettingsNeedNoNote) {
    // θ_63 = 10^4^(−126/128) = 1.15e-4 rad: 0.47 rad over N = 4096, above the 0.01 threshold.
    const auto notes = math_notes(freqs(128, 1e4), {.max_distance = 4096});
    EXPECT_TRUE(notes.empty()) << all_text(notes);
}

TEST(MathNotes, OnePairIsAPureCosine) {
    // rotary dim 2: θ_0 = 1 rad/token, period 2π = 6.283 tokens.
    const auto notes = math_notes(freqs(2, 1e4), {});
    EXPECT_TRUE(has(notes, "pure cosine", true)) << all_text(notes);
    EXPECT_TRUE(has(notes, "6.283", true)) << all_text(notes);
}

TEST(MathNotes, ThetaNearOneCollapsesTheLadder) {
    // Fastest over slowest is θ^((d−2)/d): 1.5^(126/128) = 1.49 < 2 collapses; 3^(126/128) = 2.95 does not.
    EXPECT_TRUE(has(math_notes(freqs(128, 1.0001), {}), "collapsed", true));
    EXPECT_TRUE(has(math_notes(freqs(128, 1.5), {}), "collapsed", true));
    EXPECT_FALSE(has(math_notes(freqs(128, 3.0), {}), "collapsed", true));
}

TEST(MathNotes, PairsThatDoNotTurnAreCounted) {
    // θ = 1e9, d = 128, N = 16: still where 1e9^(−i/64)·16 < 0.01, i.e. i > 64·ln(1600)/ln(1e9)
    // = 22.79: pairs 23 .. 63, 41 of 64.
    const auto notes = math_notes(freqs(128, 1e9), {.max_distance = 16});
    EXPECT_TRUE(has(notes, "41 of 64 pairs", false)) << all_text(notes);
}

TEST(MathNotes, HugeLinearFactorMakesNeighboursIndistinguishable) {
    // linear 1000: the fastest pair turns 1/1000 rad per token.
    const auto notes = math_notes(freqs(128, 1e4, RopeType::Linear, 1000.0), {.max_distance = 4096});
    EXPECT_TRUE(has(notes, "indistinguishable", true)) << all_text(notes);
    EXPECT_FALSE(has(math_notes(freqs(128, 1e4, RopeType::Linear, 50.0), {}), "indistinguishable", true));
}

TEST(MathNotes, Float32PositionsAndAnglesOnlyInTheNaiveModes) {
    // At m = 2^25 float32 integers are 2^(25−23) = 4 apart; 2·2^-24·2^25·1 rad = 4 rad of error.
    const NoteInputs naive{.max_distance = 4096, .position = std::int64_t{1} << 25, .mode = AngleMode::NaiveFp32};
    const auto notes = math_notes(freqs(128, 1e4), naive);
    EXPECT_TRUE(has(notes, "4 tokens apart", true)) << all_text(notes);
    EXPECT_TRUE(has(notes, "~4 rad", true)) << all_text(notes);
    NoteInputs exact = naive;
    exact.mode = AngleMode::Exact;
    EXPECT_TRUE(math_notes(freqs(128, 1e4), exact).empty());
    // m = 2^20: 2·2^-24·2^20 = 0.125 rad > 0.1, yet every position is still a float32 integer.
    const auto below = math_notes(freqs(128, 1e4), {.position = std::int64_t{1} << 20, .mode = AngleMode::Bf16});
    EXPECT_TRUE(has(below, "~0.12 rad", true)) << all_text(below);
    EXPECT_FALSE(has(below, "2^24", true)) << all_text(below);
}

TEST(MathNotes, HeatmapAliasingNamesTheFastPairs) {
    // Rows 8 apart alias where θ_i > π/8: 1e4^(−i/64) > 0.3927 for i < 64·ln(2.546)/ln(1e4) = 6.49,
    // pairs 0 .. 6.
    const auto notes = math_notes(freqs(128, 1e4), {.max_distance = 4096, .heatmap_stride = 8});
    EXPECT_TRUE(has(notes, "the 7 fastest pairs", false)) << all_text(notes);
}

}  // namespace
}  // namespace ropelab
