#pragma once
// Attention scores as a function of distance, the quantities every plot in ropelab draws.
//
// RoPE:  score(Δ) = ⟨R_m q, R_{m-Δ} k⟩ = Re Σ_i c_i · e^{iΔθ_i} + q_pass·k_pass,
//        c_i = attention_factor² · q̃_i · conj(k̃_i)   (RoFormer §3.4.3)
// so the score depends on the distance Δ only. The sinusoidal-additive score
// (q + p_m)·(k + p_{m-Δ}) also depends on the absolute query position m.
#include <complex>
#include <cstdint>
#include <span>
#include <vector>

#include "core/frequencies.h"
#include "core/sinusoidal.h"

namespace ropelab {

struct ScoreCoefficients {
    std::vector<std::complex<double>> pair;  // c_i
    double passthrough = 0.0;                // dot product of the unrotated components
    // Σ|c_i| + |passthrough|: the scale that error tolerances are stated against.
    double l1() const;
};

// q and k must have head_dim components; throws InputError otherwise.
ScoreCoefficients score_coefficients(std::span<const double> q, std::span<const double> k,
                                     const RopeFrequencies& freqs);

// q·k with no position encoding at all: the same at every distance and position, so attention
// alone cannot see order. Re Σ c_i without the attention factor's af², plus the pass-through.
double unencoded_score(const ScoreCoefficients& c, const RopeFrequencies& freqs);

// One distance, from exact phases.
double rope_score(const ScoreCoefficients& c, const RopeFrequencies& freqs, std::int64_t delta);

// score(Δ) for Δ = 0 .. count-1 (the float64 reference; the fast paths are checked against it).
std::vector<double> rope_scores(const ScoreCoefficients& c, const RopeFrequencies& freqs,
                                std::int64_t count);

// (q + p_m)·(k + p_{m-Δ}) for Δ = 0 .. count-1 at query position m.
std::vector<double> sinusoidal_scores(std::span<const double> q, std::span<const double> k,
                                      const SinusoidalEncoding& enc, std::int64_t query_position,
                                      std::int64_t count);

// Score at a fixed distance for query positions m in [from, to), by rotating q and k for real,
// so the flat line it draws is a measurement, not an identity.
std::vector<double> rope_invariance(std::span<const double> q, std::span<const double> k,
                                    const RopeFrequencies& freqs, std::int64_t delta,
                                    std::int64_t from, std::int64_t to);

std::vector<double> sinusoidal_invariance(std::span<const double> q, std::span<const double> k,
                                          const SinusoidalEncoding& enc, std::int64_t delta,
                                          std::int64_t from, std::int64_t to);

// RoFormer's long-term decay bound (§3.4.3):
//   B(Δ) = (1/(d/2)) Σ_{j=1..d/2} |S_j|,  S_j = Σ_{k<j} e^{iΔθ_k},  for Δ = 0 .. count-1.
// B depends on the frequencies only: it is the shape the paper plots, B(0) = (d/2 + 1)/2.
std::vector<double> roformer_bound(const RopeFrequencies& freqs, std::int64_t count);
// B(0): every S_j = j, so Σ_j j / (d/2) = (d/2 + 1)/2 — what B(Δ)/B(0) divides by.
inline double roformer_bound_at_zero(int pairs) { return (pairs + 1.0) / 2.0; }

// What turns B into a true bound for these q, k. By Abel summation with c_{d/2} = 0,
//   Σ_i c_i e^{iΔθ_i} = Σ_{j=1..d/2} (c_{j−1} − c_j) S_j,   so
//   |score(Δ) − passthrough| ≤ max_j |c_{j−1} − c_j| · Σ_j |S_j| = factor · B(Δ),
// factor = (d/2) · max_j |c_{j−1} − c_j|. It holds at every Δ; how loose it is depends on c.
double roformer_bound_factor(const ScoreCoefficients& c);

}  // namespace ropelab
