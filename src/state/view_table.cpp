#include "state/view_table.h"

#include <charconv>

#include <fmt/format.h>

#include "core/error.h"

namespace ropelab {

View view_of(Product product) {
    for (const ViewRow& row : kViewTable) {
        if (row.product == product) return row.id;
    }
    return kViewTable[0].id;  // unreached: every product has its row
}

std::optional<View> find_view(std::string_view text) {
    for (const ViewRow& row : kViewTable) {
        if (text == row.name) return row.id;
    }
    int number = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (ec == std::errc() && end == text.data() + text.size() && number >= 1 && number <= kViewCount) return static_cast<View>(number - 1);
    return std::nullopt;
}

std::string view_names_list(std::string_view last_joiner) {
    std::string out;
    for (int i = 0; i < kViewCount; ++i) {
        if (i > 0) out += i + 1 == kViewCount ? std::string(last_joiner) : std::string(", ");
        out += kViewTable[i].name;
    }
    return out;
}

View parse_view(std::string_view text) {
    if (const auto v = find_view(text)) return *v;
    throw InputError(fmt::format("unknown view \"{}\" (expected {}, or a number 1-{})", text, view_names_list(), kViewCount));
}

std::string_view view_title(View v) { return view_row(v).title; }
std::string_view view_short_title(View v) { return view_row(v).short_title; }
std::string_view view_name(View v) { return view_row(v).name; }

}  // namespace ropelab
