#pragma once
// Every score curve ropelab plots has the form
//     score(Δ) = constant + Re Σ_i c_i · e^{iΔθ_i}
// — RoPE with c_i = af²·q̃_i·conj(k̃_i), and the sinusoidal-additive score too (see
// sinusoidal_phasor_sum). So one fast kernel, on the CPU or the GPU, computes them all; this file
// prepares its inputs in float64 and is the exact reference those kernels are checked against.
#include <complex>
#include <cstdint>
#include <span>
#include <vector>

#include "core/frequencies.h"
#include "core/phase.h"
#include "core/scores.h"
#include "core/sinusoidal.h"

namespace ropelab {

// How rotation angles are formed: exactly, or as common implementations do, to show their error.
enum class AngleMode {
    Exact,      // fixed-point phase, sin/cos of the reduced angle
    NaiveFp32,  // sin/cos of float(m)·float(θ), as fp32 frameworks do
    Bf16,       // the fp32 angles' cos/sin rounded to bfloat16, as bf16 models store them
};

struct PhasorSum {
    std::vector<std::complex<double>> coefficient;  // c_i
    std::vector<PhaseStep> step;                    // θ_i as exact fixed-point steps
    std::vector<double> radians_per_step;           // θ_i as given, for the naive modes
    double constant = 0.0;
    // The naive modes rotate q at this position and k at query_position − Δ, as a model would.
    std::int64_t query_position = 0;
};

PhasorSum rope_phasor_sum(const ScoreCoefficients& c, const RopeFrequencies& freqs,
                          std::int64_t query_position);

// (q + p_m)·(k + p_{m−Δ}) = u·k + Re Σ_t conj((u_{2t+1} − i·u_{2t})·e^{imω_t}) · e^{iΔω_t},
// u = q + p_m: the additive score as a phasor sum in Δ.
PhasorSum sinusoidal_phasor_sum(std::span<const double> q, std::span<const double> k,
                                const SinusoidalEncoding& enc, std::int64_t query_position);

// The mean of the coefficients over `samples` random vectors q (seeds seed, seed + 2, …) with
// k = q — a token meeting the same content at a distance: E[c_i] = E|q̃_i|², the expected
// long-term decay curve, evaluated once instead of `samples` times. (Independent q and k would
// average every coefficient to zero.)
ScoreCoefficients mean_random_coefficients(const RopeFrequencies& freqs, std::uint64_t seed,
                                           int samples);

// The exact value at one distance, in float64, for the given angle mode.
double evaluate(const PhasorSum& sum, std::int64_t delta, AngleMode mode = AngleMode::Exact);

// Pair i's phasor at distance Δ: c_i · e^{iΔθ_i}, an arrow of length |c_i| turning at θ_i.
std::complex<double> phasor(const PhasorSum& sum, std::size_t pair, std::int64_t delta, AngleMode mode = AngleMode::Exact);

// The phasors laid head to tail: point 0 is the constant (on the real axis), point i + 1 the
// running sum after pair i. The last point's real part is the score at Δ — why the score decays
// is why this chain curls up as the fast pairs scatter.
std::vector<std::complex<double>> phasor_chain(const PhasorSum& sum, std::int64_t delta, AngleMode mode = AngleMode::Exact);

// The box in the complex plane that the origin and the chain fill at `samples` + 1 distances
// spread over 0 .. max_distance − 1: a scale that holds as Δ sweeps (the phasor view keeps it).
struct PhasorExtent {
    double min_re = 0, max_re = 0, min_im = 0, max_im = 0;
    void add(std::complex<double> z);
};
PhasorExtent phasor_chain_extent(const PhasorSum& sum, std::int64_t max_distance, int samples = 16);

// e^{iφ} of a fixed-point phase, as the naive modes would compute it for position m.
std::complex<double> naive_rotor(double radians_per_step, std::int64_t position, AngleMode mode);

// Rounds to the nearest bfloat16 (ties to even), returned as float.
float round_to_bf16(float x);

std::string_view to_string(AngleMode mode);
AngleMode parse_angle_mode(std::string_view name);  // throws InputError

}  // namespace ropelab
