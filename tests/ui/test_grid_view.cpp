// tests/ui through `gui --script`: the grid view (10, scores over an image). Key 0 shows it large
// and again brings back all views; a click on a key cell makes it the query (the state and the
// hover readout follow); compare mode draws one heatmap per setting side by side.
#include <string>
#include <vector>

#include "script.h"

namespace ropelab::ui_script {
namespace {

TEST(GridView, KeyZeroShowsItLargeAndAgainBringsBackAllViews) {
    const fs::path dir = fresh_dir("grid_key0");
    const Json script = {
        {{"wait", 3}},
        {{"key", "0"}},
        {{"wait", 3}},
        {{"state", "large.json"}},
        {{"widgets", "large_widgets.json"}},
        {{"screenshot", "large.png"}},
        {{"key", "0"}},
        {{"wait", 2}},
        {{"state", "grid.json"}},
    };
    const test::Result r = gui(dir, script, "");
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    EXPECT_EQ(read_json(dir / "large.json")["layout"]["focused_view"], 9);
    EXPECT_EQ(read_json(dir / "grid.json")["layout"]["focused_view"], -1);
    const Json large = read_json(dir / "large_widgets.json");
    const Json* map = widget(large, "grid heatmap 0", "canvas");
    ASSERT_NE(map, nullptr) << "the view draws its heatmap";
    EXPECT_GT((*map)["w"].get<double>(), 300) << "large: the heatmap fills the view";
}

TEST(GridView, AClickMakesTheKeyCellTheQuery) {
    const fs::path dir = fresh_dir("grid_click");
    const Json script = {
        {{"wait", 3}},
        {{"key", "0"}},
        {{"wait", 3}},
        {{"click", "grid heatmap 0"}, {"at", {0.1, 0.9}}},
        {{"wait", 3}},
        {{"state", "state.json"}},
        {{"widgets", "widgets.json"}},
        {{"screenshot", "clicked.png"}},
    };
    const test::Result r = gui(dir, script, "--grid-height 16 --grid-width 16 --query-row 8 --query-column 8");
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const Json state = read_json(dir / "state.json");
    // 16 cells per side: 0.1 of the width is column 1, 0.9 of the height is row 14.
    EXPECT_EQ(state["images"]["query_row"], 14);
    EXPECT_EQ(state["images"]["query_column"], 1);
    const Json widgets = read_json(dir / "widgets.json");
    const Json* map = widget(widgets, "grid heatmap 0", "canvas");
    ASSERT_NE(map, nullptr);
    EXPECT_EQ((*map)["value"], "query 14,1");
    // The pointer still rests on the clicked cell, now the query's own: Δ = 0.
    const Json* readout = widget(widgets, "grid readout", "message");
    ASSERT_NE(readout, nullptr);
    EXPECT_EQ((*readout)["value"].get<std::string>().rfind("key (14, 1): Δ = (0, 0, 0), score ", 0), 0u) << (*readout)["value"];
}

TEST(GridView, CompareDrawsOneHeatmapPerSettingSideBySide) {
    const fs::path dir = fresh_dir("grid_compare");
    const Json script = {
        {{"wait", 4}},
        {{"key", "0"}},
        {{"wait", 4}},
        {{"widgets", "widgets.json"}},
        {{"screenshot", "compare.png"}},
    };
    const test::Result r = gui(dir, script, "--compare multi_axis=even-odd --compare multi_axis=mixed");
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const Json widgets = read_json(dir / "widgets.json");
    double previous_x = -1;
    for (int i = 0; i < 3; ++i) {
        const Json* map = widget(widgets, "grid heatmap " + std::to_string(i), "canvas");
        ASSERT_NE(map, nullptr) << i;
        EXPECT_GT((*map)["x"].get<double>(), previous_x) << "side by side, left to right";
        previous_x = (*map)["x"].get<double>() + (*map)["w"].get<double>() - 1;
    }
    EXPECT_EQ(widget(widgets, "grid heatmap 3", "canvas"), nullptr);
}

}  // namespace
}  // namespace ropelab::ui_script
