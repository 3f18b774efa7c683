#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"
#include "core/frequencies.h"
#include "core/presets.h"
#include "support/reference.h"

namespace ropelab {
namespace {

ModelConfig textbook(int head_dim = 128, double theta = 10000.0) {
    ModelConfig c;
    c.head_dim = head_dim;
    c.rope_theta = theta;
    return c;
}

// Seed 002: dim 4 → inv_freq [1, 0.01].
TEST(Frequencies, SeedDim4) {
    const RopeFrequencies f = compute_frequencies(textbook(4));
    ASSERT_EQ(f.inv_freq.size(), 2u);
    EXPECT_DOUBLE_EQ(f.inv_freq[0], 1.0);
    EXPECT_NEAR(f.inv_freq[1], 0.01, 1e-17);
    EXPECT_DOUBLE_EQ(f.attention_factor, 1.0);
}

TEST(Frequencies, DefaultIsGeometricWithWavelengthTwoPiOverFreq) {
    const RopeFrequencies f = compute_frequencies(textbook(128, 10000.0));
    ASSERT_EQ(f.pairs(), 64);
    for (int i = 1; i < 64; ++i) {
        // Neighbouring pairs differ by the constant ratio θ^(-2/d).
        EXPECT_NEAR(f.inv_freq[i] / f.inv_freq[i - 1], std::pow(10000.0, -2.0 / 128), 1e-14);
    }
    EXPECT_NEAR(wavelength(f.inv_freq[0]), 2 * M_PI, 1e-15);
    // Vaswani et al.: wavelengths run from 2π towards 10000·2π.
    EXPECT_NEAR(wavelength(f.inv_freq[63]), 2 * M_PI * std::pow(10000.0, 126.0 / 128), 1e-6);
}

TEST(Frequencies, LinearDividesEveryPair) {
    ModelConfig c = textbook();
    c.rope_scaling.type = RopeType::Linear;
    c.rope_scaling.factor = 4.0;
    const RopeFrequencies f = compute_frequencies(c);
    const auto ref = test::reference_inv_freq(128, 10000.0);
    for (int i = 0; i < 64; ++i) EXPECT_DOUBLE_EQ(f.inv_freq[i], ref[i] / 4.0);
    for (PairScaling s : classify_pairs(f, 4.0)) EXPECT_EQ(s, PairScaling::Interpolated);
}

TEST(Frequencies, NtkRaisesTheBase) {
    ModelConfig c = textbook();
    c.rope_scaling.type = RopeType::Ntk;
    c.rope_scaling.factor = 8.0;
    const RopeFrequencies f = compute_frequencies(c);
    const double base = 10000.0 * std::pow(8.0, 128.0 / 126.0);
    const auto ref = test::reference_inv_freq(128, base);
    for (int i = 0; i < 64; ++i) EXPECT_NEAR(f.inv_freq[i] / ref[i], 1.0, 1e-13);
    EXPECT_DOUBLE_EQ(f.inv_freq[0], 1.0);  // the fastest pair never changes
    // The slowest pair is slowed by almost exactly the factor: NTK interpolates low frequencies.
    EXPECT_NEAR(f.inv_freq[63] / f.unscaled_inv_freq[63], std::pow(8.0, -126.0 / 126.0), 1e-12);
}

TEST(Frequencies, DynamicGrowsWithSequenceLength) {
    ModelConfig c = textbook();
    c.max_position_embeddings = 4096;
    c.rope_scaling.type = RopeType::Dynamic;
    c.rope_scaling.factor = 2.0;
    // At or below the trained length the base is unchanged.
    RopeFrequencies f = compute_frequencies(c);
    EXPECT_DOUBLE_EQ(f.effective_theta, 10000.0);
    c.seq_len = 1000;
    EXPECT_DOUBLE_EQ(compute_frequencies(c).effective_theta, 10000.0);
    // At twice the length: base · (2·2 − 1)^(d/(d−2)).
    c.seq_len = 8192;
    f = compute_frequencies(c);
    EXPECT_NEAR(f.effective_theta / (10000.0 * std::pow(3.0, 128.0 / 126.0)), 1.0, 1e-13);
}

TEST(Frequencies, Llama31Bands) {
    const RopeFrequencies f = compute_frequencies(preset_or_throw("llama3.1-8b").config);
    int unchanged = 0, blended = 0, divided = 0;
    const auto ref = test::reference_inv_freq(128, 500000.0);
    for (int i = 0; i < 64; ++i) {
        const double ratio = f.inv_freq[i] / ref[i];
        if (std::abs(ratio - 1.0) < 1e-12) {
            ++unchanged;
        } else if (std::abs(ratio - 0.125) < 1e-12) {
            ++divided;
        } else {
            ++blended;
            EXPECT_GT(ratio, 0.125);
            EXPECT_LT(ratio, 1.0);
        }
    }
    EXPECT_EQ(unchanged, 29);
    EXPECT_EQ(blended, 6);
    EXPECT_EQ(divided, 29);

    const auto classes = classify_pairs(f, 8.0);
    EXPECT_EQ(std::count(classes.begin(), classes.end(), PairScaling::Unchanged), 29);
    EXPECT_EQ(std::count(classes.begin(), classes.end(), PairScaling::Blended), 6);
    EXPECT_EQ(std::count(classes.begin(), classes.end(), PairScaling::Interpolated), 29);
}

TEST(Frequencies, Llama3BlendIsTheSmoothInterpolation) {
    const RopeFrequencies f = compute_frequencies(preset_or_throw("llama3.1-8b").config);
    const auto ref = test::reference_inv_freq(128, 500000.0);
    // Pair 30 sits in the blended band; its value written out by hand from Meta's formula.
    const double wavelen = 2 * M_PI / ref[30];
    ASSERT_GT(wavelen, 8192.0 / 4.0);
    ASSERT_LT(wavelen, 8192.0 / 1.0);
    const double smooth = (8192.0 / wavelen - 1.0) / (4.0 - 1.0);
    EXPECT_DOUBLE_EQ(f.inv_freq[30], (1 - smooth) * ref[30] / 8.0 + smooth * ref[30]);
}

TEST(Frequencies, QwenYarnCorrectionRangeAndAttentionFactor) {
    const RopeFrequencies f = compute_frequencies(preset_or_throw("qwen2.5-7b-yarn").config);
    ASSERT_TRUE(f.yarn_correction_range.has_value());
    EXPECT_EQ(f.yarn_correction_range->first, 23.0);
    EXPECT_EQ(f.yarn_correction_range->second, 40.0);
    EXPECT_NEAR(f.attention_factor, 1.138629, 5e-7);
    EXPECT_NEAR(f.attention_factor, 0.1 * std::log(4.0) + 1.0, 1e-15);

    const auto ref = test::reference_inv_freq(128, 1e6);
    EXPECT_DOUBLE_EQ(f.inv_freq[10], ref[10]);         // below the ramp: extrapolated (kept)
    EXPECT_DOUBLE_EQ(f.inv_freq[50], ref[50] / 4.0);   // above the ramp: interpolated
    const double ramp = (30.0 - 23.0) / (40.0 - 23.0);  // pair 30, on the ramp
    EXPECT_DOUBLE_EQ(f.inv_freq[30], ref[30] / 4.0 * ramp + ref[30] * (1 - ramp));
}

TEST(Frequencies, DeepSeekYarnMscaleRatioIsOne) {
    const RopeFrequencies f = compute_frequencies(preset_or_throw("deepseek-v3").config);
    EXPECT_DOUBLE_EQ(f.attention_factor, 1.0);
    // Correction range with the original 4096-token context, d = 64, θ = 10000.
    const double low = std::floor(64 * std::log(4096 / (32 * 2 * M_PI)) / (2 * std::log(10000.0)));
    const double high = std::ceil(64 * std::log(4096 / (1 * 2 * M_PI)) / (2 * std::log(10000.0)));
    EXPECT_EQ(f.yarn_correction_range->first, low);
    EXPECT_EQ(f.yarn_correction_range->second, std::min(high, 63.0));
}

TEST(Frequencies, YarnExplicitMscalesGiveTheirRatio) {
    ModelConfig c = textbook();
    c.rope_scaling.type = RopeType::Yarn;
    c.rope_scaling.factor = 40.0;
    c.rope_scaling.mscale = 1.0;
    c.rope_scaling.mscale_all_dim = 0.707;
    const double expected = (0.1 * std::log(40.0) + 1) / (0.1 * 0.707 * std::log(40.0) + 1);
    EXPECT_NEAR(compute_frequencies(c).attention_factor, expected, 1e-15);
}

TEST(Frequencies, Phi3LongRope) {
    const Preset& phi = preset_or_throw("phi3-mini-128k");
    const RopeFrequencies f = compute_frequencies(phi.config);
    EXPECT_EQ(f.rotary_dim, 96);
    EXPECT_NEAR(f.attention_factor, 1.190238, 5e-7);
    EXPECT_NEAR(f.attention_factor, std::sqrt(1 + std::log(32.0) / std::log(4096.0)), 1e-15);
    const auto ref = test::reference_inv_freq(96, 10000.0);
    // Default sequence length is max_position_embeddings (131072) > 4096: long factors.
    for (int i = 0; i < 48; ++i) {
        EXPECT_DOUBLE_EQ(f.inv_freq[i], ref[i] / phi.config.rope_scaling.long_factor[i]);
    }
    ModelConfig short_context = phi.config;
    short_context.seq_len = 4096;
    const RopeFrequencies s = compute_frequencies(short_context);
    for (int i = 0; i < 48; ++i) {
        EXPECT_DOUBLE_EQ(s.inv_freq[i], ref[i] / phi.config.rope_scaling.short_factor[i]);
    }
}

TEST(Frequencies, PartialRotaryPresets) {
    EXPECT_EQ(compute_frequencies(preset_or_throw("gpt-j-6b").config).rotary_dim, 64);
    EXPECT_EQ(compute_frequencies(preset_or_throw("gpt-j-6b").config).head_dim, 256);
    EXPECT_EQ(compute_frequencies(preset_or_throw("gpt-neox-20b").config).rotary_dim, 24);
    EXPECT_EQ(compute_frequencies(preset_or_throw("gpt-neox-20b").config).head_dim, 96);
    EXPECT_EQ(preset_or_throw("gpt-neox-20b").config.layout, PairLayout::Half);
}

void expect_error_mentions(const ModelConfig& c, const std::string& a, const std::string& b) {
    try {
        compute_frequencies(c);
        FAIL() << "expected an InputError mentioning " << a;
    } catch (const InputError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find(a), std::string::npos) << message;
        EXPECT_NE(message.find(b), std::string::npos) << message;
    }
}

TEST(Frequencies, BadSettingsNameTheFieldAndValue) {
    ModelConfig c = textbook(127);
    expect_error_mentions(c, "rotary dim", "127");
    c = textbook();
    c.rope_theta = 0.5;
    expect_error_mentions(c, "rope_theta", "0.5");
    c = textbook();
    c.rope_theta = 1.0;
    expect_error_mentions(c, "rope_theta", "1");
    c = textbook();
    c.rope_scaling.type = RopeType::Linear;
    c.rope_scaling.factor = -2.0;
    expect_error_mentions(c, "rope_scaling.factor", "-2");
    c.rope_scaling.factor.reset();
    expect_error_mentions(c, "rope_scaling.factor", "required");
    c = textbook();
    c.rope_scaling.type = RopeType::Llama3;
    c.rope_scaling.factor = 8.0;
    expect_error_mentions(c, "low_freq_factor", "llama3");
    c = textbook();
    c.rope_scaling.type = RopeType::LongRope;
    c.original_max_position_embeddings = 4096;
    c.rope_scaling.long_factor = {1.0, 2.0};
    c.rope_scaling.short_factor = {1.0, 2.0};
    expect_error_mentions(c, "long_factor", "64");
}

}  // namespace
}  // namespace ropelab
