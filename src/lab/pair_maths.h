#pragma once
// One pair's numbers for callers outside the views (the views read lab/frame.h's products): its
// rotation at a position and addition beside rotation (the numbers and contrast products' own
// computations), the rotor that glides between whole positions, a pair's exact angle, and a
// fractional pair's unscaled wavelength.
#include <complex>
#include <cstdint>

#include "core/frequencies.h"
#include "lab/lab_data.h"

namespace ropelab::lab {

// Pair i of q turned to position m exactly, as HF applies it (cos and sin times the attention factor).
struct PairRotation {
    int pair = 0;
    double theta = 0;           // θ_i after scaling, rad per position
    double unscaled_theta = 0;  // before scaling
    double base_theta = 0;      // effective_theta^(−2i/rotary_dim): the textbook formula
    double angle = 0;           // m·θ_i reduced exactly to [−π, π)
    double attention = 1;       // a, HF's attention factor
    double cos_a = 1, sin_a = 0;  // a·cos, a·sin
    std::complex<double> x, rotated;  // q's pair before and after
};
PairRotation pair_rotation(const LabData& d, int pair, std::int64_t position);

// q's pair with Vaswani's p_m added (the same pair index) against the same pair rotated.
struct AdditionVsRotation {
    std::complex<double> x, p_m, added, rotated;
};
AdditionVsRotation addition_vs_rotation(const LabData& d, int pair, std::int64_t position);

// Pair j's rotation at position m + f, 0 ≤ f < 1: the exact rotor at m turned on by f·θ_j, so
// the planes glide between whole positions while playing (the readouts stay at m).
std::complex<double> gliding_rotor(const RopeFrequencies& freqs, int j, std::int64_t m, double f);

// Pair i's angle at position m in degrees, (−180, 180], exact (the 64-bit phase step); and the
// difference of two settings' angles for the same pair and position, exact as the heatmap's.
double angle_degrees(const RopeFrequencies& freqs, int pair, std::int64_t position);
double angle_difference_degrees(const RopeFrequencies& a, const RopeFrequencies& b, int pair, std::int64_t position);

// 2π·θ^(2p/rotary_dim): the unscaled wavelength of a pair index p, which may be fractional
// (YaRN's ramp ends), in positions.
double unscaled_wavelength(double theta, double pair, int rotary_dim);

}  // namespace ropelab::lab
