#include "lab/lab_data.h"

#include "core/parallel.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "core/error.h"
#include "core/rotation.h"
#include "core/vector_spec.h"

namespace ropelab {

namespace {

constexpr std::int64_t kInvarianceWidth = 512;
constexpr int kPrecisionSamples = 1024;
constexpr double kPrecisionMaxPosition = 16777216.0;  // 2^24

double angle_error(double approx, double exact) {
    return std::abs(std::remainder(approx - exact, kTwoPi));
}

}  // namespace

void refresh_focus(LabData& d, const LabParams& p) {
    // With the focus: a linked Δ moves it as the key distance does (512 positions, cheap).
    const std::int64_t delta = invariance_delta(p);
    d.invariance_rope = rope_invariance(d.q, d.k, d.freqs, delta, delta, delta + kInvarianceWidth);
    d.invariance_sinusoidal =
        sinusoidal_invariance(d.q, d.k, d.sinusoidal, delta, delta, delta + kInvarianceWidth);
    d.invariance_positions.clear();
    for (std::int64_t m = delta; m < delta + kInvarianceWidth; ++m) {
        d.invariance_positions.push_back(static_cast<double>(m));
    }
    d.precision_positions.clear();
    d.naive_error.clear();
    d.bf16_error.clear();
    d.naive_error_worst.clear();
    const std::size_t i = static_cast<std::size_t>(std::clamp(p.focused_pair, 0, d.freqs.pairs() - 1));
    const double w = d.freqs.inv_freq[i];
    for (int s = 0; s < kPrecisionSamples; ++s) {
        const auto m = std::round(std::pow(kPrecisionMaxPosition, static_cast<double>(s) / (kPrecisionSamples - 1)));
        if (d.precision_positions.empty() || m != d.precision_positions.back()) d.precision_positions.push_back(m);
    }
    const std::size_t n = d.precision_positions.size();
    d.naive_error.resize(n);
    d.bf16_error.resize(n);
    d.naive_error_worst.resize(n);
    // Every pair at every position: spread over the cores (512-dim heads: 0.3 M angles).
    parallel_for(static_cast<std::int64_t>(n), [&](std::int64_t from, std::int64_t to) {
        for (auto k = static_cast<std::size_t>(from); k < static_cast<std::size_t>(to); ++k) {
            const auto m = static_cast<std::int64_t>(d.precision_positions[k]);
            const double exact = phase_radians(phase_at(d.freqs.phase_step[i], m));
            d.naive_error[k] = angle_error(std::arg(naive_rotor(w, m, AngleMode::NaiveFp32)), exact);
            d.bf16_error[k] = angle_error(std::arg(naive_rotor(w, m, AngleMode::Bf16)), exact);
            double worst = 0.0;
            for (std::size_t j = 0; j < d.freqs.phase_step.size(); ++j) {
                const double e = phase_radians(phase_at(d.freqs.phase_step[j], m));
                worst = std::max(worst, angle_error(std::arg(naive_rotor(d.freqs.inv_freq[j], m, AngleMode::NaiveFp32)), e));
            }
            d.naive_error_worst[k] = worst;
        }
    });
}

std::pair<std::vector<double>, std::vector<double>> lab_vectors(const LabParams& p, int head_dim,
                                                               int rotary_dim) {
    const auto n = static_cast<std::size_t>(head_dim);
    switch (p.vectors) {
        case VectorChoice::Ones: return {std::vector<double>(n, 1.0), std::vector<double>(n, 1.0)};
        case VectorChoice::Random:
            return {random_vector(p.seed, head_dim), random_vector(p.seed + 1, head_dim)};
        case VectorChoice::MeanOfRandom:  // the first sample; the mean uses k = q too
            return {random_vector(p.seed, head_dim), random_vector(p.seed, head_dim)};
        case VectorChoice::FocusedPair: {
            std::vector<double> v(n, 0.0);
            const int pair = std::clamp(p.focused_pair, 0, rotary_dim / 2 - 1);
            const auto [a, b] = pair_components(pair, rotary_dim, p.model.layout);
            v[static_cast<std::size_t>(a)] = v[static_cast<std::size_t>(b)] = 1.0;
            return {v, v};
        }
        case VectorChoice::Custom: {
            std::vector<double> q, k;
            try {
                q = parse_vector_spec(p.custom_q, head_dim);
            } catch (const InputError& e) {
                throw InputError(std::string("curves.custom_q (q): ") + e.what());  // the field, as a session names it
            }
            try {
                k = parse_vector_spec(p.custom_k, head_dim);
            } catch (const InputError& e) {
                throw InputError(std::string("curves.custom_k (k): ") + e.what());
            }
            // Given for the model's head; the lab keeps the rotary part first (DeepSeek: [nope | rope]),
            // and turns every pair by +θ (nanochat's −θ: the same scores with each pair's components swapped).
            const auto lab_order = [&](const std::vector<double>& x) {
                std::vector<double> out = rotary_part_first(x, p.model.rotary_offset, rotary_dim);
                return p.model.negative_rotation ? swap_pair_components(std::move(out), rotary_dim, p.model.layout) : out;
            };
            return {lab_order(q), lab_order(k)};
        }
    }
    return {};
}

LabData compute_lab_data(const LabParams& p, const ScoreCoefficients* mean) {
    LabData d;
    d.freqs = compute_frequencies(p.model);
    d.scaling_factor = p.model.rope_scaling.factor.value_or(1.0);
    d.pair_scaling = classify_pairs(d.freqs, d.scaling_factor);
    std::tie(d.q, d.k) = lab_vectors(p, d.freqs.head_dim, d.freqs.rotary_dim);

    d.coefficients = p.vectors != VectorChoice::MeanOfRandom ? score_coefficients(d.q, d.k, d.freqs)
                     : mean                                  ? *mean
                                                             : mean_random_coefficients(d.freqs, p.seed, p.samples);
    const std::int64_t query = p.max_distance - 1;
    d.rope_sum = rope_phasor_sum(d.coefficients, d.freqs, query);
    d.phasor_extent = phasor_chain_extent(d.rope_sum, p.max_distance);
    d.sinusoidal = sinusoidal_encoding(d.freqs.head_dim, p.model.rope_theta);
    d.sinusoidal_sum = sinusoidal_phasor_sum(d.q, d.k, d.sinusoidal, query);
    d.bound_factor = roformer_bound_factor(d.coefficients);
    d.unencoded = unencoded_score(d.coefficients, d.freqs);

    if (is_multi_axis(p.model)) {
        d.pair_omegas = pair_frequency_vectors(p.model, d.freqs);
        d.pair_axes = pair_axis_letters(p.model);
    }

    refresh_focus(d, p);
    return d;
}

double pair_speed(const AxisVector& omega) { return std::hypot(omega[0], omega[1], omega[2]); }

double pair_wavelength(const AxisVector& omega) { return kTwoPi / pair_speed(omega); }

std::int64_t axis_extent(const LabParams& p, char axis) {
    switch (axis) {
        case 't': return p.grid_frames;
        case 'h': return p.grid_height;
        case 'w': return p.grid_width;
        default: return std::max(p.grid_height, p.grid_width);
    }
}

std::vector<AxisBand> axis_bands(const LabData& d, const LabParams& p) {
    std::vector<AxisBand> out;
    const std::size_t n = std::min(d.pair_axes.size(), d.pair_omegas.size());
    for (char axis : {'t', 'h', 'w', 'm'}) {
        AxisBand b;
        b.axis = axis;
        b.extent = axis_extent(p, axis);
        for (std::size_t j = 0; j < n; ++j) {
            // An unrotated pair (p-RoPE, NoPE) has ω = 0: no wavelength, no band.
            if (d.pair_axes[j] != axis || pair_speed(d.pair_omegas[j]) == 0.0) continue;
            const double lambda = pair_wavelength(d.pair_omegas[j]);
            b.shortest = b.pairs == 0 ? lambda : std::min(b.shortest, lambda);
            b.longest = b.pairs == 0 ? lambda : std::max(b.longest, lambda);
            ++b.pairs;
        }
        if (b.pairs == 0) continue;
        b.fastest_turns = static_cast<double>(b.extent) / b.shortest;
        b.slowest_turns = static_cast<double>(b.extent) / b.longest;
        out.push_back(b);
    }
    return out;
}

}  // namespace ropelab
