#include "lab/products/frequencies.h"

#include <cmath>

#include "core/frequencies.h"
#include "core/phase.h"

namespace ropelab::lab::products {

double Frequencies::unscaled_wavelength(double pair) const { return kTwoPi * std::pow(rope_theta, 2.0 * pair / rotary_dim); }

FrequenciesInputs frequencies_inputs(const LabParams& p, const LabData& d) {
    return {p.model.rope_theta, d.freqs.rotary_dim, d.freqs.inv_freq, d.freqs.unscaled_inv_freq};
}

Frequencies compute_frequencies_product(const FrequenciesInputs& in) {
    Frequencies out{in.rope_theta, in.rotary_dim, in.inv_freq, in.unscaled_inv_freq, {}};
    for (const double f : in.inv_freq) out.wavelength.push_back(wavelength(f));
    return out;
}

}  // namespace ropelab::lab::products
