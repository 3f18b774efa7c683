#pragma once
// What the per-pair products read of a setting's data: its frequencies as exact phase steps, its
// layout and q, k. A product keyed on these recomputes only when they (or its own fields of the
// state) change.
#include <cstdint>
#include <vector>

#include "core/phase.h"
#include "lab/lab_data.h"

namespace ropelab::lab::products {

struct PairData {
    int rotary_dim = 0;
    PairLayout layout = PairLayout::Interleaved;
    std::vector<double> inv_freq;
    std::vector<PhaseStep> phase_step;
    std::vector<double> q, k;
    bool operator==(const PairData&) const = default;
};

inline PairData pair_data(const LabData& d) {
    return {d.freqs.rotary_dim, d.freqs.layout, d.freqs.inv_freq, d.freqs.phase_step, d.q, d.k};
}

// The focused pair as the views clamp it to the setting's pairs.
inline int clamped_pair(int focused, int pairs) { return focused < 0 ? 0 : focused >= pairs ? pairs - 1 : focused; }

}  // namespace ropelab::lab::products
