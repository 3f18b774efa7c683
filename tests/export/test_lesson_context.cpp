// The "Context extension" lesson says only what its data shows: every number, ratio, pair range
// and count a caption states is checked here against the series the binary exports for that
// scene's own settings (its "set" as command-line flags), and the formulas a caption quotes are
// recomputed independently in float64 (HF transformers' modeling_rope_utils rules: linear,
// NTK-aware base change, dynamic NTK, YaRN's ramp and attention factor, llama3, LongRoPE).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/files.h"
#include "support/run_binary.h"

namespace ropelab {
namespace {

using Json = nlohmann::json;
constexpr double kTwoPi = 2.0 * std::numbers::pi;

const Json& context_lesson() {
    static const Json j = Json::parse(test::slurp(std::string(ROPELAB_SOURCE_DIR) + "/assets/lessons/context-extension.json"));
    return j;
}

// Scene n (1-based), after checking that its caption still states `claims` (each checked below).
const Json& context_scene(int n, std::initializer_list<const char*> claims) {
    const Json& s = context_lesson()["scenes"][static_cast<std::size_t>(n - 1)];
    const std::string caption = s["caption"];
    for (const char* claim : claims) EXPECT_NE(caption.find(claim), std::string::npos) << "scene " << n << ": " << claim;
    return s;
}

std::string quoted(const std::string& text) { return "'" + text + "'"; }

// A scene's "set" as flags: "max_distance": 16384 → --max-distance 16384, a list of compare
// SPECs → one --compare each, booleans as --flag=true|false.
std::string context_flags_of(const Json& set) {
    std::string out;
    for (const auto& [key, value] : set.items()) {
        std::string flag = "--" + key;
        std::replace(flag.begin(), flag.end(), '_', '-');
        if (key == "compare") {
            for (const Json& spec : value) out += " --compare " + quoted(spec.get<std::string>());
        } else if (value.is_boolean()) {
            out += " " + flag + "=" + (value.get<bool>() ? "true" : "false");
        } else if (value.is_string()) {
            out += " " + flag + " " + quoted(value.get<std::string>());
        } else {
            out += " " + flag + " " + value.dump();
        }
    }
    return out;
}

// An exported CSV: its "# key: value" metadata and its columns by header name.
struct Table {
    std::map<std::string, std::string> meta;
    std::vector<std::string> header;
    std::map<std::string, std::vector<double>> column;

    double number(const std::string& key) const { return std::stod(meta.at(key)); }
    // The columns named `name` (one setting) or ending in ".name" (compared settings), in order.
    std::vector<std::vector<double>> settings(const std::string& name) const {
        std::vector<std::vector<double>> out;
        for (const std::string& h : header) {
            if (h == name || (h.size() > name.size() && h.ends_with("." + name))) out.push_back(column.at(h));
        }
        return out;
    }
};

Table export_view(const std::string& view, const std::string& flags, const std::string& name) {
    const std::string out = test::fresh_dir("lesson_context").string() + "/" + name + ".csv";
    const test::Result r = test::run("export-data --view " + view + flags + " --out " + out);
    EXPECT_EQ(r.status, 0) << flags << ": " << r.err;
    Table t;
    std::ifstream in(out);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("# ", 0) == 0) {
            if (const auto colon = line.find(": "); colon != std::string::npos) t.meta[line.substr(2, colon - 2)] = line.substr(colon + 2);
            continue;
        }
        std::istringstream fields(line);
        std::string field;
        if (t.header.empty()) {
            while (std::getline(fields, field, ',')) t.header.push_back(field);
            continue;
        }
        for (std::size_t c = 0; std::getline(fields, field, ','); ++c) t.column[t.header.at(c)].push_back(std::stod(field));
    }
    return t;
}

// Scene n's view exported for its settings, with `changed` ones (a keyframe's end) in their place.
Table scene_export(int n, const std::string& view, const Json& changed = Json::object()) {
    Json set = context_lesson()["scenes"][static_cast<std::size_t>(n - 1)]["set"];
    std::string name = "scene" + std::to_string(n) + view;
    for (const auto& [key, value] : changed.items()) {
        set[key] = value;
        name += "_" + key + "_" + value.dump();  // numbers: a plain file name
    }
    return export_view(view, context_flags_of(set), name);
}

// θ_i = base^(−2i/d), float64.
double textbook_inv_freq(double base, int i, int d) { return std::pow(base, -2.0 * i / d); }

// How many times a setting divides each pair's θ_i (unscaled / scaled).
std::vector<double> divisions(const std::vector<double>& unscaled, const std::vector<double>& scaled) {
    std::vector<double> out;
    for (std::size_t i = 0; i < scaled.size(); ++i) out.push_back(unscaled[i] / scaled[i]);
    return out;
}

// The pairs a setting marks with a scaling code (0 unchanged, 1 blended, 2 interpolated).
std::vector<int> pairs_coded(const std::vector<double>& codes, int code) {
    std::vector<int> out;
    for (std::size_t i = 0; i < codes.size(); ++i) {
        if (codes[i] == code) out.push_back(static_cast<int>(i));
    }
    return out;
}

std::vector<int> range(int first, int last) {
    std::vector<int> out;
    for (int i = first; i <= last; ++i) out.push_back(i);
    return out;
}

double rounded(double x, int decimals) { return std::round(x * std::pow(10.0, decimals)) / std::pow(10.0, decimals); }

TEST(LessonContext, TwelveScenesEachWithNotesAndRealPresets) {
    const Json& scenes = context_lesson()["scenes"];
    EXPECT_GE(scenes.size(), 8u);
    EXPECT_LE(scenes.size(), 15u);
    for (const Json& s : scenes) {
        EXPECT_FALSE(s.value("notes", std::string()).empty()) << s["title"];
        const Json& set = s["set"];
        EXPECT_TRUE(set.contains("preset") || set.contains("comparison")) << s["title"] << " names its model";
        // Captions speak to the room: the keys to press belong in the notes.
        for (const char* instruction : {"press ", "Press ", "drag ", "Drag ", "hover", "click"}) {
            EXPECT_EQ(s["caption"].get<std::string>().find(instruction), std::string::npos) << s["title"] << ": " << instruction;
        }
    }
}

TEST(LessonContext, Scene1EighteenPairsNeverTurnOnceInLlama2sContext) {
    context_scene(1, {"L₀ = 4,096", "2π·10000^(i/64)", "18 slowest pairs (46 to 63)"});
    const Table t = scene_export(1, "frequencies");
    ASSERT_EQ(t.number("model.max_position_embeddings"), 4096);
    const auto& wavelength = t.column.at("wavelength");
    ASSERT_EQ(wavelength.size(), 64u);
    std::vector<int> longer;
    for (int i = 0; i < 64; ++i) {
        EXPECT_NEAR(wavelength[i], kTwoPi * std::pow(10000.0, i / 64.0), 1e-9 * wavelength[i]) << i;
        if (wavelength[i] > 4096) longer.push_back(i);
    }
    EXPECT_EQ(longer, range(46, 63));
}

TEST(LessonContext, Scene2SlowestAngleInsideAndPastTheContext) {
    const Json& s = context_scene(2, {"Δ = 4,096", "0.47 rad", "1.89 rad at Δ = 16,384"});
    EXPECT_EQ(s["annotations"][0]["x"], 4096);
    const Table f = scene_export(2, "frequencies");
    const double slowest = f.column.at("inv_freq").back();
    EXPECT_NEAR(slowest, textbook_inv_freq(10000, 63, 128), 1e-15);
    EXPECT_EQ(rounded(slowest * 4096, 2), 0.47);
    EXPECT_EQ(rounded(slowest * 16384, 2), 1.89);
    // The score is drawn out to the angle the caption names.
    const Table scores = scene_export(2, "scores");
    ASSERT_EQ(scores.column.at("distance").size(), 16384u);
    EXPECT_EQ(scores.column.at("distance").back(), 16383);
}

TEST(LessonContext, Scene3PiDividesEveryPairByFour) {
    context_scene(3, {"divides every θ_i by s = 4", "All 64 pairs are interpolated", "exactly 4× longer"});
    const Table t = scene_export(3, "frequencies");
    const auto d = divisions(t.column.at("unscaled_inv_freq"), t.column.at("inv_freq"));
    ASSERT_EQ(d.size(), 64u);
    for (double x : d) EXPECT_NEAR(x, 4.0, 1e-12);
    EXPECT_EQ(pairs_coded(t.column.at("scaling"), 2), range(0, 63));
    // "16,384 positions turn no further than 4,096 did": the slowest angle at 16,384 under PI.
    EXPECT_NEAR(t.column.at("inv_freq").back() * 16384, textbook_inv_freq(10000, 63, 128) * 4096, 1e-12);
}

TEST(LessonContext, Scene4PiScoreAtFourDeltaIsLlama2sAtDelta) {
    context_scene(4, {"PI's score at 4Δ is Llama 2's at Δ", "at Δ = 16,384 PI reads what Llama 2 read at 4,096"});
    const Table t = scene_export(4, "scores");
    const auto rope = t.settings("rope");
    ASSERT_EQ(rope.size(), 2u);
    const auto& llama2 = rope[0];
    const auto& pi = rope[1];
    ASSERT_EQ(pi.size(), 16384u);
    // Float32 scores: a part in 10^5 of the score at Δ = 0.
    const double tolerance = 1e-5 * std::abs(llama2[0]);
    int differ = 0;
    for (std::size_t x = 0; 4 * x < pi.size(); ++x) differ += std::abs(pi[4 * x] - llama2[x]) > tolerance;
    EXPECT_EQ(differ, 0);
    EXPECT_NEAR(pi[16380], llama2[4095], tolerance);
    // And it is a real stretch, not two equal curves.
    EXPECT_GT(std::abs(pi[100] - llama2[100]), 100 * tolerance);
}

TEST(LessonContext, Scene5NtkDividesPairIByFourToTheIOver63) {
    context_scene(5, {"θ' = 10000·4^(128/126)", "divided by 4^(i/63)", "divided by exactly 4"});
    const Table t = scene_export(5, "frequencies");
    const auto& scaled = t.column.at("inv_freq");
    const auto d = divisions(t.column.at("unscaled_inv_freq"), scaled);
    ASSERT_EQ(d.size(), 64u);
    const double base = 10000 * std::pow(4.0, 128.0 / 126.0);
    for (int i = 0; i < 64; ++i) {
        EXPECT_NEAR(d[i], std::pow(4.0, i / 63.0), 1e-9) << i;
        EXPECT_NEAR(scaled[i], textbook_inv_freq(base, i, 128), 1e-12 * scaled[i] + 1e-18) << i;
        if (i > 0) { EXPECT_GT(d[i], d[i - 1]) << "the division grows smoothly"; }
    }
    EXPECT_EQ(d.front(), 1.0);
    EXPECT_NEAR(d.back(), 4.0, 1e-12);
}

TEST(LessonContext, Scene6DynamicNtkFollowsTheLength) {
    const Json& s = context_scene(6, {"Up to L = 4,096 nothing changes", "2L/4,096 − 1 (factor 2)", "7 at L = 16,384"});
    ASSERT_EQ(s["set"]["factor"], 2);
    ASSERT_EQ(s["set"]["seq_len"], 4096);
    const Json& grow = s["keyframes"][0];
    ASSERT_EQ(grow["param"], "seq_len");
    ASSERT_EQ(grow["from"], 4096);
    ASSERT_EQ(grow["to"], 16384);
    const Table start = scene_export(6, "frequencies");
    for (double x : divisions(start.column.at("unscaled_inv_freq"), start.column.at("inv_freq"))) EXPECT_EQ(x, 1.0);
    for (const int length : {8192, 16384}) {
        const Table t = scene_export(6, "frequencies", {{"seq_len", length}});
        const auto d = divisions(t.column.at("unscaled_inv_freq"), t.column.at("inv_freq"));
        EXPECT_NEAR(d.back(), 2.0 * length / 4096 - 1, 1e-9) << length;
    }
}

TEST(LessonContext, Scene7YarnKeepsRampsAndInterpolatesQwen) {
    context_scene(7, {"32,768 tokens for Qwen2.5-7B", "more than β_fast = 32 turns, kept (pairs 0 to 23)",
              "less than β_slow = 1 turn, divided by 4 (pairs 40 to 63)", "(pairs 24 to 39)"});
    const Table t = scene_export(7, "frequencies");
    ASSERT_EQ(t.number("model.rope_scaling.original_max_position_embeddings"), 32768);
    ASSERT_EQ(t.number("model.rope_scaling.beta_fast"), 32);
    ASSERT_EQ(t.number("model.rope_scaling.beta_slow"), 1);
    const auto& codes = t.column.at("scaling");
    EXPECT_EQ(pairs_coded(codes, 0), range(0, 23));
    EXPECT_EQ(pairs_coded(codes, 1), range(24, 39));
    EXPECT_EQ(pairs_coded(codes, 2), range(40, 63));
    const auto& unscaled = t.column.at("unscaled_inv_freq");
    const auto d = divisions(unscaled, t.column.at("inv_freq"));
    for (int i = 0; i < 64; ++i) {
        const double turns = textbook_inv_freq(1e6, i, 128) * 32768 / kTwoPi;
        EXPECT_NEAR(unscaled[i], textbook_inv_freq(1e6, i, 128), 1e-12 * unscaled[i]);
        if (i <= 23) {
            EXPECT_GT(turns, 32) << i;
            EXPECT_EQ(d[i], 1.0) << i;
        }
        if (i >= 40) {
            EXPECT_LT(turns, 1) << i;
            EXPECT_NEAR(d[i], 4.0, 1e-12) << i;
        }
        if (i > 23 && i < 40) { EXPECT_TRUE(d[i] > 1.0 && d[i] < 4.0) << i; }
    }
}

TEST(LessonContext, Scene8YarnsAttentionFactorLiftsTheScore) {
    const Json& s = context_scene(8, {"0.1·ln 4 + 1 = 1.139", "1.139² = 1.30", "at Δ = 0 YaRN's is 1.30× Qwen2.5's", "4× the tokens"});
    EXPECT_EQ(s["annotations"][0]["x"], 32768);
    const Table t = scene_export(8, "scores");
    const double factor = 0.1 * std::log(4.0) + 1.0;
    EXPECT_EQ(rounded(factor, 3), 1.139);
    EXPECT_EQ(rounded(factor * factor, 2), 1.30);
    EXPECT_NEAR(t.number("qwen2_5_7b_yarn_4.attention_factor"), factor, 1e-12);
    const auto rope = t.settings("rope");
    ASSERT_EQ(rope.size(), 2u);
    ASSERT_EQ(rope[0].size(), 131072u) << "the score is drawn past the 32,768 training tokens, to 4× them";
    EXPECT_NEAR(rope[0][0] / rope[1][0], factor * factor, 1e-5);
}

TEST(LessonContext, Scene9Llama3KeepsBlendsAndDividesBy8) {
    context_scene(9, {"8,192/4 = 2,048 tokens (pairs 0 to 28)", "longer than 8,192 by 8 (pairs 35 to 63)", "blends the 6 between",
              "θ = 500,000"});
    const Table t = scene_export(9, "frequencies");
    ASSERT_EQ(t.number("model.rope_scaling.original_max_position_embeddings"), 8192);
    ASSERT_EQ(t.number("model.rope_scaling.high_freq_factor"), 4);
    ASSERT_EQ(t.number("model.rope_scaling.low_freq_factor"), 1);
    const auto& codes = t.column.at("scaling");
    EXPECT_EQ(pairs_coded(codes, 0), range(0, 28));
    EXPECT_EQ(pairs_coded(codes, 1), range(29, 34));
    EXPECT_EQ(pairs_coded(codes, 2), range(35, 63));
    const auto d = divisions(t.column.at("unscaled_inv_freq"), t.column.at("inv_freq"));
    for (int i = 0; i < 64; ++i) {
        const double wavelength = kTwoPi / textbook_inv_freq(500000, i, 128);
        if (i <= 28) { EXPECT_LT(wavelength, 2048) << i; }
        if (i >= 35) { EXPECT_GT(wavelength, 8192) << i; }
        if (i >= 35) { EXPECT_NEAR(d[i], 8.0, 1e-12) << i; }
        if (i <= 28) { EXPECT_EQ(d[i], 1.0) << i; }
    }
    // The unscaled ladder is Llama 3 8B's: the same θ.
    const Table llama3 = export_view("frequencies", " --preset llama3-8b", "llama3");
    EXPECT_EQ(llama3.column.at("inv_freq"), t.column.at("unscaled_inv_freq"));
    EXPECT_EQ(t.number("model.rope_theta"), 500000);
}

TEST(LessonContext, Scene10AllFourDivideTheSlowestPairBy8) {
    context_scene(10, {"at the slowest pair all four divide θ_i by 8", "at the fastest only PI does", "NTK slows every pair but pair 0",
               "llama3 and YaRN keep the fast pairs exactly"});
    const Table t = scene_export(10, "frequencies");
    const auto scaled = t.settings("inv_freq");
    const auto unscaled = t.settings("unscaled_inv_freq");
    ASSERT_EQ(scaled.size(), 4u);
    // The comparison's order: llama3, YaRN, PI, NTK (its legend).
    const std::vector<std::string> names = {"llama3", "YaRN", "PI", "NTK"};
    for (std::size_t k = 0; k < 4; ++k) {
        const auto d = divisions(unscaled[k], scaled[k]);
        EXPECT_NEAR(d.back(), 8.0, 1e-9) << names[k];
        EXPECT_NEAR(d.front(), names[k] == "PI" ? 8.0 : 1.0, 1e-12) << names[k];
        if (names[k] == "NTK") {
            for (std::size_t i = 1; i < d.size(); ++i) EXPECT_GT(d[i], 1.0) << i;
        }
        if (names[k] == "llama3" || names[k] == "YaRN") {
            int kept = 0;
            for (double x : d) kept += x == 1.0;
            EXPECT_GE(kept, 10) << names[k] << " keeps the fast pairs";
            EXPECT_EQ(d[0], 1.0);
        }
    }
    EXPECT_NE(t.meta.at("llama3_8.rope_type"), t.meta.at("yarn_8.rope_type"));
}

TEST(LessonContext, Scene11FourScoresPast8K) {
    context_scene(11, {"Δ = 131,072, sixteen times the 8,192 training tokens", "llama3, PI and NTK start from the same score",
               "0.1·ln 8 + 1 = 1.208", "1.208² = 1.46× higher"});
    const Table t = scene_export(11, "scores");
    const auto rope = t.settings("rope");
    ASSERT_EQ(rope.size(), 4u);
    ASSERT_EQ(rope[0].size(), 131072u);
    EXPECT_EQ(131072 / 8192, 16);
    const double at_zero = rope[0][0];  // llama3
    EXPECT_NEAR(rope[2][0], at_zero, 1e-6 * at_zero);  // PI
    EXPECT_NEAR(rope[3][0], at_zero, 1e-6 * at_zero);  // NTK
    const double factor = 0.1 * std::log(8.0) + 1.0;
    EXPECT_EQ(rounded(factor, 3), 1.208);
    EXPECT_EQ(rounded(factor * factor, 2), 1.46);
    EXPECT_NEAR(t.number("yarn_8.attention_factor"), factor, 1e-12);
    EXPECT_NEAR(rope[1][0] / at_zero, factor * factor, 1e-5);
}

TEST(LessonContext, Scene12PhiLongAndShortFactors) {
    context_scene(12, {"past its 4,096 training tokens from 1.07 on pair 0 to 64.76 on pair 47", "twice the ×32 of the context",
               "short factors, 1.1 to 3.05", "√(1 + ln 32 / ln 4096) = 1.19"});
    const Table t = scene_export(12, "frequencies");
    ASSERT_EQ(t.number("long_factors_l_4096.model.original_max_position_embeddings"), 4096);
    ASSERT_EQ(t.number("long_factors_l_4096.model.max_position_embeddings"), 131072);
    const auto scaled = t.settings("inv_freq");
    const auto unscaled = t.settings("unscaled_inv_freq");
    ASSERT_EQ(scaled.size(), 2u);
    const auto long_d = divisions(unscaled[0], scaled[0]);
    const auto short_d = divisions(unscaled[1], scaled[1]);
    ASSERT_EQ(long_d.size(), 48u);
    EXPECT_EQ(rounded(long_d.front(), 2), 1.07);
    EXPECT_EQ(rounded(long_d.back(), 2), 64.76);
    EXPECT_EQ(*std::max_element(long_d.begin(), long_d.end()), long_d.back());
    const double context = 131072.0 / 4096.0;
    EXPECT_EQ(context, 32);
    EXPECT_NEAR(long_d.back() / context, 2.0, 0.05);
    EXPECT_EQ(rounded(*std::min_element(short_d.begin(), short_d.end()), 2), 1.1);
    EXPECT_EQ(rounded(*std::max_element(short_d.begin(), short_d.end()), 2), 3.05);
    const double factor = std::sqrt(1.0 + std::log(32.0) / std::log(4096.0));
    EXPECT_EQ(rounded(factor, 2), 1.19);
    EXPECT_NEAR(t.number("long_factors_l_4096.attention_factor"), factor, 1e-12);
}

}  // namespace
}  // namespace ropelab
