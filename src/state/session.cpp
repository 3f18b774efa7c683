#include "state/session.h"

#include <cstring>

#include <cmath>
#include <limits>
#include <type_traits>

#include <fmt/format.h>

#include "core/error.h"
#include "core/json_input.h"
#include "core/presets.h"
#include "state/schema.h"

namespace ropelab {

namespace {

constexpr const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

void require(bool ok, const std::string& field, const std::string& rule) {
    if (!ok) throw InputError(fmt::format("{} {}", field, rule));
}

// A JSON value as the field's Value. Numbers are range-checked as doubles before any integer
// conversion: converting 1e60 to an integer is undefined behaviour, not an error (found by
// fuzz_session). The schema's check() then applies the field's range.
schema::Value json_to_value(const schema::Field& f, const Json& j) {
    using schema::Kind;
    const auto wrong_type = [&] {
        const std::string text = json_excerpt(j);
        throw InputError(fmt::format("{} = {} has the wrong type ({})", f.path, text, schema::range_text(f)));
    };
    if (j.is_null()) return schema::Value{};
    switch (f.kind) {
        case Kind::Int: {
            if (!j.is_number()) wrong_type();
            if (j.is_number_unsigned() && j.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
                throw InputError(fmt::format("{} = {} is out of range ({})", f.path, j.get<std::uint64_t>(), schema::range_text(f)));
            }
            if (j.is_number_integer()) return j.get<std::int64_t>();  // exact, whatever its size
            const double d = j.get<double>();
            if (d != std::floor(d)) {
                throw InputError(fmt::format("{} = {} is not a whole number ({})", f.path, json_excerpt(j), schema::range_text(f)));
            }
            return schema::from_number(f, d);  // refuses what is out of range before converting
        }
        case Kind::Real:
            if (!j.is_number()) wrong_type();
            return j.get<double>();
        case Kind::Bool:
            if (!j.is_boolean()) wrong_type();
            return j.get<bool>();
        case Kind::Enum:
            // Version 1 wrote encoding and vectors as their index.
            if (j.is_number_integer() && j.get<double>() >= 0 && j.get<double>() < static_cast<double>(f.names.size())) {
                return std::string(f.names[j.get<std::size_t>()]);
            }
            if (!j.is_string()) wrong_type();
            return j.get<std::string>();
        case Kind::Text:
            if (!j.is_string()) wrong_type();
            return j.get<std::string>();
        case Kind::List: {
            if (!j.is_array()) wrong_type();
            if (j.size() > f.count) {
                throw InputError(fmt::format("{} has {} numbers ({})", f.path, j.size(), schema::range_text(f)));
            }
            std::vector<double> list;
            for (const Json& x : j) {
                if (!x.is_number()) wrong_type();
                list.push_back(x.get<double>());
            }
            return list;
        }
    }
    return schema::Value{};
}

Json value_to_json(const schema::Value& v) {
    return std::visit(
        [](const auto& x) -> Json {
            if constexpr (std::is_same_v<std::decay_t<decltype(x)>, std::monostate>) return nullptr;
            else return Json(x);
        },
        v);
}

std::vector<std::string> split_path(std::string_view path) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = path.find('.', start);
        parts.emplace_back(path.substr(start, dot - start));
        if (dot == std::string_view::npos) return parts;
        start = dot + 1;
    }
}

// The JSON value at a dotted path, or nullptr; every object on the way must be an object.
const Json* at_path(const Json& root, std::string_view path) {
    const Json* node = &root;
    std::string walked;
    for (const std::string& part : split_path(path)) {
        if (!node->is_object()) throw InputError(fmt::format("{} must be an object", walked.empty() ? "session" : walked));
        const auto it = node->find(part);
        if (it == node->end()) return nullptr;
        node = &*it;
        walked += (walked.empty() ? "" : ".") + part;
    }
    return node;
}

bool known_prefix(const std::string& path) {
    for (const schema::Field& f : schema::fields()) {
        if (f.scope != schema::Scope::Session) continue;
        const std::string_view p = f.path;
        if (p == path || (p.size() > path.size() && p.starts_with(path) && p[path.size()] == '.')) return true;
    }
    return false;
}

// Keys the schema does not know, named (a typo in a hand-edited session should not pass silently).
// Shallow: nothing the lab reads is deeper than three levels.
void collect_unknown(const Json& object, const std::string& prefix, int depth, std::vector<std::string>& warnings) {
    for (const auto& [key, value] : object.items()) {
        const std::string path = prefix.empty() ? key : prefix + "." + key;
        if (path == "ropelab_session" || path == "plots") continue;
        if (!known_prefix(path)) {
            warnings.push_back(fmt::format("unknown field {} ignored", path));
        } else if (value.is_object() && depth < 4 && !schema::by_path(path)) {
            collect_unknown(value, path, depth + 1, warnings);
        }
    }
}

}  // namespace

std::string session_to_json(const Session& s) {
    Json j{{"ropelab_session", kSessionVersion}};
    for (const schema::Field& f : schema::fields()) {
        if (f.scope != schema::Scope::Session || !schema::in_use(f, s.params)) continue;
        Json* node = &j;
        for (const std::string& part : split_path(f.path)) node = &(*node)[part];
        *node = value_to_json(f.get(s.params));
    }
    Json plots = Json::object();
    for (const auto& [name, state] : s.plots) {
        plots[name] = Json{{"x", {state.x.min, state.x.max}}, {"y", {state.y.min, state.y.max}}, {"user_view", state.user_view}};
    }
    j["plots"] = plots;
    return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";  // a path of non-UTF-8 bytes is no crash
}

Session session_from_json(std::string_view text, std::vector<std::string>& warnings) {
    const Json j = parse_json_input(text, "session", &warnings);
    if (!j.is_object()) throw InputError("session must be an object");
    const Json* version_json = j.contains("ropelab_session") ? &j["ropelab_session"] : nullptr;
    const double version = version_json && version_json->is_number() ? version_json->get<double>() : 0;
    require(version >= 1 && version <= kSessionVersion && version == std::floor(version), "ropelab_session",
            fmt::format("must be a version from 1 to {} (got {})", kSessionVersion, version_json ? json_excerpt(*version_json) : "none"));
    Session s;
    LabParams& p = s.params;
    for (const schema::Field& f : schema::fields()) {
        if (f.scope != schema::Scope::Session) continue;
        if (const Json* value = at_path(j, f.path)) schema::assign(p, f, json_to_value(f, *value));
    }
    // Version 1 kept the playback loop as one [from, to] pair.
    if (const Json* loop = at_path(j, "playback.loop")) {
        require(loop->is_array() && loop->size() == 2, "playback.loop", "must be [from, to]");
        schema::assign(p, *schema::by_path("playback.loop_from"), json_to_value(*schema::by_path("playback.loop_from"), (*loop)[0]));
        schema::assign(p, *schema::by_path("playback.loop_to"), json_to_value(*schema::by_path("playback.loop_to"), (*loop)[1]));
    }
    // A session naming a preset but carrying no model (hand-written, or cut down): the preset's
    // model, so that what is computed is what the session and every export's metadata name.
    if (j.contains("preset") && !j.contains("model")) {
        const Preset* preset = find_preset(p.preset);
        require(preset != nullptr, "model",
                fmt::format("is missing, and preset \"{}\" is not a built-in preset to take it from (see `ropelab presets`); "
                            "give the model's fields under \"model\"",
                            p.preset.size() > 80 ? p.preset.substr(0, 77) + "..." : p.preset));
        p.model = preset->config;
        p.focused_pair = std::min(p.focused_pair, std::max(0, rotary_dim(p.model) / 2 - 1));
    }
    schema::validate(p);

    std::vector<std::string> found;
    collect_unknown(j, "", 0, found);
    std::erase(found, "unknown field playback.loop ignored");
    if (j.contains("plots")) {
        require(j["plots"].is_object(), "plots", "must be an object");
        for (const auto& [name, value] : j["plots"].items()) {
            const std::string where = "plots." + name;
            require(value.is_object(), where, "must be an object");
            plot::PlotState state;
            for (const char* axis : {"x", "y"}) {
                const Json* range = value.contains(axis) ? &value[axis] : nullptr;
                if (!range) continue;
                require(range->is_array() && range->size() == 2 && (*range)[0].is_number() && (*range)[1].is_number(),
                        where + "." + axis, "must be [min, max]");
                plot::Range r{(*range)[0].get<double>(), (*range)[1].get<double>()};
                require(std::isfinite(r.min) && std::isfinite(r.max), where + "." + axis, "must be finite numbers");
                (axis[0] == 'x' ? state.x : state.y) = r;
            }
            if (value.contains("user_view")) {
                require(value["user_view"].is_boolean(), where + ".user_view", "must be true or false");
                state.user_view = value["user_view"].get<bool>();
            }
            for (const auto& [key, ignored] : value.items()) {
                if (key != "x" && key != "y" && key != "user_view") found.push_back(fmt::format("unknown field {}.{} ignored", where, key));
            }
            s.plots[name] = state;
        }
    }
    warnings.insert(warnings.end(), found.begin(), found.end());
    return s;
}

std::string base64url_encode(std::string_view bytes) {
    std::string out;
    std::uint32_t buffer = 0;
    int bits = 0;
    for (unsigned char c : bytes) {
        buffer = (buffer << 8) | c;
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            out += kAlphabet[(buffer >> bits) & 63];
        }
    }
    if (bits > 0) out += kAlphabet[(buffer << (6 - bits)) & 63];
    return out;
}

namespace {

// The character starting at byte `i`, for a message: printable ASCII quoted, anything else (a
// UTF-8 sequence such as 'é', a control byte, a stray byte) by its code and byte offset, so the
// message stays valid UTF-8 wherever it is shown or saved.
std::string character_at(std::string_view text, std::size_t i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7f) return fmt::format("'{}' (at character {})", static_cast<char>(byte), i + 1);
    const int length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    unsigned code = length == 1 ? byte : byte & (0x3fu >> (length - 1));
    bool valid = length > 1 && i + static_cast<std::size_t>(length) <= text.size();
    for (int k = 1; valid && k < length; ++k) {
        const auto next = static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]);
        valid = (next & 0xc0) == 0x80;
        code = (code << 6) | (next & 0x3f);
    }
    if (valid) return fmt::format("U+{:04X} (at byte {})", code, i + 1);
    return fmt::format("byte 0x{:02X} (at byte {})", byte, i + 1);
}

}  // namespace

std::string base64url_decode(std::string_view text) {
    std::string out;
    std::uint32_t buffer = 0;
    int bits = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '=' || c == '\n' || c == ' ') continue;
        const char* at = std::strchr(kAlphabet, c);
        if (!at || c == '\0') throw InputError(fmt::format("share string: {} is not a base64url character", character_at(text, i)));
        buffer = (buffer << 6) | static_cast<std::uint32_t>(at - kAlphabet);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((buffer >> bits) & 0xFF);
        }
    }
    return out;
}

std::string share_string(const Session& s) { return base64url_encode(session_to_json(s)); }

Session session_from_share_string(std::string_view text, std::vector<std::string>& warnings) {
    const auto first = text.find_first_not_of(" \n\t");
    if (first != std::string_view::npos && text[first] == '{') return session_from_json(text, warnings);
    return session_from_json(base64url_decode(text), warnings);
}

}  // namespace ropelab
