#include "lab/products/weights.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <limits>
#include <mutex>
#include <new>
#include <thread>

#include "core/error.h"
#include "core/parallel.h"
#include "core/scores.h"
#include "models/model_file.h"
#include "models/model_weights.h"
#include "models/pair_energy.h"

namespace ropelab::lab::products {

std::vector<double> WeightsLayer::normalised_row(int h) const {
    std::vector<double> row(static_cast<std::size_t>(pairs));
    double top = 0.0;
    for (int i = 0; i < pairs; ++i) {
        row[static_cast<std::size_t>(i)] = product(h, i);
        top = std::max(top, row[static_cast<std::size_t>(i)]);
    }
    if (top > 0.0) {
        for (double& v : row) v /= top;
    }
    return row;
}

std::string weights_source(const std::string& model_path) { return model_path.empty() ? "" : models::weights_source(model_path); }

WeightsLayer compute_weights_layer(const models::ModelWeights& weights, int layer, const std::function<void(double)>& progress,
                                   const std::atomic<bool>* cancel) {
    WeightsLayer out;
    out.layers = weights.layers();
    if (out.layers <= 0) throw InputError(weights.source() + ": no attention layers to show");
    out.layer = std::clamp(layer, 0, out.layers - 1);
    const models::AttentionWeights attention = weights.attention(out.layer);
    models::PairEnergies e = models::pair_energies(attention, progress, cancel);
    if (e.pairs == 0) return out;  // cancelled
    out.q_heads = e.q_heads;
    out.kv_heads = e.kv_heads;
    out.pairs = e.pairs;
    out.q = std::move(e.q);
    out.k = std::move(e.k);
    out.notes = attention.notes;
    return out;
}

std::vector<double> pair_wavelengths(const RopeFrequencies& freqs) {
    std::vector<double> out;
    for (int i = 0; i < freqs.pairs(); ++i) {
        const double w = freqs.inv_freq[static_cast<std::size_t>(i)];
        out.push_back(w > 0.0 ? wavelength(w) : std::numeric_limits<double>::infinity());
    }
    return out;
}

std::int64_t training_context(const ModelConfig& m) {
    return m.rope_scaling.original_max_position_embeddings.value_or(m.original_max_position_embeddings.value_or(m.max_position_embeddings));
}

double pair_at_wavelength(const std::vector<double>& wavelengths, double tokens) {
    for (std::size_t i = 0; i + 1 < wavelengths.size(); ++i) {
        const double a = wavelengths[i], b = wavelengths[i + 1];
        if (!std::isfinite(a) || !std::isfinite(b) || a <= 0.0 || b <= 0.0) continue;
        if ((a <= tokens && tokens <= b) || (b <= tokens && tokens <= a)) {
            const double t = a == b ? 0.0 : (std::log(tokens) - std::log(a)) / (std::log(b) - std::log(a));
            return static_cast<double>(i) + t;
        }
    }
    return -1.0;
}

WeightsCurve head_score_curve(const WeightsLayer& layer, int head, const RopeFrequencies& freqs, std::int64_t reach, int bins) {
    WeightsCurve out;
    if (layer.empty() || head < 0 || head >= layer.q_heads || layer.pairs != freqs.pairs() || reach < 2 || bins < 1) return out;
    out.head = head;
    out.reach = reach;
    ScoreCoefficients c;
    for (int i = 0; i < layer.pairs; ++i) c.pair.emplace_back(layer.product(head, i), 0.0);
    constexpr std::int64_t kPerBin = 64;
    const double top = std::log(static_cast<double>(reach));
    std::int64_t from = 1;
    for (int b = 1; b <= bins && from <= reach; ++b) {
        const std::int64_t to = std::max(from + 1, std::min(reach + 1, static_cast<std::int64_t>(std::llround(std::exp(top * b / bins)))));
        if (b < bins && to <= from) continue;
        const std::int64_t span = to - from, count = std::min(span, kPerBin);
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (std::int64_t k = 0; k < count; ++k) {
            const double score = rope_score(c, freqs, from + span * k / count);
            lo = std::min(lo, score);
            hi = std::max(hi, score);
        }
        out.distance.push_back(static_cast<double>(from));
        out.low.push_back(lo);
        out.high.push_back(hi);
        from = to;
    }
    return out;
}

// One layer's computation: its own cancel flag and progress, and its result once whole. The
// thread holds the job and the weights, so neither outlives what it reads.
struct WeightsProduct::Job {
    std::string source;
    int layer = 0;
    std::atomic<bool> cancel{false}, done{false};
    std::atomic<double> progress{0.0};
    std::mutex mutex;
    WeightsLayer result;
    std::string error;
    double ms = 0.0;
};

// A cancelled layer stops within a batch of rows: waiting for it keeps no thread reading a
// mapping or a product that is gone.
WeightsProduct::~WeightsProduct() {
    for (const auto& job : running_) job->cancel = true;
    for (const auto& job : running_) {
        while (!job->done) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

void WeightsProduct::open(const std::string& model_path) {
    model_path_ = model_path;
    if (job_) job_->cancel = true;
    job_.reset();
    weights_.reset();
    shown_ = Weights{};
    shown_.source = weights_source(model_path);
    if (shown_.source.empty()) {
        shown_.message = "open a GGUF or a safetensors checkpoint to see its weights";
        return;
    }
    try {
        weights_ = models::ModelWeights::open(shown_.source);
        shown_.layers = weights_->layers();
    } catch (const InputError& e) {
        shown_.message = e.what();
    } catch (const std::bad_alloc&) {
        shown_.message = shown_.source + ": out of memory opening the weights";
    }
}

void WeightsProduct::take_finished() {
    std::erase_if(running_, [](const std::shared_ptr<Job>& job) { return job->done.load(); });
    if (!job_ || !job_->done) {
        if (job_) shown_.progress = job_->progress;
        return;
    }
    std::lock_guard lock(job_->mutex);
    shown_.computing = false;
    shown_.progress = 1.0;
    shown_.message = job_->error;
    if (job_->error.empty()) {
        shown_.layer = std::move(job_->result);
        shown_.last_ms = job_->ms;
    } else {
        shown_.layer = WeightsLayer{};
    }
    ++computations_;
    job_.reset();
}

void WeightsProduct::refresh_curve(const LabParams& p, const RopeFrequencies& freqs) {
    const int head = std::clamp(p.weights_head, 0, std::max(0, shown_.layer.q_heads - 1));
    const std::int64_t reach = curve_reach(training_context(p.model));
    if (curve_serial_ == computations_ && shown_.curve.head == head && shown_.curve.reach == reach && curve_freqs_ == freqs.inv_freq) return;
    curve_serial_ = computations_;
    curve_freqs_ = freqs.inv_freq;
    shown_.curve = head_score_curve(shown_.layer, head, freqs, reach);
}

void WeightsProduct::update(const LabParams& p, const RopeFrequencies& freqs, bool wait) {
    update_layer(p, wait);
    refresh_curve(p, freqs);
}

void WeightsProduct::update_layer(const LabParams& p, bool wait) {
    if (p.preset != model_path_) open(p.preset);
    if (!weights_) return;
    const int layer = std::clamp(p.weights_layer, 0, std::max(0, weights_->layers() - 1));
    take_finished();
    const bool shown_is_wanted = !shown_.computing && shown_.wanted_layer == layer && (!shown_.layer.empty() || !shown_.message.empty());
    if (shown_is_wanted) return;
    if (!job_ || job_->layer != layer) {
        if (job_) job_->cancel = true;
        auto job = std::make_shared<Job>();
        job->source = shown_.source;
        job->layer = layer;
        job_ = job;
        running_.push_back(job);
        shown_.wanted_layer = layer;
        shown_.computing = true;
        shown_.progress = 0.0;
        auto work = [job, weights = weights_] {
            const auto start = std::chrono::steady_clock::now();
            WeightsLayer result;
            std::string error;
            try {
                result = compute_weights_layer(*weights, job->layer, [&](double f) { job->progress = f; }, &job->cancel);
            } catch (const InputError& e) {
                error = e.what();
            } catch (const std::bad_alloc&) {
                error = job->source + ": out of memory reading the layer's weights";
            }
            std::lock_guard lock(job->mutex);
            job->result = std::move(result);
            job->error = std::move(error);
            job->ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            job->done = true;
        };
        try {
            start_thread(work).detach();
        } catch (const std::system_error&) {
            work();  // no thread to be had (a limit, or a page without threads): computed here
        }
    }
    if (wait) {
        while (!job_->done) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        take_finished();
    }
}

}  // namespace ropelab::lab::products
