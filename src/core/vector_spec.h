#pragma once
// The q and k vectors users pick: "ones", "random:SEED", "1,2,3,…" or "@FILE".
#include <cstdint>
#include <string_view>
#include <vector>

namespace ropelab {

// Parses a vector specification; the result has exactly `length` components.
// FILE holds a JSON array, or numbers separated by whitespace and/or single commas. Throws InputError naming the
// problem (bad number, wrong length, unreadable file) and the offending text.
std::vector<double> parse_vector_spec(std::string_view spec, int length);

// Components above this size are refused: q·k over 512 of them must stay finite and exact
// enough in the float32 GPU core (1e9² × 512 ≈ 5e20, far below float's 3e38).
inline constexpr double kMaxComponent = 1e9;

// A vector for the whole head with its rotary part moved to the front, where the lab keeps
// it: DeepSeek's [nope | rope] heads (rotary_offset > 0) become [rope | nope]. The score does
// not change: the pass-through part only enters through its dot product.
std::vector<double> rotary_part_first(std::vector<double> head, int rotary_offset, int rotary_dim);

// Standard-normal components from a seed, identical on every platform and compiler
// (splitmix64 + Box–Muller; std::normal_distribution differs between standard libraries).
std::vector<double> random_vector(std::uint64_t seed, int length);

}  // namespace ropelab
