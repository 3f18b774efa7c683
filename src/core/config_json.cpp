#include "core/config_json.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/input_file.h"

namespace ropelab {

namespace {

using Json = nlohmann::json;

// A view of one JSON object that knows its path, so every error names the field.
class Fields {
public:
    Fields(const Json& object, std::string prefix) : object_(object), prefix_(std::move(prefix)) {}

    bool has(const char* key) const {
        return object_.contains(key) && !object_.at(key).is_null();
    }

    std::optional<double> number(const char* key) const {
        if (!has(key)) return std::nullopt;
        const Json& v = object_.at(key);
        if (!v.is_number()) fail(key, v, "must be a number");
        const double x = v.get<double>();
        if (!std::isfinite(x)) fail(key, v, "must be finite");
        return x;
    }

    std::optional<std::int64_t> integer(const char* key) const {
        const auto x = number(key);
        if (!x) return std::nullopt;
        if (*x != std::floor(*x) || std::abs(*x) > 9.0e15) {
            fail(key, object_.at(key), "must be an integer");
        }
        return static_cast<std::int64_t>(*x);
    }

    std::optional<std::string> text(const char* key) const {
        if (!has(key)) return std::nullopt;
        const Json& v = object_.at(key);
        if (!v.is_string()) fail(key, v, "must be a string");
        return v.get<std::string>();
    }

    std::vector<double> numbers(const char* key) const {
        if (!has(key)) return {};
        const Json& v = object_.at(key);
        if (!v.is_array()) fail(key, v, "must be an array of numbers");
        std::vector<double> out;
        for (const Json& item : v) {
            if (!item.is_number() || !std::isfinite(item.get<double>())) {
                fail(key, item, "must contain only finite numbers");
            }
            out.push_back(item.get<double>());
        }
        return out;
    }

    std::optional<Fields> object(const char* key) const {
        if (!has(key)) return std::nullopt;
        const Json& v = object_.at(key);
        if (!v.is_object()) fail(key, v, "must be an object");
        return Fields(v, prefix_ + key + ".");
    }

private:
    [[noreturn]] void fail(const char* key, const Json& value, const char* rule) const {
        std::string shown = value.dump();
        if (shown.size() > 60) shown = shown.substr(0, 57) + "...";
        throw InputError(fmt::format("{}{} {} (got {})", prefix_, key, rule, shown));
    }

    const Json& object_;
    std::string prefix_;
};

// head_dim, else hidden_size / num_attention_heads (GPT-J spells them n_embd / n_head).
int read_head_dim(const Fields& f) {
    if (auto head_dim = f.integer("head_dim")) return static_cast<int>(*head_dim);
    const auto hidden = f.has("hidden_size") ? f.integer("hidden_size") : f.integer("n_embd");
    const auto heads =
        f.has("num_attention_heads") ? f.integer("num_attention_heads") : f.integer("n_head");
    if (!hidden || !heads) {
        throw InputError("cannot tell the head dim: give head_dim, or hidden_size and "
                         "num_attention_heads");
    }
    if (*heads <= 0 || *hidden % *heads != 0) {
        throw InputError(fmt::format(
            "hidden_size {} is not a multiple of num_attention_heads {}", *hidden, *heads));
    }
    return static_cast<int>(*hidden / *heads);
}

// partial_rotary_factor, or its spellings in GPT-NeoX (rotary_pct) and GPT-J (rotary_dim).
double read_partial_rotary_factor(const Fields& f, int head_dim) {
    if (auto factor = f.number("partial_rotary_factor")) return *factor;
    if (auto pct = f.number("rotary_pct")) return *pct;
    if (auto dims = f.integer("rotary_dim")) return static_cast<double>(*dims) / head_dim;
    return 1.0;
}

RopeScaling read_scaling(const Fields& s) {
    RopeScaling out;
    auto type = s.text("rope_type");
    if (!type) type = s.text("type");  // the legacy key
    out.type = type ? parse_rope_type(*type) : RopeType::Default;
    out.factor = s.number("factor");
    out.low_freq_factor = s.number("low_freq_factor");
    out.high_freq_factor = s.number("high_freq_factor");
    out.beta_fast = s.number("beta_fast").value_or(out.beta_fast);
    out.beta_slow = s.number("beta_slow").value_or(out.beta_slow);
    out.attention_factor = s.number("attention_factor");
    out.mscale = s.number("mscale");
    out.mscale_all_dim = s.number("mscale_all_dim");
    out.original_max_position_embeddings = s.integer("original_max_position_embeddings");
    out.long_factor = s.numbers("long_factor");
    out.short_factor = s.numbers("short_factor");
    return out;
}

LoadedConfig read_config(const Json& root) {
    if (!root.is_object()) throw InputError("the top level must be a JSON object");
    const Fields f(root, "");
    LoadedConfig out;
    ModelConfig& c = out.config;
    c.head_dim = read_head_dim(f);
    c.partial_rotary_factor = read_partial_rotary_factor(f, c.head_dim);
    c.rope_theta = f.number("rope_theta").value_or(f.number("rotary_emb_base").value_or(10000.0));
    c.max_position_embeddings = f.integer("max_position_embeddings")
                                    .value_or(f.integer("n_positions").value_or(2048));
    c.original_max_position_embeddings = f.integer("original_max_position_embeddings");
    if (auto scaling = f.object("rope_scaling")) {
        c.rope_scaling = read_scaling(*scaling);
    } else if (auto parameters = f.object("rope_parameters")) {  // newer HF spelling
        c.rope_scaling = read_scaling(*parameters);
        c.rope_theta = parameters->number("rope_theta").value_or(c.rope_theta);
    }
    if (auto note = f.object("_ropelab")) {
        out.note.name = note->text("name").value_or("");
        out.note.title = note->text("title").value_or("");
        out.note.source = note->text("source").value_or("");
        if (auto layout = note->text("layout")) c.layout = parse_pair_layout(*layout);
    }
    validate(c);
    return out;
}

}  // namespace

LoadedConfig parse_config_json(std::string_view text, std::string_view source) {
    Json root;
    try {
        root = Json::parse(text);
    } catch (const Json::exception& e) {  // parse errors and out-of-range numbers alike
        throw InputError(fmt::format("{}: not valid JSON: {}", source, e.what()));
    }
    try {
        return read_config(root);
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}", source, e.what()));
    }
}

LoadedConfig load_config_json(const std::string& path) {
    return parse_config_json(read_input_file(path, "config"), path);
}

}  // namespace ropelab
