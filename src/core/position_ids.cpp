#include "position_ids.h"

#include <algorithm>
#include <cmath>

namespace ropelab {

// Follows get_rope_index in transformers' src/transformers/models/{qwen2_vl,qwen2_5_vl,qwen3_vl}/
// modeling_*.py. In both versions <vision_start> and <vision_end> are ordinary text tokens, and
// a text run counts one up from where the previous block left off.
//
// 4.x (e.g. commit 00b676f8 of modeling_qwen2_vl.py; Qwen2.5-VL as released in 4.49): a vision
// block starts at s = (largest id so far) + 1, its token (i, r, c) gets (s + t_i, s + r, s + c),
// and the next text starts at the block's largest id + 1. Qwen2.5-VL's t_i is
// long(i · second_per_grid_t · tokens_per_second), with second_per_grid_t = 0 for images and 1.0
// for a video without second_per_grid_ts. (Later 4.x releases cast second_per_grid_t to an
// integer tensor first, as 5.x does; the released rule is what V4 follows.)
//
// 5.x (the refactored get_rope_index over mm_token_type_ids and get_vision_position_ids): a
// block at s gets (s + long(i · interval), s + r, s + c) with interval = tokens_per_second ·
// int(second_per_grid_t) for a Qwen2.5-VL video and 1 otherwise, and the next text starts at
// s + max(H, W)/merge, whatever the t ids reached.
//
// Qwen3-VL's processor splits a video into its frames, each between its own <vision_start> and
// <vision_end> with a timestamp text such as "<0.5 seconds>" before it; get_rope_index splits
// video_grid_thw the same way (T rows of 1×H×W), so each frame is placed like an image. The
// timestamp text is left out here: its length depends on the tokenizer.

IdsRule release_rule(PositionIds) { return IdsRule::V4; }

std::string_view to_string(IdsRule rule) { return rule == IdsRule::V4 ? "4.x" : "5.x"; }

std::string_view to_string(TokenKind kind) {
    switch (kind) {
        case TokenKind::Text: return "text";
        case TokenKind::VisionStart: return "vision_start";
        case TokenKind::Image: return "image";
        case TokenKind::Video: return "video";
        case TokenKind::VisionEnd: return "vision_end";
    }
    return "?";
}

namespace {

struct Builder {
    TokenIds ids;
    std::int64_t next = 0;  // the id the next text token gets

    void push(TokenKind kind, int part, std::int64_t t, std::int64_t h, std::int64_t w) {
        ids.kind.push_back(kind);
        ids.part.push_back(part);
        ids.t.push_back(t);
        ids.h.push_back(h);
        ids.w.push_back(w);
    }
    void text(TokenKind kind, int part) {
        push(kind, part, next, next, next);
        ++next;
    }
};

// The t step of frame i of a block, before the block's start is added.
std::int64_t frame_t(std::int64_t i, const LayoutPart& p, const MultiAxis& axes, IdsRule rule) {
    // tokens_per_second 0 (not read from a config): one t per grid step, as Qwen2-VL counts.
    if (axes.position_ids != PositionIds::Qwen25VL || axes.tokens_per_second <= 0) return i;
    const double tps = axes.tokens_per_second;
    if (rule == IdsRule::V4) {
        const double seconds = p.kind == PartKind::Video ? p.seconds : 0.0;
        return static_cast<std::int64_t>(static_cast<double>(i) * seconds * tps);
    }
    if (p.kind != PartKind::Video) return i;
    const double interval = tps * std::trunc(p.seconds);
    return static_cast<std::int64_t>(static_cast<double>(i) * interval);
}

// One grid of T frames placed at the builder's position.
void place_grid(Builder& b, const LayoutPart& p, int part, std::int64_t frames, const MultiAxis& axes, IdsRule rule) {
    const int m = axes.spatial_merge_size;
    const std::int64_t rows = p.h / m, cols = p.w / m;
    const std::int64_t s = b.next;
    const TokenKind kind = p.kind == PartKind::Video ? TokenKind::Video : TokenKind::Image;
    std::int64_t largest = s;
    for (std::int64_t i = 0; i < frames; ++i) {
        const std::int64_t t = s + frame_t(i, p, axes, rule);
        for (std::int64_t r = 0; r < rows; ++r) {
            for (std::int64_t c = 0; c < cols; ++c) {
                b.push(kind, part, t, s + r, s + c);
                largest = std::max({largest, t, s + r, s + c});
            }
        }
    }
    b.next = rule == IdsRule::V4 ? largest + 1 : s + std::max(rows, cols);
}

void place_block(Builder& b, const LayoutPart& p, int part, const MultiAxis& axes, IdsRule rule) {
    b.text(TokenKind::VisionStart, part);
    place_grid(b, p, part, p.t, axes, rule);
    b.text(TokenKind::VisionEnd, part);
}

}  // namespace

TokenIds position_ids(const TokenLayout& layout, const MultiAxis& model_axes, IdsRule rule) {
    // The layout was checked against its own merge size (H and W divisible by it); use that one.
    MultiAxis axes = model_axes;
    axes.spatial_merge_size = layout.merge;
    Builder b;
    const bool one_d = axes.position_ids == PositionIds::None;
    for (std::size_t k = 0; k < layout.parts.size(); ++k) {
        const LayoutPart& p = layout.parts[k];
        const int part = static_cast<int>(k);
        if (p.kind == PartKind::Text) {
            for (std::int64_t i = 0; i < p.count; ++i) b.text(TokenKind::Text, part);
        } else if (one_d) {
            // A 1-D model: every token one up, the patches in raster order (frame, row, column).
            const TokenKind kind = p.kind == PartKind::Video ? TokenKind::Video : TokenKind::Image;
            b.text(TokenKind::VisionStart, part);
            for (std::int64_t i = 0, n = merged_tokens(p, layout.merge); i < n; ++i) b.text(kind, part);
            b.text(TokenKind::VisionEnd, part);
        } else if (p.kind == PartKind::Video && axes.position_ids == PositionIds::Qwen3VL) {
            LayoutPart frame = p;
            frame.t = 1;
            for (std::int64_t f = 0; f < p.t; ++f) place_block(b, frame, part, axes, rule);
        } else {
            place_block(b, p, part, axes, rule);
        }
    }
    return std::move(b.ids);
}

std::vector<bool> ids_differ(const TokenIds& a, const TokenIds& b) {
    std::vector<bool> out(a.size(), false);
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        out[i] = a.t[i] != b.t[i] || a.h[i] != b.h[i] || a.w[i] != b.w[i];
    }
    return out;
}

std::vector<bool> ids_overlap(const TokenIds& ids) {
    std::vector<bool> out(ids.size(), false);
    // Largest t of the image/video tokens in earlier blocks, and in the block now open (a block
    // opens at each <vision_start>; its own patches may share t ids, that is no overlap).
    std::int64_t before = 0, current = 0;
    bool any_before = false, any_current = false;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const std::int64_t t = ids.t[i];
        const bool vision = ids.kind[i] == TokenKind::Image || ids.kind[i] == TokenKind::Video;
        if (ids.kind[i] == TokenKind::VisionStart && any_current) {
            before = any_before ? std::max(before, current) : current;
            any_before = true;
            any_current = false;
        }
        out[i] = (any_before && t <= before) || (!vision && any_current && t <= current);
        if (vision) {
            current = any_current ? std::max(current, t) : t;
            any_current = true;
        }
    }
    return out;
}

}  // namespace ropelab
