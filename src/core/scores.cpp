#include "core/scores.h"

#include "core/parallel.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "core/error.h"
#include "core/rotation.h"

namespace ropelab {

namespace {

void require_length(std::span<const double> v, int head_dim, const char* name) {
    if (v.size() != static_cast<std::size_t>(head_dim)) {
        throw InputError(fmt::format("{} has {} components; the head dim is {}", name, v.size(),
                                     head_dim));
    }
}

}  // namespace

double ScoreCoefficients::l1() const {
    double sum = std::abs(passthrough);
    for (const auto& c : pair) sum += std::abs(c);
    return sum;
}

ScoreCoefficients score_coefficients(std::span<const double> q, std::span<const double> k,
                                     const RopeFrequencies& freqs) {
    require_length(q, freqs.head_dim, "q");
    require_length(k, freqs.head_dim, "k");
    ScoreCoefficients out;
    const double scale = freqs.attention_factor * freqs.attention_factor;
    for (int i = 0; i < freqs.pairs(); ++i) {
        out.pair.push_back(scale * pair_value(q, i, freqs.rotary_dim, freqs.layout) *
                           std::conj(pair_value(k, i, freqs.rotary_dim, freqs.layout)));
    }
    out.passthrough = dot(q.subspan(static_cast<std::size_t>(freqs.rotary_dim)),
                          k.subspan(static_cast<std::size_t>(freqs.rotary_dim)));
    return out;
}

double unencoded_score(const ScoreCoefficients& c, const RopeFrequencies& freqs) {
    double rotary = 0.0;
    for (const auto& ci : c.pair) rotary += ci.real();
    return rotary / (freqs.attention_factor * freqs.attention_factor) + c.passthrough;
}

double rope_score(const ScoreCoefficients& c, const RopeFrequencies& freqs, std::int64_t delta) {
    double sum = c.passthrough;
    for (int i = 0; i < freqs.pairs(); ++i) {
        sum += (c.pair[static_cast<std::size_t>(i)] * pair_rotor(freqs, i, delta)).real();
    }
    return sum;
}

std::vector<double> rope_scores(const ScoreCoefficients& c, const RopeFrequencies& freqs,
                                std::int64_t count) {
    std::vector<double> out(static_cast<std::size_t>(count));
    for (std::int64_t delta = 0; delta < count; ++delta) {
        out[static_cast<std::size_t>(delta)] = rope_score(c, freqs, delta);
    }
    return out;
}

std::vector<double> sinusoidal_scores(std::span<const double> q, std::span<const double> k,
                                      const SinusoidalEncoding& enc, std::int64_t query_position,
                                      std::int64_t count) {
    require_length(q, enc.dim, "q");
    require_length(k, enc.dim, "k");
    // (q + p_m)·(k + p_n) = u·k + u·p_n with u = q + p_m fixed for every key position n.
    std::vector<double> u = sinusoidal_vector(enc, query_position);
    for (std::size_t j = 0; j < u.size(); ++j) u[j] += q[j];
    const double u_dot_k = dot(u, k);

    std::vector<double> out(static_cast<std::size_t>(count));
    for (std::int64_t delta = 0; delta < count; ++delta) {
        out[static_cast<std::size_t>(delta)] =
            u_dot_k + dot(u, sinusoidal_vector(enc, query_position - delta));
    }
    return out;
}

std::vector<double> rope_invariance(std::span<const double> q, std::span<const double> k,
                                    const RopeFrequencies& freqs, std::int64_t delta,
                                    std::int64_t from, std::int64_t to) {
    require_length(q, freqs.head_dim, "q");
    require_length(k, freqs.head_dim, "k");
    std::vector<double> out(static_cast<std::size_t>(std::max<std::int64_t>(0, to - from)));
    parallel_for(to - from, [&](std::int64_t a, std::int64_t b) {
        for (std::int64_t j = a; j < b; ++j) {
            const std::int64_t m = from + j;
            out[static_cast<std::size_t>(j)] = dot(rotate(q, freqs, m), rotate(k, freqs, m - delta));
        }
    });
    return out;
}

std::vector<double> sinusoidal_invariance(std::span<const double> q, std::span<const double> k,
                                          const SinusoidalEncoding& enc, std::int64_t delta,
                                          std::int64_t from, std::int64_t to) {
    require_length(q, enc.dim, "q");
    require_length(k, enc.dim, "k");
    std::vector<double> out(static_cast<std::size_t>(std::max<std::int64_t>(0, to - from)));
    parallel_for(to - from, [&](std::int64_t a, std::int64_t b) {
        for (std::int64_t j = a; j < b; ++j) {
            const std::int64_t m = from + j;
            std::vector<double> qm = sinusoidal_vector(enc, m), kn = sinusoidal_vector(enc, m - delta);
            for (std::size_t c = 0; c < qm.size(); ++c) {
                qm[c] += q[c];
                kn[c] += k[c];
            }
            out[static_cast<std::size_t>(j)] = dot(qm, kn);
        }
    });
    return out;
}

double roformer_bound_factor(const ScoreCoefficients& c) {
    double largest_step = 0.0;
    for (std::size_t j = 0; j < c.pair.size(); ++j) {
        const std::complex<double> next = j + 1 < c.pair.size() ? c.pair[j + 1] : 0.0;
        largest_step = std::max(largest_step, std::abs(c.pair[j] - next));
    }
    return static_cast<double>(c.pair.size()) * largest_step;
}

std::vector<double> roformer_bound(const RopeFrequencies& freqs, std::int64_t count) {
    std::vector<double> out(static_cast<std::size_t>(count));
    const double pairs = freqs.pairs();
    for (std::int64_t delta = 0; delta < count; ++delta) {
        std::complex<double> partial_sum = 0.0;
        double total = 0.0;
        for (int j = 0; j < freqs.pairs(); ++j) {
            partial_sum += pair_rotor(freqs, j, delta);
            total += std::abs(partial_sum);
        }
        out[static_cast<std::size_t>(delta)] = total / pairs;
    }
    return out;
}

}  // namespace ropelab
