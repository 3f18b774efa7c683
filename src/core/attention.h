#pragma once
// Attention over a sequence of T tokens, as one layer of a transformer computes it:
//
//   logit(m, n) = τ_m · ⟨R(id_m) q_m, R(id_n) k_n⟩ / √d
//   weight(m, ·) = softmax over the keys n that query m attends to (causal: n ≤ m, and the
//                  layer's sliding window or chunk), 0 elsewhere
//
// R(id) is the model's rotation at the token's position id (1-D, or (t, h, w) for multi-axis
// RoPE), d the head dim (Gemma 2/3: query_pre_attn_scalar, see logit_scale), τ_m Llama 4's
// query temperature on NoPE layers (1 elsewhere). With the same q and k at every token of a 1-D
// model, logit(m, n) = score(m − n)/√d: the score curve laid out as a Toeplitz matrix, and every
// row is O(T) from one curve.
//
// Not modelled: Llama 4's L2 qk-norm and Gemma 3's q/k RMSNorm act on the vectors before the
// logits (give normalised vectors to see them; a rotation keeps norms), and Gemma 2's tanh
// soft-capping of the logits (attn_logit_softcapping).
//
// The mask and the temperature go by sequence index (transformers' cache_position); the rotation
// by position id. For text the two are the same.
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "core/frequencies.h"
#include "core/model_config.h"
#include "core/multi_axis.h"
#include "core/position_ids.h"
#include "core/scores.h"

namespace ropelab {

// The longest sequence attention is computed for: 2^16 tokens (the window stays interactive; the
// prepared keys of a 128-dim head take 64 MiB).
inline constexpr std::int64_t kMaxAttentionTokens = std::int64_t{1} << 16;

// Key n is visible to query m: n ≤ m, m − n < sliding_window (if any), and m, n in the same
// block of attention_chunk tokens (if any). masking_utils.py: causal_mask_function,
// sliding_window_overlay, chunked_overlay.
bool attends(const LayerAttention& layer, std::int64_t m, std::int64_t n);

// The earliest key query m sees (every key from there to m is visible).
std::int64_t first_visible_key(const LayerAttention& layer, std::int64_t m);

// Llama 4's query scale on NoPE layers with temperature tuning:
// 1 + attn_scale · log1p(floor((m + 1) / floor_scale)); 1 for every other layer.
double query_temperature(const LayerAttention& layer, std::int64_t m);

// 1/√head_dim, transformers' default attention scaling; 1/√query_pre_attn_scalar where the model
// gives one (Gemma 2 and 3).
double logit_scale(const ModelConfig& model);

// The tokens' q and k: `same` gives one q and one k (head_dim each) for every token; otherwise
// T rows of head_dim, row-major. Components are in the model's head order with the rotary part
// first (core/vector_spec.h: rotary_part_first).
struct TokenQK {
    int head_dim = 0;
    bool same = false;
    std::vector<double> q, k;
    const double* q_row(std::int64_t m) const { return q.data() + (same ? 0 : m * head_dim); }
    const double* k_row(std::int64_t n) const { return k.data() + (same ? 0 : n * head_dim); }
};

// Everything one layer's attention needs. `ids` gives every token's position id(s); for a 1-D
// model t = h = w = the position.
struct AttentionInput {
    ModelConfig model;
    TokenIds ids;
    TokenQK qk;
    std::int64_t tokens() const { return static_cast<std::int64_t>(ids.size()); }
};

// Checks sizes (q, k rows against T and head_dim) and finiteness; throws InputError naming
// `what` and the problem.
void check_attention_input(const AttentionInput& input, const std::string& what);

// Rows of logits, prepared once per input: the rotated keys (or, for the same q and k in a
// 1-D model with positions 0 … T−1, the score curve both ways). Rows may be asked for from
// several threads at once.
class AttentionRows {
public:
    explicit AttentionRows(const AttentionInput& input);
    std::int64_t tokens() const { return tokens_; }
    const LayerAttention& layer() const { return layer_; }
    bool toeplitz() const { return toeplitz_; }  // every row from one score curve
    // logit(m, n) for n in [from, to), masked keys included (the logits panel shows them).
    void logits(std::int64_t m, std::int64_t from, std::int64_t to, double* out) const;
    double logit(std::int64_t m, std::int64_t n) const;

private:
    std::int64_t tokens_ = 0;
    LayerAttention layer_;
    double scale_ = 1.0;
    bool toeplitz_ = false;
    std::vector<double> ahead_, behind_;  // Toeplitz: score(Δ) for Δ = m − n ≥ 0, and score(−Δ)
    int pairs_ = 0;
    std::vector<std::complex<double>> q_rot_, k_rot_;  // per token, `pairs_` each (af² on k)
    std::vector<double> q_pass_, k_pass_;  // the unrotated components, per token
    int pass_ = 0;
    bool same_ = false;
    double row_sum(std::int64_t m, std::int64_t n) const;
};

// Row m's weights from its logits over every key [0, T): softmax over the visible keys (the
// largest subtracted first), 0 for the others. They sum to 1 up to rounding.
std::vector<double> softmax_row(const LayerAttention& layer, std::int64_t m, const std::vector<double>& logits);

// The per-row readouts of a weight row: the mass on keys within distance w (m − n < w), the mean
// attended distance Σ weight·(m − n), and the entropy −Σ weight·ln weight (nats).
struct RowReadout {
    double mass_within = 0.0;
    double mean_distance = 0.0;
    double entropy = 0.0;
    std::int64_t visible = 0;  // keys attended to
};
RowReadout row_readout(const LayerAttention& layer, std::int64_t m, const std::vector<double>& weights, std::int64_t within);

// The float64 reference for small T: every entry from vectors rotated one by one
// (core/rotation.h), independent of AttentionRows' shortcuts. Row-major T × T.
struct AttentionMatrix {
    std::int64_t tokens = 0;
    std::vector<double> logits, weights;
    std::vector<unsigned char> visible;
};
AttentionMatrix attention_reference(const AttentionInput& input);

}  // namespace ropelab
