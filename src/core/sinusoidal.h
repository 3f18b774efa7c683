#pragma once
// The additive sinusoidal encoding of Vaswani et al. (2017):
//   p[pos, 2t] = sin(pos·ω_t),  p[pos, 2t+1] = cos(pos·ω_t),  ω_t = θ^(-2t/d),
// evaluated with the same exact phases as RoPE so long positions stay exact.
#include <cstdint>
#include <vector>

#include "core/phase.h"

namespace ropelab {

struct SinusoidalEncoding {
    int dim = 0;
    std::vector<double> omega;           // radians per position, one per (sin, cos) pair
    std::vector<PhaseStep> phase_step;   // exact fixed-point form of omega
};

// dim >= 1 (the head dim); an odd dim ends on a lone sine component.
SinusoidalEncoding sinusoidal_encoding(int dim, double theta);

// p_pos, a vector of length dim.
std::vector<double> sinusoidal_vector(const SinusoidalEncoding& enc, std::int64_t position);

}  // namespace ropelab
