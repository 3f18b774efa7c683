#include "lab/products/planes.h"

#include <algorithm>
#include <cmath>

#include "core/rotation.h"

namespace ropelab::lab::products {

namespace {

// R(m·θ_j) as a unit complex number, from the exact 64-bit phase.
std::complex<double> rotor(PhaseStep step, std::int64_t m) {
    const double angle = phase_radians(phase_at(step, m));
    return {std::cos(angle), std::sin(angle)};
}

}  // namespace

PlanesInputs planes_inputs(const LabParams& p, const LabData& d) { return {pair_data(d), p.position, p.key_distance, p.focused_pair}; }

Planes compute_planes(const PlanesInputs& in) {
    const PairData& d = in.data;
    const int pairs = d.rotary_dim / 2;
    Planes out;
    const std::int64_t n = in.position - in.key_distance;
    for (int j = 0; j < pairs; ++j) {
        const auto s = d.phase_step[static_cast<std::size_t>(j)];
        PlanePair pp;
        pp.theta = d.inv_freq[static_cast<std::size_t>(j)];
        pp.wavelength = wavelength(pp.theta);
        pp.angle_at_m = phase_degrees(phase_at(s, in.position));
        pp.angle_between = phase_degrees(phase_at(s, in.key_distance));
        pp.q = pair_value(d.q, j, d.rotary_dim, d.layout);
        pp.k = pair_value(d.k, j, d.rotary_dim, d.layout);
        pp.q_at_m = pp.q * rotor(s, in.position);
        pp.k_at_n = pp.k * rotor(s, n);
        out.pairs.push_back(pp);
    }
    if (pairs == 0) return out;
    out.focused = clamped_pair(in.focused_pair, pairs);
    const PlanePair& f = out.pairs[static_cast<std::size_t>(out.focused)];
    out.scale = std::max({std::abs(f.q), std::abs(f.k), 1e-12});
    const auto step = d.phase_step[static_cast<std::size_t>(out.focused)];
    for (int t = 1; t <= kTrail; ++t) out.trail[static_cast<std::size_t>(t - 1)] = f.q * rotor(step, in.position - t);
    return out;
}

}  // namespace ropelab::lab::products
