#pragma once
// Rotating a query or key vector: each pair of components is a complex number multiplied by
// attention_factor · e^{i·m·θ_i}; components past the rotary dim pass through unchanged.
#include <complex>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/frequencies.h"

namespace ropelab {

// The two vector components that form pair i (real part first).
std::pair<int, int> pair_components(int pair, int rotary_dim, PairLayout layout);

// Pair i of x as the complex number x[a] + i·x[b].
std::complex<double> pair_value(std::span<const double> x, int pair, int rotary_dim,
                                PairLayout layout);

// e^{i·m·θ_i} from the exact phase.
std::complex<double> pair_rotor(const RopeFrequencies& freqs, int pair, std::int64_t position);

// R_m x, scaled by attention_factor on the rotary part, exactly as HF applies cos/sin.
std::vector<double> rotate(std::span<const double> x, const RopeFrequencies& freqs,
                           std::int64_t position);

double dot(std::span<const double> a, std::span<const double> b);

// Per-pair rotation angles at a position, in degrees wrapped to (-180, 180].
std::vector<double> pair_angles_deg(const RopeFrequencies& freqs, std::int64_t position);

}  // namespace ropelab
