// The library lesson "Images and video" says only what its slides hold: every number, range and
// position id its captions state is read off what the binary exports for that scene's settings
// (the views draw the same products) and checked against a float64 ladder worked out here from the
// models' configs (θ, head size, mrope_section, axes_dims_rope) or against ids worked out by hand
// from get_rope_index's rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numbers>
#include <set>
#include <string>
#include <vector>

#include "export/lesson_scene.h"

namespace ropelab {
namespace {

using test::LessonJson;

enum Axis { T = 0, H = 1, W = 2 };

const LessonJson& lesson() {
    static const LessonJson l = test::library_lesson("images-and-video");
    return l;
}
const LessonJson& scene(const std::string& title) { return test::scene_titled(lesson(), title); }

// One axis's ladder: ω_k = θ^(−2k/dim) for k = 0 … dim/2 − 1 (HF's inv_freq).
double rung(double theta, int k, int dim) { return std::pow(theta, -2.0 * k / dim); }

// Qwen2-VL and Qwen3-VL share one 128-component ladder: pair j turns at θ^(−2j/128).
std::vector<double> llm_ladder(double theta) {
    std::vector<double> w;
    for (int j = 0; j < 64; ++j) w.push_back(rung(theta, j, 128));
    return w;
}

// Qwen2-VL's contiguous sections 16/24/24; Qwen3-VL's interleaving of 24/20/20 (h on 1, 4, …, 58,
// w on 2, 5, …, 59, t elsewhere), as the captions state them.
Axis sections_axis(int j) { return j < 16 ? T : j < 40 ? H : W; }
Axis interleaved_axis(int j) { return j < 60 && j % 3 == 1 ? H : j < 60 && j % 3 == 2 ? W : T; }

struct Ladder {
    std::vector<double> omega;
    std::vector<Axis> axis;
};

Ladder qwen2_vl() {
    Ladder l{llm_ladder(1e6), {}};
    for (int j = 0; j < 64; ++j) l.axis.push_back(sections_axis(j));
    return l;
}
Ladder qwen3_vl() {
    Ladder l{llm_ladder(5e6), {}};
    for (int j = 0; j < 64; ++j) l.axis.push_back(interleaved_axis(j));
    return l;
}

// The exported frequencies (one setting's columns, "" for a lone setting) agree with the ladder:
// each pair's speed along its own axis (axis_speed; inv_freq is the head's 1-D ladder) and its axis.
void expect_ladder(const test::Csv& csv, const std::string& prefix, const Ladder& want) {
    const auto omega = test::column(csv, prefix + "axis_speed");
    const auto axis = test::column(csv, prefix + "axis");
    ASSERT_EQ(omega.size(), want.omega.size());
    ASSERT_EQ(axis.size(), want.axis.size());
    for (std::size_t j = 0; j < omega.size(); ++j) {
        EXPECT_NEAR(omega[j], want.omega[j], 1e-12 * want.omega[j]) << prefix << " pair " << j;
        EXPECT_EQ(static_cast<int>(axis[j]), want.axis[j]) << prefix << " pair " << j;
    }
}

std::vector<double> wavelengths_on(const Ladder& l, Axis a) {
    std::vector<double> out;
    for (std::size_t j = 0; j < l.omega.size(); ++j) {
        if (l.axis[j] == a) out.push_back(2 * std::numbers::pi / l.omega[j]);
    }
    return out;
}
double shortest(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }
double longest(const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); }

TEST(LessonImagesAndVideo, IsALibraryLesson) { test::expect_library_lesson(lesson()); }

TEST(LessonImagesAndVideo, QwenTwoCutsItsPairsIntoContiguousSections) {
    const LessonJson& s = scene("Three coordinates per token");
    test::expect_claims(s, {"mrope_section [16, 24, 24]", "64 rotary pairs", "pairs 0–15 turn with t, 16–39 with h, 40–63 with w"});
    ASSERT_EQ(s["views"], LessonJson::array({6}));
    expect_ladder(test::export_scene(s, "frequencies"), "", qwen2_vl());
}

TEST(LessonImagesAndVideo, SectionsLeaveWidthTheSlowestPairs) {
    const LessonJson& s = scene("Sections leave width the slowest pairs");
    test::expect_claims(s, {"the last section gets the slowest pairs", "16 tokens wide", "wavelengths of 35,000 tokens and more",
                            "height pairs 198 and more"});
    const test::Csv csv = test::export_scene(s, "frequencies");
    const Ladder l = qwen2_vl();
    expect_ladder(csv, "", l);
    // The exported wavelengths are the ones the plot draws; the float64 ones say what they must be.
    const auto exported = test::column(csv, "axis_wavelength");
    for (std::size_t j = 0; j < exported.size(); ++j) EXPECT_NEAR(exported[j], 2 * std::numbers::pi / l.omega[j], 1e-9 * exported[j]);
    const auto t = wavelengths_on(l, T), h = wavelengths_on(l, H), w = wavelengths_on(l, W);
    EXPECT_GE(shortest(w), 35000.0);
    EXPECT_LT(shortest(w), 36000.0);  // "35,000", not a rounding of 40,000
    EXPECT_GE(shortest(h), 198.0);
    EXPECT_LT(shortest(h), 199.0);
    EXPECT_GT(shortest(w), longest(h)) << "width's pairs are all slower than height's";
    EXPECT_GT(shortest(h), longest(t));
    EXPECT_EQ(s["set"]["preset"], "qwen2-vl-7b");
}

TEST(LessonImagesAndVideo, InterleavingGivesEveryAxisTheWholeLadder) {
    const LessonJson& s = scene("Interleaved: every axis gets every speed");
    test::expect_claims(s, {"mrope_section [24, 20, 20]", "h on pairs 1, 4, …, 58, w on 2, 5, …, 59, t on the rest",
                            "shortest wavelength is about 10 tokens"});
    const Ladder l = qwen3_vl();
    expect_ladder(test::export_scene(s, "frequencies"), "", l);
    std::map<Axis, int> count;
    for (Axis a : l.axis) ++count[a];
    EXPECT_EQ(count[T], 24);
    EXPECT_EQ(count[H], 20);
    EXPECT_EQ(count[W], 20);
    EXPECT_NEAR(shortest(wavelengths_on(l, W)), 10.0, 0.5);
    for (Axis a : {T, H, W}) {
        EXPECT_LT(shortest(wavelengths_on(l, a)), 16.0) << "axis " << a << " has a pair faster than the image";
        EXPECT_GT(longest(wavelengths_on(l, a)), 1e6) << "axis " << a << " has a pair slower than any context";
    }
}

// ⟨R q, R k⟩ for q = k = ones (half layout: pair j is components j and j + 64, 2·cos of its angle).
double ones_score(const Ladder& l, int dh, int dw) {
    double s = 0;
    for (std::size_t j = 0; j < l.omega.size(); ++j) {
        const int d = l.axis[j] == H ? dh : l.axis[j] == W ? dw : 0;
        s += 2 * std::cos(l.omega[j] * d);
    }
    return s;
}

// One setting's grid export: score by (dh, dw) of frame offset 0.
std::map<std::pair<int, int>, double> grid_of(const test::Csv& csv, int setting) {
    std::map<std::pair<int, int>, double> out;
    for (const auto& r : csv.rows) {
        if (static_cast<int>(r[0]) == setting && r[1] == 0) out[{static_cast<int>(r[2]), static_cast<int>(r[3])}] = r[4];
    }
    return out;
}

struct Spread {
    double lowest = INFINITY, highest = -INFINITY, along_rows = 0, down_columns = 0;
};

// The query (row 8, column 8) against every key (h, w) of the 16×16 image, as the heatmap shows it.
Spread spread(const std::map<std::pair<int, int>, double>& grid, const Ladder* check = nullptr) {
    Spread s;
    for (int h = 0; h < 16; ++h) {
        for (int w = 0; w < 16; ++w) {
            const double v = grid.at({8 - h, 8 - w});
            if (check) {
                EXPECT_NEAR(v, ones_score(*check, 8 - h, 8 - w), 1e-6) << h << ", " << w;
            }
            s.lowest = std::min(s.lowest, v);
            s.highest = std::max(s.highest, v);
            s.along_rows = std::max(s.along_rows, std::abs(v - grid.at({8 - h, 0})));
            s.down_columns = std::max(s.down_columns, std::abs(v - grid.at({0, 8 - w})));
        }
    }
    return s;
}

TEST(LessonImagesAndVideo, OneQueryOverAnImage) {
    const LessonJson& s = scene("One query over an image: Qwen2-VL vs Qwen3-VL");
    test::expect_claims(s, {"(row 8, column 8)", "16×16 image", "stays between 127.8 and 128", "changes only from row to row",
                            "falls to 113.8, along rows and columns alike"});
    ASSERT_EQ(s["set"]["query_row"], 8);
    ASSERT_EQ(s["set"]["query_column"], 8);
    const test::Csv csv = test::export_scene(s, "grid");
    ASSERT_EQ(csv.header, "setting,dt,dh,dw,score");
    const Spread qwen2 = spread(grid_of(csv, 0), nullptr), qwen3 = spread(grid_of(csv, 1), nullptr);
    // The heatmaps' own numbers against the float64 sums of the two ladders.
    const Ladder two = qwen2_vl(), three = qwen3_vl();
    spread(grid_of(csv, 0), &two);
    spread(grid_of(csv, 1), &three);
    EXPECT_GE(qwen2.lowest, 127.75);  // written "127.8" under the heatmap
    EXPECT_LE(qwen2.highest, 128.0 + 1e-9);
    EXPECT_LT(qwen2.along_rows, 1e-3 * qwen2.down_columns) << "Qwen2-VL: rows differ, columns hardly";
    EXPECT_NEAR(qwen3.lowest, 113.8, 0.05);
    EXPECT_GT(qwen3.along_rows, 1.0);
    EXPECT_GT(qwen3.down_columns, 1.0);
}

// ---- position ids ---------------------------------------------------------------------------

struct Ids {
    std::vector<long> t, h, w;
    std::vector<std::string> kind;
};

Ids positions(const std::string& preset, const std::string& tokens) {
    const test::Result r = test::run("positions --preset " + preset + " --tokens " + tokens);
    EXPECT_EQ(r.status, 0) << r.err;
    const LessonJson j = LessonJson::parse(r.out);
    return {j["t"].get<std::vector<long>>(), j["h"].get<std::vector<long>>(), j["w"].get<std::vector<long>>(),
            j["kind"].get<std::vector<std::string>>()};
}

// The scene's layout as get_rope_index numbers it.
Ids scene_ids(const LessonJson& s) {
    return positions(s["set"]["preset"].get<std::string>(), s["set"]["tokens"].get<std::string>());
}

// The scene keeps only pair 0 (a t pair) in q and k, so the logit of query m and key n is
// |q_0|²·cos(t_m − t_n)/√d = 2·cos(Δt)/√128: the attention map draws the t ids. Checked on every cell.
void expect_logits_draw_t(const LessonJson& s, const Ids& ids) {
    ASSERT_EQ(s["set"]["vectors"], "pair");
    ASSERT_EQ(s["set"]["pair"], 0);
    ASSERT_EQ(s["set"]["token_vectors"], "same");
    ASSERT_EQ(s["views"], LessonJson::array({11}));
    const test::Csv csv = test::export_scene(s, "attention");
    ASSERT_EQ(csv.header, "m,n,logit,weight");
    ASSERT_EQ(csv.rows.size(), ids.t.size() * (ids.t.size() + 1) / 2);
    for (const auto& r : csv.rows) {
        const auto m = static_cast<std::size_t>(r[0]), n = static_cast<std::size_t>(r[1]);
        EXPECT_NEAR(r[2], 2 * std::cos(static_cast<double>(ids.t[m] - ids.t[n])) / std::sqrt(128.0), 1e-9) << m << ", " << n;
    }
}

// The t ids of the video's frames, in order, each frame's tokens all sharing one t.
std::vector<long> video_frames(const Ids& ids, std::size_t tokens_per_frame) {
    std::map<long, std::size_t> per_t;
    for (std::size_t i = 0; i < ids.t.size(); ++i) {
        if (ids.kind[i] == "video") ++per_t[ids.t[i]];
    }
    std::vector<long> frames;
    for (const auto& [t, n] : per_t) {
        EXPECT_EQ(n, tokens_per_frame) << "frame t = " << t;
        frames.push_back(t);
    }
    return frames;
}

// The id the text after the last vision block starts from (the text's t = h = w).
long text_resumes_at(const Ids& ids) {
    const std::size_t last = ids.kind.size() - 4;  // the layout ends with text:4
    EXPECT_EQ(ids.kind[last], "text");
    EXPECT_EQ(ids.kind[last - 1], "vision_end");
    EXPECT_EQ(ids.t[last], ids.h[last]);
    EXPECT_EQ(ids.t[last], ids.w[last]);
    return ids.t[last];
}

TEST(LessonImagesAndVideo, PositionIdsOfTextImageAndVideo) {
    const LessonJson& s = scene("Position ids of text, image and video");
    test::expect_claims(s, {"pair 0, a time pair", "∝ cos(Δt)", "Text takes ids 0–4 (with the vision start)",
                            "the image's 4×4 tokens all get t = 5", "the video's frames t = 11, 12, 13, 14",
                            "after the video's end token text resumes at 16"});
    ASSERT_EQ(s["set"]["tokens"], "text:4,image:1x8x8,video:4x4x4@1,text:4");
    const Ids ids = scene_ids(s);
    // Text, then the vision start: ids 0 … 4 on every axis.
    for (long i = 0; i <= 4; ++i) {
        EXPECT_EQ(ids.t[i], i);
        EXPECT_EQ(ids.h[i], i);
        EXPECT_EQ(ids.w[i], i);
    }
    EXPECT_EQ(ids.kind[4], "vision_start");
    // The image: 8×8 patches merged 2×2 are 16 tokens, one t, rows and columns 5 … 8 each once.
    std::set<std::pair<long, long>> cells;
    for (std::size_t i = 0; i < ids.kind.size(); ++i) {
        if (ids.kind[i] != "image") continue;
        EXPECT_EQ(ids.t[i], 5);
        EXPECT_GE(ids.h[i], 5);
        EXPECT_LE(ids.h[i], 8);
        cells.insert({ids.h[i], ids.w[i]});
    }
    EXPECT_EQ(cells.size(), 16u);
    EXPECT_EQ(*cells.begin(), std::make_pair(5L, 5L));
    EXPECT_EQ(*cells.rbegin(), std::make_pair(8L, 8L));
    EXPECT_EQ(video_frames(ids, 4), (std::vector<long>{11, 12, 13, 14}));
    EXPECT_EQ(text_resumes_at(ids), 16);
    expect_logits_draw_t(s, ids);
}

TEST(LessonImagesAndVideo, QwenTwoPointFiveCountsSeconds) {
    const LessonJson& s = scene("Video time: frames or seconds");
    test::expect_claims(s, {"2 t ids a second", "t = 11, 13, 15, 17 instead of 11, 12, 13, 14", "text resumes at 19"});
    ASSERT_EQ(s["set"]["preset"], "qwen2.5-vl-7b");
    const Ids ids = scene_ids(s);
    EXPECT_EQ(video_frames(ids, 4), (std::vector<long>{11, 13, 15, 17}));
    EXPECT_EQ(text_resumes_at(ids), 19);
    // "instead of": the same layout under Qwen2-VL's rule.
    EXPECT_EQ(video_frames(positions("qwen2-vl-7b", s["set"]["tokens"]), 4), (std::vector<long>{11, 12, 13, 14}));
    const test::Csv csv = test::export_scene(s, "attention");
    EXPECT_EQ(csv.meta.at("model.multi_axis.tokens_per_second"), "2");
    expect_logits_draw_t(s, ids);
}

TEST(LessonImagesAndVideo, QwenThreeGivesEachFrameItsOwnBlock) {
    const LessonJson& s = scene("Qwen3-VL: each frame its own block");
    test::expect_claims(s, {"each between its own vision start and end", "t = 11, 15, 19, 23", "text resumes at 26"});
    ASSERT_EQ(s["set"]["preset"], "qwen3-vl-8b");
    const Ids ids = scene_ids(s);
    EXPECT_EQ(video_frames(ids, 4), (std::vector<long>{11, 15, 19, 23}));
    EXPECT_EQ(text_resumes_at(ids), 26);
    // One image block and four frame blocks, each opened and closed.
    EXPECT_EQ(std::count(ids.kind.begin(), ids.kind.end(), "vision_start"), 5);
    EXPECT_EQ(std::count(ids.kind.begin(), ids.kind.end(), "vision_end"), 5);
    expect_logits_draw_t(s, ids);
}

// ---- vision towers and FLUX -----------------------------------------------------------------

TEST(LessonImagesAndVideo, VisionTowersTurnWithRowAndColumn) {
    const LessonJson& s = scene("Inside the vision tower: 2-D RoPE");
    test::expect_claims(s, {"Qwen2-VL's tower (third) turns its first 20 pairs with the row and the last 20 with the column",
                            "Pixtral's (fourth) alternates, even frequencies with the row, odd with the column",
                            "Both see two directions"});
    const auto compare = s["set"]["compare"];
    ASSERT_EQ(compare.size(), 3u);
    EXPECT_TRUE(compare[1].get<std::string>().starts_with("qwen2-vl-7b@vision,"));
    EXPECT_TRUE(compare[2].get<std::string>().starts_with("pixtral-12b@vision,"));

    // Qwen2-VL's tower: head 80, one 20-rung ladder θ^(−2k/40), θ = 10^4, for rows then columns.
    const test::Csv qwen = test::export_flags("--view frequencies --preset qwen2-vl-7b --layer-type vision");
    const auto q_omega = test::column(qwen, "axis_speed"), q_axis = test::column(qwen, "axis");
    ASSERT_EQ(q_omega.size(), 40u);
    for (int j = 0; j < 40; ++j) {
        EXPECT_EQ(static_cast<int>(q_axis[j]), j < 20 ? H : W) << j;
        EXPECT_NEAR(q_omega[j], rung(1e4, j % 20, 40), 1e-12) << j;
    }
    // Pixtral's: head 64, ladder θ^(−2i/64); even rungs i = 2k with the row, odd i = 2k + 1 with the column.
    const test::Csv pix = test::export_flags("--view frequencies --preset pixtral-12b --layer-type vision");
    const auto p_omega = test::column(pix, "axis_speed"), p_axis = test::column(pix, "axis");
    ASSERT_EQ(p_omega.size(), 32u);
    for (int j = 0; j < 32; ++j) {
        const bool row = j < 16;
        EXPECT_EQ(static_cast<int>(p_axis[j]), row ? H : W) << j;
        EXPECT_NEAR(p_omega[j], rung(1e4, row ? 2 * j : 2 * (j - 16) + 1, 64), 1e-12) << j;
    }
    // On the slide: both towers' heatmaps change along rows and down columns.
    const test::Csv grid = test::export_scene(s, "grid");
    for (int setting : {2, 3}) {
        const Spread t = spread(grid_of(grid, setting));
        EXPECT_GT(t.along_rows, 1.0) << setting;
        EXPECT_GT(t.down_columns, 1.0) << setting;
    }
}

TEST(LessonImagesAndVideo, FluxHasThreeLadders) {
    const LessonJson& s = scene("FLUX: three ids, three ladders");
    test::expect_claims(s, {"axes_dims_rope 16, 56, 56", "8 pairs for the first id, 28 for the row, 28 for the column",
                            "starting again at ω = 1 (the drops at pairs 8 and 36)"});
    const test::Csv csv = test::export_scene(s, "frequencies");
    const auto omega = test::column(csv, "axis_speed"), axis = test::column(csv, "axis");
    ASSERT_EQ(omega.size(), 64u);
    // Each id column its own ladder θ^(−2k/dim) over its dim components, θ = 10^4 (FluxPosEmbed).
    const int dims[] = {16, 56, 56};
    int j = 0;
    for (Axis a : {T, H, W}) {
        for (int k = 0; k < dims[a] / 2; ++k, ++j) {
            EXPECT_EQ(static_cast<int>(axis[j]), a) << j;
            EXPECT_NEAR(omega[j], rung(1e4, k, dims[a]), 1e-12) << j;
        }
    }
    EXPECT_EQ(omega[0], 1.0);
    EXPECT_EQ(omega[8], 1.0);
    EXPECT_EQ(omega[36], 1.0);
}

TEST(LessonImagesAndVideo, SummaryComparesTheTwoLadders) {
    const LessonJson& s = scene("Qwen2-VL vs Qwen3-VL");
    test::expect_claims(s, {"Qwen2-VL's contiguous sections (top) give time the fast pairs and width only slow ones",
                            "Qwen3-VL's interleaving (bottom) gives every axis the whole ladder"});
    const test::Csv csv = test::export_scene(s, "frequencies");
    expect_ladder(csv, "qwen2_vl_7b.", qwen2_vl());
    expect_ladder(csv, "qwen3_vl_8b.", qwen3_vl());
    const Ladder two = qwen2_vl();
    EXPECT_EQ(two.axis[0], T) << "the fastest pair turns with time";
    EXPECT_GT(shortest(wavelengths_on(two, W)), 1000 * 16.0) << "width: none turns visibly across 16 tokens";
}

}  // namespace
}  // namespace ropelab
