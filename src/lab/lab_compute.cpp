#include "lab/lab_compute.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.h"
#include "lab/compare.h"
#include "lab/schema.h"

namespace ropelab {

namespace {

// Every `stride`-th distance of a phasor sum is itself a phasor sum with θ·stride.
PhasorSum strided(PhasorSum sum, std::int64_t stride) {
    for (PhaseStep& step : sum.step) step = phase_at(step, stride);
    for (double& w : sum.radians_per_step) w *= static_cast<double>(stride);
    return sum;
}

}  // namespace

LabCompute::LabCompute(gpu::ComputeDevice& device) : device_(device) {}

void LabCompute::compute_series(const LabParams& p, std::int64_t stride) {
    const std::int64_t count = (p.max_distance + stride - 1) / stride;
    has_rope_ = p.encoding != Encoding::Sinusoidal;
    has_sinusoidal_ = p.encoding != Encoding::Rope;
    if (has_rope_) device_.compute_series(gpu::Series::Scores, strided(data_.rope_sum, stride), count, AngleMode::Exact);
    // The naive modes round float(m)·θ and float(m − Δ)·θ: a strided sum would round other
    // angles, so a coarse preview shows the exact curve alone.
    has_mode_scores_ = has_rope_ && p.angle_mode != AngleMode::Exact && stride == 1;
    has_mode_error_ = has_mode_scores_ && p.mode_difference;
    if (has_mode_scores_) device_.compute_series(gpu::Series::ModeScores, data_.rope_sum, count, p.angle_mode);
    if (has_mode_error_) device_.compute_mode_error_series(data_.rope_sum, count, p.angle_mode);
    if (has_sinusoidal_) {
        device_.compute_series(gpu::Series::SecondScores, strided(data_.sinusoidal_sum, stride),
                               count, AngleMode::Exact);
    }
    if (p.show_bound && has_rope_) {
        RopeFrequencies bound_freqs = data_.freqs;
        for (PhaseStep& step : bound_freqs.phase_step) step = phase_at(step, stride);
        device_.compute_bound_series(bound_freqs, count);
    }
    stride_ = stride;
    ++series_version_;
}

void LabCompute::compute_compared_series(const LabParams& p, int setting, std::int64_t stride) {
    const auto i = static_cast<std::size_t>(setting - 1);
    if (p.encoding != Encoding::Sinusoidal) {
        const std::int64_t count = (p.max_distance + stride - 1) / stride;
        device_.compute_series(gpu::setting_series(setting), strided(compared_[i].rope_sum, stride), count, AngleMode::Exact);
    }
    compared_strides_[i] = stride;
    compared_series_keys_[i] = compared_keys_[i];
    ++series_version_;
}

bool LabCompute::refine_one(const LabParams& p) {
    if (stride_ > 1) {
        compute_series(p, 1);
        return true;
    }
    for (int s = 1; s < settings(); ++s) {
        if (compared_strides_[static_cast<std::size_t>(s - 1)] > 1) {
            compute_compared_series(p, s, 1);
            return true;
        }
    }
    return false;
}

std::int64_t LabCompute::largest_stride() const {
    std::int64_t largest = stride_;
    for (std::int64_t s : compared_strides_) largest = std::max(largest, s);
    return largest;
}

void LabCompute::update(const LabParams& p) {
    update_data(p);
    // The position left the heatmap's page: the next page (the data itself is unchanged).
    const std::int64_t span = kHeatmapRows * heatmap_stride_;
    if (ready_ && (p.position < heatmap_first_ || p.position >= heatmap_first_ + span)) compute_heatmap(p);
    refresh_difference(p);
    refresh_notes(p);
}

void LabCompute::compute_heatmap(const LabParams& p) {
    heatmap_stride_ = heatmap_stride_for(p.max_distance);
    heatmap_first_ = heatmap_first_for(p.position, heatmap_stride_);
    heatmap_texture_ = device_.heatmap_texture(data_.freqs.phase_step, heatmap_first_, heatmap_stride_, kHeatmapRows);
}

void LabCompute::refresh_difference(const LabParams& p) {
    const int k = p.heatmap_difference;
    const bool shown = k >= 1 && k < settings() && setting_data(k).freqs.pairs() == data_.freqs.pairs();
    const std::string key = shown ? fmt::format("{}|{}|{}|{}", key_, k, heatmap_first_, heatmap_stride_) : "none";
    if (key == difference_key_) return;
    difference_key_ = key;
    difference_setting_ = shown ? k : 0;
    if (shown) {
        difference_texture_ = device_.difference_heatmap_texture(data_.freqs.phase_step, setting_data(k).freqs.phase_step,
                                                                 heatmap_first_, heatmap_stride_, kHeatmapRows);
    }
}

void LabCompute::refresh_focus_series(const LabParams& p, bool base) {
    if (base) refresh_focus(data_, p);
    for (std::size_t i = 0; i < compared_.size(); ++i) refresh_focus(compared_[i], setting_params(p, static_cast<int>(i) + 1));
}

void LabCompute::refresh_notes(const LabParams& p) {
    // Only the naive modes' notes read the position, which moves every frame while playing.
    const std::int64_t position = p.angle_mode == AngleMode::Exact ? -1 : p.position;
    if (notes_key_ == key_ && notes_position_ == position) return;
    notes_ = lab_math_notes(p, data_);
    notes_key_ = key_;
    notes_position_ = position;
}

void LabCompute::update_data(const LabParams& p) {
    // Keyed per product: focusing a pair recomputes its series, not the curves and heatmap.
    const std::string key = schema::key(p, schema::Affects::Data);
    const std::string focus = schema::key(p, schema::Affects::Focus);
    if (key == key_ && focus != focus_key_ && ready_) {
        refresh_focus_series(p, true);
        focus_key_ = focus;
        ++focus_refreshes_;
    }
    if (key == key_) {
        // Parameters held still for a frame: one coarse curve made exact per frame (in compare
        // mode four full curves at once would be one long frame).
        if (pending_exact_) pending_exact_ = refine_one(p);
        return;
    }
    if (key == rejected_key_) return;  // already refused these settings; keep showing the old
    // Each setting's data is recomputed only when its own settings changed: dragging the base's
    // θ leaves the compared curves (and their device series) as they are.
    const int count = setting_count(p);
    const std::string base_key = schema::key(setting_params(p, 0), schema::Affects::Data);
    std::vector<std::string> keys;
    for (int i = 1; i < count; ++i) keys.push_back(schema::key(setting_params(p, i), schema::Affects::Data));
    const bool base_changed = base_key != base_key_ || !ready_;
    LabData base;
    std::vector<LabData> compared;
    try {
        if (base_changed) {
            base = compute_lab_data(p);
            ++setting_computations_;
        }
        for (int i = 1; i < count; ++i) {
            const auto known = std::find(compared_keys_.begin(), compared_keys_.end(), keys[static_cast<std::size_t>(i - 1)]);
            if (known != compared_keys_.end()) {
                compared.push_back(compared_[static_cast<std::size_t>(known - compared_keys_.begin())]);
            } else {
                compared.push_back(compute_lab_data(setting_params(p, i)));
                ++setting_computations_;
            }
        }
        error_.clear();
    } catch (const InputError& e) {
        error_ = e.what();
        rejected_key_ = key;
        if (ready_) return;  // the previous curves stay on screen
        // Nothing shown yet (custom vectors that never parsed): the same settings with all-ones
        // q and k, so every view has data, and the refusal stays visible.
        LabParams ones = p;
        ones.vectors = VectorChoice::Ones;
        base = compute_lab_data(ones);
        compared.clear();
        for (int i = 1; i < count; ++i) compared.push_back(compute_lab_data(setting_params(ones, i)));
    }
    if (base_changed) data_ = std::move(base);
    compared_ = std::move(compared);
    if (focus != focus_key_) refresh_focus_series(p, !base_changed);  // what was kept shows the previous focus
    compared_keys_ = std::move(keys);
    compared_series_keys_.resize(compared_keys_.size());
    compared_strides_.resize(compared_keys_.size(), 1);
    rejected_key_.clear();
    key_ = key;
    base_key_ = base_key;
    focus_key_ = focus;
    ++recomputes_;

    // A quick coarse curve first when the full one would cost more than a frame: the changed
    // settings share one preview budget.
    std::vector<int> stale;
    if (base_changed) stale.push_back(0);
    for (int i = 1; i < count; ++i) {
        if (compared_series_keys_[static_cast<std::size_t>(i - 1)] != compared_keys_[static_cast<std::size_t>(i - 1)]) stale.push_back(i);
    }
    const std::int64_t budget = std::max<std::int64_t>(1, kCoarseSamples / std::max<std::int64_t>(1, static_cast<std::int64_t>(stale.size())));
    const std::int64_t coarse_stride = ready_ && previews_ ? std::max<std::int64_t>(1, p.max_distance / budget) : 1;
    for (int i : stale) {
        if (i == 0) compute_series(p, coarse_stride);
        else compute_compared_series(p, i, coarse_stride);
    }
    pending_exact_ = largest_stride() > 1;
    if (base_changed) compute_heatmap(p);
    ready_ = true;
}

}  // namespace ropelab
