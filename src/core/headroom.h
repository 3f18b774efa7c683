#pragma once
// Room left under the process's address-space limit (ulimit -v, RLIMIT_AS). The lab's own
// allocations throw std::bad_alloc when they do not fit, and the CLI and the window report that;
// the GL driver (Mesa's llvmpipe) does not: where its allocations fail it can crash. So before a
// step that makes the driver allocate (a framebuffer, a frame's draw, a texture or buffer upload)
// the lab asks for room first and fails cleanly — exit 2 "out of memory" — where there is none.
#include <cstddef>

namespace ropelab {

// The driver's room for one step: a frame of llvmpipe's (its scene, vertex buffers and tiles)
// fits well within this at the sizes the lab renders.
inline constexpr std::size_t kDriverHeadroomBytes = std::size_t{32} << 20;

// True when `bytes` more of address space can be reserved now (reserved and released at once: no
// memory is touched). Always true where no limit is set: the kernel then overcommits anyway.
bool has_headroom(std::size_t bytes);
// Where an address-space limit is set, makes the process's own reservations (malloc arenas) fit
// it; called first thing in main.
void fit_to_memory_limit();
// Throws std::bad_alloc where has_headroom(bytes) is false.
void require_headroom(std::size_t bytes = kDriverHeadroomBytes);

}  // namespace ropelab
