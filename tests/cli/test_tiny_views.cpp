// Every view rendered 1..40 px wide or tall through `ropelab render`: ImGui asserts on an item of
// zero size (a plot 9-32 px wide used to abort the render), so every such size must render. The
// 80 sizes go to one run (--size W1xH1,W2xH2,…), each size a render of its own as a run of its own
// would make (context, lab, ImGui), without starting the program and its GL driver 80 times.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
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

// A PNG's width and height from its header (the signature, then IHDR's two big-endian words);
// {0, 0} when the file is missing or is no PNG.
std::pair<std::uint32_t, std::uint32_t> png_size(const std::string& path) {
    const std::string bytes = ropelab::test::slurp(path);
    if (bytes.size() < 24 || bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0 || bytes.compare(12, 4, "IHDR") != 0) return {0, 0};
    const auto word = [&](std::size_t at) {
        std::uint32_t v = 0;
        for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
        return v;
    };
    return {word(16), word(20)};
}

TEST_P(TinyView, RendersAtEveryWidthAndHeightFrom1To40Pixels) {
    const std::filesystem::path dir = ropelab::test::fresh_dir("tiny_" + GetParam());
    std::vector<std::pair<int, int>> sizes;
    for (int px = 1; px <= 40; ++px) {
        sizes.emplace_back(px, 240);
        sizes.emplace_back(320, px);
    }
    std::string list;
    for (const auto& [w, h] : sizes) list += (list.empty() ? "" : ",") + std::to_string(w) + "x" + std::to_string(h);
    const Result r = run("render --view " + GetParam() + " --size " + list + " --out '" + (dir / "tiny.png").string() + "'");
    EXPECT_EQ(r.status, 0) << GetParam() << ": " << r.err.substr(0, 600);
    // Each size drawn and saved at its size (a run that stopped at one leaves it and the rest out).
    for (const auto& [w, h] : sizes) {
        const std::string size = std::to_string(w) + "x" + std::to_string(h);
        const auto [pw, ph] = png_size((dir / ("tiny-" + size + ".png")).string());
        EXPECT_EQ(pw, static_cast<std::uint32_t>(w)) << GetParam() << " at " << size;
        EXPECT_EQ(ph, static_cast<std::uint32_t>(h)) << GetParam() << " at " << size;
    }
    std::filesystem::remove_all(dir);
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
        if (row.id == ropelab::View::Weights) {  // no model file given: refused alike by name and number
            EXPECT_EQ(a.status, 2) << a.err;
            EXPECT_EQ(b.status, 2) << b.err;
            EXPECT_EQ(a.err.substr(a.err.find(": error:")), b.err.substr(b.err.find(": error:")));
            continue;
        }
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

namespace {

// Several sizes render one still each, FILE-WxH beside FILE: an animation or a bad size in the
// list is refused before anything is drawn or written.
TEST(RenderSizes, SeveralSizesWriteOneStillEachAndRefuseWhatIsNoStill) {
    const std::filesystem::path dir = ropelab::test::fresh_dir("render_sizes");
    const std::string out = (dir / "v.svg").string();
    Result r = run("render --view scores --size 64x48,30x20 --out '" + out + "'");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(ropelab::test::slurp((dir / "v-64x48.svg").string()).find("<svg"), std::string::npos);
    EXPECT_NE(ropelab::test::slurp((dir / "v-30x20.svg").string()).find("<svg"), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(out));
    r = run("render --view scores --size 64x48,30x20 --out '" + (dir / "a.gif").string() + "'");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--size: several sizes render one still each: --out must be a .png, .svg or .pdf"), std::string::npos) << r.err;
    r = run("render --view scores --size 64x48,0x20 --out '" + (dir / "b.png").string() + "'");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("0x20"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "b-0x20.png"));
    // A made name that is already the user's file is refused before anything is drawn, the file kept.
    { std::ofstream(dir / "c-30x20.png") << "the user's file\n"; }
    r = run("render --view scores --size 64x48,30x20 --out '" + (dir / "c.png").string() + "'");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("c-30x20.png already exists"), std::string::npos) << r.err;
    EXPECT_EQ(ropelab::test::slurp((dir / "c-30x20.png").string()), "the user's file\n");
    EXPECT_FALSE(std::filesystem::exists(dir / "c-64x48.png"));
    std::filesystem::remove_all(dir);
}

}  // namespace
