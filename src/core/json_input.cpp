#include "core/json_input.h"

#include <unordered_map>

#include <fmt/format.h>

#include "core/error.h"

namespace ropelab {

namespace {

constexpr std::size_t kExcerptChars = 80;

// `text` with every byte that is not part of valid UTF-8 written as \xNN: a parser's message
// quotes the bytes it stopped at, and a message must stay valid UTF-8 to be shown or saved.
std::string printable(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        const std::size_t length = byte < 0x80 ? 1 : (byte & 0xe0) == 0xc0 ? 2 : (byte & 0xf0) == 0xe0 ? 3 : (byte & 0xf8) == 0xf0 ? 4 : 0;
        bool valid = length > 0 && i + length <= text.size() && !(length == 2 && byte < 0xc2);
        for (std::size_t k = 1; valid && k < length; ++k) valid = (static_cast<unsigned char>(text[i + k]) & 0xc0) == 0x80;
        if (valid && (length > 1 || byte >= 0x20 || byte == '\n' || byte == '\t')) {
            out.append(text.substr(i, length));
            i += length;
        } else {
            out += fmt::format("\\x{:02X}", byte);
            ++i;
        }
    }
    return out;
}

// At most ~80 characters, never splitting a UTF-8 sequence.
std::string cut(std::string text, std::size_t limit = kExcerptChars) {
    text = printable(text);
    if (text.size() > limit) {
        std::size_t end = limit - 3;
        while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xc0) == 0x80) --end;
        text = text.substr(0, end) + "...";
    }
    return text;
}

std::string scalar_excerpt(const Json& v) {
    if (v.is_array()) return v.empty() ? "[]" : "[...]";
    if (v.is_object()) return v.empty() ? "{}" : "{...}";
    return cut(v.dump(-1, ' ', false, Json::error_handler_t::replace));
}

// The parser's message without its "[json.exception.parse_error.101] parse error" prefix, which
// took most of the room: where, and what it read.
std::string parser_message(const std::exception& e) {
    std::string text = e.what();
    if (text.starts_with("[json.exception.")) text.erase(0, text.find("] ") + 2);
    if (text.starts_with("parse error ")) text.erase(0, 12);
    if (const auto at = text.find("syntax error while parsing "); at != std::string::npos) text.erase(at, 27);
    return cut(text, 2 * kExcerptChars);
}

// Builds the value from the parser's events in one linear pass. nlohmann's own callback parser
// rescans the parent of every closed container (600,000 empty objects took 43 s) and an
// ordered_json object finds each new key by a linear search (200,000 keys took 21 s); here each
// open object keeps a hash of its keys, members are appended without a search, and the depth,
// the number of values and the keys per object are checked as they arrive, before more work.
class DomBuilder : public nlohmann::json_sax<Json> {
public:
    DomBuilder(Json& root, std::string_view source) : root_(root), source_(source) {}

    bool null() override { return put(Json(nullptr)); }
    bool boolean(bool v) override { return put(Json(v)); }
    bool number_integer(number_integer_t v) override { return put(Json(v)); }
    bool number_unsigned(number_unsigned_t v) override { return put(Json(v)); }
    bool number_float(number_float_t v, const string_t&) override { return put(Json(v)); }
    bool string(string_t& v) override { return put(Json(std::move(v))); }
    bool binary(binary_t&) override { return put(Json(nullptr)); }  // not produced by text JSON

    bool start_object(std::size_t) override { return open(Json::object()); }
    bool start_array(std::size_t) override { return open(Json::array()); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool key(string_t& name) override {
        Open& o = open_.back();
        auto& members = static_cast<Json::object_t::Container&>(o.value->get_ref<Json::object_t&>());
        const auto [at, added] = o.index.try_emplace(name, members.size());
        if (added) {
            if (members.size() >= kMaxJsonKeys) {
                throw InputError(fmt::format("{}: an object{} has more than {} keys; no ropelab file needs so many "
                                             "(a model's config has a few dozen)",
                                             source_, where(), kMaxJsonKeys));
            }
            members.emplace_back(name, Json());
        } else {
            const std::string outer = where();
            duplicates.push_back(outer.empty() ? name : outer.substr(4) + "." + name);
        }
        o.key = name;
        o.slot = &members[at->second].second;
        return true;
    }

    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
        throw InputError(fmt::format("{}: not valid JSON: {}", source_, parser_message(e)));
    }

    std::vector<std::string> duplicates;  // dotted paths, in the order found

private:
    struct Open {
        Json* value;
        std::unordered_map<std::string, std::size_t> index;  // an object's keys → member
        std::string key;                                     // an object's current key
        Json* slot = nullptr;                                // where its current key's value goes
    };

    std::string where() const {
        std::string dotted;
        for (std::size_t i = 0; i + 1 < open_.size(); ++i) {
            if (open_[i].value->is_object()) dotted += (dotted.empty() ? "" : ".") + open_[i].key;
        }
        return dotted.empty() ? "" : " at " + dotted;
    }

    void count() {
        if (++values_ > kMaxJsonValues) {
            throw InputError(fmt::format("{}: more than {} values; no ropelab file needs so many "
                                         "(a model's config has a few hundred)",
                                         source_, kMaxJsonValues));
        }
    }

    // Places `v` in the innermost open container (or at the root) and returns where it went.
    Json* place(Json&& v) {
        count();
        if (open_.empty()) {
            root_ = std::move(v);
            return &root_;
        }
        Open& o = open_.back();
        if (o.value->is_array()) {
            o.value->get_ref<Json::array_t&>().push_back(std::move(v));
            return &o.value->get_ref<Json::array_t&>().back();
        }
        *o.slot = std::move(v);
        return o.slot;
    }

    bool put(Json&& v) {
        place(std::move(v));
        return true;
    }

    bool open(Json&& container) {
        if (open_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
            throw InputError(fmt::format("{}: nested deeper than {} levels; no ropelab file needs more than a few",
                                         source_, kMaxJsonDepth));
        }
        Json* at = place(std::move(container));
        open_.push_back(Open{at, {}, {}, nullptr});
        return true;
    }

    bool close() {
        open_.pop_back();
        return true;
    }

    Json& root_;
    std::string_view source_;
    std::vector<Open> open_;
    std::size_t values_ = 0;
};

}  // namespace

Json parse_json_input(std::string_view text, std::string_view source, std::vector<std::string>* warnings) {
    Json root;
    DomBuilder builder(root, source);
    try {
        Json::sax_parse(text.begin(), text.end(), &builder);
    } catch (const Json::exception& e) {  // out-of-range numbers and the like
        throw InputError(fmt::format("{}: not valid JSON: {}", source, parser_message(e)));
    }
    if (warnings) {
        for (const std::string& key : builder.duplicates) {
            warnings->push_back(fmt::format("duplicate key {} (the last value is used)", key));
        }
    }
    return root;
}

std::string text_excerpt(std::string_view text, std::size_t limit) { return cut(std::string(text), limit); }

std::string json_excerpt(const Json& value) {
    if (!value.is_array() && !value.is_object()) return scalar_excerpt(value);
    const bool array = value.is_array();
    std::string out = array ? "[" : "{";
    std::size_t shown = 0;
    for (auto it = value.begin(); it != value.end() && out.size() < kExcerptChars - 20; ++it, ++shown) {
        if (shown) out += ", ";
        if (!array) out += cut(Json(it.key()).dump(-1, ' ', false, Json::error_handler_t::replace)) + ": ";
        out += scalar_excerpt(*it);
    }
    if (shown < value.size()) out += fmt::format("{}... {} in all", shown ? ", " : "", value.size());
    out += array ? "]" : "}";
    return out;
}

}  // namespace ropelab
