#include "core/math_notes.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

namespace ropelab {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
// float32 holds every integer up to 2^24; its products carry a relative rounding of 2^-24 per
// operand.
constexpr double kFp32ExactIntegers = 16777216.0;
constexpr double kFp32Epsilon = 1.0 / 16777216.0;

int count_below(const std::vector<double>& inv_freq, double limit) {
    return static_cast<int>(std::count_if(inv_freq.begin(), inv_freq.end(), [&](double w) { return w < limit; }));
}

void single_pair(const RopeFrequencies& f, std::vector<MathNote>& notes) {
    if (f.pairs() != 1) return;
    notes.push_back({true, "One rotary pair: the score is a pure cosine of distance and cannot decay",
                     fmt::format("rotary dim 2; period 2π/ω = {:.4g} tokens", wavelength(f.inv_freq[0]))});
}

void collapsed_ladder(const RopeFrequencies& f, double fastest, double slowest, std::vector<MathNote>& notes) {
    if (f.pairs() < 2 || fastest >= 2.0 * slowest) return;
    notes.push_back({true, "The frequency ladder has collapsed: every pair turns at nearly the same speed",
                     fmt::format("ω from {:.4g} to {:.4g} rad/token (θ = {:.6g}): no pair is slow enough to "
                                 "carry long-range order, and the score repeats about every {:.3g} tokens",
                                 slowest, fastest, f.effective_theta, kTwoPi / std::sqrt(fastest * slowest))});
}

void still_pairs(const RopeFrequencies& f, double fastest, const NoteInputs& in, std::vector<MathNote>& notes) {
    const double reach = static_cast<double>(in.max_distance);
    if (fastest < kStillRadians) {
        notes.push_back({true, "Neighbouring tokens are nearly indistinguishable: no pair turns 0.01 rad per token",
                         fmt::format("the fastest pair turns {:.3g} rad per token (scaling compresses positions "
                                     "this much); distance shows only over hundreds of tokens", fastest)});
    }
    const int still = count_below(f.inv_freq, kStillRadians / reach);
    if (still == f.pairs()) {
        notes.push_back({true, "No pair turns across the plotted distances: the score curve is flat",
                         fmt::format("every pair turns less than {} rad over N = {} distances", kStillRadians, in.max_distance)});
    } else if (still > 0) {
        notes.push_back({false, fmt::format("{} of {} pairs barely turn over N = {}: they carry no position here",
                                            still, f.pairs(), in.max_distance),
                         fmt::format("each turns less than {} rad across the plotted distances; for these "
                                     "dimensions q·k is as if there were no RoPE", kStillRadians)});
    }
}

void float32_positions(double fastest, const NoteInputs& in, std::vector<MathNote>& notes) {
    if (in.mode == AngleMode::Exact) return;
    const double reach = static_cast<double>(std::max(in.max_distance - 1, in.position));
    if (reach > kFp32ExactIntegers) {
        notes.push_back({true, "float32 cannot hold every position above 2^24: naive angles round m itself",
                         fmt::format("positions up to {} are used; float32 steps are {} tokens apart there",
                                     static_cast<std::int64_t>(reach),
                                     std::exp2(std::floor(std::log2(reach)) - 23.0))});
    }
    // fl(m)·fl(ω) is off by about two roundings of the product.
    const double angle_error = 2.0 * kFp32Epsilon * reach * fastest;
    if (angle_error > 0.1) {
        notes.push_back({true, fmt::format("float32 angles are off by up to ~{:.2g} rad at m = {}: the naive curve is noise there",
                                           angle_error, static_cast<std::int64_t>(reach)),
                         "2·2^-24·m·ω of the fastest pair; the exact mode reduces the phase in 64-bit fixed point"});
    }
}

void aliased_heatmap(const RopeFrequencies& f, const NoteInputs& in, std::vector<MathNote>& notes) {
    if (in.heatmap_stride <= 1) return;
    const double stride = static_cast<double>(in.heatmap_stride);
    const int aliased = f.pairs() - count_below(f.inv_freq, std::numbers::pi / stride);
    if (aliased == 0) return;
    notes.push_back({false, fmt::format("Heatmap rows are {} positions apart: the {} fastest pairs alias there",
                                        in.heatmap_stride, aliased),
                     "they turn more than half a turn between rows, so their stripes are not their true period; "
                     "lower N to see them"});
}

}  // namespace

std::vector<MathNote> math_notes(const RopeFrequencies& f, const NoteInputs& in) {
    std::vector<MathNote> notes;
    if (f.inv_freq.empty()) return notes;
    // Unrotated pairs (p-RoPE, NoPE) are 0 by design, not a collapsed or frozen ladder.
    std::vector<double> rotated;
    for (std::size_t i = 0; i < f.inv_freq.size(); ++i) {
        if (i >= f.unrotated.size() || !f.unrotated[i]) rotated.push_back(f.inv_freq[i]);
    }
    if (rotated.empty()) {
        notes.push_back({false, "This layer applies no RoPE (NoPE): q·k does not depend on position",
                         "every pair passes through unrotated; position reaches attention only through the causal mask"});
        return notes;
    }
    const auto [slow, fast] = std::minmax_element(rotated.begin(), rotated.end());
    single_pair(f, notes);
    collapsed_ladder(f, *fast, *slow, notes);
    still_pairs(f, *fast, in, notes);
    float32_positions(*fast, in, notes);
    aliased_heatmap(f, in, notes);
    return notes;
}

}  // namespace ropelab
