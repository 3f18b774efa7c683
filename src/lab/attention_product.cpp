#include "lab/attention_product.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <new>
#include <string>
#include <system_error>
#include <numbers>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "core/colormap.h"

#include "core/error.h"
#include "core/parallel.h"
#include "core/frequencies.h"
#include "lab/attention_input.h"
#include "state/compare.h"

namespace ropelab::lab {

namespace {

constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

std::string out_of_memory_message() {
    return std::string("out of memory: the attention matrix needs more memory than this process may use; choose fewer tokens");
}

// Coarse first: bin rows 0, 8, 16, … then the rest, so a long matrix shows whole at once.
std::vector<int> refinement_order(int rows) {
    std::vector<int> order;
    for (int r = 0; r < rows; r += 8) order.push_back(r);
    for (int r = 0; r < rows; ++r) {
        if (r % 8 != 0) order.push_back(r);
    }
    return order;
}

}  // namespace

int AttentionImage::shown_row(int r) const {
    for (int s = r; s >= 0; --s) {
        if (row_done[static_cast<std::size_t>(s)]) return s;
    }
    return -1;
}

double AttentionImage::logit(int r, std::int64_t n) const { return source->logit(row_m[static_cast<std::size_t>(r)], n); }

double AttentionImage::weight(int r, std::int64_t n) const {
    const std::int64_t m = row_m[static_cast<std::size_t>(r)];
    if (!attends(layer, m, n)) return 0.0;
    return std::exp(logit(r, n) - row_top[static_cast<std::size_t>(r)]) / row_sum[static_cast<std::size_t>(r)];
}

AttentionColours fitted_colours(const AttentionImage& im) {
    AttentionColours c;
    for (int r = 0; r < im.rows; ++r) {
        if (!im.row_done[static_cast<std::size_t>(r)]) continue;
        for (int k = 0; k < im.cols; ++k) {
            const auto at = static_cast<std::size_t>(r) * static_cast<std::size_t>(im.cols) + static_cast<std::size_t>(k);
            c.logit = std::max(c.logit, static_cast<double>(std::abs(im.logit_max[at])));
            if (!std::isnan(im.weight_max[at])) c.weight = std::max(c.weight, static_cast<double>(im.weight_max[at]));
        }
    }
    return c;
}

namespace {
std::array<std::uint8_t, 3> bytes(const std::array<float, 3>& rgb) {
    return {static_cast<std::uint8_t>(rgb[0] * 255.0f + 0.5f), static_cast<std::uint8_t>(rgb[1] * 255.0f + 0.5f),
            static_cast<std::uint8_t>(rgb[2] * 255.0f + 0.5f)};
}
}  // namespace

std::array<std::uint8_t, 3> logit_rgb(const AttentionColours& c, double logit) {
    const double t = c.logit > 0 ? std::clamp(logit / c.logit, -1.0, 1.0) : 0.0;
    return bytes(diverging_color(static_cast<float>(t * std::numbers::pi)));
}

std::array<std::uint8_t, 3> weight_rgb(const AttentionColours& c, double weight) {
    return bytes(sequential_color(c.weight > 0 ? static_cast<float>(weight / c.weight) : 0.0f));
}

std::vector<std::uint8_t> panel_rgba(const AttentionImage& im, const AttentionColours& colours, AttentionPanel panel) {
    std::vector<std::uint8_t> out(static_cast<std::size_t>(im.rows) * static_cast<std::size_t>(im.cols) * 4, 0);
    const std::vector<float>& values = panel == AttentionPanel::Logits ? im.logit_max
                                       : panel == AttentionPanel::Masked ? im.visible_max
                                                                         : im.weight_max;
    int source = -1;
    for (int r = 0; r < im.rows; ++r) {
        if (im.row_done[static_cast<std::size_t>(r)]) source = r;
        if (source < 0) continue;
        for (int k = 0; k < im.cols; ++k) {
            const float v = values[static_cast<std::size_t>(source) * static_cast<std::size_t>(im.cols) + static_cast<std::size_t>(k)];
            const std::array<std::uint8_t, 3> rgb = std::isnan(v) ? kMaskedGrey
                                                    : panel == AttentionPanel::Weights ? weight_rgb(colours, v)
                                                                                       : logit_rgb(colours, v);
            std::uint8_t* px = out.data() + (static_cast<std::size_t>(r) * static_cast<std::size_t>(im.cols) + static_cast<std::size_t>(k)) * 4;
            px[0] = rgb[0];
            px[1] = rgb[1];
            px[2] = rgb[2];
            px[3] = 255;
        }
    }
    return out;
}

int attention_setting(const LabParams& p) { return comparing(p) ? std::clamp(p.single_setting, 0, setting_count(p) - 1) : 0; }

AttentionWindow clamp_window(AttentionWindow w, std::int64_t tokens) {
    const auto side = [&](std::int64_t& lo, std::int64_t& hi) {
        if (hi <= lo) {
            lo = 0;
            hi = tokens;
        }
        const std::int64_t span = std::clamp<std::int64_t>(hi - lo, 1, tokens);
        lo = std::clamp<std::int64_t>(lo, 0, tokens - span);
        hi = lo + span;
    };
    side(w.row0, w.row1);
    side(w.col0, w.col1);
    w.bins = std::clamp(w.bins, 1, kMaxAttentionBins);
    return w;
}

// The rows prepared for one set of inputs (AttentionRows: the rotated keys, up to 2 × 64 MiB at
// 2^16 tokens), made by the first job that needs them; jobs for other windows of the same
// inputs wait for them instead of making their own.
struct AttentionProduct::Prepared {
    Inputs inputs;
    std::mutex mutex;
    std::condition_variable made;
    bool done = false, started = false;
    std::shared_ptr<const AttentionRows> rows;
    std::string error;
    bool out_of_memory = false;
};

// The work for one set of inputs and one window: written by the workers, copied by the frame.
struct AttentionProduct::Job {
    std::shared_ptr<Prepared> prepared;
    Inputs inputs;
    AttentionWindow window;
    std::atomic<bool> cancel{false}, finished{false};
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    std::mutex mutex;  // guards what follows
    AttentionImage image;
    int version = 0;
    double ms = 0.0;
};

AttentionProduct::~AttentionProduct() {
    // The workers are detached (a frame never joins a thread that may be waiting for a core):
    // at the end they are cancelled and awaited here, between rows.
    for (const auto& job : running_) job->cancel = true;
    for (const auto& job : running_) {
        while (!job->finished) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

// The workers yield to the frame: on Linux a thread has its own nice value, and the window's
// thread (llvmpipe's too) must win a shared core.
namespace {
void lower_priority() {
#ifdef __linux__
    (void)setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 4);
#endif
}
}  // namespace

// Whatever the work throws ends here, in the job's image, for its owner to read: a worker
// thread that let an exception out would end the process (std::terminate).
void AttentionProduct::run(const std::shared_ptr<Job>& job, const LabParams& p, int threads) {
    try {
        compute(job, p, threads);
    } catch (const std::exception& e) {
        const bool memory = dynamic_cast<const std::bad_alloc*>(&e) != nullptr;
        const std::lock_guard lock(job->mutex);
        AttentionImage& im = job->image;
        im.out_of_memory = memory && !job->cancel;
        im.error = job->cancel ? "" : memory ? out_of_memory_message() : std::string(e.what());
        // The image is dropped whole: its rows may be half made.
        im.rows = im.cols = im.rows_done = 0;
        ++job->version;
        job->finished = true;
    }
}

void AttentionProduct::compute(const std::shared_ptr<Job>& job, const LabParams& p, int threads) {
    lower_priority();
    std::shared_ptr<const AttentionRows> rows;
    std::string error;
    bool memory = false;
    Prepared& prepared = *job->prepared;
    {
        std::unique_lock lock(prepared.mutex);
        if (!prepared.started) {
            prepared.started = true;
            lock.unlock();
            std::shared_ptr<const AttentionRows> made;
            try {
                made = std::make_shared<const AttentionRows>(attention_input(p, job->inputs.rows.model));
            } catch (const InputError& e) {
                error = e.what();
            } catch (const std::bad_alloc&) {
                error = out_of_memory_message();
                memory = true;
            }
            lock.lock();
            prepared.rows = made;
            prepared.error = error;
            prepared.out_of_memory = memory;
            prepared.done = true;
            prepared.made.notify_all();
        }
        // Another job makes them: wait, giving up when this job is superseded.
        while (!prepared.done && !job->cancel) prepared.made.wait_for(lock, std::chrono::milliseconds(20));
        rows = prepared.rows;
        error = prepared.error;
        memory = prepared.out_of_memory;
    }
    if (!rows) {
        const std::lock_guard lock(job->mutex);
        job->image.error = job->cancel ? "" : error;
        job->image.out_of_memory = memory && !job->cancel;
        ++job->version;
        job->finished = true;
        return;
    }
    LayerAttention layer;
    layer = rows->layer();
    const std::int64_t t = rows->tokens();
    const AttentionWindow w = clamp_window(job->window, t);
    const int nr = bin_count(w.row1 - w.row0, w.bins), nc = bin_count(w.col1 - w.col0, w.bins);
    {
        const std::lock_guard lock(job->mutex);
        AttentionImage& im = job->image;
        im.tokens = t;
        im.window = w;
        im.rows = nr;
        im.cols = nc;
        im.layer = layer;
        im.toeplitz = rows->toeplitz();
        im.source = rows;
        im.row_m.resize(static_cast<std::size_t>(nr));
        for (int r = 0; r < nr; ++r) im.row_m[static_cast<std::size_t>(r)] = bin_row(w.row0, w.row1 - w.row0, nr, r);
        im.row_done.assign(static_cast<std::size_t>(nr), 0);
        const auto cells = static_cast<std::size_t>(nr) * static_cast<std::size_t>(nc);
        im.logit_max.assign(cells, kNan);
        im.visible_max.assign(cells, kNan);
        im.weight_max.assign(cells, kNan);
        im.readouts.assign(static_cast<std::size_t>(nr), {});
        im.row_top.assign(static_cast<std::size_t>(nr), 0.0);
        im.row_sum.assign(static_cast<std::size_t>(nr), 1.0);
        ++job->version;
    }
    const std::vector<int> order = refinement_order(nr);
    std::atomic<std::size_t> next{0};
    const std::int64_t within = job->inputs.readout_distance;
    const auto worker = [&] {
        lower_priority();
        std::vector<double> logits(static_cast<std::size_t>(t));
        std::vector<float> lmax(static_cast<std::size_t>(nc)), vmax(static_cast<std::size_t>(nc)), wmax(static_cast<std::size_t>(nc));
        for (std::size_t i = next++; i < order.size() && !job->cancel; i = next++) {
            const int r = order[i];
            const std::int64_t m = bin_row(w.row0, w.row1 - w.row0, nr, r);
            rows->logits(m, 0, t, logits.data());
            const std::vector<double> weights = softmax_row(layer, m, logits);
            const std::int64_t first = first_visible_key(layer, m);
            double top = -std::numeric_limits<double>::infinity(), sum = 0.0;
            for (std::int64_t n = first; n <= m; ++n) top = std::max(top, logits[static_cast<std::size_t>(n)]);
            for (std::int64_t n = first; n <= m; ++n) sum += std::exp(logits[static_cast<std::size_t>(n)] - top);
            for (int c = 0; c < nc; ++c) {
                const std::int64_t from = bin_start(w.col0, w.col1 - w.col0, nc, c), to = bin_start(w.col0, w.col1 - w.col0, nc, c + 1);
                double lm = -std::numeric_limits<double>::infinity(), vm = lm, wm = lm;
                for (std::int64_t n = from; n < to; ++n) {
                    const double v = logits[static_cast<std::size_t>(n)];
                    lm = std::max(lm, v);
                    if (n >= first && n <= m) {
                        vm = std::max(vm, v);
                        wm = std::max(wm, weights[static_cast<std::size_t>(n)]);
                    }
                }
                const bool masked = std::min(to - 1, m) < std::max(from, first);
                lmax[static_cast<std::size_t>(c)] = static_cast<float>(lm);
                vmax[static_cast<std::size_t>(c)] = masked ? kNan : static_cast<float>(vm);
                wmax[static_cast<std::size_t>(c)] = masked ? kNan : static_cast<float>(wm);
            }
            const RowReadout readout = row_readout(layer, m, weights, within);
            const std::lock_guard lock(job->mutex);
            AttentionImage& im = job->image;
            const auto at = static_cast<std::size_t>(r) * static_cast<std::size_t>(nc);
            std::copy(lmax.begin(), lmax.end(), im.logit_max.begin() + static_cast<std::ptrdiff_t>(at));
            std::copy(vmax.begin(), vmax.end(), im.visible_max.begin() + static_cast<std::ptrdiff_t>(at));
            std::copy(wmax.begin(), wmax.end(), im.weight_max.begin() + static_cast<std::ptrdiff_t>(at));
            im.readouts[static_cast<std::size_t>(r)] = readout;
            im.row_top[static_cast<std::size_t>(r)] = top;
            im.row_sum[static_cast<std::size_t>(r)] = sum;
            im.row_done[static_cast<std::size_t>(r)] = 1;
            ++im.rows_done;
            ++job->version;
        }
    };
    // Rows are taken from a shared counter: threads that cannot be started leave theirs to the
    // others, and an allocation failure on any of them comes back here (run_threads).
    run_threads(threads, [&](int) { worker(); });
    const std::lock_guard lock(job->mutex);
    job->ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - job->start).count();
    job->finished = true;
}

void AttentionProduct::retire_finished() {
    // Superseded jobs are cancelled; they are let go once they have stopped.
    std::erase_if(running_, [&](const std::shared_ptr<Job>& job) { return job != job_ && job->finished; });
}

void AttentionProduct::update(const LabParams& p, const ModelConfig& model, AttentionWindow window, bool wait) {
    Inputs in;
    in.rows = attention_input_key(p, model);
    in.readout_distance = p.readout_distance;
    const bool fresh = !job_ || !(in == job_->inputs) || !(window == job_->window);
    // A small matrix (a few million multiply-adds: T ≈ 100 in the grid's default layout) is made
    // before the frame goes on, so a frame shows it whole rather than a frame later.
    const double cost = static_cast<double>(std::min<std::int64_t>(window.bins, window.row1 - window.row0)) *
                        static_cast<double>(window.tokens) * model.head_dim / 2.0;
    if (fresh && window.tokens > 0 && cost < 3e6) wait = true;
    if (fresh) {
        if (job_) job_->cancel = true;
        auto job = std::make_shared<Job>();
        job->inputs = in;
        job->window = window;
        // The same inputs in another window share the prepared rows.
        if (!prepared_ || !(prepared_->inputs == in)) {
            prepared_ = std::make_shared<Prepared>();
            prepared_->inputs = in;
        }
        job->prepared = prepared_;
        // One core left for the frame (llvmpipe draws on the CPU too).
        const int threads = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 2u, 9u)) - 1;
        job_ = job;
        running_.push_back(job);
        try {
            start_thread([job, p, threads] { run(job, p, threads); }).detach();
        } catch (const std::system_error&) {
            run(job, p, 1);  // no thread to be had (memory or a limit): made here, on the caller
        } catch (const std::bad_alloc&) {
            run(job, p, 1);
        }
        shown_current_ = false;
        shown_version_ = -1;
    }
    if (wait) {
        while (!job_->finished) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    retire_finished();
    {
        // The frame never waits for a worker: a lock held this instant is tried again next frame.
        std::unique_lock lock(job_->mutex, std::defer_lock);
        if (wait) {
            lock.lock();
        } else if (!lock.try_lock()) {
            return;
        }
        if (job_->version != shown_version_) {
            // Until the new job has its geometry, the previous image stays on screen.
            if (job_->image.rows > 0 || !job_->image.error.empty()) {
                shown_ = job_->image;
                shown_version_ = job_->version;
                ++serial_;
                shown_current_ = true;
                if (job_->finished && job_->image.complete() && counted_ != job_.get()) {
                    counted_ = job_.get();
                    last_ms_ = job_->ms;
                    ++computations_;
                }
            }
        }
    }
}

}  // namespace ropelab::lab
