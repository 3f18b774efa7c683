#pragma once
// The expected q·k coefficients over S random vectors (vectors = mean) are the one part of
// LabData that can take long: S × head_dim Gaussian draws, 0.9 s for 65536 × 512 on a 2-core
// machine. Large ones are computed on a worker thread, one at a time, and kept by what they
// depend on (head shape, seed, S), so the window never waits for them and going back to earlier
// settings is instant.
#include <cstdint>
#include <future>
#include <map>
#include <optional>
#include <string>

#include "core/frequencies.h"
#include "core/phasor_sum.h"

namespace ropelab {

// Draws (samples × head_dim) at or under which the mean is computed at once (≈ 4 ms here).
inline constexpr std::int64_t kImmediateMeanDraws = std::int64_t{1} << 18;

class MeanCoefficients {
public:
    MeanCoefficients() = default;
    ~MeanCoefficients();  // waits for a running worker (at most one computation)
    MeanCoefficients(const MeanCoefficients&) = delete;
    MeanCoefficients& operator=(const MeanCoefficients&) = delete;

    // The mean for these settings, or nullopt while it is being computed (ask again next frame).
    std::optional<ScoreCoefficients> get(const RopeFrequencies& freqs, std::uint64_t seed, int samples);
    // While get() says nullopt: the mean of as many samples as take no time, kept like the rest.
    ScoreCoefficients preview(const RopeFrequencies& freqs, std::uint64_t seed, int samples);
    // What is being computed, for the view ("averaging 65536 random vectors of 512"), or "".
    const std::string& working_on() const { return working_on_; }

private:
    std::map<std::string, ScoreCoefficients> done_;
    std::future<ScoreCoefficients> worker_;
    std::string worker_key_, working_on_;
};

}  // namespace ropelab
