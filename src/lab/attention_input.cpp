#include "lab/attention_input.h"

#include <cmath>
#include <cstdint>
#include <string_view>
#include <tuple>

#include <fmt/format.h>

#include "core/array_file.h"
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

// The file's T × d array in the lab's component order: T must be the layout's token count and d
// the head dim; each row goes through rotary_part_first like the lab's own vectors.
std::vector<double> file_vectors(const std::string& path, std::string_view field, const ModelConfig& model, std::int64_t tokens,
                                 const std::string& layout) {
    const NumberArray a = read_array_file(path, field);
    if (a.cols != model.head_dim) {
        throw InputError(fmt::format("{}: {}: rows of {} numbers; the head has head_dim = {} components", field, path, a.cols,
                                     model.head_dim));
    }
    if (a.rows != tokens) {
        throw InputError(fmt::format("{}: {}: {} rows; the token layout images.tokens \"{}\" has {} tokens (one row per token)",
                                     field, path, a.rows, layout, tokens));
    }
    std::vector<double> out;
    out.reserve(a.values.size());
    const int rotary = rotary_dim(model);
    for (std::int64_t n = 0; n < a.rows; ++n) {
        std::vector<double> row = rotary_part_first(std::vector<double>(a.row(n), a.row(n) + a.cols), model.rotary_offset, rotary);
        if (model.negative_rotation) row = swap_pair_components(std::move(row), rotary, model.layout);  // nanochat's −θ as +θ
        out.insert(out.end(), row.begin(), row.end());
    }
    return out;
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

AttentionInputKey attention_input_key(const LabParams& p, const ModelConfig& model) {
    AttentionInputKey key;
    key.model = model;
    key.tokens = p.tokens;
    key.rule = p.position_rule;
    key.vectors = p.token_vectors;
    switch (p.token_vectors) {
        case TokenVectors::Same:
            try {
                std::tie(key.q, key.k) = lab_vectors(p, model.head_dim, rotary_dim(model));
            } catch (const InputError&) {
                // The curves panel reports a bad custom vector; attention_input says it again.
            }
            break;
        case TokenVectors::Random:
        case TokenVectors::Needle:
            key.seed = p.seed;
            key.shared_part = p.shared_part;
            key.needle = p.token_vectors == TokenVectors::Needle ? p.needle : 0;
            break;
        case TokenVectors::File:
            key.q_file = p.q_file;
            key.k_file = p.k_file;
            break;
    }
    return key;
}

namespace {

// The layout's ids and the checks that need no vectors: the token count, the needle, a file named.
AttentionInput attention_layout(const LabParams& p, const ModelConfig& model) {
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
    if (p.token_vectors == TokenVectors::File && p.q_file.empty()) {
        throw InputError("attention.q_file: \"\": file vectors need the queries' file (T × d: .npy, JSON or text; --q-file)");
    }
    return in;
}

}  // namespace

AttentionInput attention_input(const LabParams& p, const ModelConfig& model) {
    AttentionInput in = attention_layout(p, model);
    const std::int64_t t = in.tokens();
    if (p.token_vectors == TokenVectors::File) {
        in.qk.head_dim = model.head_dim;
        in.qk.q = file_vectors(p.q_file, "attention.q_file", model, t, p.tokens);
        // No keys' file: the keys are the queries' array.
        in.qk.k = p.k_file.empty() ? in.qk.q : file_vectors(p.k_file, "attention.k_file", model, t, p.tokens);
    } else {
        in.qk = token_vectors(p, model.head_dim, rotary_dim(model), t);
    }
    check_attention_input(in, "attention");
    return in;
}

void check_attention_state(const LabParams& p, const ModelConfig& model) {
    // Random and needle vectors are made from the seed and cannot be wrong; files are read and
    // checked whole (their shape, every number), as the view and the export read them.
    if (p.token_vectors == TokenVectors::File) {
        (void)attention_input(p, model);
    } else {
        (void)attention_layout(p, model);
    }
}

}  // namespace ropelab::lab
