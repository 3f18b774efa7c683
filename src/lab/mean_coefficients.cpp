#include "lab/mean_coefficients.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>

#include <fmt/format.h>

#include "core/parallel.h"

namespace ropelab {

namespace {

constexpr std::size_t kKept = 16;  // means kept; each is one coefficient per pair

// Everything mean_random_coefficients reads: the head's shape and layout (not θ or scaling,
// except yarn's attention factor, which scales every coefficient), the seed and S.
std::string mean_key(const RopeFrequencies& f, std::uint64_t seed, int samples) {
    return fmt::format("{}|{}|{}|{:x}|{}|{}", f.head_dim, f.rotary_dim, static_cast<int>(f.layout),
                       std::bit_cast<std::uint64_t>(f.attention_factor), seed, samples);
}

}  // namespace

MeanCoefficients::~MeanCoefficients() {
    if (worker_.valid()) worker_.wait();
}

std::optional<ScoreCoefficients> MeanCoefficients::get(const RopeFrequencies& freqs, std::uint64_t seed, int samples) {
    const std::string key = mean_key(freqs, seed, samples);
    if (const auto known = done_.find(key); known != done_.end()) return known->second;
    if (static_cast<std::int64_t>(samples) * freqs.head_dim <= kImmediateMeanDraws) {
        return mean_random_coefficients(freqs, seed, samples);
    }
    if (worker_.valid()) {
        if (worker_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return std::nullopt;
        ScoreCoefficients finished = worker_.get();  // rethrows the worker's InputError
        if (done_.size() >= kKept) done_.erase(done_.begin());
        done_.emplace(worker_key_, std::move(finished));
        working_on_.clear();
        if (worker_key_ == key) return done_.at(key);
    }
    // One worker at a time: a slider dragged across S starts the value it rests on next.
    worker_key_ = key;
    working_on_ = fmt::format("averaging {} random vectors of {}", samples, freqs.head_dim);
    // Where no thread can be started the average is made here, on the window's thread (start_async).
    worker_ = start_async([freqs, seed, samples, owner = gettid()] {
        // Below the window's thread: on a 2-core machine an equal share would halve its frames.
        if (gettid() != owner) setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 5);
        return mean_random_coefficients(freqs, seed, samples);
    });
    return std::nullopt;
}

ScoreCoefficients MeanCoefficients::preview(const RopeFrequencies& freqs, std::uint64_t seed, int samples) {
    const int fewer = static_cast<int>(std::max<std::int64_t>(1, kImmediateMeanDraws / std::max(1, freqs.head_dim)));
    const int taken = std::min(fewer, samples);
    const std::string key = mean_key(freqs, seed, taken);
    if (const auto known = done_.find(key); known != done_.end()) return known->second;
    ScoreCoefficients mean = mean_random_coefficients(freqs, seed, taken);
    if (done_.size() >= kKept) done_.erase(done_.begin());
    done_.emplace(key, mean);
    return mean;
}

}  // namespace ropelab
