// How many layers a config.json has, how many use each RoPE setting, and which apply no RoPE at
// all — counted from layer_types, or from the rule each family's config class applies when the
// file has none (Gemma 3's sliding_window_pattern, Cohere2 / EXAONE 4's global layers, Bamba's
// attn_layer_indices, Mllama's cross-attention layers, RecurrentGemma's block_types, Llama 4 and
// SmolLM3's no_rope_layers). config_layers.cpp turns the same keys into one rule per layer.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/config_reader.h"
#include "core/json_input.h"

namespace ropelab::config_detail {

namespace {

// A per-layer list (layer_types, no_rope_layers) has one entry per layer: as many as
// num_hidden_layers when the file gives it (transformers' layer_type_validation), and never more
// than kMaxLayers (inclusive: 100,000 entries pass, 100,001 do not).
void check_layer_list_length(Reader& r, const Reader::Object& t, const std::string& key, std::size_t n) {
    if (n > static_cast<std::size_t>(kMaxLayers)) {
        r.fail(t.prefix + key, fmt::format("has {} entries, over the {} layers a config may have", n, kMaxLayers));
    }
    if (const auto layers = declared_layers(t); layers && static_cast<std::size_t>(*layers) != n) {
        r.fail(t.prefix + key, fmt::format("has {} entries but num_hidden_layers = {}: transformers requires one per layer "
                                           "(layer_type_validation)",
                                           n, *layers));
    }
}

// no_rope_layers (Llama 4, SmolLM3): 1 = the layer applies RoPE, 0 = it does not. Returns how many
// have none, or nullopt when the list is absent or empty and the class has no default. Their classes
// fill in an absent or empty list with every no_rope_layer_interval-th layer (default 4) without RoPE.
std::optional<int> read_no_rope_layers(Reader& r, const Reader::Object& t, const ModelFamily* family, int& layers) {
    if (t.has("no_rope_layers")) {
        const Json& v = t.at("no_rope_layers");
        const std::string name = t.prefix + "no_rope_layers";
        if (!v.is_array()) r.fail(name, fmt::format("must be a list of 0 and 1, one per layer (got {})", json_excerpt(v)));
        if (!v.empty()) {
            check_layer_list_length(r, t, "no_rope_layers", v.size());
            int none = 0;
            for (std::size_t i = 0; i < v.size(); ++i) {
                const bool one = (v[i].is_number_integer() && v[i].get<std::int64_t>() == 1) || (v[i].is_boolean() && v[i].get<bool>());
                const bool zero = (v[i].is_number_integer() && v[i].get<std::int64_t>() == 0) || (v[i].is_boolean() && !v[i].get<bool>());
                if (!one && !zero) r.fail(fmt::format("{}[{}]", name, i), fmt::format("= {} is not 0 or 1 (1: the layer applies RoPE)", json_excerpt(v[i])));
                none += zero;
            }
            r.use(t, "no_rope_layers", fmt::format("{} of {} layers without RoPE", none, v.size()));
            layers = static_cast<int>(v.size());
            return none;
        }
        r.mark_read(t, "no_rope_layers");
    }
    if (!family || family->no_rope_every == 0) return std::nullopt;
    const auto n = r.integer(t, "num_hidden_layers", 1, kMaxLayers);
    const std::int64_t every = r.integer(t, "no_rope_layer_interval", 1, kMaxLayers).value_or(family->no_rope_every);
    if (!n) return std::nullopt;
    layers = static_cast<int>(*n);
    const int none = static_cast<int>(*n / every);
    r.assume("no_rope_layers", fmt::format("{} of {} layers without RoPE", none, *n), ReadField::Origin::Default,
             fmt::format("{}'s default: every {}th layer has none", family->config_class, every));
    return none;
}

// Cohere2 and EXAONE 4 rotate only their sliding-window layers: with sliding_window set, the
// full_attention layers (from layer_types, else sliding_window_pattern: every Nth layer, or the
// 'G's of a string such as "LLLG") apply no RoPE. Returns how many, and sets `layers` when only
// the pattern tells.
std::optional<int> global_layers_without_rope(Reader& r, const Reader::Object& t, const std::vector<std::string>& types, int& layers) {
    if (!t.has("sliding_window")) return std::nullopt;
    r.integer(t, "sliding_window", 1, kMaxContext);
    if (!types.empty()) return static_cast<int>(std::count(types.begin(), types.end(), "full_attention"));
    if (!t.has("num_hidden_layers") || !t.at("num_hidden_layers").is_number_integer() || !t.has("sliding_window_pattern")) {
        return std::nullopt;
    }
    const std::int64_t n = t.at("num_hidden_layers").get<std::int64_t>();
    const Json& pattern = t.at("sliding_window_pattern");
    if (n < 1 || n > kMaxLayers) return std::nullopt;
    r.mark_read(t, "num_hidden_layers");
    r.mark_read(t, "sliding_window_pattern");
    int global = 0;
    if (pattern.is_number_integer() && pattern.get<std::int64_t>() >= 1) {
        global = static_cast<int>(n / pattern.get<std::int64_t>());
    } else if (pattern.is_string() && !pattern.get<std::string>().empty()) {
        const std::string p = pattern.get<std::string>();
        for (std::int64_t i = 0; i < n; ++i) global += p[static_cast<std::size_t>(i) % p.size()] == 'G';
    } else {
        r.fail(t.prefix + "sliding_window_pattern", fmt::format("= {} is neither a whole number nor a string of L and G", json_excerpt(pattern)));
    }
    layers = static_cast<int>(n);
    return global;
}

// Hybrids that list their attention layers (Bamba's attn_layer_indices): the others are Mamba
// layers without RoPE. Returns how many, and sets `layers`.
std::optional<int> layers_outside_attention(Reader& r, const Reader::Object& t, int& layers) {
    if (!t.has("attn_layer_indices") || !t.has("num_hidden_layers") || !t.at("num_hidden_layers").is_number_integer()) {
        return std::nullopt;
    }
    const Json& v = t.at("attn_layer_indices");
    const std::int64_t n = t.at("num_hidden_layers").get<std::int64_t>();
    if (n < 1 || n > kMaxLayers) return std::nullopt;
    std::set<std::int64_t> attention;
    const std::string name = t.prefix + "attn_layer_indices";
    if (!v.is_array()) r.fail(name, fmt::format("must be a list of layer indices (got {})", json_excerpt(v)));
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_number_integer() || v[i].get<std::int64_t>() < 0 || v[i].get<std::int64_t>() >= n) {
            r.fail(fmt::format("{}[{}]", name, i), fmt::format("= {} is not a layer index in 0 .. {}", json_excerpt(v[i]), n - 1));
        }
        attention.insert(v[i].get<std::int64_t>());
    }
    r.use(t, "attn_layer_indices", fmt::format("{} attention layers", attention.size()));
    r.mark_read(t, "num_hidden_layers");
    layers = static_cast<int>(n);
    return static_cast<int>(n - static_cast<std::int64_t>(attention.size()));
}

// The file's num_hidden_layers when it is a usable count, else nothing.
std::optional<std::int64_t> layer_count_of(const Reader::Object& t) {
    if (!t.has("num_hidden_layers") || !t.at("num_hidden_layers").is_number_integer()) return std::nullopt;
    const std::int64_t n = t.at("num_hidden_layers").get<std::int64_t>();
    if (n < 1 || n > kMaxLayers) return std::nullopt;
    return n;
}

// Mllama's text layers listed in cross_attention_layers attend to the image's states and apply no
// RoPE (modeling_mllama.py: MllamaTextCrossAttention). Returns how many, and sets `layers`.
std::optional<int> cross_attention_layers(Reader& r, const Reader::Object& t, int& layers) {
    const auto n = layer_count_of(t);
    if (!t.has("cross_attention_layers") || !n) return std::nullopt;
    const Json& v = t.at("cross_attention_layers");
    const std::string name = t.prefix + "cross_attention_layers";
    if (!v.is_array()) r.fail(name, fmt::format("must be a list of layer indices (got {})", json_excerpt(v)));
    std::set<std::int64_t> cross;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_number_integer() || v[i].get<std::int64_t>() < 0 || v[i].get<std::int64_t>() >= *n) {
            r.fail(fmt::format("{}[{}]", name, i), fmt::format("= {} is not a layer index in 0 .. {}", json_excerpt(v[i]), *n - 1));
        }
        cross.insert(v[i].get<std::int64_t>());
    }
    r.use(t, "cross_attention_layers", fmt::format("{} cross-attention layers", cross.size()));
    r.mark_read(t, "num_hidden_layers");
    layers = static_cast<int>(*n);
    return static_cast<int>(cross.size());
}

// RecurrentGemma's block_types repeat over the layers (layer i is block_types[i % size]); its
// recurrent blocks apply no RoPE. Returns how many, and sets `layers`.
std::optional<int> recurrent_blocks(Reader& r, const Reader::Object& t, int& layers) {
    const auto n = layer_count_of(t);
    if (!t.has("block_types") || !n) return std::nullopt;
    const Json& v = t.at("block_types");
    const std::string name = t.prefix + "block_types";
    if (!v.is_array() || v.empty()) r.fail(name, fmt::format("must be a non-empty list of block names (got {})", json_excerpt(v)));
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_string()) r.fail(fmt::format("{}[{}]", name, i), fmt::format("= {} is not a string", json_excerpt(v[i])));
    }
    int none = 0;
    for (std::int64_t i = 0; i < *n; ++i) none += rope_free_layer_type(v[static_cast<std::size_t>(i) % v.size()].get<std::string>());
    r.use(t, "block_types", fmt::format("{} blocks repeated over {} layers", v.size(), *n));
    r.mark_read(t, "num_hidden_layers");
    layers = static_cast<int>(*n);
    return none;
}

}  // namespace

// layer_types: a list of strings, one per layer (transformers' layer_type_validation). Anything
// else is refused naming the field and the value.
std::vector<std::string> read_layer_types(Reader& r, const Reader::Object& t) {
    std::vector<std::string> types;
    if (!t.has("layer_types")) return types;
    const Json& v = t.at("layer_types");
    const std::string name = t.prefix + "layer_types";
    if (!v.is_array()) r.fail(name, fmt::format("must be a list of strings, one per layer (got {})", json_excerpt(v)));
    check_layer_list_length(r, t, "layer_types", v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_string()) {
            r.fail(fmt::format("{}[{}]", name, i), fmt::format("= {} is not a string (layer_types names each layer's attention)", json_excerpt(v[i])));
        }
        if (!allowed_layer_type(v[i].get<std::string>())) {
            r.fail(fmt::format("{}[{}]", name, i), fmt::format("= {} is not a layer type transformers knows (one of {})", json_excerpt(v[i]),
                                                               allowed_layer_types_text()));
        }
        types.push_back(v[i].get<std::string>());
    }
    r.use(t, "layer_types", fmt::format("{} layers", types.size()));
    return types;
}

// The layers: how many use each setting (" (26 layers: 4 full_attention, …)" for the note, or ""),
// and the layers that apply no RoPE, counted into `out` and said in a note.
std::string count_layers(Reader& r, const Reader::Object& t, const ModelFamily* family, const std::vector<std::string>& types,
                         LoadedConfig& out) {
    std::string counts;
    int layers = 0;
    int without = 0;
    std::string why;
    if (!types.empty()) {
        std::map<std::string, int> n;
        for (const std::string& v : types) ++n[v];
        for (const auto& [name, k] : n) {
            counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", k, name);
            if (rope_free_layer_type(name)) {
                without += k;
                why += fmt::format("{}{} {}", why.empty() ? "" : ", ", k, name);
            }
        }
        layers = static_cast<int>(types.size());
        counts = " (" + std::to_string(types.size()) + " layers: " + counts + ")";
    } else if (t.has("sliding_window_pattern") && t.has("num_hidden_layers") && t.at("sliding_window_pattern").is_number_integer() &&
               t.at("num_hidden_layers").is_number_integer()) {
        // Gemma 3 before layer_types (modeling_gemma3.py): layer i is global when (i + 1) % pattern == 0.
        const std::int64_t pattern = t.at("sliding_window_pattern").get<std::int64_t>();
        const std::int64_t n = t.at("num_hidden_layers").get<std::int64_t>();
        if (pattern >= 1 && n >= 1 && n <= kMaxLayers) {
            r.mark_read(t, "num_hidden_layers");
            const std::int64_t global = n / pattern;
            layers = static_cast<int>(n);
            counts = fmt::format(" ({} layers: {} full_attention, {} sliding_attention, every {}th global)", n, global, n - global,
                                 pattern);
        }
    }
    if (family && family->global_layers_without_rope) {
        if (const auto global = global_layers_without_rope(r, t, types, layers)) {
            without += *global;
            why += fmt::format("{}{} full_attention: with a sliding window only the sliding layers rotate", why.empty() ? "" : ", ",
                               *global);
        }
    }
    if (const auto mamba = layers_outside_attention(r, t, layers)) {
        without += *mamba;
        why += fmt::format("{}{} Mamba layers, not in attn_layer_indices", why.empty() ? "" : ", ", *mamba);
    }
    if (const auto cross = cross_attention_layers(r, t, layers)) {
        without += *cross;
        why += fmt::format("{}{} cross-attention layers", why.empty() ? "" : ", ", *cross);
    }
    if (const auto recurrent = recurrent_blocks(r, t, layers)) {
        without += *recurrent;
        why += fmt::format("{}{} recurrent blocks", why.empty() ? "" : ", ", *recurrent);
    }
    int nope_layers = layers;
    if (const auto none = read_no_rope_layers(r, t, family, nope_layers)) {
        without += *none;
        layers = std::max(layers, nope_layers);
        why += fmt::format("{}{} marked 0 in no_rope_layers", why.empty() ? "" : ", ", *none);
    }
    out.layer_count = layers;
    out.layers_without_rope = without;
    if (without > 0) {
        out.notes.push_back(fmt::format("{} of {} layers apply no RoPE ({}); the other {} rotate (--layer or the Layer list picks one)",
                                        without, layers, why, layers - without));
    }
    return counts;
}

}  // namespace ropelab::config_detail
