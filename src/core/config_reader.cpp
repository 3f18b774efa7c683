#include "core/config_reader.h"

#include <algorithm>
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

void Reader::unuse(const std::string& name, std::string why) {
    std::erase_if(out_.used, [&](const ReadField& f) { return f.name == name; });
    read_.insert(name);
    // A config class's default the file leaves out is no field of the file: nothing to list.
    if (!defaulted_.count(name)) out_.ignored.push_back({name, std::move(why), true});
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
        // A config class's default that nothing read is not a key of the file.
        if (!read_.count(name) && !defaulted_.count(name)) out_.ignored.push_back({name, why, rope});
    }
}

void Reader::not_applied(const Object& o, const std::string& key, std::string why) {
    read_.insert(o.prefix + key);
    out_.ignored.push_back({o.prefix + key, std::move(why), true});
}

namespace {

// RoPE values whose null transformers keeps and then fails on (or, for the booleans, silently reads
// as false). Not here: keys whose null transformers itself reads as "left out" — rope_scaling,
// rope_parameters, head_dim, sliding_window, layer_types, no_rope_layers, rotary_dim (GPT-J: the
// whole head), and YaRN's attention_factor, mscale and mscale_all_dim (read with .get, None = derived).
constexpr std::string_view kNullRefused[] = {
    "rope_theta", "rope_local_base_freq", "rotary_emb_base", "partial_rotary_factor", "rotary_pct",
    "rope_type", "type", "factor", "low_freq_factor", "high_freq_factor", "beta_fast", "beta_slow",
    "long_factor", "short_factor", "original_max_position_embeddings", "truncate", "mrope_section",
    "mrope_interleaved", "rope_interleave", "max_position_embeddings", "sliding_window_pattern",
    "qk_rope_head_dim", "qk_nope_head_dim"};

// The booleans the reader uses (and Falcon's alibi, which decides whether it has RoPE at all).
constexpr std::string_view kBooleans[] = {"use_sliding_window", "rope_interleave", "attn_temperature_tuning", "alibi",
                                          "truncate", "mrope_interleaved"};

// configuration_utils.py, ALLOWED_LAYER_TYPES (transformers 5).
constexpr std::string_view kLayerTypes[] = {"full_attention", "sliding_attention", "chunked_attention",
                                            "compressed_sparse_attention", "heavily_compressed_attention", "minimax_m3_sparse",
                                            "conv", "sparse", "dense", "hybrid", "hybrid_sliding", "moe",
                                            "deepseek_sparse_attention", "linear_attention"};

}  // namespace

void refuse_nulls(Reader& r, const Reader::Object& o) {
    if (!o.json) return;
    for (std::string_view key : kNullRefused) {
        const std::string k(key);
        if (!o.is_null(k)) continue;
        if (k == "rope_theta") {
            r.fail(o.prefix + k, "= null: transformers takes the null as the base, not the config class's default, "
                                 "and cannot compute the frequencies; give a number, or leave the key out for the default");
        }
        r.fail(o.prefix + k, "= null: transformers takes the null as the value, not the config class's default (which "
                             "fills in only a missing key), and cannot use it; give a value, or leave the key out for the default");
    }
}

bool allowed_layer_type(std::string_view name) {
    return std::find(std::begin(kLayerTypes), std::end(kLayerTypes), name) != std::end(kLayerTypes);
}

std::string allowed_layer_types_text() {
    std::string s;
    for (std::string_view t : kLayerTypes) s += (s.empty() ? "" : ", ") + std::string(t);
    return s;
}

std::optional<std::int64_t> declared_layers(const Reader::Object& t) {
    if (!t.has("num_hidden_layers") || !t.at("num_hidden_layers").is_number_integer()) return std::nullopt;
    return t.at("num_hidden_layers").get<std::int64_t>();
}

void check_fields(Reader& r, const Reader::Object& t) {
    refuse_nulls(r, t);
    for (std::string_view key : kBooleans) {
        const std::string k(key);
        if (t.has(k) && !t.at(k).is_boolean()) {
            r.fail(t.prefix + k, fmt::format("= {} must be true or false (JSON booleans, not text or numbers)", json_excerpt(t.at(k))));
        }
    }
    if (t.has("num_hidden_layers")) {
        const Json& n = t.at("num_hidden_layers");
        const bool whole = n.is_number_integer() || n.is_number_unsigned();
        const bool in_range = whole && (n.is_number_unsigned() ? n.get<std::uint64_t>() <= static_cast<std::uint64_t>(kMaxLayers) &&
                                                                     n.get<std::uint64_t>() >= 1
                                                               : n.get<std::int64_t>() >= 1 && n.get<std::int64_t>() <= kMaxLayers);
        if (!in_range) {
            r.fail(t.prefix + "num_hidden_layers",
                   fmt::format("= {} is not a whole number of layers in 1 .. {}", json_excerpt(n), kMaxLayers));
        }
    }
    if (t.has("sliding_window_pattern")) {
        const Json& p = t.at("sliding_window_pattern");
        const bool positive = (p.is_number_integer() || p.is_number_unsigned()) && !p.is_number_float() &&
                              (p.is_number_unsigned() ? p.get<std::uint64_t>() >= 1 : p.get<std::int64_t>() >= 1);
        const bool letters = p.is_string() && !p.get<std::string>().empty() &&
                             p.get<std::string>().find_first_not_of("LG") == std::string::npos;
        if (!positive && !letters) {
            r.fail(t.prefix + "sliding_window_pattern",
                   fmt::format("= {} must be a positive whole number (every Nth layer is global) or a string of L and G "
                               "(EXAONE 4); transformers builds layer_types from it",
                               json_excerpt(p)));
        }
        if (positive && p.is_number_unsigned() && p.get<std::uint64_t>() > static_cast<std::uint64_t>(kMaxLayers)) {
            r.fail(t.prefix + "sliding_window_pattern", fmt::format("= {} is out of range (1 .. {})", json_excerpt(p), kMaxLayers));
        }
        if (positive && !p.is_number_unsigned() && p.get<std::int64_t>() > kMaxLayers) {
            r.fail(t.prefix + "sliding_window_pattern", fmt::format("= {} is out of range (1 .. {})", json_excerpt(p), kMaxLayers));
        }
    }
}

bool rope_named(std::string_view key) {
    for (std::string_view part : {"rope", "rotary", "theta", "position", "partial", "no_rope", "layer_types", "sliding", "mrope"}) {
        if (key.find(part) != std::string_view::npos) return true;
    }
    return false;
}

}  // namespace ropelab::config_detail
