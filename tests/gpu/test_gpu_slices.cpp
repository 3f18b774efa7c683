// The GPU-shaped (tiled) kernel, forced on llvmpipe, against float64 and the serial kernel; and
// curves computed a slice at a time (as the lab does across frames) against one-shot runs, on the
// GPU kernels and the CPU fast path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "support/reference.h"
#include "core/cpu_kernels.h"
#include "core/m4.h"
#include "core/phasor_sum.h"
#include "support/gl.h"
#include "gpu/gl_device.h"
#include "gpu/kernel_config.h"

namespace ropelab {
namespace {

using test::GlTest;

double l1_norm(const PhasorSum& s) {
    double sum = std::abs(s.constant);
    for (auto c : s.coefficient) sum += std::abs(c);
    return sum;
}

PhasorSum random_sum(int head_dim, double theta, std::uint64_t seed, std::int64_t query) {
    ModelConfig m;
    m.head_dim = head_dim;
    m.rope_theta = theta;
    const RopeFrequencies f = compute_frequencies(m);
    test::TestRng rng{seed};
    const auto q = rng.vector(head_dim), k = rng.vector(head_dim);
    return rope_phasor_sum(score_coefficients(q, k, f), f, query);
}

TEST(KernelShape, SoftwareRasterisersKeepTheSerialKernel) {
    EXPECT_EQ(gpu::kernel_shape_for("llvmpipe (LLVM 15.0.6, 256 bits)"), gpu::KernelShape::Serial);
    EXPECT_EQ(gpu::kernel_shape_for("SwiftShader Device (Subzero)"), gpu::KernelShape::Serial);
    EXPECT_EQ(gpu::kernel_shape_for("NVIDIA H200/PCIe/SSE2"), gpu::KernelShape::Tiled);
    EXPECT_EQ(gpu::kernel_shape_for("AMD Radeon RX 7900 XTX (radeonsi, navi31, LLVM 15.0.7, DRM 3.54, 6.5.0)"), gpu::KernelShape::Tiled);
}

// The accuracy goal at the lab's largest N: every Δ < 2^24 of the tiled kernel within
// 1e-5·Σ|c| of float64 at 20,000 distances (random, the last, and each side of workgroup and
// slice edges), and within 1e-5·Σ|c| of the serial kernel everywhere.
TEST_F(GlTest, TiledKernelIsExactTo2To24) {
    constexpr std::int64_t n = std::int64_t{1} << 24;
    gpu::GpuRopeCore tiled(gpu::KernelShape::Tiled);
    for (const auto& [dim, theta] : {std::pair{128, 5e5}, std::pair{16, 1e4}}) {
        const PhasorSum sum = random_sum(dim, theta, static_cast<std::uint64_t>(dim), n - 1);
        const double tolerance = 1e-5 * l1_norm(sum);
        tiled.compute_scores(sum, n, AngleMode::Exact);
        const std::vector<float> fast = tiled.read(Series::Scores);
        ASSERT_EQ(fast.size(), static_cast<std::size_t>(n));
        std::vector<std::int64_t> where = {0, 1, gpu::kTiledRun - 1, gpu::kTiledRun, gpu::kTiledBlock - 1, gpu::kTiledBlock, n - 1};
        std::mt19937_64 rng(static_cast<std::uint64_t>(dim));
        while (where.size() < 20000) where.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n)));
        for (std::int64_t d : where) {
            ASSERT_NEAR(fast[static_cast<std::size_t>(d)], evaluate(sum, d), tolerance) << "d " << dim << ", Δ = " << d;
        }
        core().compute_scores(sum, n, AngleMode::Exact);
        const std::vector<float> serial = core().read(Series::Scores);
        double worst = 0;
        for (std::size_t i = 0; i < serial.size(); ++i) worst = std::max(worst, std::abs(double(serial[i]) - fast[i]));
        EXPECT_LE(worst, tolerance) << "d " << dim;
    }
}

// Folded terms (cos θ < 0), a count that ends inside a workgroup, M4 over the tiled kernel's
// per-workgroup extremes equal to M4 over the numbers read back.
TEST_F(GlTest, TiledKernelPartialWorkgroupsFoldedTermsAndM4) {
    gpu::GpuRopeCore tiled(gpu::KernelShape::Tiled);
    ModelConfig m;
    m.head_dim = 16;
    m.rope_scaling.type = RopeType::Linear;
    m.rope_scaling.factor = 0.4;  // θ_0 = 2.5 rad: the folded recurrence
    const RopeFrequencies f = compute_frequencies(m);
    test::TestRng rng{41};
    const auto q = rng.vector(16), k = rng.vector(16);
    const PhasorSum sum = rope_phasor_sum(score_coefficients(q, k, f), f, 0);
    const std::int64_t n = 3 * gpu::kTiledBlock + 1001;
    tiled.compute_scores(sum, n, AngleMode::Exact);
    const auto fast = tiled.read(Series::Scores);
    ASSERT_EQ(fast.size(), static_cast<std::size_t>(n));
    for (std::int64_t d = 0; d < n; ++d) ASSERT_NEAR(fast[static_cast<std::size_t>(d)], evaluate(sum, d), 1e-5 * l1_norm(sum)) << d;
    for (int columns : {1, 7, 640}) {
        const auto bounds = m4_linear_boundaries(0, static_cast<std::uint32_t>(n), columns);
        const auto gpu = tiled.decimate(Series::Scores, bounds);
        const auto cpu = m4_decimate(fast, bounds);
        ASSERT_EQ(gpu.size(), cpu.size());
        for (std::size_t c = 0; c < cpu.size(); ++c) {
            EXPECT_EQ(gpu[c].min, cpu[c].min) << columns << " " << c;
            EXPECT_EQ(gpu[c].max, cpu[c].max) << columns << " " << c;
            EXPECT_EQ(gpu[c].first, cpu[c].first) << columns << " " << c;
            EXPECT_EQ(gpu[c].last, cpu[c].last) << columns << " " << c;
        }
    }
}

// begin / advance in uneven slices / commit gives the one-shot run's floats; until commit the
// slot still holds its previous curve.
void expect_slices_equal_one_shot(gpu::GpuRopeCore& core, const SeriesJob& job) {
    core.run(job);
    const std::vector<float> one_shot = core.read(job.into);
    SeriesJob other = job;
    other.count = 1000;
    core.run(other);  // what the slot shows meanwhile
    const std::vector<float> before = core.read(job.into);
    core.begin(job);
    const std::int64_t unit = core.slice_unit(job);
    std::int64_t from = 0;
    for (std::int64_t k = 1; from < job.count; ++k) {
        const std::int64_t to = std::min(job.count, from + unit * (k % 5 + 1));
        core.advance(job, from, to);
        from = to;
        ASSERT_EQ(core.read(job.into), before) << "the shown curve changed before commit";
    }
    core.commit(job.into);
    EXPECT_EQ(core.read(job.into), one_shot);
}

TEST_F(GlTest, SlicesEqualOneShotOnBothKernels) {
    const PhasorSum sum = random_sum(64, 1e4, 5, 70000);
    gpu::GpuRopeCore tiled(gpu::KernelShape::Tiled);
    const RopeFrequencies f = compute_frequencies(ModelConfig{});
    for (gpu::GpuRopeCore* c : {&core(), &tiled}) {
        expect_slices_equal_one_shot(*c, {Series::Scores, SeriesKind::Scores, sum, {}, 70001, AngleMode::Exact});
        expect_slices_equal_one_shot(*c, {Series::ModeScores, SeriesKind::Scores, sum, {}, 9000, AngleMode::NaiveFp32});
        expect_slices_equal_one_shot(*c, {Series::ModeError, SeriesKind::ModeError, sum, {}, 9000, AngleMode::Bf16});
        expect_slices_equal_one_shot(*c, {Series::Bound, SeriesKind::Bound, {}, f, 5000, AngleMode::Exact});
    }
}

// The CPU fast path in slices (ComputeDevice without a GPU), against its own one-shot curves.
TEST(CpuSlices, EqualOneShot) {
    std::string notice;
    const auto device = gpu::GlDevice::open(gpu::DeviceRequest::Cpu, true, notice);
    const PhasorSum sum = random_sum(64, 1e4, 6, 20000);
    const RopeFrequencies f = compute_frequencies(ModelConfig{});
    const std::vector<SeriesJob> jobs = {
        {Series::Scores, SeriesKind::Scores, sum, {}, 20001, AngleMode::Exact},
        {Series::ModeScores, SeriesKind::Scores, sum, {}, 3001, AngleMode::NaiveFp32},
        {Series::ModeError, SeriesKind::ModeError, sum, {}, 3001, AngleMode::NaiveFp32},
        {Series::Bound, SeriesKind::Bound, {}, f, 5001, AngleMode::Exact},
    };
    const std::vector<std::vector<float>> one_shot = {cpu_scores(sum, 20001, AngleMode::Exact), cpu_scores(sum, 3001, AngleMode::NaiveFp32),
                                                      cpu_mode_error(sum, 3001, AngleMode::NaiveFp32), cpu_decay_bound(f, 5001)};
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        const SeriesJob& job = jobs[j];
        device->begin(job);
        const std::int64_t unit = device->slice_unit(job);
        for (std::int64_t from = 0, k = 1; from < job.count; ++k) {
            const std::int64_t to = std::min(job.count, from + unit * (k % 3 + 1));
            device->advance(job, from, to);
            from = to;
        }
        device->commit(job.into);
        EXPECT_EQ(device->read_series(job.into), one_shot[j]) << j;
    }
}

}  // namespace
}  // namespace ropelab
