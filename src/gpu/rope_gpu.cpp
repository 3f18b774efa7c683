#include "gpu/rope_gpu.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <utility>

#include "core/recurrence.h"
#include "gpu/kernel_config.h"

namespace ropelab::gpu {

namespace {

GLuint groups(std::int64_t invocations, int per_group) {
    return static_cast<GLuint>((invocations + per_group - 1) / per_group);
}

// Makes shader writes visible to later dispatches, buffer reads and texture fetches.
void barrier() {
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT |
                    GL_TEXTURE_FETCH_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT |
                    GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
}

}  // namespace

KernelShape kernel_shape_for(std::string_view renderer) {
    // Mesa's software rasterisers and Google's SwiftShader run invocations as CPU SIMD lanes.
    for (std::string_view soft : {"llvmpipe", "softpipe", "swrast", "SwiftShader", "lavapipe"}) {
        if (renderer.find(soft) != std::string_view::npos) return KernelShape::Serial;
    }
    return KernelShape::Tiled;
}

std::string_view to_string(KernelShape shape) { return shape == KernelShape::Serial ? "serial" : "tiled"; }

GpuRopeCore::GpuRopeCore(KernelShape shape) : shape_(shape) {
    glGenQueries(1, &timer_query_);
    // Drivers such as llvmpipe compile a shader to machine code on its first dispatch; do that
    // now, so that no caller's timing or first frame pays for it.
    const PhasorSum one_term{{1.0}, {phase_step(0.5)}, {0.5}, 0.0, 0};
    compute_scores(one_term, kTiledBlock, AngleMode::Exact);
    RopeFrequencies one_pair;
    one_pair.rotary_dim = 2;
    one_pair.inv_freq = {0.5};
    one_pair.phase_step = one_term.step;
    compute_decay_bound(one_pair, kBoundBlock);
    const std::uint32_t all[] = {0, kScoresBlock};
    decimate(Series::Scores, all);
    compute_scores(one_term, kScoresBlock, AngleMode::NaiveFp32, Series::SecondScores);
    compute_heatmap(one_term.step, 0, 1, 1);
    finish();
}

GpuRopeCore::~GpuRopeCore() {
    if (heatmap_texture_) glDeleteTextures(1, &heatmap_texture_);
    if (heatmap_colors_) glDeleteTextures(1, &heatmap_colors_);
    if (timer_query_) glDeleteQueries(1, &timer_query_);
}

int GpuRopeCore::block_of(const SeriesJob& job) const {
    if (job.kind == SeriesKind::Bound) return kBoundBlock;
    const bool tiled = shape_ == KernelShape::Tiled && job.kind == SeriesKind::Scores && job.mode == AngleMode::Exact;
    return tiled ? kTiledBlock : kScoresBlock;
}

std::int64_t GpuRopeCore::slice_unit(const SeriesJob& job) const { return block_of(job); }

void GpuRopeCore::begin(const SeriesJob& job) {
    Slot& out = back_[static_cast<int>(job.into)];
    out.block = block_of(job);
    out.count = job.count;
    out.values.reserve(static_cast<std::size_t>(job.count) * sizeof(float));
    out.extremes.reserve(static_cast<std::size_t>(groups(job.count, out.block)) * 2 * sizeof(float));
}

void GpuRopeCore::advance(const SeriesJob& job, std::int64_t from, std::int64_t to) {
    Slot& out = back_[static_cast<int>(job.into)];
    to = std::min(to, job.count);
    if (from >= to) return;
    if (timing_) glBeginQuery(GL_TIME_ELAPSED, timer_query_);
    if (job.kind == SeriesKind::Bound) {
        dispatch_bound(job, out, from, to);
    } else {
        dispatch_scores(job, out, from, to);
    }
    if (timing_) {
        glEndQuery(GL_TIME_ELAPSED);
        GLuint64 ns = 0;
        glGetQueryObjectui64v(timer_query_, GL_QUERY_RESULT, &ns);
        kernel_ms_ += static_cast<double>(ns) * 1e-6;
    }
}

void GpuRopeCore::commit(Series series) {
    Slot& front = slot(series);
    Slot& back = back_[static_cast<int>(series)];
    const std::size_t bytes = static_cast<std::size_t>(back.count) * sizeof(float);
    const std::size_t extreme_bytes = static_cast<std::size_t>(groups(back.count, back.block)) * 2 * sizeof(float);
    if (bytes * kCopyRatio <= back.values.capacity()) {
        // A coarse preview (a drag's every frame) written into a long back buffer is copied to
        // the front instead of swapped there: the long buffer stays at the back, so the exact
        // pass after the drag allocates nothing (64 MiB is ~50 ms on llvmpipe, more on a busy
        // machine, a frame of its own per series). A swap otherwise, which also moves a long
        // front buffer to the back.
        front.values.copy_from(back.values, bytes);
        front.extremes.copy_from(back.extremes, extreme_bytes);
        front.count = back.count;
        front.block = back.block;
        return;
    }
    front.values.swap(back.values);
    front.extremes.swap(back.extremes);
    std::swap(front.count, back.count);
    std::swap(front.block, back.block);
    if (pair_buffers_) {
        back.values.reserve(front.values.capacity());
        back.extremes.reserve(front.extremes.capacity());
    }
}

void GpuRopeCore::run(const SeriesJob& job) {
    begin(job);
    advance(job, 0, job.count);
    commit(job.into);
}

double GpuRopeCore::take_kernel_ms() { return std::exchange(kernel_ms_, 0.0); }

void GpuRopeCore::compute_scores(const PhasorSum& sum, std::int64_t count, AngleMode mode,
                                 Series into) {
    run({into, SeriesKind::Scores, sum, {}, count, mode});
}

void GpuRopeCore::compute_mode_error(const PhasorSum& sum, std::int64_t count, AngleMode mode) {
    run({Series::ModeError, mode == AngleMode::Exact ? SeriesKind::Scores : SeriesKind::ModeError, sum, {}, count, mode});
}

void GpuRopeCore::compute_decay_bound(const RopeFrequencies& freqs, std::int64_t count) {
    run({Series::Bound, SeriesKind::Bound, {}, freqs, count, AngleMode::Exact});
}

void GpuRopeCore::upload_terms(const std::vector<ReinschTerm>& terms) {
    terms_.upload(terms.data(), terms.size() * sizeof(ReinschTerm));
}

void GpuRopeCore::dispatch_scores(const SeriesJob& job, Slot& out, std::int64_t from, std::int64_t to) {
    const PhasorSum& sum = job.sum;
    const bool minus_exact = job.kind == SeriesKind::ModeError;
    std::vector<ReinschTerm> terms;
    for (std::size_t i = 0; i < sum.coefficient.size(); ++i) {
        terms.push_back(reinsch_term(sum.coefficient[i], sum.step[i], sum.radians_per_step[i]));
    }
    // Uploaded per slice: between two slices of one job other series may have used the buffer.
    upload_terms(terms);
    const bool tiled = out.block == kTiledBlock;
    glUseProgram(tiled ? tiled_program_.id() : scores_program_.id());
    glUniform1ui(0, static_cast<GLuint>(to));
    glUniform1ui(1, static_cast<GLuint>(terms.size()));
    glUniform1f(2, minus_exact ? 0.0f : static_cast<float>(sum.constant));
    glUniform1ui(6, static_cast<GLuint>(from));
    if (tiled) {
        terms_.bind(3);
    } else {
        glUniform1i(3, static_cast<int>(job.mode));
        glUniform1i(4, static_cast<GLint>(sum.query_position));
        glUniform1i(5, minus_exact ? 1 : 0);
        glBindBufferBase(GL_UNIFORM_BUFFER, 0, terms_.id());
    }
    out.values.bind(1);
    out.extremes.bind(2);
    const std::int64_t blocks = groups(to - from, out.block);
    glDispatchCompute(tiled ? static_cast<GLuint>(blocks) : groups(blocks, kWorkgroupSize), 1, 1);
    barrier();
    glUseProgram(0);
}

void GpuRopeCore::dispatch_bound(const SeriesJob& job, Slot& out, std::int64_t from, std::int64_t to) {
    std::vector<ReinschTerm> terms;
    for (std::size_t k = 0; k < job.freqs.phase_step.size(); ++k) {
        // The kernel steps by multiplying with e^{iθ}, carried in the coefficient slot.
        const double theta = phase_radians(job.freqs.phase_step[k]);
        terms.push_back(reinsch_term(std::polar(1.0, theta), job.freqs.phase_step[k], job.freqs.inv_freq[k]));
    }
    upload_terms(terms);
    glUseProgram(bound_program_.id());
    glUniform1ui(0, static_cast<GLuint>(to));
    glUniform1ui(1, static_cast<GLuint>(terms.size()));
    glUniform1ui(2, static_cast<GLuint>(from));
    glBindBufferBase(GL_UNIFORM_BUFFER, 0, terms_.id());
    out.values.bind(1);
    out.extremes.bind(2);
    glDispatchCompute(groups(groups(to - from, kBoundBlock), kWorkgroupSize), 1, 1);
    barrier();
    glUseProgram(0);
}

std::int64_t GpuRopeCore::size(Series series) const { return slot(series).count; }

std::vector<float> GpuRopeCore::read(Series series) const {
    std::vector<float> out(static_cast<std::size_t>(size(series)));
    slot(series).values.download(out.data(), out.size() * sizeof(float));
    return out;
}

std::span<const float> GpuRopeCore::read_mapped(Series series) {
    const auto count = static_cast<std::size_t>(size(series));
    if (!MappedReadBuffer::supported()) {
        fallback_read_ = read(series);
        return fallback_read_;
    }
    const void* at = readback_.copy_from(slot(series).values, count * sizeof(float));
    return {static_cast<const float*>(at), count};
}

float GpuRopeCore::read_value(Series series, std::int64_t index) const {
    float value = 0.0f;
    slot(series).values.download(&value, sizeof value, static_cast<std::size_t>(index) * sizeof value);
    return value;
}

std::vector<M4Column> GpuRopeCore::decimate(Series series,
                                            std::span<const std::uint32_t> boundaries) {
    if (boundaries.size() < 2) return {};
    // Keep every loop under the iteration cap of software drivers (a column's loop over block
    // extremes runs at most width / block times): split wide columns, merge the pieces here.
    std::uint32_t widest = 0;
    for (std::size_t c = 0; c + 1 < boundaries.size(); ++c) {
        widest = std::max(widest, boundaries[c + 1] - boundaries[c]);
    }
    const std::uint32_t limit = kM4MaxColumnSamples * static_cast<std::uint32_t>(std::min(kScoresBlock, kBoundBlock));
    const std::uint32_t parts = (widest + limit - 1) / limit;
    if (parts > 1) {  // parts is 0 or 1 otherwise
        const auto fine = m4_split_boundaries(boundaries, parts);
        return m4_merge(decimate(series, fine), parts);
    }

    const auto columns = static_cast<GLuint>(boundaries.size() - 1);
    boundaries_.upload(boundaries.data(), boundaries.size_bytes());
    columns_.reserve(columns * sizeof(M4Column));

    const Slot& in = slot(series);
    glUseProgram(m4_program_.id());
    glUniform1ui(0, columns);
    glUniform1ui(1, static_cast<GLuint>(in.block));
    in.values.bind(1);
    boundaries_.bind(2);
    columns_.bind(3);
    in.extremes.bind(4);
    glDispatchCompute(groups(columns, kWorkgroupSize), 1, 1);
    barrier();
    glUseProgram(0);

    std::vector<M4Column> out(columns);
    columns_.download(out.data(), out.size() * sizeof(M4Column));
    return out;
}

unsigned GpuRopeCore::compute_heatmap(std::span<const PhaseStep> steps, std::int64_t first,
                                      std::int64_t stride, int rows) {
    const int pairs = static_cast<int>(steps.size());
    if (pairs != heatmap_pairs_ || rows != heatmap_rows_) {
        for (unsigned* texture : {&heatmap_texture_, &heatmap_colors_}) {
            if (*texture) glDeleteTextures(1, texture);
            glGenTextures(1, texture);
            glBindTexture(GL_TEXTURE_2D, *texture);
            glTexStorage2D(GL_TEXTURE_2D, 1, texture == &heatmap_texture_ ? GL_R32F : GL_RGBA8,
                           pairs, rows);
            // Angles are looked up, not blended: neighbouring texels may wrap around ±π.
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        }
        glBindTexture(GL_TEXTURE_2D, 0);
        heatmap_pairs_ = pairs;
        heatmap_rows_ = rows;
    }
    std::vector<std::uint32_t> phases;  // per pair: start (lo, hi), stride (lo, hi)
    for (PhaseStep step : steps) {
        const Phase start = phase_at(step, first), advance = phase_at(step, stride);
        phases.insert(phases.end(), {static_cast<std::uint32_t>(start),
                                     static_cast<std::uint32_t>(start >> 32),
                                     static_cast<std::uint32_t>(advance),
                                     static_cast<std::uint32_t>(advance >> 32)});
    }
    heatmap_phases_.upload(phases.data(), phases.size() * sizeof(std::uint32_t));

    glUseProgram(heatmap_program_.id());
    glUniform1i(0, pairs);
    glUniform1i(1, rows);
    heatmap_phases_.bind(0);
    glBindImageTexture(0, heatmap_texture_, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R32F);
    glBindImageTexture(1, heatmap_colors_, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glDispatchCompute(groups(pairs, kHeatmapTile), groups(rows, kHeatmapTile), 1);
    barrier();
    glUseProgram(0);
    return heatmap_colors_;
}

std::vector<float> GpuRopeCore::read_heatmap() const {
    std::vector<float> out(static_cast<std::size_t>(heatmap_pairs_) * heatmap_rows_);
    glBindTexture(GL_TEXTURE_2D, heatmap_texture_);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RED, GL_FLOAT, out.data());
    glBindTexture(GL_TEXTURE_2D, 0);
    return out;
}

std::vector<float> GpuRopeCore::compute_grid(const ScoreCoefficients& c, std::span<const AxisVector> omega, std::int64_t height,
                                             std::int64_t width, std::int64_t dt) {
    // Per pair, as GridPair in grid_scores.comp: c (2 floats), then t, h, w steps (low, high).
    struct GridPair {
        float coefficient[2];
        std::uint32_t steps[3][2];
    };
    static_assert(sizeof(GridPair) == 32);
    const std::size_t count = std::min(omega.size(), c.pair.size());
    std::vector<GridPair> pairs(count);
    for (std::size_t j = 0; j < count; ++j) {
        pairs[j].coefficient[0] = static_cast<float>(c.pair[j].real());
        pairs[j].coefficient[1] = static_cast<float>(c.pair[j].imag());
        for (int a = 0; a < kAxes; ++a) {
            const PhaseStep step = phase_step(omega[j][static_cast<std::size_t>(a)]);
            pairs[j].steps[a][0] = static_cast<std::uint32_t>(step);
            pairs[j].steps[a][1] = static_cast<std::uint32_t>(step >> 32);
        }
    }
    const std::int64_t offsets = (2 * height - 1) * (2 * width - 1);
    grid_pairs_.upload(pairs.data(), std::max<std::size_t>(1, pairs.size()) * sizeof(GridPair));
    grid_values_.reserve(static_cast<std::size_t>(offsets) * sizeof(float));
    glUseProgram(grid_program_.id());
    glUniform1i(0, static_cast<GLint>(count));
    glUniform1i(1, static_cast<GLint>(height));
    glUniform1i(2, static_cast<GLint>(width));
    glUniform1i(3, static_cast<GLint>(dt));
    glUniform1f(4, static_cast<float>(c.passthrough));
    grid_pairs_.bind(0);
    grid_values_.bind(1);
    glDispatchCompute(groups(offsets, kWorkgroupSize), 1, 1);
    barrier();
    glUseProgram(0);
    std::vector<float> out(static_cast<std::size_t>(offsets));
    grid_values_.download(out.data(), out.size() * sizeof(float));
    return out;
}

void GpuRopeCore::finish() { glFinish(); }

}  // namespace ropelab::gpu
