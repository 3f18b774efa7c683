#pragma once
// The q and k vectors users pick: "ones", "random:SEED", "1,2,3,…" or "@FILE".
#include <cstdint>
#include <string_view>
#include <vector>

namespace ropelab {

// Parses a vector specification; the result has exactly `length` components.
// FILE holds a JSON array or whitespace-separated numbers. Throws InputError naming the
// problem (bad number, wrong length, unreadable file) and the offending text.
std::vector<double> parse_vector_spec(std::string_view spec, int length);

// Standard-normal components from a seed, identical on every platform and compiler
// (splitmix64 + Box–Muller; std::normal_distribution differs between standard libraries).
std::vector<double> random_vector(std::uint64_t seed, int length);

}  // namespace ropelab
