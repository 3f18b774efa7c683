// The lab's whole loop in the pure tier: a Lab on the CPU compute device (core/cpu_device.h, no
// GL library linked), driven only through Lab::update and its commands, and the series it leaves
// on the device read back and checked against an independent float64 sum — q·R(Δθ)k for ones
// vectors is Σ_i 2·cos(Δ·θ_i) with θ_i = θ^(−2i/d).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/cpu_device.h"
#include "lab/lab.h"

namespace ropelab {
namespace {

// The textbook head: 128 dimensions, no scaling, ones for q and k.
LabParams ones_state(double theta, std::int64_t distances) {
    LabParams p;
    p.playing = false;
    p.vectors = VectorChoice::Ones;
    p.model.head_dim = 128;
    p.model.rope_theta = theta;
    p.max_distance = distances;
    return p;
}

double ones_score(double theta, int head_dim, std::int64_t delta) {
    double sum = 0.0;
    for (int i = 0; i < head_dim / 2; ++i) {
        const double theta_i = std::pow(theta, -2.0 * i / head_dim);
        sum += 2.0 * std::cos(static_cast<double>(delta) * theta_i);
    }
    return sum;
}

// float32 sums of 64 terms of size 2: within 1e-5 of their l1 norm, as tests/gpu checks.
constexpr double kTolerance = 1e-5 * 128.0;

void expect_ones_scores(const std::vector<float>& series, double theta, std::int64_t stride = 1) {
    for (std::size_t j = 0; j < series.size(); j += 1 + series.size() / 997) {
        const auto delta = static_cast<std::int64_t>(j) * stride;
        ASSERT_NEAR(series[j], ones_score(theta, 128, delta), kTolerance) << "Δ = " << delta << ", θ = " << theta;
    }
}

void set_state(Lab& lab, const LabParams& state) {
    const lab::Commands commands{lab::cmd::SetState{.state = state, .control = "", .notice = ""}};
    lab.update(0.0, {}, commands);
}

// Interactive pace: updates until every curve is exact (previews first, then slices).
int settle(Lab& lab) {
    int updates = 0;
    while ((lab.compute().progress() || lab.compute().series_stride() != 1 || !lab.compute().ready()) &&
           updates < 2000) {
        lab.update(1.0 / 60.0, {});
        ++updates;
    }
    return updates;
}

TEST(LabLoop, AllAtOnceLeavesTheExactScoresOnTheDevice) {
    CpuDevice device;
    Lab lab(device, ones_state(10000.0, 4096), Pace::AllAtOnce);
    lab.update(0.0, {});
    EXPECT_FALSE(device.is_gpu());
    EXPECT_EQ(lab.compute().device_name(), "cpu");
    EXPECT_EQ(lab.compute().series_stride(), 1);
    const std::vector<float> scores = device.read_series(Series::Scores);
    ASSERT_EQ(scores.size(), 4096u);
    EXPECT_NEAR(scores[0], 128.0, kTolerance);
    expect_ones_scores(scores, 10000.0);
    EXPECT_FLOAT_EQ(device.series_value(Series::Scores, 1000), scores[1000]);
    EXPECT_EQ(device.series_value(Series::Scores, 4096), 0.0f);  // past the curve
}

TEST(LabLoop, ThetaChangedThroughTheDoorChangesTheSeries) {
    CpuDevice device;
    Lab lab(device, ones_state(10000.0, 4096), Pace::AllAtOnce);
    lab.update(0.0, {});
    const std::vector<float> before = device.read_series(Series::Scores);

    set_state(lab, ones_state(500000.0, 4096));
    ASSERT_TRUE(lab.status().error.empty()) << lab.status().error;
    EXPECT_EQ(lab.params().model.rope_theta, 500000.0);
    const std::vector<float> after = device.read_series(Series::Scores);
    ASSERT_EQ(after.size(), 4096u);
    expect_ones_scores(after, 500000.0);
    // Slower pairs decay later: at Δ = 100 the larger θ keeps more of the score.
    EXPECT_GT(after[100] - before[100], 1.0);
}

TEST(LabLoop, AnInvalidThetaIsRefusedAndTheCurvesStay) {
    CpuDevice device;
    Lab lab(device, ones_state(10000.0, 2048), Pace::AllAtOnce);
    lab.update(0.0, {});
    const std::vector<float> before = device.read_series(Series::Scores);
    const int version = lab.compute().series_version();

    set_state(lab, ones_state(0.5, 2048));  // θ ≤ 1 is out of range
    EXPECT_NE(lab.status().error.find("theta"), std::string::npos) << lab.status().error;
    EXPECT_EQ(lab.params().model.rope_theta, 10000.0);
    EXPECT_EQ(lab.compute().series_version(), version);
    EXPECT_EQ(device.read_series(Series::Scores), before);

    LabParams huge = ones_state(10000.0, 2048);
    huge.max_distance = std::int64_t{1} << 40;  // past 2^24 distances
    set_state(lab, huge);
    EXPECT_FALSE(lab.status().error.empty());
    EXPECT_EQ(lab.params().max_distance, 2048);
    EXPECT_EQ(device.read_series(Series::Scores), before);
}

TEST(LabLoop, InteractivePreviewsThenRefinesToTheExactCurve) {
    CpuDevice device;
    const std::int64_t n = std::int64_t{1} << 18;  // over the preview's work: a coarse curve first
    Lab lab(device, ones_state(10000.0, n), Pace::Interactive);
    lab.update(1.0 / 60.0, {});
    lab.update(1.0 / 60.0, {});
    ASSERT_TRUE(lab.compute().ready());
    const std::int64_t stride = lab.compute().series_stride();
    EXPECT_GT(stride, 1);
    const std::vector<float> preview = device.read_series(Series::Scores);
    EXPECT_EQ(static_cast<std::int64_t>(preview.size()), (n + stride - 1) / stride);
    expect_ones_scores(preview, 10000.0, stride);  // every stride-th distance, exact values

    const int updates = settle(lab);
    EXPECT_LT(updates, 2000);
    EXPECT_GT(lab.compute().slices_run(), 0);
    const std::vector<float> exact = device.read_series(Series::Scores);
    ASSERT_EQ(static_cast<std::int64_t>(exact.size()), n);
    expect_ones_scores(exact, 10000.0);

    // A θ change: the old curve stays until the new one is shown, and the new one is right.
    set_state(lab, ones_state(1000.0, n));
    EXPECT_EQ(lab.params().model.rope_theta, 1000.0);
    settle(lab);
    expect_ones_scores(device.read_series(Series::Scores), 1000.0);
}

TEST(LabLoop, DecimatedColumnsBoundTheValues) {
    CpuDevice device;
    Lab lab(device, ones_state(10000.0, 100000), Pace::AllAtOnce);
    lab.update(0.0, {});
    const std::vector<float> values = device.read_series(Series::Scores);
    const std::vector<std::uint32_t> bounds = m4_linear_boundaries(0, static_cast<std::uint32_t>(values.size()), 300);
    const std::vector<M4Column> columns = device.decimate(Series::Scores, bounds);
    ASSERT_EQ(columns.size(), 300u);
    for (std::size_t c = 0; c < columns.size(); ++c) {
        ASSERT_FALSE(columns[c].empty());
        EXPECT_EQ(columns[c].first, values[bounds[c]]);
        EXPECT_EQ(columns[c].last, values[bounds[c + 1] - 1]);
        for (std::uint32_t i = bounds[c]; i < bounds[c + 1]; ++i) {
            ASSERT_LE(columns[c].min, values[i]);
            ASSERT_GE(columns[c].max, values[i]);
        }
    }
    EXPECT_EQ(columns[0].max, values[0]);  // Δ = 0: every pair aligned, the largest score
}

TEST(LabLoop, TheCpuDeviceMakesNoPictures) {
    CpuDevice device;
    Lab lab(device, ones_state(10000.0, 1024), Pace::AllAtOnce);
    lab.update(0.0, {});
    EXPECT_EQ(lab.compute().heatmap_texture(), 0u);  // 0: no picture on this device
    EXPECT_EQ(device.image_texture(0, 2, 2, std::vector<std::uint8_t>(16, 255)), 0u);
}

}  // namespace
}  // namespace ropelab
