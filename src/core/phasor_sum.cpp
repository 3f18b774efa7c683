#include "core/phasor_sum.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <fmt/format.h>

#include "core/error.h"
#include "core/rotation.h"
#include "core/vector_spec.h"

namespace ropelab {

PhasorSum rope_phasor_sum(const ScoreCoefficients& c, const RopeFrequencies& freqs,
                          std::int64_t query_position) {
    PhasorSum sum;
    sum.coefficient = c.pair;
    sum.step = freqs.phase_step;
    sum.radians_per_step = freqs.inv_freq;
    sum.constant = c.passthrough;
    sum.query_position = query_position;
    return sum;
}

PhasorSum sinusoidal_phasor_sum(std::span<const double> q, std::span<const double> k,
                                const SinusoidalEncoding& enc, std::int64_t query_position) {
    std::vector<double> u = sinusoidal_vector(enc, query_position);
    for (std::size_t j = 0; j < u.size(); ++j) u[j] += q[j];

    PhasorSum sum;
    sum.constant = dot(u, k);
    sum.query_position = query_position;
    for (std::size_t t = 0; t < enc.omega.size(); ++t) {
        // u_{2t}·sin(nω) + u_{2t+1}·cos(nω) = Re[(u_{2t+1} − i·u_{2t})·e^{inω}], n = m − Δ.
        const double cos_part = 2 * t + 1 < u.size() ? u[2 * t + 1] : 0.0;
        const std::complex<double> a(cos_part, -u[2 * t]);
        const double m_angle = phase_radians(phase_at(enc.phase_step[t], query_position));
        sum.coefficient.push_back(std::conj(a * std::polar(1.0, m_angle)));
        sum.step.push_back(enc.phase_step[t]);
        sum.radians_per_step.push_back(enc.omega[t]);
    }
    return sum;
}

ScoreCoefficients mean_random_coefficients(const RopeFrequencies& freqs, std::uint64_t seed,
                                           int samples) {
    if (samples < 1) throw InputError(fmt::format("samples must be >= 1 (got {})", samples));
    ScoreCoefficients mean;
    mean.pair.assign(static_cast<std::size_t>(freqs.pairs()), 0.0);
    for (int s = 0; s < samples; ++s) {
        const auto q = random_vector(seed + 2 * static_cast<std::uint64_t>(s), freqs.head_dim);
        const ScoreCoefficients one = score_coefficients(q, q, freqs);
        for (std::size_t i = 0; i < mean.pair.size(); ++i) mean.pair[i] += one.pair[i];
        mean.passthrough += one.passthrough;
    }
    for (auto& c : mean.pair) c /= samples;
    mean.passthrough /= samples;
    return mean;
}

float round_to_bf16(float x) {
    std::uint32_t bits = std::bit_cast<std::uint32_t>(x);
    bits += 0x7FFFu + ((bits >> 16) & 1u);  // round to nearest, ties to even
    return std::bit_cast<float>(bits & 0xFFFF0000u);
}

std::complex<double> naive_rotor(double radians_per_step, std::int64_t position, AngleMode mode) {
    const float angle = static_cast<float>(position) * static_cast<float>(radians_per_step);
    float c = std::cos(angle), s = std::sin(angle);
    if (mode == AngleMode::Bf16) {
        c = round_to_bf16(c);
        s = round_to_bf16(s);
    }
    return {c, s};
}

std::complex<double> phasor(const PhasorSum& sum, std::size_t pair, std::int64_t delta, AngleMode mode) {
    std::complex<double> rotor;
    if (mode == AngleMode::Exact) {
        rotor = std::polar(1.0, phase_radians(phase_at(sum.step[pair], delta)));
    } else {
        // q rotated at the query position, k at query_position − Δ, each as the naive mode does.
        const double w = sum.radians_per_step[pair];
        rotor = naive_rotor(w, sum.query_position, mode) * std::conj(naive_rotor(w, sum.query_position - delta, mode));
    }
    return sum.coefficient[pair] * rotor;
}

double evaluate(const PhasorSum& sum, std::int64_t delta, AngleMode mode) {
    double total = sum.constant;
    for (std::size_t i = 0; i < sum.coefficient.size(); ++i) total += phasor(sum, i, delta, mode).real();
    return total;
}

std::vector<std::complex<double>> phasor_chain(const PhasorSum& sum, std::int64_t delta, AngleMode mode) {
    std::vector<std::complex<double>> chain{{sum.constant, 0.0}};
    chain.reserve(sum.coefficient.size() + 1);
    for (std::size_t i = 0; i < sum.coefficient.size(); ++i) chain.push_back(chain.back() + phasor(sum, i, delta, mode));
    return chain;
}

void PhasorExtent::add(std::complex<double> z) {
    if (!std::isfinite(z.real()) || !std::isfinite(z.imag())) return;
    min_re = std::min(min_re, z.real()), max_re = std::max(max_re, z.real());
    min_im = std::min(min_im, z.imag()), max_im = std::max(max_im, z.imag());
}

PhasorExtent phasor_chain_extent(const PhasorSum& sum, std::int64_t max_distance, int samples) {
    PhasorExtent box;  // holds the origin from the start
    for (int k = 0; k <= samples; ++k) {
        for (const auto& z : phasor_chain(sum, (max_distance - 1) * k / samples)) box.add(z);
    }
    return box;
}

std::string_view to_string(AngleMode mode) {
    switch (mode) {
        case AngleMode::Exact: return "exact";
        case AngleMode::NaiveFp32: return "naive-fp32";
        case AngleMode::Bf16: return "bf16";
    }
    return "exact";
}

AngleMode parse_angle_mode(std::string_view name) {
    for (AngleMode m : {AngleMode::Exact, AngleMode::NaiveFp32, AngleMode::Bf16}) {
        if (name == to_string(m)) return m;
    }
    throw InputError(
        fmt::format("unknown angle mode \"{}\" (expected exact, naive-fp32 or bf16)", name));
}

}  // namespace ropelab
