#pragma once
// The token layout's (t, h, w) ids under the chosen rule and under the other one, for the panel's
// token strip and the positions command. Recomputed only when the layout, the rule or the
// model's multi-axis settings change.
#include <string>
#include <vector>

#include "core/model_config.h"
#include "core/position_ids.h"
#include "state/params.h"

namespace ropelab::lab {

// The rule a state asks for: release is the model's own (core/position_ids.h, release_rule).
IdsRule chosen_rule(PositionRule rule, PositionIds ids);

struct TokenPositions {
    IdsRule rule = IdsRule::V4;      // the chosen rule
    IdsRule other = IdsRule::V5;     // the other one
    TokenIds ids, other_ids;
    std::vector<bool> differ;        // ids under the two rules differ
    std::vector<bool> overlap;       // under the chosen rule (ids_overlap)
    int differing = 0, overlapping = 0;
    bool one_d = true;               // PositionIds::None: t = h = w = the token's index
    std::string error;               // a layout the core refused (the schema refuses it first)
};

TokenPositions compute_token_positions(const std::string& layout, PositionRule rule, const MultiAxis& axes);

// Keeps TokenPositions in step with LabParams: recomputed only when its inputs change.
class TokenPositionsCache {
public:
    const TokenPositions& update(const LabParams& p);
    const TokenPositions& get() const { return positions_; }
    int computations() const { return computations_; }

private:
    bool valid_ = false;
    std::string tokens_;
    PositionRule rule_ = PositionRule::Release;
    MultiAxis axes_;
    TokenPositions positions_;
    int computations_ = 0;
};

}  // namespace ropelab::lab
