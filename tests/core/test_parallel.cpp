// core/parallel: an exception on a worker thread (std::bad_alloc under ulimit -v, issue 34) comes
// back to the caller instead of ending the process through std::terminate, the pool stays usable,
// and start_async hands back results and exceptions alike.
#include "core/parallel.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <new>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "core/headroom.h"

namespace ropelab {
namespace {

// An address-space limit cannot be tried under AddressSanitizer, whose shadow memory alone is
// terabytes of address space.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif

TEST(Parallel, ABadAllocOnAnyChunkReachesTheCallerAndThePoolGoesOn) {
    const std::int64_t items = 100000;
    for (int round = 0; round < 20; ++round) {
        // Each round fails on a different chunk, so the failing one lands on the workers too.
        const std::int64_t failing = items * round / 20;
        EXPECT_THROW(parallel_for(items, [&](std::int64_t from, std::int64_t to) {
                         if (failing >= from && failing < to) throw std::bad_alloc();
                     }),
                     std::bad_alloc);
    }
    std::atomic<std::int64_t> sum{0};
    parallel_for(items, [&](std::int64_t from, std::int64_t to) { sum += to - from; });
    EXPECT_EQ(sum.load(), items);
}

TEST(Parallel, RunThreadsRethrowsTheFirstFailureAfterJoiningAll) {
    std::atomic<int> finished{0};
    EXPECT_THROW(run_threads(4,
                             [&](int i) {
                                 if (i == 2) throw std::bad_alloc();
                                 ++finished;
                             }),
                 std::bad_alloc);
    EXPECT_EQ(finished.load(), 3);  // every other thread ran to its end before the rethrow
    std::atomic<int> ran{0};
    EXPECT_EQ(run_threads(3, [&](int) { ++ran; }), 3);
    EXPECT_EQ(ran.load(), 3);
    EXPECT_EQ(run_threads(1, [&](int i) { EXPECT_EQ(i, 0); }), 1);
}

TEST(Parallel, StartAsyncHandsBackResultsAndExceptions) {
    EXPECT_EQ(start_async([] { return 42; }).get(), 42);
    auto failed = start_async([]() -> int { throw std::bad_alloc(); });
    EXPECT_THROW(failed.get(), std::bad_alloc);
    EXPECT_TRUE(is_out_of_memory(std::make_exception_ptr(std::bad_alloc())));
    EXPECT_FALSE(is_out_of_memory(std::make_exception_ptr(std::runtime_error("no"))));
    EXPECT_FALSE(is_out_of_memory(nullptr));
}

// Under an address-space limit the room asked for is what is left of it; without one, always there.
TEST(Headroom, AskedOfTheAddressSpaceLimit) {
    if (kAddressSanitizer) GTEST_SKIP() << "no address-space limit under AddressSanitizer";
    rlimit own{};
    ASSERT_EQ(getrlimit(RLIMIT_AS, &own), 0);
    if (own.rlim_cur == RLIM_INFINITY) {
        EXPECT_TRUE(has_headroom(std::size_t{1} << 40));  // no limit: the kernel overcommits
    }
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const rlimit limit{std::size_t{1} << 30, std::size_t{1} << 30};  // 1 GiB
        if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(10);
        fit_to_memory_limit();
        if (has_headroom(std::size_t{2} << 30)) _exit(11);      // more than the limit
        if (!has_headroom(std::size_t{16} << 20)) _exit(12);    // a little of it
        try {
            require_headroom(std::size_t{2} << 30);
            _exit(13);
        } catch (const std::bad_alloc&) {
        }
        _exit(0);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
}

// No memory left for a thread's stack (std::thread throws std::system_error): run_threads does the
// work on the threads it has — here only the caller — and start_async runs the job on the caller.
TEST(Parallel, ThreadsThatCannotStartLeaveTheirWorkToTheCaller) {
    if (kAddressSanitizer) GTEST_SKIP() << "no address-space limit under AddressSanitizer";
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const rlim_t gib = rlim_t{1} << 30;
        const rlimit limit{gib, gib};
        if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(10);
        // glibc keeps the stacks of finished threads for reuse (earlier tests ran threads): these
        // take every cached stack, so the threads below need fresh ones.
        std::atomic<bool> release{false};
        std::vector<std::thread> holders;
        for (int i = 0; i < 16; ++i) {
            holders.emplace_back([&] {
                while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            });
        }
        // What is left under the limit, to the MiB; then a limit with 4 MiB of it left (a thread's
        // stack takes 8 MiB).
        std::size_t lo = 0, hi = std::size_t{1} << 30;
        while (hi - lo > (std::size_t{1} << 20)) {
            const std::size_t mid = lo + (hi - lo) / 2;
            (has_headroom(mid) ? lo : hi) = mid;
        }
        const rlim_t tight = gib - static_cast<rlim_t>(lo) + (rlim_t{4} << 20);
        const rlimit less{tight, tight};
        if (setrlimit(RLIMIT_AS, &less) != 0) _exit(11);
        std::atomic<int> next{0}, done{0};
        const int ran = run_threads(4, [&](int) {
            for (int item = next++; item < 100; item = next++) ++done;
        });
        if (done.load() != 100) _exit(12);
        if (ran != 1) _exit(13);  // no thread could start: only the caller ran
        if (start_async([] { return 7; }).get() != 7) _exit(14);
        release = true;
        for (std::thread& t : holders) t.join();
        _exit(0);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status)) << "the child ended by a signal";
    EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace ropelab
