#include "lab/pair_maths.h"

#include <algorithm>
#include <cmath>

#include "core/phase.h"
#include "core/rotation.h"
#include "lab/products/contrast.h"
#include "lab/products/numbers.h"

namespace ropelab::lab {

// The numbers and contrast products' own computations (lab/products/), for one pair of a setting.
PairRotation pair_rotation(const LabData& d, int pair, std::int64_t position) {
    LabParams p;
    p.focused_pair = pair;
    p.position = position;
    const products::Numbers n = products::compute_numbers(products::numbers_inputs(p, d));
    return {n.pair, n.theta, n.unscaled_theta, n.base_theta, n.angle, n.attention, n.cos_a, n.sin_a, n.x, n.rotated};
}

AdditionVsRotation addition_vs_rotation(const LabData& d, int pair, std::int64_t position) {
    LabParams p;
    p.focused_pair = pair;
    p.position = position;
    const products::Contrast c = products::compute_contrast(products::contrast_inputs(p, d));
    return {c.x, c.p_m, c.added, c.rotated};
}

std::complex<double> gliding_rotor(const RopeFrequencies& freqs, int j, std::int64_t m, double f) {
    const auto at_m = pair_rotor(freqs, j, m);
    return f == 0.0 ? at_m : at_m * std::polar(1.0, f * freqs.inv_freq[static_cast<std::size_t>(j)]);
}

double angle_degrees(const RopeFrequencies& freqs, int pair, std::int64_t position) {
    return phase_degrees(phase_at(freqs.phase_step[static_cast<std::size_t>(pair)], position));
}

double angle_difference_degrees(const RopeFrequencies& a, const RopeFrequencies& b, int pair, std::int64_t position) {
    const auto k = static_cast<std::size_t>(pair);
    return phase_degrees(phase_at(a.phase_step[k], position) - phase_at(b.phase_step[k], position));
}

double unscaled_wavelength(double theta, double pair, int rotary_dim) {
    return kTwoPi * std::pow(theta, 2.0 * pair / rotary_dim);
}

}  // namespace ropelab::lab
