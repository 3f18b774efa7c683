#include "lab/products/contrast.h"

#include <algorithm>
#include <cmath>

#include "core/rotation.h"

namespace ropelab::lab::products {

ContrastInputs contrast_inputs(const LabParams& p, const LabData& d) {
    return {pair_data(d), d.sinusoidal.phase_step, p.position, p.focused_pair};
}

Contrast compute_contrast(const ContrastInputs& in) {
    const PairData& d = in.data;
    Contrast out;
    if (d.rotary_dim < 2 || in.sinusoidal_step.empty()) return out;
    out.pair = clamped_pair(in.focused_pair, d.rotary_dim / 2);
    out.x = pair_value(d.q, out.pair, d.rotary_dim, d.layout);
    // p_m for the same pair index: (sin mω_i, cos mω_i) as Vaswani lays it out.
    const std::size_t t = std::min<std::size_t>(static_cast<std::size_t>(out.pair), in.sinusoidal_step.size() - 1);
    const double w = phase_radians(phase_at(in.sinusoidal_step[t], in.position));
    out.p_m = {std::sin(w), std::cos(w)};
    out.added = out.x + out.p_m;
    const double angle = phase_radians(phase_at(d.phase_step[static_cast<std::size_t>(out.pair)], in.position));
    out.rotated = out.x * std::complex<double>(std::cos(angle), std::sin(angle));
    return out;
}

}  // namespace ropelab::lab::products
