#pragma once
// Constants of the per-term recurrence shared by the CPU fast path and the compute shaders.
//
// Within a block of consecutive distances, y_n = Re(u·z^n) (u = c·z^a anchored exactly at the
// block start a, z = e^{iθ}) obeys Reinsch's form of the Chebyshev recurrence:
//     d_{n+1} = d_n + λ·y_n,   y_{n+1} = y_n + d_{n+1},   λ = −4 sin²(θ/2),
// valid for cos θ ≥ 0. Unlike 2cos θ, λ keeps full relative precision for slow pairs, so float32
// stays accurate: three operations per term and distance instead of a complex multiply.
// A term with cos θ < 0 is folded: z = −z' with θ' = θ ∓ π, so y_n = (−1)^n·Re(u·z'^n); the
// recurrence runs on θ' and odd steps are accumulated with the factor `alternate` = −1. One
// branch-free code path for every term (divergent branches are what is slow on SIMD CPUs).
#include <complex>
#include <cstdint>

#include "core/phase.h"

namespace ropelab {

// Laid out as the GLSL std430 struct `Term` in shaders/common.glsl.
struct ReinschTerm {
    float coefficient_re = 0, coefficient_im = 0;
    std::uint32_t step_lo = 0, step_hi = 0;  // the exact phase step, split for umulExtended
    float lambda = 0;     // −4 sin²(θ'/2)
    float sin_theta = 0;  // sin θ'
    float alternate = 1;  // −1 when the term was folded (cos θ < 0): odd steps count negated
    float radians_per_step = 0;  // θ as given, unreduced: what the naive modes multiply
};
static_assert(sizeof(ReinschTerm) == 32, "must match the std430 layout of Term in GLSL");

// `stride` > 1 builds the term for every stride-th distance (the CPU's SIMD lanes step by it).
ReinschTerm reinsch_term(std::complex<double> coefficient, PhaseStep step,
                         double radians_per_step, std::int64_t stride = 1);

// d_0 = y_0 − y_{−1} for a block whose first value is y_0 = Re(u), y_{−1} = Re(u·e^{−iθ'}).
inline double reinsch_d0(const ReinschTerm& t, std::complex<double> u) {
    return -(0.5 * t.lambda * u.real() + u.imag() * t.sin_theta);
}

// e^{iφ} of a fixed-point phase: a 4096-entry table for the leading 12 bits and a short Taylor
// series for the rest (|x| < 2π/4096, truncation < 1e-19). Several times faster than
// std::polar, which matters because every block of every term needs an exact anchor.
std::complex<double> rotor(Phase phase);

}  // namespace ropelab
