// The built-in lesson's image scene says only what is drawn: its caption claims that with
// Qwen2-VL's chunked sections the width pairs turn less than 0.0005 of a turn across 16 columns,
// that the score then changes only from row to row and only between 127.8 and 128, and that the
// same pairs interleaved make width matter. Each claim checked on what the binary exports for the
// scene's settings (the grid view draws the same product).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <numbers>
#include <sstream>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "support/run_binary.h"

namespace ropelab {
namespace {

using Json = nlohmann::json;

// score by (dh, dw) from an export-data --view grid CSV of one frame.
std::map<std::pair<int, int>, double> read_grid(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    std::map<std::pair<int, int>, double> out;
    bool header = false;
    while (std::getline(in, line)) {
        if (line.starts_with("#")) continue;
        if (!header) {
            EXPECT_EQ(line, "dt,dh,dw,score");
            header = true;
            continue;
        }
        std::istringstream fields(line);
        int dt = 0, dh = 0, dw = 0;
        double score = 0;
        char comma = 0;
        fields >> dt >> comma >> dh >> comma >> dw >> comma >> score;
        out[{dh, dw}] = score;
    }
    return out;
}

const Json& image_scene(const Json& lesson) {
    for (const Json& s : lesson["scenes"]) {
        if (s["title"] == "Images have two directions") return s;
    }
    throw std::runtime_error("no image scene");
}

std::map<std::pair<int, int>, double> export_grid(const std::string& name, const std::string& flags) {
    const std::string out = test::fresh_dir("lesson_images_" + name).string() + "/grid.csv";
    const test::Result r = test::run("export-data --view grid --grid 1x16x16 --vectors ones --encoding rope " + flags + " --out " + out);
    EXPECT_EQ(r.status, 0) << r.err;
    return read_grid(out);
}

TEST(LessonImageScene, CaptionHoldsForEveryQueryOfTheWalk) {
    const Json lesson = Json::parse(test::slurp(std::string(ROPELAB_SOURCE_DIR) + "/assets/lessons/rope-from-first-principles.json"));
    const Json& scene = image_scene(lesson);
    const std::string caption = scene["caption"];
    for (const char* claim : {"less than 0.0005 of a turn", "only from row to row", "between 127.8 and 128", "full band of speeds"}) {
        EXPECT_NE(caption.find(claim), std::string::npos) << claim;
    }
    ASSERT_EQ(scene["set"]["preset"], "qwen2-vl-7b");
    ASSERT_EQ(scene["set"]["compare"][0], "multi_axis=interleaved,mrope_section=24:20:20,name=interleaved");
    ASSERT_EQ(scene["set"]["query_row"], 8);

    // The width pairs' turns across 16 columns: 16·ω_j/2π for every pair the freqs JSON marks w.
    const test::Result f = test::run("freqs --preset qwen2-vl-7b --format json");
    ASSERT_EQ(f.status, 0) << f.err;
    const Json freqs = Json::parse(f.out);
    double fastest_w = 0;
    int w_pairs = 0;
    for (std::size_t j = 0; j < freqs["axis"].size(); ++j) {
        if (freqs["axis"][j] != "w") continue;
        ++w_pairs;
        fastest_w = std::max(fastest_w, 16.0 * freqs["inv_freq"][j].get<double>() / (2 * std::numbers::pi));
    }
    EXPECT_EQ(w_pairs, 24);
    EXPECT_LT(fastest_w, 0.0005);

    const auto chunked = export_grid("chunked", "--preset qwen2-vl-7b");
    const auto interleaved = export_grid("interleaved", "--preset qwen2-vl-7b --multi-axis interleaved --mrope-section 24,20,20");
    ASSERT_EQ(chunked.size(), 31u * 31u);
    ASSERT_EQ(interleaved.size(), 31u * 31u);
    // The query walks row 8 from column 0 to 15; the keys are every token of the image.
    double lowest = INFINITY, highest = -INFINITY, along_rows = 0, across_rows = 0, interleaved_along = 0;
    for (int column = 0; column < 16; ++column) {
        for (int h = 0; h < 16; ++h) {
            for (int w = 0; w < 16; ++w) {
                const double v = chunked.at({8 - h, column - w});
                lowest = std::min(lowest, v);
                highest = std::max(highest, v);
                along_rows = std::max(along_rows, std::abs(v - chunked.at({8 - h, column})));
                across_rows = std::max(across_rows, std::abs(v - chunked.at({0, column - w})));
                interleaved_along = std::max(interleaved_along, std::abs(interleaved.at({8 - h, column - w}) - interleaved.at({8 - h, column})));
            }
        }
    }
    EXPECT_GE(lowest, 127.8);
    EXPECT_LE(highest, 128.0 + 1e-9);
    // "Only from row to row": along a row the score moves less than a thousandth of what it
    // moves down a column; interleaved, width moves it by whole units.
    EXPECT_LT(along_rows, 1e-3 * across_rows) << along_rows << " vs " << across_rows;
    EXPECT_GT(interleaved_along, 1.0);
}

}  // namespace
}  // namespace ropelab
