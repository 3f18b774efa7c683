#pragma once
// Work spread over every core: the CPU fast path's blocks, and the lab's per-position tables.
// Also the one way the lab starts threads of its own (grid, attention, averaging workers), so that
// running out of memory or threads is an error its owner reports, never std::terminate.
#include <cstdint>
#include <exception>
#include <functional>
#include <future>
#include <system_error>
#include <thread>
#include <utility>

namespace ropelab {

// Whether this build can run threads. A web page built without them (no cross-origin isolation
// headers from the server) is single-threaded, and there std::thread and std::async "start" a
// thread that never runs: every start must be refused up front, so its work runs on the caller.
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
inline constexpr bool kCanStartThreads = false;
#else
inline constexpr bool kCanStartThreads = true;
#endif

// std::thread(f), or std::system_error where no thread can be started (as a process limit would
// refuse it): the caller's catch then does the work itself.
template <class F>
std::thread start_thread(F&& f) {
    if constexpr (!kCanStartThreads) {
        throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again), "no threads in this build");
    }
    return std::thread(std::forward<F>(f));
}

// Runs work(from, to) over [0, items) on the calling thread and one parked worker per other
// hardware thread, in chunks of about 1/16 of a thread's share; returns when all are done.
// One call at a time runs (others wait); work must not call parallel_for itself.
// An exception thrown by work on any thread (std::bad_alloc under a memory limit) stops the
// handing out of chunks and is rethrown here, on the caller, once every thread has stopped.
// Workers that could not be started (a thread limit, no memory for a stack) are done without.
void parallel_for(std::int64_t items, const std::function<void(std::int64_t, std::int64_t)>& work);

// Runs work(i) for i in [0, threads): i = 0 on the calling thread, the others on threads of
// their own started for this call. A thread that cannot be started (std::system_error: no memory
// for its stack, a process limit) is not an error: its share is done by the threads that did
// start, so `work` must take its items from a shared counter rather than by its index alone.
// Returns how many ran; the first exception any of them threw is rethrown once all are joined.
int run_threads(int threads, const std::function<void(int)>& work);

// Starts f on a thread of its own; where no thread can be started it runs f now, on the caller.
// Either way the result, or the exception f threw, comes out of the future's get().
template <class F>
auto start_async(F&& f) -> std::future<decltype(f())> {
    try {
        if constexpr (!kCanStartThreads) throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
        return std::async(std::launch::async, f);
    } catch (const std::system_error&) {
        std::promise<decltype(f())> done;
        try {
            if constexpr (std::is_void_v<decltype(f())>) {
                f();
                done.set_value();
            } else {
                done.set_value(f());
            }
        } catch (...) {
            done.set_exception(std::current_exception());
        }
        return done.get_future();
    }
}

// True when `e` is an allocation failure (std::bad_alloc and its kin): the owner of a job says
// "out of memory" for these rather than "internal error".
bool is_out_of_memory(const std::exception_ptr& e);

// The words the lab and the CLI use for an allocation failure.
inline constexpr const char* kOutOfMemory = "out of memory; choose smaller settings (fewer distances, a smaller head)";

}  // namespace ropelab
