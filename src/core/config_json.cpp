#include "core/config_json.h"

#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "core/config_reader.h"
#include "core/error.h"
#include "core/input_file.h"
#include "core/json_input.h"

namespace ropelab {

namespace {

using config_detail::Reader;
using config_detail::base_model_type;
using config_detail::read_head;
using config_detail::read_layout;
using config_detail::read_model_type;
using config_detail::read_scaling;

// Values HF's config classes fill in when a file leaves them out, for the models whose published
// files rely on them (Gemma 3 4B's text_config gives neither heads, head_dim nor either base).
struct ClassDefaults {
    std::string_view model_type;
    std::string_view config_class;
    std::string_view json;
};
constexpr ClassDefaults kClassDefaults[] = {
    {"gemma3", "Gemma3TextConfig",
     R"({"head_dim": 256, "num_attention_heads": 8, "hidden_size": 2304, "rope_theta": 1000000.0,
         "rope_local_base_freq": 10000.0, "max_position_embeddings": 131072, "sliding_window_pattern": 6})"},
};

struct Setting {
    std::string name;
    double theta = 10000.0;
    RopeScaling scaling;
};

// _ropelab: a preset's own metadata. Returns its layout, which overrides the modeling code's.
std::optional<std::string> read_preset_note(Reader& r, const Reader::Object& root, LoadedConfig& out) {
    auto note = r.object(root, "_ropelab");
    if (!note) return std::nullopt;
    out.note.name = r.text(*note, "name").value_or("");
    out.note.title = r.text(*note, "title").value_or("");
    out.note.source = r.text(*note, "source").value_or("");
    std::optional<std::string> layout = r.text(*note, "layout");
    r.list_unread(*note, "not a ropelab preset field");
    return layout;
}

// Multimodal models keep the language model's settings in text_config. Points `t` at the object
// to read and says whether it is nested.
bool read_text_config(Reader& r, const Reader::Object& root, Reader::Object& t, LoadedConfig& out) {
    t = root;
    auto text = r.object(root, "text_config");
    if (!text) return false;
    t = *text;
    out.notes.push_back("multimodal config: the text model's fields were read from text_config");
    return true;
}

// Published files leave out what the config class fills in; reading a copy with those keys added
// lets every later read name them as defaults. `with_defaults` must outlive `t`.
void fill_class_defaults(Reader& r, Reader::Object& t, const std::optional<std::string>& type, Json& with_defaults) {
    for (const ClassDefaults& d : kClassDefaults) {
        if (!type || base_model_type(*type) != d.model_type) continue;
        with_defaults = *t.json;
        const Json defaults = Json::parse(d.json);
        for (const auto& [key, value] : defaults.items()) {
            if (with_defaults.contains(key) && !with_defaults[key].is_null()) continue;
            with_defaults[key] = value;
            r.defaulted(t.prefix + key, std::string(d.config_class) + "'s default (the file leaves it out)");
        }
        t.json = &with_defaults;
    }
}

// rope_theta, else GPT-NeoX's rotary_emb_base, else HF's default: the base of settings that give none.
double read_base_theta(Reader& r, const Reader::Object& t) {
    const auto top_theta = r.number(t, "rope_theta", kMinTheta, kMaxTheta);
    const auto neox_base = top_theta ? std::nullopt : r.number(t, "rotary_emb_base", kMinTheta, kMaxTheta);
    if (!top_theta && !neox_base) r.assume("rope_theta", "10000", ReadField::Origin::Default, "HF's default base");
    return top_theta.value_or(neox_base.value_or(10000.0));
}

// max_position_embeddings, else GPT-2 style n_positions, else HF's default.
void read_context_length(Reader& r, const Reader::Object& t, ModelConfig& c) {
    const auto max_pos = r.integer(t, "max_position_embeddings", 1, kMaxContext);
    const auto n_positions = max_pos ? std::nullopt : r.integer(t, "n_positions", 1, kMaxContext);
    c.max_position_embeddings = max_pos.value_or(n_positions.value_or(2048));
    if (!max_pos && !n_positions) r.assume("max_position_embeddings", "2048", ReadField::Origin::Default, "HF's default");
    c.original_max_position_embeddings = r.integer(t, "original_max_position_embeddings", 1, kMaxContext);
}

// One rope_parameters object (flat, or one layer type's): its own base, else the model's.
Setting read_parameters(Reader& r, const Reader::Object& o, std::string name, double base_theta, LoadedConfig& out) {
    Setting s{std::move(name), r.number(o, "rope_theta", kMinTheta, kMaxTheta).value_or(base_theta), {}};
    read_scaling(r, o, s.scaling, out);
    r.list_unread(o, "not a RoPE parameter ropelab knows");
    return s;
}

// Before v5: the model's base with rope_scaling; Gemma 3's rope_local_base_freq adds a second setting.
void read_legacy_settings(Reader& r, const Reader::Object& t, double base_theta, std::vector<Setting>& settings,
                          LoadedConfig& out) {
    Setting s{"", base_theta, {}};
    if (auto scaling = r.object(t, "rope_scaling")) {
        read_scaling(r, *scaling, s.scaling, out);
        r.list_unread(*scaling, "not a RoPE parameter ropelab knows");
    }
    if (auto local = r.number(t, "rope_local_base_freq", kMinTheta, kMaxTheta)) {
        // Gemma 3 (modeling_gemma3.py): sliding-window layers use this base, unscaled.
        s.name = "full_attention";
        settings.push_back(s);
        settings.push_back(Setting{"sliding_attention", *local, {}});
    } else {
        settings.push_back(std::move(s));
    }
}

// The settings: v5 rope_parameters (flat or per layer type), else v4 rope_scaling and Gemma 3's
// rope_local_base_freq. Never empty.
std::vector<Setting> read_settings(Reader& r, const Reader::Object& t, double base_theta, LoadedConfig& out) {
    std::vector<Setting> settings;
    const auto parameters = r.object(t, "rope_parameters");
    const bool per_layer = parameters && std::all_of(parameters->json->begin(), parameters->json->end(),
                                                     [](const Json& v) { return v.is_object(); }) &&
                           !parameters->json->empty();
    if (per_layer) {
        for (auto it = parameters->json->begin(); it != parameters->json->end(); ++it) {
            const auto o = r.object(*parameters, it.key());
            settings.push_back(read_parameters(r, *o, it.key(), base_theta, out));
        }
    } else if (parameters) {
        settings.push_back(read_parameters(r, *parameters, "", base_theta, out));
    } else {
        read_legacy_settings(r, t, base_theta, settings, out);
    }
    if (parameters && t.has("rope_scaling")) {
        r.mark_read(t, "rope_scaling");
        out.ignored.push_back({t.prefix + "rope_scaling", "rope_parameters (transformers v5) is read instead"});
    }
    return settings;
}

// How many layers use each setting, for the note: " (26 layers: 4 full_attention, …)", or "" when
// the file does not say.
std::string layer_counts(Reader& r, const Reader::Object& t) {
    std::string counts;
    if (const auto types = t.has("layer_types") && t.at("layer_types").is_array() ? &t.at("layer_types") : nullptr) {
        r.mark_read(t, "layer_types");
        std::map<std::string, int> n;
        for (const Json& v : *types) {
            if (v.is_string()) ++n[v.get<std::string>()];
        }
        for (const auto& [name, k] : n) counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", k, name);
        counts = " (" + std::to_string(types->size()) + " layers: " + counts + ")";
    } else if (t.has("sliding_window_pattern") && t.has("num_hidden_layers") && t.at("sliding_window_pattern").is_number_integer() &&
               t.at("num_hidden_layers").is_number_integer()) {
        // Gemma 3 before layer_types (modeling_gemma3.py): layer i is global when (i + 1) % pattern == 0.
        const std::int64_t pattern = t.at("sliding_window_pattern").get<std::int64_t>();
        const std::int64_t layers = t.at("num_hidden_layers").get<std::int64_t>();
        if (pattern >= 1 && layers >= 1 && layers <= 100000) {
            r.mark_read(t, "num_hidden_layers");
            const std::int64_t global = layers / pattern;
            counts = fmt::format(" ({} layers: {} full_attention, {} sliding_attention, every {}th global)", layers, global,
                                 layers - global, pattern);
        }
    }
    return counts;
}

// The setting shown: the one asked for, else full attention, else the first. A layer type the
// model does not have is an error, not a silent fallback.
const Setting& choose_setting(Reader& r, const Reader::Object& t, const std::vector<Setting>& settings,
                              std::string_view wanted_layer, LoadedConfig& out) {
    const std::string& source = r.source();
    if (settings.size() == 1) {
        if (!wanted_layer.empty()) {
            throw InputError(fmt::format("{}: --layer-type {}: this model has one RoPE setting for every layer", source, wanted_layer));
        }
        return settings.front();
    }
    for (const Setting& s : settings) out.layer_types.push_back(s.name);
    const std::string want = wanted_layer.empty() ? "full_attention" : std::string(wanted_layer);
    const auto it = std::find_if(settings.begin(), settings.end(), [&](const Setting& s) { return s.name == want; });
    if (it == settings.end() && !wanted_layer.empty()) {
        std::string names;
        for (const Setting& s : settings) names += (names.empty() ? "" : ", ") + s.name;
        throw InputError(fmt::format("{}: no layer type \"{}\" (this model has {})", source, wanted_layer, names));
    }
    const Setting& chosen = it == settings.end() ? settings.front() : *it;
    out.layer_type = chosen.name;
    const std::string counts = layer_counts(r, t);
    out.notes.push_back(fmt::format("the model's layers use {} RoPE settings{}; showing {} (--layer-type or the "
                                    "panel picks another)",
                                    settings.size(), counts, chosen.name));
    return chosen;
}

// What is left is not about RoPE; listed so that `freqs --explain` shows nothing was missed.
void list_leftovers(Reader& r, const Reader::Object& t, const Reader::Object& root, bool nested) {
    if (t.has("sliding_window_pattern")) r.mark_read(t, "sliding_window_pattern");
    r.list_unread(t, "not about RoPE");
    if (nested) r.list_unread(root, "not about the text model's RoPE");
}

LoadedConfig read_config(const Json& root_json, const std::string& source, std::string_view wanted_layer,
                         std::vector<std::string> duplicate_notes) {
    if (!root_json.is_object()) throw InputError(fmt::format("{}: the top level must be a JSON object", source));
    LoadedConfig out;
    out.notes = std::move(duplicate_notes);
    Reader r(out, source);
    const Reader::Object root{&root_json, ""};
    ModelConfig& c = out.config;

    const std::optional<std::string> ropelab_layout = read_preset_note(r, root, out);
    Reader::Object t;
    const bool nested = read_text_config(r, root, t, out);
    const std::optional<std::string> type = read_model_type(r, t, root, nested);
    Json with_defaults;  // outlives t, which may point at it
    fill_class_defaults(r, t, type, with_defaults);

    read_head(r, t, c, out);
    read_layout(r, t, c, out, type, ropelab_layout);
    const double base_theta = read_base_theta(r, t);
    read_context_length(r, t, c);

    const std::vector<Setting> settings = read_settings(r, t, base_theta, out);
    const Setting& chosen = choose_setting(r, t, settings, wanted_layer, out);
    c.rope_theta = chosen.theta;
    c.rope_scaling = chosen.scaling;

    list_leftovers(r, t, root, nested);
    try {
        validate(c);
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}", source, e.what()));
    }
    return out;
}

const char* origin_name(ReadField::Origin o) {
    switch (o) {
        case ReadField::Origin::File: return "file";
        case ReadField::Origin::Default: return "default";
        case ReadField::Origin::Derived: return "derived";
    }
    return "file";
}

}  // namespace

LoadedConfig parse_config_json(std::string_view text, std::string_view source, std::string_view layer_type) {
    std::vector<std::string> duplicates;
    const Json root = parse_json_input(text, source, &duplicates);
    return read_config(root, std::string(source), layer_type, std::move(duplicates));
}

LoadedConfig load_config_json(const std::string& path, std::string_view layer_type) {
    return parse_config_json(read_input_file(path, "config"), path, layer_type);
}

std::vector<std::string> explain_lines(const LoadedConfig& loaded) {
    std::vector<std::string> lines;
    for (const ReadField& f : loaded.used) {
        lines.push_back(fmt::format("used: {} = {} ({}{})", f.name, f.value, origin_name(f.origin), f.why.empty() ? "" : ": " + f.why));
    }
    for (const IgnoredField& f : loaded.ignored) lines.push_back(fmt::format("ignored: {} ({})", f.name, f.why));
    return lines;
}

std::string explain_config(const LoadedConfig& loaded) {
    std::string s = "used:\n";
    for (const ReadField& f : loaded.used) {
        s += fmt::format("  {:<44} {:<22} {}{}\n", f.name, f.value, origin_name(f.origin), f.why.empty() ? "" : ": " + f.why);
    }
    if (!loaded.layer_types.empty()) {
        std::string names;
        for (const std::string& n : loaded.layer_types) names += (names.empty() ? "" : ", ") + n;
        s += fmt::format("layer types: {} (showing {})\n", names, loaded.layer_type);
    }
    s += "ignored:\n";
    for (const IgnoredField& f : loaded.ignored) s += fmt::format("  {:<44} {}\n", f.name, f.why);
    if (loaded.ignored.empty()) s += "  (nothing)\n";
    s += "notes:\n";
    for (const std::string& n : loaded.notes) s += "  " + n + "\n";
    if (loaded.notes.empty()) s += "  (none)\n";
    return s;
}

}  // namespace ropelab
