// The frequencies view's data for multi-axis models (export/data.cpp): each pair's axis, its
// wavelength and its turns across the image, against a float64 ladder written out here from
// θ^(−2j/d) and the rules' definitions (Qwen2-VL's chunked sections, Qwen3-VL's interleaving).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "export/data.h"
#include "lab/lab_data.h"
#include "state/compare.h"

namespace ropelab {
namespace {

constexpr double kPi = 3.14159265358979323846;

LabParams multi_axis_params(AxisRule rule, std::vector<double> sections, double theta) {
    LabParams p;
    p.model.head_dim = 128;
    p.model.rope_theta = theta;
    p.model.layout = PairLayout::Half;
    p.model.multi_axis.rule = rule;
    p.model.multi_axis.sections = std::move(sections);
    p.grid_frames = 1;
    p.grid_height = 12;
    p.grid_width = 16;
    return p;
}

std::size_t column(const DataTable& t, const std::string& name) {
    const auto it = std::find(t.columns.begin(), t.columns.end(), name);
    EXPECT_NE(it, t.columns.end()) << name;
    return static_cast<std::size_t>(it - t.columns.begin());
}

std::string parameter_of(const DataTable& t, const std::string& key) {
    for (const auto& [k, v] : t.parameters) if (k == key) return v;
    return {};
}

// ω_j = θ^(−2j/d) for a 1-D ladder of d = 128, in long double.
double reference_omega(double theta, int j) {
    return static_cast<double>(std::pow(static_cast<long double>(theta), -2.0L * j / 128.0L));
}

char code_letter(double code) { return "thwm"[static_cast<int>(code)]; }

// Every pair's wavelength 2π/ω_j and its turns across the image along its axis
// (extent / wavelength) against the reference, within 1e-12 relative.
void expect_pairs_match(const DataTable& t, const LabParams& p, const std::string& axes) {
    const auto& axis = t.values[column(t, "axis")];
    const auto& wave = t.values[column(t, "axis_wavelength")];
    const auto& turns = t.values[column(t, "turns_across_image")];
    ASSERT_EQ(axis.size(), 64u);
    const std::map<char, double> extent{{'t', double(p.grid_frames)}, {'h', double(p.grid_height)}, {'w', double(p.grid_width)}};
    for (std::size_t j = 0; j < 64; ++j) {
        EXPECT_EQ(code_letter(axis[j]), axes[j]) << "pair " << j;
        const double omega = reference_omega(p.model.rope_theta, static_cast<int>(j));
        const double lambda = 2 * kPi / omega;
        EXPECT_NEAR(wave[j] / lambda, 1.0, 1e-12) << "pair " << j;
        EXPECT_NEAR(turns[j] / (extent.at(axes[j]) * omega / (2 * kPi)), 1.0, 1e-12) << "pair " << j;
    }
}

TEST(FrequencyAxes, ChunkedSectionsGiveTheWidthTheSlowestPairs) {
    const LabParams p = multi_axis_params(AxisRule::Sections, {16, 24, 24}, 1e6);
    const DataTable t = view_data(View::Frequencies, p, compute_lab_data(p));
    // Qwen2-VL: the first 16 pairs t, the next 24 h, the last 24 w.
    const std::string axes = std::string(16, 't') + std::string(24, 'h') + std::string(24, 'w');
    expect_pairs_match(t, p, axes);
    const auto& axis = t.values[column(t, "axis")];
    EXPECT_EQ(std::count(axis.begin(), axis.end(), 0.0), 16);
    EXPECT_EQ(std::count(axis.begin(), axis.end(), 1.0), 24);
    EXPECT_EQ(std::count(axis.begin(), axis.end(), 2.0), 24);
    // The width's band by hand: 2π·10^(6·80/128) ≈ 3.53e4 to 2π·10^(6·126/128) ≈ 5.05e6 tokens,
    // so 16 columns turn it by 4.5e-4 turns at most.
    const std::vector<AxisBand> bands = axis_bands(compute_lab_data(p), p);
    ASSERT_EQ(bands.size(), 3u);
    const AxisBand& w = bands[2];
    EXPECT_EQ(w.axis, 'w');
    EXPECT_EQ(w.pairs, 24);
    EXPECT_NEAR(w.shortest, 2 * kPi * std::pow(10.0, 6.0 * 80 / 128), 1e-6 * w.shortest);
    EXPECT_NEAR(w.longest, 2 * kPi * std::pow(10.0, 6.0 * 126 / 128), 1e-6 * w.longest);
    EXPECT_GT(w.shortest, 3.4e4);
    EXPECT_LT(w.shortest, 3.6e4);
    EXPECT_GT(w.longest, 5.0e6);
    EXPECT_LT(w.longest, 5.1e6);
    EXPECT_NEAR(w.fastest_turns, 16 / w.shortest, 1e-15);
    EXPECT_LT(w.fastest_turns, 5e-4);
    EXPECT_EQ(w.extent, 16);
    EXPECT_EQ(bands[1].extent, 12);
    // The time axis gets the fastest pairs: pair 0 turns once per 2π tokens.
    EXPECT_NEAR(bands[0].shortest, 2 * kPi, 1e-12);
    EXPECT_NE(parameter_of(t, "axis_w").find("24 pairs"), std::string::npos) << parameter_of(t, "axis_w");
    EXPECT_NE(parameter_of(t, "axis_codes").find("2: w"), std::string::npos);
}

TEST(FrequencyAxes, InterleavedGivesEveryAxisTheWholeBand) {
    const LabParams p = multi_axis_params(AxisRule::Interleaved, {24, 20, 20}, 5e6);
    const DataTable t = view_data(View::Frequencies, p, compute_lab_data(p));
    // Qwen3-VL: h on 1, 4, …, 58; w on 2, 5, …, 59; t on the rest (0, 3, …, 57 and 60 … 63).
    std::string axes(64, 't');
    for (int j = 1; j < 60; j += 3) axes[static_cast<std::size_t>(j)] = 'h';
    for (int j = 2; j < 60; j += 3) axes[static_cast<std::size_t>(j)] = 'w';
    expect_pairs_match(t, p, axes);
    const std::vector<AxisBand> bands = axis_bands(compute_lab_data(p), p);
    ASSERT_EQ(bands.size(), 3u);
    EXPECT_EQ(bands[0].pairs, 24);
    EXPECT_EQ(bands[1].pairs, 20);
    EXPECT_EQ(bands[2].pairs, 20);
    // Every axis reaches from one of the three fastest pairs to past pair 57.
    for (const AxisBand& b : bands) {
        EXPECT_LE(b.shortest, 2 * kPi / reference_omega(5e6, 2) * (1 + 1e-12)) << b.axis;
        EXPECT_GT(b.longest, 2 * kPi / reference_omega(5e6, 57)) << b.axis;
    }
    // The width's fastest pair (j = 2) turns 16·ω_2/2π times across 16 columns: over one turn.
    EXPECT_NEAR(bands[2].fastest_turns, 16 * reference_omega(5e6, 2) / (2 * kPi), 1e-12);
    EXPECT_GT(bands[2].fastest_turns, 1.0);
}

// Compare mode: each setting's own axis column, so interleaved and chunked part at a glance.
TEST(FrequencyAxes, CompareExportsEachSettingsAxes) {
    const LabParams base = multi_axis_params(AxisRule::Interleaved, {24, 20, 20}, 5e6);
    const LabParams p = with_compared(base, {"multi_axis=sections,name=chunked"});
    ASSERT_EQ(setting_count(p), 2);
    std::vector<LabData> data;
    for (int i = 0; i < 2; ++i) data.push_back(compute_lab_data(setting_params(p, i)));
    const DataTable t = compared_view_data(View::Frequencies, p, data);
    std::vector<std::size_t> axis_columns;
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        if (t.columns[c].ends_with(".axis")) axis_columns.push_back(c);
    }
    ASSERT_EQ(axis_columns.size(), 2u) << fmt::format("{}", fmt::join(t.columns, " "));
    const auto& interleaved = t.values[axis_columns[0]];
    const auto& chunked = t.values[axis_columns[1]];
    ASSERT_EQ(chunked.size(), 64u);
    for (std::size_t j = 0; j < 64; ++j) {
        EXPECT_EQ(code_letter(chunked[j]), j < 24 ? 't' : j < 44 ? 'h' : 'w') << j;
        EXPECT_EQ(code_letter(interleaved[j]), j % 3 == 1 && j < 60 ? 'h' : j % 3 == 2 && j < 60 ? 'w' : 't') << j;
    }
}

TEST(FrequencyAxes, OneDimensionalExportUnchanged) {
    LabParams p;
    const DataTable t = view_data(View::Frequencies, p, compute_lab_data(p));
    EXPECT_EQ(t.columns, (std::vector<std::string>{"pair", "inv_freq", "unscaled_inv_freq", "wavelength", "scaling"}));
    EXPECT_TRUE(parameter_of(t, "axis_codes").empty());
    EXPECT_TRUE(axis_bands(compute_lab_data(p), p).empty());
}

}  // namespace
}  // namespace ropelab
