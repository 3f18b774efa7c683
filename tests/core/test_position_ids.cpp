#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.h"
#include "core/position_ids.h"
#include "core/token_layout.h"
#include "lab/token_positions.h"
#include "state/schema.h"
#include "state/session.h"

namespace ropelab {
namespace {

using Ids = std::vector<std::int64_t>;

MultiAxis axes(PositionIds ids, double tokens_per_second = 0) {
    MultiAxis a;
    a.rule = ids == PositionIds::Qwen3VL ? AxisRule::Interleaved : AxisRule::Sections;
    a.position_ids = ids;
    a.spatial_merge_size = 2;
    a.tokens_per_second = tokens_per_second;
    return a;
}

TokenIds ids_of(const std::string& layout, const MultiAxis& a, IdsRule rule) {
    return position_ids(parse_token_layout(layout, a.spatial_merge_size), a, rule);
}

std::string refusal(const std::string& layout) {
    try {
        parse_token_layout(layout, 2);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

// Qwen2-VL, text:3,image:1x4x6,text:2 (merge 2: the image is 1 × 2 × 3 tokens). Worked from
// get_rope_index: text 0, 1, 2 and <vision_start> 3; the image starts at s = 4 with
// (s + 0, s + r, s + c); 4.x resumes at its largest id + 1 = 4 + 2 + 1 = 7, 5.x at
// s + max(2, 3) = 7 — images agree. <vision_end> 7, text 8, 9.
TEST(PositionIds, Qwen2VLImageByHand) {
    for (IdsRule rule : {IdsRule::V4, IdsRule::V5}) {
        const TokenIds ids = ids_of("text:3,image:1x4x6,text:2", axes(PositionIds::Qwen2VL), rule);
        EXPECT_EQ(ids.t, (Ids{0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 7, 8, 9}));
        EXPECT_EQ(ids.h, (Ids{0, 1, 2, 3, 4, 4, 4, 5, 5, 5, 7, 8, 9}));
        EXPECT_EQ(ids.w, (Ids{0, 1, 2, 3, 4, 5, 6, 4, 5, 6, 7, 8, 9}));
        EXPECT_EQ(ids.kind[3], TokenKind::VisionStart);
        EXPECT_EQ(ids.kind[10], TokenKind::VisionEnd);
        EXPECT_EQ(ids.part[12], 2);
    }
}

// Qwen2-VL, video:3x4x4 (3 frames of 2 × 2 tokens) then text:1. <vision_start> 0, s = 1; frame i
// has t = 1 + i, h, w in {1, 2}. 4.x: <vision_end> at the largest id + 1 = 3 + 1 = 4, text 5.
// 5.x: s + max(2, 2) = 3 for <vision_end>, text 4 — at or below the last frame's t = 3: overlap.
TEST(PositionIds, Qwen2VLVideoRulesDiffer) {
    const MultiAxis a = axes(PositionIds::Qwen2VL);
    const TokenIds v4 = ids_of("video:3x4x4,text:1", a, IdsRule::V4);
    const TokenIds v5 = ids_of("video:3x4x4,text:1", a, IdsRule::V5);
    EXPECT_EQ(v4.t, (Ids{0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 5}));
    EXPECT_EQ(v5.t, (Ids{0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4}));
    EXPECT_EQ(v4.h, (Ids{0, 1, 1, 2, 2, 1, 1, 2, 2, 1, 1, 2, 2, 4, 5}));
    const auto differ = ids_differ(v4, v5);
    EXPECT_FALSE(differ[12]);
    EXPECT_TRUE(differ[13]);
    EXPECT_TRUE(differ[14]);
    const auto over4 = ids_overlap(v4), over5 = ids_overlap(v5);
    for (bool o : over4) EXPECT_FALSE(o);
    EXPECT_TRUE(over5[13]);   // <vision_end> t = 3 = the last frame's t
    EXPECT_FALSE(over5[14]);  // text t = 4 is past it
    EXPECT_FALSE(over5[9]);   // a frame's own tokens are no overlap
}

// Qwen2.5-VL, tokens_per_second 2, text:2,video:3x4x4@S,text:1. <vision_start> 2, s = 3.
//   @0.5  4.x: t_i = long(i · 0.5 · 2) = i → 3, 4, 5; end 6, text 7.
//         5.x: interval 2 · int(0.5) = 0 → t 3, 3, 3; next s + max(2, 2) = 5: end 5, text 6.
//   @1.5  4.x: t_i = long(i · 1.5 · 2) = 3i → 3, 6, 9; end 10, text 11.
//         5.x: interval 2 · int(1.5) = 2 → 3, 5, 7; end 5, text 6: both overlap frame t 7.
TEST(PositionIds, Qwen25VLFractionalSecondsByHand) {
    const MultiAxis a = axes(PositionIds::Qwen25VL, 2.0);
    struct Case {
        const char* layout;
        IdsRule rule;
        Ids frame_t, tail_t;
    };
    const Case cases[] = {
        {"text:2,video:3x4x4@0.5,text:1", IdsRule::V4, {3, 4, 5}, {6, 7}},
        {"text:2,video:3x4x4@0.5,text:1", IdsRule::V5, {3, 3, 3}, {5, 6}},
        {"text:2,video:3x4x4@1.5,text:1", IdsRule::V4, {3, 6, 9}, {10, 11}},
        {"text:2,video:3x4x4@1.5,text:1", IdsRule::V5, {3, 5, 7}, {5, 6}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(std::string(c.layout) + " " + std::string(to_string(c.rule)));
        const TokenIds ids = ids_of(c.layout, a, c.rule);
        ASSERT_EQ(ids.size(), 2u + 1 + 12 + 1 + 1);
        EXPECT_EQ((Ids{ids.t[0], ids.t[1], ids.t[2]}), (Ids{0, 1, 2}));
        for (int f = 0; f < 3; ++f) {
            for (int k = 0; k < 4; ++k) {
                const std::size_t i = 3 + 4 * static_cast<std::size_t>(f) + static_cast<std::size_t>(k);
                EXPECT_EQ(ids.t[i], c.frame_t[static_cast<std::size_t>(f)]);
                EXPECT_EQ(ids.h[i], 3 + k / 2);
                EXPECT_EQ(ids.w[i], 3 + k % 2);
            }
        }
        EXPECT_EQ((Ids{ids.t[15], ids.t[16]}), c.tail_t);
        const auto over = ids_overlap(ids);
        const bool expect_overlap = c.rule == IdsRule::V5 && std::string(c.layout).find("@1.5") != std::string::npos;
        EXPECT_EQ(over[15], expect_overlap);
        EXPECT_EQ(over[16], expect_overlap);
    }
}

// A Qwen2.5-VL image gets second_per_grid_t = 0 in 4.x, so even a 2-frame image has t = s for
// every token; 5.x steps its frames by 1.
TEST(PositionIds, Qwen25VLImageFramesUnder4xShareT) {
    const MultiAxis a = axes(PositionIds::Qwen25VL, 2.0);
    const TokenIds v4 = ids_of("image:2x2x2", a, IdsRule::V4);
    const TokenIds v5 = ids_of("image:2x2x2", a, IdsRule::V5);
    EXPECT_EQ(v4.t, (Ids{0, 1, 1, 2}));
    EXPECT_EQ(v5.t, (Ids{0, 1, 2, 2}));
}

// Without tokens_per_second (0: not read from a config) a Qwen2.5-VL video steps t by one per grid
// step, whatever its seconds: <vision_start> 0, frames at 1, 2, 3 (one 1 × 1 token each), end 4.
TEST(PositionIds, Qwen25VLWithoutTokensPerSecondCountsFrames) {
    for (IdsRule rule : {IdsRule::V4, IdsRule::V5}) {
        EXPECT_EQ(ids_of("video:3x2x2@2.5", axes(PositionIds::Qwen25VL, 0.0), rule).t, (Ids{0, 1, 2, 3, 4 - (rule == IdsRule::V5 ? 2 : 0)}));
    }
}

// Qwen3-VL splits video:2x4x4 into two frames, each its own <vision_start> … <vision_end>:
// text 0; frame 0: start 1, s = 2, (2, 2..3, 2..3), end 4; frame 1: start 5, s = 6, end 8;
// text 9. A one-frame grid ends at s + max(h, w) under both rules, so they agree.
TEST(PositionIds, Qwen3VLVideoFramesByHand) {
    for (IdsRule rule : {IdsRule::V4, IdsRule::V5}) {
        const TokenIds ids = ids_of("text:1,video:2x4x4@1.0,text:1", axes(PositionIds::Qwen3VL), rule);
        EXPECT_EQ(ids.t, (Ids{0, 1, 2, 2, 2, 2, 4, 5, 6, 6, 6, 6, 8, 9}));
        EXPECT_EQ(ids.h, (Ids{0, 1, 2, 2, 3, 3, 4, 5, 6, 6, 7, 7, 8, 9}));
        EXPECT_EQ(ids.w, (Ids{0, 1, 2, 3, 2, 3, 4, 5, 6, 7, 6, 7, 8, 9}));
        EXPECT_EQ(ids.kind[7], TokenKind::VisionStart);
    }
}

TEST(PositionIds, PropertiesOverManyLayouts) {
    const char* layouts[] = {"text:5", "text:2,image:1x6x4,text:3,image:1x2x8,text:1", "image:3x4x2,video:4x2x6@2.5,text:2"};
    for (PositionIds model : {PositionIds::Qwen2VL, PositionIds::Qwen25VL, PositionIds::Qwen3VL}) {
        for (IdsRule rule : {IdsRule::V4, IdsRule::V5}) {
            for (const char* layout : layouts) {
                SCOPED_TRACE(layout);
                const TokenIds ids = ids_of(layout, axes(model, 2.0), rule);
                for (std::size_t i = 0; i < ids.size(); ++i) {
                    const bool vision = ids.kind[i] == TokenKind::Image || ids.kind[i] == TokenKind::Video;
                    if (!vision) {
                        EXPECT_EQ(ids.t[i], ids.h[i]);
                        EXPECT_EQ(ids.t[i], ids.w[i]);
                    }
                    // A text token after a text token counts one up.
                    if (i > 0 && ids.kind[i] == TokenKind::Text && ids.kind[i - 1] == TokenKind::Text) {
                        EXPECT_EQ(ids.t[i], ids.t[i - 1] + 1);
                    }
                    // The first patch of a block sits at start + 1 on every axis, later patches at
                    // (start + 1) + (·, r, c).
                    if (vision && ids.kind[i - 1] == TokenKind::VisionStart) {
                        EXPECT_EQ(ids.t[i], ids.t[i - 1] + 1);
                        EXPECT_EQ(ids.h[i], ids.t[i - 1] + 1);
                        EXPECT_EQ(ids.w[i], ids.t[i - 1] + 1);
                    }
                }
            }
        }
    }
    // An image placed at s: (s, s + r, s + c) over its 3 × 2 tokens, whichever rule.
    const TokenIds img = ids_of("text:2,image:1x6x4", axes(PositionIds::Qwen2VL), IdsRule::V5);
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 2; ++c) {
            const std::size_t i = 3 + static_cast<std::size_t>(2 * r + c);
            EXPECT_EQ(img.t[i], 3);
            EXPECT_EQ(img.h[i], 3 + r);
            EXPECT_EQ(img.w[i], 3 + c);
        }
    }
}

TEST(PositionIds, OneDimensionalModelCountsEveryToken) {
    MultiAxis a;  // PositionIds::None
    const TokenIds ids = ids_of("text:3,image:1x4x6,text:2,video:3x4x4@2.0", a, IdsRule::V5);
    ASSERT_EQ(ids.size(), 3u + 8 + 2 + 14);
    for (std::size_t i = 0; i < ids.size(); ++i) {
        EXPECT_EQ(ids.t[i], static_cast<std::int64_t>(i));
        EXPECT_EQ(ids.h[i], ids.t[i]);
        EXPECT_EQ(ids.w[i], ids.t[i]);
    }
}

TEST(TokenLayout, ParsesTheBriefsExample) {
    const TokenLayout l = parse_token_layout(" text:3, image:1x4x6,text:2,video:3x4x4@2.0", 2);
    ASSERT_EQ(l.parts.size(), 4u);
    EXPECT_EQ(l.parts[0].count, 3);
    EXPECT_EQ(l.parts[1].kind, PartKind::Image);
    EXPECT_EQ(merged_tokens(l.parts[1], 2), 6);
    EXPECT_EQ(l.parts[3].kind, PartKind::Video);
    EXPECT_DOUBLE_EQ(l.parts[3].seconds, 2.0);
    EXPECT_DOUBLE_EQ(parse_token_layout("video:1x2x2", 2).parts[0].seconds, 1.0);  // transformers' default
}

TEST(TokenLayout, RefusesNamingThePart) {
    struct Case {
        const char* layout;
        const char* names;
        const char* says;
    };
    const Case cases[] = {
        {"text:1,image:0x4x4", "part 2 'image:0x4x4'", "at least 1"},
        {"image:1x3x4", "part 1 'image:1x3x4'", "not divisible by the spatial merge size 2"},
        {"text:1000000000", "part 1 'text:1000000000'", "the most is 1048576"},
        {"text:2,audio:3", "part 2 'audio:3'", "unknown kind 'audio'"},
        {"image:1x4", "part 1 'image:1x4'", "TxHxW"},
        {"video:2x4x4@-1", "part 1 'video:2x4x4@-1'", "must be in 0 .. 1e6"},
        {"video:2x4x4@nan", "part 1 'video:2x4x4@nan'", "finite"},
        {"text:1,,text:2", "part 2", "empty"},
        {"text:-3", "part 1 'text:-3'", "at least 1"},
        {"image:1024x1024x1024", "part 1", "past 1048576 tokens"},
        {"text:1048576,text:1", "part 2 'text:1'", "past 1048576 tokens"},
        {"image:1x4x4@2", "part 1", "only a video"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.layout);
        const std::string message = refusal(c.layout);
        EXPECT_NE(message.find("images.tokens"), std::string::npos) << message;
        EXPECT_NE(message.find(c.names), std::string::npos) << message;
        EXPECT_NE(message.find(c.says), std::string::npos) << message;
    }
    EXPECT_NE(refusal("").find("empty"), std::string::npos);
}

}  // namespace
}  // namespace ropelab

namespace ropelab {
namespace {

// The lab's product: both rules' ids, recomputed only when the layout, the rule or the model's
// multi-axis settings change (not on every frame, nor for other fields).
TEST(TokenPositionsCache, RecomputesOnlyWhenItsInputsChange) {
    LabParams p;
    p.model.multi_axis.position_ids = PositionIds::Qwen2VL;
    p.tokens = "video:3x4x4,text:1";
    p.position_rule = PositionRule::Release;
    lab::TokenPositionsCache cache;
    const lab::TokenPositions& first = cache.update(p);
    EXPECT_EQ(cache.computations(), 1);
    EXPECT_EQ(first.rule, IdsRule::V4);
    EXPECT_EQ(first.differing, 2);   // <vision_end> and the text after it
    EXPECT_EQ(first.overlapping, 0);
    p.position = 1234;
    p.focused_pair = 3;
    cache.update(p);
    cache.update(p);
    EXPECT_EQ(cache.computations(), 1);
    p.position_rule = PositionRule::V5;
    EXPECT_EQ(cache.update(p).overlapping, 1);
    EXPECT_EQ(cache.computations(), 2);
    p.model.multi_axis.spatial_merge_size = 4;  // 4 × 4 patches: one token per frame
    EXPECT_EQ(cache.update(p).ids.size(), 3u + 2 + 1);
    EXPECT_EQ(cache.computations(), 3);
    p.tokens = "text:2";
    EXPECT_EQ(cache.update(p).ids.t, (std::vector<std::int64_t>{0, 1}));
    EXPECT_EQ(cache.computations(), 4);
}

}  // namespace
}  // namespace ropelab

namespace ropelab {
namespace {

// The schema checks the layout, so a bad one is refused wherever a state comes from: the whole
// state's validation, and a session file (nothing applied).
TEST(TokenLayout, TheSchemaAndSessionsRefuseABadLayout) {
    LabParams p;
    p.tokens = "text:2,image:0x4x4";
    try {
        schema::validate(p);
        ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("images.tokens: part 2 'image:0x4x4'"), std::string::npos) << e.what();
    }
    Session s;
    s.params.tokens = "text:1,audio:3";
    std::vector<std::string> warnings;
    try {
        session_from_json(session_to_json(s), warnings);
        ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("part 2 'audio:3'"), std::string::npos) << e.what();
    }
    s.params.tokens = "text:1,video:2x4x4@0.5";
    EXPECT_EQ(session_from_json(session_to_json(s), warnings).params.tokens, "text:1,video:2x4x4@0.5");
}

}  // namespace
}  // namespace ropelab
