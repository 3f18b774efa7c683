// core/attention against float64 evaluations written here from the definitions:
//   logit(m, n) = τ_m · ⟨R(m) q_m, R(n) k_n⟩ / √d, weights = softmax over the visible keys.
// The masks are written out as transformers' masking_utils.py defines them (causal: n ≤ m;
// sliding_window_overlay: n > m − W; chunked_overlay: n / C == m / C), never by calling attends(),
// and the rotations by angles (m − n)·ω_j computed here.
#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <numbers>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/array_file.h"
#include "core/config_json.h"
#include "core/attention.h"
#include "core/frequencies.h"
#include "core/position_ids.h"
#include "core/presets.h"
#include "core/scores.h"
#include "core/token_layout.h"
#include "core/vector_spec.h"
#include "lab/attention_input.h"
#include "support/files.h"
#include "support/refusal.h"

namespace ropelab {
namespace {

using Visible = std::function<bool(std::int64_t m, std::int64_t n)>;

bool causal(std::int64_t m, std::int64_t n) { return n <= m; }

// A plain model: interleaved pairs (2j, 2j + 1), ω_j = θ^(−2j/d), no scaling.
ModelConfig plain_model(int head_dim = 16) {
    ModelConfig m;
    m.head_dim = head_dim;
    m.rope_theta = 10000.0;
    m.layout = PairLayout::Interleaved;
    return m;
}

double omega(const ModelConfig& m, int j) { return std::pow(m.rope_theta, -2.0 * j / m.head_dim); }

TokenIds one_d_ids(std::int64_t tokens) {
    TokenIds ids;
    for (std::int64_t n = 0; n < tokens; ++n) {
        ids.kind.push_back(TokenKind::Text);
        ids.part.push_back(0);
        ids.t.push_back(n);
        ids.h.push_back(n);
        ids.w.push_back(n);
    }
    return ids;
}

// T random q and k rows (or one of each with `same`), from seeds.
TokenQK random_qk(int head_dim, std::int64_t tokens, std::uint64_t seed, bool same = false) {
    TokenQK qk;
    qk.head_dim = head_dim;
    qk.same = same;
    for (std::int64_t n = 0; n < (same ? 1 : tokens); ++n) {
        const std::vector<double> q = random_vector(seed + 2 * static_cast<std::uint64_t>(n), head_dim);
        const std::vector<double> k = random_vector(seed + 2 * static_cast<std::uint64_t>(n) + 1, head_dim);
        qk.q.insert(qk.q.end(), q.begin(), q.end());
        qk.k.insert(qk.k.end(), k.begin(), k.end());
    }
    return qk;
}

AttentionInput input_for(const ModelConfig& model, std::int64_t tokens, TokenQK qk) {
    AttentionInput in;
    in.model = model;
    in.ids = one_d_ids(tokens);
    in.qk = std::move(qk);
    return in;
}

// ⟨R(m) q, R(n) k⟩ for the plain model, from the angle (m − n)·ω_j of each interleaved pair;
// `rotate` false: the plain dot product (NoPE).
double rotated_dot(const ModelConfig& model, const double* q, const double* k, std::int64_t m, std::int64_t n, bool rotate) {
    double sum = 0.0;
    for (int j = 0; j < model.head_dim / 2; ++j) {
        const std::complex<double> zq(q[2 * j], q[2 * j + 1]), zk(k[2 * j], k[2 * j + 1]);
        const double angle = rotate ? static_cast<double>(m - n) * omega(model, j) : 0.0;
        sum += std::real(zq * std::conj(zk) * std::polar(1.0, angle));
    }
    return sum;
}

// The row m of weights from the definition: exp(logit − max) over the visible keys, normalised.
std::vector<double> softmax_reference(const std::vector<double>& logits, std::int64_t m, const Visible& visible) {
    double top = -INFINITY;
    for (std::int64_t n = 0; n < static_cast<std::int64_t>(logits.size()); ++n) {
        if (visible(m, n)) top = std::max(top, logits[static_cast<std::size_t>(n)]);
    }
    std::vector<double> w(logits.size(), 0.0);
    double sum = 0.0;
    for (std::int64_t n = 0; n < static_cast<std::int64_t>(logits.size()); ++n) {
        if (visible(m, n)) sum += w[static_cast<std::size_t>(n)] = std::exp(logits[static_cast<std::size_t>(n)] - top);
    }
    for (double& x : w) x /= sum;
    return w;
}

std::vector<double> row_logits(const AttentionRows& rows, std::int64_t m) {
    std::vector<double> out(static_cast<std::size_t>(rows.tokens()));
    rows.logits(m, 0, rows.tokens(), out.data());
    return out;
}

// Every logit and weight of the plain model's layer against the definition; `visible` is the
// layer's mask written out, `tau` the query temperature.
void expect_layer_matches_definition(const AttentionInput& in, const Visible& visible, const std::function<double(std::int64_t)>& tau) {
    const AttentionRows rows(in);
    const std::int64_t t = in.tokens();
    const double scale = 1.0 / std::sqrt(static_cast<double>(in.model.head_dim));
    for (std::int64_t m = 0; m < t; ++m) {
        const std::vector<double> logits = row_logits(rows, m);
        std::vector<double> expected(static_cast<std::size_t>(t));
        for (std::int64_t n = 0; n < t; ++n) {
            expected[static_cast<std::size_t>(n)] =
                tau(m) * scale * rotated_dot(in.model, in.qk.q_row(m), in.qk.k_row(n), m, n, in.model.attention.rope);
            ASSERT_NEAR(logits[static_cast<std::size_t>(n)], expected[static_cast<std::size_t>(n)], 1e-12) << m << ", " << n;
        }
        const std::vector<double> w = softmax_row(rows.layer(), m, logits);
        const std::vector<double> w_ref = softmax_reference(expected, m, visible);
        for (std::int64_t n = 0; n < t; ++n) {
            ASSERT_NEAR(w[static_cast<std::size_t>(n)], w_ref[static_cast<std::size_t>(n)], 1e-12) << m << ", " << n;
            if (!visible(m, n)) { ASSERT_EQ(w[static_cast<std::size_t>(n)], 0.0) << m << ", " << n; }
        }
    }
}

double one(std::int64_t) { return 1.0; }

// ---- sums, the Toeplitz link, the reference -----------------------------------------------

TEST(Attention, EveryRowsWeightsSumToOne) {
    std::vector<LayerAttention> layers(5);
    layers[1].sliding_window = 5;
    layers[2].attention_chunk = 16;
    layers[3].rope = false;
    layers[3].temperature_tuning = true;
    layers[3].floor_scale = 4;
    layers[4].sliding_window = 7;
    layers[4].attention_chunk = 10;
    for (const LayerAttention& layer : layers) {
        for (std::int64_t t : {1, 2, 3, 17, 64, 300}) {
            ModelConfig model = plain_model();
            model.attention = layer;
            const AttentionRows rows(input_for(model, t, random_qk(16, t, 7 + static_cast<std::uint64_t>(t))));
            for (std::int64_t m = 0; m < t; ++m) {
                const std::vector<double> w = softmax_row(layer, m, row_logits(rows, m));
                double sum = 0.0;
                for (double x : w) sum += x;
                ASSERT_NEAR(sum, 1.0, 1e-6) << "T " << t << " m " << m;
                ASSERT_NEAR(sum, 1.0, 1e-12) << "T " << t << " m " << m;
            }
        }
    }
}

// With the same q and k at every token, logit(m, n) = score(m − n)/√d (view 3's curve); above the
// diagonal the swapped pair's score at n − m. Checked on the Toeplitz path and on the rotated
// path (the same vectors given once per token), for Llama 3's scaled frequencies (half layout).
TEST(Attention, SameVectorsGiveTheScoreCurveAsAToeplitzMatrix) {
    const ModelConfig model = preset_or_throw("llama3.1-8b").config;
    const std::int64_t t = 300;
    const TokenQK same = random_qk(model.head_dim, t, 11, true);
    TokenQK each = same;
    each.same = false;
    each.q.clear();
    each.k.clear();
    for (std::int64_t n = 0; n < t; ++n) {
        each.q.insert(each.q.end(), same.q.begin(), same.q.end());
        each.k.insert(each.k.end(), same.k.begin(), same.k.end());
    }
    const AttentionRows toeplitz(input_for(model, t, same)), rotated(input_for(model, t, each));
    ASSERT_TRUE(toeplitz.toeplitz());
    ASSERT_FALSE(rotated.toeplitz());
    const RopeFrequencies freqs = compute_frequencies(model);
    const ScoreCoefficients c = score_coefficients(same.q, same.k, freqs), swapped = score_coefficients(same.k, same.q, freqs);
    const std::vector<double> ahead = rope_scores(c, freqs, t), behind = rope_scores(swapped, freqs, t);
    const double d = std::sqrt(static_cast<double>(model.head_dim));
    const double tolerance = 1e-12 * c.l1() / d;  // relative to the largest a logit can be
    for (std::int64_t m = 0; m < t; ++m) {
        const std::vector<double> a = row_logits(toeplitz, m), b = row_logits(rotated, m);
        for (std::int64_t n = 0; n < t; ++n) {
            const double expected = (m >= n ? ahead[static_cast<std::size_t>(m - n)] : behind[static_cast<std::size_t>(n - m)]) / d;
            ASSERT_NEAR(a[static_cast<std::size_t>(n)], expected, tolerance) << m << ", " << n;
            ASSERT_NEAR(b[static_cast<std::size_t>(n)], expected, tolerance) << m << ", " << n;
        }
    }
}

// Random and needle vectors: the prepared rows against attention_reference (every vector rotated
// on its own), for a 1-D model and for Qwen2-VL's M-RoPE with text around an image.
TEST(Attention, RowsMatchTheReferenceIn1DAndMultiAxisModels) {
    struct Case {
        const char* preset;
        std::string layout;
        LayerAttention layer;
    };
    LayerAttention windowed;
    windowed.sliding_window = 9;
    for (const Case& c : {Case{"llama3.1-8b", "text:120", {}}, Case{"qwen2-vl-7b", "text:6,image:1x12x16,text:7", {}},
                          Case{"qwen2-vl-7b", "text:6,image:1x12x16,text:7", windowed}}) {
        ModelConfig model = preset_or_throw(c.preset).config;
        model.attention = c.layer;
        const TokenIds ids = position_ids(parse_token_layout(c.layout, model.multi_axis.spatial_merge_size), model.multi_axis, IdsRule::V4);
        const auto t = static_cast<std::int64_t>(ids.size());
        TokenQK needle = random_qk(model.head_dim, t, 99);
        const auto d = static_cast<std::size_t>(model.head_dim);
        for (std::size_t i = 0; i < d; ++i) needle.k[5 * d + i] = needle.q[static_cast<std::size_t>(t - 1) * d + i];
        for (const TokenQK& qk : {random_qk(model.head_dim, t, 5), needle}) {
            AttentionInput in;
            in.model = model;
            in.ids = ids;
            in.qk = qk;
            const AttentionRows rows(in);
            const AttentionMatrix ref = attention_reference(in);
            double largest = 0.0;
            for (double x : ref.logits) largest = std::max(largest, std::abs(x));
            for (std::int64_t m = 0; m < t; ++m) {
                const std::vector<double> logits = row_logits(rows, m);
                const std::vector<double> w = softmax_row(rows.layer(), m, logits);
                for (std::int64_t n = 0; n < t; ++n) {
                    const auto at = static_cast<std::size_t>(m * t + n);
                    ASSERT_NEAR(logits[static_cast<std::size_t>(n)], ref.logits[at], 1e-9 * largest) << c.preset << " " << m << ", " << n;
                    ASSERT_NEAR(w[static_cast<std::size_t>(n)], ref.weights[at], 1e-9) << c.preset << " " << m << ", " << n;
                }
            }
        }
    }
    // The multi-axis case is not a 1-D one in disguise: the image's tokens share t ids.
    const ModelConfig vl = preset_or_throw("qwen2-vl-7b").config;
    const TokenIds ids = position_ids(parse_token_layout("text:6,image:1x12x16,text:7", 2), vl.multi_axis, IdsRule::V4);
    EXPECT_EQ(ids.t[7], ids.t[8]);
    EXPECT_NE(ids.h[7], ids.h[20]);
}

// ---- the layers' rules against their definitions ------------------------------------------

TEST(Attention, PlainCausalLayerMatchesTheDefinition) {
    expect_layer_matches_definition(input_for(plain_model(), 40, random_qk(16, 40, 3)), causal, one);
}

// NoPE: no rotation at all, the logits are q_m·k_n/√d; with the same q and k everywhere every
// visible key gets the same weight 1/(m + 1).
TEST(Attention, NoPELayerUsesUnrotatedVectors) {
    ModelConfig model = plain_model();
    model.attention.rope = false;
    expect_layer_matches_definition(input_for(model, 50, random_qk(16, 50, 4)), causal, one);
    const std::int64_t t = 64;
    const AttentionRows rows(input_for(model, t, random_qk(16, t, 4, true)));
    for (std::int64_t m = 0; m < t; ++m) {
        const std::vector<double> w = softmax_row(rows.layer(), m, row_logits(rows, m));
        for (std::int64_t n = 0; n <= m; ++n) ASSERT_NEAR(w[static_cast<std::size_t>(n)], 1.0 / static_cast<double>(m + 1), 1e-15);
    }
}

// Llama 4's chunked layers (attention_chunk_size 8192), scaled down to chunks of 16 at T = 100:
// a query sees only the keys of its own block; the first row of a block sees only itself.
TEST(Attention, ChunkedLayerAttendsWithinItsBlock) {
    ModelConfig model = plain_model();
    model.attention.attention_chunk = 16;
    const AttentionInput in = input_for(model, 100, random_qk(16, 100, 5));
    expect_layer_matches_definition(in, [](std::int64_t m, std::int64_t n) { return n <= m && n / 16 == m / 16; }, one);
    const AttentionRows rows(in);
    for (std::int64_t m = 0; m < 100; m += 16) {
        const std::vector<double> w = softmax_row(rows.layer(), m, row_logits(rows, m));
        EXPECT_EQ(w[static_cast<std::size_t>(m)], 1.0) << m;
        for (std::int64_t n = 0; n < 100; ++n) {
            if (n != m) { EXPECT_EQ(w[static_cast<std::size_t>(n)], 0.0) << m << ", " << n; }
        }
    }
    EXPECT_EQ(first_visible_key(model.attention, 47), 32);
}

// A sliding window of 5 (masking_utils.sliding_window_overlay: kv_idx > q_idx − sliding_window):
// the query and the 4 keys before it, exactly 5 keys once m ≥ 4.
TEST(Attention, SlidingLayerSeesExactlyTheWindow) {
    ModelConfig model = plain_model();
    model.attention.sliding_window = 5;
    const AttentionInput in = input_for(model, 60, random_qk(16, 60, 6));
    expect_layer_matches_definition(in, [](std::int64_t m, std::int64_t n) { return n <= m && n > m - 5; }, one);
    const AttentionRows rows(in);
    for (std::int64_t m = 0; m < 60; ++m) {
        const std::vector<double> w = softmax_row(rows.layer(), m, row_logits(rows, m));
        std::int64_t nonzero = 0;
        for (double x : w) nonzero += x > 0.0;
        EXPECT_EQ(nonzero, std::min<std::int64_t>(m + 1, 5)) << m;
        EXPECT_EQ(row_readout(rows.layer(), m, w, 1000).visible, std::min<std::int64_t>(m + 1, 5)) << m;
    }
}

// Llama 4's temperature on NoPE layers (modeling_llama4.py, Llama4TextAttention.forward):
// queries × (1 + attn_scale·log1p(floor((m + 1)/floor_scale))), by the query's sequence index.
TEST(Attention, Llama4TemperatureScalesNoPERowsAtTheFloorSteps) {
    ModelConfig plain = plain_model();
    plain.attention.rope = false;
    ModelConfig tuned = plain;
    tuned.attention.temperature_tuning = true;  // floor_scale 8192, attn_scale 0.1: Llama 4's values
    const std::int64_t t = 16384;
    const TokenQK qk = random_qk(16, t, 8);
    const AttentionRows a(input_for(plain, t, qk)), b(input_for(tuned, t, qk));
    const std::vector<std::pair<std::int64_t, double>> hand = {
        {8190, 1.0}, {8191, 1.0 + 0.1 * std::numbers::ln2}, {16382, 1.0 + 0.1 * std::numbers::ln2}, {16383, 1.0 + 0.1 * std::log(3.0)}};
    for (const auto& [m, factor] : hand) {
        EXPECT_DOUBLE_EQ(query_temperature(tuned.attention, m), factor) << m;
        for (std::int64_t n : {std::int64_t{0}, std::int64_t{17}, m}) {
            EXPECT_NEAR(b.logit(m, n), factor * a.logit(m, n), 1e-14 * std::max(1.0, std::abs(a.logit(m, n)))) << m << ", " << n;
        }
    }
    // Only NoPE layers are tuned.
    ModelConfig rope = tuned;
    rope.attention.rope = true;
    EXPECT_EQ(query_temperature(rope.attention, 16383), 1.0);
    // The whole matrix at a small floor scale, against the definition.
    tuned.attention.floor_scale = 4;
    expect_layer_matches_definition(input_for(tuned, 40, random_qk(16, 40, 9)), causal,
                                    [](std::int64_t m) { return 1.0 + 0.1 * std::log1p(std::floor((m + 1.0) / 4.0)); });
}

TEST(Attention, RowReadoutsAreTheHandSums) {
    const LayerAttention plain;
    const std::vector<double> w = {0.1, 0.2, 0.3, 0.15, 0.25, 0.0};  // row m = 4; n = 5 is masked
    const RowReadout r = row_readout(plain, 4, w, 2);
    EXPECT_DOUBLE_EQ(r.mass_within, 0.25 + 0.15);                                  // m − n = 0, 1
    EXPECT_DOUBLE_EQ(r.mean_distance, 0.1 * 4 + 0.2 * 3 + 0.3 * 2 + 0.15 * 1);      // 1.75
    EXPECT_NEAR(r.mean_distance, 1.75, 1e-15);
    const double entropy = -(0.1 * std::log(0.1) + 0.2 * std::log(0.2) + 0.3 * std::log(0.3) + 0.15 * std::log(0.15) + 0.25 * std::log(0.25));
    EXPECT_NEAR(r.entropy, entropy, 1e-15);
    EXPECT_EQ(r.visible, 5);
    // A window of 3 counts only n = 2, 3, 4.
    LayerAttention window;
    window.sliding_window = 3;
    const std::vector<double> v = {0.0, 0.0, 0.5, 0.25, 0.25};
    const RowReadout s = row_readout(window, 4, v, 3);
    EXPECT_DOUBLE_EQ(s.mass_within, 1.0);
    EXPECT_DOUBLE_EQ(s.mean_distance, 0.5 * 2 + 0.25 * 1);
    EXPECT_NEAR(s.entropy, std::log(2.0) * 0.5 + 2 * 0.25 * std::log(4.0), 1e-15);
    EXPECT_EQ(s.visible, 3);
}

// p-RoPE with p = 0.5: the lowest half of the frequencies (the last pairs) get ω 0, and the score
// is the kept pairs' RoPE score plus the dropped pairs' plain dot product.
TEST(Attention, PRopeDropsTheLowestFrequencies) {
    ModelConfig model = plain_model();
    model.p_rope = 0.5;
    const RopeFrequencies freqs = compute_frequencies(model);
    for (int j = 0; j < 8; ++j) {
        EXPECT_EQ(freqs.rotates(j), j < 4) << j;
        if (j >= 4) { EXPECT_EQ(freqs.inv_freq[static_cast<std::size_t>(j)], 0.0) << j; }
        if (j < 4) { EXPECT_NEAR(freqs.inv_freq[static_cast<std::size_t>(j)], omega(model, j), 1e-15) << j; }
    }
    const std::int64_t t = 80;
    const AttentionInput in = input_for(model, t, random_qk(16, t, 10));
    const AttentionRows rows(in);
    for (std::int64_t m = 0; m < t; m += 7) {
        for (std::int64_t n = 0; n < t; n += 3) {
            const double* q = in.qk.q_row(m);
            const double* k = in.qk.k_row(n);
            double score = 0.0;
            for (int j = 0; j < 8; ++j) {
                const std::complex<double> zq(q[2 * j], q[2 * j + 1]), zk(k[2 * j], k[2 * j + 1]);
                const double angle = j < 4 ? static_cast<double>(m - n) * omega(model, j) : 0.0;
                score += std::real(zq * std::conj(zk) * std::polar(1.0, angle));
            }
            ASSERT_NEAR(rows.logit(m, n), score / 4.0, 1e-12) << m << ", " << n;
        }
    }
}

// Gemma 2 and 3 scale logits by query_pre_attn_scalar^(−1/2) (modeling_gemma3.py,
// Gemma3Attention: scaling); every other model by head_dim^(−1/2).
TEST(Attention, LogitScaleFollowsQueryPreAttnScalar) {
    ModelConfig model = plain_model(128);
    EXPECT_DOUBLE_EQ(logit_scale(model), 1.0 / std::sqrt(128.0));
    model.query_pre_attn_scalar = 168;  // Gemma 3 27B: hidden_size / num_attention_heads, head_dim 128
    EXPECT_DOUBLE_EQ(logit_scale(model), 1.0 / std::sqrt(168.0));
    const AttentionInput in = input_for(model, 3, random_qk(128, 3, 12));
    const AttentionRows rows(in);
    EXPECT_NEAR(rows.logit(2, 1), rotated_dot(model, in.qk.q_row(2), in.qk.k_row(1), 2, 1, true) / std::sqrt(168.0), 1e-12);
}

// config.json's query_pre_attn_scalar reaches the scale: Gemma 2 27B writes 144 beside head_dim 128.
TEST(Attention, QueryPreAttnScalarIsReadFromConfigJson) {
    const LoadedConfig gemma = parse_config_json(
        R"({"model_type": "gemma2", "head_dim": 128, "num_attention_heads": 32, "hidden_size": 4608, "rope_theta": 10000.0,
            "query_pre_attn_scalar": 144})",
        "gemma-2-27b.json");
    EXPECT_EQ(gemma.config.query_pre_attn_scalar, 144.0);
    EXPECT_DOUBLE_EQ(logit_scale(gemma.config), 1.0 / 12.0);
    const LoadedConfig llama = parse_config_json(R"({"model_type": "llama", "head_dim": 64, "rope_theta": 10000.0})", "llama.json");
    EXPECT_EQ(llama.config.query_pre_attn_scalar, 0.0);
    EXPECT_DOUBLE_EQ(logit_scale(llama.config), 1.0 / 8.0);
    const std::string why = test::refusal([] {
        parse_config_json(R"({"model_type": "gemma2", "head_dim": 128, "query_pre_attn_scalar": -3})", "bad.json");
    });
    EXPECT_NE(why.find("query_pre_attn_scalar"), std::string::npos) << why;
}

// ---- vectors from files, through the lab's attention input --------------------------------

class AttentionFiles : public test::TempDirTest {
protected:
    AttentionFiles() : TempDirTest("attention_files") {}
};

std::string text_rows(const std::vector<std::vector<double>>& rows) {
    std::string s;
    for (const auto& row : rows) {
        for (double v : row) s += std::to_string(v) + " ";
        s += "\n";
    }
    return s;
}

TEST_F(AttentionFiles, FileVectorsAreTheArraysInTheHeadsOrder) {
    LabParams p;
    p.tokens = "text:3";
    p.token_vectors = TokenVectors::File;
    ModelConfig model = plain_model(4);
    std::vector<std::vector<double>> q = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}, k = {{-1, 0, 1, 0}, {0, 1, 0, -1}, {2, 2, 2, 2}};
    test::write_file(at("q.txt"), text_rows(q));
    test::write_file(at("k.json"), "[[-1, 0, 1, 0], [0, 1, 0, -1], [2, 2, 2, 2]]");
    p.q_file = at("q.txt");
    p.k_file = at("k.json");
    AttentionInput in = lab::attention_input(p, model);
    EXPECT_EQ(in.qk.q, (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
    EXPECT_EQ(in.qk.k, (std::vector<double>{-1, 0, 1, 0, 0, 1, 0, -1, 2, 2, 2, 2}));
    // No keys' file: the keys are the queries.
    p.k_file = "";
    in = lab::attention_input(p, model);
    EXPECT_EQ(in.qk.k, in.qk.q);
    // DeepSeek-like heads [nope | rope]: the rotary part (the last two components) comes first.
    model.partial_rotary_factor = 0.5;
    model.rotary_offset = 2;
    in = lab::attention_input(p, model);
    EXPECT_EQ(std::vector<double>(in.qk.q.begin(), in.qk.q.begin() + 4), (std::vector<double>{3, 4, 1, 2}));
}

TEST_F(AttentionFiles, WrongShapesAreRefusedWithBothNumbers) {
    LabParams p;
    p.tokens = "text:3";
    p.token_vectors = TokenVectors::File;
    test::write_file(at("q.txt"), "1 2 3 4\n5 6 7 8\n");
    test::write_file(at("wide.txt"), "1 2 3 4 5 6\n1 2 3 4 5 6\n1 2 3 4 5 6\n");
    p.q_file = at("q.txt");
    std::string why = test::refusal([&] { lab::attention_input(p, plain_model(4)); });
    EXPECT_NE(why.find("attention.q_file: " + at("q.txt") + ": 2 rows"), std::string::npos) << why;
    EXPECT_NE(why.find("images.tokens \"text:3\" has 3 tokens"), std::string::npos) << why;
    p.q_file = at("wide.txt");
    why = test::refusal([&] { lab::attention_input(p, plain_model(4)); });
    EXPECT_NE(why.find("rows of 6 numbers; the head has head_dim = 4"), std::string::npos) << why;
    p.q_file = "";
    why = test::refusal([&] { lab::attention_input(p, plain_model(4)); });
    EXPECT_NE(why.find("attention.q_file"), std::string::npos) << why;
    p.q_file = at("wide.txt");
    p.k_file = at("missing.npy");
    why = test::refusal([&] { lab::attention_input(p, plain_model(6)); });
    EXPECT_NE(why.find("attention.k_file: " + at("missing.npy") + ": cannot open"), std::string::npos) << why;
}

}  // namespace
}  // namespace ropelab

namespace ropelab {
namespace {

// The view's own limit, 2^16 tokens, named by the layout field with both counts.
TEST(AttentionInputLimits, MoreThan65536TokensAreRefused) {
    LabParams p;
    p.tokens = "text:65537";
    p.token_vectors = TokenVectors::Random;
    const std::string why = test::refusal([&] { lab::attention_input(p, plain_model(4)); });
    EXPECT_NE(why.find("images.tokens: \"text:65537\" has 65537 tokens; the attention view takes at most 65536"), std::string::npos) << why;
    p.tokens = "text:65536";
    EXPECT_EQ(lab::attention_input(p, plain_model(4)).tokens(), 65536);
}

}  // namespace
}  // namespace ropelab
