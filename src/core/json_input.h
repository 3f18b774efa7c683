#pragma once
// The one JSON reader for every file and string a user hands the lab (configs, sessions,
// lessons, @vector files, scripts). It refuses nesting deeper than kMaxJsonDepth while parsing
// (a 60,000-deep value used to overflow the stack), reports duplicate keys by name (the last
// one wins, as in Python's json), and quotes values in messages through json_excerpt, which
// shows at most ~80 characters and never walks a value recursively.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ropelab {

using Json = nlohmann::ordered_json;

// Far deeper than any real config (HF's are 3 levels; sessions 4).
inline constexpr int kMaxJsonDepth = 256;
// Counts checked while reading, before more work: far beyond any real file (an HF config has a
// few hundred values and a few dozen keys per object; the largest, id2label tables, a few
// thousand), well below what makes reading slow.
inline constexpr std::size_t kMaxJsonValues = 200000;
inline constexpr std::size_t kMaxJsonKeys = 20000;

// Parses `text`; throws InputError "SOURCE: not valid JSON: …" or "SOURCE: nested deeper than
// 256 levels …", "… more than 200000 values …", "… an object at a.b has more than 20000 keys …".
// Reading is linear in the text's length. Duplicate keys are appended to `warnings` as "duplicate key a.b (the last
// value is used)".
Json parse_json_input(std::string_view text, std::string_view source, std::vector<std::string>* warnings = nullptr);

// A value for an error message: scalars as JSON (strings cut to ~80 characters), arrays and
// objects as their first few scalar members and a count.
std::string json_excerpt(const Json& value);

// Any text (a word read from a file, possibly binary) for a message: at most ~`limit` bytes,
// bytes that are not valid UTF-8 and control characters written as \xNN.
std::string text_excerpt(std::string_view text, std::size_t limit = 80);

}  // namespace ropelab
