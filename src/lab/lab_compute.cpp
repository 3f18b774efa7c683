#include "lab/lab_compute.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.h"
#include "state/compare.h"
#include "state/schema.h"

namespace ropelab {

namespace {

// Every `stride`-th distance of a phasor sum is itself a phasor sum with θ·stride.
PhasorSum strided(PhasorSum sum, std::int64_t stride) {
    for (PhaseStep& step : sum.step) step = phase_at(step, stride);
    for (double& w : sum.radians_per_step) w *= static_cast<double>(stride);
    return sum;
}

}  // namespace

LabCompute::LabCompute(ComputeDevice& device) : device_(device) {}

void LabCompute::compute_series(const LabParams& p, std::int64_t stride) {
    const std::int64_t count = (p.max_distance + stride - 1) / stride;
    has_rope_ = p.encoding != Encoding::Sinusoidal;
    has_sinusoidal_ = p.encoding != Encoding::Rope;
    if (has_rope_) device_.compute_series(Series::Scores, strided(data_.rope_sum, stride), count, AngleMode::Exact);
    // The naive modes round float(m)·θ and float(m − Δ)·θ: a strided sum would round other
    // angles, so a coarse preview shows the exact curve alone.
    has_mode_scores_ = has_rope_ && p.angle_mode != AngleMode::Exact && stride == 1;
    has_mode_error_ = has_mode_scores_ && p.mode_difference;
    if (has_mode_scores_) device_.compute_series(Series::ModeScores, data_.rope_sum, count, p.angle_mode);
    if (has_mode_error_) device_.compute_mode_error_series(data_.rope_sum, count, p.angle_mode);
    if (has_sinusoidal_) {
        device_.compute_series(Series::SecondScores, strided(data_.sinusoidal_sum, stride),
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
        device_.compute_series(setting_series(setting), strided(compared_[i].rope_sum, stride), count, AngleMode::Exact);
    }
    compared_strides_[i] = stride;
    compared_series_keys_[i] = compared_keys_[i];
    ++series_version_;
}

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// Term evaluations per distance: what a slice's cost grows with.
double job_terms(const SeriesJob& job) {
    const std::size_t terms = job.kind == SeriesKind::Bound ? job.freqs.phase_step.size() : job.sum.coefficient.size();
    return static_cast<double>(std::max<std::size_t>(1, terms));
}

// Naive angles cost a sine and cosine per term and distance, the error twice that, the bound a
// square root: each kind of job gets its own measured cost.
int cost_class(const SeriesJob& job) {
    if (job.kind == SeriesKind::Bound) return 3;
    if (job.kind == SeriesKind::ModeError) return 2;
    return job.mode == AngleMode::Exact ? 0 : 1;
}

}  // namespace

std::vector<SeriesJob> LabCompute::exact_jobs(const LabParams& p, int setting) const {
    const std::int64_t n = p.max_distance;
    const bool rope = p.encoding != Encoding::Sinusoidal;
    std::vector<SeriesJob> jobs;
    if (setting > 0) {
        if (rope) jobs.push_back({setting_series(setting), SeriesKind::Scores, setting_data(setting).rope_sum, {}, n, AngleMode::Exact});
        return jobs;
    }
    if (rope) {
        jobs.push_back({Series::Scores, SeriesKind::Scores, data_.rope_sum, {}, n, AngleMode::Exact});
        if (p.angle_mode != AngleMode::Exact) {
            jobs.push_back({Series::ModeScores, SeriesKind::Scores, data_.rope_sum, {}, n, p.angle_mode});
            if (p.mode_difference) jobs.push_back({Series::ModeError, SeriesKind::ModeError, data_.rope_sum, {}, n, p.angle_mode});
        }
        if (p.show_bound) jobs.push_back({Series::Bound, SeriesKind::Bound, {}, data_.freqs, n, AngleMode::Exact});
    }
    if (p.encoding != Encoding::Rope) jobs.push_back({Series::SecondScores, SeriesKind::Scores, data_.sinusoidal_sum, {}, n, AngleMode::Exact});
    return jobs;
}

std::vector<SeriesJob> LabCompute::mode_jobs(const LabParams& p) const {
    std::vector<SeriesJob> jobs;
    if (p.encoding == Encoding::Sinusoidal || p.angle_mode == AngleMode::Exact) return jobs;
    jobs.push_back({Series::ModeScores, SeriesKind::Scores, data_.rope_sum, {}, p.max_distance, p.angle_mode});
    if (p.mode_difference) jobs.push_back({Series::ModeError, SeriesKind::ModeError, data_.rope_sum, {}, p.max_distance, p.angle_mode});
    return jobs;
}

std::string LabCompute::exact_key(const LabParams& setting) {
    LabParams exact = setting;
    exact.angle_mode = AngleMode::Exact;
    exact.mode_difference = false;
    return schema::key(exact, schema::Affects::Data);
}

bool LabCompute::refine(const LabParams& p) {
    const auto frame_start = std::chrono::steady_clock::now();
    if (!refining_ && mode_pending_ && stride_ == 1) {
        // Only the angle mode changed: its own series, a slice per frame, over the exact curve.
        Refinement r;
        r.naive = true;
        r.jobs = mode_jobs(p);
        for (const SeriesJob& job : r.jobs) r.work_total += static_cast<double>(job.count) * job_terms(job);
        refining_ = std::move(r);
    }
    if (!refining_) {
        int next = stride_ > 1 ? 0 : -1;
        for (int s = 1; next < 0 && s < settings(); ++s) {
            if (compared_strides_[static_cast<std::size_t>(s - 1)] > 1) next = s;
        }
        if (next < 0) return false;
        Refinement r;
        r.setting = next;
        r.jobs = exact_jobs(p, next);
        for (const SeriesJob& job : r.jobs) r.work_total += static_cast<double>(job.count) * job_terms(job);
        refining_ = std::move(r);
    }
    Refinement& r = *refining_;
    while (r.job < r.jobs.size()) {
        const double left_ms = kFrameBudgetMs - ms_since(frame_start);
        if (left_ms <= 0.0) break;
        const SeriesJob& job = r.jobs[r.job];
        if (!r.begun) {
            // A job's buffers first, at the start of a frame (64 MiB at 2^24 the first time,
            // ~50 ms on llvmpipe): when that takes the budget the slices wait for the next frame.
            device_.begin(job);
            r.begun = true;
            continue;
        }
        const std::int64_t unit = device_.slice_unit(job);
        const double terms = job_terms(job);
        double& cost = ms_per_work_[static_cast<std::size_t>(cost_class(job))];
        // The first slice of a kind measures its cost: one unit.
        const auto affordable = cost > 0.0 ? static_cast<std::int64_t>(left_ms / (cost * terms)) : unit;
        const std::int64_t to = std::min(job.count, r.next + std::max(unit, affordable / unit * unit));
        const auto slice_start = std::chrono::steady_clock::now();
        device_.advance(job, r.next, to);
        device_.finish();  // the budget counts finished work, not queued work
        const double ms = ms_since(slice_start);
        ++slices_;
        const double work = static_cast<double>(to - r.next) * terms;
        cost = cost > 0.0 ? 0.5 * (cost + ms / work) : ms / work;
        if (ms > kSliceLimitMs && to - r.next <= unit) {
            // Even the smallest slice holds the window too long on this device: the preview stays.
            refusal_ = fmt::format("exact curve refused: {} distances × {} terms took {:.0f} ms, over the {:.0f} ms a frame "
                                   "may take on this device; showing every {}th distance",
                                   job.count, static_cast<int>(terms), ms, kSliceLimitMs, largest_stride());
            refining_.reset();
            return false;
        }
        r.work_done += work;
        r.next = to;
        if (r.next >= job.count) {
            r.next = 0;
            r.begun = false;
            ++r.job;
            if (r.job < r.jobs.size()) break;  // the next job's buffers begin a frame of their own
        }
    }
    if (r.job == r.jobs.size()) finish_refinement(p);
    return refining_.has_value() || largest_stride() > 1;
}

void LabCompute::finish_refinement(const LabParams& p) {
    const int setting = refining_->setting;
    for (const SeriesJob& job : refining_->jobs) device_.commit(job.into);
    if (refining_->naive || setting == 0) mode_pending_ = false;
    if (refining_->naive) {
        has_mode_scores_ = has_rope_ && p.angle_mode != AngleMode::Exact;
        has_mode_error_ = has_mode_scores_ && p.mode_difference;
    } else if (setting == 0) {
        stride_ = 1;
        has_mode_scores_ = has_rope_ && p.angle_mode != AngleMode::Exact;
        has_mode_error_ = has_mode_scores_ && p.mode_difference;
    } else {
        const auto i = static_cast<std::size_t>(setting - 1);
        compared_strides_[i] = 1;
        compared_series_keys_[i] = compared_keys_[i];
    }
    ++series_version_;
    refining_.reset();
}

std::optional<LabCompute::Progress> LabCompute::progress() const {
    int coarse = 0, first = -1;
    for (int s = 0; s < settings(); ++s) {
        if (setting_stride(s) == 1) continue;
        ++coarse;
        if (first < 0) first = s;
    }
    if (!refusal_.empty() || (coarse == 0 && !mode_pending_)) return std::nullopt;
    if (!refining_) return coarse == 0 ? Progress{0, 0.0, 0, true} : Progress{first, 0.0, coarse - 1};
    const double fraction = refining_->work_total > 0 ? refining_->work_done / refining_->work_total : 1.0;
    return Progress{refining_->setting, fraction, refining_->naive ? coarse : coarse - 1, refining_->naive};
}

std::int64_t LabCompute::coarse_stride(const LabParams& p, int stale_settings) const {
    int terms = 1;
    for (int i = 0; i < settings(); ++i) terms = std::max(terms, setting_data(i).freqs.pairs());
    const std::int64_t samples = std::clamp<std::int64_t>(kCoarseWork / terms, 1024, kCoarseSamples) / std::max(1, stale_settings);
    return std::max<std::int64_t>(1, p.max_distance / std::max<std::int64_t>(1, samples));
}

std::int64_t LabCompute::largest_stride() const {
    std::int64_t largest = stride_;
    for (std::int64_t s : compared_strides_) largest = std::max(largest, s);
    return largest;
}

void LabCompute::update(const LabParams& p) {
    costs_.clear();
    positions_.update(p);
    update_data(p);
    // The position left the heatmap's page: the next page (the data itself is unchanged).
    const std::int64_t span = kHeatmapRows * heatmap_stride_;
    if (ready_ && (p.position < heatmap_first_ || p.position >= heatmap_first_ + span)) compute_heatmap(p);
    refresh_difference(p);
    lab::TimedPart timed(costs_, "maths notes");
    refresh_notes(p);
}

void LabCompute::compute_heatmap(const LabParams& p) {
    lab::TimedPart timed(costs_, "heatmap");
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

bool LabCompute::means_ready(const LabParams& p) {
    if (!previews_) return true;  // exports wait for the real mean (lab_data_for computes it)
    bool ready = true;
    for (int i = 0; i < setting_count(p); ++i) {
        const LabParams s = setting_params(p, i);
        if (s.vectors != VectorChoice::MeanOfRandom) continue;
        try {
            ready = means_.get(compute_frequencies(s.model), s.seed, s.samples).has_value() && ready;
        } catch (const InputError&) {
            // Settings the core refuses: compute_lab_data says so, with the field's name.
        }
    }
    return ready;
}

LabData LabCompute::lab_data_for(const LabParams& s) {
    if (s.vectors != VectorChoice::MeanOfRandom || !previews_) return compute_lab_data(s);
    const RopeFrequencies freqs = compute_frequencies(s.model);
    if (const auto mean = means_.get(freqs, s.seed, s.samples)) return compute_lab_data(s, &*mean);
    // Only at the start, while the worker averages: a mean of as many samples as take no time.
    const ScoreCoefficients preview = means_.preview(freqs, s.seed, s.samples);
    return compute_lab_data(s, &preview);
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
    if (key == key_) {
        refresh_unchanged(p, focus);
        return;
    }
    if (key == rejected_key_) return;  // already refused these settings; keep showing the old
    refining_.reset();  // half-done exact curves of the old settings: dropped, the old stay shown
    quiet_updates_ = 0;
    refusal_.clear();
    // A mean of many random vectors is averaged on a worker thread: until it is done the previous
    // curves stay (at the very start, lab_data_for shows a mean of fewer samples meanwhile).
    const bool averaged = means_ready(p);
    if (!averaged && ready_) return;
    // Each setting's data is recomputed only when its own settings changed: dragging the base's
    // θ leaves the compared curves (and their device series) as they are.
    const int count = setting_count(p);
    const std::string base_key = schema::key(setting_params(p, 0), schema::Affects::Data);
    std::vector<std::string> keys;
    // A compared curve is exact whatever the angle mode: its key leaves the mode out.
    for (int i = 1; i < count; ++i) keys.push_back(exact_key(setting_params(p, i)));
    const bool base_changed = base_key != base_key_ || !ready_;
    // Only the angle mode (or its difference) changed, over exact curves: those stay on screen
    // and the naive mode's curve is computed on its own, a slice per frame.
    const std::string base_exact_key = exact_key(setting_params(p, 0));
    const bool mode_only = base_changed && ready_ && previews_ && stride_ == 1 && base_exact_key == base_exact_key_ &&
                           base_key_.rfind("averaging|", 0) != 0;
    std::optional<FreshData> fresh;
    {
        lab::TimedPart timed(costs_, "model data");
        fresh = compute_settings(p, key, base_changed, keys);
    }
    if (!fresh) return;  // the previous curves stay on screen
    const bool partial = fresh->compared.size() + 1 < static_cast<std::size_t>(count);
    keys.resize(fresh->compared.size());
    if (base_changed) data_ = std::move(fresh->base);
    compared_ = std::move(fresh->compared);
    if (focus != focus_key_) refresh_focus_series(p, !base_changed);  // what was kept shows the previous focus
    compared_keys_ = std::move(keys);
    compared_series_keys_.resize(compared_keys_.size());
    compared_strides_.resize(compared_keys_.size(), 1);
    rejected_key_.clear();
    // A start-up preview of the mean is keyed apart, so the real mean replaces it once averaged;
    // so are settings only partly computed, so the next frame goes on with them.
    key_ = !averaged ? "averaging|" + key : partial ? "partial|" + key : key;
    base_key_ = averaged ? base_key : "averaging|" + base_key;
    base_exact_key_ = base_exact_key;
    if (!averaged) keys.assign(keys.size(), "averaging");
    focus_key_ = focus;
    ++recomputes_;
    if (mode_only) {
        has_mode_scores_ = has_mode_error_ = false;  // the old mode's curve goes; the new one comes a slice at a time
        mode_pending_ = has_rope_ && p.angle_mode != AngleMode::Exact;
        compute_previews(p, false);
        pending_exact_ = pending_exact_ || mode_pending_;
        quiet_updates_ = 2;  // no preview to show first: the naive curve starts this frame
        ready_ = true;
        return;
    }
    mode_pending_ = false;
    compute_previews(p, base_changed);
    if (base_changed) compute_heatmap(p);
    ready_ = true;
}

void LabCompute::refresh_unchanged(const LabParams& p, const std::string& focus) {
    if (focus != focus_key_ && ready_) {
        refresh_focus_series(p, true);
        focus_key_ = focus;
        ++focus_refreshes_;
    }
    // Parameters held still (two frames: the first frame after a start or a change only
    // shows the preview): the exact curves a frame's budget at a time.
    if (pending_exact_ && ++quiet_updates_ > 1) {
        lab::TimedPart timed(costs_, "exact scores");
        pending_exact_ = refine(p);
    }
}

std::optional<LabCompute::FreshData> LabCompute::compute_settings(const LabParams& p, const std::string& key, bool base_changed,
                                                                  const std::vector<std::string>& keys) {
    const int count = setting_count(p);
    const auto started = std::chrono::steady_clock::now();
    FreshData fresh;
    try {
        if (base_changed) {
            fresh.base = lab_data_for(p);
            ++setting_computations_;
        }
        for (int i = 1; i < count; ++i) {
            const auto known = std::find(compared_keys_.begin(), compared_keys_.end(), keys[static_cast<std::size_t>(i - 1)]);
            if (known != compared_keys_.end()) {
                fresh.compared.push_back(compared_[static_cast<std::size_t>(known - compared_keys_.begin())]);
            } else if (previews_ && (!ready_ || ms_since(started) > kDataBudgetMs)) {
                // The rest on the next frames (at the start all of them: the first frame also
                // sets up the window): the views draw the settings computed so far.
                break;
            } else {
                fresh.compared.push_back(lab_data_for(setting_params(p, i)));
                ++setting_computations_;
            }
        }
        error_.clear();
    } catch (const InputError& e) {
        error_ = e.what();
        rejected_key_ = key;
        if (ready_) return std::nullopt;
        // Nothing shown yet (custom vectors that never parsed): the same settings with all-ones
        // q and k, so every view has data, and the refusal stays visible.
        LabParams ones = p;
        ones.vectors = VectorChoice::Ones;
        fresh.base = compute_lab_data(ones);
        fresh.compared.clear();
        for (int i = 1; i < count; ++i) fresh.compared.push_back(compute_lab_data(setting_params(ones, i)));
    }
    return fresh;
}

void LabCompute::compute_previews(const LabParams& p, bool base_changed) {
    lab::TimedPart timed(costs_, "score preview");
    // A quick coarse curve first when the full one would cost more than a frame: the changed
    // settings share one preview budget.
    std::vector<int> stale;
    if (base_changed) stale.push_back(0);
    for (std::size_t i = 0; i < compared_keys_.size(); ++i) {
        if (compared_series_keys_[i] != compared_keys_[i]) stale.push_back(static_cast<int>(i) + 1);
    }
    // (At the start too: the window shows the preview before the exact pass begins.)
    const std::int64_t stride = previews_ ? coarse_stride(p, static_cast<int>(stale.size())) : 1;
    for (int i : stale) {
        if (i == 0) compute_series(p, stride);
        else compute_compared_series(p, i, stride);
    }
    pending_exact_ = largest_stride() > 1;
}

}  // namespace ropelab
