#pragma once
// The phasor view's product at Δ = the key distance: the chain of c_i·e^{iΔθ_i} laid head to
// tail (its last point's real part is the score at Δ), each pair's length and turn, and the box
// the chain fills over 0 .. N − 1 (the view's scale, so the picture holds still as Δ sweeps).
#include <complex>
#include <cstdint>
#include <vector>

#include "core/phasor_sum.h"
#include "lab/lab_data.h"

namespace ropelab::lab::products {

struct Phasors {
    // Point 0: the pass-through (unrotated) part on the real axis; point i + 1: the running sum
    // after pair i (exact angles).
    std::vector<std::complex<double>> chain;
    double score = 0;  // Re of the chain's end: the score at Δ
    std::vector<double> length;  // |c_i|
    std::vector<double> turned;  // Δθ_i reduced to (−π, π], rad
    PhasorExtent box;            // the chain's extent over 0 .. N − 1, and the chain now
};

struct PhasorsInputs {
    std::vector<std::complex<double>> coefficient;
    std::vector<PhaseStep> step;
    double constant = 0;
    PhasorExtent extent;
    std::int64_t delta = 0;
    bool operator==(const PhasorsInputs& o) const {
        return coefficient == o.coefficient && step == o.step && constant == o.constant && delta == o.delta &&
               extent.min_re == o.extent.min_re && extent.max_re == o.extent.max_re && extent.min_im == o.extent.min_im &&
               extent.max_im == o.extent.max_im;
    }
};
PhasorsInputs phasors_inputs(const LabParams& p, const LabData& d);
Phasors compute_phasors(const PhasorsInputs& in);

}  // namespace ropelab::lab::products
