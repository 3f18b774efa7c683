#include "core/vector_spec.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>

#include <fmt/format.h>
#include "core/json_input.h"

#include "core/error.h"
#include "core/input_file.h"
#include "core/phase.h"

namespace ropelab {

namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Uniform in (0, 1]: never 0, so log() below stays finite.
double uniform_open0(std::uint64_t& state) {
    return (static_cast<double>(splitmix64(state) >> 11) + 1.0) * 0x1.0p-53;
}

double parse_number(std::string_view token, std::string_view where) {
    const std::string text(token);
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE ||
        !std::isfinite(value)) {
        throw InputError(fmt::format("{}: \"{}\" is not a finite number", where, text_excerpt(text, 40)));
    }
    return value;
}

std::string_view trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    const auto last = s.find_last_not_of(" \t\r\n");
    return s.substr(first, last - first + 1);
}

std::vector<double> parse_comma_list(std::string_view spec) {
    std::vector<double> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = spec.find(',', start);
        const std::string_view token = trim(spec.substr(start, comma - start));
        out.push_back(parse_number(token, fmt::format("component {}", out.size())));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return out;
}

// Numbers separated by whitespace, by commas, or by both (what numpy.savetxt and ",".join write):
// one comma at most between two numbers and none at either end, so an empty field is an error
// rather than a silently shorter vector.
std::vector<double> parse_number_text(std::string_view text, const std::string& path) {
    constexpr std::string_view kSpace = " \t\r\n";
    std::vector<double> out;
    bool comma_after_last = false;
    std::size_t i = 0;
    while (true) {
        i = std::min(text.find_first_not_of(kSpace, i), text.size());
        const bool at_end = i == text.size();
        if (at_end || text[i] == ',') {
            if (at_end && !comma_after_last) return out;
            if (at_end || out.empty() || comma_after_last) {
                throw InputError(fmt::format("{}: value {} is empty ({})", path, out.size(),
                                             at_end ? "the numbers end with a comma" : "a comma with no number before it"));
            }
            comma_after_last = true;
            ++i;
            continue;
        }
        const std::size_t end = std::min(text.find_first_of(", \t\r\n", i), text.size());
        out.push_back(parse_number(text.substr(i, end - i), fmt::format("{}: value {}", path, out.size())));
        comma_after_last = false;
        i = end;
    }
}

std::vector<double> parse_vector_file(const std::string& path) {
    const std::string text = read_input_file(path, "vector");
    const std::string_view body = trim(text);

    std::vector<double> out;
    if (!body.empty() && body.front() == '[') {
        const Json json = parse_json_input(body, path);
        if (!json.is_array()) throw InputError(fmt::format("{}: expected a JSON array of numbers", path));
        for (std::size_t i = 0; i < json.size(); ++i) {
            if (!json[i].is_number() || !std::isfinite(json[i].get<double>())) {
                throw InputError(fmt::format("{}: element {} is not a finite number ({})", path, i,
                                             json_excerpt(json[i])));
            }
            out.push_back(json[i].get<double>());
        }
        return out;
    }
    return parse_number_text(text, path);
}

}  // namespace

std::vector<double> random_vector(std::uint64_t seed, int length) {
    std::uint64_t state = seed;
    std::vector<double> out(static_cast<std::size_t>(length));
    for (std::size_t i = 0; i < out.size(); i += 2) {
        const double radius = std::sqrt(-2.0 * std::log(uniform_open0(state)));
        const double angle = kTwoPi * uniform_open0(state);
        out[i] = radius * std::cos(angle);
        if (i + 1 < out.size()) out[i + 1] = radius * std::sin(angle);
    }
    return out;
}

std::vector<double> parse_vector_spec(std::string_view spec, int length) {
    spec = trim(spec);
    std::vector<double> out;
    if (spec == "ones") {
        out.assign(static_cast<std::size_t>(length), 1.0);
    } else if (spec.starts_with("random:")) {
        const std::string seed_text(spec.substr(7));
        char* end = nullptr;
        errno = 0;
        const unsigned long long seed = std::strtoull(seed_text.c_str(), &end, 10);
        if (seed_text.empty() || end != seed_text.c_str() + seed_text.size() || errno == ERANGE ||
            seed_text.front() == '-') {
            throw InputError(fmt::format("\"{}\": the seed must be a non-negative integer", spec));
        }
        out = random_vector(seed, length);
    } else if (spec.starts_with("@")) {
        out = parse_vector_file(std::string(spec.substr(1)));
    } else if (spec.empty()) {
        throw InputError("empty vector (expected ones, random:SEED, a comma-separated list or @FILE)");
    } else {
        out = parse_comma_list(spec);
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (!(std::abs(out[i]) <= kMaxComponent)) {
            throw InputError(fmt::format("component {} = {} is out of range (-1e9 .. 1e9): the score would overflow", i,
                                         out[i]));
        }
    }
    if (out.size() != static_cast<std::size_t>(length)) {
        throw InputError(fmt::format("\"{}\" has {} components; the head dim is {}",
                                     spec.size() > 60 ? std::string(spec.substr(0, 57)) + "..."
                                                      : std::string(spec),
                                     out.size(), length));
    }
    return out;
}

std::vector<double> rotary_part_first(std::vector<double> head, int rotary_offset, int rotary_dim) {
    if (rotary_offset > 0 && static_cast<std::size_t>(rotary_offset + rotary_dim) <= head.size()) {
        std::rotate(head.begin(), head.begin() + rotary_offset, head.begin() + rotary_offset + rotary_dim);
    }
    return head;
}

}  // namespace ropelab
