// A model file's attention weights (models/model_weights.h) on GGUF files and safetensors
// checkpoints the tests write, with W_q / W_k built so that pair i of head h has a known energy:
// rows a, b of the pair hold 3u and 4u (u = (h+1)(i+1) for q, (g+2)(i+1) for k), so the pair's
// energy is exactly 5u, and the rows outside the rotary part hold 1000s that must not be read.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "models/model_weights.h"
#include "models/pair_energy.h"
#include "support/files.h"
#include "support/gguf_writer.h"
#include "support/refusal.h"
#include "support/safetensors_writer.h"

namespace ropelab::models {
namespace {

// The ggml type codes the tests write (ggml.h, enum ggml_type).
constexpr std::uint32_t kMwF32 = 0, kMwF16 = 1, kMwQ4_0 = 2, kMwQ8_0 = 8, kMwBF16 = 30;

struct MwHeads {
    int heads = 1, head_dim = 16, rotary = 16, offset = 0;
    PairLayout layout = PairLayout::Half;
};

// A [heads·head_dim × cols] matrix whose pair i of head h has energy 5·unit(h, i).
std::vector<float> mw_matrix(const MwHeads& s, int cols, const std::function<double(int, int)>& unit) {
    std::vector<float> m(static_cast<std::size_t>(s.heads) * s.head_dim * cols, 1000.0f);
    const auto set_row = [&](int row, int col, double value) {
        for (int c = 0; c < cols; ++c) m[static_cast<std::size_t>(row) * cols + c] = 0.0f;
        m[static_cast<std::size_t>(row) * cols + col] = static_cast<float>(value);
    };
    for (int h = 0; h < s.heads; ++h) {
        const int start = h * s.head_dim + s.offset;
        for (int i = 0; i < s.rotary / 2; ++i) {
            const int a = s.layout == PairLayout::Interleaved ? start + 2 * i : start + i;
            const int b = s.layout == PairLayout::Interleaved ? start + 2 * i + 1 : start + s.rotary / 2 + i;
            set_row(a, i % cols, 3.0 * unit(h, i));
            set_row(b, (i + 1) % cols, 4.0 * unit(h, i));
        }
    }
    return m;
}

double mw_q_unit(int h, int i) { return (h + 1.0) * (i + 1.0); }
double mw_k_unit(int g, int i) { return (g + 2.0) * (i + 1.0); }

std::string mw_f32_bytes(const std::vector<float>& values) {
    std::string out(values.size() * 4, '\0');
    std::memcpy(out.data(), values.data(), out.size());
    return out;
}

// IEEE half bits of a value that a half holds exactly (the tests' values are small integers).
std::uint16_t mw_half_exact(float value) {
    const auto bits = std::bit_cast<std::uint32_t>(value);
    if (value == 0.0f) return static_cast<std::uint16_t>(bits >> 16);
    const int exponent = static_cast<int>((bits >> 23) & 0xff) - 127;
    if (exponent < -14 || exponent > 15 || (bits & 0x1fff) != 0) throw std::logic_error("mw_half_exact: not a half");
    return static_cast<std::uint16_t>(((bits >> 16) & 0x8000) | ((exponent + 15) << 10) | ((bits >> 13) & 0x3ff));
}

std::string mw_f16_bytes(const std::vector<float>& values) {
    std::string out;
    for (float v : values) {
        const std::uint16_t h = mw_half_exact(v);
        out.append(reinterpret_cast<const char*>(&h), 2);
    }
    return out;
}

std::string mw_bf16_bytes(const std::vector<float>& values) {
    std::string out;
    for (float v : values) {
        const auto bits = std::bit_cast<std::uint32_t>(v);
        if ((bits & 0xffff) != 0) throw std::logic_error("mw_bf16_bytes: not a bfloat16");
        const auto high = static_cast<std::uint16_t>(bits >> 16);
        out.append(reinterpret_cast<const char*>(&high), 2);
    }
    return out;
}

// Q8_0 (ggml-common.h block_q8_0: an f16 scale d, then 32 int8; value = d·q) with d the
// smallest half ≥ max|x| / 127, so every q fits; `worst` gets the largest d / 2 (each value's
// error bound).
std::string mw_q8_0_bytes(const std::vector<float>& values, double& worst) {
    std::string out;
    worst = 0.0;
    for (std::size_t block = 0; block < values.size(); block += 32) {
        float amax = 0.0f;
        for (std::size_t j = 0; j < 32; ++j) amax = std::max(amax, std::abs(values[block + j]));
        auto bits = std::bit_cast<std::uint32_t>(amax / 127.0f);
        if ((bits & 0x1fff) != 0) bits = (bits & ~0x1fffu) + 0x2000u;  // round the magnitude up to a half
        const float d = std::bit_cast<float>(bits);
        const std::uint16_t h = mw_half_exact(d);
        out.append(reinterpret_cast<const char*>(&h), 2);
        for (std::size_t j = 0; j < 32; ++j) out.push_back(static_cast<char>(static_cast<std::int8_t>(std::lround(values[block + j] / d))));
        worst = std::max(worst, d / 2.0);
    }
    return out;
}

// Every pair's energy is 5·unit (to `tolerance`, relative).
void mw_expect_energies(const AttentionWeights& w, double tolerance) {
    const PairEnergies e = pair_energies(w);
    ASSERT_EQ(e.pairs, w.rotary_dim / 2);
    for (int h = 0; h < e.q_heads; ++h) {
        for (int i = 0; i < e.pairs; ++i) {
            EXPECT_NEAR(e.q_energy(h, i), 5 * mw_q_unit(h, i), tolerance * 5 * mw_q_unit(h, i)) << w.q.name << " head " << h << " pair " << i;
            EXPECT_NEAR(e.product(h, i), 25 * mw_q_unit(h, i) * mw_k_unit(h / (e.q_heads / e.kv_heads), i),
                        3 * tolerance * 25 * mw_q_unit(h, i) * mw_k_unit(h / (e.q_heads / e.kv_heads), i));
        }
    }
    for (int g = 0; g < e.kv_heads; ++g) {
        for (int i = 0; i < e.pairs; ++i) {
            EXPECT_NEAR(e.k_energy(g, i), 5 * mw_k_unit(g, i), tolerance * 5 * mw_k_unit(g, i)) << w.k.name << " head " << g << " pair " << i;
        }
    }
}

bool mw_has_note(const AttentionWeights& w, const std::string& words) {
    for (const std::string& n : w.notes) {
        if (n.find(words) != std::string::npos) return true;
    }
    return false;
}

class ModelWeightsGguf : public test::TempDirTest {
protected:
    ModelWeightsGguf() : TempDirTest("model_weights_gguf") {}

    // A file of `arch` with the keys llama.cpp reads for the heads and the RoPE.
    gguf_test::Writer writer(const std::string& arch, int blocks, int embd, int heads, int kv_heads, int rotary) {
        gguf_test::Writer w;
        w.add_string("general.architecture", arch);
        w.add_u32(arch + ".block_count", static_cast<std::uint32_t>(blocks));
        w.add_u32(arch + ".context_length", 4096);
        w.add_u32(arch + ".embedding_length", static_cast<std::uint32_t>(embd));
        w.add_u32(arch + ".attention.head_count", static_cast<std::uint32_t>(heads));
        w.add_u32(arch + ".attention.head_count_kv", static_cast<std::uint32_t>(kv_heads));
        w.add_u32(arch + ".rope.dimension_count", static_cast<std::uint32_t>(rotary));
        w.add_f32(arch + ".rope.freq_base", 10000.0f);
        return w;
    }

    std::string write(const gguf_test::Writer& w, const std::string& name = "model.gguf") {
        const std::string path = at(name);
        gguf_test::write_file(path, w.bytes());
        return path;
    }
};

TEST_F(ModelWeightsGguf, LlamaNormRowsAreConsecutivePairs) {
    // llama: NORM, so the file's pairs are rows (2i, 2i+1); 4 query heads, 2 key heads, head 16
    // (n_embd 64 / 4 heads: no key_length), layer 0 in F32, layer 1 in F16.
    const MwHeads q{4, 16, 16, 0, PairLayout::Interleaved};
    const MwHeads k{2, 16, 16, 0, PairLayout::Interleaved};
    gguf_test::Writer w = writer("llama", 2, 64, 4, 2, 16);
    w.add_tensor("blk.0.attn_q.weight", {64, 64}, kMwF32, mw_f32_bytes(mw_matrix(q, 64, mw_q_unit)));
    w.add_tensor("blk.0.attn_k.weight", {64, 32}, kMwF32, mw_f32_bytes(mw_matrix(k, 64, mw_k_unit)));
    w.add_tensor("blk.1.attn_q.weight", {64, 64}, kMwF16, mw_f16_bytes(mw_matrix(q, 64, mw_q_unit)));
    w.add_tensor("blk.1.attn_k.weight", {64, 32}, kMwF16, mw_f16_bytes(mw_matrix(k, 64, mw_k_unit)));
    const auto weights = ModelWeights::open(write(w));
    EXPECT_EQ(weights->layers(), 2);
    for (int layer = 0; layer < 2; ++layer) {
        const AttentionWeights a = weights->attention(layer);
        EXPECT_EQ(a.layer, layer);
        EXPECT_EQ(a.q_heads, 4);
        EXPECT_EQ(a.kv_heads, 2);
        EXPECT_EQ(a.head_dim, 16);
        EXPECT_EQ(a.rotary_dim, 16);
        EXPECT_EQ(a.rows, PairLayout::Interleaved);
        EXPECT_EQ(a.q.format, layer == 0 ? Format::F32 : Format::F16);
        EXPECT_TRUE(mw_has_note(a, "NORM")) << ::testing::PrintToString(a.notes);
        mw_expect_energies(a, 1e-12);
    }
}

TEST_F(ModelWeightsGguf, Qwen2NeoxRowsAreHalvesWithGroupedKeys) {
    // qwen2: NEOX, pairs (i, i + 8); 8 query heads read 2 key heads; key_length 16 although
    // n_embd / n_head = 32 / 8 = 4, so the head comes from key_length.
    const MwHeads q{8, 16, 16, 0, PairLayout::Half};
    const MwHeads k{2, 16, 16, 0, PairLayout::Half};
    gguf_test::Writer w = writer("qwen2", 1, 32, 8, 2, 16);
    w.add_u32("qwen2.attention.key_length", 16);
    w.add_u32("qwen2.attention.value_length", 16);
    w.add_tensor("blk.0.attn_q.weight", {32, 128}, kMwF16, mw_f16_bytes(mw_matrix(q, 32, mw_q_unit)));
    w.add_tensor("blk.0.attn_k.weight", {32, 32}, kMwF16, mw_f16_bytes(mw_matrix(k, 32, mw_k_unit)));
    const AttentionWeights a = ModelWeights::open(write(w))->attention(0);
    EXPECT_EQ(a.q_heads, 8);
    EXPECT_EQ(a.kv_heads, 2);
    EXPECT_EQ(a.head_dim, 16);
    EXPECT_EQ(a.rows, PairLayout::Half);
    EXPECT_TRUE(mw_has_note(a, "NEOX")) << ::testing::PrintToString(a.notes);
    mw_expect_energies(a, 1e-12);
    const PairEnergies e = pair_energies(a);
    EXPECT_EQ(e.kv_head_of(3), 0);
    EXPECT_EQ(e.kv_head_of(4), 1);
}

TEST_F(ModelWeightsGguf, FusedQkvSplitsByRowsAndSkipsTheUnrotatedPart) {
    // phi2: one attn_qkv tensor, rows [q | k | v]; a partial rotary part (8 of 16 components):
    // the 1000s in the other 8 rows of each head, and v's rows, stay unread.
    const MwHeads q{4, 16, 8, 0, PairLayout::Half};
    const MwHeads k{4, 16, 8, 0, PairLayout::Half};
    std::vector<float> qkv = mw_matrix(q, 64, mw_q_unit);
    const std::vector<float> k_rows = mw_matrix(k, 64, mw_k_unit);
    qkv.insert(qkv.end(), k_rows.begin(), k_rows.end());
    qkv.insert(qkv.end(), 64 * 64, 1000.0f);
    gguf_test::Writer w = writer("phi2", 1, 64, 4, 4, 8);
    w.add_tensor("blk.0.attn_qkv.weight", {64, 192}, kMwF32, mw_f32_bytes(qkv));
    const AttentionWeights a = ModelWeights::open(write(w))->attention(0);
    EXPECT_EQ(a.rotary_dim, 8);
    EXPECT_EQ(a.q.first_row, 0);
    EXPECT_EQ(a.k.first_row, 64);
    EXPECT_EQ(a.q.name, "blk.0.attn_qkv.weight");
    EXPECT_TRUE(mw_has_note(a, "fused")) << ::testing::PrintToString(a.notes);
    mw_expect_energies(a, 1e-12);
}

TEST_F(ModelWeightsGguf, Q8_0EnergiesWithinTheQuantisationError) {
    // Random weights quantised by the test: each pair's energy moves by at most the norm of its
    // two rows' errors, ≤ √(2·cols)·max d/2 (triangle inequality).
    const int cols = 64, heads = 2, head_dim = 16;
    std::mt19937 rng(7);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> qv(static_cast<std::size_t>(heads) * head_dim * cols), kv(qv.size());
    for (float& v : qv) v = normal(rng);
    for (float& v : kv) v = normal(rng);
    double q_worst = 0, k_worst = 0;
    gguf_test::Writer w = writer("llama", 1, cols, heads, heads, head_dim);
    w.add_u32("llama.attention.key_length", head_dim);  // n_embd / n_head would be 32
    w.add_tensor("blk.0.attn_q.weight", {64, 32}, kMwQ8_0, mw_q8_0_bytes(qv, q_worst));
    w.add_tensor("blk.0.attn_k.weight", {64, 32}, kMwQ8_0, mw_q8_0_bytes(kv, k_worst));
    const AttentionWeights a = ModelWeights::open(write(w))->attention(0);
    EXPECT_EQ(a.q.format, Format::Q8_0);
    const PairEnergies e = pair_energies(a);
    for (const auto& [values, worst, energies] : {std::tuple{&qv, q_worst, &e.q}, std::tuple{&kv, k_worst, &e.k}}) {
        for (int h = 0; h < heads; ++h) {
            for (int i = 0; i < head_dim / 2; ++i) {
                double sum = 0;
                for (int r : {h * head_dim + 2 * i, h * head_dim + 2 * i + 1}) {
                    for (int c = 0; c < cols; ++c) sum += std::pow((*values)[static_cast<std::size_t>(r * cols + c)], 2.0);
                }
                const double energy = (*energies)[static_cast<std::size_t>(h * e.pairs + i)];
                EXPECT_NEAR(energy, std::sqrt(sum), std::sqrt(2.0 * cols) * worst) << "head " << h << " pair " << i;
                EXPECT_NE(energy, std::sqrt(sum));  // quantised: not the float values' energy
            }
        }
    }
}

TEST_F(ModelWeightsGguf, PerLayerHeadCountsTakeTheLayersEntry) {
    // head_count_kv as a per-layer array (llama-model.cpp reads arrays too): layer 0 has 2 key
    // heads, layer 1 has 1 (MQA), layer 2 none (a layer without attention).
    const MwHeads q{4, 16, 16, 0, PairLayout::Interleaved};
    gguf_test::Writer w;
    w.add_string("general.architecture", "llama");
    w.add_u32("llama.block_count", 3);
    w.add_u32("llama.context_length", 4096);
    w.add_u32("llama.embedding_length", 64);
    w.add_u32("llama.attention.head_count", 4);
    w.add_array_u32("llama.attention.head_count_kv", {2, 1, 0});
    w.add_u32("llama.rope.dimension_count", 16);
    for (int layer = 0; layer < 2; ++layer) {
        const MwHeads k{2 - layer, 16, 16, 0, PairLayout::Interleaved};
        w.add_tensor("blk." + std::to_string(layer) + ".attn_q.weight", {64, 64}, kMwF32, mw_f32_bytes(mw_matrix(q, 64, mw_q_unit)));
        w.add_tensor("blk." + std::to_string(layer) + ".attn_k.weight", {64, static_cast<std::uint64_t>(16 * (2 - layer))}, kMwF32,
                     mw_f32_bytes(mw_matrix(k, 64, mw_k_unit)));
    }
    const auto weights = ModelWeights::open(write(w));
    for (int layer = 0; layer < 2; ++layer) {
        const AttentionWeights a = weights->attention(layer);
        EXPECT_EQ(a.kv_heads, 2 - layer);
        mw_expect_energies(a, 1e-12);
    }
    const std::string error = test::refusal([&] { weights->attention(2); });
    EXPECT_NE(error.find("layer 2"), std::string::npos) << error;
}

TEST_F(ModelWeightsGguf, UnsupportedTypeIsRefusedNamingTensorAndType) {
    gguf_test::Writer w = writer("llama", 1, 32, 2, 2, 16);
    w.add_tensor("blk.0.attn_q.weight", {32, 32}, kMwQ4_0, std::string(32 * 18, '\0'));
    w.add_tensor("blk.0.attn_k.weight", {32, 32}, kMwF32, std::string(32 * 32 * 4, '\0'));
    const auto weights = ModelWeights::open(write(w));
    const std::string error = test::refusal([&] { weights->attention(0); });
    EXPECT_NE(error.find("blk.0.attn_q.weight"), std::string::npos) << error;
    EXPECT_NE(error.find("q4_0"), std::string::npos) << error;
    EXPECT_NE(error.find("re-quantise to Q8_0, Q4_K or Q6_K, or use F16"), std::string::npos) << error;
}

TEST_F(ModelWeightsGguf, MissingTensorIsRefusedNamingIt) {
    gguf_test::Writer w = writer("llama", 1, 32, 2, 2, 16);
    w.add_tensor("blk.0.attn_q.weight", {32, 32}, kMwF32, std::string(32 * 32 * 4, '\0'));
    const std::string path = write(w);
    const std::string error = test::refusal([&] { ModelWeights::open(path)->attention(0); });
    EXPECT_NE(error.find(path), std::string::npos) << error;
    EXPECT_NE(error.find("blk.0.attn_k.weight is missing"), std::string::npos) << error;
}

TEST_F(ModelWeightsGguf, ShapeThatDoesNotFitTheHeadsIsRefused) {
    // 2 heads of 16 need 32 rows; the file's attn_q has 30.
    gguf_test::Writer w = writer("llama", 1, 32, 2, 2, 16);
    w.add_tensor("blk.0.attn_q.weight", {32, 30}, kMwF32, std::string(32 * 30 * 4, '\0'));
    w.add_tensor("blk.0.attn_k.weight", {32, 32}, kMwF32, std::string(32 * 32 * 4, '\0'));
    const std::string path = write(w);
    const std::string error = test::refusal([&] { ModelWeights::open(path)->attention(0); });
    EXPECT_NE(error.find(path), std::string::npos) << error;
    EXPECT_NE(error.find("blk.0.attn_q.weight: 30 rows"), std::string::npos) << error;
}

TEST_F(ModelWeightsGguf, DeepSeekMlaReadsTheRopePartOfQAndTheSharedKPe) {
    // deepseek2: 2 query heads of [16 nope | 8 rope] (key_length_mla 24, n_rot 8), NORM pairs;
    // attn_kv_a_mqa is [kv_lora_rank 16 latent rows | 8 k_pe rows], k_pe one head for all.
    const MwHeads q{2, 24, 8, 16, PairLayout::Interleaved};
    const MwHeads k_pe{1, 8, 8, 0, PairLayout::Interleaved};
    std::vector<float> mqa(16 * 32, 1000.0f);
    const std::vector<float> pe = mw_matrix(k_pe, 32, mw_k_unit);
    mqa.insert(mqa.end(), pe.begin(), pe.end());
    gguf_test::Writer w = writer("deepseek2", 1, 32, 2, 2, 8);
    w.add_u32("deepseek2.attention.key_length", 24);
    w.add_u32("deepseek2.attention.value_length", 16);
    w.add_u32("deepseek2.attention.kv_lora_rank", 16);
    w.add_tensor("blk.0.attn_q.weight", {32, 48}, kMwF32, mw_f32_bytes(mw_matrix(q, 32, mw_q_unit)));
    w.add_tensor("blk.0.attn_kv_a_mqa.weight", {32, 24}, kMwF32, mw_f32_bytes(mqa));
    const AttentionWeights a = ModelWeights::open(write(w))->attention(0);
    EXPECT_EQ(a.head_dim, 24);
    EXPECT_EQ(a.rotary_offset, 16);
    EXPECT_EQ(a.rotary_dim, 8);
    EXPECT_EQ(a.kv_heads, 1);
    EXPECT_EQ(a.key_head_dim(), 8);
    EXPECT_EQ(a.k.name, "blk.0.attn_kv_a_mqa.weight");
    EXPECT_EQ(a.k.first_row, 16);
    EXPECT_TRUE(mw_has_note(a, "k_pe")) << ::testing::PrintToString(a.notes);
    mw_expect_energies(a, 1e-12);
}

TEST_F(ModelWeightsGguf, MlaWithoutItsQIsRefusedNamingTheTensor) {
    gguf_test::Writer w = writer("deepseek2", 1, 32, 2, 2, 8);
    w.add_u32("deepseek2.attention.key_length", 24);
    w.add_tensor("blk.0.attn_kv_a_mqa.weight", {32, 24}, kMwF32, std::string(32 * 24 * 4, '\0'));
    const std::string error = test::refusal([&] { ModelWeights::open(write(w))->attention(0); });
    EXPECT_NE(error.find("blk.0.attn_q_b.weight is missing"), std::string::npos) << error;
}

TEST_F(ModelWeightsGguf, LayerOutsideTheFileIsRefused) {
    gguf_test::Writer w = writer("llama", 1, 32, 2, 2, 16);
    const auto weights = ModelWeights::open(write(w));
    const std::string error = test::refusal([&] { weights->attention(1); });
    EXPECT_NE(error.find("layer 1"), std::string::npos) << error;
}


class ModelWeightsCheckpoint : public test::TempDirTest {
protected:
    ModelWeightsCheckpoint() : TempDirTest("model_weights_checkpoint") {}
    void config(const std::string& json) { test::write_file(at("config.json"), json); }
};

TEST_F(ModelWeightsCheckpoint, ShardedLlamaInF16AndBf16RotatesHalves) {
    // HF Llama: rotate_half, pair i is rows (i, i + 8) of a head; 4 query heads, 2 key heads of
    // 16; layer 0 in F16 in one shard, layer 1 in BF16 in the other.
    config(R"({"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
               "num_hidden_layers": 2, "rope_theta": 10000.0, "max_position_embeddings": 4096})");
    const MwHeads q{4, 16, 16, 0, PairLayout::Half};
    const MwHeads k{2, 16, 16, 0, PairLayout::Half};
    safetensors_test::File first, second;
    first.add("model.layers.0.self_attn.q_proj.weight", "F16", {64, 64}, mw_f16_bytes(mw_matrix(q, 64, mw_q_unit)));
    first.add("model.layers.0.self_attn.k_proj.weight", "F16", {32, 64}, mw_f16_bytes(mw_matrix(k, 64, mw_k_unit)));
    second.add("model.layers.1.self_attn.q_proj.weight", "BF16", {64, 64}, mw_bf16_bytes(mw_matrix(q, 64, mw_q_unit)));
    second.add("model.layers.1.self_attn.k_proj.weight", "BF16", {32, 64}, mw_bf16_bytes(mw_matrix(k, 64, mw_k_unit)));
    safetensors_test::write_sharded(dir_, {{"model-00001-of-00002.safetensors", first}, {"model-00002-of-00002.safetensors", second}});
    const auto weights = ModelWeights::open(dir_.string());
    EXPECT_EQ(weights->layers(), 2);
    for (int layer = 0; layer < 2; ++layer) {
        const AttentionWeights a = weights->attention(layer);
        EXPECT_EQ(a.q_heads, 4);
        EXPECT_EQ(a.kv_heads, 2);
        EXPECT_EQ(a.head_dim, 16);
        EXPECT_EQ(a.rows, PairLayout::Half);
        EXPECT_EQ(a.q.format, layer == 0 ? Format::F16 : Format::BF16);
        EXPECT_TRUE(mw_has_note(a, "rotate_half")) << ::testing::PrintToString(a.notes);
        mw_expect_energies(a, 1e-12);
    }
}

TEST_F(ModelWeightsCheckpoint, MultimodalPrefixAndInterleavedPartialRotary) {
    // GLM-4 rotates consecutive components of the first half of each head (partial 0.5); the
    // text model's tensors sit under model.language_model., beside a vision tower's q_proj (which
    // sorts first, so the search must pass it over).
    config(R"({"model_type": "glm4", "hidden_size": 32, "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 16,
               "partial_rotary_factor": 0.5, "num_hidden_layers": 1, "rope_theta": 10000.0, "max_position_embeddings": 4096})");
    const MwHeads q{2, 16, 8, 0, PairLayout::Interleaved};
    const MwHeads k{1, 16, 8, 0, PairLayout::Interleaved};
    safetensors_test::File f;
    f.add("model.image_encoder.vision.layers.0.self_attn.q_proj.weight", "F32", {2, 2}, mw_f32_bytes({1, 2, 3, 4}));
    f.add("model.language_model.layers.0.self_attn.q_proj.weight", "F32", {32, 32}, mw_f32_bytes(mw_matrix(q, 32, mw_q_unit)));
    f.add("model.language_model.layers.0.self_attn.k_proj.weight", "F32", {16, 32}, mw_f32_bytes(mw_matrix(k, 32, mw_k_unit)));
    safetensors_test::write_bytes(dir_ / "model.safetensors", f.bytes());
    const AttentionWeights a = ModelWeights::open(dir_.string())->attention(0);
    EXPECT_EQ(a.q.name, "model.language_model.layers.0.self_attn.q_proj.weight");
    EXPECT_EQ(a.rotary_dim, 8);
    EXPECT_EQ(a.rows, PairLayout::Interleaved);
    mw_expect_energies(a, 1e-12);
}

TEST_F(ModelWeightsCheckpoint, HeadsLeftToTheClassDefaultsAreCountedFromQProj) {
    // llava-1.5's text_config names no head counts (LlamaConfig's defaults fill them in): the
    // heads are q_proj's rows over head_dim, one key head per query head as transformers defaults.
    config(R"({"model_type": "llava", "text_config": {"model_type": "llama", "hidden_size": 64, "head_dim": 16,
               "num_hidden_layers": 1}})");
    const MwHeads heads{4, 16, 16, 0, PairLayout::Half};
    safetensors_test::File f;
    f.add("language_model.model.layers.0.self_attn.q_proj.weight", "F32", {64, 64}, mw_f32_bytes(mw_matrix(heads, 64, mw_q_unit)));
    f.add("language_model.model.layers.0.self_attn.k_proj.weight", "F32", {64, 64}, mw_f32_bytes(mw_matrix(heads, 64, mw_k_unit)));
    safetensors_test::write_bytes(dir_ / "model.safetensors", f.bytes());
    const AttentionWeights a = ModelWeights::open(dir_.string())->attention(0);
    EXPECT_EQ(a.q_heads, 4);
    EXPECT_EQ(a.kv_heads, 4);
    EXPECT_TRUE(mw_has_note(a, "num_attention_heads is not in the config")) << ::testing::PrintToString(a.notes);
    mw_expect_energies(a, 1e-12);
}

TEST_F(ModelWeightsCheckpoint, DeepSeekMlaReadsKPeFromKvAProjWithMqa) {
    // DeepSeek V3: heads [16 nope | 8 rope], interleaved; q compressed (q_a_proj → q_b_proj);
    // kv_a_proj_with_mqa is [kv_lora_rank 16 | k_pe 8] rows.
    config(R"({"model_type": "deepseek_v3", "hidden_size": 32, "num_attention_heads": 2, "num_key_value_heads": 2,
               "qk_nope_head_dim": 16, "qk_rope_head_dim": 8, "v_head_dim": 16, "kv_lora_rank": 16, "q_lora_rank": 12,
               "num_hidden_layers": 1, "rope_theta": 10000.0, "max_position_embeddings": 4096})");
    const MwHeads q{2, 24, 8, 16, PairLayout::Interleaved};
    std::vector<float> mqa(16 * 32, 1000.0f);
    const std::vector<float> pe = mw_matrix(MwHeads{1, 8, 8, 0, PairLayout::Interleaved}, 32, mw_k_unit);
    mqa.insert(mqa.end(), pe.begin(), pe.end());
    safetensors_test::File f;
    f.add("model.layers.0.self_attn.q_a_proj.weight", "F32", {12, 32}, mw_f32_bytes(std::vector<float>(12 * 32, 1000.0f)));
    f.add("model.layers.0.self_attn.q_b_proj.weight", "F32", {48, 12}, mw_f32_bytes(mw_matrix(q, 12, mw_q_unit)));
    f.add("model.layers.0.self_attn.kv_a_proj_with_mqa.weight", "F32", {24, 32}, mw_f32_bytes(mqa));
    safetensors_test::write_bytes(dir_ / "model.safetensors", f.bytes());
    const AttentionWeights a = ModelWeights::open(dir_.string())->attention(0);
    EXPECT_EQ(a.q.name, "model.layers.0.self_attn.q_b_proj.weight");
    EXPECT_EQ(a.rotary_offset, 16);
    EXPECT_EQ(a.kv_heads, 1);
    EXPECT_EQ(a.k.first_row, 16);
    EXPECT_TRUE(mw_has_note(a, "q_a_proj latent")) << ::testing::PrintToString(a.notes);
    mw_expect_energies(a, 1e-12);
}

TEST_F(ModelWeightsCheckpoint, RefusesWhatItCannotRead) {
    config(R"({"model_type": "llama", "hidden_size": 32, "num_attention_heads": 2, "num_key_value_heads": 2, "head_dim": 16,
               "num_hidden_layers": 1, "rope_theta": 10000.0, "max_position_embeddings": 4096})");
    const auto refusal_with = [&](const safetensors_test::File& f) {
        safetensors_test::write_bytes(dir_ / "model.safetensors", f.bytes());
        return test::refusal([&] { ModelWeights::open(dir_.string())->attention(0); });
    };
    safetensors_test::File int8;
    int8.add("model.layers.0.self_attn.q_proj.weight", "I8", {32, 32}, std::string(32 * 32, '\0'));
    int8.add("model.layers.0.self_attn.k_proj.weight", "I8", {32, 32}, std::string(32 * 32, '\0'));
    std::string error = refusal_with(int8);
    EXPECT_NE(error.find("model.layers.0.self_attn.q_proj.weight is I8"), std::string::npos) << error;

    // DeepSeek V3's FP8 weights are scaled per block by weight_scale_inv, which is not applied.
    safetensors_test::File scaled;
    scaled.add("model.layers.0.self_attn.q_proj.weight", "F8_E4M3", {32, 32}, std::string(32 * 32, '\0'));
    scaled.add("model.layers.0.self_attn.q_proj.weight_scale_inv", "F32", {1, 1}, mw_f32_bytes({1}));
    scaled.add("model.layers.0.self_attn.k_proj.weight", "F8_E4M3", {32, 32}, std::string(32 * 32, '\0'));
    error = refusal_with(scaled);
    EXPECT_NE(error.find("model.layers.0.self_attn.q_proj.weight is scaled by model.layers.0.self_attn.q_proj.weight_scale_inv"),
              std::string::npos)
        << error;

    safetensors_test::File missing;
    missing.add("model.layers.0.self_attn.q_proj.weight", "F32", {32, 32}, std::string(32 * 32 * 4, '\0'));
    error = refusal_with(missing);
    EXPECT_NE(error.find("model.layers.0.self_attn.k_proj.weight is missing"), std::string::npos) << error;

    safetensors_test::File short_q;
    short_q.add("model.layers.0.self_attn.q_proj.weight", "F32", {24, 32}, std::string(24 * 32 * 4, '\0'));
    short_q.add("model.layers.0.self_attn.k_proj.weight", "F32", {32, 32}, std::string(32 * 32 * 4, '\0'));
    error = refusal_with(short_q);
    EXPECT_NE(error.find("model.layers.0.self_attn.q_proj.weight: 24 rows do not fit 2 query heads of 16"), std::string::npos) << error;

    safetensors_test::File no_attention;
    no_attention.add("model.embed_tokens.weight", "F32", {2, 2}, mw_f32_bytes({1, 2, 3, 4}));
    error = refusal_with(no_attention);
    EXPECT_NE(error.find("layers.0.self_attn.q_proj.weight"), std::string::npos) << error;
}

}  // namespace
}  // namespace ropelab::models
