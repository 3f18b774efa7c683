#pragma once
// The numbers view's product: one rotation of the focused pair at m worked out with exact
// numbers (θ_i, m·θ_i reduced exactly, cos and sin as HF applies them, q's pair before and after).
#include <complex>
#include <cstdint>
#include <utility>
#include <vector>

#include "lab/products/pair_inputs.h"

namespace ropelab::lab::products {

struct Numbers {
    int pair = 0;
    double theta = 0;           // θ_i after scaling, rad per position
    double unscaled_theta = 0;  // before scaling
    double base_theta = 0;      // effective_theta^(−2i/rotary_dim): the textbook formula
    double m_theta = 0;         // m·θ_i, unreduced (as a float64 product)
    double angle = 0;           // m·θ_i reduced exactly to [−π, π)
    double attention = 1;       // a, HF's attention factor
    double cos_a = 1, sin_a = 0;  // a·cos, a·sin
    std::complex<double> x, rotated;  // q's pair before and after
    double effective_theta = 0;  // the base actually used
    int rotary_dim = 0, head_dim = 0;
    PairLayout layout = PairLayout::Interleaved;  // the model's
    std::pair<int, int> interleaved, half;  // the pair's two components in each layout
};

struct NumbersInputs {
    PairData data;
    std::vector<double> unscaled_inv_freq;
    double effective_theta = 0, attention_factor = 1;
    int head_dim = 0;
    std::int64_t position = 0;
    int focused_pair = 0;
    bool operator==(const NumbersInputs&) const = default;
};
NumbersInputs numbers_inputs(const LabParams& p, const LabData& d);
Numbers compute_numbers(const NumbersInputs& in);

}  // namespace ropelab::lab::products
