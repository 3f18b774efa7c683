#include "lab/products/phasors.h"

#include <cmath>

namespace ropelab::lab::products {

PhasorsInputs phasors_inputs(const LabParams& p, const LabData& d) {
    return {d.rope_sum.coefficient, d.rope_sum.step, d.rope_sum.constant, d.phasor_extent, p.key_distance};
}

Phasors compute_phasors(const PhasorsInputs& in) {
    PhasorSum sum;
    sum.coefficient = in.coefficient;
    sum.step = in.step;
    sum.constant = in.constant;
    Phasors out;
    out.chain = phasor_chain(sum, in.delta);
    out.score = out.chain.empty() ? 0.0 : out.chain.back().real();
    for (std::size_t i = 0; i < sum.coefficient.size(); ++i) {
        const std::complex<double> c = sum.coefficient[i];
        out.length.push_back(std::abs(c));
        out.turned.push_back(std::abs(c) > 0 ? std::arg(phasor(sum, i, in.delta) / c) : 0.0);
    }
    out.box = in.extent;
    out.box.add({0.0, 0.0});
    for (const auto& z : out.chain) out.box.add(z);
    return out;
}

}  // namespace ropelab::lab::products
