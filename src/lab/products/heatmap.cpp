#include "lab/products/heatmap.h"

#include <algorithm>

namespace ropelab::lab::products {

HeatmapInputs heatmap_inputs(const LabParams& p, const LabData& base, const LabData* other) {
    return {base.freqs.phase_step, other ? other->freqs.phase_step : std::vector<PhaseStep>{}, p.position};
}

double Heatmap::cell_degrees(int pair, std::int64_t m) const {
    const auto k = static_cast<std::size_t>(pair);
    if (k >= steps.base.size()) return 0.0;
    if (steps.other.empty()) return phase_degrees(phase_at(steps.base[k], m));
    // A compared setting with fewer pairs: its last pair (as the texture's).
    const PhaseStep other = steps.other[std::min(k, steps.other.size() - 1)];
    return phase_degrees(phase_at(steps.base[k], m) - phase_at(other, m));
}

Heatmap compute_heatmap(const HeatmapInputs& in) {
    Heatmap out{in, {}};
    for (std::size_t i = 0; i < in.base.size(); ++i) out.row.push_back(out.cell_degrees(static_cast<int>(i), in.position));
    return out;
}

}  // namespace ropelab::lab::products
