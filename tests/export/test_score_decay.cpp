// The score plot shows the decay: its y axis is fitted to the scores, not to RoFormer's bound
// (often ten to a hundred times larger), so the RoPE curve fills its plot in `render --view
// scores` and in the built-in lesson's "Long-term decay" scene; the bound stays named, with its
// looseness K a property of the data (the same at every figure size) and a true bound ratio,
// checked against a float64 computation on the exported series.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/run_binary.h"

namespace ropelab {
namespace {

// An attribute's value in the tag that starts at `from`.
std::string attribute(const std::string& svg, std::size_t from, const std::string& name) {
    const std::size_t end = svg.find('>', from);
    const std::size_t at = svg.find(" " + name + "=\"", from);
    if (at == std::string::npos || at > end) return "";
    const std::size_t begin = at + name.size() + 3;
    return svg.substr(begin, svg.find('"', begin) - begin);
}

// The stroke colour of the legend entry named `name` (its stroke is the polyline before its text).
std::string legend_colour(const std::string& svg, const std::string& name) {
    const std::size_t text = svg.find(">" + name + "</text>");
    if (text == std::string::npos) return "";
    return attribute(svg, svg.rfind("<polyline", text), "stroke");
}

struct Span {
    double plot_height = 0.0;  // the plot area's height (its clip rectangle), px
    double low = 0.0, high = 0.0;  // the series' extent in y, px
    double fraction() const { return (high - low) / plot_height; }
};

// The first plot area (a clip group) holding a path in `colour`: that path's y extent and the
// area's height. The score plot is drawn before the plots below it.
std::optional<Span> series_span(const std::string& svg, const std::string& colour) {
    for (std::size_t clip = svg.find("<clipPath"); clip != std::string::npos; clip = svg.find("<clipPath", clip + 1)) {
        const std::size_t rect = svg.find("<rect", clip);
        const std::size_t group_end = svg.find("</g>", clip);
        for (std::size_t path = svg.find("<path", clip); path != std::string::npos && path < group_end;
             path = svg.find("<path", path + 1)) {
            if (attribute(svg, path, "stroke") != colour || attribute(svg, path, "fill") != "none") continue;
            Span span{std::stod(attribute(svg, rect, "height")), std::numeric_limits<double>::infinity(),
                      -std::numeric_limits<double>::infinity()};
            std::string d = attribute(svg, path, "d");
            for (char& c : d) c = (c == 'M' || c == 'L' || c == ',') ? ' ' : c;
            std::istringstream numbers(d);
            double x, y;
            while (numbers >> x >> y) {
                span.low = std::min(span.low, y);
                span.high = std::max(span.high, y);
            }
            return span;
        }
    }
    return std::nullopt;
}

std::string render_svg(const std::string& args, const std::string& name) {
    const std::string out = test::fresh_dir("score_decay").string() + "/" + name + ".svg";
    const test::Result r = test::run("render " + args + " --out " + out);
    EXPECT_EQ(r.status, 0) << args << ": " << r.err;
    return test::slurp(out);
}

// The legend's K in "RoFormer bound (≥K× here)"; NaN where there is none.
double legend_looseness(const std::string& svg) {
    const std::string key = "RoFormer bound (≥";
    const std::size_t at = svg.find(key);
    if (at == std::string::npos) return std::nan("");
    return std::stod(svg.substr(at + key.size()));
}

void expect_rope_fills_its_plot(const std::string& svg, const std::string& what) {
    const std::string colour = legend_colour(svg, "RoPE");
    ASSERT_FALSE(colour.empty()) << what << ": no RoPE in the legend";
    const std::optional<Span> span = series_span(svg, colour);
    ASSERT_TRUE(span) << what << ": no RoPE series drawn";
    // Before the fit ignored the bound the default state's curve spanned 1.7 % of its plot.
    EXPECT_GE(span->fraction(), 0.40) << what << ": the RoPE series spans " << 100 * span->fraction() << " % of "
                                      << span->plot_height << " px";
    // The bound is still there: named in the legend, drawn, and its value at the edge it runs off.
    const std::size_t bound = svg.find(">RoFormer bound");
    ASSERT_NE(bound, std::string::npos) << what;
    const std::string bound_name = svg.substr(bound + 1, svg.find('<', bound) - bound - 1);
    EXPECT_TRUE(series_span(svg, legend_colour(svg, bound_name))) << what << ": the band is not drawn";
    EXPECT_NE(svg.find(">bound "), std::string::npos) << what << ": no off-scale arrow names the bound";
}

TEST(ScoreDecay, RopeFillsTheScorePlot) {
    const std::vector<std::pair<std::string, std::string>> states = {
        {"", "default"},
        {"--preset llama3-8b", "llama3"},
        {"--max-distance 1000000", "long"},
        {"--preset llama3-8b --vectors random --max-distance 65536 --log-distance", "llama3_random_log"},
    };
    for (const auto& [args, name] : states) {
        expect_rope_fills_its_plot(render_svg("--view scores --show-bound " + args, name), name);
    }
}

TEST(ScoreDecay, LessonDecaySceneFillsItsPlot) {
    const auto lesson = nlohmann::json::parse(test::slurp(std::string(ROPELAB_SOURCE_DIR) + "/assets/lessons/rope-from-first-principles.json"));
    int scene = 0;
    for (std::size_t i = 0; i < lesson["scenes"].size(); ++i) {
        if (lesson["scenes"][i]["title"] == "Long-term decay") scene = static_cast<int>(i) + 1;
    }
    ASSERT_GT(scene, 0) << "no scene titled Long-term decay";
    ASSERT_TRUE(lesson["scenes"][scene - 1]["set"].value("show_bound", false)) << "the decay scene shows the bound";
    const std::string svg = render_svg("--lesson builtin --scene " + std::to_string(scene), "lesson");
    expect_rope_fills_its_plot(svg, "lesson scene " + std::to_string(scene));
}

struct Row {
    double distance, rope, bound;
};

std::vector<Row> exported_scores(const std::string& args) {
    const std::string out = test::fresh_dir("score_decay_csv").string() + "/scores.csv";
    const test::Result r = test::run("export-data --view scores " + args + " --out " + out);
    EXPECT_EQ(r.status, 0) << r.err;
    std::ifstream in(out);
    std::string line;
    std::vector<Row> rows;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#' || line.rfind("distance,", 0) == 0) continue;
        Row row{};
        char comma;
        std::istringstream fields(line);
        fields >> row.distance >> comma >> row.rope >> comma >> row.bound;
        rows.push_back(row);
    }
    return rows;
}

// K as the legend defines it: the N distances cut into 512 equal blocks (block b from
// ceil(N·b/512)); in each, the bound's least value over the largest |score| (no pass-through
// part here); the smallest over the blocks.
double blockwise_looseness(const std::vector<Row>& rows) {
    const auto n = static_cast<std::int64_t>(rows.size());
    const auto start = [&](std::int64_t b) { return (n * b + 511) / 512; };
    double k = std::numeric_limits<double>::infinity();
    for (std::int64_t b = 0; b < 512; ++b) {
        double least_bound = std::numeric_limits<double>::infinity(), largest_score = 0.0;
        for (std::int64_t i = start(b); i < start(b + 1); ++i) {
            least_bound = std::min(least_bound, rows[i].bound);
            largest_score = std::max(largest_score, std::abs(rows[i].rope));
        }
        if (largest_score > 0.0) k = std::min(k, least_bound / largest_score);
    }
    return k;
}

TEST(ScoreDecay, LoosenessIsTheDataAndATrueBoundRatio) {
    for (const std::string args : {"--show-bound", "--show-bound --preset llama3-8b --vectors random --max-distance 20000"}) {
        SCOPED_TRACE(args);
        const double small = legend_looseness(render_svg("--view scores --size 1280x720 " + args, "small"));
        const double large = legend_looseness(render_svg("--view scores --size 1920x1080 " + args, "large"));
        const double odd = legend_looseness(render_svg("--view scores --size 1000x900 " + args, "odd"));
        ASSERT_TRUE(std::isfinite(small) && std::isfinite(large) && std::isfinite(odd));
        // Before, K was worked out per screen column: 11.4× to 15.7× for one state.
        EXPECT_EQ(small, large);
        EXPECT_EQ(small, odd);

        const std::vector<Row> rows = exported_scores(args);
        ASSERT_GT(rows.size(), 1000u);
        const double k = blockwise_looseness(rows);
        // The legend prints three significant digits.
        EXPECT_NEAR(small, k, 0.006 * k);
        // A true bound ratio: at every distance the bound is at least K times |score|, and K is
        // more than 1 (the bound holds, loosely).
        double tightest = std::numeric_limits<double>::infinity();
        for (const Row& row : rows) {
            if (row.rope != 0.0) tightest = std::min(tightest, row.bound / std::abs(row.rope));
        }
        EXPECT_LE(k, tightest * (1 + 1e-9));
        EXPECT_GT(k, 1.0);
    }
}

// View 10's text-token curve is a plot with axes: its x label (the distance in tokens), its y
// label and tick numbers along both (before: a bare line in a box, only a range in words). The
// colour key under the heatmap has two numbers; the plot's ticks are the rest.
TEST(GridTextCurve, HasLabelledAxesWithTicks) {
    const std::string svg = render_svg("--view grid --grid 1x16x16", "grid");
    EXPECT_NE(svg.find(">distance Δ (tokens)</text>"), std::string::npos);
    EXPECT_NE(svg.find(">score</text>"), std::string::npos);
    EXPECT_NE(svg.find(">text tokens: score vs Δ</text>"), std::string::npos);
    int numbers = 0;
    for (std::size_t at = svg.find("<text"); at != std::string::npos; at = svg.find("<text", at + 1)) {
        const std::size_t begin = svg.find('>', at) + 1;
        const std::string text = svg.substr(begin, svg.find('<', begin) - begin);
        char* end = nullptr;
        std::strtod(text.c_str(), &end);
        numbers += !text.empty() && end == text.c_str() + text.size();
    }
    EXPECT_GE(numbers, 2 + 6) << "the key's two ends and at least three ticks on each axis";
}

}  // namespace
}  // namespace ropelab
