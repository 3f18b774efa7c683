#include "lab/grid_product.h"

#include <algorithm>
#include <atomic>
#include <new>
#include <chrono>
#include <thread>
#include <cstring>

#include "core/parallel.h"
#include "core/scores.h"
#include "state/compare.h"

namespace ropelab::lab {

namespace {

// The inputs' exact bits: a change in any coefficient, frequency or size makes a new key.
void append_bits(std::string& key, const void* data, std::size_t bytes) {
    key.append(static_cast<const char*>(data), bytes);
}

}  // namespace

std::string grid_rule_name(const ModelConfig& m) {
    // The rule's own name (core/model_config.h), with what it means where the name alone says little.
    switch (m.multi_axis.rule) {
        case AxisRule::None: return "1-D raster";
        case AxisRule::Sections: return "sections (chunked)";
        default: return std::string(to_string(m.multi_axis.rule));
    }
}

std::vector<GridSetting> GridProduct::run(Work work, double* ms) {
    const auto start = std::chrono::steady_clock::now();
    // Threads of its own rather than parallel_for: the frame's own parallel work must not wait
    // behind this worker (one parallel_for runs at a time).
    const int threads = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 16u));
    for (std::size_t s = 0; s < work.settings.size(); ++s) {
        GridSlice& slice = work.settings[s].slice;
        slice.values.assign(static_cast<std::size_t>(slice.size.offsets_h() * slice.size.offsets_w()), 0.0);
        const std::int64_t rows = slice.size.offsets_h();
        // Bands of rows from a shared counter: threads that cannot be started (no memory for a
        // stack) leave theirs to the others; an exception on any comes back here (run_threads).
        std::atomic<int> next_band{0};
        run_threads(threads, [&](int) {
            for (int t = next_band++; t < threads; t = next_band++) {
                grid_slice_rows(work.coefficients[s], work.omega[s], slice, rows * t / threads, rows * (t + 1) / threads);
            }
        });
        std::vector<double>& curve = work.settings[s].text_curve;
        for (std::size_t delta = 0; delta < curve.size(); ++delta) {
            curve[delta] = rope_score(work.coefficients[s], work.freqs[s], static_cast<std::int64_t>(delta));
        }
    }
    *ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return std::move(work.settings);
}

void GridProduct::take_finished() {
    if (!worker_.valid() || worker_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    try {
        shown_ = worker_.get();
        error_.clear();
    } catch (const std::bad_alloc&) {
        // Said where the grid would be (and by renders as exit 2); these inputs are not tried
        // again until they change.
        shown_.clear();
        error_ = "out of memory: the grid's scores need more memory than this process may use; choose a smaller image";
    }
    shown_key_ = running_key_;
    last_ms_ = worker_ms_;
    running_key_.clear();
    ++computations_;
}

void GridProduct::update(const LabParams& p, const LabCompute& compute, bool wait) {
    if (!compute.ready()) return;
    const GridSize size{p.grid_frames, p.grid_height, p.grid_width};
    Work work;
    append_bits(work.key, &size, sizeof size);
    append_bits(work.key, &p.frame_offset, sizeof p.frame_offset);
    const std::int64_t reach = text_curve_reach(p);
    append_bits(work.key, &reach, sizeof reach);
    for (int s = 0; s < compute.settings(); ++s) {
        const LabData& d = compute.setting_data(s);
        const ModelConfig& model = setting_model(p, s);
        std::vector<AxisVector> omega = grid_frequency_vectors(model, d.freqs, size);
        const ScoreCoefficients& c = d.coefficients;
        append_bits(work.key, omega.data(), omega.size() * sizeof(AxisVector));
        append_bits(work.key, c.pair.data(), c.pair.size() * sizeof(c.pair[0]));
        append_bits(work.key, &c.passthrough, sizeof c.passthrough);
        work.coefficients.push_back(c);
        work.omega.push_back(std::move(omega));
        work.freqs.push_back(d.freqs);
        work.settings.push_back({GridSlice{size, -p.frame_offset, {}}, !is_multi_axis(model), grid_rule_name(model),
                                 std::vector<double>(static_cast<std::size_t>(reach + 1), 0.0)});
    }
    wanted_key_ = work.key;
    take_finished();
    if (shown_key_ == wanted_key_ || running_key_ == wanted_key_) {
        if (wait && worker_.valid()) {
            worker_.wait();
            take_finished();
        }
        return;
    }
    if (worker_.valid()) {
        if (!wait) return;  // the next frame starts the newest inputs once this worker is done
        worker_.wait();
        take_finished();
    }
    running_key_ = wanted_key_;
    worker_ = start_async([work = std::move(work), ms = &worker_ms_]() mutable { return run(std::move(work), ms); });
    if (wait) {
        worker_.wait();
        take_finished();
    }
}

}  // namespace ropelab::lab
