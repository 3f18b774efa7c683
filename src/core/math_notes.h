#pragma once
// Where the numbers on screen stop meaning what they usually mean: a frequency ladder that has
// collapsed (θ near 1), pairs that never turn, neighbouring tokens that no pair tells apart,
// positions float32 cannot hold, heatmap rows too far apart for the fast pairs. The lab lists
// these beside the controls and exports carry them, so a strange curve comes with its reason.
#include <cstdint>
#include <string>
#include <vector>

#include "core/frequencies.h"
#include "core/phasor_sum.h"

namespace ropelab {

struct MathNote {
    // True where the math itself degenerates (the plot is flat, periodic or noise); false for
    // a property of the settings worth knowing (some pairs do not turn over this range).
    bool degenerate = false;
    std::string summary;  // one line
    std::string detail;   // the numbers behind it
};

struct NoteInputs {
    std::int64_t max_distance = 4096;  // N: the score plot's distances 0 .. N − 1
    std::int64_t position = 0;         // m: the query position the planes and heatmap show
    AngleMode mode = AngleMode::Exact;
    std::int64_t heatmap_stride = 1;   // positions between heatmap rows
};

// Below this many radians across a whole range a pair "does not turn".
inline constexpr double kStillRadians = 0.01;

std::vector<MathNote> math_notes(const RopeFrequencies& freqs, const NoteInputs& in);

}  // namespace ropelab
