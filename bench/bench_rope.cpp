// Speed of the RoPE cores. Run: build/ropelab_bench  (results and machine in the README).
// GPU numbers are dispatch + readback (or dispatch + glFinish for the heatmap), wall time; the
// scores benchmarks also report kernel_ms (GL timer queries; llvmpipe runs a dispatch inside
// glDispatchCompute and reports ~0) and transfer_ms (the copy back through the mapped buffer).
#include <benchmark/benchmark.h>

#include <chrono>
#include <complex>
#include <memory>

#include "core/attention.h"
#include "core/grid_scores.h"
#include "core/cpu_kernels.h"
#include "core/m4.h"
#include "core/phasor_sum.h"
#include "core/presets.h"
#include "core/vector_spec.h"
#include "gpu/gl_context.h"
#include "gpu/rope_gpu.h"

namespace {

using namespace ropelab;

constexpr std::int64_t kDistances = std::int64_t{1} << 20;

struct Fixture {
    RopeFrequencies freqs = compute_frequencies(ModelConfig{});  // d = 128, θ = 10^4
    PhasorSum sum = rope_phasor_sum(
        score_coefficients(random_vector(1, 128), random_vector(2, 128), freqs), freqs, 0);
};

const Fixture& fixture() {
    static const Fixture f;
    return f;
}

// The GL context and compiled kernels, made once; nullptr (benchmarks skip) without a context.
// The serial kernel unless $ROPELAB_KERNEL says otherwise (the tiled one has its own benchmark).
gpu::GpuRopeCore* gpu_core(gpu::KernelShape shape = gpu::KernelShape::Serial) {
    static std::string why;
    static auto context = gpu::HeadlessContext::create(why);
    static auto serial = context ? std::make_unique<gpu::GpuRopeCore>(gpu::KernelShape::Serial) : nullptr;
    static auto tiled = context ? std::make_unique<gpu::GpuRopeCore>(gpu::KernelShape::Tiled) : nullptr;
    return shape == gpu::KernelShape::Serial ? serial.get() : tiled.get();
}

// Exact scores for state.range(0) distances, read back as the CLI does.
void gpu_scores(benchmark::State& state, gpu::KernelShape shape) {
    gpu::GpuRopeCore* core = gpu_core(shape);
    if (!core) return state.SkipWithError("no OpenGL >= 4.3 context");
    const std::int64_t n = state.range(0);
    core->set_timing(true);
    double kernel_ms = 0, transfer_ms = 0;
    for (auto _ : state) {
        core->compute_scores(fixture().sum, n, AngleMode::Exact);
        kernel_ms += core->take_kernel_ms();
        const auto start = std::chrono::steady_clock::now();
        benchmark::DoNotOptimize(core->read_mapped(Series::Scores).data());
        transfer_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
    core->set_timing(false);
    const auto runs = static_cast<double>(state.iterations());
    state.counters["kernel_ms"] = kernel_ms / runs;
    state.counters["transfer_ms"] = transfer_ms / runs;
    state.SetLabel(gpu::current_gl_info().renderer);
}

void BM_GpuScores(benchmark::State& state) { gpu_scores(state, gpu::KernelShape::Serial); }
BENCHMARK(BM_GpuScores)->Arg(kDistances)->Arg(kDistances << 4)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

// The GPU-shaped kernel (what real GPUs get): slow on llvmpipe, which runs it on two CPU cores.
void BM_GpuScoresTiled(benchmark::State& state) { gpu_scores(state, gpu::KernelShape::Tiled); }
BENCHMARK(BM_GpuScoresTiled)->Arg(kDistances)->Arg(kDistances << 4)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

// Into a buffer reused from call to call, as ComputeDevice::scores (the CLI) does.
void BM_CpuScores(benchmark::State& state) {
    std::vector<float> out(static_cast<std::size_t>(kDistances));
    for (auto _ : state) {
        cpu_scores_into(fixture().sum, 0, out, AngleMode::Exact);
        benchmark::DoNotOptimize(out.data());
    }
}
BENCHMARK(BM_CpuScores)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

// What a numpy user writes: Re(c @ exp(1j·outer(θ, Δ))) in float64, one complex exp per term.
void BM_DirectFloat64(benchmark::State& state) {
    const PhasorSum& sum = fixture().sum;
    std::vector<double> out(static_cast<std::size_t>(kDistances));
    for (auto _ : state) {
        for (std::int64_t d = 0; d < kDistances; ++d) {
            double total = sum.constant;
            for (std::size_t i = 0; i < sum.coefficient.size(); ++i) {
                const double angle = static_cast<double>(d) * sum.radians_per_step[i];
                total += (sum.coefficient[i] * std::exp(std::complex<double>(0.0, angle))).real();
            }
            out[static_cast<std::size_t>(d)] = total;
        }
        benchmark::DoNotOptimize(out.data());
    }
}
BENCHMARK(BM_DirectFloat64)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);

void BM_GpuHeatmap4096x64(benchmark::State& state) {
    gpu::GpuRopeCore* core = gpu_core();
    if (!core) return state.SkipWithError("no OpenGL >= 4.3 context");
    for (auto _ : state) {
        core->compute_heatmap(fixture().freqs.phase_step, 0, 1, 4096);
        gpu::GpuRopeCore::finish();
    }
}
BENCHMARK(BM_GpuHeatmap4096x64)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

void BM_GpuM4_2048Columns(benchmark::State& state) {
    gpu::GpuRopeCore* core = gpu_core();
    if (!core) return state.SkipWithError("no OpenGL >= 4.3 context");
    core->compute_scores(fixture().sum, kDistances, AngleMode::Exact);
    const auto bounds = m4_linear_boundaries(0, static_cast<std::uint32_t>(kDistances), 2048);
    for (auto _ : state) benchmark::DoNotOptimize(core->decimate(Series::Scores, bounds));
}
BENCHMARK(BM_GpuM4_2048Columns)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

void BM_GpuDecayBound(benchmark::State& state) {
    gpu::GpuRopeCore* core = gpu_core();
    if (!core) return state.SkipWithError("no OpenGL >= 4.3 context");
    for (auto _ : state) {
        core->compute_decay_bound(fixture().freqs, kDistances);
        benchmark::DoNotOptimize(core->read(Series::Bound));
    }
}
BENCHMARK(BM_GpuDecayBound)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

void BM_CpuDecayBound(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(cpu_decay_bound(fixture().freqs, kDistances));
}
BENCHMARK(BM_CpuDecayBound)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

void BM_GpuNaiveFp32Scores(benchmark::State& state) {
    gpu::GpuRopeCore* core = gpu_core();
    if (!core) return state.SkipWithError("no OpenGL >= 4.3 context");
    for (auto _ : state) {
        core->compute_scores(fixture().sum, kDistances, AngleMode::NaiveFp32);
        benchmark::DoNotOptimize(core->read(Series::Scores));
    }
}
BENCHMARK(BM_GpuNaiveFp32Scores)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

// Scores over an image: one slice of an N×N image (M-RoPE sections 16/24/24, θ 1e6), every
// (Δh, Δw) of (2N−1)² offsets; the CPU's recurrence over all cores, and the GPU kernel with its
// read-back.
struct GridFixture {
    ModelConfig model = [] {
        ModelConfig m;
        m.rope_theta = 1e6;
        m.multi_axis.rule = AxisRule::Sections;
        m.multi_axis.sections = {16, 24, 24};
        return m;
    }();
    RopeFrequencies freqs = compute_frequencies(model);
    ScoreCoefficients c = score_coefficients(random_vector(1, 128), random_vector(2, 128), freqs);
};

void BM_CpuGrid(benchmark::State& state) {
    static const GridFixture g;
    const GridSize size{1, state.range(0), state.range(0)};
    const std::vector<AxisVector> omega = grid_frequency_vectors(g.model, g.freqs, size);
    for (auto _ : state) benchmark::DoNotOptimize(grid_slice(g.c, omega, size, 0).values.data());
}
BENCHMARK(BM_CpuGrid)->Arg(16)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

void BM_GpuGrid(benchmark::State& state) {
    static const GridFixture g;
    gpu::GpuRopeCore* core = gpu_core();
    if (!core) return state.SkipWithError("no OpenGL >= 4.3 context");
    const GridSize size{1, state.range(0), state.range(0)};
    const std::vector<AxisVector> omega = grid_frequency_vectors(g.model, g.freqs, size);
    for (auto _ : state) benchmark::DoNotOptimize(core->compute_grid(g.c, omega, size.height, size.width, 0).data());
}
BENCHMARK(BM_GpuGrid)->Arg(16)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

// The attention view's rows: T = 2^16 tokens of random 128-dim q and k (Llama 3 8B's head), the
// rotated keys prepared once, then one full row of logits (every key of the last query).
AttentionInput attention_bench_input(bool same) {
    AttentionInput in;
    in.model = preset_or_throw("llama3-8b").config;
    const std::int64_t t = kMaxAttentionTokens;
    for (std::int64_t n = 0; n < t; ++n) {
        in.ids.kind.push_back(TokenKind::Text);
        in.ids.part.push_back(0);
        for (auto* axis : {&in.ids.t, &in.ids.h, &in.ids.w}) axis->push_back(n);
    }
    in.qk.head_dim = 128;
    in.qk.same = same;
    for (std::int64_t n = 0; n < (same ? 1 : t); ++n) {
        const std::vector<double> q = random_vector(2 * static_cast<std::uint64_t>(n), 128), k = random_vector(2 * static_cast<std::uint64_t>(n) + 1, 128);
        in.qk.q.insert(in.qk.q.end(), q.begin(), q.end());
        in.qk.k.insert(in.qk.k.end(), k.begin(), k.end());
    }
    return in;
}

void BM_AttentionPrepare(benchmark::State& state) {
    const AttentionInput in = attention_bench_input(state.range(0) != 0);
    for (auto _ : state) benchmark::DoNotOptimize(AttentionRows(in).tokens());
}
BENCHMARK(BM_AttentionPrepare)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

void BM_AttentionRow(benchmark::State& state) {
    const AttentionRows rows(attention_bench_input(state.range(0) != 0));
    std::vector<double> out(static_cast<std::size_t>(rows.tokens()));
    for (auto _ : state) {
        rows.logits(rows.tokens() - 1, 0, rows.tokens(), out.data());
        benchmark::DoNotOptimize(out.data());
    }
}
BENCHMARK(BM_AttentionRow)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

}  // namespace

BENCHMARK_MAIN();
