#pragma once
// The heatmap view's product: every pair's angle at m in degrees (the plot under the heatmap),
// or with a compared setting K, the base's angle minus K's, exact as the texture's; and the
// same for any cell under the pointer.
#include <cstdint>
#include <vector>

#include "core/phase.h"
#include "lab/lab_data.h"

namespace ropelab::lab::products {

struct HeatmapInputs {
    std::vector<PhaseStep> base, other;  // other: setting K's steps, empty without a difference
    std::int64_t position = 0;
    bool operator==(const HeatmapInputs&) const = default;
};

struct Heatmap {
    HeatmapInputs steps;
    std::vector<double> row;  // pair i's angle (or difference) at m, degrees in (−180, 180]
    // The cell (m, pair) as the tooltip shows it, exact: the angle, or the difference.
    double cell_degrees(int pair, std::int64_t m) const;
};

// `other`: the compared setting's data when the heatmap shows a difference, else null.
HeatmapInputs heatmap_inputs(const LabParams& p, const LabData& base, const LabData* other);
Heatmap compute_heatmap(const HeatmapInputs& in);

}  // namespace ropelab::lab::products
