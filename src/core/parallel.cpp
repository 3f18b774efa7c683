#include "core/parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <new>
#include <system_error>
#include <utility>
#include <thread>
#include <vector>

namespace ropelab {

namespace {

// Hands out [0, items) in small chunks to the calling thread and one parked worker per other
// hardware thread. Parked workers (not threads made per call) and chunks taken from a shared
// counter (not one fixed half each) matter on small machines: a thread made per call often
// started late on a busy core, and the call then took as long as doing all the work alone.
class WorkerPool {
public:
    static WorkerPool& instance() {
        static WorkerPool pool(kCanStartThreads ? std::max(1u, std::thread::hardware_concurrency()) - 1 : 0);
        return pool;
    }

    void run(std::int64_t items, std::int64_t chunk, const std::function<void(std::int64_t, std::int64_t)>& work) {
        std::lock_guard one_job(job_mutex_);  // one job at a time, whoever calls
        {
            std::lock_guard lock(mutex_);
            work_ = &work;
            items_ = items;
            chunk_ = std::max<std::int64_t>(1, chunk);
            next_.store(0);
            busy_ = static_cast<int>(workers_.size());
            generation_.fetch_add(1);
        }
        wake_.notify_all();
        take_chunks();
        std::unique_lock lock(mutex_);
        done_.wait(lock, [&] { return busy_ == 0; });
        work_ = nullptr;
        if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
    }

    ~WorkerPool() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        for (std::thread& t : workers_) t.join();
    }

private:
    // A worker that cannot be started (no memory for its stack, a thread limit) is done without:
    // the calling thread takes its chunks.
    explicit WorkerPool(unsigned workers) {
        for (unsigned i = 0; i < workers; ++i) {
            try {
                workers_.emplace_back([this] { park(); });
            } catch (const std::system_error&) {
                break;
            } catch (const std::bad_alloc&) {
                break;
            }
        }
    }

    // An exception (std::bad_alloc under a memory limit) must not leave a worker's thread: the
    // first is kept for the caller and no more chunks are handed out.
    void take_chunks() {
        try {
            for (std::int64_t from = next_.fetch_add(chunk_); from < items_; from = next_.fetch_add(chunk_)) {
                (*work_)(from, std::min(items_, from + chunk_));
            }
        } catch (...) {
            next_.store(items_);
            std::lock_guard lock(mutex_);
            if (!failure_) failure_ = std::current_exception();
        }
    }

    void park() {
        std::uint64_t seen = 0;
        for (;;) {
            // Spin a little before sleeping: jobs come in bursts (a curve in slices, --repeat),
            // and waking a sleeping thread costs a large part of a millisecond on a VM.
            const auto spin_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(2);
            while (generation_.load() == seen && std::chrono::steady_clock::now() < spin_until) std::this_thread::yield();
            {
                std::unique_lock lock(mutex_);
                wake_.wait(lock, [&] { return stopping_ || generation_.load() != seen; });
                if (stopping_) return;
                seen = generation_.load();
            }
            take_chunks();
            std::lock_guard lock(mutex_);
            if (--busy_ == 0) done_.notify_one();
        }
    }

    std::vector<std::thread> workers_;
    std::mutex job_mutex_, mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(std::int64_t, std::int64_t)>* work_ = nullptr;
    std::int64_t items_ = 0, chunk_ = 1;
    std::atomic<std::int64_t> next_{0};
    int busy_ = 0;
    std::atomic<std::uint64_t> generation_{0};
    bool stopping_ = false;
    std::exception_ptr failure_;  // the first exception of the current job (guarded by mutex_)
};


}  // namespace

void parallel_for(std::int64_t items, const std::function<void(std::int64_t, std::int64_t)>& work) {
    const std::int64_t threads = std::max(1u, std::thread::hardware_concurrency());
    WorkerPool::instance().run(items, items / (16 * threads), work);
}

int run_threads(int threads, const std::function<void(int)>& work) {
    std::vector<std::thread> pool;
    std::mutex mutex;
    std::exception_ptr failure;
    const auto guarded = [&](int i) {
        try {
            work(i);
        } catch (...) {
            const std::lock_guard lock(mutex);
            if (!failure) failure = std::current_exception();
        }
    };
    try {
        pool.reserve(static_cast<std::size_t>(std::max(0, threads - 1)));
        for (int i = 1; i < threads; ++i) pool.push_back(start_thread([&guarded, i] { guarded(i); }));
    } catch (const std::system_error&) {
        // Fewer threads: the ones started (and this one) share the work.
    } catch (const std::bad_alloc&) {
    }
    guarded(0);
    for (std::thread& t : pool) t.join();
    if (failure) std::rethrow_exception(failure);
    return static_cast<int>(pool.size()) + 1;
}

bool is_out_of_memory(const std::exception_ptr& e) {
    if (!e) return false;
    try {
        std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
        return true;
    } catch (...) {
        return false;
    }
}

}  // namespace ropelab
