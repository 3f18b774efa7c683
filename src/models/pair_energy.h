#pragma once
// Which rotary pairs each head uses, from the weights alone: for pair i of head h, the energy of
// the rows of W_q that produce its two components, ‖W_q,(h,i)‖ = sqrt(‖row_a‖² + ‖row_b‖²) (the
// Frobenius norm of that 2 × d_model block), and the same for W_k. For unit inputs x, y the pair's
// part of q·k is at most ‖W_q,(h,i)‖·‖W_k,(g,i)‖ (Cauchy–Schwarz on the 2-vectors, each bounded by
// its block's spectral norm ≤ Frobenius norm), g the key head that q head h reads (GQA:
// g = h / (q_heads / kv_heads)). A weight-only proxy for Barbero et al. 2024's measurement on
// activations ("Round and Round We Go!").
#include <atomic>
#include <functional>
#include <vector>

#include "models/model_weights.h"

namespace ropelab::models {

struct PairEnergies {
    int layer = 0;
    int q_heads = 0, kv_heads = 0, pairs = 0;
    std::vector<double> q;  // q[h·pairs + i]
    std::vector<double> k;  // k[g·pairs + i]
    int kv_head_of(int q_head) const { return q_head / (q_heads / kv_heads); }
    double q_energy(int h, int i) const { return q[static_cast<std::size_t>(h * pairs + i)]; }
    double k_energy(int g, int i) const { return k[static_cast<std::size_t>(g * pairs + i)]; }
    // The bound on pair i's share of head h's q·k for unit inputs.
    double product(int h, int i) const { return q_energy(h, i) * k_energy(kv_head_of(h), i); }
};

// Computes one layer's energies (float64 sums over dequantised rows). `progress` gets the
// fraction done; `cancel` stops early (the result is then empty: pairs == 0).
PairEnergies pair_energies(const AttentionWeights& weights, const std::function<void(double)>& progress = {},
                           const std::atomic<bool>* cancel = nullptr);

}  // namespace ropelab::models
