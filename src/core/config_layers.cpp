// The per-layer rules of a config.json: which layers rotate, which see a sliding window or a
// chunk, and Llama 4's query temperature on its NoPE layers. Each rule follows the config class
// that builds layer_types when the file has none, and the modeling file that applies it:
//   Llama 4    configuration_llama4.py (no_rope_layers, layer_types: chunked_attention on RoPE
//              layers), modeling_llama4.py (Llama4TextAttention: use_rope, attn_temperature_tuning)
//   Gemma 2/3  configuration_gemma2.py / configuration_gemma3.py (sliding every layer but every
//              2nd / sliding_window_pattern-th), modeling_gemma3.py (rope_local_base_freq)
//   Cohere2    configuration_cohere2.py, modeling_cohere2.py (RoPE on sliding layers only)
//   EXAONE 4   configuration_exaone4.py, modular_exaone4.py (the same, pattern "LLLG")
//   SmolLM3    configuration_smollm3.py, modeling_smollm3.py (no_rope_layers)
//   Qwen3-Next configuration_qwen3_next.py (layer_types: linear_attention has no RoPE)
//   Qwen3.5    configuration_qwen3_5.py (the same; without layer_types every 4th layer is full)
//   Gemma 4    configuration_gemma4.py (every 6th layer full, the last one always)
//   Mistral    modeling_mistral.py, modeling_mixtral.py, modeling_starcoder2.py (sliding_window on
//              every layer when set)
//   Qwen2/3    configuration_qwen2.py, configuration_qwen3.py (use_sliding_window: layers from
//              max_window_layers on slide)
//   masking_utils.py: sliding_window_overlay and chunked_overlay, which LayerAttention mirrors.
#include <algorithm>

#include <fmt/format.h>

#include "core/config_reader.h"

namespace ropelab::config_detail {

namespace {

// A key count_layers may have read already: its value, without a second "used" row.
std::optional<std::int64_t> integer_once(Reader& r, const Reader::Object& t, const std::string& key, std::int64_t lo,
                                         std::int64_t hi) {
    if (!t.has(key)) return std::nullopt;
    if (r.was_read(t, key) && t.at(key).is_number_integer()) return t.at(key).get<std::int64_t>();
    return r.integer(t, key, lo, hi);
}

bool family_is(const ModelFamily* family, std::string_view type) { return family && family->model_type == type; }

// no_rope_layers as 1 (RoPE) / 0 (none) per layer: the file's list, else the class's rule (every
// no_rope_layer_interval-th layer without); empty when neither applies. count_layers checked it.
std::vector<int> no_rope_flags(const Reader::Object& t, const ModelFamily* family, std::int64_t layers) {
    std::vector<int> flags;
    if (t.has("no_rope_layers") && t.at("no_rope_layers").is_array() && !t.at("no_rope_layers").empty()) {
        for (const Json& v : t.at("no_rope_layers")) flags.push_back(v.is_boolean() ? int(v.get<bool>()) : int(v.get<std::int64_t>()));
        return flags;
    }
    if (!family || family->no_rope_every == 0 || layers <= 0) return flags;
    std::int64_t every = family->no_rope_every;
    if (t.has("no_rope_layer_interval") && t.at("no_rope_layer_interval").is_number_integer()) {
        every = std::max<std::int64_t>(1, t.at("no_rope_layer_interval").get<std::int64_t>());
    }
    for (std::int64_t i = 0; i < layers; ++i) flags.push_back((i + 1) % every != 0);
    return flags;
}

// The layer types the config class builds when the file lists none; empty when it has no rule.
std::vector<std::string> class_layer_types(const Reader::Object& t, const ModelFamily* family, std::int64_t layers,
                                           const std::vector<int>& no_rope) {
    std::vector<std::string> types;
    if (family_is(family, "llama4") && !no_rope.empty()) {
        for (int rope : no_rope) types.push_back(rope ? "chunked_attention" : "full_attention");
        return types;
    }
    if (layers <= 0) return types;
    const auto by_rule = [&](auto global) {
        for (std::int64_t i = 0; i < layers; ++i) types.push_back(global(i) ? "full_attention" : "sliding_attention");
    };
    if (family_is(family, "qwen3_5") || family_is(family, "qwen3_5_moe")) {
        // configuration_qwen3_5.py: every full_attention_interval-th layer (4) is full attention,
        // the others linear attention (Gated DeltaNet, no RoPE).
        std::int64_t every = 4;
        if (t.has("full_attention_interval") && t.at("full_attention_interval").is_number_integer()) {
            every = std::max<std::int64_t>(1, t.at("full_attention_interval").get<std::int64_t>());
        }
        for (std::int64_t i = 0; i < layers; ++i) types.push_back((i + 1) % every ? "linear_attention" : "full_attention");
        return types;
    }
    if (family_is(family, "gemma4")) {
        // configuration_gemma4.py: 5 sliding layers to 1 full, and the last layer always full.
        by_rule([layers](std::int64_t i) { return (i + 1) % 6 == 0 || i == layers - 1; });
    } else if (family_is(family, "gemma2") || family_is(family, "vaultgemma")) {
        by_rule([](std::int64_t i) { return (i + 1) % 2 == 0; });
    } else if (family_is(family, "gemma3") || family_is(family, "cohere2") || family_is(family, "exaone4")) {
        if (!t.has("sliding_window_pattern")) return types;
        const Json& pattern = t.at("sliding_window_pattern");
        if (pattern.is_number_integer() && pattern.get<std::int64_t>() >= 1) {
            const std::int64_t every = pattern.get<std::int64_t>();
            by_rule([every](std::int64_t i) { return (i + 1) % every == 0; });
        } else if (pattern.is_string() && !pattern.get<std::string>().empty()) {
            const std::string p = pattern.get<std::string>();
            by_rule([&p](std::int64_t i) { return p[static_cast<std::size_t>(i) % p.size()] == 'G'; });
        }
    } else if ((family_is(family, "mistral") || family_is(family, "mixtral") || family_is(family, "starcoder2")) &&
               t.has("sliding_window")) {
        // modeling_mistral.py, modeling_mixtral.py, modeling_starcoder2.py: a sliding_window
        // (not null) windows every layer's mask.
        by_rule([](std::int64_t) { return false; });
    } else if ((family_is(family, "qwen2") || family_is(family, "qwen3") || family_is(family, "smollm3")) &&
               t.has("use_sliding_window") && t.at("use_sliding_window") == true && t.has("sliding_window")) {
        // configuration_qwen2.py / qwen3 / smollm3: with use_sliding_window, layers from
        // max_window_layers on slide.
        const std::int64_t from = t.has("max_window_layers") && t.at("max_window_layers").is_number_integer()
                                      ? t.at("max_window_layers").get<std::int64_t>()
                                      : layers;
        by_rule([from](std::int64_t i) { return i < from; });
    } else if (!no_rope.empty()) {
        types.assign(no_rope.size(), "full_attention");  // SmolLM3 without a sliding window
    }
    return types;
}

}  // namespace

bool rope_free_layer_type(std::string_view name) {
    for (std::string_view t : {"linear_attention", "mamba", "mamba2", "conv", "recurrent", "ssm"}) {
        if (name == t) return true;
    }
    return false;
}

std::vector<LayerRule> read_layer_rules(Reader& r, const Reader::Object& t, const ModelFamily* family,
                                        const std::vector<std::string>& file_types, const std::vector<SettingTheta>& settings) {
    std::int64_t layers = static_cast<std::int64_t>(file_types.size());
    if (layers == 0 && t.has("num_hidden_layers") && t.at("num_hidden_layers").is_number_integer()) {
        layers = t.at("num_hidden_layers").get<std::int64_t>();
        if (layers < 1 || layers > kMaxLayers) layers = 0;
    }
    const std::vector<int> no_rope = no_rope_flags(t, family, layers);
    if (layers == 0) layers = static_cast<std::int64_t>(no_rope.size());
    std::vector<std::string> types = file_types.empty() ? class_layer_types(t, family, layers, no_rope) : file_types;
    if (types.empty()) return {};
    if (family_is(family, "gemma4") && types.back() != "full_attention") {
        // Gemma4TextConfig.__post_init__ forces the last layer to full_attention (with a warning).
        r.assume(fmt::format("{}layer_types[{}]", t.prefix, types.size() - 1), "full_attention", ReadField::Origin::Derived,
                 fmt::format("Gemma4TextConfig makes the last layer full_attention (the file says {})", types.back()));
        types.back() = "full_attention";
    }
    if (!no_rope.empty() && no_rope.size() != types.size()) {
        r.fail(t.prefix + "no_rope_layers", fmt::format("has {} entries for {} layers (one per layer)", no_rope.size(), types.size()));
    }
    // The window of sliding layers; a null window makes them full (Mistral-style configs with
    // use_sliding_window false, Cohere2 and EXAONE 4 without one).
    const std::int64_t window = integer_once(r, t, "sliding_window", 1, kMaxContext).value_or(0);
    if (file_types.empty() && t.has("use_sliding_window") && t.at("use_sliding_window") == true) {
        r.boolean(t, "use_sliding_window");
        if (t.has("max_window_layers")) r.integer(t, "max_window_layers", 0, kMaxLayers);
    }
    std::int64_t chunk = 0;
    bool tuning = false;
    double floor_scale = 8192.0, attn_scale = 0.1;
    if (family_is(family, "llama4")) {
        // Llama4TextConfig's defaults: attention_chunk_size 8192, attn_temperature_tuning true,
        // floor_scale 8192, attn_scale 0.1.
        chunk = t.is_null("attention_chunk_size") ? 0 : integer_once(r, t, "attention_chunk_size", 1, kMaxContext).value_or(8192);
        if (t.is_null("attention_chunk_size")) r.mark_read(t, "attention_chunk_size");
        const std::string why = "Llama4TextConfig's default (the file leaves it out)";
        const auto tuning_given = r.boolean(t, "attn_temperature_tuning");
        const auto floor_given = r.number(t, "floor_scale", 1.0, 1e12);
        const auto scale_given = r.number(t, "attn_scale", 0.0, 10.0);
        tuning = tuning_given.value_or(true);
        floor_scale = floor_given.value_or(8192.0);
        attn_scale = scale_given.value_or(0.1);
        if (!tuning_given) r.assume(t.prefix + "attn_temperature_tuning", "true", ReadField::Origin::Default, why);
        if (!floor_given) r.assume(t.prefix + "floor_scale", "8192", ReadField::Origin::Default, why);
        if (!scale_given) r.assume(t.prefix + "attn_scale", "0.1", ReadField::Origin::Default, why);
        if (!t.has("attention_chunk_size") && !t.is_null("attention_chunk_size")) {
            r.assume(t.prefix + "attention_chunk_size", "8192", ReadField::Origin::Default, why);
        }
    }
    const bool global_without_rope = family && family->global_layers_without_rope && window > 0;
    std::vector<LayerRule> rules;
    for (std::size_t i = 0; i < types.size(); ++i) {
        LayerRule rule;
        rule.type = types[i];
        if (settings.size() > 1) {
            const auto it = std::find_if(settings.begin(), settings.end(), [&](const SettingTheta& s) { return s.name == rule.type; });
            if (it == settings.end() && !rope_free_layer_type(rule.type)) {
                // transformers looks each layer type's parameters up by name (rope_parameters[layer_type]):
                // a layer type without them has no RoPE setting, never the first one's.
                std::string names;
                for (const SettingTheta& named : settings) names += (names.empty() ? "" : ", ") + named.name;
                r.fail(fmt::format("{}layer_types[{}]", t.prefix, i),
                       fmt::format("= \"{}\" has no RoPE parameters: the model's settings are for {} only", rule.type, names));
            }
            const SettingTheta& s = it == settings.end() ? settings.front() : *it;
            rule.setting = s.name;
            rule.theta = s.theta;
        } else if (!settings.empty()) {
            rule.theta = settings.front().theta;
        }
        LayerAttention& a = rule.attention;
        a.rope = !rope_free_layer_type(rule.type) && (no_rope.empty() || no_rope[i] != 0) &&
                 !(global_without_rope && rule.type == "full_attention");
        if (rule.type == "sliding_attention") a.sliding_window = window;
        if (rule.type == "chunked_attention") a.attention_chunk = chunk;
        if (family_is(family, "llama4") && !a.rope) {
            a.temperature_tuning = tuning;
            a.floor_scale = floor_scale;
            a.attn_scale = attn_scale;
        }
        rules.push_back(std::move(rule));
    }
    return rules;
}

}  // namespace ropelab::config_detail

namespace ropelab {

std::string layer_label(int index, const LayerRule& rule) {
    const LayerAttention& a = rule.attention;
    std::string what = a.rope ? fmt::format("RoPE θ={}", config_detail::shown(rule.theta)) : std::string("NoPE");
    if (a.sliding_window > 0) what += fmt::format(", window {}", a.sliding_window);
    if (a.attention_chunk > 0) what += fmt::format(", chunk {}", a.attention_chunk);
    if (a.temperature_tuning) what += ", temperature";
    return fmt::format("{}: {} ({})", index, rule.type, what);
}

std::string layer_preview(int index, const LayerRule& rule) {
    const LayerAttention& a = rule.attention;
    std::string what = a.rope ? "RoPE" : "NoPE";
    if (a.sliding_window > 0) what += fmt::format(", window {}", a.sliding_window);
    if (a.attention_chunk > 0) what += fmt::format(", chunk {}", a.attention_chunk);
    return fmt::format("layer {}: {}", index, what);
}

}  // namespace ropelab
