// Multi-axis configs read as the models' code applies them: which axis each rotary pair turns with
// (against lists worked out by hand from each modeling file), the vision towers' ω against their
// formulas in float64, the load note, the presets, and hostile mrope_section values.
#include <gtest/gtest.h>

#include "support/files.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/config_json.h"
#include "core/frequencies.h"
#include "core/multi_axis.h"
#include "core/presets.h"
#include "support/refusal.h"

namespace ropelab {
namespace {

using ropelab::test::corpus;

std::string text_of(const std::string& name) {
    std::ifstream in(corpus(name));
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Letters written out from ranges: {{'t', 16}, {'h', 24}} → "tttt…hhhh…".
std::string runs(std::initializer_list<std::pair<char, int>> parts) {
    std::string s;
    for (auto [letter, count] : parts) s += std::string(static_cast<std::size_t>(count), letter);
    return s;
}

// Qwen3-VL's interleaving by hand: h on 1, 4, …, 3·s_h − 2; w on 2, 5, …, 3·s_w − 1; t elsewhere.
std::string interleaved_by_hand(int pairs, int h, int w) {
    std::string s(static_cast<std::size_t>(pairs), 't');
    for (int k = 0; k < h; ++k) s[static_cast<std::size_t>(3 * k + 1)] = 'h';
    for (int k = 0; k < w; ++k) s[static_cast<std::size_t>(3 * k + 2)] = 'w';
    return s;
}

bool has_note(const LoadedConfig& c, const std::string& part) {
    for (const std::string& n : c.notes) {
        if (n.find(part) != std::string::npos) return true;
    }
    return false;
}

const ReadField* used_field(const LoadedConfig& c, const std::string& name) {
    for (const ReadField& f : c.used) {
        if (f.name == name) return &f;
    }
    return nullptr;
}

TEST(MultiAxisConfigs, Qwen2VlSectionsAreContiguous) {
    const LoadedConfig c = load_config_json(corpus("qwen2-vl-7b-instruct"));
    EXPECT_EQ(c.config.multi_axis.rule, AxisRule::Sections);
    EXPECT_EQ(c.config.multi_axis.sections, (std::vector<double>{16, 24, 24}));
    EXPECT_EQ(c.config.multi_axis.position_ids, PositionIds::Qwen2VL);
    EXPECT_EQ(c.config.multi_axis.spatial_merge_size, 2);
    EXPECT_EQ(c.config.multi_axis.tokens_per_second, 0.0);
    // Pairs 0–15 turn with t, 16–39 with h, 40–63 with w.
    EXPECT_EQ(pair_axis_letters(c.config), runs({{'t', 16}, {'h', 24}, {'w', 24}}));
    EXPECT_EQ(c.layer_types, (std::vector<std::string>{"text", "vision"}));
    EXPECT_EQ(c.layer_type, "text");
}

TEST(MultiAxisConfigs, Qwen25VlLegacyMropeTypeReadsSectionsAndTokensPerSecond) {
    const LoadedConfig c = load_config_json(corpus("qwen2.5-vl-7b-instruct"));
    EXPECT_EQ(c.config.multi_axis.rule, AxisRule::Sections);
    EXPECT_EQ(c.config.multi_axis.position_ids, PositionIds::Qwen25VL);
    EXPECT_EQ(c.config.multi_axis.tokens_per_second, 2.0);  // the file's, not the class's 4
    EXPECT_EQ(c.config.rope_scaling.type, RopeType::Default);
    EXPECT_EQ(pair_axis_letters(c.config), runs({{'t', 16}, {'h', 24}, {'w', 24}}));
    // Text frequencies stay the 1-D ladder θ^(−2j/128), θ = 10^6.
    const RopeFrequencies f = compute_frequencies(c.config);
    for (int j = 0; j < 64; ++j) EXPECT_DOUBLE_EQ(f.inv_freq[static_cast<std::size_t>(j)], std::pow(1e6, -2.0 * j / 128));
}

TEST(MultiAxisConfigs, TransformersFiveRopeParametersReadTheSameWay) {
    const LoadedConfig c = load_config_json(corpus("qwen2.5-vl-3b-instruct-v5"));
    EXPECT_EQ(c.config.multi_axis.rule, AxisRule::Sections);
    EXPECT_EQ(c.config.multi_axis.sections, (std::vector<double>{16, 24, 24}));
    EXPECT_EQ(pair_axis_letters(c.config), runs({{'t', 16}, {'h', 24}, {'w', 24}}));
    const ReadField* field = used_field(c, "text_config.rope_parameters.mrope_section");
    ASSERT_NE(field, nullptr);
    EXPECT_EQ(field->origin, ReadField::Origin::File);
}

TEST(MultiAxisConfigs, Qwen3VlInterleavesWhateverMropeInterleavedSays) {
    const LoadedConfig c = load_config_json(corpus("qwen3-vl-8b-instruct"));
    EXPECT_EQ(c.config.multi_axis.rule, AxisRule::Interleaved);
    EXPECT_EQ(c.config.multi_axis.position_ids, PositionIds::Qwen3VL);
    const std::string letters = pair_axis_letters(c.config);
    EXPECT_EQ(letters, interleaved_by_hand(64, 20, 20));
    // Spelled out: h at 1, 4, …, 58; w at 2, 5, …, 59; t at 0, 3, …, 57 and 60–63.
    for (int j = 0; j < 64; ++j) {
        const char want = j >= 60 ? 't' : j % 3 == 1 ? 'h' : j % 3 == 2 ? 'w' : 't';
        EXPECT_EQ(letters[static_cast<std::size_t>(j)], want) << "pair " << j;
    }
    EXPECT_TRUE(has_note(c, "text_config.rope_scaling.mrope_interleaved = true read, but not deciding"));
    // The same file with the key false still interleaves: the modeling code does not read it.
    std::string text = text_of("qwen3-vl-8b-instruct");
    text.replace(text.find("\"mrope_interleaved\": true"), 25, "\"mrope_interleaved\": false");
    const LoadedConfig flipped = parse_config_json(text, "flipped.json");
    EXPECT_EQ(flipped.config.multi_axis.rule, AxisRule::Interleaved);
    EXPECT_TRUE(has_note(flipped, "the key disagrees"));
}

TEST(MultiAxisConfigs, Qwen3VlMoeAndGlm4vTakeTheirModelsRules) {
    const LoadedConfig moe = load_config_json(corpus("qwen3-vl-30b-a3b-instruct"));
    EXPECT_EQ(moe.config.multi_axis.rule, AxisRule::Interleaved);
    const LoadedConfig glm = load_config_json(corpus("glm-4.1v-9b-thinking"));
    EXPECT_EQ(glm.config.multi_axis.rule, AxisRule::Sections);
    EXPECT_EQ(glm.config.layout, PairLayout::Interleaved);
    EXPECT_EQ(pair_axis_letters(glm.config), runs({{'t', 8}, {'h', 12}, {'w', 12}}));
}

TEST(MultiAxisConfigs, TextOnlyModelsStayOneDimensional) {
    for (const char* name : {"llama-3.1-8b", "qwen2.5-7b-instruct", "pixtral-12b"}) {
        const LoadedConfig c = load_config_json(corpus(name));
        EXPECT_EQ(c.config.multi_axis.rule, AxisRule::None) << name;
        EXPECT_EQ(pair_axis_letters(c.config), "") << name;
    }
}

// ---- vision towers: ω_j against the formulas in float64 ------------------------------------------

// Qwen-VL towers: VisionRotaryEmbedding(head_dim / 2, θ = 10^4): q = head_dim / 4 frequencies
// 10^4^(−2k / (head_dim / 2)), pairs 0..q−1 with the row (h), q..2q−1 with the column (w).
void expect_qwen_tower(const std::string& name, int head_dim) {
    const LoadedConfig c = load_config_json(corpus(name), "vision");
    ASSERT_EQ(c.config.head_dim, head_dim) << name;
    EXPECT_EQ(c.layer_type, "vision");
    EXPECT_EQ(c.config.layout, PairLayout::Half);
    EXPECT_EQ(c.config.multi_axis.rule, AxisRule::Axial);
    const int q = head_dim / 4;
    const auto w = pair_frequency_vectors(c.config, compute_frequencies(c.config));
    ASSERT_EQ(static_cast<int>(w.size()), 2 * q);
    for (int k = 0; k < q; ++k) {
        const double omega = 1.0 / std::pow(10000.0, 2.0 * k / (head_dim / 2));
        const AxisVector row = w[static_cast<std::size_t>(k)], col = w[static_cast<std::size_t>(q + k)];
        EXPECT_NEAR(row[1], omega, 1e-15 * omega) << name << " pair " << k;
        EXPECT_EQ(row[0], 0.0);
        EXPECT_EQ(row[2], 0.0);
        EXPECT_NEAR(col[2], omega, 1e-15 * omega) << name << " pair " << q + k;
        EXPECT_EQ(col[1], 0.0);
    }
    EXPECT_EQ(pair_axis_letters(c.config), runs({{'h', q}, {'w', q}}));
}

TEST(MultiAxisConfigs, QwenVisionTowersAreAxial) {
    expect_qwen_tower("qwen2-vl-7b-instruct", 80);    // embed_dim 1280 / 16 heads
    expect_qwen_tower("qwen2.5-vl-7b-instruct", 80);  // hidden_size 1280 / 16
    expect_qwen_tower("qwen3-vl-8b-instruct", 72);    // hidden_size 1152 / 16
}

TEST(MultiAxisConfigs, PixtralTowerIsEvenOdd) {
    const LoadedConfig text = load_config_json(corpus("pixtral-12b"));
    EXPECT_EQ(text.layer_types, (std::vector<std::string>{"text", "vision"}));
    EXPECT_EQ(text.config.rope_theta, 1e9);
    const LoadedConfig c = load_config_json(corpus("pixtral-12b"), "vision");
    ASSERT_EQ(c.config.head_dim, 64);
    EXPECT_EQ(c.config.rope_theta, 10000.0);
    EXPECT_EQ(c.config.max_position_embeddings, 64);  // 1024 / 16 patches per side
    EXPECT_EQ(c.config.layout, PairLayout::Half);
    // PixtralRotaryEmbedding: f_k = 10^4^(−2k/64); pair j < 16 turns with the row at f_{2j},
    // pair 16 + j with the column at f_{2j+1}.
    const auto w = pair_frequency_vectors(c.config, compute_frequencies(c.config));
    ASSERT_EQ(w.size(), 32u);
    for (int j = 0; j < 16; ++j) {
        const double even = std::pow(10000.0, -2.0 * (2 * j) / 64), odd = std::pow(10000.0, -2.0 * (2 * j + 1) / 64);
        EXPECT_NEAR(w[static_cast<std::size_t>(j)][1], even, 1e-15 * even) << j;
        EXPECT_NEAR(w[static_cast<std::size_t>(16 + j)][2], odd, 1e-15 * odd) << j;
    }
    EXPECT_EQ(pair_axis_letters(c.config), runs({{'h', 16}, {'w', 16}}));
}

TEST(MultiAxisConfigs, VisionIsRefusedWhereThereIsNoTower) {
    EXPECT_NE(test::refusal([] { load_config_json(corpus("llama-3.1-8b"), "vision"); }).find("--layer-type vision"),
              std::string::npos);
}

TEST(MultiAxisConfigs, FluxDiffusersConfigIsAxialAndInterleaved) {
    const LoadedConfig c = load_config_json(corpus("flux-dev-transformer"));
    EXPECT_EQ(c.config.head_dim, 128);
    EXPECT_EQ(c.config.layout, PairLayout::Interleaved);
    EXPECT_EQ(c.config.multi_axis.rule, AxisRule::Axial);
    EXPECT_EQ(c.config.multi_axis.sections, (std::vector<double>{8, 28, 28}));
    const auto w = pair_frequency_vectors(c.config, compute_frequencies(c.config));
    ASSERT_EQ(w.size(), 64u);
    // get_1d_rotary_pos_embed(d_a, θ = 10^4) per id column: 16, 56, 56 components.
    for (int j = 0; j < 8; ++j) EXPECT_NEAR(w[static_cast<std::size_t>(j)][0], std::pow(1e4, -2.0 * j / 16), 1e-15);
    for (int j = 0; j < 28; ++j) {
        EXPECT_NEAR(w[static_cast<std::size_t>(8 + j)][1], std::pow(1e4, -2.0 * j / 56), 1e-15);
        EXPECT_NEAR(w[static_cast<std::size_t>(36 + j)][2], std::pow(1e4, -2.0 * j / 56), 1e-15);
    }
    EXPECT_EQ(pair_axis_letters(c.config), runs({{'t', 8}, {'h', 28}, {'w', 28}}));
}

// ---- presets ------------------------------------------------------------------------------------

TEST(MultiAxisConfigs, PresetsCarryTheirRules) {
    EXPECT_EQ(preset_or_throw("qwen2-vl-7b").config.multi_axis.rule, AxisRule::Sections);
    EXPECT_EQ(preset_or_throw("qwen2.5-vl-7b").config.multi_axis.tokens_per_second, 2.0);
    EXPECT_EQ(pair_axis_letters(preset_or_throw("qwen3-vl-8b").config), interleaved_by_hand(64, 20, 20));
    EXPECT_EQ(preset_or_throw("pixtral-12b").config.multi_axis.rule, AxisRule::None);
    EXPECT_EQ(load_preset("pixtral-12b", "vision").config.multi_axis.rule, AxisRule::EvenOdd);
    EXPECT_EQ(load_preset("qwen3-vl-8b", "vision").config.head_dim, 72);
    EXPECT_EQ(preset_or_throw("flux-dev").config.multi_axis.rule, AxisRule::Axial);
    const Preset& mixed = preset_or_throw("rope-mixed");
    EXPECT_NE(mixed.note.source.find("Illustrative"), std::string::npos);
    EXPECT_EQ(mixed.config.multi_axis.rule, AxisRule::Mixed);
    EXPECT_EQ(mixed.config.multi_axis.mixed_angle, 30.0);
    EXPECT_EQ(mixed.config.rope_theta, 10.0);
    EXPECT_EQ(pair_axis_letters(mixed.config), std::string(32, 'm'));
    // Heo et al.'s initialisation: |ω_k| = 10^(−4k/64), first half at 30°, second at 120°.
    const auto w = pair_frequency_vectors(mixed.config, compute_frequencies(mixed.config));
    const double pi = 3.14159265358979323846;
    for (int k = 0; k < 16; ++k) {
        const double mag = std::pow(10.0, -4.0 * k / 64);
        EXPECT_NEAR(w[static_cast<std::size_t>(k)][2], mag * std::cos(pi / 6), 1e-15);
        EXPECT_NEAR(w[static_cast<std::size_t>(k)][1], mag * std::sin(pi / 6), 1e-15);
        EXPECT_NEAR(w[static_cast<std::size_t>(16 + k)][2], mag * std::cos(2 * pi / 3), 1e-15);
        EXPECT_NEAR(w[static_cast<std::size_t>(16 + k)][1], mag * std::sin(2 * pi / 3), 1e-15);
    }
}

// ---- hostile mrope_section -----------------------------------------------------------------------

std::string with_section(const std::string& section) {
    std::string text = text_of("qwen2-vl-7b-instruct");
    const auto at = text.find("\"mrope_section\"");
    const auto open = text.find('[', at), close = text.find(']', at);
    return text.replace(open, close - open + 1, section);
}

std::string refusal_of(const std::string& section) {
    return test::refusal([&] { parse_config_json(with_section(section), "hostile.json"); }, "accepted");
}

TEST(MultiAxisConfigs, HostileSectionsAreRefusedNamingFileFieldAndValue) {
    struct Case {
        const char* section;
        const char* words;
    };
    for (const Case& k : {Case{"[16, 24]", "= [16, 24] has 2 entries"}, Case{"[16, 24, 24, 0]", "has 4 entries"},
                          Case{"[16, -24, 72]", "-24 is not a whole number of pairs"},
                          Case{"[16.5, 23.5, 24]", "16.5 is not a whole number of pairs"},
                          Case{"[16, 24, 25]", "adds up to 65 pairs; rotary dim 128 has 64"},
                          Case{"[1000000000, 24, 24]", "adds up to 1000000048 pairs"}, Case{"[]", "needs mrope_section"},
                          Case{"\"16,24,24\"", "must be a list of numbers"}, Case{"[16, \"24\", 24]", "[1] = \"24\""}}) {
        const std::string why = refusal_of(k.section);
        EXPECT_NE(why.find("hostile.json"), std::string::npos) << k.section << ": " << why;
        EXPECT_NE(why.find("rope_scaling."), std::string::npos) << k.section << ": " << why;
        EXPECT_NE(why.find(k.words), std::string::npos) << k.section << ": " << why;
    }
}

TEST(MultiAxisConfigs, InterleavedSectionsBeyondAThirdAreRefused) {
    std::string text = text_of("qwen3-vl-8b-instruct");
    const auto at = text.find("\"mrope_section\"");
    const auto open = text.find('[', at), close = text.find(']', at);
    text.replace(open, close - open + 1, "[4, 30, 30]");
    const std::string why = test::refusal([&] { parse_config_json(text, "q3.json"); }, "accepted");
    EXPECT_NE(why.find("q3.json: text_config.rope_scaling.mrope_section = [4, 30, 30]"), std::string::npos) << why;
}

}  // namespace
}  // namespace ropelab
