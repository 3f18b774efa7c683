// 2026's models read as their transformers modeling files compute the RoPE: each config is shaped
// as the published config.json (where the file itself was not in the searchable corpora, built
// from the configuration class's fields, as said beside it), and each check is an independent
// float64 formula written from the modeling file, not an output of ropelab.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/config_json.h"
#include "core/error.h"
#include "core/frequencies.h"
#include "core/model_families.h"
#include "core/multi_axis.h"
#include "core/rotation.h"
#include "support/files.h"

namespace ropelab {
namespace {

bool fam26_has_note(const LoadedConfig& c, const std::string& part) {
    for (const std::string& n : c.notes) {
        if (n.find(part) != std::string::npos) return true;
    }
    return false;
}

// A config of tests/data/configs, by name.
nlohmann::json fam26_file(const std::string& name) { return nlohmann::json::parse(std::ifstream(test::corpus(name))); }

const ReadField* fam26_used(const LoadedConfig& c, const std::string& name) {
    for (const ReadField& f : c.used) {
        if (f.name == name) return &f;
    }
    return nullptr;
}

bool fam26_not_applied(const LoadedConfig& c, const std::string& name) {
    for (const IgnoredField& f : c.ignored) {
        if (f.name == name && f.rope) return true;
    }
    return false;
}

// Each inv_freq against the float64 expectation, to a relative 1e-12.
void fam26_expect_freqs(const RopeFrequencies& f, const std::vector<double>& expected) {
    ASSERT_EQ(f.inv_freq.size(), expected.size());
    for (std::size_t j = 0; j < expected.size(); ++j) {
        if (expected[j] == 0.0) {
            EXPECT_EQ(f.inv_freq[j], 0.0) << "pair " << j;
            EXPECT_TRUE(f.unrotated[j]) << "pair " << j;
        } else {
            EXPECT_NEAR(f.inv_freq[j], expected[j], 1e-12 * expected[j]) << "pair " << j;
            EXPECT_FALSE(f.unrotated[j]) << "pair " << j;
        }
    }
}

// --- Gemma 4 --------------------------------------------------------------------------------
// Shaped as google/gemma-4-26B-A4B-it's config.json (text_config: head_dim 256, global_head_dim
// 512, 30 layers of 5 sliding + 1 full, rope_parameters per layer type); the values are
// configuration_gemma4.py's and those quoted from the published file in public code.
nlohmann::json gemma4_config() { return fam26_file("gemma-4-26b-a4b-it"); }

// modeling_rope_utils._compute_proportional_rope_parameters: rope_angles = int(p·d // 2) pairs at
// θ^(−2j/d), the other d/2 − rope_angles at 0.
std::vector<double> proportional_by_formula(double theta, double p, int d) {
    const int angles = static_cast<int>(std::floor(p * d / 2));
    std::vector<double> out;
    for (int j = 0; j < d / 2; ++j) out.push_back(j < angles ? std::pow(theta, -2.0 * j / d) : 0.0);
    return out;
}

TEST(Families2026, Gemma4GlobalLayersRotateTheFastestQuarterOfA512WideHead) {
    const LoadedConfig c = parse_config_json(gemma4_config().dump(), "gemma-4.json");
    EXPECT_EQ(c.layer_type, "full_attention");
    EXPECT_EQ(c.config.head_dim, 512);
    EXPECT_EQ(rotary_dim(c.config), 512);  // the exponent is over the whole head
    EXPECT_EQ(c.config.layout, PairLayout::Half);
    EXPECT_EQ(p_rope_dropped_pairs(c.config.p_rope, 256), 192);
    EXPECT_EQ(c.config.query_pre_attn_scalar, 1.0);  // Gemma4TextAttention.scaling = 1.0
    fam26_expect_freqs(compute_frequencies(c.config), proportional_by_formula(1e6, 0.25, 512));
    EXPECT_TRUE(fam26_has_note(c, "proportional RoPE = p-RoPE: 64 of 256 pairs rotate"));
    EXPECT_TRUE(fam26_has_note(c, "global_head_dim = 512"));
    ASSERT_NE(fam26_used(c, "p_rope"), nullptr);
    EXPECT_EQ(fam26_used(c, "p_rope")->origin, ReadField::Origin::Derived);
    // Layer 5 is the first full layer; layer 0 slides with the 1024 window.
    ASSERT_EQ(c.layers.size(), 30u);
    EXPECT_EQ(c.layers[5].type, "full_attention");
    EXPECT_EQ(c.layers[0].attention.sliding_window, 1024);
}

TEST(Families2026, Gemma4SlidingLayersUseDefaultRopeOverTheirOwnHead) {
    const LoadedConfig c = parse_config_json(gemma4_config().dump(), "gemma-4.json", "sliding_attention");
    EXPECT_EQ(c.config.head_dim, 256);
    EXPECT_EQ(rotary_dim(c.config), 256);
    EXPECT_EQ(c.config.p_rope, 0.0);
    std::vector<double> expected;
    for (int j = 0; j < 128; ++j) expected.push_back(std::pow(1e4, -2.0 * j / 256));
    fam26_expect_freqs(compute_frequencies(c.config), expected);
}

TEST(Families2026, Gemma4ClassRulesBuildTheLayersAndForceTheLastFull) {
    nlohmann::json cfg = gemma4_config();
    cfg["text_config"].erase("layer_types");
    cfg["text_config"]["num_hidden_layers"] = 8;
    const LoadedConfig c = parse_config_json(cfg.dump(), "gemma-4.json");
    ASSERT_EQ(c.layers.size(), 8u);
    // configuration_gemma4.py: (i + 1) % 6 == 0 is full, and the last layer is forced full.
    for (int i = 0; i < 8; ++i) {
        EXPECT_EQ(c.layers[static_cast<std::size_t>(i)].type, i == 5 || i == 7 ? "full_attention" : "sliding_attention") << i;
    }
    // An odd factor: ⌊0.3 × 512 / 2⌋ = 76 pairs rotate (int(p·d // 2)), not a rounded 77.
    cfg["text_config"]["rope_parameters"]["full_attention"]["partial_rotary_factor"] = 0.3;
    const LoadedConfig odd = parse_config_json(cfg.dump(), "gemma-4.json");
    fam26_expect_freqs(compute_frequencies(odd.config), proportional_by_formula(1e6, 0.3, 512));
}

TEST(Families2026, Gemma4RowNamesItsModelingFile) {
    const ModelFamily* f = find_family("gemma4_text");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->source, "models/gemma4/modeling_gemma4.py");
    EXPECT_EQ(family_of_architecture("Gemma4ForConditionalGeneration"), f);
}

// --- Hunyuan --------------------------------------------------------------------------------
// Shaped as tencent/Hunyuan-7B-Instruct's config.json (rope_scaling {"type": "dynamic", "alpha":
// 1000.0, "factor": 1.0, …}); the file itself was not in the corpora, so this is built from
// HunYuanDenseV1Config's fields with the rope_scaling keys its modeling file reads.
nlohmann::json hunyuan_config() { return fam26_file("hunyuan-7b-instruct"); }

TEST(Families2026, HunyuanAlphaIsAFixedBaseThetaTimesAlphaToDOverDMinus2) {
    const LoadedConfig c = parse_config_json(hunyuan_config().dump(), "hunyuan.json");
    // HunYuanDenseV1RotaryEmbedding: base = θ · α^(d / (d − 2)), inv_freq = base^(−2j/d).
    const double base = 1e4 * std::pow(1000.0, 128.0 / 126.0);
    EXPECT_NEAR(c.config.rope_theta, base, 1e-9 * base);
    EXPECT_EQ(c.config.rope_scaling.type, RopeType::Default);
    EXPECT_EQ(rotary_dim(c.config), 128);
    EXPECT_EQ(c.config.layout, PairLayout::Half);
    std::vector<double> expected;
    for (int j = 0; j < 64; ++j) expected.push_back(std::pow(base, -2.0 * j / 128));
    fam26_expect_freqs(compute_frequencies(c.config), expected);
    const ReadField* derived = fam26_used(c, "rope_theta (NTK-alpha base)");
    ASSERT_NE(derived, nullptr);
    EXPECT_EQ(derived->origin, ReadField::Origin::Derived);
    EXPECT_NE(derived->why.find("alpha"), std::string::npos);
    EXPECT_TRUE(fam26_has_note(c, "NTK-alpha"));
    // The other keys are not applied, and said so.
    EXPECT_TRUE(fam26_not_applied(c, "rope_scaling.factor"));
    EXPECT_TRUE(fam26_not_applied(c, "rope_scaling.mscale"));
}

TEST(Families2026, HunyuanMoeReadsTheSameRule) {
    nlohmann::json cfg = hunyuan_config();
    cfg["model_type"] = "hunyuan_v1_moe";
    cfg["architectures"] = {"HunYuanMoEV1ForCausalLM"};
    cfg["rope_scaling"]["alpha"] = 50.0;
    const LoadedConfig c = parse_config_json(cfg.dump(), "hunyuan-a13b.json");
    const double base = 1e4 * std::pow(50.0, 128.0 / 126.0);
    EXPECT_NEAR(c.config.rope_theta, base, 1e-9 * base);
    EXPECT_EQ(find_family("hunyuan_v1_moe")->source, "models/hunyuan_v1_moe/modeling_hunyuan_v1_moe.py");
}

// --- Qwen3.5 --------------------------------------------------------------------------------
// Shaped as Qwen/Qwen3.5-27B's config.json (text_config with layer_types, rope_parameters holding
// mrope_interleaved, mrope_section [11, 11, 10], partial_rotary_factor 0.25); the values are
// configuration_qwen3_5.py's and Qwen3_5TextRotaryEmbedding's defaults.
// 16 of the file's 64 layers, so the counts below are written out by hand.
nlohmann::json qwen3_5_config() {
    nlohmann::json cfg = fam26_file("qwen3.5-27b");
    nlohmann::json types = nlohmann::json::array();
    for (int i = 0; i < 16; ++i) types.push_back((i + 1) % 4 == 0 ? "full_attention" : "linear_attention");
    cfg["text_config"]["layer_types"] = types;
    cfg["text_config"]["num_hidden_layers"] = 16;
    return cfg;
}

TEST(Families2026, Qwen3_5RotatesAQuarterWithInterleavedMrope) {
    const LoadedConfig c = parse_config_json(qwen3_5_config().dump(), "qwen3.5.json");
    EXPECT_EQ(c.config.head_dim, 256);
    EXPECT_EQ(rotary_dim(c.config), 64);
    EXPECT_EQ(c.config.layout, PairLayout::Half);
    std::vector<double> expected;
    for (int j = 0; j < 32; ++j) expected.push_back(std::pow(1e7, -2.0 * j / 64));
    fam26_expect_freqs(compute_frequencies(c.config), expected);
    // apply_interleaved_mrope by hand: h on 1, 4, …, 31; w on 2, 5, …, 29; t elsewhere.
    std::string letters(32, 't');
    for (int k = 0; k < 11; ++k) letters[static_cast<std::size_t>(3 * k + 1)] = 'h';
    for (int k = 0; k < 10; ++k) letters[static_cast<std::size_t>(3 * k + 2)] = 'w';
    EXPECT_EQ(pair_axis_letters(c.config), letters);
    EXPECT_EQ(c.config.multi_axis.position_ids, PositionIds::Qwen3VL);
    // 12 of the 16 layers are Gated DeltaNet (linear_attention): no RoPE.
    EXPECT_EQ(c.layers_without_rope, 12);
    EXPECT_FALSE(c.layers[0].attention.rope);
    EXPECT_TRUE(c.layers[3].attention.rope);
    const ReadField* rule = fam26_used(c, "multi_axis.rule");
    ASSERT_NE(rule, nullptr);
    EXPECT_NE(rule->why.find("modeling_qwen3_5.py"), std::string::npos);
}

TEST(Families2026, Qwen3_5WithoutLayerTypesMakesEveryFourthLayerFull) {
    nlohmann::json cfg = qwen3_5_config();
    cfg["text_config"].erase("layer_types");
    cfg["model_type"] = "qwen3_5_moe";
    cfg["text_config"]["model_type"] = "qwen3_5_moe_text";
    cfg["architectures"] = {"Qwen3_5MoeForConditionalGeneration"};
    const LoadedConfig c = parse_config_json(cfg.dump(), "qwen3.5-moe.json");
    ASSERT_EQ(c.layers.size(), 16u);
    for (int i = 0; i < 16; ++i) EXPECT_EQ(c.layers[static_cast<std::size_t>(i)].attention.rope, (i + 1) % 4 == 0) << i;
    EXPECT_EQ(family_of_architecture("Qwen3_5MoeForConditionalGeneration")->model_type, "qwen3_5_moe");
}

// --- DeepSeek-V3.2 --------------------------------------------------------------------------
// The published deepseek-ai/DeepSeek-V3.2-Exp config.json (a copy is in transformers'
// models/deepseek_v32/deepseek_files/config.json): YaRN ×40 from 4096 over the 64 rope dims.
// modeling_rope_utils._compute_yarn_parameters in float64: the correction range rounded out, the
// ramp between interpolated (÷ factor) and extrapolated frequencies.
std::vector<double> yarn_by_formula(int dim, double base, double factor, double original, double fast, double slow) {
    const auto correction = [&](double rotations) { return dim * std::log(original / (rotations * 2 * M_PI)) / (2 * std::log(base)); };
    const double low = std::max(0.0, std::floor(correction(fast)));
    const double high = std::min(dim - 1.0, std::ceil(correction(slow)));
    std::vector<double> out;
    for (int j = 0; j < dim / 2; ++j) {
        const double extrapolated = std::pow(base, -2.0 * j / dim);
        const double ramp = std::clamp((j - low) / (high == low ? high + 0.001 - low : high - low), 0.0, 1.0);
        const double keep = 1.0 - ramp;
        out.push_back(extrapolated / factor * (1 - keep) + extrapolated * keep);
    }
    return out;
}

TEST(Families2026, DeepseekV32MlaStaysInterleavedOnTheRopeTail) {
    const LoadedConfig c = parse_config_json(fam26_file("deepseek-v3.2-exp").dump(), "deepseek-v3.2.json");
    EXPECT_EQ(c.layer_type, "mla");
    EXPECT_EQ(c.layer_types, (std::vector<std::string>{"mla", "indexer"}));
    EXPECT_EQ(c.config.layout, PairLayout::Interleaved);
    EXPECT_EQ(c.config.head_dim, 192);
    EXPECT_EQ(c.config.rotary_offset, 128);
    EXPECT_EQ(rotary_dim(c.config), 64);
    fam26_expect_freqs(compute_frequencies(c.config), yarn_by_formula(64, 1e4, 40, 4096, 32, 1));
}

TEST(Families2026, DeepseekV32IndexerRotatesItsFirst64WithRotateHalf) {
    const LoadedConfig mla = parse_config_json(fam26_file("deepseek-v3.2-exp").dump(), "deepseek-v3.2.json");
    const LoadedConfig c = parse_config_json(fam26_file("deepseek-v3.2-exp").dump(), "deepseek-v3.2.json", "indexer");
    EXPECT_EQ(c.layer_type, "indexer");
    EXPECT_EQ(c.config.layout, PairLayout::Half);
    EXPECT_EQ(c.config.head_dim, 128);  // index_head_dim
    EXPECT_EQ(c.config.rotary_offset, 0);  // [rot | pass]: the first 64 components rotate
    EXPECT_EQ(rotary_dim(c.config), 64);
    // The same cos and sin as MLA's: θ, YaRN and its attention factor unchanged.
    const RopeFrequencies f = compute_frequencies(c.config);
    fam26_expect_freqs(f, yarn_by_formula(64, 1e4, 40, 4096, 32, 1));
    EXPECT_EQ(f.attention_factor, compute_frequencies(mla.config).attention_factor);
    EXPECT_TRUE(fam26_has_note(c, "lightning indexer"));
    EXPECT_TRUE(fam26_not_applied(c, "layout"));
    EXPECT_EQ(parse_config_json(fam26_file("deepseek-v3.2-exp").dump(), "d.json", "mla").config, mla.config);
}

// --- ERNIE 4.5-VL ---------------------------------------------------------------------------
// Built from Ernie4_5_VL_MoeTextConfig's fields (baidu/ERNIE-4.5-VL-28B-A3B's published files are
// remote-code configs; the transformers-format file was not in the corpora): head_dim 128, θ
// 500000, rope_parameters.mrope_section [22, 22, 20] (h, w, t), the class's default.
TEST(Families2026, ErnieVlAlternatesHeightAndWidthOnTheFastPairsTimeOnTheSlowest) {
    const LoadedConfig c = parse_config_json(fam26_file("ernie-4.5-vl-28b-a3b").dump(), "ernie-vl.json");
    EXPECT_EQ(c.config.layout, PairLayout::Interleaved);  // rotate_half_text: (2i, 2i+1)
    EXPECT_EQ(rotary_dim(c.config), 128);
    EXPECT_EQ(c.config.multi_axis.rule, AxisRule::Alternating);
    EXPECT_EQ(c.config.multi_axis.sections, (std::vector<double>{20, 22, 22}));  // t, h, w
    // Ernie4_5_VL_MoeTextRotaryEmbedding by hand: inv_freq_3d puts the evens of the first 44, then
    // their odds, then the last 20; recomposition_to_3d reads h from the first 22, w from the next
    // 22 and stacks them (h, w, h, w, …), t after. So pair p keeps θ^(−2p/d) and turns with h for
    // even p < 44, w for odd p < 44, t from 44 on.
    const RopeFrequencies f = compute_frequencies(c.config);
    const std::vector<AxisVector> omega = pair_frequency_vectors(c.config, f);
    ASSERT_EQ(omega.size(), 64u);
    for (int p = 0; p < 64; ++p) {
        const double w = std::pow(500000.0, -2.0 * p / 128);
        const int axis = p >= 44 ? 0 : p % 2 == 0 ? 1 : 2;
        for (int a = 0; a < 3; ++a) {
            const double expected = a == axis ? w : 0.0;
            EXPECT_NEAR(omega[static_cast<std::size_t>(p)][static_cast<std::size_t>(a)], expected, 1e-12 * w) << p << " axis " << a;
        }
    }
    std::string letters;
    for (int p = 0; p < 64; ++p) letters += p >= 44 ? 't' : p % 2 == 0 ? 'h' : 'w';
    EXPECT_EQ(pair_axis_letters(c.config), letters);
    const ReadField* rule = fam26_used(c, "multi_axis.rule");
    ASSERT_NE(rule, nullptr);
    EXPECT_NE(rule->why.find("recomposition_to_3d"), std::string::npos);
    EXPECT_TRUE(fam26_has_note(c, "multi-axis rule alternating"));
}

TEST(Families2026, ErnieVlRefusesUnequalHeightAndWidthSections) {
    nlohmann::json cfg = fam26_file("ernie-4.5-vl-28b-a3b");
    cfg["text_config"]["rope_parameters"]["mrope_section"] = {24, 20, 20};
    try {
        parse_config_json(cfg.dump(), "ernie-vl.json");
        FAIL() << "accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("the first two must be equal"), std::string::npos) << e.what();
    }
}

// --- nanochat -------------------------------------------------------------------------------
// Built from NanoChatConfig's fields, sized as karpathy's d32 (2048 wide, 16 heads of 128); the
// converted config.json was not in the corpora.
TEST(Families2026, NanochatRotatesByMinusThetaAndTheLabSwapsEachPair) {
    const LoadedConfig c = parse_config_json(fam26_file("nanochat-d32").dump(), "nanochat.json");
    EXPECT_TRUE(c.config.negative_rotation);
    EXPECT_EQ(c.config.layout, PairLayout::Half);
    EXPECT_EQ(rotary_dim(c.config), 128);
    std::vector<double> expected;
    for (int j = 0; j < 64; ++j) expected.push_back(std::pow(1e4, -2.0 * j / 128));
    const RopeFrequencies f = compute_frequencies(c.config);
    fam26_expect_freqs(f, expected);
    EXPECT_TRUE(fam26_has_note(c, "rotation by −θ (nanochat)"));
    // modular_nanochat.py in float64: y1 = x1·cos + x2·sin, y2 = −x1·sin + x2·cos over the halves.
    const auto nanochat = [&](const std::vector<double>& x, int m) {
        std::vector<double> y(128);
        for (int i = 0; i < 64; ++i) {
            const double a = m * expected[static_cast<std::size_t>(i)];
            const double x1 = x[static_cast<std::size_t>(i)], x2 = x[static_cast<std::size_t>(i + 64)];
            y[static_cast<std::size_t>(i)] = x1 * std::cos(a) + x2 * std::sin(a);
            y[static_cast<std::size_t>(i + 64)] = -x1 * std::sin(a) + x2 * std::cos(a);
        }
        return y;
    };
    std::vector<double> q(128), k(128);
    for (int i = 0; i < 128; ++i) {
        q[static_cast<std::size_t>(i)] = std::sin(0.37 * i + 0.1);
        k[static_cast<std::size_t>(i)] = std::cos(0.23 * i - 0.4);
    }
    const std::vector<double> sq = swap_pair_components(q, 128, PairLayout::Half);
    const std::vector<double> sk = swap_pair_components(k, 128, PairLayout::Half);
    for (auto [m, n] : {std::pair{7, 3}, std::pair{100, 0}, std::pair{513, 512}, std::pair{2, 40}}) {
        const double truth = dot(nanochat(q, m), nanochat(k, n));
        // The lab's +θ rotation of the swapped vectors gives the same score …
        EXPECT_NEAR(dot(rotate(sq, f, m), rotate(sk, f, n)), truth, 1e-10 * (1 + std::abs(truth))) << m << ", " << n;
        // … which is ordinary RoPE's score mirrored in the offset.
        EXPECT_NEAR(dot(rotate(q, f, n), rotate(k, f, m)), truth, 1e-10 * (1 + std::abs(truth))) << m << ", " << n;
    }
    // Swapping twice is the identity; interleaved pairs swap (2i, 2i+1).
    EXPECT_EQ(swap_pair_components(sq, 128, PairLayout::Half), q);
    EXPECT_EQ(swap_pair_components({1, 2, 3, 4, 5}, 4, PairLayout::Interleaved), (std::vector<double>{2, 1, 4, 3, 5}));
}

}  // namespace
}  // namespace ropelab
