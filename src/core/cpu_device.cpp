#include "core/cpu_device.h"

#include <algorithm>
#include <utility>

#include "core/cpu_kernels.h"

namespace ropelab {

namespace {
// The job's length rounded up to whole slice units: the kernels write whole blocks.
std::size_t whole_units(std::int64_t count, std::int64_t unit) {
    return static_cast<std::size_t>((count + unit - 1) / unit * unit);
}

// out[j] = the job's value at distance first + j (first and out.size() whole slice units).
void compute_on_cpu(const SeriesJob& job, std::int64_t first, std::span<float> out) {
    switch (job.kind) {
        case SeriesKind::Scores: cpu_scores_into(job.sum, first, out, job.mode); break;
        case SeriesKind::ModeError: cpu_mode_error_into(job.sum, first, out, job.mode); break;
        case SeriesKind::Bound: cpu_decay_bound_into(job.freqs, first, out); break;
    }
}
}  // namespace

std::int64_t CpuDevice::slice_unit(const SeriesJob& job) const {
    return job.kind == SeriesKind::Bound ? kCpuBoundBlock : job.kind == SeriesKind::Scores ? cpu_slice_unit(job.mode) : 1;
}

void CpuDevice::begin(const SeriesJob& job) {
    const int i = static_cast<int>(job.into);
    back_count_[i] = job.count;
    back_[i].assign(whole_units(job.count, slice_unit(job)), 0.0f);
}

void CpuDevice::advance(const SeriesJob& job, std::int64_t from, std::int64_t to) {
    std::vector<float>& back = back_[static_cast<int>(job.into)];
    const std::int64_t unit = slice_unit(job);
    to = std::min<std::int64_t>((to + unit - 1) / unit * unit, static_cast<std::int64_t>(back.size()));
    if (from >= to) return;
    compute_on_cpu(job, from, std::span<float>(back.data() + from, static_cast<std::size_t>(to - from)));
}

void CpuDevice::commit(Series slot) {
    const int i = static_cast<int>(slot);
    std::swap(front_[i], back_[i]);
    front_[i].resize(static_cast<std::size_t>(back_count_[i]));  // whole blocks were computed
}

std::int64_t CpuDevice::series_size(Series slot) const {
    return static_cast<std::int64_t>(front_[static_cast<int>(slot)].size());
}

std::vector<M4Column> CpuDevice::decimate(Series slot, std::span<const std::uint32_t> boundaries) {
    return m4_decimate(front_[static_cast<int>(slot)], boundaries);
}

float CpuDevice::series_value(Series slot, std::int64_t index) {
    if (index < 0 || index >= series_size(slot)) return 0.0f;
    return front_[static_cast<int>(slot)][static_cast<std::size_t>(index)];
}

std::vector<float> CpuDevice::read_series(Series slot) const { return front_[static_cast<int>(slot)]; }

std::span<const float> CpuDevice::computed(const SeriesJob& job) {
    result_.resize(whole_units(job.count, slice_unit(job)));  // a buffer kept from call to call
    compute_on_cpu(job, 0, result_);
    return {result_.data(), static_cast<std::size_t>(job.count)};
}

std::span<const float> CpuDevice::scores(const PhasorSum& sum, std::int64_t count, AngleMode mode) {
    return computed({Series::Scores, SeriesKind::Scores, sum, {}, count, mode});
}

std::span<const float> CpuDevice::decay_bound(const RopeFrequencies& freqs, std::int64_t count) {
    return computed({Series::Bound, SeriesKind::Bound, {}, freqs, count, AngleMode::Exact});
}

}  // namespace ropelab
