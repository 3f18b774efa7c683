#include "state/compare.h"

#include "core/utf8.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "core/config_json.h"
#include "models/model_file.h"
#include "core/error.h"
#include "core/presets.h"
#include "state/schema.h"

namespace ropelab {

namespace {

constexpr std::size_t kMaxSpec = 4096;
constexpr std::size_t kMaxName = 64;

// A made-up name cut to kMaxName characters (never inside one: a name is UTF-8 on screen and in files).
std::string at_most_name(const std::string& name) { return name.substr(0, utf8_prefix_bytes(name, kMaxName)); }

const ComparedSetting& slot_of(const LabParams& p, int setting) {
    return p.compared.at(static_cast<std::size_t>(setting - 1));
}

std::string trimmed(std::string_view s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos) return "";
    return std::string(s.substr(first, s.find_last_not_of(" \t") - first + 1));
}

std::vector<std::string> split_items(std::string_view spec) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= spec.size()) {
        const std::size_t comma = std::min(spec.find(',', start), spec.size());
        items.push_back(trimmed(spec.substr(start, comma - start)));
        start = comma + 1;
    }
    return items;
}

// A model field by the name a SPEC uses: its lesson name (theta, factor) or HF's (rope_theta).
const schema::Field* model_field(std::string_view key) {
    for (const schema::Field& f : schema::fields()) {
        if (f.slot != 0 || !f.path.starts_with("model.")) continue;
        if (f.lesson == key || f.path.substr(6) == key || f.path == fmt::format("model.rope_scaling.{}", key)) return &f;
    }
    return nullptr;
}

std::string model_keys() {
    std::string keys;
    for (const schema::Field& f : schema::fields()) {
        if (f.slot == 0 && f.path.starts_with("model.") && !f.lesson.empty() && (f.kind != schema::Kind::List || f.count <= 3)) {
            keys += (keys.empty() ? "" : ", ") + std::string(f.lesson);
        }
    }
    return keys + ", name, colour";
}

std::string preset_names() {
    std::string names;
    for (const Preset& p : presets()) names += (names.empty() ? "" : ", ") + p.note.name;
    return names;
}

bool is_file(const std::string& path) {
    std::error_code ec;
    return std::filesystem::is_regular_file(path, ec);
}

// A preset or config.json, with "@layer_type" picking one of its layers' settings.
LoadedConfig load_source(std::string source, std::string& layer_type) {
    if (!is_file(source)) {
        if (const auto at = source.rfind('@'); at != std::string::npos) {
            layer_type = source.substr(at + 1);
            source.resize(at);
        }
    }
    std::error_code ec;
    if (is_file(source) || std::filesystem::is_directory(source, ec) || source.ends_with(".json") || source.ends_with(".gguf")) {
        return models::load_model(source, layer_type);
    }
    if (!find_preset(source)) {
        throw InputError(fmt::format("\"{}\" is not a preset, a config file, or key=value overrides of the base (presets: {})",
                                     source, preset_names()));
    }
    return load_preset(source, layer_type);
}

// "name" and "colour" items, and a model field set through the schema (its range, its words).
void apply_item(ComparedSetting& out, const std::string& item) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) {
        throw InputError(fmt::format("\"{}\" is not key=value (only the first item may name a preset or config)", item));
    }
    const std::string key = trimmed(item.substr(0, eq)), value = trimmed(item.substr(eq + 1));
    if (key.empty()) throw InputError(fmt::format("\"{}\" has no key before '='", item));
    if (key == "name") {
        if (first_invalid_utf8(value) != std::string::npos || first_control_character(value) != std::string::npos) {
            throw InputError(fmt::format("name \"{}\" is not one line of UTF-8 text", utf8_escaped(value)));
        }
        if (utf8_characters(value) > kMaxName) {
            throw InputError(fmt::format("name \"{}…\" is longer than {} characters", value.substr(0, utf8_prefix_bytes(value, 20)), kMaxName));
        }
        out.name = value;
        return;
    }
    if (key == "colour" || key == "color") {
        const schema::Field& f = *schema::by_path("compare.1.colour");
        LabParams tmp;
        schema::assign(tmp, f, schema::parse(f, value));
        out.colour = tmp.compared[0].colour;
        return;
    }
    const schema::Field* f = model_field(key);
    if (!f) throw InputError(fmt::format("unknown key \"{}\" (keys: {})", key, model_keys()));
    // Items are split at commas, so a short list (mrope_section=24:20:20) separates its numbers
    // with ':'; long ones (LongRoPE's factors) belong in a config file.
    if (f->kind == schema::Kind::List && f->count > 3) throw InputError(fmt::format("{} is a list: give it in a config file, not a SPEC", key));
    std::string text = value;
    if (f->kind == schema::Kind::List) std::replace(text.begin(), text.end(), ':', ',');
    LabParams tmp;
    tmp.model = out.model;
    schema::assign_text(tmp, *f, text);
    // A factor on an unscaled model means linear scaling, as the lessons and the sweep read it.
    if (f->lesson == "factor" && tmp.model.rope_scaling.type == RopeType::Default) tmp.model.rope_scaling.type = RopeType::Linear;
    out.model = tmp.model;
}

// A config path's short name: its file's stem, or its folder's name for HF's usual
// "…/MODEL/config.json". A preset's name stays as it is.
std::string short_source(const std::string& source) {
    if (source.find('/') == std::string::npos && !source.ends_with(".json")) return source;
    const std::filesystem::path path(source);
    std::string stem = path.stem().string();
    if (stem == "config" && !path.parent_path().filename().empty()) stem = path.parent_path().filename().string();
    return stem.empty() ? source : stem;
}

std::string with_layer(std::string label, const std::string& layer_type) {
    return layer_type.empty() ? label : label + "@" + layer_type;
}

std::string base_label(const LabParams& p) {
    std::string label = p.preset.ends_with(".json") ? std::filesystem::path(p.preset).filename().string() : p.preset;
    if (!p.layer_type.empty()) label += "@" + p.layer_type;
    return label;
}

}  // namespace

const ModelConfig& setting_model(const LabParams& p, int setting) {
    return setting == 0 ? p.model : slot_of(p, setting).model;
}

std::string setting_name(const LabParams& p, int setting) {
    if (setting == 0) return p.base_name.empty() ? with_layer(short_source(p.preset), p.layer_type) : p.base_name;
    const ComparedSetting& s = slot_of(p, setting);
    return s.name.empty() ? s.source : s.name;
}

std::string setting_source(const LabParams& p, int setting) {
    return setting == 0 ? with_layer(p.preset, p.layer_type) : slot_of(p, setting).source;
}

SettingColour setting_colour(const LabParams& p, int setting) {
    if (setting == 0) return p.base_colour;
    const SettingColour chosen = slot_of(p, setting).colour;
    if (chosen != SettingColour::Auto) return chosen;
    constexpr SettingColour kSlotColours[] = {SettingColour::Sky, SettingColour::Orange, SettingColour::Purple};
    return kSlotColours[setting - 1];
}

std::string setting_slug(const LabParams& p, int setting) {
    const auto slug_of = [&](int i) {
        std::string slug;
        for (unsigned char c : setting_name(p, i)) {
            const bool keep = std::isalnum(c) && c < 0x80;
            if (keep) slug += static_cast<char>(std::tolower(c));
            else if (!slug.empty() && slug.back() != '_') slug += '_';
        }
        while (!slug.empty() && slug.back() == '_') slug.pop_back();
        return slug.empty() ? fmt::format("setting{}", i + 1) : slug;
    };
    std::string slug = slug_of(setting);
    for (int i = 0; i < setting; ++i) {
        if (slug_of(i) == slug) return fmt::format("{}_{}", slug, setting + 1);
    }
    return slug;
}

LabParams setting_params(const LabParams& p, int setting) {
    LabParams s = p;
    if (setting > 0) {
        const ComparedSetting& c = slot_of(p, setting);
        s.model = c.model;
        s.preset = c.source;
        s.layer_type = c.layer_type;
        s.base_name = c.name;
        s.base_colour = c.colour;
    }
    s.compared_count = 0;
    s.compared = {};
    s.focused_pair = std::clamp(p.focused_pair, 0, std::max(0, rotary_dim(s.model) / 2 - 1));
    return s;
}

ComparedSetting parse_compare_spec(std::string_view spec, const LabParams& base) {
    if (trimmed(spec).empty()) throw InputError("an empty SPEC: give a preset, a config path, or key=value overrides of the base");
    if (spec.size() > kMaxSpec) throw InputError(fmt::format("a SPEC of {} characters (at most {})", spec.size(), kMaxSpec));
    const std::vector<std::string> items = split_items(spec);
    ComparedSetting out;
    out.model = base.model;
    std::size_t first = 0;
    std::string source = base_label(base), overrides, short_name;
    if (items[0].find('=') == std::string::npos) {
        std::string layer;
        const LoadedConfig loaded = load_source(items[0], layer);
        out.model = loaded.config;
        out.layer_type = layer.empty() ? "" : loaded.layer_type;
        source = items[0];
        // The legend's default: the file's short name and the layer type; the path is the source.
        const std::string path = layer.empty() ? items[0] : items[0].substr(0, items[0].size() - layer.size() - 1);
        short_name = with_layer(short_source(path), layer);
        first = 1;
    }
    std::string name_given;
    for (std::size_t i = first; i < items.size(); ++i) {
        apply_item(out, items[i]);
        if (!items[i].starts_with("name") && !items[i].starts_with("colo")) overrides += (overrides.empty() ? "" : ",") + items[i];
    }
    out.source = overrides.empty() ? source : fmt::format("{} + {}", source, overrides);
    if (out.name.empty()) {
        out.name = at_most_name(first == 0 ? overrides : overrides.empty() ? short_name : fmt::format("{} + {}", short_name, overrides));
    }
    try {
        schema::validate_model(out.model);
    } catch (const InputError& e) {
        throw InputError(fmt::format("model: {}", e.what()));
    }
    return out;
}

ComparedSetting duplicate_base(const LabParams& p) {
    ComparedSetting s;
    s.model = p.model;
    s.source = base_label(p);
    s.layer_type = p.layer_type;
    s.name = at_most_name(fmt::format("{} (copy)", setting_name(p, 0)));
    return s;
}

void add_compared(LabParams& p, ComparedSetting setting) {
    if (p.compared_count >= kMaxCompared) {
        throw InputError(fmt::format("compare.count: at most {} settings beside the base", kMaxCompared));
    }
    p.compared[static_cast<std::size_t>(p.compared_count++)] = std::move(setting);
}

void remove_compared(LabParams& p, int slot) {
    if (slot < 0 || slot >= p.compared_count) throw InputError(fmt::format("compare: no setting {} to remove", slot + 1));
    std::rotate(p.compared.begin() + slot, p.compared.begin() + slot + 1, p.compared.end());
    p.compared.back() = ComparedSetting{};
    --p.compared_count;
}

void move_compared(LabParams& p, int slot, int by) {
    const int to = slot + by;
    if (slot < 0 || slot >= p.compared_count || to < 0 || to >= p.compared_count) {
        throw InputError(fmt::format("compare: setting {} cannot move to {}", slot + 1, to + 1));
    }
    std::swap(p.compared[static_cast<std::size_t>(slot)], p.compared[static_cast<std::size_t>(to)]);
}

void swap_with_base(LabParams& p, int slot) {
    if (slot < 0 || slot >= p.compared_count) throw InputError(fmt::format("compare: no setting {}", slot + 1));
    ComparedSetting& c = p.compared[static_cast<std::size_t>(slot)];
    ComparedSetting old_base{setting_name(p, 0), base_label(p), p.layer_type, p.model, p.base_colour};
    p.model = c.model;
    p.preset = c.source;
    p.layer_type = c.layer_type;
    p.base_name = setting_name(p, slot + 1);
    p.base_colour = c.colour;
    c = std::move(old_base);
    p.focused_pair = std::clamp(p.focused_pair, 0, std::max(0, rotary_dim(p.model) / 2 - 1));
}

std::span<const Comparison> comparisons() {
    static const std::vector<Comparison> all = {
        {"llama3.1-scaling", "Llama 3.1 8B: llama3 vs YaRN vs PI vs NTK at ×8", "llama3.1-8b", "llama3 ×8",
         {"rope_type=yarn,name=YaRN ×8", "rope_type=linear,name=PI ×8", "rope_type=ntk,name=NTK ×8"},
         {{"encoding", "rope"}, {"show_bound", "false"}, {"vectors", "mean"}, {"max_distance", "131072"}, {"log_distance", "true"}}},
        {"gemma3-layers", "Gemma 3: local vs global layers", "gemma3-4b", "global layers",
         {"gemma3-4b@sliding_attention,name=local layers"},
         {{"encoding", "rope"}, {"show_bound", "false"}, {"vectors", "mean"}, {"max_distance", "131072"}, {"log_distance", "true"}}},
        {"llama2-vs-llama3", "Llama 2 vs Llama 3", "llama2-7b", "Llama 2", {"llama3-8b,name=Llama 3"},
         {{"encoding", "rope"}, {"show_bound", "false"}, {"vectors", "mean"}, {"max_distance", "8192"}, {"log_distance", "true"}}},
        // One image, four ways to give its two directions to the pairs: Qwen2-VL's contiguous
        // sections leave width the slowest pairs, the same sections interleaved (Qwen3-VL's rule)
        // give each axis the full band; the vision towers' axial and even-odd ladders for contrast.
        {"image-axes", "Images: chunked vs interleaved vs axial vs Pixtral", "qwen2-vl-7b", "chunked (Qwen2-VL)",
         {"multi_axis=interleaved,mrope_section=24:20:20,name=interleaved (Qwen3-VL rule)", "qwen2-vl-7b@vision,name=axial (Qwen2-VL vision)",
          "pixtral-12b@vision,name=even-odd (Pixtral vision)"},
         {{"encoding", "rope"}, {"show_bound", "false"}, {"vectors", "ones"}, {"max_distance", "4096"}, {"log_distance", "false"}}},
        {"interleaved-vs-half", "Interleaved vs half, same q/k", "textbook", "interleaved", {"layout=half,name=half"},
         {{"encoding", "rope"}, {"show_bound", "false"}, {"vectors", "random"}, {"max_distance", "4096"}, {"log_distance", "false"}}},
        // p-RoPE (Barbero et al. 2024, "Round and Round We Go!"): the same model with its lowest
        // quarter of frequencies unrotated, beside plain RoPE.
        {"p-rope", "p-RoPE beside RoPE: lowest quarter unrotated", "llama3-8b", "RoPE", {"p_rope=0.25,name=p-RoPE 0.25"},
         {{"encoding", "rope"}, {"show_bound", "false"}, {"vectors", "mean"}, {"max_distance", "8192"}, {"log_distance", "true"}}},
    };
    return all;
}

LabParams apply_comparison(const LabParams& p, std::string_view name) {
    const auto all = comparisons();
    const auto it = std::find_if(all.begin(), all.end(), [&](const Comparison& c) { return c.name == name; });
    if (it == all.end()) {
        std::string names;
        for (const Comparison& c : all) names += (names.empty() ? "" : ", ") + std::string(c.name);
        throw InputError(fmt::format("unknown comparison \"{}\" (built in: {})", name, names));
    }
    LabParams out = p;
    std::string layer;
    const LoadedConfig base = load_source(std::string(it->base), layer);
    out.model = base.config;
    out.preset = std::string(it->base.substr(0, it->base.find('@')));
    out.layer_type = layer.empty() ? "" : base.layer_type;
    out.base_name = it->base_name;
    out.base_colour = SettingColour::Auto;
    for (const auto& [field, value] : it->set) schema::assign_text(out, *schema::by_lesson_name(field), value);
    std::vector<std::string> specs(it->specs.begin(), it->specs.end());
    return with_compared(out, specs);
}

LabParams with_compared(const LabParams& p, const std::vector<std::string>& specs, bool keep, std::string_view door) {
    LabParams out = p;
    if (!keep) {
        out.compared = {};
        out.compared_count = 0;
    }
    if (out.compared_count + specs.size() > static_cast<std::size_t>(kMaxCompared)) {
        throw InputError(fmt::format("{}: {} settings beside the base; at most {}", door, out.compared_count + specs.size(), kMaxCompared));
    }
    for (const std::string& spec : specs) {
        try {
            add_compared(out, parse_compare_spec(spec, p));  // overrides apply to the base as given
        } catch (const InputError& e) {
            const std::string shown = utf8_escaped(spec);  // a message stays one line of UTF-8
            throw InputError(fmt::format("{} \"{}\": {}", door,
                                         utf8_characters(shown) > 60 ? shown.substr(0, utf8_prefix_bytes(shown, 57)) + "..." : shown,
                                         e.what()));
        }
    }
    out.focused_pair = std::clamp(out.focused_pair, 0, std::max(0, rotary_dim(out.model) / 2 - 1));
    schema::validate(out);
    return out;
}

}  // namespace ropelab
