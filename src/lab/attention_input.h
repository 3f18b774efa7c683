#pragma once
// The attention view's input from the lab's state: the token layout's ids under the chosen rule,
// and q and k per token as the state's token_vectors makes them.
#include <string>

#include "core/attention.h"
#include "state/params.h"

namespace ropelab::lab {

// For setting `model` (the base's or a compared one's). Throws InputError naming the field (the
// layout, a vector file) when the state cannot give T tokens' vectors. File: attention.q_file and
// attention.k_file ("" = the queries' array) are T × head_dim arrays (core/array_file.h) in the
// model's head order, T the layout's token count.
AttentionInput attention_input(const LabParams& p, const ModelConfig& model);

// The vectors of token n for Random and Needle, reproducible from the seed:
//   q_n = √s·u + √(1 − s)·r_n,   k_n likewise with its own r′_n   (u shared by every token)
// with s = shared_part. Needle: every key is k_n as above except k_needle = q_last, the last
// token's query, so the last row finds it wherever it is.
TokenQK token_vectors(const LabParams& p, int head_dim, int rotary_dim, std::int64_t tokens);

}  // namespace ropelab::lab
