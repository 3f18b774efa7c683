// Per-layer rules and p-RoPE through the real binary: --layer picks a config's layer (a NoPE layer
// turns no pair), --p-rope leaves the lowest frequencies unrotated, and with either every view's
// data export stays finite (an unrotated pair has ω = 0: a view that divided by it would write inf).
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "support/files.h"
#include "state/view_table.h"
#include "support/run_binary.h"

namespace {

using ropelab::test::Result;
using ropelab::test::run;

using ropelab::test::corpus;

using ropelab::test::freqs_json;

// A cell that reads as a number must be finite; "inf" and "nan" spelled out are refused too.
std::string first_non_finite(const std::string& csv) {
    std::stringstream lines(csv);
    std::string line;
    int row = 0;
    while (std::getline(lines, line)) {
        ++row;
        std::stringstream cells(line);
        std::string cell;
        while (std::getline(cells, cell, ',')) {
            std::string lower;
            for (char c : cell) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (lower.find("inf") != std::string::npos && lower.find_first_of("0123456789") == std::string::npos) {
                if (lower == "inf" || lower == "-inf" || lower == "+inf" || lower == "infinity" || lower == "-infinity") {
                    return "row " + std::to_string(row) + ": " + cell;
                }
            }
            if (lower == "nan" || lower == "-nan") return "row " + std::to_string(row) + ": " + cell;
            char* end = nullptr;
            const double v = std::strtod(cell.c_str(), &end);
            if (end != cell.c_str() && *end == '\0' && !std::isfinite(v)) return "row " + std::to_string(row) + ": " + cell;
        }
    }
    return "";
}

void expect_every_export_finite(const std::string& settings) {
    for (const ropelab::ViewRow& row : ropelab::view_table()) {
        const std::string view(row.name);
        if (view == "weights") continue;  // a model file's weights, not a setting's: cli/test_weights_export.cpp
        const std::string out = ropelab::test::temp_path(std::string("layer_export_") + view).string() + ".csv";
        const Result r = run(std::string("export-data --view ") + view + " " + settings + " --out " + out);
        ASSERT_EQ(r.status, 0) << view << " " << settings << ": " << r.err;
        const std::string csv = ropelab::test::slurp(out);
        EXPECT_GT(csv.size(), 10u) << view;
        EXPECT_EQ(first_non_finite(csv), "") << view << " " << settings;
    }
}

TEST(LayerCli, ExportsStayFiniteWithPRope) { expect_every_export_finite("--p-rope 0.5"); }
TEST(LayerCli, ExportsStayFiniteOnANoPELayer) { expect_every_export_finite("--layer-rope=false"); }
TEST(LayerCli, ExportsStayFiniteOnLlama4Layer3) { expect_every_export_finite("--config " + corpus("llama-4-scout-17b-16e") + " --layer 3"); }
TEST(LayerCli, ExportsStayFiniteMultiAxisWithPRope) { expect_every_export_finite("--preset qwen2-vl-7b --p-rope 0.5"); }

// p-RoPE 0.25 on the textbook head (128 wide, θ = 10^4): pairs 48 … 63 are unrotated, the others
// keep θ^(−2i/128).
TEST(LayerCli, PRopeZeroesTheLowestQuarter) {
    const nlohmann::json j = freqs_json("--p-rope 0.25");
    ASSERT_EQ(j.at("inv_freq").size(), 64u);
    for (int i = 0; i < 64; ++i) {
        const double got = j.at("inv_freq")[static_cast<std::size_t>(i)].get<double>();
        if (i >= 48) {
            EXPECT_EQ(got, 0.0) << "pair " << i;
        } else {
            EXPECT_NEAR(got, std::pow(1e4, -2.0 * i / 128.0), 1e-15) << "pair " << i;
        }
    }
}

TEST(LayerCli, LayerPicksLlama4Rules) {
    const nlohmann::json nope = freqs_json("--config " + corpus("llama-4-scout-17b-16e") + " --layer 3");
    for (const auto& f : nope.at("inv_freq")) EXPECT_EQ(f.get<double>(), 0.0);
    const nlohmann::json rope = freqs_json("--config " + corpus("llama-4-scout-17b-16e") + " --layer 0");
    EXPECT_EQ(rope.at("inv_freq")[0].get<double>(), 1.0);
    const Result explain = run("freqs --explain --config " + corpus("llama-4-scout-17b-16e") + " --layer 3");
    EXPECT_EQ(explain.status, 0) << explain.err;
    EXPECT_NE(explain.out.find("attention as in layer 3: full_attention (NoPE, temperature)"), std::string::npos) << explain.out;
    const Result far = run("freqs --config " + corpus("llama-4-scout-17b-16e") + " --layer 48");
    EXPECT_EQ(far.status, 2);
    EXPECT_NE(far.err.find("llama-4-scout-17b-16e.json: --layer 48: the model has 48 layers (0 .. 47)"), std::string::npos) << far.err;
    const Result preset = run("freqs --format json --preset llama4-scout --layer 7");
    EXPECT_EQ(preset.status, 0) << preset.err;
}

}  // namespace
