#pragma once
// Work spread over every core: the CPU fast path's blocks, and the lab's per-position tables.
#include <cstdint>
#include <functional>

namespace ropelab {

// Runs work(from, to) over [0, items) on the calling thread and one parked worker per other
// hardware thread, in chunks of about 1/16 of a thread's share; returns when all are done.
// One call at a time runs (others wait); work must not call parallel_for itself.
void parallel_for(std::int64_t items, const std::function<void(std::int64_t, std::int64_t)>& work);

}  // namespace ropelab
