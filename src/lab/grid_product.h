#pragma once
// The grid view's product: score(query, key) over the image's offsets at the key frame
// (core/grid_scores.h), for the base and each compared setting. Computed off the frame on a
// worker thread when its inputs (each setting's coefficients and frequency vectors, the image's
// size, the frame offset) change; what is shown stays until the new grids are whole.
#include <algorithm>
#include <cstdint>
#include <future>
#include <string>
#include <vector>

#include "core/grid_scores.h"
#include "lab/lab_compute.h"
#include "state/params.h"

namespace ropelab::lab {

struct GridSetting {
    GridSlice slice;             // Δt = −frame offset (Δ = query − key); every (Δh, Δw) of the image
    bool raster = false;         // a 1-D model: the image's tokens in raster order
    std::string rule;            // "sections", "interleaved", …, "1-D raster"
    // Text tokens (equal t, h, w ids): score vs Δ for Δ = 0 … 4·max(H, W), at most 512 — every
    // whole Δ, since a strided curve would alias the fast pairs.
    std::vector<double> text_curve;
};

class GridProduct {
public:
    // Starts the work the parameters need (at most one worker at a time; the newest inputs win),
    // and takes a finished worker's grids. `wait`: compute before returning (exports, renders).
    void update(const LabParams& p, const LabCompute& compute, bool wait);
    const std::vector<GridSetting>& settings() const { return shown_; }
    // The shown grids are of the current inputs.
    bool current() const { return !shown_key_.empty() && shown_key_ == wanted_key_; }
    int computations() const { return computations_; }
    double last_ms() const { return last_ms_; }
    // The last worker ran out of memory (its grids are empty): what the view and renders say.
    const std::string& error() const { return error_; }

private:
    struct Work {
        std::string key;
        std::vector<ScoreCoefficients> coefficients;
        std::vector<std::vector<AxisVector>> omega;
        std::vector<RopeFrequencies> freqs;
        std::vector<GridSetting> settings;  // slices to fill
    };
    static std::vector<GridSetting> run(Work work, double* ms);
    void take_finished();

    std::string shown_key_, wanted_key_, running_key_;
    std::vector<GridSetting> shown_;
    std::string error_;
    std::future<std::vector<GridSetting>> worker_;
    double worker_ms_ = 0.0, last_ms_ = 0.0;
    int computations_ = 0;
};

// How far the text curve beside the heatmap reaches: Δ = 0 … this.
inline std::int64_t text_curve_reach(const LabParams& p) { return std::min<std::int64_t>(4 * std::max(p.grid_height, p.grid_width), 512); }

// The rule's name as the grid view titles a setting: sections (chunked), interleaved, axial,
// even-odd, mixed, 1-D raster.
std::string grid_rule_name(const ModelConfig& m);

}  // namespace ropelab::lab
