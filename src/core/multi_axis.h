#pragma once
// Which coordinate of a token's (t, h, w) position turns each rotary pair, and how fast: the
// multi-axis rules of core/model_config.h as one angular-frequency vector per pair. Two tokens
// whose positions differ by Δ = (Δt, Δh, Δw) rotate pair j against each other by ω_j · Δ.
#include <array>
#include <string>
#include <vector>

#include "core/frequencies.h"
#include "core/model_config.h"

namespace ropelab {

enum class Axis { T = 0, H = 1, W = 2 };
inline constexpr int kAxes = 3;
using AxisVector = std::array<double, kAxes>;  // (t, h, w)

inline bool is_multi_axis(const ModelConfig& config) { return config.multi_axis.rule != AxisRule::None; }

// ω_j for every rotary pair, radians per position step along t, h and w. For AxisRule::None the
// three are equal (a 1-D model: a token has one position, used for all three).
std::vector<AxisVector> pair_frequency_vectors(const ModelConfig& config, const RopeFrequencies& freqs);

// One letter per pair: 't', 'h' or 'w' for the axis it turns with, 'm' for a mix (RoPE-Mixed);
// empty for a 1-D model.
std::string pair_axis_letters(const ModelConfig& config);

// The rotation angle of pair j between two tokens Δ apart: ω_j · Δ.
inline double axis_angle(const AxisVector& omega, const AxisVector& delta) {
    return omega[0] * delta[0] + omega[1] * delta[1] + omega[2] * delta[2];
}

}  // namespace ropelab
