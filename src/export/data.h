#pragma once
// Data export: every series a view plots, as drawn, with the parameters as a metadata block —
// CSV (metadata as "# key: value" lines, then a header row) or JSON.
#include <cstdint>
#include <cstdio>
#include <functional>
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
    std::vector<std::vector<double>> values;  // one vector per column, equal lengths (or computed)
    // A table too long to hold (the score view: up to 2^24 distances × six columns, 800 MB as
    // doubles) computes its values a block of rows at a time as they are written: it has
    // `computed_rows` rows and `values` is empty; compute(first, count, out) writes column c's
    // rows first .. first + count − 1 to out[c][0 .. count) for each c whose out[c] is not null.
    // It runs on several threads at once (different blocks) and must not call parallel_for.
    std::int64_t computed_rows = 0;
    std::function<void(std::int64_t first, std::int64_t count, std::span<double* const> out)> compute;
};

// The series of one view, in float64 (the "precision" parameter says how each was computed).
// Score curves are the exact reference (core/recurrence.h: exact phases, float64 rotation),
// computed block by block as they are written, never the float32 fast path the plots draw.
DataTable view_data(View view, const LabParams& p, const LabData& d);

// Every computed value of t into t.values (compare mode; callers that read the numbers).
void hold_values(DataTable& t);

// Compare mode: every setting's table side by side (lab/compare.h). Each setting's columns are
// its own single export's, named "SLUG.column"; the index column (distance, pair, position) is
// shared where every setting has the same one. The settings are named in the parameters.
// `settings[i]` is setting i's data (compute_lab_data(setting_params(p, i))).
DataTable compared_view_data(View view, const LabParams& p, std::span<const LabData> settings);

// Columns may be shorter than the longest (settings with fewer pairs): CSV leaves their cells
// empty, JSON arrays end early.
// write_* stream to `out`: blocks of rows formatted in parallel (std::to_chars, shortest round
// trip) into buffers written in large blocks while the next ones are formatted, so a table of
// 2^24 rows is never held as text; false when a write failed.
bool write_csv(std::FILE* out, const DataTable& t);
bool write_json(std::FILE* out, const DataTable& t);
std::string to_csv(const DataTable& t);
std::string to_json(const DataTable& t);

// Data exports need no rendering: the view's series from the lab's data, written atomically.
// Returns an empty string or the reason it failed.
std::string export_view_data(const std::string& path, int view, const LabParams& params, const LabData& data);

}  // namespace ropelab
