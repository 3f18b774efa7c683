#include "lab/pair_maths.h"

#include <algorithm>
#include <cmath>

#include "core/phase.h"
#include "core/rotation.h"

namespace ropelab::lab {

PairRotation pair_rotation(const LabData& d, int pair, std::int64_t position) {
    const auto k = static_cast<std::size_t>(pair);
    PairRotation r;
    r.pair = pair;
    r.theta = d.freqs.inv_freq[k];
    r.unscaled_theta = d.freqs.unscaled_inv_freq[k];
    r.base_theta = std::pow(d.freqs.effective_theta, -2.0 * pair / d.freqs.rotary_dim);
    r.angle = phase_radians(phase_at(d.freqs.phase_step[k], position));
    r.attention = d.freqs.attention_factor;
    r.cos_a = r.attention * std::cos(r.angle);
    r.sin_a = r.attention * std::sin(r.angle);
    r.x = pair_value(d.q, pair, d.freqs.rotary_dim, d.freqs.layout);
    r.rotated = r.x * std::complex<double>(r.cos_a, r.sin_a);
    return r;
}

AdditionVsRotation addition_vs_rotation(const LabData& d, int pair, std::int64_t position) {
    AdditionVsRotation out;
    out.x = pair_value(d.q, pair, d.freqs.rotary_dim, d.freqs.layout);
    // p_m for the same pair index: (sin mω_i, cos mω_i) as Vaswani lays it out.
    const std::size_t t = std::min<std::size_t>(static_cast<std::size_t>(pair), d.sinusoidal.omega.size() - 1);
    const double w_angle = phase_radians(phase_at(d.sinusoidal.phase_step[t], position));
    out.p_m = std::complex<double>(std::sin(w_angle), std::cos(w_angle));
    out.added = out.x + out.p_m;
    out.rotated = out.x * pair_rotor(d.freqs, pair, position);
    return out;
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
