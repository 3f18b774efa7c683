#pragma once
// Exact rotation angles at any position.
//
// float(m) * theta loses about 6e-8·m radians (0.06 rad at m = 10^6). Instead every frequency is
// stored as a 64-bit fixed-point step in turns (one full turn = 2^64), so the phase at position m
// is m · step mod 2^64: exact integer arithmetic, and the modulo 2π is the free wrap-around of
// unsigned overflow. sin/cos are only ever evaluated on the reduced angle in [-π, π).
#include <cstdint>

namespace ropelab {

using PhaseStep = std::uint64_t;  // turns per position × 2^64, fraction of a turn only
using Phase = std::uint64_t;      // turns × 2^64 modulo one turn

inline constexpr double kTwoPi = 6.283185307179586;

// round(ω / 2π · 2^64) mod 2^64, with ω/2π formed in double-double so the step is exact to its
// last bit; the error at position m is then below m · 2^-64 turns (1e-10 rad at m = 2^31).
PhaseStep phase_step(double radians_per_position);

// Phase of position m (negative positions wrap as they should).
constexpr Phase phase_at(PhaseStep step, std::int64_t position) {
    return step * static_cast<std::uint64_t>(position);
}

// The reduced angle in radians, in [-π, π).
double phase_radians(Phase phase);

// The reduced angle in degrees, in (-180, 180].
double phase_degrees(Phase phase);

}  // namespace ropelab
