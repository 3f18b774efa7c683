// The RoPE of GGUF files shaped as llama.cpp's convert_hf_to_gguf.py writes them (u32 counts,
// f32 floats, string arrays, F32 rope tensors): each checked against an independent float64
// formula θ^(−2i/n_rot) / f_i, HF's own scaling (core/frequencies.h) or hand-worked values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "core/frequencies.h"
#include "models/gguf.h"
#include "models/gguf_rope.h"
#include "support/gguf_writer.h"

namespace {

using ropelab::InputError;
using ropelab::LoadedConfig;
using ropelab::ModelConfig;
using ropelab::PairLayout;
using ropelab::ReadField;
using ropelab::gguf::rope_of;

constexpr double kTwoPiRope = 2.0 * std::numbers::pi;

std::string rope_f32_bytes(const std::vector<float>& values) {
    std::string out;
    for (float v : values) out += gguf_test::le(v);
    return out;
}

// A file's first keys as the converter writes them: the architecture, the context, the head.
gguf_test::Writer rope_file(const std::string& arch, std::uint32_t embd, std::uint32_t heads, std::uint32_t context = 4096,
                            std::uint32_t layers = 8) {
    gguf_test::Writer w;
    w.add_string("general.architecture", arch);
    w.add_string("general.name", "test model");
    w.add_u32(arch + ".context_length", context);
    w.add_u32(arch + ".embedding_length", embd);
    w.add_u32(arch + ".block_count", layers);
    w.add_u32(arch + ".feed_forward_length", 4 * embd);
    w.add_u32(arch + ".attention.head_count", heads);
    w.add_f32(arch + ".attention.layer_norm_rms_epsilon", 1e-5f);
    w.add_array_string("tokenizer.ggml.tokens", {"a", "b"});
    return w;
}

LoadedConfig rope_load(const gguf_test::Writer& w, std::string_view layer_type = "", const ropelab::GivenRope& given = {},
                       int layer = -1) {
    const ropelab::gguf::File file = ropelab::gguf::File::parse(ropelab::models::MappedFile::hold(w.bytes(), "test.gguf"));
    return rope_of(file, layer_type, given, layer);
}

std::string rope_error(const gguf_test::Writer& w, std::string_view layer_type = "", int layer = -1) {
    try {
        rope_load(w, layer_type, {}, layer);
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

const ropelab::ReadField* rope_used(const LoadedConfig& c, const std::string& name) {
    for (const auto& f : c.used) {
        if (f.name == name) return &f;
    }
    return nullptr;
}

const ropelab::IgnoredField* rope_ignored(const LoadedConfig& c, const std::string& name) {
    for (const auto& f : c.ignored) {
        if (f.name == name) return &f;
    }
    return nullptr;
}

bool rope_noted(const LoadedConfig& c, const std::string& words) {
    return std::any_of(c.notes.begin(), c.notes.end(), [&](const std::string& n) { return n.find(words) != std::string::npos; });
}

// θ^(−2i/n_rot) / f_i in float64, f empty: 1.
void expect_ladder(const ModelConfig& config, double theta, int n_rot, const std::vector<double>& f = {}, double tolerance = 1e-12) {
    const ropelab::RopeFrequencies freqs = ropelab::compute_frequencies(config);
    ASSERT_EQ(freqs.rotary_dim, n_rot);
    for (int i = 0; i < n_rot / 2; ++i) {
        const double want = std::pow(theta, -2.0 * i / n_rot) / (f.empty() ? 1.0 : f[static_cast<std::size_t>(i)]);
        EXPECT_NEAR(freqs.inv_freq[static_cast<std::size_t>(i)], want, tolerance * want) << "pair " << i;
    }
}

// Llama 3.1's divisors as the converter computes them (LlamaModel.generate_extra_tensors), in float64.
std::vector<double> rope_llama3_divisors(double theta, int n_rot, double factor, double low, double high, double context) {
    std::vector<double> out;
    for (int i = 0; i < n_rot / 2; ++i) {
        const double freq = std::pow(theta, -2.0 * i / n_rot);
        const double wavelen = kTwoPiRope / freq;
        if (wavelen < context / high) {
            out.push_back(1.0);
        } else if (wavelen > context / low) {
            out.push_back(factor);
        } else {
            const double smooth = (context / wavelen - low) / (high - low);
            out.push_back(1.0 / ((1.0 - smooth) / factor + smooth));
        }
    }
    return out;
}

TEST(GgufRope, LlamaRopeFreqsAreLlama3Divisors) {
    gguf_test::Writer w = rope_file("llama", 4096, 32, 131072, 32);
    w.add_u32("llama.attention.head_count_kv", 8);
    w.add_u32("llama.rope.dimension_count", 128);
    w.add_f32("llama.rope.freq_base", 500000.0f);
    const std::vector<double> divisors = rope_llama3_divisors(500000.0, 128, 8.0, 1.0, 4.0, 8192.0);
    std::vector<float> stored(divisors.begin(), divisors.end());
    w.add_tensor("rope_freqs.weight", {64}, 0, rope_f32_bytes(stored));
    const LoadedConfig c = rope_load(w);

    EXPECT_EQ(c.config.layout, PairLayout::Interleaved);
    EXPECT_EQ(c.config.head_dim, 128);
    EXPECT_EQ(c.config.partial_rotary_factor, 1.0);
    EXPECT_EQ(c.config.rope_theta, 500000.0);
    EXPECT_EQ(c.config.max_position_embeddings, 131072);
    ASSERT_EQ(c.config.freq_factors.size(), 64u);
    std::vector<double> f32_divisors(stored.begin(), stored.end());
    expect_ladder(c.config, 500000.0, 128, f32_divisors);

    // The same frequencies as HF's llama3 rope_type, up to the f32 the divisors are stored in.
    ModelConfig hf;
    hf.head_dim = 128;
    hf.rope_theta = 500000.0;
    hf.max_position_embeddings = 131072;
    hf.rope_scaling.type = ropelab::RopeType::Llama3;
    hf.rope_scaling.factor = 8.0;
    hf.rope_scaling.low_freq_factor = 1.0;
    hf.rope_scaling.high_freq_factor = 4.0;
    hf.rope_scaling.original_max_position_embeddings = 8192;
    const auto want = ropelab::compute_frequencies(hf).inv_freq;
    const auto got = ropelab::compute_frequencies(c.config).inv_freq;
    for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-7 * want[i]) << "pair " << i;
    // Pair 0 turns fastest and is kept; the last pairs are divided by the full factor 8.
    EXPECT_EQ(c.config.freq_factors.front(), 1.0);
    EXPECT_NEAR(c.config.freq_factors.back(), 8.0, 1e-6);

    ASSERT_NE(rope_used(c, "llama.rope.freq_base"), nullptr);
    EXPECT_EQ(rope_used(c, "llama.rope.freq_base")->origin, ReadField::Origin::File);
    EXPECT_NE(rope_used(c, "rope_freqs.weight"), nullptr);
    EXPECT_TRUE(rope_noted(c, "permuted"));
    ASSERT_NE(rope_ignored(c, "llama.feed_forward_length"), nullptr);
    EXPECT_FALSE(rope_ignored(c, "llama.feed_forward_length")->rope);
    EXPECT_NE(rope_ignored(c, "llama.attention.layer_norm_rms_epsilon"), nullptr);
}

TEST(GgufRope, MissingFreqBaseIs10000RecordedAsDefault) {
    const LoadedConfig c = rope_load(rope_file("llama", 1024, 8));
    EXPECT_EQ(c.config.rope_theta, 10000.0);
    const auto* base = rope_used(c, "llama.rope.freq_base");
    ASSERT_NE(base, nullptr);
    EXPECT_EQ(base->origin, ReadField::Origin::Default);
    EXPECT_NE(base->why.find("default"), std::string::npos);
    EXPECT_EQ(rope_used(c, "llama.attention.key_length")->origin, ReadField::Origin::Derived);  // 1024 / 8
    expect_ladder(c.config, 10000.0, 128);
}

TEST(GgufRope, Qwen2IsNeoxHalves) {
    gguf_test::Writer w = rope_file("qwen2", 3584, 28, 32768, 28);
    w.add_u32("qwen2.attention.head_count_kv", 4);
    w.add_f32("qwen2.rope.freq_base", 1000000.0f);
    const LoadedConfig c = rope_load(w);
    EXPECT_EQ(c.config.layout, PairLayout::Half);
    EXPECT_EQ(c.config.head_dim, 128);  // 3584 / 28
    EXPECT_TRUE(c.layers.empty());
    expect_ladder(c.config, 1e6, 128);
}

gguf_test::Writer rope_gemma3(bool with_swa_base) {
    gguf_test::Writer w = rope_file("gemma3", 2560, 8, 131072, 12);
    w.add_u32("gemma3.attention.key_length", 256);
    w.add_u32("gemma3.attention.value_length", 256);
    w.add_u32("gemma3.attention.sliding_window", 1024);
    w.add_f32("gemma3.rope.freq_base", 1000000.0f);
    if (with_swa_base) w.add_f32("gemma3.rope.freq_base_swa", 10000.0f);
    w.add_string("gemma3.rope.scaling.type", "linear");
    w.add_f32("gemma3.rope.scaling.factor", 8.0f);
    return w;
}

TEST(GgufRope, Gemma3EverySixthLayerGlobal) {
    const LoadedConfig c = rope_load(rope_gemma3(true));
    EXPECT_EQ(c.layer_types, (std::vector<std::string>{"full_attention", "sliding_attention"}));
    EXPECT_EQ(c.layer_type, "full_attention");
    EXPECT_EQ(c.config.rope_theta, 1e6);
    EXPECT_EQ(c.config.rope_scaling.type, ropelab::RopeType::Linear);
    ASSERT_EQ(c.layers.size(), 12u);
    for (int i = 0; i < 12; ++i) {
        const bool global = i % 6 == 5;  // set_swa_pattern(6): layers 5 and 11
        EXPECT_EQ(c.layers[static_cast<std::size_t>(i)].type, global ? "full_attention" : "sliding_attention") << i;
        EXPECT_EQ(c.layers[static_cast<std::size_t>(i)].theta, global ? 1e6 : 1e4) << i;
        EXPECT_EQ(c.layers[static_cast<std::size_t>(i)].attention.sliding_window, global ? 0 : 1024) << i;
    }
    EXPECT_EQ(c.default_layer, 5);
    // Linear 8 on the global layers: θ^(−2i/256) / 8.
    expect_ladder(c.config, 1e6, 256, std::vector<double>(128, 8.0));

    const LoadedConfig local = rope_load(rope_gemma3(true), "sliding_attention");
    EXPECT_EQ(local.config.rope_theta, 10000.0);
    EXPECT_EQ(local.config.rope_scaling.type, ropelab::RopeType::Default);  // rope_freq_scale_train_swa = 1
    expect_ladder(local.config, 1e4, 256);

    EXPECT_EQ(rope_load(rope_gemma3(true), "", {}, 4).layer_type, "sliding_attention");
    EXPECT_EQ(rope_load(rope_gemma3(true), "", {}, 11).layer_type, "full_attention");
    EXPECT_NE(rope_error(rope_gemma3(true), "full_attention", 4).find("--layer 4 is a sliding_attention layer"), std::string::npos);
    EXPECT_NE(rope_error(rope_gemma3(true), "", 12).find("12"), std::string::npos);

    // Without freq_base_swa: llama.cpp's 10000 for Gemma 3, said as a default.
    const LoadedConfig assumed = rope_load(rope_gemma3(false), "sliding_attention");
    EXPECT_EQ(assumed.config.rope_theta, 10000.0);
    EXPECT_EQ(rope_used(assumed, "gemma3.rope.freq_base_swa")->origin, ReadField::Origin::Default);
}

TEST(GgufRope, Phi3LongRopeTensors) {
    gguf_test::Writer w = rope_file("phi3", 3072, 32, 131072, 32);
    w.add_u32("phi3.rope.dimension_count", 96);
    w.add_f32("phi3.rope.freq_base", 10000.0f);
    w.add_u32("phi3.rope.scaling.original_context_length", 4096);
    w.add_f32("phi3.rope.scaling.attn_factor", 1.1902380714238083f);
    std::vector<float> long_f, short_f;
    for (int i = 0; i < 48; ++i) {
        long_f.push_back(1.0f + 0.5f * static_cast<float>(i));
        short_f.push_back(1.0f + 0.01f * static_cast<float>(i));
    }
    w.add_tensor("rope_factors_long.weight", {48}, 0, rope_f32_bytes(long_f));
    w.add_tensor("rope_factors_short.weight", {48}, 0, rope_f32_bytes(short_f));
    LoadedConfig c = rope_load(w);
    EXPECT_EQ(c.config.layout, PairLayout::Half);
    EXPECT_EQ(c.config.rope_scaling.type, ropelab::RopeType::LongRope);
    EXPECT_EQ(*c.config.rope_scaling.original_max_position_embeddings, 4096);
    // At the full context (past 4096) the long factors apply, as llama.cpp's n_ctx_per_seq > n_ctx_orig_yarn.
    expect_ladder(c.config, 1e4, 96, std::vector<double>(long_f.begin(), long_f.end()));
    EXPECT_EQ(ropelab::compute_frequencies(c.config).attention_factor, static_cast<double>(1.1902380714238083f));
    c.config.seq_len = 4096;
    expect_ladder(c.config, 1e4, 96, std::vector<double>(short_f.begin(), short_f.end()));
}

TEST(GgufRope, DeepSeek2YarnOnTheRotaryPart) {
    gguf_test::Writer w = rope_file("deepseek2", 7168, 128, 163840, 61);
    w.add_u32("deepseek2.attention.key_length", 192);
    w.add_u32("deepseek2.attention.value_length", 128);
    w.add_u32("deepseek2.attention.kv_lora_rank", 512);
    w.add_u32("deepseek2.rope.dimension_count", 64);
    w.add_f32("deepseek2.rope.freq_base", 10000.0f);
    w.add_string("deepseek2.rope.scaling.type", "yarn");
    w.add_f32("deepseek2.rope.scaling.factor", 40.0f);
    w.add_u32("deepseek2.rope.scaling.original_context_length", 4096);
    w.add_f32("deepseek2.rope.scaling.yarn_log_multiplier", 0.1f);
    const LoadedConfig c = rope_load(w);
    EXPECT_EQ(c.config.layout, PairLayout::Interleaved);
    EXPECT_EQ(c.config.head_dim, 192);
    EXPECT_EQ(c.config.rotary_offset, 128);
    EXPECT_EQ(ropelab::rotary_dim(c.config), 64);
    EXPECT_EQ(c.config.rope_scaling.type, ropelab::RopeType::Yarn);
    EXPECT_FALSE(rope_noted(c, "permuted"));  // DeepSeek's checkpoint rotates consecutive pairs itself
    EXPECT_TRUE(rope_noted(c, "the checkpoint itself rotates consecutive pairs"));

    // ggml's YaRN (ggml_rope_yarn_corr_dims, rope_yarn) in float64: ramp between floor/ceil of the
    // correction dims for β 32 and 1.
    const double base = 10000.0, factor = 40.0, orig = 4096.0;
    const int n = 64;
    const auto corr = [&](double rotations) { return n * std::log(orig / (rotations * kTwoPiRope)) / (2.0 * std::log(base)); };
    const double low = std::max(0.0, std::floor(corr(32.0))), high = std::min(n - 1.0, std::ceil(corr(1.0)));
    const auto freqs = ropelab::compute_frequencies(c.config);
    ASSERT_EQ(freqs.inv_freq.size(), 32u);
    for (int i = 0; i < 32; ++i) {
        const double extrap = std::pow(base, -2.0 * i / n);
        const double mix = 1.0 - std::clamp((i - low) / std::max(0.001, high - low), 0.0, 1.0);
        const double want = extrap / factor * (1.0 - mix) + extrap * mix;
        EXPECT_NEAR(freqs.inv_freq[static_cast<std::size_t>(i)], want, 1e-12 * want) << i;
    }
    EXPECT_EQ(freqs.attention_factor, 1.0);  // yarn_log_multiplier: the scale goes to the logits
}

TEST(GgufRope, Qwen2VlSectionsAndQwen3VlInterleaved) {
    gguf_test::Writer w = rope_file("qwen2vl", 3584, 28, 128000, 28);
    w.add_f32("qwen2vl.rope.freq_base", 1000000.0f);
    w.add_array_i32("qwen2vl.rope.dimension_sections", {16, 24, 24, 0});
    const LoadedConfig c = rope_load(w);
    EXPECT_EQ(c.config.layout, PairLayout::Half);
    EXPECT_EQ(c.config.multi_axis.rule, ropelab::AxisRule::Sections);
    EXPECT_EQ(c.config.multi_axis.sections, (std::vector<double>{16, 24, 24}));
    expect_ladder(c.config, 1e6, 128);

    gguf_test::Writer v = rope_file("qwen3vl", 4096, 32, 262144, 36);
    v.add_f32("qwen3vl.rope.freq_base", 5000000.0f);
    v.add_array_i32("qwen3vl.rope.dimension_sections", {24, 20, 20, 0});
    const LoadedConfig i = rope_load(v);
    EXPECT_EQ(i.config.multi_axis.rule, ropelab::AxisRule::Interleaved);
    EXPECT_EQ(i.config.multi_axis.sections, (std::vector<double>{24, 20, 20}));

    gguf_test::Writer bad = rope_file("qwen2vl", 3584, 28);
    bad.add_array_i32("qwen2vl.rope.dimension_sections", {16, 24, 20, 0});
    const std::string e = rope_error(bad);
    gguf_test::Writer third = rope_file("qwen3vl", 4096, 32);
    third.add_array_i32("qwen3vl.rope.dimension_sections", {16, 24, 24, 0});
    EXPECT_NE(rope_error(third).find("qwen3vl.rope.dimension_sections"), std::string::npos);
    EXPECT_NE(e.find("qwen2vl.rope.dimension_sections"), std::string::npos) << e;
    EXPECT_NE(e.find("60"), std::string::npos) << e;
}

TEST(GgufRope, Glm4TurnsMropeWithSections) {
    gguf_test::Writer w = rope_file("glm4", 4096, 32, 65536, 4);
    w.add_u32("glm4.rope.dimension_count", 64);
    EXPECT_EQ(rope_load(w).config.layout, PairLayout::Interleaved);  // NORM without sections
    w.add_array_i32("glm4.rope.dimension_sections", {8, 12, 12, 0});
    const LoadedConfig v = rope_load(w);  // use_mrope(): t and h sections set
    EXPECT_EQ(v.config.layout, PairLayout::Half);
    EXPECT_EQ(v.config.multi_axis.rule, ropelab::AxisRule::Sections);
    expect_ladder(v.config, 1e4, 64);
}

TEST(GgufRope, Gemma4ProportionalRopeIsPRope) {
    gguf_test::Writer w = rope_file("gemma4", 2560, 8, 131072, 6);
    w.add_u32("gemma4.attention.key_length", 512);
    w.add_u32("gemma4.attention.key_length_swa", 256);
    w.add_u32("gemma4.attention.sliding_window", 512);
    w.add_f32("gemma4.rope.freq_base", 1000000.0f);
    w.add_f32("gemma4.rope.freq_base_swa", 10000.0f);
    w.add_array_bool("gemma4.attention.sliding_window_pattern", {true, true, true, true, true, false});
    std::vector<float> factors(256, 1.0f);
    for (std::size_t i = 64; i < 256; ++i) factors[i] = 1e30f;
    w.add_tensor("rope_freqs.weight", {256}, 0, rope_f32_bytes(factors));
    const LoadedConfig c = rope_load(w);
    EXPECT_EQ(c.config.head_dim, 512);
    EXPECT_DOUBLE_EQ(c.config.p_rope, 0.75);  // pairs 64 .. 255 do not turn
    const auto freqs = ropelab::compute_frequencies(c.config);
    for (int i = 0; i < 256; ++i) EXPECT_EQ(freqs.rotates(i), i < 64) << i;
    EXPECT_NEAR(freqs.inv_freq[63], std::pow(1e6, -126.0 / 512), 1e-15);
    EXPECT_EQ(c.layers[5].type, "full_attention");

    const LoadedConfig local = rope_load(w, "sliding_attention");
    EXPECT_EQ(local.config.head_dim, 256);
    EXPECT_EQ(local.config.p_rope, 0.0);  // rope_freqs applies to the global layers only
    expect_ladder(local.config, 1e4, 256);
}

TEST(GgufRope, NoRopeArchitecturesAreRefused) {
    const std::string e = rope_error(rope_file("gpt2", 768, 12));
    EXPECT_NE(e.find("test.gguf"), std::string::npos) << e;
    EXPECT_NE(e.find("architecture gpt2 applies no RoPE (learned absolute positions)"), std::string::npos) << e;
    EXPECT_NE(rope_error(rope_file("mpt", 768, 12)).find("ALiBi"), std::string::npos);
}

TEST(GgufRope, UnknownArchitectureNeedsLayoutAndFactor) {
    const gguf_test::Writer w = rope_file("frobnicator", 1024, 8);
    try {
        rope_load(w);
        FAIL() << "read an unknown architecture";
    } catch (const ropelab::UnknownFamilyError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("\"frobnicator\""), std::string::npos) << m;
        EXPECT_NE(m.find("--layout"), std::string::npos) << m;
        EXPECT_NE(m.find("--partial-rotary-factor"), std::string::npos) << m;
    }
    ropelab::GivenRope given;
    given.layout = PairLayout::Half;
    given.partial_rotary_factor = 0.5;
    const LoadedConfig c = rope_load(w, "", given);
    EXPECT_EQ(c.config.layout, PairLayout::Half);
    expect_ladder(c.config, 1e4, 64);
}

TEST(GgufRope, HostileValuesNameKeyAndValue) {
    gguf_test::Writer odd = rope_file("llama", 1024, 8);
    odd.add_u32("llama.rope.dimension_count", 127);
    const std::string e1 = rope_error(odd);
    EXPECT_NE(e1.find("llama.rope.dimension_count = 127"), std::string::npos) << e1;

    gguf_test::Writer half = rope_file("llama", 1024, 8);
    half.add_tensor("rope_freqs.weight", {64}, 1, std::string(128, '\0'));
    const std::string e2 = rope_error(half);
    EXPECT_NE(e2.find("rope_freqs.weight"), std::string::npos) << e2;
    EXPECT_NE(e2.find("f16"), std::string::npos) << e2;

    gguf_test::Writer zero = rope_file("llama", 1024, 8);
    zero.add_tensor("rope_freqs.weight", {64}, 0, rope_f32_bytes(std::vector<float>(64, 0.0f)));
    EXPECT_NE(rope_error(zero).find("rope_freqs.weight[0] = 0"), std::string::npos);

    gguf_test::Writer scaling = rope_file("llama", 1024, 8);
    scaling.add_string("llama.rope.scaling.type", "spiral");
    EXPECT_NE(rope_error(scaling).find("llama.rope.scaling.type = \"spiral\""), std::string::npos);

    gguf_test::Writer pattern = rope_file("gemma4", 1024, 8, 4096, 6);
    pattern.add_array_bool("gemma4.attention.sliding_window_pattern", {true, false});
    EXPECT_NE(rope_error(pattern).find("has 2 entries for 6 layers"), std::string::npos);

    gguf_test::Writer base = rope_file("llama", 1024, 8);
    base.add_f32("llama.rope.freq_base", -1.0f);
    EXPECT_NE(rope_error(base).find("llama.rope.freq_base = -1"), std::string::npos);

    EXPECT_NE(rope_error(rope_file("llama", 1024, 8), "sliding_attention").find("one RoPE setting"), std::string::npos);
}

TEST(GgufRope, HybridLayersWithoutKvHeadsApplyNoRope) {
    gguf_test::Writer w = rope_file("lfm2", 1024, 16, 32768, 6);
    w.add_array_u32("lfm2.attention.head_count_kv", {0, 0, 8, 0, 0, 8});
    const LoadedConfig c = rope_load(w);
    ASSERT_EQ(c.layers.size(), 6u);
    EXPECT_EQ(c.layers_without_rope, 4);
    EXPECT_EQ(c.layers[0].type, "recurrent");
    EXPECT_FALSE(c.layers[0].attention.rope);
    EXPECT_TRUE(c.layers[2].attention.rope);
    EXPECT_EQ(c.default_layer, 2);
}

TEST(GgufRope, CohereGlobalLayersAreNope) {
    gguf_test::Writer w = rope_file("cohere2", 4096, 32, 8192, 8);
    w.add_u32("cohere2.attention.sliding_window", 4096);
    const LoadedConfig c = rope_load(w);
    ASSERT_EQ(c.layers.size(), 8u);
    EXPECT_FALSE(c.layers[3].attention.rope);
    EXPECT_TRUE(c.layers[2].attention.rope);
    EXPECT_EQ(c.layers[2].attention.sliding_window, 4096);
    EXPECT_TRUE(c.config.attention.rope);  // the default layer is the first that rotates
}

TEST(GgufRope, GptOssSlidingLayersKeepTheModelsBaseAndYarn) {
    gguf_test::Writer w = rope_file("gpt-oss", 2880, 64, 131072, 4);
    w.add_u32("gpt-oss.attention.key_length", 64);
    w.add_u32("gpt-oss.attention.sliding_window", 128);
    w.add_f32("gpt-oss.rope.freq_base", 150000.0f);
    w.add_string("gpt-oss.rope.scaling.type", "yarn");
    w.add_f32("gpt-oss.rope.scaling.factor", 32.0f);
    w.add_u32("gpt-oss.rope.scaling.original_context_length", 4096);
    const LoadedConfig c = rope_load(w);
    EXPECT_TRUE(c.layer_types.empty());  // both kinds of layer rotate alike (gpt-oss copies base and scale)
    ASSERT_EQ(c.layers.size(), 4u);
    EXPECT_EQ(c.layers[0].type, "sliding_attention");  // set_swa_pattern(2): even layers slide
    EXPECT_EQ(c.layers[1].type, "full_attention");
    EXPECT_EQ(c.layers[0].theta, 150000.0);
    EXPECT_EQ(c.config.rope_scaling.type, ropelab::RopeType::Yarn);
    // ggml's YaRN scale: 1 + 0.1 ln 32.
    EXPECT_NEAR(ropelab::compute_frequencies(c.config).attention_factor, 1.0 + 0.1 * std::log(32.0), 1e-6);
}

TEST(GgufRope, Llama4ChunksAndNope) {
    gguf_test::Writer w = rope_file("llama4", 5120, 40, 262144, 8);
    w.add_f32("llama4.rope.freq_base", 500000.0f);
    const LoadedConfig c = rope_load(w);
    ASSERT_EQ(c.layers.size(), 8u);
    EXPECT_EQ(c.layers[0].type, "chunked_attention");
    EXPECT_EQ(c.layers[0].attention.attention_chunk, 8192);
    EXPECT_EQ(c.layers[3].type, "full_attention");  // set_swa_pattern(4) and n_no_rope_layer_step 4
    EXPECT_FALSE(c.layers[3].attention.rope);
    EXPECT_TRUE(c.layers[3].attention.temperature_tuning);
    EXPECT_EQ(c.layers_without_rope, 2);

    // sliding_window 0: no chunks, n_no_rope_layer_step = block_count, so only the last layer is NoPE.
    w.add_u32("llama4.attention.sliding_window", 0);
    const LoadedConfig plain = rope_load(w);
    EXPECT_EQ(plain.layers_without_rope, 1);
    EXPECT_FALSE(plain.layers[7].attention.rope);
    EXPECT_EQ(plain.layers[0].type, "full_attention");
}

TEST(GgufRope, Exaone4SlidesOnlyInThe32B) {
    const LoadedConfig small = rope_load(rope_file("exaone4", 2048, 32, 65536, 30));
    EXPECT_TRUE(small.layers.empty());  // llama.cpp: no SWA unless 64 layers
    const LoadedConfig big = rope_load(rope_file("exaone4", 5120, 40, 131072, 64));
    ASSERT_EQ(big.layers.size(), 64u);
    EXPECT_EQ(big.layers[0].attention.sliding_window, 4096);
    EXPECT_FALSE(big.layers[3].attention.rope);  // global layers: NoPE (exaone4.cpp use_rope)
    EXPECT_EQ(big.layers_without_rope, 16);
}

TEST(GgufRope, Qwen3NextRecurrentLayers) {
    gguf_test::Writer w = rope_file("qwen3next", 2048, 16, 262144, 8);
    w.add_u32("qwen3next.attention.key_length", 256);
    w.add_u32("qwen3next.rope.dimension_count", 64);
    const LoadedConfig c = rope_load(w);
    ASSERT_EQ(c.layers.size(), 8u);
    EXPECT_EQ(c.layers[0].type, "linear_attention");
    EXPECT_EQ(c.layers[3].type, "full_attention");  // full_attention_interval 4
    EXPECT_EQ(c.default_layer, 3);
    expect_ladder(c.config, 1e4, 64);

    gguf_test::Writer listed = rope_file("qwen3next", 2048, 16, 262144, 4);
    listed.add_u32("qwen3next.attention.key_length", 256);
    listed.add_array_bool("qwen3next.attention.recurrent_layers", {false, true, true, true});
    const LoadedConfig l = rope_load(listed);
    EXPECT_EQ(l.layers[0].type, "full_attention");
    EXPECT_EQ(l.layers[3].type, "linear_attention");
}

// Every architecture of the table: its pair order and rotary dim from a minimal file (head 128,
// θ default 10000); the ones without RoPE refused.
TEST(GgufRope, EveryArchitectureSmoke) {
    int rotating = 0;
    for (const ropelab::gguf::Architecture& a : ropelab::gguf::architectures()) {
        const std::string arch(a.name);
        gguf_test::Writer w = rope_file(arch, 512, 4);
        if (a.order == ropelab::gguf::RopeOrder::Mrope || a.order == ropelab::gguf::RopeOrder::Imrope) {
            if (a.order == ropelab::gguf::RopeOrder::Mrope) w.add_array_i32(arch + ".rope.dimension_sections", {16, 24, 24, 0});
            else w.add_array_i32(arch + ".rope.dimension_sections", {24, 20, 20, 0});
        }
        if (a.order == ropelab::gguf::RopeOrder::None) {
            EXPECT_NE(rope_error(w).find("applies no RoPE"), std::string::npos) << arch;
            continue;
        }
        ++rotating;
        SCOPED_TRACE(arch);
        const LoadedConfig c = rope_load(w);
        EXPECT_EQ(c.config.layout, a.order == ropelab::gguf::RopeOrder::Norm ? PairLayout::Interleaved : PairLayout::Half);
        EXPECT_EQ(ropelab::rotary_dim(c.config), 128);
        EXPECT_EQ(c.config.rotary_offset, 0);
        expect_ladder(c.config, 1e4, 128);
        EXPECT_EQ(ropelab::gguf::find_architecture(arch), &a);
    }
    EXPECT_GE(rotating, 100);
}

TEST(GgufRope, ArchitecturesTable) {
    const std::string md = ropelab::gguf::architectures_table(true);
    EXPECT_NE(md.find("| `llama` (Llama) | NORM"), std::string::npos);
    EXPECT_NE(md.find("| `qwen2` (Qwen2 / 2.5) | NEOX"), std::string::npos);
    EXPECT_NE(md.find("learned absolute positions"), std::string::npos);
    const auto rows = static_cast<std::size_t>(std::count(md.begin(), md.end(), '\n'));
    EXPECT_EQ(rows, ropelab::gguf::architectures().size() + 2);
    EXPECT_NE(ropelab::gguf::architectures_table(false).find("gemma3"), std::string::npos);
}

}  // namespace
