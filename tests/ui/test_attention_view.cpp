// tests/ui through `gui --script`: the attention view (11). Key A shows it large; the wheel zooms
// all three panels to single cells, where the hover reads m, n, logit and weight, checked
// against `export-data --view attention` (every entry, a separate path through core/attention);
// a drag pans; the panel's Vectors combo switches to the needle; and at T = 2^16 random vectors
// no frame after the first second takes over 100 ms while the matrix is completed off the frame;
// a new T typed in the panel shows the whole new matrix; compare mode's selector picks the setting.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <tuple>
#include <string>
#include <utility>
#include <vector>

#include "script.h"

namespace ropelab::ui_script {
namespace {

// export-data's rows m,n → (logit, weight), visible entries only.
std::map<std::pair<int, int>, std::pair<double, double>> exported(const fs::path& dir, const std::string& args) {
    const test::Result r = test::run("export-data --view attention --out attention.csv " + args, "cd '" + dir.string() + "' &&");
    EXPECT_EQ(r.status, 0) << r.err;
    std::map<std::pair<int, int>, std::pair<double, double>> out;
    std::ifstream in(dir / "attention.csv");
    std::string line;
    while (std::getline(in, line)) {
        int m = 0, n = 0;
        double logit = 0, weight = 0;
        if (std::sscanf(line.c_str(), "%d,%d,%lf,%lf", &m, &n, &logit, &weight) == 4) out[{m, n}] = {logit, weight};
    }
    return out;
}

TEST(AttentionView, KeyAShowsItLargeWithThreePanelsInOrder) {
    const fs::path dir = fresh_dir("attention_key");
    for (const char* theme : {"dark", "light"}) {
        const Json script = {
            {{"wait", 3}},
            {{"key", "A"}},
            {{"wait", 6}},
            {{"state", "large.json"}},
            {{"widgets", "widgets.json"}},
            {{"screenshot", std::string("large_") + theme + ".png"}},
            {{"key", "A"}},
            {{"wait", 2}},
            {{"state", "grid.json"}},
        };
        const test::Result r = gui(dir, script, std::string("--tokens text:2048 --theme ") + theme);
        ASSERT_EQ(r.status, 0) << r.err << r.out;
        EXPECT_EQ(read_json(dir / "large.json")["layout"]["focused_view"], 10);
        EXPECT_EQ(read_json(dir / "grid.json")["layout"]["focused_view"], -1);
        const Json widgets = read_json(dir / "widgets.json");
        double previous = -1;
        for (int i = 0; i < 3; ++i) {
            const Json* panel = widget(widgets, "attention panel " + std::to_string(i), "canvas");
            ASSERT_NE(panel, nullptr) << i;
            EXPECT_GT((*panel)["x"].get<double>(), previous) << "logits, masked, weights: left to right";
            EXPECT_GT((*panel)["w"].get<double>(), 250) << "large: the panels fill the view";
            EXPECT_EQ((*panel)["value"], "rows 0 .. 2047, keys 0 .. 2047") << "the whole matrix at first";
            previous = (*panel)["x"].get<double>() + (*panel)["w"].get<double>() - 1;
        }
        const Json* progress = widget(widgets, "attention progress", "readout");
        ASSERT_NE(progress, nullptr);
        const std::string rows = (*progress)["value"];
        const auto slash = rows.find(" / ");
        ASSERT_NE(slash, std::string::npos) << rows;
        EXPECT_GT(std::stoi(rows.substr(0, slash)), 0) << "rows computed within six frames: " << rows;
        for (const char* plot : {"attention mass", "attention distance", "attention entropy"}) {
            EXPECT_NE(widget(widgets, plot, "plot"), nullptr) << plot;
        }
    }
}

TEST(AttentionView, TheWheelZoomsEveryPanelToCellsAndTheHoverReadsOneExactly) {
    const fs::path dir = fresh_dir("attention_zoom");
    const std::string args = "--tokens text:64 --token-vectors random --seed 5";
    const Json script = {
        {{"wait", 3}},
        {{"key", "A"}},
        {{"wait", 5}},
        {{"wheel", "attention panel 1"}, {"dy", 10}},  // 64 · 0.8^10 < 8: the least span, 8 cells
        {{"wait", 5}},
        {{"hover", "attention panel 2"}, {"at", {0.3125, 0.8125}}},  // the middles of column 2 and row 6
        {{"wait", 3}},
        {{"widgets", "zoomed.json"}},
        {{"screenshot", "zoomed.png"}},
        {{"hover", "attention panel 0"}, {"at", {0.9375, 0.0625}}},  // row 0, column 7: above the diagonal
        {{"wait", 3}},
        {{"widgets", "masked.json"}},
        {{"drag", "attention panel 0"}, {"dx", -150}},  // half a panel: four cells to the right
        {{"wait", 5}},
        {{"widgets", "panned.json"}},
    };
    const test::Result r = gui(dir, script, args);
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const Json zoomed = read_json(dir / "zoomed.json");
    for (int i = 0; i < 3; ++i) {
        const Json* panel = widget(zoomed, "attention panel " + std::to_string(i), "canvas");
        ASSERT_NE(panel, nullptr);
        EXPECT_EQ((*panel)["value"], "rows 28 .. 35, keys 28 .. 35") << "one zoom for all three, around the pointer at the middle";
    }
    const Json* readout = widget(zoomed, "attention readout", "message");
    ASSERT_NE(readout, nullptr);
    const std::string text = (*readout)["value"];
    std::smatch match;
    ASSERT_TRUE(std::regex_match(text, match, std::regex(R"(m = (\d+), n = (\d+): logit (\S+), weight (\S+))"))) << text;
    EXPECT_EQ(std::stoi(match[1]), 34);
    EXPECT_EQ(std::stoi(match[2]), 30);
    const auto entries = exported(dir, args);
    const auto it = entries.find({34, 30});
    ASSERT_NE(it, entries.end());
    // The readout's six significant digits against the export's full precision.
    EXPECT_NEAR(std::stod(match[3]), it->second.first, 5e-6 * std::abs(it->second.first) + 1e-12);
    EXPECT_NEAR(std::stod(match[4]), it->second.second, 5e-6 * it->second.second + 1e-12);
    // Row 34's weights sum to 1 in the export: the hover's weight is a share of that row.
    double sum = 0;
    for (int n = 0; n <= 34; ++n) sum += entries.at({34, n}).second;
    EXPECT_NEAR(sum, 1.0, 1e-9);

    const Json masked_widgets = read_json(dir / "masked.json");
    const Json* masked = widget(masked_widgets, "attention readout", "message");
    ASSERT_NE(masked, nullptr);
    EXPECT_EQ((*masked)["value"].get<std::string>().rfind("m = 28, n = 35: logit ", 0), 0u) << (*masked)["value"];
    EXPECT_NE((*masked)["value"].get<std::string>().find("masked (weight 0)"), std::string::npos) << "n > m is not attended";
    EXPECT_EQ(entries.count({28, 35}), 0u) << "and the export leaves it out";

    const Json panned_widgets = read_json(dir / "panned.json");
    const Json* panned = widget(panned_widgets, "attention panel 2", "canvas");
    ASSERT_NE(panned, nullptr);
    // 150 of the panel's 298 px at 8 cells: 4 cells; the rows stay.
    EXPECT_EQ((*panned)["value"], "rows 28 .. 35, keys 32 .. 39") << "a horizontal drag moves every panel's keys only";
}

TEST(AttentionView, TheVectorsComboSwitchesToTheNeedle) {
    const fs::path dir = fresh_dir("attention_needle");
    const Json script = {
        {{"wait", 3}},
        {{"key", "A"}},
        {{"wait", 3}},
        {{"click", "Attention"}},
        {{"wait", 2}},
        {{"click", "Vectors"}},
        {{"wait", 2}},
        {{"click", "needle"}},
        {{"wait", 6}},
        {{"state", "state.json"}},
        {{"widgets", "widgets.json"}},
        {{"screenshot", "needle.png"}},
    };
    const test::Result r = gui(dir, script, "--tokens text:512 --needle 100");
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const Json state = read_json(dir / "state.json");
    EXPECT_EQ(state["attention"]["vectors"], "needle");
    EXPECT_EQ(state["attention"]["needle"], 100);
    const Json widgets = read_json(dir / "widgets.json");
    EXPECT_NE(widget(widgets, "needle token", "slider"), nullptr) << "the needle's own control appears";
}

// T = 2^16 with random vectors: 2^32 logits, the worst case (no Toeplitz shortcut). Every frame
// after the first second stays under 100 ms, and the matrix is whole within the run. The machine
// may be shared (other builds, other tests): a run whose slow frame came from elsewhere is run
// again, up to three times; a frame the view itself blocks would be slow in every run.
TEST(AttentionView, SixtyFiveThousandTokensStayInteractive) {
    double best_worst = 1e9;
    for (int attempt = 1; attempt <= 3 && best_worst >= 100.0; ++attempt) {
        const test::Result r = test::run("gui --frames 1500 --stats --paused --view 11 --size 1280x720 --tokens text:65536 "
                                         "--token-vectors random");
        ASSERT_EQ(r.status, 0) << r.err;
        const Json stats = Json::parse(r.out.substr(r.out.find('{')));
        const std::vector<double> ms = stats["frame_ms"].get<std::vector<double>>();
        ASSERT_EQ(ms.size(), 1500u);
        double elapsed = 0, worst = 0;
        int late = 0;
        for (double m : ms) {
            elapsed += m;
            if (elapsed <= 1000) continue;
            worst = std::max(worst, m);
            ++late;
        }
        ASSERT_GT(late, 100) << "frames after the first second";
        const double whole = stats["attention_ms"].get<double>();
        EXPECT_GT(whole, 0.0) << "the matrix was completed within " << elapsed << " ms of frames";
        EXPECT_LT(whole, 60000.0);
        std::printf("run %d, T = 65536 random: slowest frame after 1 s %.1f ms, mean %.1f ms, matrix whole after %.0f ms\n", attempt,
                    worst, stats["mean_ms"].get<double>(), whole);
        best_worst = std::min(best_worst, worst);
    }
    EXPECT_LT(best_worst, 100.0) << "the slowest frame after start-up, in the best of three runs";
}

// `render --view attention`: the PNG shows the masked half in its grey; the SVG and PDF carry the
// three panels as images (the texture read back) with the captions as text.
TEST(AttentionView, RendersAsPngSvgAndPdf) {
    const fs::path dir = fresh_dir("attention_render");
    const std::string args = "render --view attention --tokens text:1024 --sliding-window 256 --size 1280x720 --out ";
    for (const char* out : {"a.png", "a.svg", "a.pdf"}) {
        const test::Result r = test::run(args + out, "cd '" + dir.string() + "' &&");
        ASSERT_EQ(r.status, 0) << out << r.err;
    }
    int w = 0, h = 0;
    const std::vector<unsigned char> px = pixels(dir / "a.png", w, h);
    ASSERT_EQ(w, 1280);
    std::size_t grey = 0;
    for (std::size_t i = 0; i + 3 < px.size(); i += 4) grey += px[i] == 128 && px[i + 1] == 128 && px[i + 2] == 128;
    // Two panels of about 330² px, each with the upper triangle and the band below the window
    // masked: well over 50 000 grey pixels.
    EXPECT_GT(grey, 50000u);
    std::ifstream svg_in(dir / "a.svg");
    const std::string svg((std::istreambuf_iterator<char>(svg_in)), std::istreambuf_iterator<char>());
    std::size_t images = 0;
    for (std::size_t at = svg.find("<image"); at != std::string::npos; at = svg.find("<image", at + 1)) ++images;
    EXPECT_EQ(images, 3u) << "logits, masked, weights";
    EXPECT_NE(svg.find("sliding window W = 256"), std::string::npos) << "the caption as text";
    EXPECT_GT(fs::file_size(dir / "a.pdf"), 10000u);
}

// A new T shows the whole new matrix: T typed into the Images section's Layout field, as a person
// does, after the view was zoomed in on the old one. Before, the zoom kept its old window (the
// whole 33 × 33 matrix, now a corner of 64 × 64) and the change seemed to do nothing.
TEST(AttentionView, ANewTShowsTheWholeNewMatrix) {
    const fs::path dir = fresh_dir("attention_new_t");
    const auto panel_value = [&](const std::string& file) {
        const Json widgets = read_json(dir / file);
        const Json* panel = widget(widgets, "attention panel 0", "canvas");
        return panel ? (*panel)["value"].get<std::string>() : std::string("(no panel)");
    };
    const Json layout = {{"click", "Layout"}, {"at", {0.1, 0.5}}};
    for (const bool zoomed : {false, true}) {
        Json script = {{{"wait", 3}}, {{"key", "A"}}, {{"wait", 5}}, {{"widgets", "before.json"}}};
        if (zoomed) script.push_back({{"wheel", "attention panel 0"}, {"dy", 3}});  // 33 · 0.8³: 17 cells
        for (const Json& step : Json{{{"wait", 3}},
                                     {{"widgets", "zoomed.json"}},
                                     {{"click", "Model"}},
                                     {{"click", "Curves"}},
                                     {{"click", "Position and playback"}},
                                     {{"click", "Images"}},
                                     {{"wait", 1}},
                                     layout,
                                     {{"type", "text:64"}},
                                     {{"key", "Enter"}},
                                     {{"wait", 6}},
                                     {{"state", "after.json"}},
                                     {{"widgets", "after.json.widgets"}}}) {
            script.push_back(step);
        }
        const test::Result r = gui(dir, script, "--tokens text:33 --token-vectors random --seed 5");
        ASSERT_EQ(r.status, 0) << r.err << r.out;
        EXPECT_EQ(panel_value("before.json"), "rows 0 .. 32, keys 0 .. 32");
        if (zoomed) {
            EXPECT_NE(panel_value("zoomed.json"), "rows 0 .. 32, keys 0 .. 32") << "the wheel zoomed in";
        }
        EXPECT_EQ(read_json(dir / "after.json")["images"]["tokens"], "text:64");
        EXPECT_EQ(panel_value("after.json.widgets"), "rows 0 .. 63, keys 0 .. 63") << (zoomed ? "zoomed first" : "whole first");
        const Json after = read_json(dir / "after.json.widgets");
        for (int i = 1; i < 3; ++i) {
            const Json* panel = widget(after, "attention panel " + std::to_string(i), "canvas");
            ASSERT_NE(panel, nullptr);
            EXPECT_EQ((*panel)["value"], "rows 0 .. 63, keys 0 .. 63") << "one zoom for all three";
        }
    }
}

// export-data's rows in compare mode: (setting, m, n) → logit.
std::map<std::tuple<int, int, int>, double> exported_settings(const fs::path& dir, const std::string& args) {
    const test::Result r = test::run("export-data --view attention --out compared.csv " + args, "cd '" + dir.string() + "' &&");
    EXPECT_EQ(r.status, 0) << r.err;
    std::map<std::tuple<int, int, int>, double> out;
    std::ifstream in(dir / "compared.csv");
    std::string line;
    while (std::getline(in, line)) {
        int s = 0, m = 0, n = 0;
        double logit = 0, weight = 0;
        if (std::sscanf(line.c_str(), "%d,%d,%d,%lf,%lf", &s, &m, &n, &logit, &weight) == 5) out[{s, m, n}] = logit;
    }
    return out;
}

// Compare mode: view 11 picks its setting as views 2 and 4 do. Its combo, clicked, picks PI ×8;
// the state's single setting says so, and the cell under the pointer then reads PI's logit (from
// export-data's stacked rows for that setting), where it read the base's before.
TEST(AttentionView, CompareModePicksTheSettingShown) {
    const fs::path dir = fresh_dir("attention_compare");
    const std::string args = "--comparison llama3.1-scaling --tokens text:64 --token-vectors random --seed 5";
    const Json hover = {{"hover", "attention panel 0"}, {"at", {0.30, 0.90}}};  // below the diagonal: attended
    const Json script = {
        {{"wait", 5}},
        {{"key", "A"}},
        {{"wait", 6}},
        hover,
        {{"wait", 3}},
        {{"widgets", "base.json"}},
        {{"click", "setting shown"}},
        {{"wait", 2}},
        {{"click", "PI ×8"}},
        {{"wait", 8}},
        hover,
        {{"wait", 3}},
        {{"state", "picked_state.json"}},
        {{"widgets", "picked.json"}},
    };
    const test::Result r = gui(dir, script, args);
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    EXPECT_EQ(read_json(dir / "picked_state.json")["compare"]["single_setting"], 2);
    const Json picked = read_json(dir / "picked.json");
    const Json* combo = widget(picked, "setting shown", "combo");
    ASSERT_NE(combo, nullptr) << "view 11 has the setting selector";
    EXPECT_EQ((*combo)["value"], "PI ×8");
    const auto logit_read = [&](const Json& widgets, int& m, int& n) {
        const Json* readout = widget(widgets, "attention readout", "message");
        if (!readout) return std::nan("");
        std::smatch match;
        const std::string text = (*readout)["value"];
        if (!std::regex_match(text, match, std::regex(R"(m = (\d+), n = (\d+): logit (\S+), weight (\S+))"))) return std::nan("");
        m = std::stoi(match[1]);
        n = std::stoi(match[2]);
        return std::stod(match[3]);
    };
    int m0 = -1, n0 = -1, m1 = -2, n1 = -2;
    const double before = logit_read(read_json(dir / "base.json"), m0, n0);
    const double after = logit_read(picked, m1, n1);
    ASSERT_TRUE(std::isfinite(before) && std::isfinite(after));
    ASSERT_EQ(m0, m1);
    ASSERT_EQ(n0, n1);
    ASSERT_NE(m0, n0) << "a cell off the diagonal, where the settings' rotations differ";
    const auto entries = exported_settings(dir, args);
    const double base = entries.at({0, m0, n0}), pi = entries.at({2, m0, n0});
    ASSERT_GT(std::abs(base - pi), 1e-3 * std::abs(base)) << "the two settings' logits differ at this cell";
    EXPECT_NEAR(before, base, 5e-6 * std::abs(base) + 1e-12) << "the base before";
    EXPECT_NEAR(after, pi, 5e-6 * std::abs(pi) + 1e-12) << "PI ×8's after the pick";
}

}  // namespace
}  // namespace ropelab::ui_script
