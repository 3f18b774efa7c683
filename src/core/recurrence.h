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
#include <span>

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


// ---- The float64 exact path of data exports -------------------------------------------------
//
// What an export writes must read back as the exact score (to 1e-12 of the curve's scale Σ|c_i|),
// at 2^24 distances × 64 pairs: 2^30 rotors, too many for a libm sin/cos each. So, per term and per
// block of kExactBlock distances, one exact anchor (rotor of the fixed-point phase at the block
// start, error ~2e-16) and then rotation by w = e^{i·L·θ} (also from the exact phase) for the
// steps within the block, in L = kExactLanes lanes. Each step's complex multiply adds ~2 ulps of
// rounding and w's own error ~1 ulp of angle, growing linearly with the step count: after the
// kExactSteps = 16 steps a block takes, below 16 · 4e-16 ≈ 7e-15 of |c_i|, so the sum is within
// ~1e-14 of Σ|c_i| — a hundred times inside 1e-12. Re-anchoring every 256 distances costs ~7 %
// beside the 256·7 flops of the steps themselves; fewer, longer blocks would save little and
// spend the margin. Unlike float32's Reinsch form, float64 rotation needs no folding.
inline constexpr int kExactLanes = 16;
inline constexpr int kExactSteps = 16;
inline constexpr int kExactBlock = kExactLanes * kExactSteps;  // distances per exact anchor

// What an export says of numbers computed this way.
inline constexpr const char* kExactPrecision =
    "float64 (exact phase: 64-bit fixed-point turns, an exact anchor every 256 distances, float64 rotation between; "
    "within 1e-12 of the curve's scale sum |c_i|)";

// constant + Re Σ_i c_i·e^{iΔθ_i} for Δ = first .. first + out.size() − 1 (θ_i as exact phase
// steps). Serial: callers spread blocks of distances over threads.
void exact_phasor_sum_into(std::span<const std::complex<double>> coefficient, std::span<const PhaseStep> step,
                           double constant, std::int64_t first, std::span<double> out);

// RoFormer's B(Δ) = (1/P) Σ_{j<P} |Σ_{k≤j} e^{iΔθ_k}| (core/scores.h) for Δ = first .. first +
// out.size() − 1, the same way. Serial.
void exact_decay_bound_into(std::span<const PhaseStep> step, std::int64_t first, std::span<double> out);

}  // namespace ropelab
