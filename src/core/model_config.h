#pragma once
// The RoPE settings of a model, named as in HF transformers' config.json so real configs load as-is.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ropelab {

// The largest head: fills the GPU core's term block exactly (256 pairs). The lab's schema and
// the config reader both refuse larger ones.
inline constexpr int kMaxHeadDim = 512;
// The other ranges both share (the schema's rows in lab/schema.cpp use these): θ, the scaling
// factors (llama3's and YaRN's betas too), and context lengths — far past any real model, still
// exact in a double.
inline constexpr double kMinTheta = 1.0001, kMaxTheta = 1e12;
inline constexpr double kMinFactor = 1e-3, kMaxFactor = 1e4;
inline constexpr std::int64_t kMaxContext = 1'000'000'000'000;
// The most layers a config (num_hidden_layers, layer lists) or --layer may name: far above any
// published model (Llama 3.1 405B has 126), low enough that per-layer lists stay small.
inline constexpr std::int64_t kMaxLayers = 100'000;

enum class RopeType { Default, Linear, Dynamic, Ntk, Yarn, Llama3, LongRope };

// Which components form rotation pair i.
//   Interleaved: (2i, 2i+1)          — Meta Llama, GPT-J, RoFormer (complex view of adjacent pairs)
//   Half:        (i, i + rotary/2)   — GPT-NeoX, HF rotate_half
enum class PairLayout { Interleaved, Half };

struct RopeScaling {
    RopeType type = RopeType::Default;
    std::optional<double> factor;
    std::optional<double> low_freq_factor;   // llama3
    std::optional<double> high_freq_factor;  // llama3
    double beta_fast = 32.0;                 // yarn
    double beta_slow = 1.0;                  // yarn
    std::optional<double> attention_factor;  // yarn, longrope
    std::optional<double> mscale;            // yarn (DeepSeek style)
    std::optional<double> mscale_all_dim;    // yarn (DeepSeek style)
    bool truncate = true;                    // yarn: round the correction range (gpt-oss says false)
    // As written inside rope_scaling; YaRN only looks here (see frequencies.cpp).
    std::optional<std::int64_t> original_max_position_embeddings;
    std::vector<double> long_factor;   // longrope, one per pair
    std::vector<double> short_factor;  // longrope, one per pair
    bool operator==(const RopeScaling&) const = default;
};

// Multi-axis RoPE, for images and video: a token's position is (t, h, w) and each rotary pair
// turns with one coordinate (or, in RoPE-Mixed, a mix of h and w). A text token has t = h = w,
// so for text every rule below is the 1-D RoPE of the same frequencies.
//   Sections     M-RoPE, contiguous mrope_section over the model's frequencies (Qwen2-VL, Qwen2.5-VL):
//                pairs [0, s_t) turn with t, the next s_h with h, the last s_w with w.
//   Interleaved  Qwen3-VL: pairs 1, 4, 7, … below 3·s_h turn with h, 2, 5, 8, … below 3·s_w with w,
//                the rest (0, 3, 6, … and the tail) with t.
//   Axial        each axis its own ladder θ^(−2j/d_a) over d_a = 2·s_a components, axes one after
//                another (Qwen2-VL's vision tower, EVA; FLUX's axes_dims_rope = 2·sections).
//   EvenOdd      Pixtral: the 1-D ladder's even pairs turn with h, its odd pairs with w (h first).
//   Mixed        RoPE-Mixed (Heo et al. 2024): pair j turns with ω_j·(w·cos φ_j + h·sin φ_j); the
//                magnitudes θ^(−4j/d) and directions φ, φ + 90° are its paper's initialisation (the
//                trained directions are learned, so this one is illustrative).
//   Alternating  ERNIE 4.5-VL (modeling_ernie4_5_vl_moe.py, Ernie4_5_VL_MoeTextRotaryEmbedding): the
//                fastest 2·s_h pairs alternate h (even pairs) and w (odd pairs), the slowest s_t turn
//                with t; s_h = s_w (sections here in t, h, w order; the file's mrope_section is h, w, t).
enum class AxisRule { None, Sections, Interleaved, Axial, EvenOdd, Mixed, Alternating };
// Whose get_rope_index turns a token layout into (t, h, w) ids. None: a 1-D model counts every
// token (text or patch) one up, in raster order.
enum class PositionIds { None, Qwen2VL, Qwen25VL, Qwen3VL };

struct MultiAxis {
    AxisRule rule = AxisRule::None;
    std::vector<double> sections;  // pairs per axis t, h, w (Sections, Interleaved, Axial)
    double mixed_angle = 0.0;      // Mixed: φ of this head, degrees
    PositionIds position_ids = PositionIds::None;
    int spatial_merge_size = 2;     // vision_config: patches merged per side into one token
    double tokens_per_second = 0;  // vision_config (Qwen2.5-VL): t ids per second of video; 0: one per frame
    bool operator==(const MultiAxis&) const = default;
};

// What one attention layer does besides its frequencies: the per-layer settings of transformers'
// configs (layer_types, no_rope_layers, sliding_window, Llama 4's attention_chunk_size and
// attn_temperature_tuning). The defaults are a plain causal RoPE layer.
struct LayerAttention {
    // false: the layer applies no RoPE (NoPE: Llama 4's every 4th layer, SmolLM3's no_rope_layers,
    // Cohere2's global layers); its pairs pass through unrotated.
    bool rope = true;
    // Keys within the window: key n is seen by query m when m − n < sliding_window
    // (masking_utils.sliding_window_overlay); 0: every earlier key.
    std::int64_t sliding_window = 0;
    // Llama 4's chunked attention: m and n in the same block of `attention_chunk` tokens
    // (masking_utils.chunked_overlay); 0: no chunks.
    std::int64_t attention_chunk = 0;
    // Llama 4 (modeling_llama4.py, Llama4TextAttention): on NoPE layers the queries are scaled by
    // 1 + attn_scale·log1p(floor((p + 1) / floor_scale)), p the query's position.
    bool temperature_tuning = false;
    double floor_scale = 8192.0;
    double attn_scale = 0.1;
    bool operator==(const LayerAttention&) const = default;
};

struct ModelConfig {
    int head_dim = 128;
    double partial_rotary_factor = 1.0;
    // Where the rotary part starts in the model's head. 0 for most models (HF rotates
    // q[..., :rotary_dim]); DeepSeek's heads are [nope | rope], so qk_nope_head_dim. Internally the
    // rotary part always comes first: vectors given for the whole head are reordered on input.
    int rotary_offset = 0;
    double rope_theta = 10000.0;
    std::int64_t max_position_embeddings = 2048;
    // As written at the top level of config.json (Phi-3 puts it there).
    std::optional<std::int64_t> original_max_position_embeddings;
    RopeScaling rope_scaling;
    // Current sequence length, for `dynamic` and `longrope`; unset means max_position_embeddings.
    std::optional<std::int64_t> seq_len;
    PairLayout layout = PairLayout::Interleaved;
    MultiAxis multi_axis;
    LayerAttention attention;  // the layer shown; a config's per-layer rules pick it
    // p-RoPE (Barbero et al. 2024, "Round and Round We Go!"): this fraction of the pairs, the
    // lowest frequencies, pass through unrotated. 0: RoPE; 1: no pair rotates (NoPE).
    double p_rope = 0.0;
    // Gemma 2 and 3 scale the logits by query_pre_attn_scalar^(−1/2) instead of head_dim^(−1/2)
    // (modeling_gemma3.py, Gemma3Attention.scaling); they differ in the 27B models (168 and 144
    // against head_dim 128). 0: head_dim, as every other model.
    double query_pre_attn_scalar = 0.0;
    // llama.cpp's freq_factors (ggml_rope_ext's third input): pair i's frequency is divided by
    // freq_factors[i] after any scaling. A GGUF carries llama3 scaling this way (the rope_freqs
    // tensor) and Phi-3's LongRoPE (rope_factors_long/short). Empty: none; else one per pair.
    std::vector<double> freq_factors;
    // nanochat (modular_nanochat.py: rotate_half = cat(x2, −x1)) rotates each pair by −mθ, not +mθ:
    // y1 = x1·cos + x2·sin, y2 = −x1·sin + x2·cos. Rotating by −θ is rotating by +θ between two swaps
    // of the pair's components (S·R(θ)·S = R(−θ)), so q·k of such a model is the ordinary RoPE score
    // of q and k with each pair's components swapped: swap_pair_components, where vectors are paired.
    bool negative_rotation = false;
    bool operator==(const ModelConfig&) const = default;
};

// x (rotary part first) with the two components of each rotary pair exchanged: what a model that
// rotates by −θ (negative_rotation) hands to the ordinary +θ rotation for the same scores.
std::vector<double> swap_pair_components(std::vector<double> x, int rotary_dim, PairLayout layout);

// head_dim × partial_rotary_factor, truncated as HF does (with a tolerance for 0.1-style factors).
int rotary_dim(const ModelConfig& config);

// The pairs p-RoPE leaves unrotated: ⌊p·pairs⌋ (with a tolerance for 0.1-style fractions).
int p_rope_dropped_pairs(double p_rope, int pairs);

// Throws InputError naming the first invalid field and its value.
void validate(const ModelConfig& config);

std::string_view to_string(RopeType type);
std::string_view to_string(PairLayout layout);
// Accepts the HF names, including legacy aliases ("su" for longrope); throws InputError otherwise.
RopeType parse_rope_type(std::string_view name);
PairLayout parse_pair_layout(std::string_view name);
std::string_view to_string(AxisRule rule);
std::string_view to_string(PositionIds ids);
AxisRule parse_axis_rule(std::string_view name);
PositionIds parse_position_ids(std::string_view name);

}  // namespace ropelab
