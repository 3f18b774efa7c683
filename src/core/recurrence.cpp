#include "core/recurrence.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// As in core/cpu_kernels.cpp: GCC vector types vectorise at any optimisation level, and on x86-64
// GCC also builds an AVX2+FMA clone of the step loops, picked at run time.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ROPELAB_SIMD_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define ROPELAB_SIMD_CLONES
#endif
// The helpers below pass vector types among themselves; no ABI crosses this file.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace ropelab {

ReinschTerm reinsch_term(std::complex<double> coefficient, PhaseStep step,
                         double radians_per_step, std::int64_t stride) {
    constexpr double kPi = kTwoPi / 2;
    const double theta = phase_radians(phase_at(step, stride));  // [−π, π)
    const bool folded = std::abs(theta) > kPi / 2;
    const double folded_theta = !folded ? theta : theta > 0 ? theta - kPi : theta + kPi;
    const double half = 0.5 * folded_theta;
    ReinschTerm t;
    t.coefficient_re = static_cast<float>(coefficient.real());
    t.coefficient_im = static_cast<float>(coefficient.imag());
    t.step_lo = static_cast<std::uint32_t>(step);
    t.step_hi = static_cast<std::uint32_t>(step >> 32);
    t.alternate = folded ? -1.0f : 1.0f;
    t.lambda = static_cast<float>(-4.0 * std::sin(half) * std::sin(half));
    t.sin_theta = static_cast<float>(std::sin(folded_theta));
    t.radians_per_step = static_cast<float>(radians_per_step);
    return t;
}

namespace {
constexpr int kTableBits = 12;

const std::array<std::complex<double>, 1 << kTableBits>& rotor_table() {
    static const auto table = [] {
        std::array<std::complex<double>, 1 << kTableBits> t{};
        for (std::size_t j = 0; j < t.size(); ++j) {
            t[j] = std::polar(1.0, kTwoPi * static_cast<double>(j) / t.size());
        }
        return t;
    }();
    return table;
}
}  // namespace

std::complex<double> rotor(Phase phase) {
    const std::uint64_t index = phase >> (64 - kTableBits);
    const std::uint64_t rest = phase & ((std::uint64_t{1} << (64 - kTableBits)) - 1);
    const double x = std::ldexp(static_cast<double>(rest), -64) * kTwoPi;
    const double x2 = x * x;
    const double c = 1.0 - x2 * (0.5 - x2 * (1.0 / 24 - x2 / 720));
    const double s = x * (1.0 - x2 * (1.0 / 6 - x2 * (1.0 / 120 - x2 / 5040)));
    return rotor_table()[index] * std::complex<double>(c, s);
}

namespace {

using f64x4 = double __attribute__((vector_size(32)));
constexpr int kVectors = kExactLanes / 4;  // independent chains of each term's rotation
static_assert(kExactLanes % 4 == 0);

f64x4 load4(const double* p) {
    f64x4 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}
void store4(double* p, f64x4 v) { __builtin_memcpy(p, &v, sizeof v); }

// Element-wise √ (of sums of squares: no negatives, no errno). std::sqrt element by element is
// scalar and checks errno: it was two thirds of the bound's time. SSE2's sqrtpd is in every
// x86-64, so both clones use it (the AVX2 one in its VEX form) on the two halves, split and
// joined in registers (through memory, the joined load waited on two stores).
f64x4 square_root(f64x4 x) {
#if defined(__SSE2__)
    using f64x2 = double __attribute__((vector_size(16)));
    const f64x2 low = _mm_sqrt_pd(__builtin_shufflevector(x, x, 0, 1));
    const f64x2 high = _mm_sqrt_pd(__builtin_shufflevector(x, x, 2, 3));
    return __builtin_shufflevector(low, high, 0, 1, 2, 3);
#else
    for (int l = 0; l < 4; ++l) x[l] = std::sqrt(x[l]);
    return x;
#endif
}

// a·b for finite numbers, without std::complex's library call for infinities.
std::complex<double> times(std::complex<double> a, std::complex<double> b) {
    return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// One term's rotors that do not depend on the block: e^{ilθ} for each lane l and the stride
// e^{iLθ}, all from exact phases.
struct ExactTerm {
    std::complex<double> coefficient;
    PhaseStep step = 0;
    std::array<std::complex<double>, kExactLanes> lane{};
    std::complex<double> stride;
};

ExactTerm exact_term(std::complex<double> coefficient, PhaseStep step) {
    ExactTerm t{coefficient, step, {}, rotor(phase_at(step, kExactLanes))};
    for (int l = 0; l < kExactLanes; ++l) t.lane[static_cast<std::size_t>(l)] = rotor(phase_at(step, l));
    return t;
}

// A term at a block's first distances a + l: u·e^{ilθ} with u = c·e^{iaθ} anchored exactly.
struct BlockStart {
    alignas(32) double re[kExactLanes];
    alignas(32) double im[kExactLanes];
};

BlockStart block_start(const ExactTerm& t, std::int64_t anchor_at) {
    const std::complex<double> u = times(t.coefficient, rotor(phase_at(t.step, anchor_at)));
    BlockStart b;
    for (int l = 0; l < kExactLanes; ++l) {
        const std::complex<double> z = times(u, t.lane[static_cast<std::size_t>(l)]);
        b.re[l] = z.real();
        b.im[l] = z.imag();
    }
    return b;
}

// out[s·L + l] += Re(z_l·w^s), s < kExactSteps: the term's real part over one block.
ROPELAB_SIMD_CLONES void add_term(double* __restrict out, const BlockStart& b, double w_re, double w_im) {
    f64x4 re[kVectors], im[kVectors];
    for (int v = 0; v < kVectors; ++v) {
        re[v] = load4(b.re + 4 * v);
        im[v] = load4(b.im + 4 * v);
    }
    for (int s = 0; s < kExactSteps; ++s) {
        double* row = out + s * kExactLanes;
        for (int v = 0; v < kVectors; ++v) {
            store4(row + 4 * v, load4(row + 4 * v) + re[v]);
            const f64x4 next_re = re[v] * w_re - im[v] * w_im;
            im[v] = re[v] * w_im + im[v] * w_re;
            re[v] = next_re;
        }
    }
}

// The partial sums S_j += z (the term's rotor itself, c = 1) and total += |S_j| over one block.
ROPELAB_SIMD_CLONES void add_partial_sum(double* __restrict sum_re, double* __restrict sum_im, double* __restrict total,
                                         const BlockStart& b, double w_re, double w_im) {
    f64x4 re[kVectors], im[kVectors];
    for (int v = 0; v < kVectors; ++v) {
        re[v] = load4(b.re + 4 * v);
        im[v] = load4(b.im + 4 * v);
    }
    for (int s = 0; s < kExactSteps; ++s) {
        const int row = s * kExactLanes;
        for (int v = 0; v < kVectors; ++v) {
            const f64x4 s_re = load4(sum_re + row + 4 * v) + re[v];
            const f64x4 s_im = load4(sum_im + row + 4 * v) + im[v];
            store4(sum_re + row + 4 * v, s_re);
            store4(sum_im + row + 4 * v, s_im);
            const f64x4 r2 = s_re * s_re + s_im * s_im;
            const f64x4 r = square_root(r2);
            store4(total + row + 4 * v, load4(total + row + 4 * v) + r);
            const f64x4 next_re = re[v] * w_re - im[v] * w_im;
            im[v] = re[v] * w_im + im[v] * w_re;
            re[v] = next_re;
        }
    }
}

}  // namespace

void exact_phasor_sum_into(std::span<const std::complex<double>> coefficient, std::span<const PhaseStep> step,
                           double constant, std::int64_t first, std::span<double> out) {
    std::vector<ExactTerm> terms;
    for (std::size_t i = 0; i < coefficient.size() && i < step.size(); ++i) terms.push_back(exact_term(coefficient[i], step[i]));
    alignas(32) double block[kExactBlock];
    for (std::size_t at = 0; at < out.size(); at += kExactBlock) {
        const std::int64_t anchor_at = first + static_cast<std::int64_t>(at);
        std::fill(std::begin(block), std::end(block), constant);
        for (const ExactTerm& t : terms) add_term(block, block_start(t, anchor_at), t.stride.real(), t.stride.imag());
        // The last block may be partial: its tail is computed and dropped.
        std::copy_n(block, std::min<std::size_t>(kExactBlock, out.size() - at), out.begin() + static_cast<std::ptrdiff_t>(at));
    }
}

void exact_decay_bound_into(std::span<const PhaseStep> step, std::int64_t first, std::span<double> out) {
    std::vector<ExactTerm> terms;
    for (const PhaseStep s : step) terms.push_back(exact_term(1.0, s));
    const double pairs = static_cast<double>(terms.size());
    alignas(32) double sum_re[kExactBlock], sum_im[kExactBlock], total[kExactBlock];
    for (std::size_t at = 0; at < out.size(); at += kExactBlock) {
        const std::int64_t anchor_at = first + static_cast<std::int64_t>(at);
        std::fill(std::begin(sum_re), std::end(sum_re), 0.0);
        std::fill(std::begin(sum_im), std::end(sum_im), 0.0);
        std::fill(std::begin(total), std::end(total), 0.0);
        for (const ExactTerm& t : terms) add_partial_sum(sum_re, sum_im, total, block_start(t, anchor_at), t.stride.real(), t.stride.imag());
        const std::size_t n = std::min<std::size_t>(kExactBlock, out.size() - at);
        for (std::size_t j = 0; j < n; ++j) out[at + j] = total[j] / pairs;
    }
}

}  // namespace ropelab
