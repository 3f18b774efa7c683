#pragma once
// Tabular results of the command-line interface, written as CSV (header row, one row per index)
// or JSON (named arrays plus scalars). Numbers print with round-trip precision (%.17g).
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace ropelab {

struct OutputTable {
    std::string index_name;  // first CSV column: pair, distance, position
    std::int64_t index_start = 0;
    std::vector<std::pair<std::string, std::vector<double>>> columns;  // a shorter one leaves its CSV cells empty
    // JSON only, already encoded (see exact_number in core/number_text.h, json_string).
    std::vector<std::pair<std::string, std::string>> json_scalars;
    // Text columns after the numbers (freqs' axis letters): CSV cells as they are, JSON arrays of strings.
    std::vector<std::pair<std::string, std::vector<std::string>>> text_columns = {};
};

std::string json_string(const std::string& value);

void write_csv(std::FILE* out, const OutputTable& table);
void write_json(std::FILE* out, const OutputTable& table);

}  // namespace ropelab
