// The grid view's query in the lab's state: a shrinking image takes it along (clamped inside),
// and a click request is clamped the same way.
#include <gtest/gtest.h>

#include "lab/actions.h"
#include "lab/input.h"
#include "core/error.h"
#include "state/schema.h"

namespace ropelab {
namespace {

TEST(GridQuery, AShrinkingImageTakesTheQueryAndKeyFrameAlong) {
    LabParams p;
    p.grid_frames = 8;
    p.grid_height = 32;
    p.grid_width = 40;
    p.query_row = 30;
    p.query_column = 39;
    p.frame_offset = -7;
    schema::validate(p);
    p.grid_frames = 3;
    p.grid_height = 10;
    p.grid_width = 4;
    EXPECT_THROW(schema::validate(p), InputError) << "the query lies outside the smaller image";
    const LabParams fitted = lab::with_query_in_image(p);
    EXPECT_EQ(fitted.query_row, 9);
    EXPECT_EQ(fitted.query_column, 3);
    EXPECT_EQ(fitted.frame_offset, -2);
    EXPECT_NO_THROW(schema::validate(fitted));
    // Inside already: unchanged.
    EXPECT_EQ(lab::with_query_in_image(fitted), fitted);
}

TEST(GridQuery, AClickRequestMovesTheQueryInsideTheImage) {
    LabParams p;
    p.grid_height = 16;
    p.grid_width = 12;
    lab::Requests r;
    r.grid_query = std::make_pair(std::int64_t{5}, std::int64_t{11});
    lab::apply_requests(p, r);
    EXPECT_EQ(p.query_row, 5);
    EXPECT_EQ(p.query_column, 11);
    r.grid_query = std::make_pair(std::int64_t{40}, std::int64_t{-3});
    lab::apply_requests(p, r);
    EXPECT_EQ(p.query_row, 15);
    EXPECT_EQ(p.query_column, 0);
}

}  // namespace
}  // namespace ropelab
