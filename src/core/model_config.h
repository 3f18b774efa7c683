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
    bool operator==(const ModelConfig&) const = default;
};

// head_dim × partial_rotary_factor, truncated as HF does (with a tolerance for 0.1-style factors).
int rotary_dim(const ModelConfig& config);

// Throws InputError naming the first invalid field and its value.
void validate(const ModelConfig& config);

std::string_view to_string(RopeType type);
std::string_view to_string(PairLayout layout);
// Accepts the HF names, including legacy aliases ("su" for longrope); throws InputError otherwise.
RopeType parse_rope_type(std::string_view name);
PairLayout parse_pair_layout(std::string_view name);

}  // namespace ropelab
