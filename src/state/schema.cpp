#include "state/schema.h"

#include "core/utf8.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "core/error.h"
#include "core/token_layout.h"
#include "core/presets.h"
#include "state/schema_rows.h"

namespace ropelab::schema {

namespace {

const std::vector<Field>& table() {
    static const std::vector<Field> all = rows::make_fields();
    return all;
}

std::string number_text(double x) { return fmt::format("{}", x); }

// At most 60 characters, never splitting one (a message must stay UTF-8 to be shown or saved).
std::string short_text(std::string text) {
    if (utf8_characters(text) > 60) text = text.substr(0, utf8_prefix_bytes(text, 57)) + "...";
    return text;
}

[[noreturn]] void refuse(const Field& f, const std::string& value, const std::string& why = "is out of range") {
    throw InputError(fmt::format("{} = {} {} ({})", f.path, short_text(value), why, range_text(f)));
}

bool whole(double x) { return std::isfinite(x) && x == std::floor(x); }

double parse_number(const Field& f, std::string_view text) {
    std::string s(text);
    s.erase(0, s.find_first_not_of(" \t"));
    s.erase(s.find_last_not_of(" \t") + 1);
    char* end = nullptr;
    const double x = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size()) refuse(f, std::string(text), "is not a number");
    // strtod also reads C's hexadecimal numbers ("0x40" = 64): decimal only, as written in files.
    if (s.find_first_of("xX") != std::string::npos) refuse(f, std::string(text), "is not a decimal number");
    return x;
}

}  // namespace

std::span<const Field> fields() { return table(); }

const Field* by_path(std::string_view path) {
    for (const Field& f : table()) {
        if (f.path == path) return &f;
    }
    return nullptr;
}

const Field* by_flag(std::string_view flag) {
    for (const Field& f : table()) {
        if (!f.flag.empty() && f.flag == flag) return &f;
    }
    return nullptr;
}

const Field* by_lesson_name(std::string_view name) {
    for (const Field& f : table()) {
        if (!f.lesson.empty() && f.lesson == name) return &f;
    }
    return nullptr;
}

std::string range_text(const Field& f) {
    switch (f.kind) {
        case Kind::Int:
        case Kind::Real: return fmt::format("{} .. {}", number_text(f.min), number_text(f.max));
        case Kind::Bool: return "true or false";
        case Kind::Enum: {
            std::string names;
            for (std::string_view n : f.names) names += (names.empty() ? "" : ", ") + std::string(n);
            return "one of " + names;
        }
        case Kind::Text: return fmt::format("text of at most {} characters", number_text(f.max));
        case Kind::List:
            return fmt::format("{} {} numbers, each {} .. {}", f.exact_count ? "none or" : "at most", f.count,
                               number_text(f.min), number_text(f.max));
    }
    return "";
}

std::string value_text(const Field&, const Value& v) {
    return std::visit(
        [](const auto& x) -> std::string {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, std::monostate>) return "none";
            else if constexpr (std::is_same_v<T, bool>) return x ? "true" : "false";
            else if constexpr (std::is_same_v<T, std::int64_t>) return std::to_string(x);
            else if constexpr (std::is_same_v<T, double>) return number_text(x);
            else if constexpr (std::is_same_v<T, std::string>) return x;
            else {
                std::string out;
                for (double d : x) out += (out.empty() ? "" : ",") + number_text(d);
                return out;
            }
        },
        v);
}

Value from_number(const Field& f, double x) {
    switch (f.kind) {
        case Kind::Int: {
            const double r = std::round(x);
            // Out-of-range doubles are refused before any integer conversion (which would be undefined).
            if (!(r >= f.min && r <= f.max)) refuse(f, number_text(x));
            return static_cast<std::int64_t>(r);
        }
        case Kind::Real: return x;
        default: refuse(f, number_text(x), "is not a number field");
    }
}

Value parse(const Field& f, std::string_view text) {
    if (f.optional && (text == "none" || text == "null" || text.empty())) return Value{};
    Value v;
    switch (f.kind) {
        case Kind::Int: {
            const double x = parse_number(f, text);
            if (!whole(x)) refuse(f, std::string(text), "is not a whole number");
            v = from_number(f, x);  // the range in the same words as every other door
            break;
        }
        case Kind::Real: v = parse_number(f, text); break;
        case Kind::Bool:
            if (text == "true" || text == "1") v = true;
            else if (text == "false" || text == "0") v = false;
            else refuse(f, std::string(text), "is not true or false");
            break;
        case Kind::Enum:
        case Kind::Text: v = std::string(text); break;
        case Kind::List: {
            std::vector<double> list;
            std::size_t start = 0;
            while (start <= text.size() && !text.empty()) {
                const std::size_t comma = std::min(text.find(',', start), text.size());
                list.push_back(parse_number(f, text.substr(start, comma - start)));
                if (list.size() > f.count) refuse(f, std::string(text), "has too many numbers");
                start = comma + 1;
            }
            v = std::move(list);
            break;
        }
    }
    check(f, v);
    return v;
}

void check(const Field& f, const Value& v) {
    if (std::holds_alternative<std::monostate>(v)) {
        if (!f.optional) refuse(f, "none", "is required");
        return;
    }
    const std::string text = value_text(f, v);
    switch (f.kind) {
        case Kind::Int: {
            const auto* x = std::get_if<std::int64_t>(&v);
            if (!x) refuse(f, text, "is not a whole number");
            if (!(static_cast<double>(*x) >= f.min && static_cast<double>(*x) <= f.max)) refuse(f, text);
            return;
        }
        case Kind::Real: {
            const auto* x = std::get_if<double>(&v);
            if (!x) refuse(f, text, "is not a number");
            if (!std::isfinite(*x)) refuse(f, text, "is not a finite number");
            if (!(*x >= f.min && *x <= f.max)) refuse(f, text);
            return;
        }
        case Kind::Bool:
            if (!std::holds_alternative<bool>(v)) refuse(f, text, "is not true or false");
            return;
        case Kind::Enum: {
            const auto* x = std::get_if<std::string>(&v);
            if (!x || std::find(f.names.begin(), f.names.end(), *x) == f.names.end()) refuse(f, "\"" + text + "\"", "is unknown");
            return;
        }
        case Kind::Text: {
            const auto* x = std::get_if<std::string>(&v);
            if (!x) refuse(f, text, "is not text");
            // Names and paths reach files (SVG, JSON and CSV metadata) and the screen: UTF-8, one
            // line (custom vectors may be pasted over lines), at most `max` characters.
            if (const std::size_t bad = first_invalid_utf8(*x); bad != std::string::npos) {
                refuse(f, "\"" + utf8_escaped(*x) + "\"",
                       fmt::format("is not UTF-8 text (byte \\x{:02X} at {})", static_cast<unsigned char>((*x)[bad]), bad));
            }
            const bool vector = f.path == "curves.custom_q" || f.path == "curves.custom_k";
            if (const std::size_t c = first_control_character(*x, vector); c != std::string::npos) {
                refuse(f, "\"" + utf8_escaped(*x) + "\"",
                       fmt::format("holds the control character \\x{:02X} at byte {}", static_cast<unsigned char>((*x)[c]), c));
            }
            if (static_cast<double>(utf8_characters(*x)) > f.max) refuse(f, text, "is too long");
            return;
        }
        case Kind::List: {
            const auto* x = std::get_if<std::vector<double>>(&v);
            if (!x) refuse(f, text, "is not a list of numbers");
            if (x->size() > f.count) refuse(f, text, "has too many numbers");
            if (f.exact_count && !x->empty() && x->size() != f.count) refuse(f, text, fmt::format("needs {} numbers", f.count));
            for (double d : *x) {
                if (!std::isfinite(d) || d < f.min || d > f.max) refuse(f, text, fmt::format("holds {}, out of range", number_text(d)));
            }
            return;
        }
    }
}

void validate(const LabParams& p) {
    for (const Field& f : table()) check(f, f.get(p));
    try {
        ropelab::validate(p.model);
    } catch (const InputError& e) {
        throw InputError(fmt::format("model: {}", e.what()));
    }
    for (int i = 0; i < p.compared_count; ++i) {
        try {
            ropelab::validate(p.compared[static_cast<std::size_t>(i)].model);
        } catch (const InputError& e) {
            throw InputError(fmt::format("compare.{}.model: {}", i + 1, e.what()));
        }
    }
    for (int i = 0; i < p.compared_count; ++i) {
        const int dim = p.compared[static_cast<std::size_t>(i)].model.head_dim;
        if (p.vectors == VectorChoice::Custom && dim != p.model.head_dim) {
            throw InputError(fmt::format("curves.vectors = custom needs every compared head to match the base's "
                                         "(compare.{} has head_dim {}, the base {}): use ones, random or mean",
                                         i + 1, dim, p.model.head_dim));
        }
    }
    const int pairs = rotary_dim(p.model) / 2;
    if (p.focused_pair >= pairs) {
        throw InputError(fmt::format("focus.pair = {} is out of range (0 .. {}: the model's pairs)", p.focused_pair, pairs - 1));
    }
    if (p.query_row >= p.grid_height || p.query_column >= p.grid_width) {
        throw InputError(fmt::format("images.query_row, query_column = {}, {} must lie inside the {} × {} image", p.query_row,
                                     p.query_column, p.grid_height, p.grid_width));
    }
    if (std::abs(p.frame_offset) >= p.grid_frames) {
        throw InputError(fmt::format("images.frame_offset = {} must be below the {} frames", p.frame_offset, p.grid_frames));
    }
    // Throws naming the part of the layout that is wrong (parse only: nothing is expanded here).
    parse_token_layout(p.tokens, p.model.multi_axis.spatial_merge_size);
    if (p.loop_from >= p.loop_to) {
        throw InputError(fmt::format("playback.loop_from = {} must be below playback.loop_to = {}", p.loop_from, p.loop_to));
    }
}

void validate_model(const ModelConfig& m) {
    LabParams p;
    p.model = m;
    for (const Field& f : table()) {
        if (f.path.starts_with("model.")) check(f, f.get(p));
    }
    ropelab::validate(m);
}

void assign(LabParams& p, const Field& f, const Value& v) {
    check(f, v);
    f.set(p, v);
}

void assign_text(LabParams& p, const Field& f, std::string_view text) {
    if (f.path == "preset") {
        const Preset& preset = preset_or_throw(std::string(text));
        p.model = preset.config;
        p.focused_pair = std::min(p.focused_pair, rotary_dim(p.model) / 2 - 1);
    }
    assign(p, f, parse(f, text));
}

std::string key(const LabParams& p, Affects what) {
    std::string k;
    for (const Field& f : table()) {
        if (f.affects == what && in_use(f, p)) k += value_text(f, f.get(p)) + "|";
    }
    // With q = k = the focused pair, the curves themselves follow the focus.
    if (what == Affects::Data && p.vectors == VectorChoice::FocusedPair) k += fmt::format("pair {}", p.focused_pair);
    // A linked Δ moves the invariance view's series, recomputed with the focus (lab_data.h).
    if (what == Affects::Focus && p.link_distance) k += fmt::format("Δ {}", p.key_distance);
    return k;
}

LabParams reset(const LabParams& p) {
    const LabParams fresh;
    LabParams out = p;
    for (const Field& f : table()) {
        if (f.reset) f.set(out, f.get(fresh));
    }
    return out;
}

}  // namespace ropelab::schema
