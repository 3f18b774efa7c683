// The GPU core against float64 references, case by case.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "support/reference.h"
#include "core/cpu_kernels.h"
#include "core/m4.h"
#include "core/phasor_sum.h"
#include "core/rotation.h"
#include "support/gl.h"

namespace ropelab {
namespace {

using test::GlTest;

constexpr std::int64_t kMillion = std::int64_t{1} << 20;

double l1(const PhasorSum& s) {
    double sum = std::abs(s.constant);
    for (auto c : s.coefficient) sum += std::abs(c);
    return sum;
}

struct Case {
    int rotary_dim;
    double theta;
    RopeType type;
    PairLayout layout;
};

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
    std::string type(to_string(info.param.type));
    return "d" + std::to_string(info.param.rotary_dim) + "_theta" +
           std::to_string(static_cast<long long>(info.param.theta)) + "_" + type + "_" +
           std::string(to_string(info.param.layout));
}

// Scaling parameters that make every type do something at this rotary dim.
ModelConfig config_for(const Case& c) {
    ModelConfig m;
    m.head_dim = c.rotary_dim;
    m.rope_theta = c.theta;
    m.layout = c.layout;
    m.max_position_embeddings = 32768;
    RopeScaling& s = m.rope_scaling;
    s.type = c.type;
    switch (c.type) {
        case RopeType::Linear: s.factor = 4.0; break;
        case RopeType::Dynamic: s.factor = 4.0; m.seq_len = 4 * 32768; break;
        case RopeType::Ntk: s.factor = 8.0; break;
        case RopeType::Yarn: s.factor = 16.0; s.original_max_position_embeddings = 4096; break;
        case RopeType::Llama3:
            s.factor = 8.0;
            s.low_freq_factor = 1.0;
            s.high_freq_factor = 4.0;
            s.original_max_position_embeddings = 8192;
            break;
        case RopeType::LongRope:
            m.original_max_position_embeddings = 4096;
            for (int i = 0; i < c.rotary_dim / 2; ++i) {
                s.long_factor.push_back(1.0 + 60.0 * i / (c.rotary_dim / 2));
                s.short_factor.push_back(1.0 + 2.0 * i / (c.rotary_dim / 2));
            }
            break;
        case RopeType::Default: break;
    }
    return m;
}

class GpuScores : public GlTest, public ::testing::WithParamInterface<Case> {};

// max |GPU − float64| ≤ 1e-5·Σ|c_i| over every Δ < 2^20, fresh random q and k per case.
TEST_P(GpuScores, MatchFloat64ReferenceOverAMillionDistances) {
    if (!test::long_double_is_extended()) GTEST_SKIP() << "needs an 80-bit long double reference";
    const Case c = GetParam();
    const RopeFrequencies f = compute_frequencies(config_for(c));
    test::TestRng rng{static_cast<std::uint64_t>(c.rotary_dim * 7919 + static_cast<int>(c.type) * 31 +
                                                 static_cast<int>(c.layout))};
    const auto q = rng.vector(c.rotary_dim), k = rng.vector(c.rotary_dim);
    const PhasorSum sum = rope_phasor_sum(score_coefficients(q, k, f), f, kMillion - 1);
    const double tolerance = 1e-5 * l1(sum);

    core().compute_scores(sum, kMillion, AngleMode::Exact);
    const std::vector<float> gpu = core().read(Series::Scores);
    ASSERT_EQ(gpu.size(), static_cast<std::size_t>(kMillion));
    const std::vector<double> exact =
        test::reference_phasor_scores(sum.coefficient, sum.radians_per_step, sum.constant, kMillion);

    double worst = 0;
    std::int64_t worst_at = 0;
    for (std::int64_t d = 0; d < kMillion; ++d) {
        const double e = std::abs(gpu[static_cast<std::size_t>(d)] - exact[static_cast<std::size_t>(d)]);
        if (e > worst) worst = e, worst_at = d;
    }
    EXPECT_LE(worst, tolerance) << "worst at Δ = " << worst_at;
    for (std::int64_t d : {16384, 131071, 1000000}) {
        EXPECT_NEAR(gpu[static_cast<std::size_t>(d)], evaluate(sum, d), tolerance) << "Δ = " << d;
    }
}

// Rotary dims × θ × every scaling type × both layouts.
std::vector<Case> all_cases() {
    std::vector<Case> cases;
    for (int d : {8, 64, 128, 256}) {
        for (double theta : {1e4, 5e5, 1e6}) {
            for (RopeType type : {RopeType::Default, RopeType::Linear, RopeType::Dynamic,
                                  RopeType::Ntk, RopeType::Yarn, RopeType::Llama3,
                                  RopeType::LongRope}) {
                for (PairLayout layout : {PairLayout::Interleaved, PairLayout::Half}) {
                    cases.push_back({d, theta, type, layout});
                }
            }
        }
    }
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Matrix, GpuScores, ::testing::ValuesIn(all_cases()), case_name);

TEST_F(GlTest, SinusoidalAdditiveScoresMatchDirectSum) {
    const SinusoidalEncoding enc = sinusoidal_encoding(64, 10000.0);
    test::TestRng rng{31};
    const auto q = rng.vector(64), k = rng.vector(64);
    const auto direct = sinusoidal_scores(q, k, enc, 8191, 8192);
    const PhasorSum sum = sinusoidal_phasor_sum(q, k, enc, 8191);
    core().compute_scores(sum, 8192, AngleMode::Exact);
    const auto gpu = core().read(Series::Scores);
    for (std::size_t d = 0; d < direct.size(); ++d) {
        ASSERT_NEAR(gpu[d], direct[d], 1e-5 * l1(sum)) << "Δ = " << d;
    }
}

TEST_F(GlTest, FoldedTermsAndPartialBlocks) {
    ModelConfig m;
    m.head_dim = 16;
    m.rope_scaling.type = RopeType::Linear;
    m.rope_scaling.factor = 0.4;  // θ_0 = 2.5 rad: cos θ < 0, the folded recurrence
    const RopeFrequencies f = compute_frequencies(m);
    test::TestRng rng{32};
    const auto q = rng.vector(16), k = rng.vector(16);
    const PhasorSum sum = rope_phasor_sum(score_coefficients(q, k, f), f, 0);
    core().compute_scores(sum, 1000, AngleMode::Exact);  // not a multiple of the block
    const auto gpu = core().read(Series::Scores);
    ASSERT_EQ(gpu.size(), 1000u);
    for (std::int64_t d = 0; d < 1000; ++d) {
        ASSERT_NEAR(gpu[static_cast<std::size_t>(d)], evaluate(sum, d), 1e-5 * l1(sum)) << d;
    }
}

// The teaching mode shows what it claims: fp32 angles float(m)·θ are visibly wrong at a million
// positions, while exact is not. Pairs 1 and 2 (θ = 0.866, 0.750 rad): neither θ nor m·θ is an
// fp32 number there, and an fp32 ulp of 10^6 rad is 0.0625. (Pair 0 has θ = 1 exactly, so
// float(m)·1 is exact and its naive angle happens to be right.)
TEST_F(GlTest, NaiveFp32IsVisiblyWrongAtAMillion) {
    const RopeFrequencies f = compute_frequencies(ModelConfig{});  // d = 128, θ = 10^4
    for (int pair : {1, 2}) {
        std::vector<double> focused(128, 0.0);
        focused[static_cast<std::size_t>(2 * pair)] = focused[static_cast<std::size_t>(2 * pair + 1)] = 1.0;
        const PhasorSum sum = rope_phasor_sum(score_coefficients(focused, focused, f), f, kMillion - 1);
        core().compute_scores(sum, kMillion, AngleMode::NaiveFp32);
        const auto naive = core().read(Series::Scores);
        core().compute_scores(sum, kMillion, AngleMode::Exact);
        const auto exact = core().read(Series::Scores);
        // An angle error shows as a score error scaled by |sin φ|: take the worst of the eight
        // distances from 10^6 on (the pair turns ~0.8 rad per step, so one of them is near 1).
        double naive_error = 0, exact_error = 0;
        for (std::int64_t d = 1000000; d < 1000008; ++d) {
            const double truth = evaluate(sum, d);
            naive_error = std::max(naive_error, std::abs(naive[static_cast<std::size_t>(d)] - truth));
            exact_error = std::max(exact_error, std::abs(exact[static_cast<std::size_t>(d)] - truth));
            EXPECT_NEAR(naive[static_cast<std::size_t>(d)], evaluate(sum, d, AngleMode::NaiveFp32),
                        1e-4 * l1(sum));
        }
        EXPECT_GT(naive_error, 1e-3 * l1(sum)) << "pair " << pair;
        EXPECT_LT(exact_error, 1e-5 * l1(sum)) << "pair " << pair;
    }
}

TEST_F(GlTest, Bf16ModeMatchesItsDefinition) {
    const RopeFrequencies f = compute_frequencies(ModelConfig{});
    test::TestRng rng{33};
    const auto q = rng.vector(128), k = rng.vector(128);
    const PhasorSum sum = rope_phasor_sum(score_coefficients(q, k, f), f, 4095);
    core().compute_scores(sum, 4096, AngleMode::Bf16);
    const auto gpu = core().read(Series::Scores);
    for (std::int64_t d : {0, 1, 300, 4095}) {
        EXPECT_NEAR(gpu[static_cast<std::size_t>(d)], evaluate(sum, d, AngleMode::Bf16), 1e-4 * l1(sum));
    }
}

// The error series the score view plots under a naive mode: naive(Δ) − exact(Δ) against the
// float64 difference of the two evaluations, where the error is large enough to matter (fp32
// angles at a million positions, bf16 tables from the start). Tolerance 1e-4·Σ|c|, as for the
// naive curves themselves (the driver's fp32 sin/cos of large angles); the errors are ≥ 1e-3·Σ|c|.
TEST_F(GlTest, ModeErrorIsNaiveMinusExact) {
    const RopeFrequencies f = compute_frequencies(ModelConfig{});
    struct Where {
        AngleMode mode;
        std::int64_t count;
        std::vector<std::int64_t> distances;
    };
    for (const Where& w : {Where{AngleMode::NaiveFp32, kMillion, {0, 1, 1000, 500000, 1000003, kMillion - 1}},
                           Where{AngleMode::Bf16, 4096, {0, 1, 7, 300, 4095}}}) {
        for (int pair : {1, 2}) {  // θ not an fp32 number (see above)
            std::vector<double> focused(128, 0.0);
            focused[static_cast<std::size_t>(2 * pair)] = focused[static_cast<std::size_t>(2 * pair + 1)] = 1.0;
            const PhasorSum sum = rope_phasor_sum(score_coefficients(focused, focused, f), f, w.count - 1);
            core().compute_mode_error(sum, w.count, w.mode);
            const auto gpu = core().read(Series::ModeError);
            const auto cpu = cpu_mode_error_f64(sum, w.count, w.mode);
            for (std::int64_t d : w.distances) {
                const double truth = evaluate(sum, d, w.mode) - evaluate(sum, d);
                EXPECT_NEAR(gpu[static_cast<std::size_t>(d)], truth, 1e-4 * l1(sum)) << to_string(w.mode) << " Δ " << d;
                EXPECT_NEAR(cpu[static_cast<std::size_t>(d)], truth, 1e-12 * l1(sum)) << to_string(w.mode) << " Δ " << d;
            }
            double largest = 0;
            for (double e : cpu) largest = std::max(largest, std::abs(e));
            EXPECT_GT(largest, 1e-3 * l1(sum)) << to_string(w.mode) << " pair " << pair;
        }
    }
    // The exact mode has no error to show.
    const PhasorSum sum = rope_phasor_sum(score_coefficients(std::vector<double>(128, 1.0), std::vector<double>(128, 1.0), f), f, 4095);
    for (float e : cpu_mode_error(sum, 4096, AngleMode::Exact)) ASSERT_EQ(e, 0.0f);
}

// Extreme settings on the GPU: θ 1.0001 and 1e9, rotary dim 2 and 512, factor 1000, N up to
// 2^24. Every value finite; sampled distances equal the float64 evaluation within 1e-5·Σ|c|.
TEST_F(GlTest, ExtremeSettingsStayFiniteAndExact) {
    for (double theta : {1.0001, 1e9}) {
        for (int d : {2, 512}) {
            for (RopeType type : {RopeType::Linear, RopeType::Yarn}) {
                ModelConfig m;
                m.head_dim = d;
                m.rope_theta = theta;
                m.rope_scaling.type = type;
                m.rope_scaling.factor = 1000.0;
                m.rope_scaling.original_max_position_embeddings = 4096;
                const RopeFrequencies f = compute_frequencies(m);
                test::TestRng rng{static_cast<std::uint64_t>(d)};
                const auto q = rng.vector(d), k = rng.vector(d);
                const std::int64_t n = d == 512 && type == RopeType::Yarn ? (std::int64_t{1} << 24) : 65536;
                const PhasorSum sum = rope_phasor_sum(score_coefficients(q, k, f), f, n - 1);
                core().compute_scores(sum, n, AngleMode::Exact);
                const auto gpu = core().read(Series::Scores);
                ASSERT_EQ(gpu.size(), static_cast<std::size_t>(n));
                const auto bad = std::find_if(gpu.begin(), gpu.end(), [](float v) { return !std::isfinite(v); });
                EXPECT_EQ(bad, gpu.end()) << "θ " << theta << " d " << d << ": non-finite at Δ = " << bad - gpu.begin();
                for (std::int64_t delta : {std::int64_t{0}, std::int64_t{1}, n / 3, n - 1}) {
                    EXPECT_NEAR(gpu[static_cast<std::size_t>(delta)], evaluate(sum, delta), 1e-5 * l1(sum))
                        << "θ " << theta << " d " << d << " Δ = " << delta;
                }
                core().compute_decay_bound(f, 4096);
                const auto bound = core().read(Series::Bound);
                EXPECT_TRUE(std::all_of(bound.begin(), bound.end(), [](float v) { return std::isfinite(v); }));
            }
        }
    }
}

TEST_F(GlTest, DecayBoundMatchesCore) {
    const RopeFrequencies f = compute_frequencies(ModelConfig{});
    core().compute_decay_bound(f, 65536);
    const auto gpu = core().read(Series::Bound);
    const auto exact = roformer_bound(f, 65536);
    for (std::size_t d = 0; d < exact.size(); ++d) ASSERT_NEAR(gpu[d], exact[d], 1e-5 * exact[0]) << d;
    EXPECT_NEAR(gpu[0], 32.5, 1e-5);
    EXPECT_NEAR(gpu[10], 17.954, 5e-4);
}

TEST_F(GlTest, HeatmapTexelsEqualCpu) {
    const RopeFrequencies f = compute_frequencies(ModelConfig{});
    for (std::int64_t first : {std::int64_t{0}, std::int64_t{3000000000}}) {
        core().compute_heatmap(f.phase_step, first, 3, 4096);
        const auto gpu = core().read_heatmap();
        const auto cpu = cpu_angle_heatmap(f.phase_step, first, 3, 4096);
        ASSERT_EQ(gpu.size(), cpu.size());
        double worst = 0;
        for (std::size_t i = 0; i < gpu.size(); ++i) {
            worst = std::max(worst, std::abs(test::angle_difference(gpu[i], cpu[i])));
        }
        EXPECT_LE(worst, 5e-7) << "first = " << first;  // two float roundings of an angle ≤ π
    }
}

TEST_F(GlTest, M4ColumnsEqualCpu) {
    const RopeFrequencies f = compute_frequencies(ModelConfig{});
    test::TestRng rng{34};
    const auto q = rng.vector(128), k = rng.vector(128);
    const PhasorSum sum = rope_phasor_sum(score_coefficients(q, k, f), f, 0);
    core().compute_scores(sum, kMillion, AngleMode::Exact);
    const auto series = core().read(Series::Scores);
    for (int columns : {2048, 7, 3000, 1}) {  // 1: wider than one workgroup may loop
        const auto bounds = m4_linear_boundaries(0, static_cast<std::uint32_t>(kMillion), columns);
        const auto gpu = core().decimate(Series::Scores, bounds);
        const auto cpu = m4_decimate(series, bounds);
        ASSERT_EQ(gpu.size(), cpu.size());
        for (std::size_t c = 0; c < cpu.size(); ++c) {
            ASSERT_EQ(gpu[c].first, cpu[c].first) << c;
            ASSERT_EQ(gpu[c].last, cpu[c].last) << c;
            ASSERT_EQ(gpu[c].min, cpu[c].min) << c;
            ASSERT_EQ(gpu[c].max, cpu[c].max) << c;
        }
    }
    // More columns than samples: empty columns are marked empty.
    const auto sparse = m4_linear_boundaries(0, 3, 8);
    const auto gpu = core().decimate(Series::Scores, sparse);
    int empty = 0;
    for (const auto& col : gpu) empty += col.empty();
    EXPECT_EQ(empty, 5);
}

}  // namespace
}  // namespace ropelab
