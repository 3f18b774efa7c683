#include "lab/lab_compute.h"

#include <algorithm>

#include "core/error.h"
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
    if (has_rope_) {
        device_.compute_series(gpu::Series::Scores, strided(data_.rope_sum, stride), count, AngleMode::Exact);
    }
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

void LabCompute::update(const LabParams& p) {
    update_data(p);
    // The position left the heatmap's page: the next page (the data itself is unchanged).
    const std::int64_t span = kHeatmapRows * heatmap_stride_;
    if (ready_ && (p.position < heatmap_first_ || p.position >= heatmap_first_ + span)) compute_heatmap(p);
    refresh_notes(p);
}

void LabCompute::compute_heatmap(const LabParams& p) {
    heatmap_stride_ = heatmap_stride_for(p.max_distance);
    heatmap_first_ = heatmap_first_for(p.position, heatmap_stride_);
    heatmap_texture_ = device_.heatmap_texture(data_.freqs.phase_step, heatmap_first_, heatmap_stride_, kHeatmapRows);
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
        refresh_focus(data_, p);
        focus_key_ = focus;
        ++focus_refreshes_;
    }
    if (key == key_) {
        if (pending_exact_) {  // parameters held still for a frame: replace the coarse preview
            compute_series(p, 1);
            pending_exact_ = false;
        }
        return;
    }
    if (key == rejected_key_) return;  // already refused these settings; keep showing the old
    try {
        LabData fresh = compute_lab_data(p);
        data_ = std::move(fresh);
        error_.clear();
    } catch (const InputError& e) {
        error_ = e.what();
        rejected_key_ = key;
        if (ready_) return;  // the previous curves stay on screen
        // Nothing shown yet (custom vectors that never parsed): the same settings with all-ones
        // q and k, so every view has data, and the refusal stays visible.
        LabParams ones = p;
        ones.vectors = VectorChoice::Ones;
        data_ = compute_lab_data(ones);
    }
    rejected_key_.clear();
    key_ = key;
    focus_key_ = focus;
    ++recomputes_;

    // A quick coarse curve first when the full one would cost more than a frame.
    const std::int64_t coarse_stride = std::max<std::int64_t>(1, p.max_distance / kCoarseSamples);
    compute_series(p, ready_ && previews_ ? coarse_stride : 1);
    pending_exact_ = stride_ > 1;

    compute_heatmap(p);
    ready_ = true;
}

}  // namespace ropelab
