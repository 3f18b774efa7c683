#pragma once
// Independent reference computations for the core tests. They share no code with src/core:
// angles come from long double (64-bit mantissa) products reduced with fmodl, vectors are
// rotated by explicit 2×2 matrices.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

namespace ropelab::test {

inline constexpr long double kPiL = 3.141592653589793238462643383279502884L;

inline bool long_double_is_extended() { return std::numeric_limits<long double>::digits >= 64; }

// m·ω reduced to [-π, π), accurate to ~3e-10 rad for m up to 2^31.
inline double reference_angle(double omega, std::int64_t m) {
    long double x = static_cast<long double>(m) * static_cast<long double>(omega);
    long double r = std::fmod(x, 2 * kPiL);
    if (r >= kPiL) r -= 2 * kPiL;
    if (r < -kPiL) r += 2 * kPiL;
    return static_cast<double>(r);
}

// Difference of two angles on the circle, in (-π, π].
inline double angle_difference(double a, double b) {
    double d = std::remainder(a - b, 2 * static_cast<double>(kPiL));
    return d;
}

// θ^(-2i/d), written out again rather than calling the core.
inline std::vector<double> reference_inv_freq(int d, double theta) {
    std::vector<double> out;
    for (int i = 0; i < d / 2; ++i) out.push_back(std::pow(theta, -2.0 * i / d));
    return out;
}

// Rotates x (interleaved pairs over the first `rotary` components) by explicit 2×2 matrices.
inline std::vector<double> reference_rotate_interleaved(const std::vector<double>& x,
                                                        const std::vector<double>& inv_freq,
                                                        std::int64_t m, double scale = 1.0) {
    std::vector<double> out = x;
    for (std::size_t i = 0; i < inv_freq.size(); ++i) {
        const double a = reference_angle(inv_freq[i], m);
        const double c = std::cos(a) * scale, s = std::sin(a) * scale;
        out[2 * i] = c * x[2 * i] - s * x[2 * i + 1];
        out[2 * i + 1] = s * x[2 * i] + c * x[2 * i + 1];
    }
    return out;
}

inline double reference_dot(const std::vector<double>& a, const std::vector<double>& b) {
    long double sum = 0;
    for (std::size_t i = 0; i < a.size(); ++i) sum += static_cast<long double>(a[i]) * b[i];
    return static_cast<double>(sum);
}

// score(Δ) = constant + Re Σ c_i e^{iΔθ_i} for Δ < count in float64: anchors every 256
// distances from long double angles, complex rotation in between (error ~256·1e-16).
// Independent of the core's fixed-point phases, rotor table and Reinsch recurrence.
inline std::vector<double> reference_phasor_scores(const std::vector<std::complex<double>>& c,
                                                   const std::vector<double>& theta,
                                                   double constant, std::int64_t count) {
    constexpr std::int64_t kBlock = 256;
    std::vector<double> out(static_cast<std::size_t>(count), constant);
    for (std::size_t i = 0; i < c.size(); ++i) {
        const std::complex<double> step = std::polar(1.0, reference_angle(theta[i], 1));
        for (std::int64_t a = 0; a < count; a += kBlock) {
            std::complex<double> z = c[i] * std::polar(1.0, reference_angle(theta[i], a));
            for (std::int64_t n = a; n < std::min(a + kBlock, count); ++n) {
                out[static_cast<std::size_t>(n)] += z.real();
                z *= step;
            }
        }
    }
    return out;
}

// A simple seeded generator for test inputs (independent of the core's random_vector).
struct TestRng {
    std::uint64_t state;
    double uniform() {  // [-1, 1)
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<double>(state >> 11) * 0x1.0p-52 - 1.0;
    }
    std::vector<double> vector(int n) {
        std::vector<double> v(static_cast<std::size_t>(n));
        for (double& x : v) x = uniform();
        return v;
    }
};

}  // namespace ropelab::test
