#pragma once
// The CPU fast path: the same work as the compute shaders in shaders/, vectorised and spread
// over all cores. It is the fallback when no compute-capable GL context exists and a second
// measurement beside the GPU core; both are checked against the float64 core.
#include <cstdint>
#include <span>
#include <vector>

#include "core/frequencies.h"
#include "core/phasor_sum.h"

namespace ropelab {

// score(Δ) for Δ = 0 .. count−1 in float32. Exact mode: blocks of 1024 distances, each anchored
// at an exact phase, then the Reinsch recurrence (core/recurrence.h) in 16 SIMD lanes.
std::vector<float> cpu_scores(const PhasorSum& sum, std::int64_t count, AngleMode mode);

// The same a slice at a time, for work spread over frames: score(first + j) into out[j].
// Exact mode: first is a multiple of cpu_slice_unit(mode), and out.size() too (whole blocks;
// values past the curve's end are computed and meaningless).
std::int64_t cpu_slice_unit(AngleMode mode);
void cpu_scores_into(const PhasorSum& sum, std::int64_t first, std::span<float> out, AngleMode mode);
void cpu_mode_error_into(const PhasorSum& sum, std::int64_t first, std::span<float> out, AngleMode mode);
// B(first + j) into out[j]; first and out.size() multiples of kCpuBoundBlock.
inline constexpr std::int64_t kCpuBoundBlock = 1024;
void cpu_decay_bound_into(const RopeFrequencies& freqs, std::int64_t first, std::span<float> out);

// naive(Δ) − exact(Δ) for a naive angle mode, summed term by term in float64 (the difference of
// two float sums would be mostly their rounding). Zero for the exact mode.
std::vector<float> cpu_mode_error(const PhasorSum& sum, std::int64_t count, AngleMode mode);
std::vector<double> cpu_mode_error_f64(const PhasorSum& sum, std::int64_t count, AngleMode mode);

// RoFormer's bound B(Δ) for Δ = 0 .. count−1 (float64 phasor recurrence, exact block anchors).
std::vector<float> cpu_decay_bound(const RopeFrequencies& freqs, std::int64_t count);
std::vector<double> cpu_decay_bound_f64(const RopeFrequencies& freqs, std::int64_t count);

// Rotation angle in radians, [−π, π), of every pair at positions first + r·stride, r < rows;
// row-major (rows × pairs).
std::vector<float> cpu_angle_heatmap(std::span<const PhaseStep> steps, std::int64_t first,
                                     std::int64_t stride, int rows);
// Compare mode: m·θ_a,i − m·θ_b,i reduced to (−π, π], exactly (fixed-point turns subtract
// modulo one turn); a and b have the same number of pairs.
std::vector<float> cpu_angle_difference_heatmap(std::span<const PhaseStep> a, std::span<const PhaseStep> b,
                                                std::int64_t first, std::int64_t stride, int rows);

}  // namespace ropelab
