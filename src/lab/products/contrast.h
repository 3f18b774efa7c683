#pragma once
// The contrast view's product: the focused pair of q at m with Vaswani's p_m added, beside the
// same pair rotated by m·θ_i.
#include <complex>
#include <cstdint>
#include <vector>

#include "lab/products/pair_inputs.h"

namespace ropelab::lab::products {

struct Contrast {
    int pair = 0;
    std::complex<double> x, p_m, added, rotated;  // x, p_m, x + p_m, R(m·θ_i) x
};

struct ContrastInputs {
    PairData data;
    std::vector<PhaseStep> sinusoidal_step;  // ω_t of the sinusoidal encoding
    std::int64_t position = 0;
    int focused_pair = 0;
    bool operator==(const ContrastInputs&) const = default;
};
ContrastInputs contrast_inputs(const LabParams& p, const LabData& d);
Contrast compute_contrast(const ContrastInputs& in);

}  // namespace ropelab::lab::products
