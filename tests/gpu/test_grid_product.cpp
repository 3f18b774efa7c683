// The lab's grid product with the CPU compute device: computed once for its inputs (a query
// moved by a click reads the same grid), again when the image changes; a shrinking image takes
// the query along instead of being refused. The values are the core's grid_slice.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/grid_scores.h"
#include "gpu/gl_device.h"
#include "lab/lab.h"

namespace ropelab {
namespace {

TEST(GridProduct, ComputedOncePerInputsAndFollowsTheImage) {
    std::string notice;
    const auto device = gpu::GlDevice::open(gpu::DeviceRequest::Cpu, true, notice);
    LabParams p;
    p.model.multi_axis.rule = AxisRule::Sections;
    p.model.multi_axis.sections = {16, 24, 24};
    p.model.rope_theta = 1e6;
    p.vectors = VectorChoice::Random;
    p.grid_height = 12;
    p.grid_width = 20;
    p.query_row = 11;
    p.query_column = 19;
    Lab lab(*device, p, Pace::AllAtOnce);
    lab.update(0.0, {});
    ASSERT_EQ(lab.grid().settings().size(), 1u);
    EXPECT_EQ(lab.grid().computations(), 1);
    const LabData& d = lab.compute().data();
    const GridSize size{1, 12, 20};
    const GridSlice want = grid_slice(d.coefficients, grid_frequency_vectors(p.model, d.freqs, size), size, 0);
    EXPECT_EQ(lab.grid().settings()[0].slice.values, want.values);
    EXPECT_EQ(lab.grid().settings()[0].rule, "sections (chunked)");

    // A click moves the query: the same grid, read at another place.
    lab::Requests click;
    click.grid_query = std::make_pair(std::int64_t{3}, std::int64_t{4});
    const lab::Command clicked = lab::cmd::ViewRequests{click};
    lab.update(0.0, {}, std::span<const lab::Command>(&clicked, 1));
    EXPECT_EQ(lab.params().query_row, 3);
    EXPECT_EQ(lab.params().query_column, 4);
    EXPECT_EQ(lab.grid().computations(), 1);

    // A smaller image: accepted, the query clamped inside, the grid recomputed.
    LabParams smaller = lab.params();
    smaller.query_row = 11;
    smaller.query_column = 19;
    const lab::Command query_far = lab::cmd::SetState{.state = smaller, .control = "", .notice = ""};
    smaller.grid_height = 6;
    smaller.grid_width = 5;
    const lab::Command shrunk = lab::cmd::SetState{.state = smaller, .control = "", .notice = ""};
    const lab::Commands both{query_far, shrunk};
    lab.update(0.0, {}, both);
    ASSERT_TRUE(lab.status().error.empty()) << lab.status().error;
    EXPECT_EQ(lab.params().grid_height, 6);
    EXPECT_EQ(lab.params().query_row, 5);
    EXPECT_EQ(lab.params().query_column, 4);
    lab.update(0.0, {});
    EXPECT_EQ(lab.grid().computations(), 2);
    EXPECT_EQ(lab.grid().settings()[0].slice.size, (GridSize{1, 6, 5}));
    EXPECT_TRUE(lab.grid().current());
}

}  // namespace
}  // namespace ropelab
