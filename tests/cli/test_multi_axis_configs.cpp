// Multi-axis configs through the real binary: `freqs` adds the axis of each pair (JSON "axis",
// CSV column), a vision tower loads with --layer-type vision, the load note names what decided the
// rule, and a hostile mrope_section exits 2 naming the file, the field and the value.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "support/files.h"
#include "support/run_binary.h"

namespace {

using ropelab::test::Result;
using ropelab::test::run;

using ropelab::test::corpus;

using ropelab::test::freqs_json;

std::string axis_string(const nlohmann::json& j) {
    std::string s;
    for (const auto& letter : j.at("axis")) s += letter.get<std::string>();
    return s;
}

TEST(MultiAxisCli, FreqsJsonGivesQwen2VlAxes) {
    const nlohmann::json j = freqs_json("--config " + corpus("qwen2-vl-7b-instruct"));
    EXPECT_EQ(axis_string(j), std::string(16, 't') + std::string(24, 'h') + std::string(24, 'w'));
    EXPECT_EQ(j.at("inv_freq").size(), 64u);
}

TEST(MultiAxisCli, FreqsJsonGivesQwen3VlInterleavedAxes) {
    const std::string axes = axis_string(freqs_json("--config " + corpus("qwen3-vl-8b-instruct")));
    ASSERT_EQ(axes.size(), 64u);
    for (int j = 0; j < 64; ++j) {
        const char want = j >= 60 ? 't' : j % 3 == 1 ? 'h' : j % 3 == 2 ? 'w' : 't';
        EXPECT_EQ(axes[static_cast<std::size_t>(j)], want) << "pair " << j;
    }
}

TEST(MultiAxisCli, OneDimensionalModelsHaveNoAxis) {
    const nlohmann::json j = freqs_json("--preset llama3-8b");
    EXPECT_FALSE(j.contains("axis"));
    const Result csv = run("freqs --preset llama3-8b");
    EXPECT_EQ(csv.out.substr(0, csv.out.find('\n')), "pair,inv_freq,wavelength");
}

TEST(MultiAxisCli, CsvHasAnAxisColumn) {
    const Result r = run("freqs --config " + corpus("qwen2-vl-7b-instruct"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "pair,inv_freq,wavelength,axis");
    EXPECT_NE(r.out.find("\n15,"), std::string::npos);
    const auto row = [&](int pair) {
        const auto at = r.out.find("\n" + std::to_string(pair) + ",");
        return r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
    };
    EXPECT_EQ(row(15).back(), 't');
    EXPECT_EQ(row(16).back(), 'h');
    EXPECT_EQ(row(63).back(), 'w');
}

TEST(MultiAxisCli, VisionTowerFrequenciesAreTheAxialLadder) {
    // Qwen2-VL's tower: head 80, ω = 10^4^(−2k/40) for the row (pairs 0–19), again for the column.
    const nlohmann::json j = freqs_json("--config " + corpus("qwen2-vl-7b-instruct") + " --layer-type vision");
    EXPECT_EQ(axis_string(j), std::string(20, 'h') + std::string(20, 'w'));
    ASSERT_EQ(j.at("inv_freq").size(), 40u);
    for (int k = 0; k < 20; ++k) {
        const double omega = std::pow(10000.0, -2.0 * k / 40);
        EXPECT_NEAR(j.at("inv_freq")[static_cast<std::size_t>(k)].get<double>(), omega, 1e-15 * omega);
        EXPECT_NEAR(j.at("inv_freq")[static_cast<std::size_t>(20 + k)].get<double>(), omega, 1e-15 * omega);
    }
}

TEST(MultiAxisCli, PixtralPresetVisionAndMixedPreset) {
    const nlohmann::json pix = freqs_json("--preset pixtral-12b --layer-type vision");
    EXPECT_EQ(axis_string(pix), std::string(16, 'h') + std::string(16, 'w'));
    EXPECT_NEAR(pix.at("inv_freq")[16].get<double>(), std::pow(10000.0, -2.0 / 64), 1e-16);  // f_1, the first odd
    const nlohmann::json mixed = freqs_json("--preset rope-mixed");
    EXPECT_EQ(axis_string(mixed), std::string(32, 'm'));
    EXPECT_NEAR(mixed.at("inv_freq")[17].get<double>(), std::pow(10.0, -4.0 / 64), 1e-15);  // |ω| of the second half's k = 1
}

TEST(MultiAxisCli, ExplainNamesMropeInterleavedAsReadButNotDeciding) {
    const Result r = run("freqs --explain --config " + corpus("qwen3-vl-8b-instruct"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("text_config.rope_scaling.mrope_interleaved = true read, but not deciding"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("multi_axis.rule"), std::string::npos);
}

TEST(MultiAxisCli, PresetsListTheNewOnes) {
    const Result r = run("presets");
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* name : {"qwen2-vl-7b", "qwen2.5-vl-7b", "qwen3-vl-8b", "pixtral-12b", "flux-dev", "rope-mixed"}) {
        EXPECT_NE(r.out.find(name), std::string::npos) << name;
    }
}

TEST(MultiAxisCli, HostileSectionExitsTwoNamingFileFieldAndValue) {
    std::ifstream in(corpus("qwen2-vl-7b-instruct"));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto at = text.find("\"mrope_section\"");
    text.replace(text.find('[', at), text.find(']', at) - text.find('[', at) + 1, "[16, 24, 25]");
    const std::string path = ropelab::test::temp_path("hostile_mrope").string() + ".json";
    {
        std::ofstream out(path);
        out << text;
    }
    const Result r = run("freqs --config " + path);
    std::remove(path.c_str());
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find(path + ": rope_scaling.mrope_section = [16, 24, 25] adds up to 65 pairs"), std::string::npos) << r.err;
}

}  // namespace
