#include "token_positions.h"

#include "core/error.h"
#include "core/token_layout.h"

namespace ropelab::lab {

IdsRule chosen_rule(PositionRule rule, PositionIds ids) {
    switch (rule) {
        case PositionRule::V4: return IdsRule::V4;
        case PositionRule::V5: return IdsRule::V5;
        case PositionRule::Release: break;
    }
    return release_rule(ids);
}

TokenPositions compute_token_positions(const std::string& layout, PositionRule rule, const MultiAxis& axes) {
    TokenPositions out;
    out.rule = chosen_rule(rule, axes.position_ids);
    out.other = out.rule == IdsRule::V4 ? IdsRule::V5 : IdsRule::V4;
    out.one_d = axes.position_ids == PositionIds::None;
    try {
        const TokenLayout parsed = parse_token_layout(layout, axes.spatial_merge_size);
        out.ids = position_ids(parsed, axes, out.rule);
        out.other_ids = position_ids(parsed, axes, out.other);
    } catch (const InputError& e) {
        out.error = e.what();
        return out;
    }
    out.differ = ids_differ(out.ids, out.other_ids);
    out.overlap = ids_overlap(out.ids);
    for (bool d : out.differ) out.differing += d ? 1 : 0;
    for (bool o : out.overlap) out.overlapping += o ? 1 : 0;
    return out;
}

const TokenPositions& TokenPositionsCache::update(const LabParams& p) {
    const MultiAxis& axes = p.model.multi_axis;
    if (valid_ && p.tokens == tokens_ && p.position_rule == rule_ && axes == axes_) return positions_;
    positions_ = compute_token_positions(p.tokens, p.position_rule, axes);
    tokens_ = p.tokens;
    rule_ = p.position_rule;
    axes_ = axes;
    valid_ = true;
    ++computations_;
    return positions_;
}

}  // namespace ropelab::lab
