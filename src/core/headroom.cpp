#include "core/headroom.h"

#include <malloc.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include <new>

namespace ropelab {

bool has_headroom(std::size_t bytes) {
#ifdef __EMSCRIPTEN__
    // A page's memory grows on demand up to its maximum; a growth refused is std::bad_alloc at
    // the allocation itself, and there is no GL driver whose own allocations could crash.
    (void)bytes;
    return true;
#endif
    rlimit limit{};
    if (bytes == 0 || getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return true;
    // PROT_NONE and MAP_NORESERVE: the reservation counts against RLIMIT_AS (what is asked) but
    // commits nothing.
    void* probe = mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (probe == MAP_FAILED) return false;
    munmap(probe, bytes);
    return true;
}

void fit_to_memory_limit() {
    rlimit limit{};
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return;
    // glibc gives each thread that allocates an arena of its own, reserving 64 MiB of address
    // space apiece: a dozen threads (the lab's workers, llvmpipe's) reserved most of a 1 GB limit
    // before any work. Two arenas are plenty for the lab's few allocating threads.
#ifdef M_ARENA_MAX  // glibc's
    mallopt(M_ARENA_MAX, 2);
#endif
}

void require_headroom(std::size_t bytes) {
    if (!has_headroom(bytes)) throw std::bad_alloc();
}

}  // namespace ropelab
