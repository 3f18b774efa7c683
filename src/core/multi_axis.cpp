#include "core/multi_axis.h"

#include <cmath>
#include <numbers>

namespace ropelab {

namespace {

// Section rules: the axis of pair j.
int section_axis(const MultiAxis& a, int j) {
    const int t = static_cast<int>(a.sections[0]), h = static_cast<int>(a.sections[1]);
    if (a.rule == AxisRule::Sections || a.rule == AxisRule::Axial) return j < t ? 0 : j < t + h ? 1 : 2;
    // Alternating (ERNIE 4.5-VL): even pairs below 2·s_h with h, odd ones with w, the rest with t.
    if (a.rule == AxisRule::Alternating) return j >= 2 * h ? 0 : j % 2 == 0 ? 1 : 2;
    // Interleaved (Qwen3-VL's apply_interleaved_mrope): h on 1, 4, … below 3·s_h; w on 2, 5, … below 3·s_w.
    const int w = static_cast<int>(a.sections[2]);
    if (j % 3 == 1 && j < 3 * h) return 1;
    if (j % 3 == 2 && j < 3 * w) return 2;
    return 0;
}

AxisVector on_axis(int axis, double omega) {
    AxisVector v{0, 0, 0};
    v[static_cast<std::size_t>(axis)] = omega;
    return v;
}

// Axial: axis a's pairs take the ladder θ^(−2j/d_a) of their own d_a = 2·s_a components.
std::vector<AxisVector> axial(const ModelConfig& c) {
    std::vector<AxisVector> out;
    for (int axis = 0; axis < kAxes; ++axis) {
        const int pairs = static_cast<int>(c.multi_axis.sections[static_cast<std::size_t>(axis)]);
        for (double f : default_inv_freq(2 * pairs, c.rope_theta)) out.push_back(on_axis(axis, f));
    }
    return out;
}

// Pixtral: the 1-D ladder's even pairs for h, then its odd pairs for w.
std::vector<AxisVector> even_odd(const RopeFrequencies& freqs) {
    std::vector<AxisVector> out;
    for (int parity = 0; parity < 2; ++parity) {
        for (std::size_t j = static_cast<std::size_t>(parity); j < freqs.unscaled_inv_freq.size(); j += 2) {
            out.push_back(on_axis(1 + parity, freqs.unscaled_inv_freq[j]));
        }
    }
    return out;
}

// RoPE-Mixed's initialisation: magnitudes θ^(−4k/d) for k < d/4, the first half along φ and the
// second along φ + 90°; ω_w = |ω| cos, ω_h = |ω| sin (x is the column).
std::vector<AxisVector> mixed(const ModelConfig& c, int rotary) {
    const int quarter = rotary / 4;
    const double phi = c.multi_axis.mixed_angle * std::numbers::pi / 180.0;
    std::vector<AxisVector> out;
    for (double turn : {0.0, std::numbers::pi / 2}) {
        for (int k = 0; k < quarter; ++k) {
            const double magnitude = 1.0 / std::pow(c.rope_theta, 4.0 * k / rotary);
            out.push_back({0.0, magnitude * std::sin(phi + turn), magnitude * std::cos(phi + turn)});
        }
    }
    return out;
}

}  // namespace

namespace {

std::vector<AxisVector> rule_vectors(const ModelConfig& config, const RopeFrequencies& freqs) {
    const MultiAxis& a = config.multi_axis;
    switch (a.rule) {
        case AxisRule::None: break;
        case AxisRule::Sections:
        case AxisRule::Interleaved:
        case AxisRule::Alternating: {
            std::vector<AxisVector> out;
            for (int j = 0; j < freqs.pairs(); ++j) out.push_back(on_axis(section_axis(a, j), freqs.inv_freq[static_cast<std::size_t>(j)]));
            return out;
        }
        case AxisRule::Axial: return axial(config);
        case AxisRule::EvenOdd: return even_odd(freqs);
        case AxisRule::Mixed: return mixed(config, freqs.rotary_dim);
    }
    std::vector<AxisVector> out;
    for (double f : freqs.inv_freq) out.push_back({f, f, f});
    return out;
}

}  // namespace

// A pair left unrotated (a NoPE layer, p-RoPE's dropped pairs) turns with no axis, whatever the
// rule would give it: the axial and mixed ladders are built from θ, not from freqs.inv_freq.
std::vector<AxisVector> pair_frequency_vectors(const ModelConfig& config, const RopeFrequencies& freqs) {
    std::vector<AxisVector> out = rule_vectors(config, freqs);
    for (std::size_t j = 0; j < out.size() && j < freqs.unrotated.size(); ++j) {
        if (freqs.unrotated[j]) out[j] = {0.0, 0.0, 0.0};
    }
    return out;
}

std::string pair_axis_letters(const ModelConfig& config) {
    if (!is_multi_axis(config)) return {};
    const RopeFrequencies freqs = compute_frequencies(config);
    std::string out;
    for (const AxisVector& w : pair_frequency_vectors(config, freqs)) {
        const int nonzero = (w[0] != 0) + (w[1] != 0) + (w[2] != 0);
        out += nonzero > 1 ? 'm' : w[1] != 0 ? 'h' : w[2] != 0 ? 'w' : 't';
    }
    return out;
}

}  // namespace ropelab
