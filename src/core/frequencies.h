#pragma once
// Per-pair rotation frequencies after scaling, as HF transformers' modeling_rope_utils computes
// them, in float64. Pair i of a rotary dim d rotates by m·inv_freq[i] at position m.
#include <optional>
#include <utility>
#include <vector>

#include "core/model_config.h"
#include "core/phase.h"

namespace ropelab {

// How scaling changed a pair, for colouring the frequency view.
enum class PairScaling { Unchanged, Blended, Interpolated };

struct RopeFrequencies {
    int head_dim = 0;
    int rotary_dim = 0;
    PairLayout layout = PairLayout::Interleaved;
    std::vector<double> inv_freq;           // scaled, radians per position
    std::vector<double> unscaled_inv_freq;  // θ^(-2i/d), what `default` would give
    std::vector<PhaseStep> phase_step;      // exact fixed-point form of inv_freq
    // Multiplies cos and sin (so q·k by its square); 1 except for yarn and longrope.
    double attention_factor = 1.0;
    // YaRN's ramp between extrapolated and interpolated pairs, in pair-dimension units.
    std::optional<std::pair<double, double>> yarn_correction_range;
    // Pairs that pass through unrotated (inv_freq 0): every pair of a NoPE layer, p-RoPE's lowest
    // frequencies. Views draw them as "not rotated"; the math needs nothing more.
    std::vector<bool> unrotated;
    // The base actually used (differs from rope_theta for dynamic and ntk).
    double effective_theta = 0.0;

    int pairs() const { return rotary_dim / 2; }
    bool rotates(int pair) const { return !unrotated[static_cast<std::size_t>(pair)]; }
};

// Validates first; throws InputError naming the field on bad settings. A NoPE layer
// (attention.rope false) and p-RoPE's dropped pairs get inv_freq 0, marked in `unrotated`.
RopeFrequencies compute_frequencies(const ModelConfig& config);

// 2π / inv_freq: positions per full turn.
double wavelength(double inv_freq);

// θ^(-2i/d) for i = 0 .. d/2-1 (Vaswani et al.; RoFormer §3.2.2).
std::vector<double> default_inv_freq(int rotary_dim, double theta);

// Compares scaled with unscaled frequencies: equal → Unchanged, divided by the scaling factor →
// Interpolated, anything between → Blended.
std::vector<PairScaling> classify_pairs(const RopeFrequencies& freqs, double factor);

}  // namespace ropelab
