#include "core/grid_scores.h"

#include <algorithm>
#include <cmath>
#include <complex>

#include "core/parallel.h"

namespace ropelab {

std::vector<AxisVector> grid_frequency_vectors(const ModelConfig& config, const RopeFrequencies& freqs,
                                               const GridSize& size) {
    if (is_multi_axis(config)) return pair_frequency_vectors(config, freqs);
    // Raster order: position = t·H·W + h·W + w.
    const double per_frame = static_cast<double>(size.height * size.width);
    const double per_row = static_cast<double>(size.width);
    std::vector<AxisVector> out;
    for (double f : freqs.inv_freq) out.push_back({f * per_frame, f * per_row, f});
    return out;
}

double grid_score(const ScoreCoefficients& c, const std::vector<AxisVector>& omega, const AxisVector& delta) {
    double sum = c.passthrough;
    for (std::size_t j = 0; j < omega.size() && j < c.pair.size(); ++j) {
        sum += (c.pair[j] * std::polar(1.0, axis_angle(omega[j], delta))).real();
    }
    return sum;
}

namespace {

// One row of Δw at fixed (Δt, Δh): anchor every pair's phasor at the row's first Δw from its
// exact angle, then step it by e^{iω_w}. The error grows by about one rounding per step, so a
// row of 2047 stays near 1e-13·l1.
void grid_row(const ScoreCoefficients& c, const std::vector<AxisVector>& omega, const GridSize& size,
              std::int64_t dt, std::int64_t dh, double* out) {
    const std::size_t pairs = std::min(omega.size(), c.pair.size());
    const std::int64_t first = -(size.width - 1), count = size.offsets_w();
    for (std::int64_t i = 0; i < count; ++i) out[i] = c.passthrough;
    for (std::size_t j = 0; j < pairs; ++j) {
        const AxisVector start{static_cast<double>(dt), static_cast<double>(dh), static_cast<double>(first)};
        std::complex<double> z = c.pair[j] * std::polar(1.0, axis_angle(omega[j], start));
        const std::complex<double> step = std::polar(1.0, omega[j][2]);
        for (std::int64_t i = 0; i < count; ++i) {
            out[i] += z.real();
            z *= step;
        }
    }
}

}  // namespace

GridSlice grid_slice(const ScoreCoefficients& c, const std::vector<AxisVector>& omega, const GridSize& size,
                     std::int64_t dt, bool spread) {
    GridSlice slice{size, dt, std::vector<double>(static_cast<std::size_t>(size.offsets_h() * size.offsets_w()))};
    const auto rows = [&](std::int64_t from, std::int64_t to) { grid_slice_rows(c, omega, slice, from, to); };
    if (spread) parallel_for(size.offsets_h(), rows);
    else rows(0, size.offsets_h());
    return slice;
}

void grid_slice_rows(const ScoreCoefficients& c, const std::vector<AxisVector>& omega, GridSlice& slice, std::int64_t from,
                     std::int64_t to) {
    for (std::int64_t row = from; row < to; ++row) {
        grid_row(c, omega, slice.size, slice.dt, row - (slice.size.height - 1), slice.values.data() + row * slice.size.offsets_w());
    }
}

std::vector<GridSlice> grid_scores(const ScoreCoefficients& c, const std::vector<AxisVector>& omega,
                                   const GridSize& size) {
    std::vector<GridSlice> out;
    for (std::int64_t dt = -(size.frames - 1); dt <= size.frames - 1; ++dt) out.push_back(grid_slice(c, omega, size, dt));
    return out;
}

}  // namespace ropelab
