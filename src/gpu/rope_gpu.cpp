#include "gpu/rope_gpu.h"

#include <epoxy/gl.h>

#include <algorithm>

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

GpuRopeCore::GpuRopeCore() {
    // Drivers such as llvmpipe compile a shader to machine code on its first dispatch; do that
    // now, so that no caller's timing or first frame pays for it.
    const PhasorSum one_term{{1.0}, {phase_step(0.5)}, {0.5}, 0.0, 0};
    compute_scores(one_term, kScoresBlock, AngleMode::Exact);
    RopeFrequencies one_pair;
    one_pair.rotary_dim = 2;
    one_pair.inv_freq = {0.5};
    one_pair.phase_step = one_term.step;
    compute_decay_bound(one_pair, kBoundBlock);
    const std::uint32_t all[] = {0, kScoresBlock};
    decimate(Series::Scores, all);
    compute_scores(one_term, kScoresBlock, AngleMode::Exact, Series::SecondScores);
    compute_heatmap(one_term.step, 0, 1, 1);
    finish();
}

GpuRopeCore::~GpuRopeCore() {
    if (heatmap_texture_) glDeleteTextures(1, &heatmap_texture_);
    if (heatmap_colors_) glDeleteTextures(1, &heatmap_colors_);
}

void GpuRopeCore::compute_scores(const PhasorSum& sum, std::int64_t count, AngleMode mode,
                                 Series into) {
    dispatch_scores(sum, count, mode, into, false);
}

void GpuRopeCore::compute_mode_error(const PhasorSum& sum, std::int64_t count, AngleMode mode) {
    dispatch_scores(sum, count, mode, Series::ModeError, mode != AngleMode::Exact);
}

void GpuRopeCore::dispatch_scores(const PhasorSum& sum, std::int64_t count, AngleMode mode,
                                  Series into, bool minus_exact) {
    std::vector<ReinschTerm> terms;
    for (std::size_t i = 0; i < sum.coefficient.size(); ++i) {
        terms.push_back(reinsch_term(sum.coefficient[i], sum.step[i], sum.radians_per_step[i]));
    }
    terms_.upload(terms.data(), terms.size() * sizeof(ReinschTerm));
    Slot& out = slot(into);
    out.values.reserve(static_cast<std::size_t>(count) * sizeof(float));
    out.extremes.reserve(static_cast<std::size_t>(groups(count, kScoresBlock)) * 2 * sizeof(float));
    out.count = count;
    out.block = kScoresBlock;

    glUseProgram(scores_program_.id());
    glUniform1ui(0, static_cast<GLuint>(count));
    glUniform1ui(1, static_cast<GLuint>(terms.size()));
    glUniform1f(2, minus_exact ? 0.0f : static_cast<float>(sum.constant));
    glUniform1i(3, static_cast<int>(mode));
    glUniform1i(4, static_cast<GLint>(sum.query_position));
    glUniform1i(5, minus_exact ? 1 : 0);
    glBindBufferBase(GL_UNIFORM_BUFFER, 0, terms_.id());
    out.values.bind(1);
    out.extremes.bind(2);
    glDispatchCompute(groups(groups(count, kScoresBlock), kWorkgroupSize), 1, 1);
    barrier();
    glUseProgram(0);
}

void GpuRopeCore::compute_decay_bound(const RopeFrequencies& freqs, std::int64_t count) {
    std::vector<ReinschTerm> terms;
    for (std::size_t k = 0; k < freqs.phase_step.size(); ++k) {
        // The kernel steps by multiplying with e^{iθ}, carried in the coefficient slot.
        const double theta = phase_radians(freqs.phase_step[k]);
        terms.push_back(reinsch_term(std::polar(1.0, theta), freqs.phase_step[k], freqs.inv_freq[k]));
    }
    terms_.upload(terms.data(), terms.size() * sizeof(ReinschTerm));
    Slot& out = slot(Series::Bound);
    out.values.reserve(static_cast<std::size_t>(count) * sizeof(float));
    out.extremes.reserve(static_cast<std::size_t>(groups(count, kBoundBlock)) * 2 * sizeof(float));
    out.count = count;
    out.block = kBoundBlock;

    glUseProgram(bound_program_.id());
    glUniform1ui(0, static_cast<GLuint>(count));
    glUniform1ui(1, static_cast<GLuint>(terms.size()));
    glBindBufferBase(GL_UNIFORM_BUFFER, 0, terms_.id());
    out.values.bind(1);
    out.extremes.bind(2);
    glDispatchCompute(groups(groups(count, kBoundBlock), kWorkgroupSize), 1, 1);
    barrier();
    glUseProgram(0);
}

std::int64_t GpuRopeCore::size(Series series) const { return slot(series).count; }

std::vector<float> GpuRopeCore::read(Series series) const {
    std::vector<float> out(static_cast<std::size_t>(size(series)));
    slot(series).values.download(out.data(), out.size() * sizeof(float));
    return out;
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

void GpuRopeCore::finish() { glFinish(); }

}  // namespace ropelab::gpu
