#pragma once
// The cyclic colormap of angle plots, a cosine palette
//     rgb(t) = A + B·cos(2π(t + phase)),  t = angle / 2π,
// periodic in the angle so −π and π meet without a seam. The coefficients are injected into
// the shaders as #defines (src/gpu/program.cpp); the CPU fallback uses the same function.
#include <algorithm>
#include <array>
#include <cmath>

namespace ropelab {

inline constexpr std::array<float, 3> kCyclicA = {0.55f, 0.5f, 0.55f};
inline constexpr std::array<float, 3> kCyclicB = {0.45f, 0.45f, 0.45f};
inline constexpr std::array<float, 3> kCyclicPhase = {0.0f, 0.33f, 0.67f};

inline std::array<float, 3> cyclic_color(float angle) {
    std::array<float, 3> rgb{};
    const float t = angle / 6.2831853f;
    for (int c = 0; c < 3; ++c) {
        const float v = kCyclicA[c] + kCyclicB[c] * std::cos(6.2831853f * (t + kCyclicPhase[c]));
        rgb[c] = std::fmin(1.0f, std::fmax(0.0f, v));
    }
    return rgb;
}

// The diverging map of an angle difference in [−π, π]: blue below zero, white at zero (the two
// settings agree), red above. Both ends mean "half a turn apart"; the sign tells which leads.
inline std::array<float, 3> diverging_color(float angle) {
    constexpr std::array<float, 3> kLow = {0.23f, 0.30f, 0.75f}, kMid = {0.95f, 0.95f, 0.95f}, kHigh = {0.71f, 0.02f, 0.15f};
    const float t = std::fmin(1.0f, std::fmax(-1.0f, angle / 3.14159265f));
    const auto& end = t < 0 ? kLow : kHigh;
    std::array<float, 3> rgb{};
    for (int c = 0; c < 3; ++c) rgb[c] = kMid[c] + (end[c] - kMid[c]) * std::fabs(t);
    return rgb;
}

// A sequential map for values fitted to [0, 1]: dark blue-purple (lowest) through teal to yellow
// (highest), monotone in lightness so the order reads in grey too (viridis's end and mid points).
inline std::array<float, 3> sequential_color(float t) {
    constexpr std::array<std::array<float, 3>, 5> kStops = {{{0.267f, 0.005f, 0.329f},
                                                              {0.229f, 0.322f, 0.546f},
                                                              {0.128f, 0.567f, 0.551f},
                                                              {0.369f, 0.789f, 0.383f},
                                                              {0.993f, 0.906f, 0.144f}}};
    const float x = std::fmin(1.0f, std::fmax(0.0f, t)) * 4.0f;
    const int i = std::min(3, static_cast<int>(x));
    const float f = x - static_cast<float>(i);
    std::array<float, 3> rgb{};
    for (int c = 0; c < 3; ++c) rgb[c] = kStops[i][c] + (kStops[i + 1][c] - kStops[i][c]) * f;
    return rgb;
}

}  // namespace ropelab
