// Extreme settings: θ from 1.0001 to 1e9, rotary dim 2 to 512, every scaling type at factor
// 1000, positions up to 2^31 − 1, N up to 2^24. Nothing the views draw or exports write may be
// NaN or Inf, and the fast path must still agree with the float64 evaluation.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numeric>
#include <string>

#include <fmt/format.h>

#include "core/cpu_kernels.h"
#include "core/rotation.h"
#include "lab/lab_data.h"

namespace ropelab {
namespace {

constexpr double kFactor = 1000.0;

ModelConfig extreme_model(double theta, int head_dim, RopeType type, PairLayout layout) {
    ModelConfig m;
    m.head_dim = head_dim;
    m.rope_theta = theta;
    m.layout = layout;
    m.max_position_embeddings = 4096;
    RopeScaling& s = m.rope_scaling;
    s.type = type;
    if (type == RopeType::Default) return m;
    if (type == RopeType::LongRope) {
        s.long_factor.assign(static_cast<std::size_t>(head_dim / 2), kFactor);
        s.short_factor.assign(static_cast<std::size_t>(head_dim / 2), 1.0);
        s.original_max_position_embeddings = 4096;
        m.max_position_embeddings = 4096 * 1000;
        m.seq_len = 4096 * 1000;  // past the original context: the long factors apply
        return m;
    }
    s.factor = kFactor;
    if (type == RopeType::Llama3) {
        s.low_freq_factor = 1.0;
        s.high_freq_factor = 4.0;
        s.original_max_position_embeddings = 8192;
    }
    if (type == RopeType::Yarn) s.original_max_position_embeddings = 4096;
    if (type == RopeType::Dynamic) m.seq_len = 4096 * 1000;
    return m;
}

template <typename Range>
bool finite(const Range& values) {
    for (auto v : values) {
        if (!std::isfinite(static_cast<double>(v))) return false;
    }
    return true;
}

double magnitude_sum(const PhasorSum& sum) {
    return std::accumulate(sum.coefficient.begin(), sum.coefficient.end(), 0.0,
                           [](double a, std::complex<double> c) { return a + std::abs(c); });
}

struct Extreme {
    double theta;
    int head_dim;
    RopeType type;
};

class ExtremeSettings : public ::testing::TestWithParam<Extreme> {};

TEST_P(ExtremeSettings, EverythingDrawnIsFinite) {
    const Extreme e = GetParam();
    for (PairLayout layout : {PairLayout::Interleaved, PairLayout::Half}) {
        for (AngleMode mode : {AngleMode::Exact, AngleMode::NaiveFp32, AngleMode::Bf16}) {
            LabParams p;
            p.model = extreme_model(e.theta, e.head_dim, e.type, layout);
            p.vectors = VectorChoice::Random;
            p.angle_mode = mode;
            p.max_distance = 4096;
            p.position = kMaxPosition;
            p.focused_pair = e.head_dim / 2 - 1;
            const std::string where = fmt::format("θ {} d {} {} {} {}", e.theta, e.head_dim, to_string(e.type),
                                                  to_string(layout), to_string(mode));
            const LabData d = compute_lab_data(p);
            EXPECT_TRUE(finite(d.freqs.inv_freq)) << where;
            EXPECT_TRUE(std::isfinite(d.freqs.attention_factor)) << where;
            EXPECT_TRUE(finite(d.invariance_rope) && finite(d.invariance_sinusoidal)) << where;
            EXPECT_TRUE(finite(d.naive_error) && finite(d.bf16_error) && finite(d.naive_error_worst)) << where;
            EXPECT_TRUE(std::isfinite(d.bound_factor)) << where;
            EXPECT_TRUE(finite(cpu_scores(d.rope_sum, p.max_distance, mode))) << where;
            EXPECT_TRUE(finite(cpu_scores(d.sinusoidal_sum, p.max_distance, AngleMode::Exact))) << where;
            EXPECT_TRUE(finite(cpu_decay_bound(d.freqs, p.max_distance))) << where;
            // The planes and numbers views at m = 2^31 − 1, the heatmap's last rows there.
            const auto angles = pair_angles_deg(d.freqs, kMaxPosition);
            EXPECT_TRUE(finite(angles)) << where;
            const auto heatmap = cpu_angle_heatmap(d.freqs.phase_step, kMaxPosition - 511 * 8, 8, 512);
            EXPECT_TRUE(finite(heatmap)) << where;
            for (float a : heatmap) ASSERT_TRUE(a >= -M_PI && a < M_PI + 1e-6) << where << ": angle " << a;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    Grid, ExtremeSettings,
    ::testing::ValuesIn([] {
        std::vector<Extreme> grid;
        for (double theta : {1.0001, 1e9}) {
            for (int d : {2, 512}) {
                for (RopeType t : {RopeType::Default, RopeType::Linear, RopeType::Dynamic, RopeType::Ntk,
                                   RopeType::Yarn, RopeType::Llama3, RopeType::LongRope}) {
                    grid.push_back({theta, d, t});
                }
            }
        }
        return grid;
    }()),
    [](const auto& info) {
        return fmt::format("theta{}_d{}_{}", info.param.theta > 2 ? "1e9" : "1p0001", info.param.head_dim,
                           to_string(info.param.type));
    });

// N = 2^24 on the fast path: finite everywhere, and equal to the float64 evaluation within the
// stated tolerance (1e-5·Σ|c|) at the far end, where the recurrence has run longest.
TEST(ExtremeSettingsLong, SixteenMillionDistancesAgreeWithFloat64) {
    LabParams p;
    p.model = extreme_model(1e9, 512, RopeType::Yarn, PairLayout::Half);
    p.vectors = VectorChoice::Random;
    p.max_distance = kMaxDistances;
    const LabData d = compute_lab_data(p);
    const std::vector<float> scores = cpu_scores(d.rope_sum, p.max_distance, AngleMode::Exact);
    ASSERT_EQ(scores.size(), static_cast<std::size_t>(kMaxDistances));
    EXPECT_TRUE(finite(scores));
    const double tolerance = 1e-5 * magnitude_sum(d.rope_sum);
    for (std::int64_t delta : {std::int64_t{0}, std::int64_t{1}, std::int64_t{65535}, kMaxDistances / 2 + 7,
                               kMaxDistances - 2, kMaxDistances - 1}) {
        EXPECT_NEAR(scores[static_cast<std::size_t>(delta)], evaluate(d.rope_sum, delta), tolerance) << "Δ = " << delta;
    }
}

}  // namespace
}  // namespace ropelab
