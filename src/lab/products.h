#pragma once
// What the lab computes on the device for the views to draw: M4 columns of the series a plot
// shows, decimated for its pixel columns, and single samples read back under the pointer. A view
// asks through Requests while drawing; the lab computes in its next update, so a view draws
// what it asked for one frame later (offscreen renders draw that frame before reading pixels).
#include <compare>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/m4.h"
#include "core/compute_device.h"

namespace ropelab::lab {

// The series a plot draws, each with its column boundaries (in its own samples: compare mode's
// curves may be at different strides while they are refined).
using SeriesColumns = std::vector<std::pair<Series, std::vector<std::uint32_t>>>;

// One plot's columns, kept while neither the series nor the plot's pixel columns change: a
// paused or merely animating score plot then costs no device round trip.
struct Columns {
    int version = -1;  // LabCompute::series_version() they were decimated from
    SeriesColumns series;
    std::vector<M4Column> columns[kSeriesCount];  // the series not asked for stay empty
    const std::vector<M4Column>& operator[](Series s) const { return columns[static_cast<int>(s)]; }
    // The column boundaries a series was decimated with (empty if it was not asked for): where
    // the hover finds the sample under the pointer.
    const std::vector<std::uint32_t>& bounds(Series s) const {
        static const std::vector<std::uint32_t> none;
        for (const auto& [series, b] : this->series) {
            if (series == s) return b;
        }
        return none;
    }
};

// One value of a device series, at a sample index.
struct Sample {
    Series series;
    std::int64_t index;
    auto operator<=>(const Sample&) const = default;
};

}  // namespace ropelab::lab
