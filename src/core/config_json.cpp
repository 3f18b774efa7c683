#include "core/config_json.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "core/config_reader.h"
#include "core/error.h"
#include "core/input_file.h"
#include "core/json_input.h"

namespace ropelab {

namespace {

using config_detail::Reader;
using config_detail::family_of;
using config_detail::rope_named;
using config_detail::shown;
using config_detail::read_head;
using config_detail::read_layout;
using config_detail::read_model_type;
using config_detail::read_scaling;
using config_detail::rope_free_layer_type;
using config_detail::read_layer_types;
using config_detail::count_layers;

struct Setting {
    std::string name;
    double theta = 10000.0;
    RopeScaling scaling;
    std::optional<double> partial_rotary_factor;  // v5: inside rope_parameters
    config_detail::MropeRead mrope;
    bool proportional = false;     // rope_type "proportional" (Gemma 4's full_attention)
    std::optional<double> alpha{};  // HunYuan's rope_scaling.alpha (DynamicNTKAlphaRotary)
    std::string alpha_field{};
};

bool hunyuan(const ModelFamily* family) {
    return family && (family->model_type == "hunyuan_v1_dense" || family->model_type == "hunyuan_v1_moe");
}

// HunYuan (modeling_hunyuan_v1_dense.py, HunYuanDenseV1RotaryEmbedding.__init__): rope_type
// "dynamic" with an alpha is a fixed base θ·α^(d/(d−2)), not dynamic NTK; the other scaling keys
// beside it are not used. Applied once the head is known (apply_alpha).
void read_alpha(Reader& r, const Reader::Object& o, const ModelFamily* family, Setting& s) {
    if (!hunyuan(family) || s.scaling.type != RopeType::Dynamic || !o.has("alpha")) return;
    s.alpha = r.number(o, "alpha", 1.0, 1e9);
    s.alpha_field = o.prefix + "alpha";
    const std::string why = "not applied: with alpha, HunYuan's rotary takes the fixed base θ·α^(d/(d−2)) and no other scaling key";
    for (const char* key : {"factor", "beta_fast", "beta_slow", "mscale", "mscale_all_dim", "attention_factor",
                            "original_max_position_embeddings"}) {
        if (o.has(key) && r.was_read(o, key)) r.unuse(o.prefix + key, why);
    }
    s.scaling = RopeScaling{};
}

// _ropelab: a preset's own metadata. Returns its layout, which overrides the modeling code's.
std::optional<std::string> read_preset_note(Reader& r, const Reader::Object& root, LoadedConfig& out, MultiAxis& axes) {
    auto note = r.object(root, "_ropelab");
    if (!note) return std::nullopt;
    out.note.name = r.text(*note, "name").value_or("");
    out.note.title = r.text(*note, "title").value_or("");
    out.note.source = r.text(*note, "source").value_or("");
    std::optional<std::string> layout = r.text(*note, "layout");
    if (layout) {
        try {
            parse_pair_layout(*layout);
        } catch (const InputError&) {
            r.fail(note->prefix + "layout", fmt::format("= \"{}\" is not a pair layout (one of interleaved, half)", *layout));
        }
    }
    config_detail::read_preset_multi_axis(r, *note, axes);
    r.list_unread(*note, "not a ropelab preset field");
    return layout;
}

// Multimodal models keep the language model's settings in text_config. Points `t` at the object
// to read and says whether it is nested.
bool read_text_config(Reader& r, const Reader::Object& root, Reader::Object& t, LoadedConfig& out) {
    t = root;
    auto text = r.object(root, "text_config");
    if (!text && root.has("model_type") && root.at("model_type").is_string() &&
        !config_detail::default_text_model(root.at("model_type").get<std::string>()).empty()) {
        // LlavaConfig: no text_config is a default LlamaConfig (transformers builds one).
        static const Json kNone = Json::object();
        t = Reader::Object{&kNone, "text_config."};
        out.notes.push_back(fmt::format("multimodal config without text_config: transformers' {} builds the text model as a "
                                        "default {}, and so does ropelab (its defaults are listed as such)",
                                        config_detail::composite_class(root.at("model_type").get<std::string>()),
                                        config_detail::default_text_model(root.at("model_type").get<std::string>())));
        return true;
    }
    if (!text) return false;
    t = *text;
    out.notes.push_back("multimodal config: the text model's fields were read from text_config");
    return true;
}

// Published files leave out what the config class fills in; reading a copy with those keys added
// lets every later read name them as defaults. `with_defaults` must outlive `t`.
void fill_class_defaults(Reader& r, Reader::Object& t, const ModelFamily* family, Json& with_defaults) {
    if (!family || family->class_defaults.empty()) return;
    with_defaults = *t.json;
    const Json defaults = Json::parse(family->class_defaults);
    const std::string why = std::string(family->config_class) + "'s default (the file leaves it out)";
    for (const auto& [key, value] : defaults.items()) {
        if (with_defaults.contains(key) && !with_defaults[key].is_null()) continue;
        // The class's scaling stands in for a missing rope_scaling, not beside a v5 rope_parameters.
        if (key == "rope_scaling" && t.has("rope_parameters")) continue;
        with_defaults[key] = value;
        r.defaulted(t.prefix + key, why);
        if (value.is_object()) {
            for (const auto& [inner, v] : value.items()) r.defaulted(t.prefix + key + "." + inner, why);
        }
    }
    t.json = &with_defaults;
}

// The base of settings that give none: rope_theta, else GPT-NeoX's rotary_emb_base, else the
// config class's default. The default is listed as used only by a setting that uses it.
struct BaseTheta {
    double value = 10000.0;
    bool from_file = false;
    std::string field;  // "rope_theta", "rotary_emb_base"; "" for the default
    std::string why;    // for the default: whose
};

BaseTheta read_base_theta(Reader& r, const Reader::Object& t, const ModelFamily* family) {
    const auto top_theta = r.number(t, "rope_theta", kMinTheta, kMaxTheta);
    const auto neox_base = top_theta ? std::nullopt : r.number(t, "rotary_emb_base", kMinTheta, kMaxTheta);
    if (top_theta) return {*top_theta, true, t.prefix + "rope_theta", ""};
    if (neox_base) return {*neox_base, true, t.prefix + "rotary_emb_base", ""};
    return {family ? family->theta_default : 10000.0, false, "",
            family ? fmt::format("{}'s default", family->config_class) : std::string("transformers' default_theta")};
}

// The default base, listed where a setting uses it.
void assume_base(Reader& r, const BaseTheta& base, const std::string& name) {
    if (!base.from_file) r.assume(name, shown(base.value), ReadField::Origin::Default, base.why);
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
Setting read_parameters(Reader& r, const Reader::Object& o, std::string name, const BaseTheta& base, LoadedConfig& out,
                        const ModelFamily* family) {
    config_detail::refuse_nulls(r, o);
    const auto own = r.number(o, "rope_theta", kMinTheta, kMaxTheta);
    if (!own) assume_base(r, base, o.prefix + "rope_theta");
    Setting s{std::move(name), own.value_or(base.value), {}, {}, {}};
    s.partial_rotary_factor = r.number(o, "partial_rotary_factor", 1e-6, 1.0);
    s.proportional = o.has("rope_type") && o.at("rope_type") == "proportional";
    read_scaling(r, o, s.scaling, out, &s.mrope);
    read_alpha(r, o, family, s);
    r.list_unread(o, "a RoPE parameter ropelab does not apply", true);
    return s;
}

// Before v5: the model's base with rope_scaling; Gemma 3's rope_local_base_freq adds a second setting.
void read_legacy_settings(Reader& r, const Reader::Object& t, const ModelFamily* family, const BaseTheta& base,
                          std::vector<Setting>& settings, LoadedConfig& out) {
    const double base_theta = base.value;
    assume_base(r, base, t.prefix + "rope_theta");
    Setting s{"", base_theta, {}, {}, {}};
    const auto scaling = r.object(t, "rope_scaling");
    if (scaling) {
        read_scaling(r, *scaling, s.scaling, out, &s.mrope);
        read_alpha(r, *scaling, family, s);
        r.list_unread(*scaling, "a RoPE parameter ropelab does not apply", true);
    }
    // Olmo3Config.convert_rope_params_to_dict (configuration_olmo3.py) merges rope_scaling into
    // full_attention's parameters only, and pops the file's rope_theta for full_attention alone:
    // the sliding layers get the class's default θ, unscaled, whatever the file says.
    const bool olmo3_split = family && family->scaling_only_on_full && (scaling || base_theta != family->theta_default);
    if (olmo3_split) {
        s.name = "full_attention";
        settings.push_back(s);
        settings.push_back(Setting{"sliding_attention", family->theta_default, {}, {}, {}});
        if (base_theta != family->theta_default) {
            out.notes.push_back(fmt::format("sliding_attention layers: θ {} ({}'s default), not the file's rope_theta {}: "
                                            "transformers gives the file's θ to full_attention layers only",
                                            shown(family->theta_default), family->config_class, shown(base_theta)));
        }
    } else if (auto local = r.number(t, "rope_local_base_freq", kMinTheta, kMaxTheta)) {
        // Gemma 3 (modeling_gemma3.py): sliding-window layers use this base, unscaled.
        s.name = "full_attention";
        settings.push_back(s);
        settings.push_back(Setting{"sliding_attention", *local, {}, {}, {}});
    } else {
        settings.push_back(std::move(s));
    }
}

// The settings: v5 rope_parameters (flat or per layer type), else v4 rope_scaling and Gemma 3's
// rope_local_base_freq. Never empty.
std::vector<Setting> read_settings(Reader& r, const Reader::Object& t, const ModelFamily* family, const BaseTheta& base,
                                   LoadedConfig& out) {
    std::vector<Setting> settings;
    const auto parameters = r.object(t, "rope_parameters");
    // Keyed by layer type (transformers 5: {"full_attention": {...}, "sliding_attention": {...}})
    // when any entry is an object or any key is a layer type: no flat key holds an object. Then
    // every entry must be one layer type's parameters, never dropped as a whole for one bad entry.
    bool per_layer = false;
    if (parameters) {
        for (auto it = parameters->json->begin(); it != parameters->json->end(); ++it) {
            per_layer = per_layer || it.value().is_object() || config_detail::allowed_layer_type(it.key());
        }
    }
    if (per_layer) {
        for (auto it = parameters->json->begin(); it != parameters->json->end(); ++it) {
            const std::string field = parameters->prefix + it.key();
            if (!it.value().is_object()) {
                r.fail(field, fmt::format("= {} must be an object: rope_parameters is keyed by layer type here, and each "
                                          "entry holds that layer type's RoPE parameters",
                                          json_excerpt(it.value())));
            }
            if (!config_detail::allowed_layer_type(it.key())) {
                r.fail(field, fmt::format("names no layer type transformers knows (one of {})", config_detail::allowed_layer_types_text()));
            }
        }
        for (auto it = parameters->json->begin(); it != parameters->json->end(); ++it) {
            const auto o = r.object(*parameters, it.key());
            settings.push_back(read_parameters(r, *o, it.key(), base, out, family));
        }
    } else if (parameters) {
        settings.push_back(read_parameters(r, *parameters, "", base, out, family));
    } else {
        read_legacy_settings(r, t, family, base, settings, out);
    }
    // transformers 5 (standardize_rope_params) keeps each setting's own rope_theta: the top-level
    // one then applies to no layer.
    if (parameters && base.from_file) {
        bool every_own = true;
        if (per_layer) {
            for (auto it = parameters->json->begin(); it != parameters->json->end(); ++it) every_own = every_own && it.value().contains("rope_theta");
        } else {
            every_own = parameters->json->contains("rope_theta");
        }
        if (every_own) {
            r.unuse(base.field, fmt::format("not applied: rope_parameters gives {} its own rope_theta, which transformers uses instead",
                                            per_layer ? "every layer type" : "the model"));
        }
    }
    if (parameters && t.has("rope_scaling")) {
        r.mark_read(t, "rope_scaling");
        out.ignored.push_back({t.prefix + "rope_scaling", "rope_parameters (transformers v5) is read instead", true});
    }
    return settings;
}

// The setting shown: the one asked for, else full attention, else the first. A layer type the
// model does not have is an error, not a silent fallback.
const Setting& choose_setting(Reader& r, const std::vector<Setting>& settings, std::string_view wanted_layer, const std::string& counts,
                              LoadedConfig& out) {
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
    out.notes.push_back(fmt::format("the model's layers use {} RoPE settings{}; showing {} (--layer-type or the "
                                    "panel picks another)",
                                    settings.size(), counts, chosen.name));
    return chosen;
}

// Whether remote code may take a key for its RoPE: RoPE-named keys (rope_ratio, rotary_emb_base,
// rotary_dim, …), position keys (n_positions, seq_length), NTK and log-n scaling switches (Qwen's
// use_dynamic_ntk, use_logn_attn) and the head's width (kv_channels, head_dim).
bool remote_rope_like(const std::string& k) {
    const bool pos = k == "pos" || k.starts_with("pos_") || k.ends_with("_pos") || k.find("_pos_") != std::string::npos;
    return rope_named(k) || pos || k.find("ntk") != std::string::npos || k.find("logn") != std::string::npos ||
           k == "kv_channels" || k.ends_with("head_dim") || k == "seq_length";
}

// Families whose config class sets sliding_window to None unless use_sliding_window is true
// (configuration_qwen2.py: `sliding_window if use_sliding_window else None`, and the classes
// copied from it).
bool window_needs_switch(const ModelFamily* family) {
    if (!family) return false;
    for (std::string_view type : {"qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "smollm3", "qwen2_vl", "qwen2_5_vl"}) {
        if (family->model_type == type) return true;
    }
    return false;
}

// Why a RoPE-named key nothing read is not applied.
std::string why_not_applied(std::string_view key, const Json& value, bool remote_code, const Reader::Object& o,
                            const ModelFamily* family) {
    if (remote_code) return "the model's remote code may use it; transformers does not, and neither does ropelab";
    if (key == "rope_interleaved" || key == "use_mrope") {
        return "transformers does not read it either (no config class or modeling file uses it): the frequencies are "
               "as transformers computes them without it";
    }
    if (value.is_null()) return "null, the same as left out";
    if (key == "sliding_window" && window_needs_switch(family) && !(o.has("use_sliding_window") && o.at("use_sliding_window") == true)) {
        return fmt::format("not used: use_sliding_window is {}, so {} sets sliding_window to None (no layer slides)",
                           o.has("use_sliding_window") ? "false" : "left out (false)", family->config_class);
    }
    if (key == "no_rope_layer_interval") return "the config class's rule when no_rope_layers is left out; the file's list is read";
    if (key == "sliding_window_size") return "an older name of sliding_window (Gemma 2); sliding_window is read";
    if (key == "use_sliding_window" || key == "max_window_layers") {
        return "false or unused: no layer slides (with use_sliding_window true, layers from max_window_layers on would)";
    }
    if (key.find("sliding") != std::string_view::npos) {
        return "sliding-window attention with no per-layer rule ropelab knows for this model (layer_types, or Gemma 2/3, "
               "Cohere2 and EXAONE 4's pattern); --sliding-window sets it";
    }
    if (key == "rope_ratio") return "remote code's θ multiplier (ChatGLM); transformers has no such key";
    return "a RoPE field ropelab does not apply";
}

// What is left: RoPE-named keys with why they are not applied, the rest as not about RoPE; listed
// so that `freqs --explain` shows nothing was missed.
void list_leftovers(Reader& r, const Reader::Object& t, const Reader::Object& root, bool nested, bool remote_code,
                    const ModelFamily* family) {
    if (t.has("sliding_window_pattern")) r.mark_read(t, "sliding_window_pattern");
    const auto route = [&](const Reader::Object& o, const std::string& other) {
        if (!o.json) return;
        for (auto it = o.json->begin(); it != o.json->end(); ++it) {
            if (!r.was_read(o, it.key()) && (rope_named(it.key()) || (remote_code && remote_rope_like(it.key())))) {
                r.not_applied(o, it.key(), why_not_applied(it.key(), it.value(), remote_code, o, family));
            }
        }
        r.list_unread(o, other);
    };
    route(t, "not about RoPE");
    if (nested) route(root, "not about the text model's RoPE");
}

// The key names of auto_map's classes: "configuration_chatglm.ChatGLMConfig, …".
std::string auto_map_classes(const Json& map) {
    std::string names;
    const auto add = [&](const Json& v) {
        if (v.is_string()) names += (names.empty() ? "" : ", ") + v.get<std::string>();
    };
    if (!map.is_object()) return json_excerpt(map);
    for (const auto& [key, value] : map.items()) {
        if (value.is_array()) {
            for (const Json& v : value) add(v);
        } else {
            add(value);
        }
    }
    return names.empty() ? "none named" : names;
}

// The top-level keys remote code may take for RoPE (rope_ratio, …), read by ropelab or not: the
// remote code decides what each means.
std::string remote_rope_keys(const Reader::Object& o) {
    std::string keys;
    for (auto it = o.json->begin(); it != o.json->end(); ++it) {
        if (remote_rope_like(it.key())) keys += (keys.empty() ? "" : ", ") + it.key();
    }
    return keys.empty() ? "none found" : keys;
}

// A model type transformers runs without RoPE (GPT-2's learned positions, BLOOM's ALiBi, …), or a
// Falcon with alibi: true, is refused as having none; no flag turns it into a RoPE model.
void refuse_without_rope(Reader& r, const Reader::Object& t, const std::optional<std::string>& type, const ModelFamily* family) {
    const std::string flags = "no flag (--layout, --partial-rotary-factor, --head-dim) makes it one";
    if (type) {
        if (const NoRopeFamily* none = find_no_rope_family(*type)) {
            throw InputError(fmt::format("{}: {}model_type = \"{}\": this model has no RoPE: {} ({}); ropelab shows rotary position "
                                         "embeddings only, and {}",
                                         r.source(), t.prefix, *type, none->positions, none->source, flags));
        }
    }
    if (family && family->model_type == "falcon" && t.has("alibi") && t.at("alibi").is_boolean()) {
        if (r.boolean(t, "alibi").value_or(false)) {
            r.fail(t.prefix + "alibi", fmt::format("= true: this Falcon model has no RoPE: FalconConfig's rotary is `not alibi`, "
                                                   "and its attention adds ALiBi biases instead (models/falcon/modeling_falcon.py); {}",
                                                   flags));
        }
    }
}

// A model the family table does not know, or whose RoPE is its own remote code, is read only when
// the user says how its RoPE is laid out; transformers itself would run the remote code, or fail.
// Returns whether the file names remote code whose keys ropelab leaves unapplied.
// What the file's own rotary field suggests for --partial-rotary-factor (phi-msft's rotary_dim 32 of a
// 64-wide head: 0.5), or "" when it has none.
std::string suggested_factor(const Reader::Object& o, int head_dim) {
    if (o.has("rotary_dim") && o.at("rotary_dim").is_number_integer()) {
        const std::int64_t dims = o.at("rotary_dim").get<std::int64_t>();
        if (dims >= 2 && dims <= head_dim) {
            return fmt::format(" (its rotary_dim {} of a {}-wide head is --partial-rotary-factor {})", dims, head_dim,
                               shown(static_cast<double>(dims) / head_dim));
        }
    }
    for (const char* key : {"partial_rotary_factor", "rotary_pct"}) {
        if (o.has(key) && o.at(key).is_number() && o.at(key).get<double>() > 0 && o.at(key).get<double>() <= 1) {
            return fmt::format(" (its {} {} is --partial-rotary-factor {})", key, shown(o.at(key).get<double>()),
                               shown(o.at(key).get<double>()));
        }
    }
    return "";
}

bool check_family(Reader& r, const Reader::Object& root, const ModelFamily* family, const std::optional<std::string>& type,
                  const std::string& arch, bool ropelab_file, const GivenRope& given, LoadedConfig& out) {
    const std::string& source = r.source();
    if (root.has("auto_map")) {
        r.mark_read(root, "auto_map");
        const std::string classes = auto_map_classes(root.at("auto_map"));
        if (family) {
            // transformers: a model_type it has its own classes for is read with them unless
            // trust_remote_code is set (AutoConfig, has_local_code).
            out.notes.push_back(fmt::format("auto_map names remote code ({}); transformers reads model_type \"{}\" with its own "
                                            "classes unless trust_remote_code is set, and so does ropelab",
                                            classes, type.value_or(std::string(family->model_type))));
            return false;
        }
        if (!given.both()) {
            throw UnknownFamilyError(fmt::format(
                "{}: auto_map: this model's RoPE is defined by its own remote code ({}), not by transformers; fields its code "
                "may use: {}; give --layout and --partial-rotary-factor to read it as a transformers model with those settings{}",
                source, classes, remote_rope_keys(root), suggested_factor(root, out.config.head_dim)));
        }
        out.notes.push_back(fmt::format("auto_map: the model's RoPE is its own remote code ({}); read as a transformers model "
                                        "with --layout {} and --partial-rotary-factor {}; fields its code may use are listed "
                                        "under \"RoPE fields ropelab does not apply\"",
                                        classes, to_string(*given.layout), shown(*given.partial_rotary_factor)));
        return true;
    }
    if (family || ropelab_file) return false;
    const std::string what = type ? fmt::format("model_type \"{}\"", *type)
                                  : arch.empty() ? std::string("a file with no model_type and no architectures")
                                                 : fmt::format("no model_type, and architectures[0] \"{}\",", arch);
    if (!given.both()) {
        throw UnknownFamilyError(fmt::format("{}: {} is not in ropelab's family table ({} families, see `ropelab families`); say how "
                                     "its RoPE is laid out with --layout half|interleaved and --partial-rotary-factor F{}",
                                     source, what, model_families().size(), suggested_factor(root, out.config.head_dim)));
    }
    out.notes.push_back(fmt::format("{} is not in ropelab's family table: read with --layout {} and --partial-rotary-factor {}",
                                    what, to_string(*given.layout), shown(*given.partial_rotary_factor)));
    return false;
}

// The file's partial rotary factor: the top level's (read with the head) wins, as transformers'
// standardize_rope_params copies it into rope_parameters; else the chosen setting's; else --partial-rotary-factor
// for a model the table does not know.
void apply_partial(Reader& r, const Reader::Object& t, const Setting& chosen, const ModelFamily* family, const GivenRope& given,
                   ModelConfig& c) {
    const bool top = t.has("partial_rotary_factor") || t.has("rotary_pct") || t.has("rotary_dim") || t.has("qk_rope_head_dim");
    if (!top && chosen.partial_rotary_factor) {
        c.partial_rotary_factor = *chosen.partial_rotary_factor;
    } else if (!family && given.partial_rotary_factor) {
        // The user's factor is what rotates: the file's own rotary fields (phi-msft's rotary_dim)
        // are listed as not applied, never as used beside it.
        ModelConfig flagged = c;
        flagged.partial_rotary_factor = *given.partial_rotary_factor;
        const std::string why = fmt::format("not applied: --partial-rotary-factor {} decides the rotary dim ({} of {} components "
                                            "rotate); the model type is not in ropelab's family table",
                                            shown(*given.partial_rotary_factor), rotary_dim(flagged), c.head_dim);
        for (const char* key : {"partial_rotary_factor", "rotary_pct", "rotary_dim"}) {
            if (t.has(key) && r.was_read(t, key)) r.unuse(t.prefix + key, why);
        }
        c.partial_rotary_factor = *given.partial_rotary_factor;
        r.assume("partial_rotary_factor", shown(c.partial_rotary_factor), ReadField::Origin::Default,
                 "--partial-rotary-factor: the model type is not in ropelab's family table");
    }
}

// HunYuan's NTK-alpha base over the head (HunYuanDenseV1RotaryEmbedding: dim = config.head_dim).
// transformers' dynamic_rope_update would recompute past max_position_embeddings with plain
// dynamic NTK; up to there the base is fixed, and that is what the lab shows.
void apply_alpha(Reader& r, const Setting& chosen, ModelConfig& c, LoadedConfig& out) {
    if (!chosen.alpha) return;
    const double d = c.head_dim;
    c.rope_theta = chosen.theta * std::pow(*chosen.alpha, d / (d - 2));
    c.rope_scaling = RopeScaling{};
    r.assume("rope_theta (NTK-alpha base)", shown(c.rope_theta), ReadField::Origin::Derived,
             fmt::format("rope_theta {} × {} ^ (head_dim {} / (head_dim − 2)), modeling_hunyuan_v1_dense.py "
                         "(HunYuanDenseV1RotaryEmbedding: DynamicNTKAlphaRotary)",
                         shown(chosen.theta), chosen.alpha_field, c.head_dim));
    out.notes.push_back(fmt::format("{} = {}: HunYuan's NTK-alpha RoPE, a fixed base θ·α^(d/(d−2)) = {} with default frequencies "
                                    "over the head (up to max_position_embeddings; past it transformers' dynamic_rope_update "
                                    "would recompute plain dynamic NTK)",
                                    chosen.alpha_field, shown(*chosen.alpha), shown(c.rope_theta)));
}

// modeling_rope_utils._compute_proportional_rope_parameters: of the head's d/2 pairs, the first
// ⌊partial_rotary_factor·d / 2⌋ rotate at θ^(−2j/d) — the exponent over the whole head — and the
// rest get frequency 0. That is p-RoPE over the whole head with the slowest pairs dropped, so
// the rotary dim is the head and p_rope the dropped fraction (exactly: dropped / pairs). Gemma 4's
// full_attention layers are global_head_dim wide (Gemma4TextAttention.head_dim).
void apply_proportional(Reader& r, const Reader::Object& t, const Setting& chosen, const ModelFamily* family, ModelConfig& c,
                        LoadedConfig& out) {
    if (!chosen.proportional) return;
    if (family && family->model_type == "gemma4" && chosen.name == "full_attention") {
        if (const auto global = r.integer(t, "global_head_dim", 2, kMaxHeadDim)) {
            c.head_dim = static_cast<int>(*global);
            out.notes.push_back(fmt::format("full_attention layers are global_head_dim = {} wide (Gemma4TextAttention); "
                                            "sliding_attention layers head_dim wide",
                                            c.head_dim));
        }
    }
    const double p = chosen.partial_rotary_factor.value_or(1.0);
    const int pairs = c.head_dim / 2;
    const int rotated = static_cast<int>(std::floor(p * c.head_dim / 2));
    if (rotated < 1) {
        r.fail(chosen.name.empty() ? "rope_parameters.partial_rotary_factor" : "rope_parameters." + chosen.name + ".partial_rotary_factor",
               fmt::format("= {}: proportional RoPE rotates floor({} × {} / 2) = 0 pairs", shown(p), shown(p), c.head_dim));
    }
    c.partial_rotary_factor = 1.0;
    c.p_rope = static_cast<double>(pairs - rotated) / pairs;
    r.assume("p_rope", shown(c.p_rope), ReadField::Origin::Derived,
             fmt::format("rope_type proportional: the fastest floor({} × {} / 2) = {} of {} pairs rotate at θ^(−2j/{}), the other {} "
                         "have frequency 0 (modeling_rope_utils._compute_proportional_rope_parameters)",
                         shown(p), c.head_dim, rotated, pairs, c.head_dim, pairs - rotated));
    out.notes.push_back(fmt::format("proportional RoPE = p-RoPE: {} of {} pairs rotate, their exponent over the whole {}-wide head "
                                    "(not a partial rotary dim of {})",
                                    rotated, pairs, c.head_dim, 2 * rotated));
}

// nanochat (modular_nanochat.py): rotate_half returns cat(x2, −x1), so q·cos + rotate_half(q)·sin
// rotates each pair by −mθ. Exact in the lab as +mθ on vectors whose pair components are swapped.
void apply_negative_rotation(Reader& r, const ModelFamily* family, ModelConfig& c, LoadedConfig& out) {
    if (!family || family->model_type != "nanochat") return;
    c.negative_rotation = true;
    r.assume("rotation", "−θ (negative_rotation)", ReadField::Origin::Derived,
             "modular_nanochat.py: rotate_half = cat(x2, −x1), so y1 = x1·cos + x2·sin, y2 = −x1·sin + x2·cos");
    out.notes.push_back("rotation by −θ (nanochat): y1 = x1·cos + x2·sin, y2 = −x1·sin + x2·cos over the halves. Since "
                        "S·R(θ)·S = R(−θ) for S the swap of a pair's components, its q·k is ordinary RoPE's for q and k with "
                        "each pair's components swapped (x1 ↔ x2): the same frequencies, the score curve mirrored in Δ "
                        "(a key n positions back scores as one n ahead would under +θ)");
}

// Gemma 4 (Gemma4TextAttention): scaling = 1.0, the q and k norms stand in for 1/√d.
void apply_gemma4_scale(Reader& r, const ModelFamily* family, ModelConfig& c) {
    if (!family || family->model_type != "gemma4") return;
    c.query_pre_attn_scalar = 1.0;
    r.assume("attention scaling", "1", ReadField::Origin::Derived,
             "Gemma4TextAttention.scaling = 1.0 (q_norm and k_norm instead of 1/√head_dim)");
}

// The text model's layer type when a vision tower is offered beside a single setting.
constexpr const char* kTextLayer = "text";
// DeepSeek-V3.2's two RoPEs on the same cos and sin: MLA's and the lightning indexer's.
constexpr const char* kMlaLayer = "mla";
constexpr const char* kIndexerLayer = "indexer";

bool has_indexer(const ModelFamily* family) { return family && family->model_type == "deepseek_v32"; }

// modeling_deepseek_v32.py, DeepseekV32Indexer.forward: the indexer's q and k are index_head_dim
// wide, [rot | pass] with the first qk_rope_head_dim rotating by apply_rotary_pos_emb (rotate_half,
// "NON-interleaved … unlike the main MLA attention"), on the model's own cos and sin (θ, YaRN and
// its attention factor unchanged); softmax_scale = index_head_dim^−½.
void apply_indexer(Reader& r, const Reader::Object& t, ModelConfig& c, LoadedConfig& out) {
    const int rotary = rotary_dim(c);
    const auto head = r.integer(t, "index_head_dim", rotary, kMaxHeadDim);
    c.head_dim = static_cast<int>(head.value_or(128));
    c.partial_rotary_factor = static_cast<double>(rotary) / c.head_dim;
    c.rotary_offset = 0;
    c.layout = PairLayout::Half;
    r.unuse("layout", "MLA's pairing (apply_rotary_pos_emb_interleave); the indexer pairs with rotate_half");
    r.assume("indexer layout", "half", ReadField::Origin::Derived,
             "DeepseekV32Indexer.forward: apply_rotary_pos_emb (rotate_half) on q_rot, k_rot");
    r.assume("indexer rotary dim", std::to_string(rotary), ReadField::Origin::Derived,
             fmt::format("qk_rope_head_dim: components 0 .. {} of the {}-wide indexer head rotate (torch.split [rot | pass])",
                         rotary - 1, c.head_dim));
    out.notes.push_back(fmt::format("lightning indexer: the first {} of its {} components rotate with rotate_half pairs (i, i + {}), "
                                    "on the same frequencies as MLA's interleaved rope part; --layer-type mla shows MLA",
                                    rotary, c.head_dim, rotary / 2));
}

void validate_named(const ModelConfig& c, const std::string& source) {
    try {
        validate(c);
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}", source, e.what()));
    }
}

LoadedConfig read_config(const Json& root_json, const std::string& source, std::string_view wanted_layer,
                         std::vector<std::string> duplicate_notes, const GivenRope& given, int layer) {
    if (!root_json.is_object()) throw InputError(fmt::format("{}: the top level must be a JSON object", source));
    LoadedConfig out;
    out.notes = std::move(duplicate_notes);
    Reader r(out, source);
    const Reader::Object root{&root_json, ""};
    ModelConfig& c = out.config;

    MultiAxis preset_axes;
    const std::optional<std::string> ropelab_layout = read_preset_note(r, root, out, preset_axes);
    if (config_detail::read_diffusers_config(r, root, c, out)) {
        if (!wanted_layer.empty()) {
            throw InputError(fmt::format("{}: --layer-type {}: this model has one RoPE setting for every layer", source, wanted_layer));
        }
        layer_setting(source, {}, layer, "");  // a diffusers transformer has no per-layer rules
        validate_named(c, source);
        return out;
    }
    Reader::Object t;
    const bool nested = read_text_config(r, root, t, out);
    std::string arch;
    const std::optional<std::string> type = read_model_type(r, t, root, nested, arch);
    const ModelFamily* family = family_of(type, arch);
    refuse_without_rope(r, t, type, family);
    // ropelab's own files (presets) say their layout and name no model type; a "_ropelab" note on a
    // model's config does not stand in for the family table.
    const bool ropelab_file = ropelab_layout && !type && arch.empty();
    Json with_defaults;  // outlives t, which may point at it
    config_detail::check_fields(r, t);  // before the class's defaults, which fill in only what is missing
    fill_class_defaults(r, t, family, with_defaults);

    read_head(r, t, c, family, given);
    read_layout(r, t, c, out, family, type, ropelab_layout, given);
    const BaseTheta base_theta = read_base_theta(r, t, family);
    read_context_length(r, t, c);

    const std::vector<std::string> types = read_layer_types(r, t);
    const std::vector<Setting> settings = read_settings(r, t, family, base_theta, out);
    const std::string counts = count_layers(r, t, family, types, out);
    std::vector<config_detail::SettingTheta> thetas;
    for (const Setting& s : settings) thetas.push_back({s.name, s.theta});
    out.layers = config_detail::read_layer_rules(r, t, family, types, thetas);
    const std::string wanted_type = layer_setting(source, out.layers, layer, wanted_layer);
    // A vision tower is one more layer type beside the text model's setting(s).
    const bool tower = config_detail::has_vision_tower(root, family);
    const bool want_vision = tower && wanted_type == "vision";
    const bool want_text = tower && settings.size() == 1 && wanted_type == kTextLayer;
    const bool indexer = has_indexer(family);
    const bool want_indexer = indexer && wanted_type == kIndexerLayer;
    const bool own_type = want_vision || want_text || (indexer && (want_indexer || wanted_type == kMlaLayer));
    const Setting& chosen = choose_setting(r, settings, own_type ? "" : std::string_view(wanted_type), counts, out);
    if (!want_vision) apply_layer_rule(chosen.name, layer, out);
    c.rope_theta = chosen.theta;
    c.rope_scaling = chosen.scaling;
    apply_partial(r, t, chosen, family, given, c);
    apply_alpha(r, chosen, c, out);
    apply_proportional(r, t, chosen, family, c, out);
    apply_gemma4_scale(r, family, c);
    apply_negative_rotation(r, family, c, out);
    if (indexer) {
        out.layer_types = {kMlaLayer, kIndexerLayer};
        out.layer_type = want_indexer ? kIndexerLayer : kMlaLayer;
        if (want_indexer) {
            apply_indexer(r, t, c, out);
        } else {
            if (t.has("index_head_dim")) r.mark_read(t, "index_head_dim");
            out.notes.push_back("MLA's rope part (interleaved); --layer-type indexer (or the panel's Layer type) shows the "
                                "lightning indexer's rotate_half RoPE on the same frequencies");
        }
    }
    if (want_vision) {
        c = config_detail::read_vision_tower(r, root, family, out);
    } else {
        config_detail::read_multi_axis(r, root, family, chosen.mrope, c, out);
        if (preset_axes.rule != AxisRule::None && !chosen.mrope.any()) {
            c.multi_axis = preset_axes;
            out.notes.push_back(fmt::format("multi-axis rule {} from the preset's _ropelab.multi_axis (no published config names it)",
                                            to_string(preset_axes.rule)));
        }
    }
    if (tower) {
        if (out.layer_types.empty()) out.layer_types.push_back(kTextLayer);
        out.layer_types.push_back("vision");
        if (want_vision) {
            out.layer_type = "vision";
        } else if (out.layer_type.empty()) {
            out.layer_type = kTextLayer;
        }
        if (!want_vision) {
            out.notes.push_back("vision_config: the vision tower rotates with its own 2-D RoPE; --layer-type vision (or the panel's "
                                "Layer type) shows it");
        }
    }

    // A bad value is named before the family: the refusal of an unknown model comes once the
    // rest of the file is known to read.
    validate_named(c, source);
    const bool remote_code = check_family(r, root, family, type, arch, ropelab_file, given, out);
    list_leftovers(r, t, root, nested, remote_code, family);
    return out;
}

const char* origin_name(ReadField::Origin o) {
    switch (o) {
        case ReadField::Origin::File: return "file";
        case ReadField::Origin::Default: return "default";
        case ReadField::Origin::Derived: return "derived";
        case ReadField::Origin::Flag: return "flag";
    }
    return "file";
}

}  // namespace

// The setting a picked layer uses (its layer type when the model's types differ in RoPE), else
// the one asked for. A layer outside the file's layers, or a layer type that contradicts it, is
// refused naming the file.
std::string layer_setting(const std::string& source, const std::vector<LayerRule>& layers, int layer, std::string_view wanted) {
    if (layer < 0) return std::string(wanted);
    if (layers.empty()) {
        throw InputError(fmt::format("{}: --layer {}: this file has no per-layer rules (no layer types, NoPE, hybrid or "
                                     "sliding-window layers), so every layer is the same; leave --layer out",
                                     source, layer));
    }
    if (static_cast<std::size_t>(layer) >= layers.size()) {
        throw InputError(fmt::format("{}: --layer {}: the model has {} layers (0 .. {})", source, layer, layers.size(), layers.size() - 1));
    }
    const LayerRule& rule = layers[static_cast<std::size_t>(layer)];
    if (rule.setting.empty()) return std::string(wanted);
    if (!wanted.empty() && wanted != rule.setting) {
        throw InputError(fmt::format("{}: --layer {} is a {} layer, not --layer-type {}", source, layer, rule.setting, wanted));
    }
    return rule.setting;
}

// The attention rules shown: the picked layer's, else those of the first layer of the chosen
// setting that applies RoPE (the layer the frequencies describe), said in a note.
void apply_layer_rule(const std::string& setting, int layer, LoadedConfig& out) {
    if (out.layers.empty()) return;
    const auto of_setting = [&](const LayerRule& l) { return l.setting.empty() || l.setting == setting; };
    if (layer >= 0) {
        out.layer = layer;
        out.config.attention = out.layers[static_cast<std::size_t>(layer)].attention;
        out.notes.push_back(fmt::format("showing layer {}", layer_label(layer, out.layers[static_cast<std::size_t>(layer)])));
        return;
    }
    auto it = std::find_if(out.layers.begin(), out.layers.end(), [&](const LayerRule& l) { return of_setting(l) && l.attention.rope; });
    if (it == out.layers.end()) it = std::find_if(out.layers.begin(), out.layers.end(), of_setting);
    if (it == out.layers.end()) return;
    out.default_layer = static_cast<int>(it - out.layers.begin());
    out.config.attention = it->attention;
    out.notes.push_back(fmt::format("no layer picked: attention as in layer {}, the first {}layer{}; --layer (or the panel's "
                                    "Layer) picks another",
                                    layer_label(out.default_layer, *it), it->attention.rope ? "RoPE " : "",
                                    setting.empty() ? "" : " of " + setting));
}

LoadedConfig parse_config_json(std::string_view text, std::string_view source, std::string_view layer_type, const GivenRope& given,
                               int layer) {
    std::vector<std::string> duplicates;
    const Json root = parse_json_input(text, source, &duplicates);
    return read_config(root, std::string(source), layer_type, std::move(duplicates), given, layer);
}

LoadedConfig load_config_json(const std::string& path, std::string_view layer_type, const GivenRope& given, int layer) {
    return parse_config_json(read_input_file(path, "config"), path, layer_type, given, layer);
}

std::vector<std::string> explain_lines(const LoadedConfig& loaded) {
    std::vector<std::string> lines;
    for (const ReadField& f : loaded.used) {
        lines.push_back(fmt::format("used: {} = {} ({}{})", f.name, f.value, origin_name(f.origin), f.why.empty() ? "" : ": " + f.why));
    }
    for (const IgnoredField& f : loaded.ignored) {
        if (f.rope) lines.push_back(fmt::format("RoPE, not applied: {} ({})", f.name, f.why));
    }
    if (loaded.layers_without_rope > 0) {
        lines.push_back(fmt::format("layers without RoPE: {} of {}", loaded.layers_without_rope, loaded.layer_count));
    }
    for (const IgnoredField& f : loaded.ignored) {
        if (!f.rope) lines.push_back(fmt::format("ignored: {} ({})", f.name, f.why));
    }
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
    if (loaded.layers_without_rope > 0) {
        s += fmt::format("layers without RoPE: {} of {}\n", loaded.layers_without_rope, loaded.layer_count);
    }
    if (!loaded.layers.empty()) {
        const int shown_layer = loaded.layer >= 0 ? loaded.layer : loaded.default_layer;
        s += fmt::format("per-layer rules: {} layers; attention as in layer {}{}\n", loaded.layers.size(),
                         shown_layer >= 0 ? layer_label(shown_layer, loaded.layers[static_cast<std::size_t>(shown_layer)]) : "(none)",
                         loaded.layer >= 0 ? "" : " (no --layer given)");
    }
    const auto section = [&](const char* title, bool rope) {
        s += title;
        bool any = false;
        for (const IgnoredField& f : loaded.ignored) {
            if (f.rope != rope) continue;
            s += fmt::format("  {:<44} {}\n", f.name, f.why);
            any = true;
        }
        if (!any) s += "  (nothing)\n";
    };
    section("RoPE fields ropelab does not apply:\n", true);
    section("ignored:\n", false);
    s += "notes:\n";
    for (const std::string& n : loaded.notes) s += "  " + n + "\n";
    if (loaded.notes.empty()) s += "  (none)\n";
    return s;
}

}  // namespace ropelab
