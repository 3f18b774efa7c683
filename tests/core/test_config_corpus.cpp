// Real config shapes (tests/data/configs, written from the structure of the published
// config.json files) read as HF transformers reads them. Each is checked for rotary dim, pair
// layout, attention factor and every inv_freq against an independent float64 evaluation of HF's
// formulas (modeling_rope_utils.py and the model's rotary class), written again below from the
// formulas and fed from the file by nlohmann directly, not through the core's reader.
#include <gtest/gtest.h>

#include "support/files.h"

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/config_json.h"
#include "core/error.h"
#include "core/frequencies.h"
#include "core/model_families.h"
#include "core/presets.h"
#include "core/scores.h"
#include "core/vector_spec.h"
#include "support/refusal.h"

namespace ropelab {
namespace {

using nlohmann::json;
constexpr double kPi = 3.14159265358979323846;

using ropelab::test::corpus;

json raw_config(const std::string& name) {
    std::ifstream in(corpus(name));
    return json::parse(in);
}

// ---- HF's formulas, in float64 -------------------------------------------------------------------
std::vector<double> hf_default(int dim, double base) {
    std::vector<double> f;
    for (int i = 0; i < dim; i += 2) f.push_back(1.0 / std::pow(base, static_cast<double>(i) / dim));
    return f;
}
std::vector<double> hf_linear(int dim, double base, double factor) {
    auto f = hf_default(dim, base);
    for (double& x : f) x /= factor;
    return f;
}
std::vector<double> hf_llama3(int dim, double base, double factor, double low, double high, double old_context) {
    auto f = hf_default(dim, base);
    for (double& x : f) {
        const double wavelen = 2 * kPi / x;
        if (wavelen < old_context / high) continue;
        if (wavelen > old_context / low) {
            x /= factor;
            continue;
        }
        const double smooth = (old_context / wavelen - low) / (high - low);
        x = (1 - smooth) * x / factor + smooth * x;
    }
    return f;
}
double hf_get_mscale(double scale, double mscale) { return scale <= 1 ? 1.0 : 0.1 * mscale * std::log(scale) + 1.0; }
std::vector<double> hf_yarn(int dim, double base, double factor, double context, double beta_fast, double beta_slow,
                            bool truncate) {
    const auto correction_dim = [&](double rotations) {
        return dim * std::log(context / (rotations * 2 * kPi)) / (2 * std::log(base));
    };
    double low = correction_dim(beta_fast), high = correction_dim(beta_slow);
    if (truncate) low = std::floor(low), high = std::ceil(high);
    low = std::max(low, 0.0);
    high = std::min(high, dim - 1.0);
    if (low == high) high += 0.001;
    std::vector<double> f;
    for (int i = 0; i < dim / 2; ++i) {
        const double extrapolation = 1.0 / std::pow(base, 2.0 * i / dim);
        const double ramp = std::clamp((i - low) / (high - low), 0.0, 1.0);
        const double keep = 1 - ramp;
        f.push_back(extrapolation / factor * (1 - keep) + extrapolation * keep);
    }
    return f;
}
std::vector<double> hf_longrope(int dim, double base, const std::vector<double>& ext) {
    std::vector<double> f;
    for (int i = 0; i < dim / 2; ++i) f.push_back(1.0 / (ext[static_cast<std::size_t>(i)] * std::pow(base, 2.0 * i / dim)));
    return f;
}
std::vector<double> list(const json& j) { return j.get<std::vector<double>>(); }

struct Case {
    std::string file, layer_type;
    int head_dim, rotary_dim, rotary_offset;
    PairLayout layout;
    double attention;
    std::function<std::vector<double>()> inv_freq;
};

std::vector<Case> cases() {
    const auto H = PairLayout::Half, I = PairLayout::Interleaved;
    std::vector<Case> c = {
        {"llama-2-7b", "", 128, 128, 0, H, 1.0, [] { return hf_default(128, 1e4); }},
        {"llama-3-8b", "", 128, 128, 0, H, 1.0, [] { return hf_default(128, 5e5); }},
        {"llama-3.1-8b", "", 128, 128, 0, H, 1.0, [] { return hf_llama3(128, 5e5, 8, 1, 4, 8192); }},
        {"llama-3.2-1b", "", 64, 64, 0, H, 1.0, [] { return hf_llama3(64, 5e5, 32, 1, 4, 8192); }},
        // low == high == 1: HF's medium band is empty, so every wavelength above 8192 is divided.
        {"llama-4-scout-17b-16e", "", 128, 128, 0, I, 1.0, [] {
             auto f = hf_default(128, 5e5);
             for (double& x : f) if (2 * kPi / x > 8192) x /= 16;
             return f;
         }},
        {"mistral-7b-v0.1", "", 128, 128, 0, H, 1.0, [] { return hf_default(128, 1e4); }},
        {"qwen2-7b", "", 128, 128, 0, H, 1.0, [] { return hf_default(128, 1e6); }},
        {"qwen2.5-7b-instruct", "", 128, 128, 0, H, 1.0, [] { return hf_default(128, 1e6); }},
        {"qwen2.5-7b-instruct-yarn", "", 128, 128, 0, H, hf_get_mscale(4, 1),
         [] { return hf_yarn(128, 1e6, 4, 32768, 32, 1, true); }},
        {"qwen3-8b", "", 128, 128, 0, H, 1.0, [] { return hf_default(128, 1e6); }},
        {"qwen2-vl-7b-instruct", "", 128, 128, 0, H, 1.0, [] { return hf_default(128, 1e6); }},
        {"qwen2.5-vl-7b-instruct", "", 128, 128, 0, H, 1.0, [] { return hf_default(128, 1e6); }},
        {"qwen2.5-vl-3b-instruct-v5", "", 128, 128, 0, H, 1.0, [] { return hf_default(128, 1e6); }},
        {"gemma-2-9b", "", 256, 256, 0, H, 1.0, [] { return hf_default(256, 1e4); }},
        {"gemma-3-1b-it", "", 256, 256, 0, H, 1.0, [] { return hf_default(256, 1e6); }},
        {"gemma-3-1b-it", "sliding_attention", 256, 256, 0, H, 1.0, [] { return hf_default(256, 1e4); }},
        {"gemma-3-4b-it", "", 256, 256, 0, H, 1.0, [] { return hf_linear(256, 1e6, 8); }},
        {"gemma-3-4b-it", "sliding_attention", 256, 256, 0, H, 1.0, [] { return hf_default(256, 1e4); }},
        {"gemma-3-4b-it-v5", "", 256, 256, 0, H, 1.0, [] { return hf_linear(256, 1e6, 8); }},
        {"gemma-3-4b-it-v5", "sliding_attention", 256, 256, 0, H, 1.0, [] { return hf_default(256, 1e4); }},
        {"deepseek-v2", "", 192, 64, 128, I, hf_get_mscale(40, 0.707) / hf_get_mscale(40, 0.707),
         [] { return hf_yarn(64, 1e4, 40, 4096, 32, 1, true); }},
        {"deepseek-v2-lite", "", 192, 64, 128, I, 1.0, [] { return hf_yarn(64, 1e4, 40, 4096, 32, 1, true); }},
        {"deepseek-v3", "", 192, 64, 128, I, hf_get_mscale(40, 1.0) / hf_get_mscale(40, 1.0),
         [] { return hf_yarn(64, 1e4, 40, 4096, 32, 1, true); }},
        {"gpt-oss-20b", "", 64, 64, 0, H, hf_get_mscale(32, 1), [] { return hf_yarn(64, 150000, 32, 4096, 32, 1, false); }},
        {"gpt-j-6b", "", 256, 64, 0, I, 1.0, [] { return hf_default(64, 1e4); }},
        {"gpt-neox-20b", "", 96, 24, 0, H, 1.0, [] { return hf_default(24, 1e4); }},
        {"falcon-7b", "", 64, 64, 0, H, 1.0, [] { return hf_default(64, 1e4); }},
        {"olmo-7b", "", 128, 128, 0, H, 1.0, [] { return hf_default(128, 1e4); }},
    };
    // LongRoPE: 131072 > 4096, so the long factors; attention sqrt(1 + ln 32 / ln 4096).
    const double phi_attention = std::sqrt(1 + std::log(131072.0 / 4096) / std::log(4096.0));
    for (const std::string name : {"phi-3-mini-128k-instruct", "phi-3.5-mini-instruct"}) {
        c.push_back({name, "", 96, 96, 0, H, phi_attention,
                     [name] { return hf_longrope(96, 1e4, list(raw_config(name)["rope_scaling"]["long_factor"])); }});
    }
    c.push_back({"phi-4-mini-instruct", "", 128, 96, 0, H, phi_attention,
                 [] { return hf_longrope(96, 1e4, list(raw_config("phi-4-mini-instruct")["rope_scaling"]["long_factor"])); }});
    return c;
}

TEST(ConfigCorpus, AtLeastTwentyRealShapes) {
    std::set<std::string> files;
    for (const Case& c : cases()) files.insert(c.file);
    EXPECT_GE(files.size(), 20u);
}

TEST(ConfigCorpus, ReadAsTransformersReadsThem) {
    for (const Case& c : cases()) {
        SCOPED_TRACE(c.file + (c.layer_type.empty() ? "" : " / " + c.layer_type));
        const LoadedConfig loaded = load_config_json(corpus(c.file), c.layer_type);
        const RopeFrequencies f = compute_frequencies(loaded.config);
        EXPECT_EQ(loaded.config.head_dim, c.head_dim);
        EXPECT_EQ(f.rotary_dim, c.rotary_dim);
        EXPECT_EQ(loaded.config.rotary_offset, c.rotary_offset);
        EXPECT_EQ(f.layout, c.layout);
        EXPECT_NEAR(f.attention_factor, c.attention, 1e-12);
        const std::vector<double> expected = c.inv_freq();
        ASSERT_EQ(f.inv_freq.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            EXPECT_NEAR(f.inv_freq[i], expected[i], 1e-12 * expected[i]) << "pair " << i;
        }
    }
}

// gpt-oss's truncate: false matters: with HF's default rounding some inv_freq move by tens of percent.
TEST(ConfigCorpus, TruncateFalseChangesTheRamp) {
    const auto off = hf_yarn(64, 150000, 32, 4096, 32, 1, false), on = hf_yarn(64, 150000, 32, 4096, 32, 1, true);
    double worst = 0;
    for (std::size_t i = 0; i < off.size(); ++i) worst = std::max(worst, std::abs(on[i] / off[i] - 1));
    EXPECT_GT(worst, 0.3);
    EXPECT_FALSE(load_config_json(corpus("gpt-oss-20b")).config.rope_scaling.truncate);
}

// A preset and its model's real config.json are the same model: the same scores for the same q, k
// (the Qwen2.5-7B config used to score 0.696 at Δ = 1 against the preset's 3.93).
TEST(ConfigCorpus, RealConfigsMatchTheirPresets) {
    const std::pair<const char*, const char*> pairs[] = {
        {"qwen2.5-7b-instruct", "qwen2.5-7b"}, {"llama-2-7b", "llama2-7b"},   {"llama-3-8b", "llama3-8b"},
        {"llama-3.1-8b", "llama3.1-8b"},       {"gpt-j-6b", "gpt-j-6b"},      {"gpt-neox-20b", "gpt-neox-20b"},
        {"phi-3-mini-128k-instruct", "phi3-mini-128k"},
    };
    for (const auto& [file, preset_name] : pairs) {
        SCOPED_TRACE(file);
        const ModelConfig real = load_config_json(corpus(file)).config;
        const ModelConfig preset = preset_or_throw(preset_name).config;
        ASSERT_EQ(real.head_dim, preset.head_dim);
        EXPECT_EQ(real.layout, preset.layout);
        const auto q = random_vector(1, real.head_dim), k = random_vector(2, real.head_dim);
        const RopeFrequencies fr = compute_frequencies(real), fp = compute_frequencies(preset);
        const auto a = rope_scores(score_coefficients(q, k, fr), fr, 64);
        const auto b = rope_scores(score_coefficients(q, k, fp), fp, 64);
        for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-9 * (1 + std::abs(b[i]))) << "Δ = " << i;
    }
}

bool corpus_has_note(const LoadedConfig& l, const std::string& text) {
    for (const std::string& n : l.notes) {
        if (n.find(text) != std::string::npos) return true;
    }
    return false;
}

TEST(ConfigCorpus, SaysWhatItAssumed) {
    EXPECT_TRUE(corpus_has_note(load_config_json(corpus("qwen2-vl-7b-instruct")), "M-RoPE, sections 16/24/24"));
    EXPECT_TRUE(corpus_has_note(load_config_json(corpus("qwen2.5-vl-3b-instruct-v5")), "text_config"));
    EXPECT_TRUE(corpus_has_note(load_config_json(corpus("llama-4-scout-17b-16e")), "low_freq_factor == high_freq_factor"));
    EXPECT_TRUE(corpus_has_note(load_config_json(corpus("llama-2-7b")), "rotate_half in modeling_llama.py"));
    EXPECT_TRUE(corpus_has_note(load_config_json(corpus("gpt-oss-20b")), "truncate = false"));
    const LoadedConfig gemma = load_config_json(corpus("gemma-3-4b-it-v5"));
    EXPECT_EQ(gemma.layer_types, (std::vector<std::string>{"full_attention", "sliding_attention"}));
    EXPECT_EQ(gemma.layer_type, "full_attention");
    EXPECT_TRUE(corpus_has_note(gemma, "34 layers: 5 full_attention, 29 sliding_attention"));
    EXPECT_TRUE(corpus_has_note(load_config_json(corpus("gemma-3-4b-it")), "34 layers: 5 full_attention, 29 sliding_attention"));
    EXPECT_TRUE(corpus_has_note(load_config_json(corpus("gemma-3-1b-it")), "26 layers: 4 full_attention, 22 sliding_attention"));
    // Gemma 3 4B's sparse text_config: the rest comes from Gemma3TextConfig's defaults, said so.
    const LoadedConfig sparse = load_config_json(corpus("gemma-3-4b-it"));
    const std::string explained = explain_config(sparse);
    EXPECT_NE(explained.find("Gemma3TextConfig's default"), std::string::npos) << explained;
    EXPECT_NE(explained.find("vision_config"), std::string::npos) << explained;  // ignored, with why
    EXPECT_THROW(load_config_json(corpus("gemma-3-4b-it"), "global"), InputError);
    EXPECT_THROW(load_config_json(corpus("llama-3-8b"), "sliding_attention"), InputError);
}

TEST(ConfigCorpus, BothRopeBlocksAndSmallYarnFactors) {
    // transformers v5 reads rope_parameters; a legacy rope_scaling beside it is listed as ignored.
    const LoadedConfig both = parse_config_json(R"({"model_type": "llama", "head_dim": 64, "rope_theta": 10000,
        "rope_scaling": {"rope_type": "linear", "factor": 2},
        "rope_parameters": {"rope_type": "default", "rope_theta": 500000}})",
                                                "c.json");
    EXPECT_EQ(both.config.rope_theta, 500000);
    EXPECT_EQ(both.config.rope_scaling.type, RopeType::Default);
    bool listed = false;
    for (const IgnoredField& f : both.ignored) listed |= f.name == "rope_scaling" && f.why.find("rope_parameters") != std::string::npos;
    EXPECT_TRUE(listed) << explain_config(both);
    const LoadedConfig small = parse_config_json(
        R"({"model_type": "qwen2", "head_dim": 64, "rope_scaling": {"rope_type": "yarn", "factor": 0.5}})", "c.json");
    EXPECT_TRUE(corpus_has_note(small, "YaRN factor 0.5 < 1"));
}

TEST(ConfigCorpus, ExplainListsUsedAndIgnored) {
    const std::string text = explain_config(load_config_json(corpus("deepseek-v3")));
    EXPECT_NE(text.find("qk_rope_head_dim"), std::string::npos) << text;
    EXPECT_NE(text.find("components 128 .. 191 of the head rotate"), std::string::npos) << text;
    EXPECT_NE(text.find("rope_scaling.mscale_all_dim"), std::string::npos) << text;
    EXPECT_NE(text.find("vocab_size"), std::string::npos) << text;
    EXPECT_NE(text.find("not about RoPE"), std::string::npos) << text;
}

std::string corpus_error_of(const std::string& text) {
    return test::refusal([&] { parse_config_json(text, "c.json"); });
}

TEST(ConfigCorpus, HostileValuesNamedAndRefused) {
    EXPECT_NE(corpus_error_of(R"({"head_dim": 4294967424})").find("c.json: head_dim = 4294967424 is out of range (2 .. 512)"),
              std::string::npos);
    EXPECT_NE(corpus_error_of(R"({"head_dim": 64.5})").find("not a whole number"), std::string::npos);
    EXPECT_NE(corpus_error_of(R"({"head_dim": 64, "rope_theta": 1e300})").find("rope_theta"), std::string::npos);
    EXPECT_NE(corpus_error_of(R"({"head_dim": 64, "rope_scaling": {"rope_type": "linear", "factor": 5e-324}})").find("factor"),
              std::string::npos);
    EXPECT_NE(corpus_error_of(R"({"head_dim": 64, "rope_scaling": {"rope_type": "spiral"}})").find("expected default, linear"),
              std::string::npos);
    const std::string deep = "{\"head_dim\": " + std::string(60000, '[') + "1" + std::string(60000, ']') + "}";
    const std::string e = corpus_error_of(deep);
    EXPECT_NE(e.find("nested deeper than 256"), std::string::npos) << e.substr(0, 200);
    EXPECT_LT(e.size(), 200u);
    const std::string long_value = corpus_error_of("{\"head_dim\": \"" + std::string(100000, 'x') + "\"}");
    EXPECT_LT(long_value.size(), 200u) << long_value.substr(0, 300);
    const LoadedConfig dup = parse_config_json(R"({"model_type": "qwen3", "head_dim": 32, "head_dim": 64})", "c.json");
    EXPECT_EQ(dup.config.head_dim, 64);
    EXPECT_TRUE(corpus_has_note(dup, "duplicate key head_dim"));
}

// ---- One published config per family of the table ---------------------------------------------------
// tests/data/configs/<checkpoint>.json for the families the corpus above does not cover, each
// checked for head dim, rotary dim and offset, layout, θ, layers without RoPE and every inv_freq
// against HF's formulas evaluated here from the file's own keys (and, where the file leaves one
// out, the config class's default as transformers' configuration_<type>.py states it).
struct FamilyFile {
    std::string file, model_type;
    int head_dim, rotary_dim, rotary_offset;
    PairLayout layout;
    double theta;
    int layers_without_rope;
};

constexpr PairLayout H = PairLayout::Half, I = PairLayout::Interleaved;
const FamilyFile kFamilyFiles[] = {
        {"mixtral-8x7b-v0.1", "mixtral", 128, 128, 0, H, 1000000.0, 0},
        {"qwen1.5-moe-a2.7b", "qwen2_moe", 128, 128, 0, H, 1000000.0, 0},
        {"qwen3-30b-a3b", "qwen3_moe", 128, 128, 0, H, 1000000.0, 0},
        {"gemma-7b", "gemma", 256, 256, 0, H, 10000.0, 0},
        {"phi-2", "phi", 80, 32, 0, H, 10000.0, 0},
        {"olmo-2-1124-7b", "olmo2", 128, 128, 0, H, 500000.0, 0},
        {"starcoder2-7b", "starcoder2", 128, 128, 0, H, 1000000.0, 0},
        {"stablelm-2-1_6b", "stablelm", 64, 16, 0, H, 10000.0, 0},
        {"c4ai-command-r-v01", "cohere", 128, 128, 0, I, 8000000.0, 0},
        {"c4ai-command-r7b-12-2024", "cohere2", 128, 128, 0, I, 50000.0, 8},
        {"exaone-4.0-32b", "exaone4", 128, 128, 0, H, 1000000.0, 16},
        {"smollm3-3b", "smollm3", 128, 128, 0, H, 5000000.0, 9},
        {"qwen3-coder-next", "qwen3_next", 256, 64, 0, H, 5000000.0, 36},
        {"lfm2-1.2b", "lfm2", 64, 64, 0, H, 1000000.0, 10},
        {"gemma-3n-e4b-it", "gemma3n", 256, 256, 0, H, 1000000.0, 0},
        {"vaultgemma-1b", "vaultgemma", 256, 256, 0, H, 10000.0, 0},
        {"glm-4-9b-chat-hf", "glm", 128, 64, 0, I, 10000.0, 0},
        {"glm-4-9b-0414", "glm4", 128, 64, 0, I, 10000.0, 0},
        {"glm-4.5-air", "glm4_moe", 128, 64, 0, H, 1000000.0, 0},
        {"glm-4.7-flash", "glm4_moe_lite", 256, 64, 192, I, 1000000.0, 0},
        {"ernie-4.5-0.3b-pt", "ernie4_5", 128, 128, 0, I, 500000.0, 0},
        {"ernie-4.5-21b-a3b-pt", "ernie4_5_moe", 128, 128, 0, I, 500000.0, 0},
        {"helium-1-preview-2b", "helium", 128, 128, 0, I, 100000.0, 0},
        {"gpt-neox-japanese-2.7b", "gpt_neox_japanese", 80, 80, 0, H, 10000.0, 0},
        {"afm-4.5b", "arcee", 128, 128, 0, H, 10000.0, 0},
        {"bitnet-b1.58-2b-4t", "bitnet", 128, 128, 0, H, 500000.0, 0},
        {"chameleon-7b", "chameleon", 128, 128, 0, H, 10000.0, 0},
        {"diffllama-0.3b-handcut", "diffllama", 64, 64, 0, H, 10000.0, 0},
        {"doge-320m", "doge", 128, 128, 0, H, 10000.0, 0},
        {"dots.llm1.inst", "dots1", 128, 128, 0, H, 10000000.0, 0},
        {"flexolmo-7x7b-1t", "flex_olmo", 128, 128, 0, H, 500000.0, 0},
        {"granite-3.1-8b-instruct", "granite", 128, 128, 0, H, 10000000.0, 0},
        {"seed-oss-36b-instruct", "seed_oss", 128, 128, 0, H, 10000000.0, 0},
        {"apertus-8b-instruct-2509", "apertus", 128, 128, 0, H, 12000000.0, 0},
        {"cwm", "cwm", 128, 128, 0, H, 1000000.0, 0},
        {"aria", "aria", 128, 128, 0, H, 5000000.0, 0},
        {"bamba-9b-v1", "bamba", 128, 64, 0, H, 10000.0, 29},
        {"glm-4.5v", "glm4v_moe", 128, 64, 0, H, 10000.0, 0},
        {"glm-4.1v-9b-thinking", "glm4v", 128, 64, 0, I, 10000.0, 0},
        // 4096 / 64 = 64 per head, the class's 0.5 of it rotates: 32.
        {"persimmon-8b-base", "persimmon", 64, 32, 0, H, 25000.0, 0},
        {"minitron-4b-base", "nemotron", 128, 64, 0, H, 10000.0, 0},
        {"olmoe-1b-7b-0924", "olmoe", 128, 128, 0, H, 10000.0, 0},
        // 1536 / 24 = 64.
        {"granite-3.1-3b-a800m-instruct", "granitemoe", 64, 64, 0, H, 10000000.0, 0},
        {"qwen3-vl-8b-instruct", "qwen3_vl", 128, 128, 0, H, 5000000.0, 0},
        {"qwen3-vl-30b-a3b-instruct", "qwen3_vl_moe", 128, 128, 0, H, 5000000.0, 0},
        // 8 of the 40 text layers are cross_attention_layers.
        {"llama-3.2-11b-vision-instruct", "mllama", 128, 128, 0, H, 500000.0, 8},
        // 2560 / 10 = 256, half of it rotates; (recurrent, recurrent, attention) over 26 layers: 18 recurrent.
        {"recurrentgemma-2b", "recurrent_gemma", 256, 128, 0, H, 10000.0, 18},
        // kv_channels, not hidden_size 2048 / (16 kv heads × 2 experts per token) = 64.
        {"jetmoe-8b", "jetmoe", 128, 128, 0, H, 10000.0, 0},
        // The setting shown is full_attention's, with the file's yarn.
        {"olmo-3-1025-7b", "olmo3", 128, 128, 0, H, 500000.0, 0},
};

// The inv_freq transformers computes for the file's rope_scaling (none: default RoPE).
std::vector<double> hf_expected(const json& root, int dim, double base) {
    const json& t = root.contains("text_config") ? root["text_config"] : root;
    if (!t.contains("rope_scaling") || !t["rope_scaling"].is_object()) return hf_default(dim, base);
    const json& s = t["rope_scaling"];
    const std::string type = s.value("rope_type", s.value("type", std::string("default")));
    if (type == "default") return hf_default(dim, base);
    if (type == "linear") return hf_linear(dim, base, s["factor"]);
    if (type == "llama3") {
        return hf_llama3(dim, base, s["factor"], s["low_freq_factor"], s["high_freq_factor"], s["original_max_position_embeddings"]);
    }
    if (type == "yarn") {
        return hf_yarn(dim, base, s["factor"], s.value("original_max_position_embeddings", t["max_position_embeddings"].get<double>()),
                       s.value("beta_fast", 32.0), s.value("beta_slow", 1.0), s.value("truncate", true));
    }
    ADD_FAILURE() << "no formula here for rope_type " << type;
    return {};
}

class FamilyConfig : public ::testing::TestWithParam<FamilyFile> {};

TEST_P(FamilyConfig, ReadAsTransformersReadsIt) {
    const FamilyFile& c = GetParam();
    SCOPED_TRACE("tests/data/configs/" + c.file + ".json");
    const ModelFamily* family = find_family(c.model_type);
    ASSERT_NE(family, nullptr) << c.model_type;
    const json file = raw_config(c.file);
    if (file.contains("text_config")) {
        // "<type>_text", or Mllama's "<type>_text_model".
        const std::string text_type = file["text_config"]["model_type"].get<std::string>();
        EXPECT_TRUE(text_type == c.model_type + "_text" || text_type == c.model_type + "_text_model") << text_type;
    } else {
        EXPECT_EQ(file["model_type"].get<std::string>(), c.model_type);
    }
    const LoadedConfig loaded = load_config_json(corpus(c.file));
    const RopeFrequencies f = compute_frequencies(loaded.config);
    EXPECT_EQ(loaded.config.head_dim, c.head_dim);
    EXPECT_EQ(f.rotary_dim, c.rotary_dim);
    EXPECT_EQ(loaded.config.rotary_offset, c.rotary_offset);
    EXPECT_EQ(f.layout, c.layout);
    EXPECT_EQ(family->layout, c.layout);
    EXPECT_EQ(loaded.config.rope_theta, c.theta);
    EXPECT_EQ(loaded.layers_without_rope, c.layers_without_rope);
    const std::vector<double> expected = hf_expected(file, c.rotary_dim, c.theta);
    ASSERT_EQ(f.inv_freq.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(f.inv_freq[i], expected[i], 1e-12 * expected[i]) << "pair " << i;
    const std::string text = explain_config(loaded);
    EXPECT_EQ(text.find("layout half assumed"), std::string::npos) << text;
}

INSTANTIATE_TEST_SUITE_P(Published, FamilyConfig, ::testing::ValuesIn(kFamilyFiles),
                         [](const ::testing::TestParamInfo<FamilyFile>& info) {
                             std::string name;
                             for (char ch : info.param.file) name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
                             return name;
                         });

// OLMo 3 (Olmo3Config.convert_rope_params_to_dict): a v4 rope_scaling goes into full_attention's
// parameters only, so its sliding layers rotate with the plain RoPE of the same base.
TEST(ConfigFamilies, Olmo3ScalesOnlyItsFullAttentionLayers) {
    const LoadedConfig sliding = load_config_json(corpus("olmo-3-1025-7b"), "sliding_attention");
    EXPECT_EQ(sliding.layer_types, (std::vector<std::string>{"full_attention", "sliding_attention"}));
    const RopeFrequencies f = compute_frequencies(sliding.config);
    const std::vector<double> expected = hf_default(128, 500000.0);
    ASSERT_EQ(f.inv_freq.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(f.inv_freq[i], expected[i], 1e-12 * expected[i]) << "pair " << i;
    const RopeFrequencies full = compute_frequencies(load_config_json(corpus("olmo-3-1025-7b"), "full_attention").config);
    // yarn ×8 from 8192: the lowest frequency is divided by the factor.
    EXPECT_NEAR(full.inv_freq.back(), expected.back() / 8.0, 1e-12 * expected.back());
    // The file's rope_theta goes to full_attention only; sliding layers keep the class's 500000,
    // as Olmo3Config.convert_rope_params_to_dict pops rope_theta once.
    const std::string own_theta = R"({"model_type": "olmo3", "head_dim": 64, "num_hidden_layers": 4, "rope_theta": 10000.0})";
    const LoadedConfig slide = parse_config_json(own_theta, "c.json", "sliding_attention");
    EXPECT_DOUBLE_EQ(slide.config.rope_theta, 500000.0);
    EXPECT_DOUBLE_EQ(parse_config_json(own_theta, "c.json", "full_attention").config.rope_theta, 10000.0);
    EXPECT_TRUE(std::any_of(slide.notes.begin(), slide.notes.end(),
                            [](const std::string& n) { return n.find("not the file's rope_theta 10000") != std::string::npos; }));
    // A family without the rule keeps one setting for every layer.
    EXPECT_TRUE(parse_config_json(R"({"model_type": "olmo2", "head_dim": 128, "num_hidden_layers": 4,
        "rope_scaling": {"rope_type": "linear", "factor": 2.0}})", "c.json").layer_types.empty());
}

// Every family of the table has a config in tests/data/configs, read as that family.
TEST(ConfigFamilies, EveryFamilyHasAPublishedConfig) {
    std::set<std::string> covered;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(ROPELAB_SOURCE_DIR) + "/tests/data/configs")) {
        const json file = json::parse(std::ifstream(entry.path()));
        if (file.contains("_class_name")) continue;  // a diffusers config (FLUX): no model_type, no family
        const json& t = file.contains("text_config") ? file["text_config"] : file;
        const std::string type = t.contains("model_type") ? t["model_type"].get<std::string>() : file["model_type"].get<std::string>();
        if (const ModelFamily* f = find_family(type)) covered.insert(std::string(f->model_type));
    }
    for (const ModelFamily& f : model_families()) EXPECT_TRUE(covered.contains(std::string(f.model_type))) << f.model_type;
}

// ---- The family table ------------------------------------------------------------------------------

std::string families_count() { return std::to_string(model_families().size()) + " families"; }

// `ropelab families` as text: every column starts at the same character on every line, each as
// wide as its longest cell (a long layout rule once pushed the rest out of line).
TEST(ConfigFamilies, TextTableColumnsLineUp) {
    std::istringstream in(families_table(false));
    std::vector<std::vector<std::size_t>> starts;
    for (std::string line; std::getline(in, line);) {
        std::vector<std::size_t> at{0};
        std::size_t column = 0, spaces = 0;
        for (const char ch : line) {
            const auto c = static_cast<unsigned char>(ch);
            if ((c & 0xC0) == 0x80) continue;  // a continuation byte: the same character
            if (c == ' ') {
                ++spaces;
            } else {
                if (spaces >= 2) at.push_back(column);
                spaces = 0;
            }
            ++column;
        }
        starts.push_back(at);
    }
    ASSERT_EQ(starts.size(), model_families().size() + 1);
    EXPECT_EQ(starts.front().size(), 6u);
    for (std::size_t i = 1; i < starts.size(); ++i) EXPECT_EQ(starts[i], starts.front()) << "line " << i;
    std::size_t longest_type = std::string("model_type").size();
    for (const ModelFamily& f : model_families()) longest_type = std::max(longest_type, f.model_type.size());
    EXPECT_EQ(starts.front()[1], longest_type + 2);
}

TEST(ConfigFamilies, UnknownModelTypeIsRefusedUntilTheUserSaysTheLayout) {
    const std::string text = R"({"model_type": "mystery", "head_dim": 64, "rope_theta": 10000})";
    EXPECT_EQ(corpus_error_of(text), "c.json: model_type \"mystery\" is not in ropelab's family table (" + families_count() +
                                  ", see `ropelab families`); say how its RoPE is laid out with --layout half|interleaved and "
                                  "--partial-rotary-factor F");
    // One flag is not enough: the layout and the rotated fraction are both the model's own.
    EXPECT_NE(test::refusal([&] { parse_config_json(text, "c.json", "", GivenRope{PairLayout::Half, {}}); }), "");
    const LoadedConfig given = parse_config_json(text, "c.json", "", GivenRope{PairLayout::Interleaved, 0.5});
    EXPECT_EQ(given.config.layout, PairLayout::Interleaved);
    EXPECT_EQ(rotary_dim(given.config), 32);
    // Neither model_type nor architectures: unknown too; ropelab's own files (a _ropelab note) are not.
    EXPECT_NE(corpus_error_of(R"({"head_dim": 64})").find("c.json: a file with no model_type and no architectures is not in ropelab's "
                                                   "family table"),
              std::string::npos);
    EXPECT_EQ(parse_config_json(R"({"_ropelab": {"layout": "interleaved"}, "head_dim": 64})", "c.json").config.layout,
              PairLayout::Interleaved);
}

TEST(ConfigFamilies, EveryRowIsFoundByTypeTextSuffixAndArchitecture) {
    for (const ModelFamily& f : model_families()) {
        SCOPED_TRACE(std::string(f.model_type));
        EXPECT_EQ(find_family(f.model_type), &f);
        EXPECT_EQ(find_family(std::string(f.model_type) + "_text"), &f);
        EXPECT_EQ(family_of_architecture(std::string(f.arch_prefix) + "ForCausalLM"), &f);
        EXPECT_TRUE(f.source.starts_with("models/") && f.source.ends_with(".py")) << f.source;
        EXPECT_GT(f.partial_rotary_default, 0.0);
        EXPECT_LE(f.partial_rotary_default, 1.0);
        EXPECT_GE(f.theta_default, kMinTheta);
    }
    EXPECT_EQ(find_family("mystery"), nullptr);
    EXPECT_EQ(family_of_architecture("Llama4ForConditionalGeneration")->model_type, "llama4");
    EXPECT_EQ(family_of_architecture("Qwen2_5_VLForConditionalGeneration")->model_type, "qwen2_5_vl");
}

// ChatGLM-style remote code: its RoPE (rope_ratio scales θ) is its own Python, not transformers'.
const char* kRemote = R"({"model_type": "chatglm", "hidden_size": 4096, "num_attention_heads": 32, "seq_length": 131072,
    "auto_map": {"AutoConfig": "configuration_chatglm.ChatGLMConfig", "AutoModel": "modeling_chatglm.ChatGLMForConditionalGeneration"},
    "rope_ratio": 500, "original_rope": true, "post_layer_norm": true})";

TEST(ConfigFamilies, RemoteCodeIsRefusedNamingItsClassesAndRopeFields) {
    EXPECT_EQ(corpus_error_of(kRemote),
              "c.json: auto_map: this model's RoPE is defined by its own remote code (configuration_chatglm.ChatGLMConfig, "
              "modeling_chatglm.ChatGLMForConditionalGeneration), not by transformers; fields its code may use: seq_length, "
              "rope_ratio, original_rope; give --layout and --partial-rotary-factor to read it as a transformers model with those settings");
    const LoadedConfig given = parse_config_json(kRemote, "c.json", "", GivenRope{PairLayout::Interleaved, 0.5});
    EXPECT_EQ(rotary_dim(given.config), 64);
    EXPECT_EQ(given.config.rope_theta, 10000);  // rope_ratio is not applied, and said so
    const std::string text = explain_config(given);
    const std::size_t rope_section = text.find("RoPE fields ropelab does not apply:"), other = text.find("ignored:");
    ASSERT_NE(rope_section, std::string::npos) << text;
    ASSERT_NE(other, std::string::npos) << text;
    const std::size_t ratio = text.find("rope_ratio");
    EXPECT_TRUE(ratio > rope_section && ratio < other) << text;
    EXPECT_GT(text.find("post_layer_norm"), other) << text;
    // A model_type transformers has its own classes for is read with them (Phi-3's auto_map).
    EXPECT_TRUE(corpus_has_note(load_config_json(corpus("phi-3-mini-128k-instruct")), "auto_map names remote code"));
}

TEST(ConfigFamilies, NullThetaIsRefused) {
    // transformers keeps an explicit null (the class default fills in only a missing key), and its
    // RoPE init then fails on it.
    EXPECT_EQ(corpus_error_of(R"({"model_type": "llama", "head_dim": 64, "rope_theta": null})"),
              "c.json: rope_theta = null: transformers takes the null as the base, not the config class's default, and "
              "cannot compute the frequencies; give a number, or leave the key out for the default");
    EXPECT_NE(corpus_error_of(R"({"model_type": "llama", "head_dim": 64, "rope_parameters": {"rope_type": "default", "rope_theta": null}})")
                  .find("c.json: rope_parameters.rope_theta = null"),
              std::string::npos);
    // Also where the class has a θ of its own to fill in (Gemma 3's text_config).
    EXPECT_NE(corpus_error_of(R"({"model_type": "gemma3", "text_config": {"model_type": "gemma3_text", "rope_theta": null}})")
                  .find("c.json: text_config.rope_theta = null"),
              std::string::npos);
    // Left out, it is the config class's default, said so.
    const LoadedConfig mixtral = parse_config_json(R"({"model_type": "mixtral", "head_dim": 128})", "c.json");
    EXPECT_EQ(mixtral.config.rope_theta, 1e6);
    EXPECT_NE(explain_config(mixtral).find("MixtralConfig's default"), std::string::npos);
}

TEST(ConfigFamilies, LayerTypesMustBeStrings) {
    EXPECT_EQ(corpus_error_of(R"({"model_type": "qwen3", "head_dim": 64, "layer_types": "full_attention"})"),
              "c.json: layer_types must be a list of strings, one per layer (got \"full_attention\")");
    EXPECT_EQ(corpus_error_of(R"({"model_type": "qwen3", "head_dim": 64, "layer_types": ["full_attention", 7]})"),
              "c.json: layer_types[1] = 7 is not a string (layer_types names each layer's attention)");
    EXPECT_NE(corpus_error_of(R"({"model_type": "llama4", "head_dim": 64, "no_rope_layers": [1, 2]})").find("no_rope_layers[1] = 2 is not 0 or 1"),
              std::string::npos);
}

TEST(ConfigFamilies, ScalingWithoutTypeIsNotApplied) {
    // transformers: a rope_scaling with no rope_type / type is "default"; its factor is dropped.
    const LoadedConfig c = parse_config_json(R"({"model_type": "llama", "head_dim": 64, "rope_scaling": {"factor": 8}})", "c.json");
    EXPECT_EQ(c.config.rope_scaling.type, RopeType::Default);
    EXPECT_FALSE(c.config.rope_scaling.factor.has_value());
    const RopeFrequencies f = compute_frequencies(c.config);
    const auto expected = hf_default(64, 1e4);
    ASSERT_EQ(f.inv_freq.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(f.inv_freq[i], expected[i], 1e-15 * expected[i]);
    const std::string text = explain_config(c);
    EXPECT_NE(text.find("ignored: rope_scaling has no type; transformers applies no scaling"), std::string::npos) << text;
    for (const ReadField& u : c.used) EXPECT_NE(u.name, "rope_scaling.factor");
    // An explicit "default" has no scaling keys either.
    const LoadedConfig d = parse_config_json(
        R"({"model_type": "llama", "head_dim": 64, "rope_parameters": {"rope_type": "default", "factor": 4}})", "c.json");
    EXPECT_FALSE(d.config.rope_scaling.factor.has_value());
    EXPECT_NE(explain_config(d).find("ignored: rope_parameters is rope_type default; transformers applies no scaling"), std::string::npos)
        << explain_config(d);
}

TEST(ConfigFamilies, RopeParametersKeysAreReadWhereverTheySit) {
    // v5: partial_rotary_factor inside rope_parameters; a key ropelab does not use is listed as such.
    const LoadedConfig flat = parse_config_json(R"({"model_type": "llama", "head_dim": 128,
        "rope_parameters": {"rope_type": "default", "rope_theta": 10000, "partial_rotary_factor": 0.5, "mystery_knob": 3}})",
                                                "c.json");
    EXPECT_EQ(rotary_dim(flat.config), 64);
    bool listed = false;
    for (const IgnoredField& f : flat.ignored) listed |= f.name == "rope_parameters.mystery_knob" && f.rope && f.why == "a RoPE parameter ropelab does not apply";
    EXPECT_TRUE(listed) << explain_config(flat);
    const std::string per_layer = R"({"model_type": "gemma3_text", "head_dim": 128, "num_attention_heads": 4,
        "layer_types": ["sliding_attention", "sliding_attention", "full_attention"],
        "rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 1000000, "partial_rotary_factor": 0.25},
                            "sliding_attention": {"rope_type": "default", "rope_theta": 10000}}})";
    const LoadedConfig full = parse_config_json(per_layer, "c.json");
    EXPECT_EQ(rotary_dim(full.config), 32);
    EXPECT_EQ(full.config.rope_theta, 1e6);
    const LoadedConfig sliding = parse_config_json(per_layer, "c.json", "sliding_attention");
    EXPECT_EQ(rotary_dim(sliding.config), 128);
    EXPECT_EQ(sliding.config.rope_theta, 1e4);
}

TEST(ConfigFamilies, LayersWithoutRopeAreCounted) {
    // Llama 4 Scout: no_rope_layers [] means the class default, every 4th of 48 layers without RoPE.
    const LoadedConfig scout = load_config_json(corpus("llama-4-scout-17b-16e"));
    EXPECT_EQ(scout.layer_count, 48);
    EXPECT_EQ(scout.layers_without_rope, 12);
    EXPECT_TRUE(corpus_has_note(scout, "12 of 48 layers apply no RoPE"));
    const LoadedConfig hybrid = parse_config_json(R"({"model_type": "qwen3", "head_dim": 64,
        "layer_types": ["linear_attention", "linear_attention", "linear_attention", "full_attention"]})",
                                                  "c.json");
    EXPECT_EQ(hybrid.layers_without_rope, 3);
    EXPECT_NE(explain_config(hybrid).find("layers without RoPE: 3 of 4"), std::string::npos) << explain_config(hybrid);
    const LoadedConfig marked = parse_config_json(R"({"model_type": "llama", "head_dim": 64, "no_rope_layers": [1, 1, 1, 0, 1, 1, 1, 0]})",
                                                  "c.json");
    EXPECT_EQ(marked.layers_without_rope, 2);
    EXPECT_EQ(marked.layer_count, 8);
}

// Some classes scale by default: a file without rope_scaling is read with the class's scaling, said
// so; beside a v5 rope_parameters the class's scaling does not apply.
TEST(ConfigFamilies, ClassDefaultScaling) {
    const LoadedConfig apertus = parse_config_json(R"({"model_type": "apertus", "hidden_size": 4096, "num_attention_heads": 32,
        "max_position_embeddings": 65536})", "c.json");
    EXPECT_EQ(apertus.config.rope_scaling.type, RopeType::Llama3);
    EXPECT_EQ(apertus.config.rope_theta, 12e6);
    const RopeFrequencies f = compute_frequencies(apertus.config);
    const auto expected = hf_llama3(128, 12e6, 8, 1, 4, 8192);
    ASSERT_EQ(f.inv_freq.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(f.inv_freq[i], expected[i], 1e-12 * expected[i]) << "pair " << i;
    EXPECT_NE(explain_config(apertus).find("rope_scaling.factor                          8                      default: ApertusConfig's default"),
              std::string::npos)
        << explain_config(apertus);
    const LoadedConfig oss = parse_config_json(R"({"model_type": "gpt_oss", "head_dim": 64})", "c.json");
    EXPECT_EQ(oss.config.rope_scaling.type, RopeType::Yarn);
    EXPECT_FALSE(oss.config.rope_scaling.truncate);
    const LoadedConfig v5 = parse_config_json(
        R"({"model_type": "gpt_oss", "head_dim": 64, "rope_parameters": {"rope_type": "default", "rope_theta": 150000}})", "c.json");
    EXPECT_EQ(v5.config.rope_scaling.type, RopeType::Default);
}

// BambaConfig sets partial_rotary_factor = 0.5 over the file's value (a fixed choice, not a default).
TEST(ConfigFamilies, ForcedRotaryFraction) {
    const LoadedConfig bamba = parse_config_json(
        R"({"model_type": "bamba", "hidden_size": 4096, "num_attention_heads": 32, "partial_rotary_factor": 1.0})", "c.json");
    EXPECT_EQ(rotary_dim(bamba.config), 64);
    bool listed = false;
    for (const IgnoredField& f : bamba.ignored) listed |= f.name == "partial_rotary_factor" && f.rope && f.why == "BambaConfig sets 0.5 whatever the file says";
    EXPECT_TRUE(listed) << explain_config(bamba);
    EXPECT_NE(corpus_error_of(R"({"model_type": "bamba", "hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 4,
        "attn_layer_indices": [1, 9]})").find("c.json: attn_layer_indices[1] = 9 is not a layer index in 0 .. 3"),
              std::string::npos);
}

TEST(ConfigFamilies, ClassDefaultRotaryFraction) {
    // PhiConfig's partial_rotary_factor is 0.5 when the file leaves it out: 2560 / 32 = 80, rotary 40.
    const LoadedConfig phi = parse_config_json(R"({"model_type": "phi", "hidden_size": 2560, "num_attention_heads": 32})", "c.json");
    EXPECT_EQ(rotary_dim(phi.config), 40);
    EXPECT_NE(explain_config(phi).find("PhiConfig's default"), std::string::npos) << explain_config(phi);
}

// --explain never files a RoPE-named field under "not about RoPE", for every config in the corpus.
TEST(ConfigFamilies, ExplainNeverCallsARopeFieldNotAboutRope) {
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(ROPELAB_SOURCE_DIR) + "/tests/data/configs")) {
        const std::string path = entry.path().string();
        SCOPED_TRACE(path);
        const LoadedConfig loaded = load_config_json(path);
        for (const IgnoredField& f : loaded.ignored) {
            const std::string key = f.name.substr(f.name.rfind('.') == std::string::npos ? 0 : f.name.rfind('.') + 1);
            for (const char* part : {"rope", "rotary", "theta", "position", "partial", "layer_types", "sliding", "mrope"}) {
                if (key.find(part) != std::string::npos) {
                    EXPECT_TRUE(f.rope) << f.name << ": " << f.why;
                }
            }
            if (f.rope) {
                EXPECT_EQ(f.why.find("not about"), std::string::npos) << f.name;
            }
        }
        const std::string text = explain_config(loaded);
        const std::size_t other = text.find("\nignored:\n");
        ASSERT_NE(other, std::string::npos);
        for (const IgnoredField& f : loaded.ignored) {
            if (f.rope) {
                EXPECT_LT(text.find("  " + f.name + " "), other) << f.name;
            }
        }
        ++files;
    }
    EXPECT_GE(files, 28 + static_cast<int>(std::size(kFamilyFiles)));
}

}  // namespace
}  // namespace ropelab
