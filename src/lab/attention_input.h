#pragma once
// The attention view's input from the lab's state: the token layout's ids under the chosen rule,
// and q and k per token as the state's token_vectors makes them.
#include <cstdint>
#include <string>
#include <vector>

#include "core/attention.h"
#include "state/params.h"

namespace ropelab::lab {

// For setting `model` (the base's or a compared one's). Throws InputError naming the field (the
// layout, a vector file) when the state cannot give T tokens' vectors. File: attention.q_file and
// attention.k_file ("" = the queries' array) are T × head_dim arrays (core/array_file.h) in the
// model's head order, T the layout's token count.
AttentionInput attention_input(const LabParams& p, const ModelConfig& model);

// What attention_input would refuse for this state, without making random vectors (a file's
// vectors are read and checked): throws its InputError. `render --view attention` asks this
// before drawing, so that it refuses what `export-data --view attention` refuses, in the same words.
void check_attention_state(const LabParams& p, const ModelConfig& model);

// Every field of the state attention_input reads, for setting `model`: equal keys make equal
// inputs, so the attention product recomputes only when one of these changed. Kept beside
// attention_input so that a field it starts reading is added here in the same place.
struct AttentionInputKey {
    ModelConfig model;
    std::string tokens;
    PositionRule rule = PositionRule::Release;
    TokenVectors vectors = TokenVectors::Same;
    std::vector<double> q, k;  // Same: the lab's q and k (empty when they are invalid)
    std::uint64_t seed = 0;    // Random, Needle
    double shared_part = 0;
    std::int64_t needle = 0;
    std::string q_file, k_file;  // File
    bool operator==(const AttentionInputKey&) const = default;
};
AttentionInputKey attention_input_key(const LabParams& p, const ModelConfig& model);

// The vectors of token n for Random and Needle, reproducible from the seed:
//   q_n = √s·u + √(1 − s)·r_n,   k_n likewise with its own r′_n   (u shared by every token)
// with s = shared_part. Needle: every key is k_n as above except k_needle = q_last, the last
// token's query, so the last row finds it wherever it is.
TokenQK token_vectors(const LabParams& p, int head_dim, int rotary_dim, std::int64_t tokens);

}  // namespace ropelab::lab
