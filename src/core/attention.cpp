#include "core/attention.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

#include <fmt/format.h>

#include "core/error.h"
#include "core/rotation.h"

namespace ropelab {

bool attends(const LayerAttention& layer, std::int64_t m, std::int64_t n) {
    return n <= m && n >= first_visible_key(layer, m);
}

std::int64_t first_visible_key(const LayerAttention& layer, std::int64_t m) {
    std::int64_t first = 0;
    if (layer.sliding_window > 0) first = std::max(first, m - layer.sliding_window + 1);
    if (layer.attention_chunk > 0) first = std::max(first, m - m % layer.attention_chunk);
    return first;
}

double query_temperature(const LayerAttention& layer, std::int64_t m) {
    if (layer.rope || !layer.temperature_tuning) return 1.0;
    return 1.0 + layer.attn_scale * std::log1p(std::floor(static_cast<double>(m + 1) / layer.floor_scale));
}

double logit_scale(const ModelConfig& model) {
    const double s = model.query_pre_attn_scalar > 0 ? model.query_pre_attn_scalar : static_cast<double>(model.head_dim);
    return 1.0 / std::sqrt(s);
}

void check_attention_input(const AttentionInput& input, const std::string& what) {
    const std::int64_t t = input.tokens();
    if (t < 1 || t > kMaxAttentionTokens) {
        throw InputError(fmt::format("{}: {} tokens; attention takes 1 .. {}", what, t, kMaxAttentionTokens));
    }
    const TokenQK& qk = input.qk;
    if (qk.head_dim != input.model.head_dim) {
        throw InputError(fmt::format("{}: vectors of {} components; the head has {}", what, qk.head_dim, input.model.head_dim));
    }
    const auto rows = static_cast<std::size_t>(qk.same ? 1 : t);
    const auto wanted = rows * static_cast<std::size_t>(qk.head_dim);
    if (qk.q.size() != wanted || qk.k.size() != wanted) {
        throw InputError(fmt::format("{}: q has {} and k {} numbers; {} tokens × {} components need {}", what, qk.q.size(),
                                     qk.k.size(), rows, qk.head_dim, wanted));
    }
    for (const std::vector<double>* v : {&qk.q, &qk.k}) {
        for (std::size_t i = 0; i < v->size(); ++i) {
            if (!std::isfinite((*v)[i]) || std::abs((*v)[i]) > 1e9) {
                throw InputError(fmt::format("{}: {} token {} component {} = {} is not a finite number within ±1e9", what,
                                             v == &qk.q ? "q" : "k", i / static_cast<std::size_t>(qk.head_dim),
                                             i % static_cast<std::size_t>(qk.head_dim), (*v)[i]));
            }
        }
    }
}

namespace {

// Token n's rotor for every pair: exact phases for a 1-D model, ω_j·(t, h, w) for multi-axis.
void token_rotors(const RopeFrequencies& freqs, const std::vector<AxisVector>& omega, const TokenIds& ids, std::int64_t n,
                  std::vector<std::complex<double>>& out) {
    const auto i = static_cast<std::size_t>(n);
    for (int j = 0; j < freqs.pairs(); ++j) {
        if (omega.empty()) {
            out[static_cast<std::size_t>(j)] = pair_rotor(freqs, j, ids.t[i]);
        } else {
            const AxisVector id{static_cast<double>(ids.t[i]), static_cast<double>(ids.h[i]), static_cast<double>(ids.w[i])};
            out[static_cast<std::size_t>(j)] = std::polar(1.0, axis_angle(omega[static_cast<std::size_t>(j)], id));
        }
    }
}

// Rotors along consecutive positions: exact (pair_rotor) every kAnchor positions, and between
// anchors the previous rotor times e^{iω_j}, a complex product instead of a sine and a cosine.
// Over kAnchor − 1 products the rounding drifts by a few 1e-15, far below the 1e-9 the
// reference is held to; preparing 2^16 tokens of a 128-dim head takes ~4× less time.
constexpr std::int64_t kAnchor = 32;

std::vector<std::complex<double>> unit_steps(const RopeFrequencies& freqs) {
    std::vector<std::complex<double>> step(static_cast<std::size_t>(freqs.pairs()));
    for (int j = 0; j < freqs.pairs(); ++j) step[static_cast<std::size_t>(j)] = pair_rotor(freqs, j, 1);
    return step;
}

void advance(std::vector<std::complex<double>>& rotor, const std::vector<std::complex<double>>& step) {
    for (std::size_t j = 0; j < rotor.size(); ++j) rotor[j] *= step[j];
}

bool counts_one_up(const TokenIds& ids) {
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (ids.t[i] != static_cast<std::int64_t>(i)) return false;
    }
    return true;
}

}  // namespace

AttentionRows::AttentionRows(const AttentionInput& input)
    : tokens_(input.tokens()), layer_(input.model.attention), scale_(logit_scale(input.model)), same_(input.qk.same) {
    check_attention_input(input, "attention");
    const RopeFrequencies freqs = compute_frequencies(input.model);
    const bool multi = is_multi_axis(input.model);
    toeplitz_ = same_ && !multi && counts_one_up(input.ids);
    if (toeplitz_) {
        // score(Δ) = Re Σ c_j e^{iΔω_j} + pass (core/scores.h) for q·k below the diagonal and k·q
        // above it, both from one walk over Δ.
        const std::span<const double> q(input.qk.q), k(input.qk.k);
        const ScoreCoefficients below = score_coefficients(q, k, freqs), above = score_coefficients(k, q, freqs);
        const std::vector<std::complex<double>> step = unit_steps(freqs);
        std::vector<std::complex<double>> rotor(step.size());
        ahead_.resize(static_cast<std::size_t>(tokens_));
        behind_.resize(static_cast<std::size_t>(tokens_));
        for (std::int64_t delta = 0; delta < tokens_; ++delta) {
            if (delta % kAnchor == 0) {
                for (int j = 0; j < freqs.pairs(); ++j) rotor[static_cast<std::size_t>(j)] = pair_rotor(freqs, j, delta);
            } else {
                advance(rotor, step);
            }
            double a = below.passthrough, b = above.passthrough;
            for (std::size_t j = 0; j < rotor.size(); ++j) {
                a += (below.pair[j] * rotor[j]).real();
                b += (above.pair[j] * rotor[j]).real();
            }
            ahead_[static_cast<std::size_t>(delta)] = a;
            behind_[static_cast<std::size_t>(delta)] = b;
        }
        return;
    }
    const std::vector<AxisVector> omega = multi ? pair_frequency_vectors(input.model, freqs) : std::vector<AxisVector>{};
    pairs_ = freqs.pairs();
    pass_ = freqs.head_dim - freqs.rotary_dim;
    const double af2 = freqs.attention_factor * freqs.attention_factor;
    const auto t = static_cast<std::size_t>(tokens_), p = static_cast<std::size_t>(pairs_);
    q_rot_.resize(t * p);
    k_rot_.resize(t * p);
    q_pass_.resize(t * static_cast<std::size_t>(pass_));
    k_pass_.resize(t * static_cast<std::size_t>(pass_));
    std::vector<std::complex<double>> rotor(p);
    const std::vector<std::complex<double>> step = unit_steps(freqs);
    // Each pair's two components in the head (interleaved or half layout), looked up once.
    std::vector<std::pair<std::size_t, std::size_t>> at_pair(p);
    for (int j = 0; j < pairs_; ++j) {
        const auto [a, b] = pair_components(j, freqs.rotary_dim, freqs.layout);
        at_pair[static_cast<std::size_t>(j)] = {static_cast<std::size_t>(a), static_cast<std::size_t>(b)};
    }
    for (std::int64_t n = 0; n < tokens_; ++n) {
        const auto i = static_cast<std::size_t>(n);
        const bool next_position = !multi && n % kAnchor != 0 && input.ids.t[i] == input.ids.t[i - 1] + 1;
        if (next_position) {
            advance(rotor, step);
        } else {
            token_rotors(freqs, omega, input.ids, n, rotor);
        }
        const std::span<const double> q(input.qk.q_row(n), static_cast<std::size_t>(freqs.head_dim));
        const std::span<const double> k(input.qk.k_row(n), static_cast<std::size_t>(freqs.head_dim));
        const auto at = static_cast<std::size_t>(n) * p;
        for (std::size_t j = 0; j < p; ++j) {
            const auto [a, b] = at_pair[j];
            q_rot_[at + j] = std::complex<double>(q[a], q[b]) * rotor[j];
            k_rot_[at + j] = af2 * std::conj(std::complex<double>(k[a], k[b]) * rotor[j]);
        }
        for (int c = 0; c < pass_; ++c) {
            q_pass_[static_cast<std::size_t>(n * pass_ + c)] = q[static_cast<std::size_t>(freqs.rotary_dim + c)];
            k_pass_[static_cast<std::size_t>(n * pass_ + c)] = k[static_cast<std::size_t>(freqs.rotary_dim + c)];
        }
    }
}

double AttentionRows::row_sum(std::int64_t m, std::int64_t n) const {
    const auto p = static_cast<std::size_t>(pairs_);
    const std::complex<double>* q = q_rot_.data() + static_cast<std::size_t>(m) * p;
    const std::complex<double>* k = k_rot_.data() + static_cast<std::size_t>(n) * p;
    double re = 0.0;
    for (std::size_t j = 0; j < p; ++j) re += q[j].real() * k[j].real() - q[j].imag() * k[j].imag();
    for (int c = 0; c < pass_; ++c) re += q_pass_[static_cast<std::size_t>(m * pass_ + c)] * k_pass_[static_cast<std::size_t>(n * pass_ + c)];
    return re;
}

void AttentionRows::logits(std::int64_t m, std::int64_t from, std::int64_t to, double* out) const {
    const double s = scale_ * query_temperature(layer_, m);
    for (std::int64_t n = from; n < to; ++n) {
        double v = 0.0;
        if (toeplitz_) {
            v = m >= n ? ahead_[static_cast<std::size_t>(m - n)] : behind_[static_cast<std::size_t>(n - m)];
        } else {
            v = row_sum(m, n);
        }
        out[n - from] = s * v;
    }
}

double AttentionRows::logit(std::int64_t m, std::int64_t n) const {
    double v = 0.0;
    logits(m, n, n + 1, &v);
    return v;
}

std::vector<double> softmax_row(const LayerAttention& layer, std::int64_t m, const std::vector<double>& logits) {
    std::vector<double> w(logits.size(), 0.0);
    const std::int64_t first = first_visible_key(layer, m);
    double top = -std::numeric_limits<double>::infinity();
    for (std::int64_t n = first; n <= m; ++n) top = std::max(top, logits[static_cast<std::size_t>(n)]);
    double sum = 0.0;
    for (std::int64_t n = first; n <= m; ++n) {
        w[static_cast<std::size_t>(n)] = std::exp(logits[static_cast<std::size_t>(n)] - top);
        sum += w[static_cast<std::size_t>(n)];
    }
    for (std::int64_t n = first; n <= m; ++n) w[static_cast<std::size_t>(n)] /= sum;
    return w;
}

RowReadout row_readout(const LayerAttention& layer, std::int64_t m, const std::vector<double>& weights, std::int64_t within) {
    RowReadout r;
    const std::int64_t first = first_visible_key(layer, m);
    r.visible = m - first + 1;
    for (std::int64_t n = first; n <= m; ++n) {
        const double w = weights[static_cast<std::size_t>(n)];
        if (m - n < within) r.mass_within += w;
        r.mean_distance += w * static_cast<double>(m - n);
        if (w > 0.0) r.entropy -= w * std::log(w);
    }
    return r;
}

AttentionMatrix attention_reference(const AttentionInput& input) {
    check_attention_input(input, "attention");
    const RopeFrequencies freqs = compute_frequencies(input.model);
    const bool multi = is_multi_axis(input.model);
    const std::vector<AxisVector> omega = multi ? pair_frequency_vectors(input.model, freqs) : std::vector<AxisVector>{};
    const std::int64_t t = input.tokens();
    const auto head = static_cast<std::size_t>(input.model.head_dim);
    // Each vector rotated for real: pair j of R x is af · rotor_j · x_j, the rest passes through.
    const auto rotated = [&](const double* x, std::int64_t n) {
        std::vector<double> v(x, x + head);
        std::vector<std::complex<double>> rotor(static_cast<std::size_t>(freqs.pairs()));
        token_rotors(freqs, omega, input.ids, n, rotor);
        for (int j = 0; j < freqs.pairs(); ++j) {
            const auto [a, b] = pair_components(j, freqs.rotary_dim, freqs.layout);
            const std::complex<double> z = freqs.attention_factor * rotor[static_cast<std::size_t>(j)] *
                                           std::complex<double>(x[a], x[b]);
            v[static_cast<std::size_t>(a)] = z.real();
            v[static_cast<std::size_t>(b)] = z.imag();
        }
        return v;
    };
    std::vector<std::vector<double>> q(static_cast<std::size_t>(t)), k(static_cast<std::size_t>(t));
    for (std::int64_t n = 0; n < t; ++n) {
        q[static_cast<std::size_t>(n)] = rotated(input.qk.q_row(n), n);
        k[static_cast<std::size_t>(n)] = rotated(input.qk.k_row(n), n);
    }
    AttentionMatrix out;
    out.tokens = t;
    const auto cells = static_cast<std::size_t>(t * t);
    out.logits.resize(cells);
    out.weights.assign(cells, 0.0);
    out.visible.assign(cells, 0);
    const LayerAttention& layer = input.model.attention;
    for (std::int64_t m = 0; m < t; ++m) {
        const double s = logit_scale(input.model) * query_temperature(layer, m);
        double top = -std::numeric_limits<double>::infinity();
        for (std::int64_t n = 0; n < t; ++n) {
            const auto at = static_cast<std::size_t>(m * t + n);
            out.logits[at] = s * dot(q[static_cast<std::size_t>(m)], k[static_cast<std::size_t>(n)]);
            // The mask written out from its definition, not from first_visible_key.
            bool seen = n <= m;
            if (layer.sliding_window > 0) seen = seen && m - n < layer.sliding_window;
            if (layer.attention_chunk > 0) seen = seen && m / layer.attention_chunk == n / layer.attention_chunk;
            out.visible[at] = seen;
            if (seen) top = std::max(top, out.logits[at]);
        }
        double sum = 0.0;
        for (std::int64_t n = 0; n < t; ++n) {
            const auto at = static_cast<std::size_t>(m * t + n);
            if (out.visible[at]) sum += out.weights[at] = std::exp(out.logits[at] - top);
        }
        for (std::int64_t n = 0; n < t; ++n) out.weights[static_cast<std::size_t>(m * t + n)] /= sum;
    }
    return out;
}

}  // namespace ropelab
