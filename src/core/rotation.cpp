#include "core/rotation.h"

#include <cmath>

namespace ropelab {

std::pair<int, int> pair_components(int pair, int rotary_dim, PairLayout layout) {
    if (layout == PairLayout::Half) return {pair, pair + rotary_dim / 2};
    return {2 * pair, 2 * pair + 1};
}

std::complex<double> pair_value(std::span<const double> x, int pair, int rotary_dim,
                                PairLayout layout) {
    const auto [a, b] = pair_components(pair, rotary_dim, layout);
    return {x[static_cast<std::size_t>(a)], x[static_cast<std::size_t>(b)]};
}

std::complex<double> pair_rotor(const RopeFrequencies& freqs, int pair, std::int64_t position) {
    const double angle =
        phase_radians(phase_at(freqs.phase_step[static_cast<std::size_t>(pair)], position));
    return {std::cos(angle), std::sin(angle)};
}

std::vector<double> rotate(std::span<const double> x, const RopeFrequencies& freqs,
                           std::int64_t position) {
    std::vector<double> out(x.begin(), x.end());
    for (int i = 0; i < freqs.pairs(); ++i) {
        const std::complex<double> z = pair_value(x, i, freqs.rotary_dim, freqs.layout) *
                                       pair_rotor(freqs, i, position) * freqs.attention_factor;
        const auto [a, b] = pair_components(i, freqs.rotary_dim, freqs.layout);
        out[static_cast<std::size_t>(a)] = z.real();
        out[static_cast<std::size_t>(b)] = z.imag();
    }
    return out;
}

double dot(std::span<const double> a, std::span<const double> b) {
    double sum = 0.0;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) sum += a[i] * b[i];
    return sum;
}

std::vector<double> pair_angles_deg(const RopeFrequencies& freqs, std::int64_t position) {
    std::vector<double> out;
    out.reserve(freqs.phase_step.size());
    for (PhaseStep step : freqs.phase_step) out.push_back(phase_degrees(phase_at(step, position)));
    return out;
}

}  // namespace ropelab
