#include "lab/products/numbers.h"

#include <cmath>

#include "core/rotation.h"

namespace ropelab::lab::products {

NumbersInputs numbers_inputs(const LabParams& p, const LabData& d) {
    return {pair_data(d), d.freqs.unscaled_inv_freq, d.freqs.effective_theta, d.freqs.attention_factor, d.freqs.head_dim, p.position,
            p.focused_pair};
}

Numbers compute_numbers(const NumbersInputs& in) {
    const PairData& d = in.data;
    Numbers r;
    if (d.rotary_dim < 2) return r;
    r.pair = clamped_pair(in.focused_pair, d.rotary_dim / 2);
    const auto k = static_cast<std::size_t>(r.pair);
    r.theta = d.inv_freq[k];
    r.unscaled_theta = in.unscaled_inv_freq[k];
    r.base_theta = std::pow(in.effective_theta, -2.0 * r.pair / d.rotary_dim);
    r.m_theta = static_cast<double>(in.position) * r.theta;
    r.angle = phase_radians(phase_at(d.phase_step[k], in.position));
    r.attention = in.attention_factor;
    r.cos_a = r.attention * std::cos(r.angle);
    r.sin_a = r.attention * std::sin(r.angle);
    r.x = pair_value(d.q, r.pair, d.rotary_dim, d.layout);
    r.rotated = r.x * std::complex<double>(r.cos_a, r.sin_a);
    r.effective_theta = in.effective_theta;
    r.rotary_dim = d.rotary_dim;
    r.head_dim = in.head_dim;
    r.layout = d.layout;
    r.interleaved = pair_components(r.pair, d.rotary_dim, PairLayout::Interleaved);
    r.half = pair_components(r.pair, d.rotary_dim, PairLayout::Half);
    return r;
}

}  // namespace ropelab::lab::products
