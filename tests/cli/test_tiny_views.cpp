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

namespace {

// --view takes a view's name or its number (the view table's row + 1) alike: export-data writes the
// same file for both, for every row; gui's numbers are the same rows (its 0 and render's "all"
// are the whole window).
TEST(ViewOption, ANameAndItsNumberAreTheSameView) {
    for (const ropelab::ViewRow& row : ropelab::view_table()) {
        const std::string number = std::to_string(static_cast<int>(row.id) + 1);
        const std::string by_name = ropelab::test::temp_path("view_by_name").string() + ".csv";
        const std::string by_number = ropelab::test::temp_path("view_by_number").string() + ".csv";
        const Result a = run("export-data --view " + std::string(row.name) + " --out " + by_name);
        const Result b = run("export-data --view " + number + " --out " + by_number);
        ASSERT_EQ(a.status, 0) << row.name << ": " << a.err;
        ASSERT_EQ(b.status, 0) << number << ": " << b.err;
        EXPECT_EQ(ropelab::test::slurp(by_name), ropelab::test::slurp(by_number)) << row.name << " vs " << number;
        std::remove(by_name.c_str());
        std::remove(by_number.c_str());
    }
    const Result past = run("export-data --view " + std::to_string(ropelab::kViewCount + 1) + " --out x.csv");
    EXPECT_EQ(past.status, 2);
    EXPECT_NE(past.err.find("--view: unknown view"), std::string::npos) << past.err;
}

}  // namespace
