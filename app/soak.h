#pragma once
// `ropelab gui --soak SEED`: every frame a seeded random change of parameters and views, as a
// restless user would make them, while the run watches memory and the numbers the views draw.
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "lab/lab.h"
#include "views/lab_view.h"

namespace ropelab {

// Memory over a soak, sampled ~90 times after warm-up, each time in the same reference state
// (the starting parameters, drawn for one frame): what a 2^24-distance curve legitimately holds
// while it is shown must not read as growth. Growth compares medians of the first and the last
// third of the samples. Resident memory is what the system sees; the live heap (sanitizer
// builds) is what the program holds.
class MemoryWatch {
public:
    MemoryWatch(int frames, int warm_frame) : warm_frame_(warm_frame), every_(std::max(1, (frames - warm_frame) / 90)) {}
    bool due(int frame) const { return frame >= warm_frame_ && (frame - warm_frame_) % every_ == 0; }
    void sample();
    const std::vector<long>& resident() const { return resident_; }
    const std::vector<long>& heap() const { return heap_; }
    static long early(const std::vector<long>& v) { return median(v, 0, v.size() / 3); }
    static long late(const std::vector<long>& v) { return median(v, v.size() - v.size() / 3, v.size()); }
    static double growth_percent(const std::vector<long>& v) {
        return early(v) > 0 ? 100.0 * static_cast<double>(late(v) - early(v)) / static_cast<double>(early(v)) : 0.0;
    }

private:
    static long median(const std::vector<long>& v, std::size_t from, std::size_t to);
    int warm_frame_, every_;
    std::vector<long> resident_, heap_;
};

class Soak {
public:
    // `reference`: the state memory is measured in (the run's starting parameters).
    Soak(std::uint64_t seed, int frames, const LabParams& reference);
    // Before a frame: the tour's next stop, the reference state when a sample is due, or a random
    // change; each a command for the lab's next step (the one door in).
    void before_frame(views::LabView& view, int frame);
    // After it: a memory sample when one is due.
    void after_frame(int frame);
    // The soak's summary as one JSON line on stdout.
    void print(std::size_t frames_drawn) const;

private:
    std::mt19937_64 rng_;
    MemoryWatch memory_;
    const LabParams reference_;
    int non_finite_frames_ = 0;
};

}  // namespace ropelab
