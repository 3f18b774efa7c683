#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "core/config_json.h"
#include "core/error.h"
#include "core/frequencies.h"
#include "core/presets.h"
#include "support/refusal.h"

namespace ropelab {
namespace {

std::string error_of(const std::string& json) {
    return test::refusal([&] { parse_config_json(json, "test.json"); });
}

TEST(ConfigJson, EveryPresetLoadsAndHasANote) {
    ASSERT_GE(presets().size(), 12u);
    EXPECT_EQ(presets().front().note.name, "textbook");
    for (const Preset& p : presets()) {
        EXPECT_FALSE(p.note.title.empty()) << p.note.name;
        EXPECT_FALSE(p.note.source.empty()) << p.note.name;
        EXPECT_NO_THROW(compute_frequencies(p.config)) << p.note.name;
    }
    for (const char* name : {"llama2-7b", "llama3-8b", "llama3.1-8b", "mistral-7b", "qwen2.5-7b",
                             "qwen2.5-7b-yarn", "gemma-7b", "gpt-j-6b", "gpt-neox-20b",
                             "phi3-mini-128k", "deepseek-v3", "textbook"}) {
        EXPECT_NE(find_preset(name), nullptr) << name;
    }
}

TEST(ConfigJson, PresetValuesAsPublished) {
    const ModelConfig& llama = preset_or_throw("llama3.1-8b").config;
    EXPECT_EQ(llama.head_dim, 128);
    EXPECT_EQ(llama.rope_theta, 500000.0);
    EXPECT_EQ(llama.rope_scaling.type, RopeType::Llama3);
    EXPECT_EQ(*llama.rope_scaling.original_max_position_embeddings, 8192);
    const ModelConfig& gemma = preset_or_throw("gemma-7b").config;
    EXPECT_EQ(gemma.head_dim, 256);  // explicit head_dim wins over 3072 / 16
    const ModelConfig& qwen = preset_or_throw("qwen2.5-7b").config;
    EXPECT_EQ(qwen.head_dim, 128);  // 3584 / 28
    EXPECT_EQ(qwen.layout, PairLayout::Half);
    const ModelConfig& phi = preset_or_throw("phi3-mini-128k").config;
    EXPECT_EQ(phi.rope_scaling.long_factor.size(), 48u);
    EXPECT_EQ(*phi.original_max_position_embeddings, 4096);
}

TEST(ConfigJson, ReadsHfKeysAndLegacyType) {
    const std::string text = R"({
        "hidden_size": 2048, "num_attention_heads": 16, "partial_rotary_factor": 0.5,
        "rope_theta": 50000, "max_position_embeddings": 4096,
        "rope_scaling": {"type": "linear", "factor": 2.0},
        "vocab_size": 32000, "architectures": ["Whatever"]})";
    // A model the family table does not know is refused until the user says how its RoPE is laid out.
    const std::string e = error_of(text);
    EXPECT_NE(e.find("test.json: no model_type, and architectures[0] \"Whatever\", is not in ropelab's family table"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("--layout half|interleaved and --partial-rotary-factor F"), std::string::npos) << e;
    const LoadedConfig c = parse_config_json(text, "x.json", "", GivenRope{PairLayout::Half, 0.5});
    EXPECT_EQ(c.config.head_dim, 128);
    EXPECT_EQ(rotary_dim(c.config), 64);
    EXPECT_EQ(c.config.rope_scaling.type, RopeType::Linear);
    EXPECT_EQ(*c.config.rope_scaling.factor, 2.0);
    EXPECT_EQ(c.config.layout, PairLayout::Half);
    ASSERT_FALSE(c.notes.empty());
    EXPECT_NE(c.notes.back().find("read with --layout half and --partial-rotary-factor 0.5"), std::string::npos) << c.notes.back();
    // The same file named as a Llama (by its architecture) needs no flags.
    std::string llama = text;
    llama.replace(llama.find("Whatever"), 8, "LlamaForCausalLM");
    EXPECT_EQ(parse_config_json(llama, "x.json").config.layout, PairLayout::Half);
}

TEST(ConfigJson, NullHeadDimAndNullScalingMeanAbsent) {
    const LoadedConfig c = parse_config_json(
        R"({"model_type": "mistral", "head_dim": null, "hidden_size": 4096, "num_attention_heads": 32, "rope_scaling": null})",
        "x.json");
    EXPECT_EQ(c.config.head_dim, 128);
    EXPECT_EQ(c.config.rope_scaling.type, RopeType::Default);
}

TEST(ConfigJson, ErrorsNameFileFieldAndValue) {
    std::string e = error_of(R"({"head_dim": 128, "rope_theta": "big"})");
    EXPECT_NE(e.find("test.json"), std::string::npos) << e;
    EXPECT_NE(e.find("rope_theta"), std::string::npos) << e;
    EXPECT_NE(e.find("\"big\""), std::string::npos) << e;

    e = error_of(R"({"head_dim": 128, "rope_scaling": {"rope_type": "llama3", "factor": 8}})");
    EXPECT_NE(e.find("rope_scaling.low_freq_factor"), std::string::npos) << e;

    e = error_of(R"({"head_dim": 128, "rope_scaling": {"rope_type": "warp", "factor": 8}})");
    EXPECT_NE(e.find("\"warp\""), std::string::npos) << e;

    e = error_of(R"({"head_dim": 128, "rope_scaling": {"rope_type": "yarn", "factor": -1}})");
    EXPECT_NE(e.find("rope_scaling.factor"), std::string::npos) << e;
    EXPECT_NE(e.find("-1"), std::string::npos) << e;

    e = error_of(R"({"head_dim": 128, "rope_scaling": {"rope_type": "longrope",
        "long_factor": [1, "x"], "short_factor": [1]}})");
    EXPECT_NE(e.find("rope_scaling.long_factor"), std::string::npos) << e;

    e = error_of(R"({"vocab_size": 5})");
    EXPECT_NE(e.find("head_dim"), std::string::npos) << e;

    e = error_of(R"({"head_dim": 128, "rope_theta": 10000,)");
    EXPECT_NE(e.find("not valid JSON"), std::string::npos) << e;

    e = error_of(R"([1, 2])");
    EXPECT_NE(e.find("object"), std::string::npos) << e;
}

// Found by fuzz_config_json: a number too large for a double is a JSON error like any other,
// not an exception that escapes the loader (it would have closed the window on drag-and-drop).
TEST(ConfigJson, OverflowingNumberIsRefused) {
    const std::string e = error_of(R"({"head_dim": 128, "rope_theta": 6e950000286102295})");
    EXPECT_NE(e.find("test.json"), std::string::npos) << e;
    EXPECT_NE(e.find("number overflow"), std::string::npos) << e;
}

TEST(ConfigJson, MissingFileIsNamed) {
    try {
        load_config_json("/nonexistent/dir/config.json");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/config.json"), std::string::npos);
    }
}

TEST(ConfigJson, LoadsFromDisk) {
    const std::string path = ::testing::TempDir() + "/ropelab_config_test.json";
    {
        std::ofstream out(path);
        out << R"({"head_dim": 64, "rope_theta": 1e6, "_ropelab": {"layout": "half"}})";
    }
    const LoadedConfig c = load_config_json(path);
    EXPECT_EQ(c.config.head_dim, 64);
    EXPECT_EQ(c.config.rope_theta, 1e6);
    EXPECT_EQ(c.config.layout, PairLayout::Half);
    std::remove(path.c_str());
}

}  // namespace
}  // namespace ropelab
