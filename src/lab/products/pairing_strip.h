#pragma once
// The pairing strip's product (under the numbers view): the rotary components of q as cells,
// shaded by |q_c| against the largest, and which two components make each pair in both layouts.
#include <array>
#include <utility>
#include <vector>

#include "lab/lab_data.h"

namespace ropelab::lab::products {

struct PairingStrip {
    int dim = 0;      // rotary components
    int focused = 0;  // the focused pair, clamped
    PairLayout layout = PairLayout::Interleaved;  // the model's
    std::vector<double> shade;  // per component: |q_c| / max |q|, 0 when q is all zero
    // Per layout (Interleaved, Half): each pair's two components.
    std::array<std::vector<std::pair<int, int>>, 2> components;
    const std::vector<std::pair<int, int>>& of(PairLayout l) const { return components[l == PairLayout::Interleaved ? 0 : 1]; }
};

struct PairingStripInputs {
    int dim = 0;
    PairLayout layout = PairLayout::Interleaved;
    std::vector<double> q;
    int focused_pair = 0;
    bool operator==(const PairingStripInputs&) const = default;
};
PairingStripInputs pairing_strip_inputs(const LabParams& p, const LabData& d);
PairingStrip compute_pairing_strip(const PairingStripInputs& in);

}  // namespace ropelab::lab::products
