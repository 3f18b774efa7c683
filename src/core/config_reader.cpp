#include "core/config_reader.h"

#include <cmath>

namespace ropelab::config_detail {

std::string shown(double v) { return fmt::format("{}", v); }

void Reader::use(const Object& o, const std::string& key, std::string value) {
    read_.insert(o.prefix + key);
    const auto d = defaulted_.find(o.prefix + key);
    if (d != defaulted_.end()) {
        out_.used.push_back({o.prefix + key, std::move(value), ReadField::Origin::Default, d->second});
    } else {
        out_.used.push_back({o.prefix + key, std::move(value), ReadField::Origin::File, ""});
    }
}

std::optional<double> Reader::number(const Object& o, const std::string& key, double lo, double hi) {
    if (!o.has(key)) return std::nullopt;
    const Json& v = o.at(key);
    const std::string name = o.prefix + key;
    if (!v.is_number()) fail(name, fmt::format("must be a number (got {})", json_excerpt(v)));
    const double x = v.get<double>();
    if (!std::isfinite(x) || x < lo || x > hi) {
        fail(name, fmt::format("= {} is out of range ({} .. {})", json_excerpt(v), shown(lo), shown(hi)));
    }
    use(o, key, shown(x));
    return x;
}

std::optional<std::int64_t> Reader::integer(const Object& o, const std::string& key, std::int64_t lo,
                                            std::int64_t hi) {
    if (!o.has(key)) return std::nullopt;
    const Json& v = o.at(key);
    const std::string name = o.prefix + key;
    const std::string range = fmt::format("{} .. {}", lo, hi);
    if (!v.is_number()) fail(name, fmt::format("must be a whole number in {} (got {})", range, json_excerpt(v)));
    bool in_range = false;
    std::int64_t x = 0;
    if (v.is_number_unsigned()) {
        const std::uint64_t u = v.get<std::uint64_t>();
        in_range = u <= static_cast<std::uint64_t>(hi) && static_cast<std::int64_t>(u) >= lo;
        x = static_cast<std::int64_t>(u);
    } else if (v.is_number_integer()) {
        x = v.get<std::int64_t>();
        in_range = x >= lo && x <= hi;
    } else {
        const double d = v.get<double>();
        if (d != std::floor(d)) fail(name, fmt::format("= {} is not a whole number ({})", json_excerpt(v), range));
        in_range = d >= static_cast<double>(lo) && d <= static_cast<double>(hi);
        if (in_range) x = static_cast<std::int64_t>(d);
    }
    if (!in_range) fail(name, fmt::format("= {} is out of range ({})", json_excerpt(v), range));
    use(o, key, std::to_string(x));
    return x;
}

std::optional<std::string> Reader::text(const Object& o, const std::string& key) {
    if (!o.has(key)) return std::nullopt;
    const Json& v = o.at(key);
    if (!v.is_string()) fail(o.prefix + key, fmt::format("must be a string (got {})", json_excerpt(v)));
    use(o, key, v.get<std::string>());
    return v.get<std::string>();
}

std::optional<bool> Reader::boolean(const Object& o, const std::string& key) {
    if (!o.has(key)) return std::nullopt;
    const Json& v = o.at(key);
    if (!v.is_boolean()) fail(o.prefix + key, fmt::format("must be true or false (got {})", json_excerpt(v)));
    use(o, key, v.get<bool>() ? "true" : "false");
    return v.get<bool>();
}

std::vector<double> Reader::numbers(const Object& o, const std::string& key, double lo, double hi) {
    if (!o.has(key)) return {};
    const Json& v = o.at(key);
    const std::string name = o.prefix + key;
    if (!v.is_array()) fail(name, fmt::format("must be a list of numbers (got {})", json_excerpt(v)));
    std::vector<double> list;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const Json& item = v[i];
        if (!item.is_number() || !std::isfinite(item.get<double>()) || item.get<double>() < lo || item.get<double>() > hi) {
            fail(fmt::format("{}[{}]", name, i),
                 fmt::format("= {} is not a number in {} .. {}", json_excerpt(item), shown(lo), shown(hi)));
        }
        list.push_back(item.get<double>());
    }
    use(o, key, fmt::format("{} values", list.size()));
    return list;
}

std::optional<Reader::Object> Reader::object(const Object& o, const std::string& key) {
    if (!o.has(key)) return std::nullopt;
    const Json& v = o.at(key);
    if (!v.is_object()) fail(o.prefix + key, fmt::format("must be an object (got {})", json_excerpt(v)));
    mark_read(o, key);
    return Object{&v, o.prefix + key + "."};
}

void Reader::list_unread(const Object& o, const std::string& why, bool rope) {
    if (!o.json) return;
    for (auto it = o.json->begin(); it != o.json->end(); ++it) {
        const std::string name = o.prefix + it.key();
        if (!read_.count(name)) out_.ignored.push_back({name, why, rope});
    }
}

void Reader::not_applied(const Object& o, const std::string& key, std::string why) {
    read_.insert(o.prefix + key);
    out_.ignored.push_back({o.prefix + key, std::move(why), true});
}

bool rope_named(std::string_view key) {
    for (std::string_view part : {"rope", "rotary", "theta", "position", "partial", "no_rope", "layer_types", "sliding", "mrope"}) {
        if (key.find(part) != std::string_view::npos) return true;
    }
    return false;
}

}  // namespace ropelab::config_detail
