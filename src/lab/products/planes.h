#pragma once
// The planes view's product: every pair's q at m and k at n = m − Δk, turned exactly, the angles
// the view reads out, and the focused pair's trail of q at m − 1 … m − kTrail.
#include <array>
#include <complex>
#include <cstdint>
#include <vector>

#include "lab/products/pair_inputs.h"

namespace ropelab::lab::products {

struct PlanePair {
    double theta = 0;       // θ_j, rad per position
    double wavelength = 0;  // 2π/θ_j, positions
    double angle_at_m = 0;  // m·θ_j in degrees, (−180, 180]
    double angle_between = 0;  // (m − n)·θ_j = Δk·θ_j in degrees
    std::complex<double> q, k;        // the pair of q and of k, unrotated
    std::complex<double> q_at_m, k_at_n;  // R(m·θ_j) q and R(n·θ_j) k
};

inline constexpr int kTrail = 24;

struct Planes {
    std::vector<PlanePair> pairs;
    int focused = 0;     // the focused pair, clamped to the pairs
    double scale = 1.0;  // max(|q|, |k|) of the focused pair (1e-12 at least): the focused plane's radius
    std::array<std::complex<double>, kTrail> trail{};  // the focused pair's q at m − 1 … m − kTrail
};

struct PlanesInputs {
    PairData data;
    std::int64_t position = 0, key_distance = 0;
    int focused_pair = 0;
    bool operator==(const PlanesInputs&) const = default;
};
PlanesInputs planes_inputs(const LabParams& p, const LabData& d);
Planes compute_planes(const PlanesInputs& in);

}  // namespace ropelab::lab::products
