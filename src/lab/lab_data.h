#pragma once
// What the views draw, derived from LabParams on the CPU (float64 core). GPU-side series live
// in LabCompute. Recomputed only when a field that affects the data changes (lab/schema.h).
#include <string>
#include <vector>

#include "core/frequencies.h"
#include "core/multi_axis.h"
#include "core/phasor_sum.h"
#include "core/scores.h"
#include "core/sinusoidal.h"
#include "state/params.h"

namespace ropelab {

struct LabData {
    RopeFrequencies freqs;
    std::vector<PairScaling> pair_scaling;
    double scaling_factor = 1.0;
    std::vector<double> q, k;  // head_dim components (the first sample for MeanOfRandom)
    ScoreCoefficients coefficients;
    PhasorSum rope_sum;        // query at N − 1, as the score plot reads it
    PhasorExtent phasor_extent;  // of rope_sum's chain over 0 .. N − 1: the phasor view's scale
    SinusoidalEncoding sinusoidal;
    PhasorSum sinusoidal_sum;  // query at N − 1
    // factor · B(Δ) bounds |score − passthrough| at every Δ (roformer_bound_factor).
    double bound_factor = 0.0;
    double unencoded = 0.0;  // q·k with no position encoding (unencoded_score)

    std::vector<double> invariance_positions, invariance_rope, invariance_sinusoidal;
    // |angle error| in rad vs position: the focused pair, and the worst pair for fp32.
    std::vector<double> precision_positions, naive_error, bf16_error, naive_error_worst;

    // Multi-axis models (empty for 1-D): per pair, the axis that turns it ('t', 'h', 'w', 'm' for
    // RoPE-Mixed) and its ω_j over (t, h, w), rad per position step (core/multi_axis.h).
    std::string pair_axes;
    std::vector<AxisVector> pair_omegas;
};

// A multi-axis pair's speed |ω_j| (the norm: RoPE-Mixed turns along a slanted direction) and
// its wavelength 2π/|ω_j| in tokens.
double pair_speed(const AxisVector& omega);
double pair_wavelength(const AxisVector& omega);

// One axis's pairs against the image: how many, their band of wavelengths, and how many turns the
// fastest and slowest make across the image's extent along that axis (extent / wavelength: a
// pair slower than one turn across the image cannot tell its ends apart by angle).
struct AxisBand {
    char axis = 't';
    int pairs = 0;
    double shortest = 0.0, longest = 0.0;  // wavelengths, tokens
    std::int64_t extent = 0;               // grid_frames, grid_height or grid_width (max of h, w for 'm')
    double fastest_turns = 0.0, slowest_turns = 0.0;
};
// The image's extent in tokens along an axis letter, from the grid fields.
std::int64_t axis_extent(const LabParams& p, char axis);
// In the order t, h, w, m; axes with no pairs left out. Empty for a 1-D model.
std::vector<AxisBand> axis_bands(const LabData& d, const LabParams& p);

// Throws InputError (naming the field) when custom vectors do not parse.
// `mean`: the coefficients of vectors = mean when already computed (lab/mean_coefficients.h);
// without it they are computed here.
LabData compute_lab_data(const LabParams& p, const ScoreCoefficients* mean = nullptr);

// The focused pair's series (the precision view) and the invariance view's (its Δ may be the
// linked key distance), recomputed alone when only the focus moves.
void refresh_focus(LabData& d, const LabParams& p);

// q and k as the vector choice makes them.
std::pair<std::vector<double>, std::vector<double>> lab_vectors(const LabParams& p, int head_dim,
                                                               int rotary_dim);

}  // namespace ropelab
