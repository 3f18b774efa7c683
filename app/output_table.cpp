#include "output_table.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/number_text.h"

namespace ropelab {

namespace {
void print_number(std::FILE* out, double value) { std::fputs(exact_number(value).c_str(), out); }
}  // namespace

std::string json_string(const std::string& value) {
    std::string out = "\"";
    for (char c : value) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            out += fmt::format("\\u{:04x}", static_cast<int>(c));
        } else {
            out += c;
        }
    }
    return out + "\"";
}

void write_csv(std::FILE* out, const OutputTable& table) {
    std::fputs(table.index_name.c_str(), out);
    for (const auto& [name, values] : table.columns) std::fprintf(out, ",%s", name.c_str());
    for (const auto& [name, values] : table.text_columns) std::fprintf(out, ",%s", name.c_str());
    std::fputc('\n', out);
    std::size_t rows = 0;  // compared settings may have fewer pairs: their cells end early
    for (const auto& column : table.columns) rows = std::max(rows, column.second.size());
    for (const auto& column : table.text_columns) rows = std::max(rows, column.second.size());
    for (std::size_t row = 0; row < rows; ++row) {
        std::fprintf(out, "%lld", static_cast<long long>(table.index_start + std::int64_t(row)));
        for (const auto& column : table.columns) {
            std::fputc(',', out);
            if (row < column.second.size()) print_number(out, column.second[row]);
        }
        for (const auto& column : table.text_columns) {
            std::fputc(',', out);
            if (row < column.second.size()) std::fputs(column.second[row].c_str(), out);
        }
        std::fputc('\n', out);
    }
}

void write_json(std::FILE* out, const OutputTable& table) {
    std::fputc('{', out);
    bool first = true;
    auto key = [&](const std::string& name) {
        std::fprintf(out, "%s\n  %s: ", first ? "" : ",", json_string(name).c_str());
        first = false;
    };
    for (const auto& [name, value] : table.json_scalars) {
        key(name);
        std::fputs(value.c_str(), out);
    }
    for (const auto& [name, values] : table.columns) {
        key(name);
        std::fputc('[', out);
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (i) std::fputc(',', out);
            print_number(out, values[i]);
        }
        std::fputc(']', out);
    }
    for (const auto& [name, values] : table.text_columns) {
        key(name);
        std::fputc('[', out);
        for (std::size_t i = 0; i < values.size(); ++i) std::fprintf(out, "%s%s", i ? "," : "", json_string(values[i]).c_str());
        std::fputc(']', out);
    }
    std::fputs("\n}\n", out);
}

}  // namespace ropelab
