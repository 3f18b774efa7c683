// The layout check on hand-made figures (no ImGui, no window): runs that overlap are named both,
// runs that only touch are not, a run past its clip is cut, a run under a later patch is covered.
#include <gtest/gtest.h>

#include "plot/layout_check.h"

namespace ropelab::draw {
namespace {

// A run with one advance per character, as the capture writes them: `width` pixels wide.
Text run(float x, float y, const std::string& s, float width, float size = 13.0f) {
    Text t;
    t.at = {x, y};
    t.text = s;
    t.size = size;
    t.color = rgba(255, 255, 255);
    t.advances.assign(s.size(), width / static_cast<float>(s.size()));
    return t;
}

Figure figure(std::vector<Item> items) {
    Figure f;
    f.width = 400;
    f.height = 300;
    f.items = std::move(items);
    return f;
}

TEST(LayoutCheck, TwoOverlappingRunsAreOneFindingNamingBoth) {
    // "104.4" spans x 100 .. 135; the "0" at x 130 covers its last 5 pixels, 3 px lower.
    const auto found = check_layout(figure({run(100, 50, "104.4", 35), run(130, 53, "0", 7)}));
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].kind, LayoutFinding::Kind::Overlap);
    EXPECT_EQ(found[0].text, "104.4");
    EXPECT_EQ(found[0].other, "0");
    EXPECT_FLOAT_EQ(found[0].box.x1, 135.0f);
    EXPECT_FLOAT_EQ(found[0].other_box.x0, 130.0f);
}

TEST(LayoutCheck, RunsThatTouchDoNotOverlap) {
    // Side by side: the second starts where the first's advances end.
    EXPECT_TRUE(check_layout(figure({run(100, 50, "104.4", 35), run(135, 50, "0", 7)})).empty());
    // Stacked lines: the second starts one line (the font size) below the first.
    EXPECT_TRUE(check_layout(figure({run(100, 50, "104.4", 35), run(100, 63, "104.4", 35)})).empty());
    // Within the pixel of slack both ways: a rounding, not an overlap.
    EXPECT_TRUE(check_layout(figure({run(100, 50, "ab", 20), run(119.5f, 50, "cd", 20)})).empty());
    // Past the slack: 3 px shared across the whole line's height.
    EXPECT_EQ(check_layout(figure({run(100, 50, "ab", 20), run(117, 50, "cd", 20)})).size(), 1u);
}

TEST(LayoutCheck, ARunPastItsClipIsCut) {
    // The clip ends at x 120; "caption text" runs to 100 + 84 = 184.
    const auto found = check_layout(figure({PushClip{{50, 40}, {120, 80}}, run(100, 50, "caption text", 84), PopClip{}}));
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].kind, LayoutFinding::Kind::Cut);
    EXPECT_EQ(found[0].text, "caption text");
    EXPECT_FLOAT_EQ(found[0].other_box.x1, 120.0f);
    // The same run inside its clip, and one wholly outside it (not drawn), are fine.
    EXPECT_TRUE(check_layout(figure({PushClip{{50, 40}, {200, 80}}, run(100, 50, "caption text", 84), PopClip{}})).empty());
    EXPECT_TRUE(check_layout(figure({PushClip{{50, 40}, {90, 80}}, run(100, 50, "caption text", 84), PopClip{}})).empty());
    // Nested clips cut to their intersection: the outer one ends at 150.
    EXPECT_EQ(check_layout(figure({PushClip{{0, 0}, {150, 300}}, PushClip{{50, 40}, {200, 80}}, run(100, 50, "caption text", 84),
                                   PopClip{}, PopClip{}}))
                  .size(),
              1u);
}

TEST(LayoutCheck, RunsOverlapOnlyWhereTheirClipsShowThem) {
    // Two scrolled panes side by side: each run reaches into the other's pane, cut at 150 — the
    // cut is reported, the parts that would overlap are never both drawn.
    const auto found = check_layout(figure({PushClip{{0, 0}, {150, 300}}, run(100, 50, "left pane", 80), PopClip{},
                                            PushClip{{150, 0}, {300, 300}}, run(140, 50, "right pane", 80), PopClip{}}));
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].kind, LayoutFinding::Kind::Cut);
    EXPECT_EQ(found[1].kind, LayoutFinding::Kind::Cut);
}

TEST(LayoutCheck, ARunUnderALaterPatchIsCovered) {
    Rect legend{{120, 45}, {200, 70}, rgba(40, 40, 40), 0.0f, 3.0f};
    const auto found = check_layout(figure({run(100, 50, "104.4", 35), legend, run(125, 50, "RoPE", 28)}));
    ASSERT_EQ(found.size(), 2u);  // "104.4" under the legend's patch and under the name on it
    EXPECT_EQ(found[0].kind, LayoutFinding::Kind::Overlap);
    EXPECT_EQ(found[1].kind, LayoutFinding::Kind::Covered);
    EXPECT_EQ(found[1].text, "104.4");
    EXPECT_FLOAT_EQ(found[1].other_box.x0, 120.0f);
    // A patch drawn first is the run's own background; an outline covers nothing.
    Rect outline = legend;
    outline.width = 1.0f;
    EXPECT_TRUE(check_layout(figure({legend, run(125, 50, "RoPE", 28)})).empty());
    EXPECT_TRUE(check_layout(figure({run(100, 50, "104.4", 35), outline})).empty());
}

TEST(LayoutCheck, ARunWithoutAdvancesIsMeasuredFromItsSize) {
    Text t;
    t.at = {0, 0};
    t.text = "abcd";  // four characters at half an em each: 26 px at 13 px
    const Box b = text_box(t);
    EXPECT_FLOAT_EQ(b.width(), 26.0f);
    EXPECT_FLOAT_EQ(b.height(), 13.0f);
}

}  // namespace
}  // namespace ropelab::draw
