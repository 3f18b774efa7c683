// Every view rendered 1..40 px wide or tall through `ropelab render`: ImGui asserts on an item of
// zero size (a plot 9-32 px wide used to abort the render), so every such size must render.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "state/view_table.h"
#include "support/run_binary.h"

namespace {

using ropelab::test::Result;
using ropelab::test::run;

class TinyView : public ::testing::TestWithParam<std::string> {};

// Every row of the view table, and the whole window.
std::vector<std::string> every_view_and_all() {
    std::vector<std::string> names;
    for (const ropelab::ViewRow& row : ropelab::view_table()) names.emplace_back(row.name);
    names.emplace_back("all");
    return names;
}

TEST_P(TinyView, RendersAtEveryWidthAndHeightFrom1To40Pixels) {
    const std::string out = ropelab::test::temp_path("tiny").string() + ".png";
    for (int px = 1; px <= 40; ++px) {
        for (const std::string& size : {std::to_string(px) + "x240", "320x" + std::to_string(px)}) {
            const Result r = run("render --view " + GetParam() + " --size " + size + " --out " + out);
            EXPECT_EQ(r.status, 0) << GetParam() << " at " << size << ": " << r.err.substr(0, 300);
        }
    }
    std::remove(out.c_str());
}

INSTANTIATE_TEST_SUITE_P(EachView, TinyView,
                         ::testing::ValuesIn(every_view_and_all()));

}  // namespace
