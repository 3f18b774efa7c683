#pragma once
// Scores over an image: score(Δ) for every offset Δ = (Δt, Δh, Δw) between two tokens of a
// T×H×W grid of image tokens (position-id steps after the spatial merge).
//
//   score(Δ) = passthrough + Re Σ_j c_j · e^{i ω_j·Δ}
//
// with c_j the ScoreCoefficients of core/scores.h and ω_j the pair's frequency vector over
// (t, h, w) (core/multi_axis.h). Offsets run Δt ∈ [−(T−1), T−1], Δh ∈ [−(H−1), H−1],
// Δw ∈ [−(W−1), W−1].
#include <cstdint>
#include <vector>

#include "core/multi_axis.h"
#include "core/scores.h"

namespace ropelab {

struct GridSize {
    std::int64_t frames = 1, height = 16, width = 16;  // T, H, W in tokens
    bool operator==(const GridSize&) const = default;
    std::int64_t offsets_t() const { return 2 * frames - 1; }
    std::int64_t offsets_h() const { return 2 * height - 1; }
    std::int64_t offsets_w() const { return 2 * width - 1; }
    std::int64_t offsets() const { return offsets_t() * offsets_h() * offsets_w(); }
};

// ω_j over (t, h, w) for the tokens of this grid. A multi-axis model's are its own; a 1-D model
// numbers the image's tokens one up in raster order (t, then h, then w), so a step in w is one
// position, a step in h is W, a step in t is H·W: ω_j = f_j · (H·W, W, 1).
std::vector<AxisVector> grid_frequency_vectors(const ModelConfig& config, const RopeFrequencies& freqs,
                                               const GridSize& size);

// One offset, from the exact angles ω_j·Δ (the reference the fast grid is checked against).
double grid_score(const ScoreCoefficients& c, const std::vector<AxisVector>& omega, const AxisVector& delta);

// The scores at Δt = dt for every (Δh, Δw): row-major over Δh = −(H−1) … H−1, then
// Δw = −(W−1) … W−1, (2H−1)·(2W−1) values.
struct GridSlice {
    GridSize size;
    std::int64_t dt = 0;
    std::vector<double> values;
    double at(std::int64_t dh, std::int64_t dw) const {
        return values[static_cast<std::size_t>((dh + size.height - 1) * size.offsets_w() + dw + size.width - 1)];
    }
};

// Fast: along each row of Δw the phasors advance by e^{iω_j,w} (one complex multiply per pair
// and offset), each row re-anchored from exact angles, rows spread over the cores. Within
// 1e-9·l1 of grid_score for every side up to 1024.
// `spread` false: every row on the calling thread (a worker that must not hold parallel_for).
GridSlice grid_slice(const ScoreCoefficients& c, const std::vector<AxisVector>& omega, const GridSize& size,
                     std::int64_t dt, bool spread = true);

// Rows [from, to) of slice (row r is Δh = r − (H−1)) into slice.values, sized already: for
// callers that spread rows over threads of their own.
void grid_slice_rows(const ScoreCoefficients& c, const std::vector<AxisVector>& omega, GridSlice& slice, std::int64_t from,
                     std::int64_t to);

// Every offset of the grid: slices for Δt = −(T−1) … T−1 one after another.
std::vector<GridSlice> grid_scores(const ScoreCoefficients& c, const std::vector<AxisVector>& omega,
                                   const GridSize& size);

}  // namespace ropelab
