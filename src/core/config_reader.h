#pragma once
// Private to the config.json reader (config_json.cpp, config_model.cpp, config_reader.cpp): the
// field reader and the readers of the model's parts. Not part of ropelab's API.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/config_json.h"
#include "core/error.h"
#include "core/json_input.h"
#include "core/model_families.h"

namespace ropelab::config_detail {

std::string shown(double v);

// Every read goes through here: it names the field in errors, checks types, exactness and
// ranges, and records what was used, so what is left over can be listed as ignored.
class Reader {
public:
    Reader(LoadedConfig& out, std::string source) : out_(out), source_(std::move(source)) {}

    // A view of one object of the file; `prefix` names it ("", "text_config.", "rope_scaling.").
    struct Object {
        const Json* json = nullptr;
        std::string prefix;
        bool has(const std::string& key) const { return json && json->contains(key) && !json->at(key).is_null(); }
        bool is_null(const std::string& key) const { return json && json->contains(key) && json->at(key).is_null(); }
        const Json& at(const std::string& key) const { return json->at(key); }
    };

    [[noreturn]] void fail(const std::string& name, const std::string& text) const {
        throw InputError(fmt::format("{}: {} {}", source_, name, text));
    }

    void use(const Object& o, const std::string& key, std::string value);
    // Takes back the "used" row of `name` (a value read, then found not applied) and lists it
    // as a RoPE field not applied, with `why`.
    void unuse(const std::string& name, std::string why);
    // A key the file leaves out and the model's config class fills in.
    void defaulted(const std::string& name, std::string why) { defaulted_[name] = std::move(why); }
    void mark_read(const Object& o, const std::string& key) { read_.insert(o.prefix + key); }
    void assume(std::string name, std::string value, ReadField::Origin origin, std::string why) {
        out_.used.push_back({std::move(name), std::move(value), origin, std::move(why)});
    }

    std::optional<double> number(const Object& o, const std::string& key, double lo, double hi);
    // An exact integer in [lo, hi]: 4294967424 is refused, never wrapped to 128.
    std::optional<std::int64_t> integer(const Object& o, const std::string& key, std::int64_t lo, std::int64_t hi);
    std::optional<std::string> text(const Object& o, const std::string& key);
    std::optional<bool> boolean(const Object& o, const std::string& key);
    std::vector<double> numbers(const Object& o, const std::string& key, double lo, double hi);
    std::optional<Object> object(const Object& o, const std::string& key);

    // Every key of `o` nothing read, listed as ignored with `why` (`rope`: as a RoPE field not applied).
    void list_unread(const Object& o, const std::string& why, bool rope = false);
    // `o`'s key, listed as a RoPE field ropelab read and does not apply.
    void not_applied(const Object& o, const std::string& key, std::string why);
    bool was_read(const Object& o, const std::string& key) const { return read_.count(o.prefix + key) > 0; }

    const std::string& source() const { return source_; }

private:
    LoadedConfig& out_;
    std::string source_;
    std::set<std::string> read_;
    std::map<std::string, std::string> defaulted_;
};

// Checks made before anything is read (config_reader.cpp), each as transformers' own validation
// makes it:
//   null for a RoPE value (rope_theta, rope_local_base_freq, partial_rotary_factor, a scaling
//   key, …) is refused: transformers keeps the null (a class default fills in only a missing
//   key) and cannot compute the frequencies with it;
//   the booleans the reader uses are true or false, never "true" or 1;
//   num_hidden_layers is a whole number in 1 .. kMaxLayers (inclusive);
//   sliding_window_pattern is a positive whole number (or EXAONE 4's string of L and G).
void refuse_nulls(Reader& r, const Reader::Object& o);
void check_fields(Reader& r, const Reader::Object& t);
// The layer types transformers accepts in layer_types (configuration_utils.py, ALLOWED_LAYER_TYPES).
bool allowed_layer_type(std::string_view name);
std::string allowed_layer_types_text();
// The file's num_hidden_layers (checked by check_fields), or nothing.
std::optional<std::int64_t> declared_layers(const Reader::Object& t);

// The model's parts (config_model.cpp).

// A key named like a RoPE field (rope, rotary, theta, position, partial, no_rope, layer_types,
// sliding, mrope): never listed as "not about RoPE".
bool rope_named(std::string_view key);

// text_config's model_type, else the top level's; `arch` is set to architectures[0] when given.
std::optional<std::string> read_model_type(Reader& r, const Reader::Object& t, const Reader::Object& root, bool nested,
                                           std::string& arch);
// The model_type's family, else the first architecture's, else null.
const ModelFamily* family_of(const std::optional<std::string>& type, const std::string& arch);
// head_dim; DeepSeek's [nope | rope] heads; hidden_size / num_attention_heads (GPT-J: n_embd / n_head);
// the rotated fraction, else the family's class default.
// A file that says none of these takes --head-dim (`given.head_dim`), said as such.
void read_head(Reader& r, const Reader::Object& t, ModelConfig& c, const ModelFamily* family, const GivenRope& given);
// The text model a composite config class builds when text_config leaves out its model_type, or
// when there is no text_config (LlavaConfig: a default LlamaConfig): "llama"; "" for other types.
std::string default_text_model(const std::string& outer_type);
// That class: "LlavaConfig".
std::string composite_class(const std::string& outer_type);
// The layout: _ropelab.layout, DeepSeek-V3's rope_interleave, the family's modeling code, else
// --layout for a model the table does not know.
void read_layout(Reader& r, const Reader::Object& t, ModelConfig& c, LoadedConfig& out, const ModelFamily* family,
                 const std::optional<std::string>& type, const std::optional<std::string>& ropelab_layout,
                 const GivenRope& given);
// What one setting says about multi-axis RoPE: mrope_section, the legacy "type": "mrope", and
// mrope_interleaved (read and shown, but the model type decides the rule: see multi_axis_rule).
struct MropeRead {
    std::vector<double> section;
    std::string field;  // as in the file: "text_config.rope_scaling.mrope_section"
    bool legacy_type = false;
    std::string type_field;  // "rope_scaling.type" when legacy_type
    std::optional<bool> interleaved;
    std::string interleaved_field;
    bool any() const { return !section.empty() || legacy_type; }
};

// Reads rope_scaling / rope_parameters (one setting) into `s`, and its M-RoPE keys into `mrope`.
void read_scaling(Reader& r, const Reader::Object& o, RopeScaling& s, LoadedConfig& out, MropeRead* mrope = nullptr);

// Layer counts (config_layer_counts.cpp).

// layer_types: a list of strings, one per layer (transformers' layer_type_validation); empty when
// absent. Anything else is refused naming the field and the value.
std::vector<std::string> read_layer_types(Reader& r, const Reader::Object& t);
// How many layers use each setting (" (26 layers: 4 full_attention, …)" for the note, or ""); the
// layers that apply no RoPE are counted into `out` (layer_count, layers_without_rope) and said in
// a note.
std::string count_layers(Reader& r, const Reader::Object& t, const ModelFamily* family, const std::vector<std::string>& types,
                         LoadedConfig& out);

// Per-layer rules (config_layers.cpp).

// Layer types whose layers apply no RoPE: linear attention (Qwen3-Next), state-space and
// convolution layers (Mamba hybrids, LFM2), recurrent blocks.
bool rope_free_layer_type(std::string_view name);

struct SettingTheta {
    std::string name;  // the layer type the setting is for; "" for a model with one
    double theta = 10000.0;
};
// One rule per layer from layer_types (`file_types`), else the config class's rule (Llama 4's
// no_rope_layers, Gemma 2/3, Cohere2 and EXAONE 4's sliding pattern, SmolLM3's no_rope_layers);
// empty for a file without per-layer rules. Reads sliding_window, Llama 4's attention_chunk_size,
// attn_temperature_tuning, floor_scale and attn_scale.
std::vector<LayerRule> read_layer_rules(Reader& r, const Reader::Object& t, const ModelFamily* family,
                                        const std::vector<std::string>& file_types, const std::vector<SettingTheta>& settings);

// Multi-axis RoPE (config_multi_axis.cpp).

// The text model's multi-axis rule from the chosen setting's M-RoPE keys and the model type:
// sections checked against the rotary pairs (naming the file's field), position ids and
// vision_config's spatial_merge_size / tokens_per_second. Nothing to do for a 1-D model.
void read_multi_axis(Reader& r, const Reader::Object& root, const ModelFamily* family, const MropeRead& mrope, ModelConfig& c,
                     LoadedConfig& out);
// Whether vision_config describes a tower whose RoPE ropelab knows (Qwen2-VL, Qwen2.5-VL, Qwen3-VL's
// VisionRotaryEmbedding; Pixtral's 2-D RoPE), so "vision" is offered as a layer type.
bool has_vision_tower(const Reader::Object& root, const ModelFamily* family);
// The vision tower's RoPE (--layer-type vision): its head, θ, layout and axis rule.
ModelConfig read_vision_tower(Reader& r, const Reader::Object& root, const ModelFamily* family, LoadedConfig& out);
// A diffusers transformer config (a "_class_name" instead of a model_type): FLUX's
// FluxTransformer2DModel. Returns false for a file without _class_name.
bool read_diffusers_config(Reader& r, const Reader::Object& root, ModelConfig& c, LoadedConfig& out);
// A preset's own multi-axis setting ("_ropelab": {"multi_axis": {"rule": "mixed", "mixed_angle": 30}}),
// for rules no published config names (RoPE-Mixed).
void read_preset_multi_axis(Reader& r, const Reader::Object& note, MultiAxis& a);

}  // namespace ropelab::config_detail
