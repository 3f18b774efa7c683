#include "core/cpu_kernels.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/parallel.h"
#include "core/recurrence.h"

// The recurrence loops are written with GCC/Clang vector types so they vectorise at any
// optimisation level; on x86-64 GCC also builds an AVX2+FMA clone, picked at run time.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ROPELAB_SIMD_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define ROPELAB_SIMD_CLONES
#endif

namespace ropelab {

namespace {

using f32x8 = float __attribute__((vector_size(32)));
using f64x4 = double __attribute__((vector_size(32)));

constexpr int kLanes = 16;                   // two 8-float vectors
constexpr int kSteps = 256;                  // recurrence steps per lane and anchor
constexpr int kBlock = kLanes * kSteps;      // distances per exact anchor
static_assert(kLanes == 16, "the block loops below hold two f32x8 vectors of lanes");

f32x8 load8(const float* p) {
    f32x8 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}
void store8(float* p, f32x8 v) { __builtin_memcpy(p, &v, sizeof v); }

// Adds kSteps·kLanes consecutive values of a group of kGroup terms into out (lane l, step s →
// out[s·16 + l]). Each term's recurrence is a serial chain of dependent operations; advancing
// kGroup terms × two vectors together keeps six chains in flight. Three terms, not four: with
// four the twelve-plus-four live vectors no longer fit AVX2's sixteen registers, and the spills
// sat inside the chains (measured on Zen 3: 3.1 ms at 2^20 with four, 2.7 ms with three, 3.6
// with two). Odd steps weigh a folded group by −1.
constexpr int kGroup = 3;
static_assert(kSteps % 2 == 0, "steps go in even/odd pairs");

struct GroupStart {
    alignas(32) float y[kGroup][kLanes];
    alignas(32) float d[kGroup][kLanes];
    float lambda[kGroup];
    float alternate;  // shared by the group's terms (grouped_lane_terms sorts them so)
};

ROPELAB_SIMD_CLONES void accumulate_group(float* __restrict out, const GroupStart& g) {
    f32x8 y[kGroup][2], d[kGroup][2];
    auto group_sum = [&](int h) {
        f32x8 total = y[0][h];
        for (int t = 1; t < kGroup; ++t) total += y[t][h];
        return total;
    };
    for (int t = 0; t < kGroup; ++t) {
        for (int h = 0; h < 2; ++h) {
            y[t][h] = load8(&g.y[t][8 * h]);
            d[t][h] = load8(&g.d[t][8 * h]);
        }
    }
    auto advance = [&] {
        for (int t = 0; t < kGroup; ++t) {
            for (int h = 0; h < 2; ++h) {
                d[t][h] += g.lambda[t] * y[t][h];
                y[t][h] += d[t][h];
            }
        }
    };
    for (int s = 0; s < kSteps; s += 2) {
        float* even = out + s * kLanes;
        for (int h = 0; h < 2; ++h) {
            store8(even + 8 * h, load8(even + 8 * h) + group_sum(h));
        }
        advance();
        float* odd = even + kLanes;
        for (int h = 0; h < 2; ++h) {
            store8(odd + 8 * h, load8(odd + 8 * h) + g.alternate * group_sum(h));
        }
        advance();
    }
}

// a·b for finite numbers: std::complex's operator* also handles infinities and NaNs through a
// library call, several times slower, and every block of every term multiplies 17 times.
std::complex<double> times(std::complex<double> a, std::complex<double> b) {
    return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

struct LaneTerm {
    std::complex<double> coefficient;
    PhaseStep step;
    ReinschTerm stride_term;                             // steps kLanes distances at a time
    std::array<std::complex<double>, kLanes> lane_rotor;  // e^{i·l·θ}, l < kLanes
};

std::vector<LaneTerm> lane_terms(const PhasorSum& sum) {
    std::vector<LaneTerm> terms;
    for (std::size_t i = 0; i < sum.coefficient.size(); ++i) {
        LaneTerm t{sum.coefficient[i], sum.step[i],
                   reinsch_term(sum.coefficient[i], sum.step[i], sum.radians_per_step[i], kLanes),
                   {}};
        for (int l = 0; l < kLanes; ++l) t.lane_rotor[l] = rotor(phase_at(sum.step[i], l));
        terms.push_back(t);
    }
    return terms;
}

// Terms kGroup at a time, folded and unfolded terms in separate groups (so a group's odd
// steps are negated or not as a whole: one multiply per step instead of one per term); a group
// not filled is padded with zero terms, which stay zero.
std::vector<std::vector<LaneTerm>> grouped_lane_terms(const PhasorSum& sum) {
    std::vector<std::vector<LaneTerm>> groups;
    for (const float alternate : {1.0f, -1.0f}) {
        std::vector<LaneTerm> terms;
        for (const LaneTerm& t : lane_terms(sum)) {
            if (t.stride_term.alternate == alternate) terms.push_back(t);
        }
        for (std::size_t i = 0; i < terms.size(); i += kGroup) {
            std::vector<LaneTerm> group(terms.begin() + static_cast<std::ptrdiff_t>(i),
                                        terms.begin() + static_cast<std::ptrdiff_t>(std::min(i + kGroup, terms.size())));
            LaneTerm padding = group.front();
            padding.coefficient = 0.0;
            group.resize(kGroup, padding);
            groups.push_back(std::move(group));
        }
    }
    return groups;
}

// Blocks of out (its size a multiple of kBlock) hold the distances from `first` on.
void exact_scores(const PhasorSum& sum, std::int64_t first, std::span<float> out) {
    const auto groups = grouped_lane_terms(sum);
    const auto blocks = static_cast<std::int64_t>(out.size()) / kBlock;
    parallel_for(blocks, [&](std::int64_t from, std::int64_t to) {
        GroupStart start;
        for (std::int64_t b = from; b < to; ++b) {
            float* block = out.data() + b * kBlock;
            const std::int64_t anchor_at = first + b * kBlock;
            std::fill(block, block + kBlock, static_cast<float>(sum.constant));
            for (const auto& group : groups) {
                for (int g = 0; g < kGroup; ++g) {
                    const LaneTerm& t = group[static_cast<std::size_t>(g)];
                    const std::complex<double> anchor = times(t.coefficient, rotor(phase_at(t.step, anchor_at)));
                    for (int l = 0; l < kLanes; ++l) {
                        const std::complex<double> u = times(anchor, t.lane_rotor[l]);
                        start.y[g][l] = static_cast<float>(u.real());
                        start.d[g][l] = static_cast<float>(reinsch_d0(t.stride_term, u));
                    }
                    start.lambda[g] = t.stride_term.lambda;
                }
                start.alternate = group.front().stride_term.alternate;
                accumulate_group(block, start);
            }
        }
    });
}

// Every distance from fp32 angles as a model forms them; with minus_exact, each term less its
// exact value (and no constant): the naive mode's error.
template <class Out>
void naive_scores(const PhasorSum& sum, AngleMode mode, std::int64_t first, std::span<Out> out, bool minus_exact) {
    const std::int64_t m = sum.query_position;
    std::vector<std::complex<double>> query_rotor;  // q sits at m for every distance
    for (double w : sum.radians_per_step) query_rotor.push_back(naive_rotor(w, m, mode));
    const auto count = static_cast<std::int64_t>(out.size());
    parallel_for(count, [&](std::int64_t from, std::int64_t to) {
        for (std::int64_t j = from; j < to; ++j) {
            const std::int64_t delta = first + j;
            double total = minus_exact ? 0.0 : sum.constant;
            for (std::size_t i = 0; i < sum.coefficient.size(); ++i) {
                std::complex<double> rotor = query_rotor[i] * std::conj(naive_rotor(sum.radians_per_step[i], m - delta, mode));
                if (minus_exact) rotor -= ropelab::rotor(phase_at(sum.step[i], delta));
                total += (sum.coefficient[i] * rotor).real();
            }
            out[static_cast<std::size_t>(j)] = static_cast<Out>(total);
        }
    });
}

template <class Out>
std::vector<Out> mode_error(const PhasorSum& sum, std::int64_t count, AngleMode mode) {
    std::vector<Out> out(static_cast<std::size_t>(count));
    if (mode != AngleMode::Exact) naive_scores(sum, mode, 0, std::span<Out>(out), true);
    return out;
}

}  // namespace

std::vector<float> cpu_scores(const PhasorSum& sum, std::int64_t count, AngleMode mode) {
    // Whole blocks are computed; the tail past `count` is dropped.
    const std::int64_t unit = cpu_slice_unit(mode);
    std::vector<float> out(static_cast<std::size_t>((count + unit - 1) / unit * unit));
    cpu_scores_into(sum, 0, out, mode);
    out.resize(static_cast<std::size_t>(count));
    return out;
}

std::int64_t cpu_slice_unit(AngleMode mode) { return mode == AngleMode::Exact ? kBlock : 1; }

void cpu_scores_into(const PhasorSum& sum, std::int64_t first, std::span<float> out, AngleMode mode) {
    if (mode == AngleMode::Exact) {
        exact_scores(sum, first, out);
    } else {
        naive_scores(sum, mode, first, out, false);
    }
}

void cpu_mode_error_into(const PhasorSum& sum, std::int64_t first, std::span<float> out, AngleMode mode) {
    if (mode == AngleMode::Exact) {
        std::fill(out.begin(), out.end(), 0.0f);
    } else {
        naive_scores(sum, mode, first, out, true);
    }
}

std::vector<float> cpu_mode_error(const PhasorSum& sum, std::int64_t count, AngleMode mode) {
    return mode_error<float>(sum, count, mode);
}

std::vector<double> cpu_mode_error_f64(const PhasorSum& sum, std::int64_t count, AngleMode mode) {
    return mode_error<double>(sum, count, mode);
}

namespace {
// B(Δ) into floats (what the device series hold) or doubles (exports, the bound's tests).
template <class Out>
void decay_bound_into(const RopeFrequencies& freqs, std::int64_t first, std::span<Out> out) {
    constexpr int lanes = 4, steps = 256, block = lanes * steps;
    static_assert(block == kCpuBoundBlock);
    const int pairs = freqs.pairs();
    parallel_for(static_cast<std::int64_t>(out.size()) / block, [&](std::int64_t from,
                                                                        std::int64_t to) {
        std::vector<f64x4> sum_re(steps), sum_im(steps), total(steps);
        for (std::int64_t b = from; b < to; ++b) {
            std::fill(sum_re.begin(), sum_re.end(), f64x4{});
            std::fill(sum_im.begin(), sum_im.end(), f64x4{});
            std::fill(total.begin(), total.end(), f64x4{});
            for (int k = 0; k < pairs; ++k) {
                const PhaseStep step = freqs.phase_step[static_cast<std::size_t>(k)];
                f64x4 re, im;
                for (int l = 0; l < lanes; ++l) {
                    const auto z = rotor(phase_at(step, first + b * block + l));
                    re[l] = z.real();
                    im[l] = z.imag();
                }
                const auto w = rotor(phase_at(step, lanes));
                for (int s = 0; s < steps; ++s) {
                    sum_re[s] += re;
                    sum_im[s] += im;
                    const f64x4 r2 = sum_re[s] * sum_re[s] + sum_im[s] * sum_im[s];
                    for (int l = 0; l < lanes; ++l) total[s][l] += std::sqrt(r2[l]);
                    const f64x4 next_re = re * w.real() - im * w.imag();
                    im = re * w.imag() + im * w.real();
                    re = next_re;
                }
            }
            for (int s = 0; s < steps; ++s) {
                for (int l = 0; l < lanes; ++l) {
                    out[static_cast<std::size_t>(b * block + s * lanes + l)] =
                        static_cast<Out>(total[s][l] / pairs);
                }
            }
        }
    });
}

template <class Out>
std::vector<Out> decay_bound(const RopeFrequencies& freqs, std::int64_t count) {
    std::vector<Out> out(static_cast<std::size_t>((count + kCpuBoundBlock - 1) / kCpuBoundBlock * kCpuBoundBlock));
    decay_bound_into(freqs, 0, std::span<Out>(out));
    out.resize(static_cast<std::size_t>(count));
    return out;
}
}  // namespace

void cpu_decay_bound_into(const RopeFrequencies& freqs, std::int64_t first, std::span<float> out) {
    decay_bound_into(freqs, first, out);
}

std::vector<float> cpu_decay_bound(const RopeFrequencies& freqs, std::int64_t count) { return decay_bound<float>(freqs, count); }

std::vector<double> cpu_decay_bound_f64(const RopeFrequencies& freqs, std::int64_t count) {
    return decay_bound<double>(freqs, count);
}

std::vector<float> cpu_angle_heatmap(std::span<const PhaseStep> steps, std::int64_t first,
                                     std::int64_t stride, int rows) {
    std::vector<float> out;
    out.reserve(static_cast<std::size_t>(rows) * steps.size());
    for (int r = 0; r < rows; ++r) {
        for (PhaseStep step : steps) {
            out.push_back(static_cast<float>(phase_radians(phase_at(step, first + r * stride))));
        }
    }
    return out;
}

std::vector<float> cpu_angle_difference_heatmap(std::span<const PhaseStep> a, std::span<const PhaseStep> b,
                                                std::int64_t first, std::int64_t stride, int rows) {
    std::vector<float> out;
    out.reserve(static_cast<std::size_t>(rows) * a.size());
    for (int r = 0; r < rows; ++r) {
        const std::int64_t m = first + r * stride;
        for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
            out.push_back(static_cast<float>(phase_radians(phase_at(a[i], m) - phase_at(b[i], m))));
        }
    }
    return out;
}

}  // namespace ropelab
