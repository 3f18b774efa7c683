#include "lab/products/pairing_strip.h"

#include <algorithm>
#include <cmath>

#include "core/rotation.h"
#include "lab/products/pair_inputs.h"

namespace ropelab::lab::products {

PairingStripInputs pairing_strip_inputs(const LabParams& p, const LabData& d) {
    return {d.freqs.rotary_dim, d.freqs.layout, d.q, p.focused_pair};
}

PairingStrip compute_pairing_strip(const PairingStripInputs& in) {
    PairingStrip out;
    out.dim = in.dim;
    out.layout = in.layout;
    const int pairs = in.dim / 2;
    out.focused = pairs > 0 ? clamped_pair(in.focused_pair, pairs) : 0;
    double largest = 0.0;
    for (int c = 0; c < in.dim; ++c) largest = std::max(largest, std::abs(in.q[static_cast<std::size_t>(c)]));
    for (int c = 0; c < in.dim; ++c) out.shade.push_back(largest > 0 ? std::abs(in.q[static_cast<std::size_t>(c)]) / largest : 0.0);
    for (const PairLayout l : {PairLayout::Interleaved, PairLayout::Half}) {
        auto& cells = out.components[l == PairLayout::Interleaved ? 0 : 1];
        for (int i = 0; i < pairs; ++i) cells.push_back(pair_components(i, in.dim, l));
    }
    return out;
}

}  // namespace ropelab::lab::products
