#include "lab/attention_input.h"

#include <cmath>
#include <cstdint>
#include <tuple>

#include "core/error.h"
#include "core/vector_spec.h"
#include "lab/lab_data.h"
#include "lab/token_positions.h"

namespace ropelab::lab {

namespace {

// Distinct streams for the shared part, the queries and the keys (splitmix64 seeds).
constexpr std::uint64_t kSharedStream = 0x5eed0001, kQueryStream = 0x5eed1000, kKeyStream = 0x5eed2000;

std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t stream, std::int64_t token) {
    return seed * 0x9E3779B97F4A7C15ull + stream + static_cast<std::uint64_t>(token) * 0x100000001B3ull;
}

// √s·shared + √(1 − s)·own, written into row n of `out`.
void mix_row(const std::vector<double>& shared, const std::vector<double>& own, double s, std::vector<double>& out,
             std::int64_t n) {
    const double a = std::sqrt(s), b = std::sqrt(1.0 - s);
    const auto d = shared.size();
    for (std::size_t c = 0; c < d; ++c) out[static_cast<std::size_t>(n) * d + c] = a * shared[c] + b * own[c];
}

}  // namespace

TokenQK token_vectors(const LabParams& p, int head_dim, int rotary_dim, std::int64_t tokens) {
    TokenQK qk;
    qk.head_dim = head_dim;
    if (p.token_vectors == TokenVectors::Same) {
        qk.same = true;
        std::tie(qk.q, qk.k) = lab_vectors(p, head_dim, rotary_dim);
        return qk;
    }
    const auto cells = static_cast<std::size_t>(tokens) * static_cast<std::size_t>(head_dim);
    qk.q.resize(cells);
    qk.k.resize(cells);
    const std::vector<double> shared = random_vector(stream_seed(p.seed, kSharedStream, 0), head_dim);
    for (std::int64_t n = 0; n < tokens; ++n) {
        mix_row(shared, random_vector(stream_seed(p.seed, kQueryStream, n), head_dim), p.shared_part, qk.q, n);
        mix_row(shared, random_vector(stream_seed(p.seed, kKeyStream, n), head_dim), p.shared_part, qk.k, n);
    }
    if (p.token_vectors == TokenVectors::Needle && p.needle < tokens) {
        const auto d = static_cast<std::size_t>(head_dim);
        const auto last = static_cast<std::size_t>(tokens - 1) * d, needle = static_cast<std::size_t>(p.needle) * d;
        for (std::size_t c = 0; c < d; ++c) qk.k[needle + c] = qk.q[last + c];
    }
    return qk;
}

AttentionInput attention_input(const LabParams& p, const ModelConfig& model) {
    AttentionInput in;
    in.model = model;
    const TokenPositions positions = compute_token_positions(p.tokens, p.position_rule, model.multi_axis);
    if (!positions.error.empty()) throw InputError("images.tokens: " + positions.error);
    in.ids = positions.ids;
    const std::int64_t t = in.tokens();
    if (t > kMaxAttentionTokens) {
        throw InputError("images.tokens: \"" + p.tokens + "\" has " + std::to_string(t) + " tokens; the attention view takes at most " +
                         std::to_string(kMaxAttentionTokens));
    }
    if (p.token_vectors == TokenVectors::Needle && p.needle >= t) {
        throw InputError("attention.needle: token " + std::to_string(p.needle) + " is past the layout's " + std::to_string(t) + " tokens");
    }
    if (p.token_vectors == TokenVectors::File) {
        throw InputError("attention.vectors: file vectors are not read yet");
    }
    in.qk = token_vectors(p, model.head_dim, rotary_dim(model), t);
    check_attention_input(in, "attention");
    return in;
}

}  // namespace ropelab::lab
