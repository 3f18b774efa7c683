#pragma once
// The frequencies view's product: per pair its θ_i before and after scaling and its wavelength,
// and the token axis's unscaled wavelength of a (possibly fractional) pair index 2π·θ^(2p/d).
#include <vector>

#include "lab/lab_data.h"

namespace ropelab::lab::products {

struct Frequencies {
    double rope_theta = 0;
    int rotary_dim = 0;
    std::vector<double> inv_freq, unscaled_inv_freq, wavelength;
    // 2π·θ^(2p/rotary_dim): the unscaled wavelength of pair index p (YaRN's ramp ends are
    // fractional), in positions.
    double unscaled_wavelength(double pair) const;
};

struct FrequenciesInputs {
    double rope_theta = 0;
    int rotary_dim = 0;
    std::vector<double> inv_freq, unscaled_inv_freq;
    bool operator==(const FrequenciesInputs&) const = default;
};
FrequenciesInputs frequencies_inputs(const LabParams& p, const LabData& d);
Frequencies compute_frequencies_product(const FrequenciesInputs& in);

}  // namespace ropelab::lab::products
