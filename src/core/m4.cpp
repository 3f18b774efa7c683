#include "core/m4.h"

#include <algorithm>
#include <limits>

namespace ropelab {

std::vector<M4Column> m4_decimate(std::span<const float> series,
                                  std::span<const std::uint32_t> boundaries) {
    constexpr float inf = std::numeric_limits<float>::infinity();
    std::vector<M4Column> out;
    for (std::size_t c = 0; c + 1 < boundaries.size(); ++c) {
        const std::size_t begin = std::min<std::size_t>(boundaries[c], series.size());
        const std::size_t end = std::min<std::size_t>(boundaries[c + 1], series.size());
        M4Column col{0, 0, inf, -inf};
        if (begin < end) {
            col.first = series[begin];
            col.last = series[end - 1];
            for (std::size_t i = begin; i < end; ++i) {
                col.min = std::min(col.min, series[i]);
                col.max = std::max(col.max, series[i]);
            }
        }
        out.push_back(col);
    }
    return out;
}

std::vector<std::uint32_t> m4_split_boundaries(std::span<const std::uint32_t> boundaries,
                                               std::uint32_t parts) {
    std::vector<std::uint32_t> out;
    for (std::size_t c = 0; c + 1 < boundaries.size(); ++c) {
        const auto column = m4_linear_boundaries(boundaries[c], boundaries[c + 1],
                                                 static_cast<int>(parts));
        out.insert(out.end(), column.begin(), column.end() - 1);
    }
    if (!boundaries.empty()) out.push_back(boundaries.back());
    return out;
}

std::vector<M4Column> m4_merge(std::span<const M4Column> fine, std::uint32_t parts) {
    constexpr float inf = std::numeric_limits<float>::infinity();
    std::vector<M4Column> out;
    for (std::size_t start = 0; start < fine.size(); start += parts) {
        M4Column merged{0, 0, inf, -inf};
        bool seen = false;
        for (std::size_t i = start; i < std::min<std::size_t>(start + parts, fine.size()); ++i) {
            if (fine[i].empty()) continue;
            if (!seen) merged.first = fine[i].first;
            seen = true;
            merged.last = fine[i].last;
            merged.min = std::min(merged.min, fine[i].min);
            merged.max = std::max(merged.max, fine[i].max);
        }
        out.push_back(merged);
    }
    return out;
}

std::vector<std::uint32_t> m4_linear_boundaries(std::uint32_t begin, std::uint32_t end,
                                                int columns) {
    std::vector<std::uint32_t> out;
    const std::uint64_t span = end - begin;
    for (int c = 0; c <= columns; ++c) {
        out.push_back(begin + static_cast<std::uint32_t>(span * static_cast<std::uint64_t>(c) /
                                                         static_cast<std::uint64_t>(columns)));
    }
    return out;
}

}  // namespace ropelab
