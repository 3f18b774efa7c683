// Per-layer rules read from real-shaped config.json files: which layers apply RoPE, their sliding
// windows and chunks, Llama 4's query temperature, and --layer picking one of them. The expected
// rules are worked out independently from each config class's definition (transformers'
// configuration_*.py), or read straight from the file's own list.
#include <gtest/gtest.h>

#include "support/files.h"

#include <fstream>

#include <nlohmann/json.hpp>

#include "core/config_json.h"
#include "core/error.h"
#include "core/frequencies.h"
#include "core/math_notes.h"
#include "core/presets.h"
#include "support/refusal.h"

namespace ropelab {
namespace {

using ropelab::test::corpus;

nlohmann::json raw(const std::string& name) {
    std::ifstream in(corpus(name));
    return nlohmann::json::parse(in);
}

bool listed_as_ignored(const LoadedConfig& loaded, const std::string& name) {
    for (const IgnoredField& f : loaded.ignored) {
        if (f.name == name) return true;
    }
    return false;
}

bool used(const LoadedConfig& loaded, const std::string& name) {
    for (const ReadField& f : loaded.used) {
        if (f.name == name) return true;
    }
    return false;
}

// Llama 4 Scout: no_rope_layers is [], so Llama4TextConfig makes layer i NoPE when (i + 1) % 4 == 0,
// and the RoPE layers chunked_attention with attention_chunk_size 8192.
TEST(ConfigLayers, Llama4ScoutEveryFourthLayerIsNoPEWithTemperature) {
    const LoadedConfig scout = load_config_json(corpus("llama-4-scout-17b-16e"));
    ASSERT_EQ(scout.layers.size(), 48u);
    for (std::size_t i = 0; i < scout.layers.size(); ++i) {
        const LayerRule& rule = scout.layers[i];
        const bool rope = (i + 1) % 4 != 0;
        EXPECT_EQ(rule.attention.rope, rope) << "layer " << i;
        EXPECT_EQ(rule.type, rope ? "chunked_attention" : "full_attention") << "layer " << i;
        EXPECT_EQ(rule.attention.attention_chunk, rope ? 8192 : 0) << "layer " << i;
        EXPECT_EQ(rule.attention.temperature_tuning, !rope) << "layer " << i;
        EXPECT_EQ(rule.attention.sliding_window, 0) << "layer " << i;
    }
    const LayerAttention& nope = scout.layers[3].attention;
    EXPECT_EQ(nope.floor_scale, 8192.0);
    EXPECT_EQ(nope.attn_scale, 0.1);
    // No layer picked: the first RoPE layer's rules, said in a note.
    EXPECT_EQ(scout.layer, -1);
    EXPECT_EQ(scout.default_layer, 0);
    EXPECT_EQ(scout.config.attention.attention_chunk, 8192);
    EXPECT_TRUE(scout.config.attention.rope);
    // The keys are read now, not listed as "not about RoPE".
    EXPECT_FALSE(listed_as_ignored(scout, "text_config.attention_chunk_size"));
    EXPECT_TRUE(used(scout, "text_config.attention_chunk_size"));
    EXPECT_TRUE(used(scout, "text_config.attn_temperature_tuning"));  // the class's default, said as one
}

TEST(ConfigLayers, Llama4PickingLayer3GivesNoPEAndLayer0Chunks) {
    const LoadedConfig layer3 = load_config_json(corpus("llama-4-scout-17b-16e"), "", {}, 3);
    EXPECT_EQ(layer3.layer, 3);
    EXPECT_FALSE(layer3.config.attention.rope);
    EXPECT_TRUE(layer3.config.attention.temperature_tuning);
    EXPECT_EQ(layer3.config.attention.attention_chunk, 0);
    const RopeFrequencies f = compute_frequencies(layer3.config);
    for (int i = 0; i < f.pairs(); ++i) {
        EXPECT_FALSE(f.rotates(i)) << i;
        EXPECT_EQ(f.inv_freq[static_cast<std::size_t>(i)], 0.0) << i;
    }
    const LoadedConfig layer0 = load_config_json(corpus("llama-4-scout-17b-16e"), "", {}, 0);
    EXPECT_TRUE(layer0.config.attention.rope);
    EXPECT_EQ(layer0.config.attention.attention_chunk, 8192);
    EXPECT_FALSE(layer0.config.attention.temperature_tuning);
    EXPECT_EQ(layer0.config.rope_theta, 500000.0);
    EXPECT_EQ(layer_label(3, layer3.layers[3]), "3: full_attention (NoPE, temperature)");
    EXPECT_EQ(layer_label(0, layer0.layers[0]), "0: chunked_attention (RoPE θ=500000, chunk 8192)");
}

// Gemma 3 (Gemma3TextConfig): layer i is global when (i + 1) % sliding_window_pattern (6) == 0.
// Global layers: rope_theta 10^6 with the file's linear ×8; sliding ones: rope_local_base_freq 10^4,
// unscaled, window sliding_window.
TEST(ConfigLayers, Gemma3GlobalAndSlidingLayers) {
    for (const LoadedConfig& g : {load_preset("gemma3-4b", "", 5), load_config_json(corpus("gemma-3-4b-it"), "", {}, 5)}) {
        ASSERT_EQ(g.layers.size(), 34u);
        EXPECT_EQ(g.layers[5].type, "full_attention");
        EXPECT_EQ(g.config.rope_theta, 1e6);
        EXPECT_EQ(g.config.rope_scaling.type, RopeType::Linear);
        EXPECT_EQ(*g.config.rope_scaling.factor, 8.0);
        EXPECT_EQ(g.config.attention.sliding_window, 0);
        EXPECT_TRUE(g.config.attention.rope);
        for (std::size_t i = 0; i < g.layers.size(); ++i) {
            const bool global = (i + 1) % 6 == 0;
            EXPECT_EQ(g.layers[i].type, global ? "full_attention" : "sliding_attention") << i;
            EXPECT_EQ(g.layers[i].attention.sliding_window, global ? 0 : 1024) << i;
            EXPECT_EQ(g.layers[i].theta, global ? 1e6 : 1e4) << i;
        }
    }
    const LoadedConfig local = load_preset("gemma3-4b", "", 0);
    EXPECT_EQ(local.layer_type, "sliding_attention");
    EXPECT_EQ(local.config.rope_theta, 1e4);
    EXPECT_EQ(local.config.rope_scaling.type, RopeType::Default);
    EXPECT_EQ(local.config.attention.sliding_window, 1024);
    // Frequencies follow the layer's θ: pair 1 of a 256-wide head turns at 10^4^(−2/256).
    EXPECT_NEAR(compute_frequencies(local.config).inv_freq[1], std::pow(1e4, -2.0 / 256.0), 1e-15);
    // The default layer is the first global one (the setting shown without --layer-type).
    const LoadedConfig none = load_preset("gemma3-4b", "");
    EXPECT_EQ(none.default_layer, 5);
    // A layer type that contradicts the layer is refused, naming both.
    const std::string why = test::refusal([] { load_preset("gemma3-4b", "full_attention", 0); });
    EXPECT_NE(why.find("--layer 0 is a sliding_attention layer"), std::string::npos) << why;
}

// Gemma 2 (Gemma2Config): even layers slide (window 4096), odd ones are global; the same θ.
TEST(ConfigLayers, Gemma2Alternates) {
    const LoadedConfig g = load_config_json(corpus("gemma-2-9b"));
    ASSERT_EQ(g.layers.size(), 42u);
    for (std::size_t i = 0; i < g.layers.size(); ++i) {
        EXPECT_EQ(g.layers[i].attention.sliding_window, i % 2 == 0 ? 4096 : 0) << i;
        EXPECT_TRUE(g.layers[i].attention.rope) << i;
    }
    EXPECT_EQ(load_config_json(corpus("gemma-2-9b"), "", {}, 1).config.attention.sliding_window, 0);
}

// SmolLM3: the layers its file marks 0 in no_rope_layers apply no RoPE; the others θ = 5·10^6.
TEST(ConfigLayers, SmolLM3NoRopeLayers) {
    const nlohmann::json file = raw("smollm3-3b");
    const LoadedConfig s = load_config_json(corpus("smollm3-3b"));
    ASSERT_EQ(s.layers.size(), file["no_rope_layers"].size());
    int nope = 0;
    for (std::size_t i = 0; i < s.layers.size(); ++i) {
        const bool rope = file["no_rope_layers"][i].get<int>() == 1;
        EXPECT_EQ(s.layers[i].attention.rope, rope) << i;
        EXPECT_EQ(s.layers[i].attention.sliding_window, 0) << i;
        nope += !rope;
    }
    EXPECT_EQ(nope, 9);
    EXPECT_FALSE(load_config_json(corpus("smollm3-3b"), "", {}, 3).config.attention.rope);
    const LoadedConfig zero = load_config_json(corpus("smollm3-3b"), "", {}, 0);
    EXPECT_TRUE(zero.config.attention.rope);
    EXPECT_EQ(zero.config.rope_theta, 5e6);
    // The preset reads the same.
    for (std::size_t i = 0; i < s.layers.size(); ++i) {
        EXPECT_EQ(load_preset("smollm3-3b", "").layers[i].attention.rope, s.layers[i].attention.rope) << i;
    }
}

// Qwen3-Next: layer_types lists linear_attention (Gated DeltaNet, no RoPE) and full_attention layers.
TEST(ConfigLayers, Qwen3NextLinearLayersHaveNoRope) {
    const nlohmann::json file = raw("qwen3-coder-next");
    const LoadedConfig q = load_config_json(corpus("qwen3-coder-next"));
    ASSERT_EQ(q.layers.size(), file["layer_types"].size());
    for (std::size_t i = 0; i < q.layers.size(); ++i) {
        const std::string type = file["layer_types"][i].get<std::string>();
        EXPECT_EQ(q.layers[i].type, type) << i;
        EXPECT_EQ(q.layers[i].attention.rope, type != "linear_attention") << i;
    }
    EXPECT_FALSE(load_config_json(corpus("qwen3-coder-next"), "", {}, 0).config.attention.rope);
    EXPECT_TRUE(load_config_json(corpus("qwen3-coder-next"), "", {}, 3).config.attention.rope);
    EXPECT_EQ(q.default_layer, 3);  // the first layer that rotates
}

// Cohere2 and EXAONE 4: with a sliding window only the sliding layers rotate; the global layers
// (every 4th: pattern 4, "LLLG") apply no RoPE.
TEST(ConfigLayers, Cohere2AndExaone4GlobalLayersAreNoPE) {
    for (const char* name : {"c4ai-command-r7b-12-2024", "exaone-4.0-32b"}) {
        const LoadedConfig c = load_config_json(corpus(name));
        ASSERT_FALSE(c.layers.empty()) << name;
        for (std::size_t i = 0; i < c.layers.size(); ++i) {
            const bool global = (i + 1) % 4 == 0;
            EXPECT_EQ(c.layers[i].attention.rope, !global) << name << " layer " << i;
            EXPECT_EQ(c.layers[i].attention.sliding_window, global ? 0 : 4096) << name << " layer " << i;
        }
        EXPECT_FALSE(load_config_json(corpus(name), "", {}, 3).config.attention.rope) << name;
    }
}

// Mistral 7B v0.1 windows every layer (sliding_window 4096, modeling_mistral.py); Qwen2/Qwen3 with
// use_sliding_window slide from max_window_layers on, and without it have no per-layer rules.
TEST(ConfigLayers, MistralAndQwenSlidingWindows) {
    const LoadedConfig mistral = load_config_json(corpus("mistral-7b-v0.1"));
    ASSERT_EQ(mistral.layers.size(), raw("mistral-7b-v0.1")["num_hidden_layers"].get<std::size_t>());
    for (const LayerRule& rule : mistral.layers) EXPECT_EQ(rule.attention.sliding_window, 4096);
    EXPECT_EQ(mistral.config.attention.sliding_window, 4096);
    EXPECT_FALSE(listed_as_ignored(mistral, "sliding_window"));
    const LoadedConfig qwen = parse_config_json(R"({"model_type": "qwen2", "head_dim": 64, "num_hidden_layers": 6,
        "use_sliding_window": true, "sliding_window": 512, "max_window_layers": 4})", "q.json");
    ASSERT_EQ(qwen.layers.size(), 6u);
    for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(qwen.layers[i].attention.sliding_window, i >= 4 ? 512 : 0) << i;
    EXPECT_TRUE(load_config_json(corpus("qwen3-8b")).layers.empty());
}

TEST(ConfigLayers, LayerOutOfRangeOrWithoutRulesIsRefused) {
    const std::string far = test::refusal([] { load_config_json(corpus("llama-4-scout-17b-16e"), "", {}, 48); });
    EXPECT_NE(far.find("llama-4-scout-17b-16e.json"), std::string::npos) << far;
    EXPECT_NE(far.find("--layer 48"), std::string::npos) << far;
    EXPECT_NE(far.find("48 layers (0 .. 47)"), std::string::npos) << far;
    const std::string same = test::refusal([] { load_config_json(corpus("llama-3-8b"), "", {}, 0); });
    EXPECT_NE(same.find("llama-3-8b.json: --layer 0: this file has no per-layer rules"), std::string::npos) << same;
    // A file without per-layer rules has none, and a plain causal RoPE layer.
    const LoadedConfig plain = load_config_json(corpus("llama-3-8b"));
    EXPECT_TRUE(plain.layers.empty());
    EXPECT_EQ(plain.config.attention, LayerAttention{});
}

// A NoPE layer's frequencies are all 0 by design: its note says so, instead of a "frozen" ladder.
TEST(ConfigLayers, NoPELayerNotesSayNoRope) {
    const RopeFrequencies nope = compute_frequencies(load_preset("llama4-scout", "", 3).config);
    const std::vector<MathNote> notes = math_notes(nope, NoteInputs{});
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes[0].summary, "This layer applies no RoPE (NoPE): q·k does not depend on position");
    EXPECT_FALSE(notes[0].degenerate);
    EXPECT_EQ(layer_preview(3, load_preset("llama4-scout", "").layers[3]), "layer 3: NoPE");
    EXPECT_EQ(layer_preview(0, load_preset("llama4-scout", "").layers[0]), "layer 0: RoPE, chunk 8192");
}

TEST(ConfigLayers, NewPresetsCarryTheirLayers) {
    const LoadedConfig scout = load_preset("llama4-scout", "", 7);
    EXPECT_FALSE(scout.config.attention.rope);
    EXPECT_TRUE(scout.config.attention.temperature_tuning);
    EXPECT_EQ(scout.config.layout, PairLayout::Interleaved);
    EXPECT_EQ(*scout.config.rope_scaling.factor, 16.0);
    EXPECT_EQ(load_preset("llama4-scout", "").config.attention.attention_chunk, 8192);
    EXPECT_EQ(load_preset("smollm3-3b", "", 35).config.attention.rope, false);
}

}  // namespace
}  // namespace ropelab
