#pragma once
// Data export: every series a view plots, as drawn, with the parameters as a metadata block —
// CSV (metadata as "# key: value" lines, then a header row) or JSON.
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lab/lab_data.h"
#include "state/params.h"

namespace ropelab {

// The grid view's export writes every offset: at most this many rows (1x1024x1024 has 4.2 M).
inline constexpr std::int64_t kMaxGridExportRows = std::int64_t{1} << 24;

// An attention export writes every visible entry: up to 2048 tokens (about 2.1 million rows).
inline constexpr std::int64_t kMaxAttentionExportTokens = 2048;

struct DataTable {
    std::string view;
    std::vector<std::pair<std::string, std::string>> parameters;
    std::vector<std::string> columns;
    std::vector<std::vector<double>> values;  // one vector per column, equal lengths
};

// The series of one view. Score curves come from the CPU fast path, the same kernel and
// tolerance as the drawn curves.
DataTable view_data(View view, const LabParams& p, const LabData& d);

// Compare mode: every setting's table side by side (lab/compare.h). Each setting's columns are
// its own single export's, named "SLUG.column"; the index column (distance, pair, position) is
// shared where every setting has the same one. The settings are named in the parameters.
// `settings[i]` is setting i's data (compute_lab_data(setting_params(p, i))).
DataTable compared_view_data(View view, const LabParams& p, std::span<const LabData> settings);

// Columns may be shorter than the longest (settings with fewer pairs): CSV leaves their cells
// empty, JSON arrays end early.
// write_* stream to `out` through a small buffer (a table of 2^24 rows is never held as text);
// false when a write failed.
bool write_csv(std::FILE* out, const DataTable& t);
bool write_json(std::FILE* out, const DataTable& t);
std::string to_csv(const DataTable& t);
std::string to_json(const DataTable& t);

}  // namespace ropelab
