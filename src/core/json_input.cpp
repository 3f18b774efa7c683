#include "core/json_input.h"

#include <set>

#include <fmt/format.h>

#include "core/error.h"

namespace ropelab {

namespace {

constexpr std::size_t kExcerptChars = 80;

std::string cut(std::string text) {
    if (text.size() > kExcerptChars) text = text.substr(0, kExcerptChars - 3) + "...";
    return text;
}

std::string scalar_excerpt(const Json& v) {
    if (v.is_array()) return v.empty() ? "[]" : "[...]";
    if (v.is_object()) return v.empty() ? "{}" : "{...}";
    return cut(v.dump());
}

// Tracks the keys of every open object, to name duplicates with their path.
class KeyTracker {
public:
    void open_object() { keys_.emplace_back(); }
    void close_object() {
        if (!keys_.empty()) keys_.pop_back();
        if (path_.size() > keys_.size()) path_.resize(keys_.size());
    }
    // Returns the key's dotted path when the current object already has it.
    std::optional<std::string> key(const std::string& name) {
        if (keys_.empty()) return std::nullopt;
        path_.resize(keys_.size());
        path_.back() = name;
        if (keys_.back().insert(name).second) return std::nullopt;
        std::string dotted;
        for (const std::string& part : path_) dotted += (dotted.empty() ? "" : ".") + part;
        return dotted;
    }

private:
    std::vector<std::set<std::string>> keys_;
    std::vector<std::string> path_;
};

}  // namespace

Json parse_json_input(std::string_view text, std::string_view source, std::vector<std::string>* warnings) {
    KeyTracker keys;
    std::vector<std::string> duplicates;
    const Json::parser_callback_t check = [&](int depth, Json::parse_event_t event, Json& parsed) {
        using E = Json::parse_event_t;
        if ((event == E::object_start || event == E::array_start) && depth >= kMaxJsonDepth) {
            throw InputError(fmt::format("{}: nested deeper than {} levels; no ropelab file needs more than a few",
                                         source, kMaxJsonDepth));
        }
        if (event == E::object_start) keys.open_object();
        if (event == E::object_end) keys.close_object();
        if (event == E::key && parsed.is_string()) {
            if (auto dotted = keys.key(parsed.get<std::string>())) duplicates.push_back(*dotted);
        }
        return true;
    };
    Json root;
    try {
        root = Json::parse(text.begin(), text.end(), check);
    } catch (const Json::exception& e) {  // syntax errors and out-of-range numbers alike
        throw InputError(fmt::format("{}: not valid JSON: {}", source, cut(e.what())));
    }
    if (warnings) {
        for (const std::string& key : duplicates) {
            warnings->push_back(fmt::format("duplicate key {} (the last value is used)", key));
        }
    }
    return root;
}

std::string json_excerpt(const Json& value) {
    if (!value.is_array() && !value.is_object()) return scalar_excerpt(value);
    const bool array = value.is_array();
    std::string out = array ? "[" : "{";
    std::size_t shown = 0;
    for (auto it = value.begin(); it != value.end() && out.size() < kExcerptChars - 20; ++it, ++shown) {
        if (shown) out += ", ";
        if (!array) out += cut(Json(it.key()).dump()) + ": ";
        out += scalar_excerpt(*it);
    }
    if (shown < value.size()) out += fmt::format("{}... {} in all", shown ? ", " : "", value.size());
    out += array ? "]" : "}";
    return out;
}

}  // namespace ropelab
