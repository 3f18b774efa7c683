#pragma once
// M4 decimation (Jugel et al. 2014): for each pixel column keep the first, last, smallest and
// largest value of the samples that fall in it. Drawing those four per column reproduces the
// full-resolution line exactly at that width, so a 2^20-point curve costs about 2·width vertices.
#include <cstdint>
#include <span>
#include <vector>

namespace ropelab {

struct M4Column {
    float first, last, min, max;  // an empty column has min > max (+inf, −inf)
    bool empty() const { return min > max; }
};

// Column c covers samples [boundaries[c], boundaries[c+1]); boundaries.size() = columns + 1.
std::vector<M4Column> m4_decimate(std::span<const float> series,
                                  std::span<const std::uint32_t> boundaries);

// Each column split into `parts` nearly equal sub-columns (for decimating in pieces).
std::vector<std::uint32_t> m4_split_boundaries(std::span<const std::uint32_t> boundaries,
                                               std::uint32_t parts);

// Merges every `parts` consecutive columns into one (the inverse of m4_split_boundaries).
std::vector<M4Column> m4_merge(std::span<const M4Column> fine, std::uint32_t parts);

// Evenly spaced boundaries over samples [begin, end).
std::vector<std::uint32_t> m4_linear_boundaries(std::uint32_t begin, std::uint32_t end,
                                                int columns);

}  // namespace ropelab
