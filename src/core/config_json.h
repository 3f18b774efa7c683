#pragma once
// Loading HF transformers config.json files (and ropelab's presets, which are such files) the
// way transformers reads them: text_config of multimodal models, rope_scaling (v4) and
// rope_parameters (v5, flat or keyed by layer type), Gemma 3's rope_local_base_freq, DeepSeek's
// [nope | rope] heads, and the pair layout of the model's modeling file. Everything assumed,
// derived or ignored is recorded, so `freqs --explain` and the panel can say what was read.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/model_config.h"

namespace ropelab {

// Metadata a preset carries under "_ropelab"; ordinary configs have none of it.
struct ConfigNote {
    std::string name;    // short id, e.g. "llama3.1-8b"
    std::string title;   // e.g. "Llama 3.1 8B"
    std::string source;  // where the values come from
};

// One value the reader used: where it came from (the file, a default, or derived from others).
struct ReadField {
    // Flag: a command-line flag (--rope-theta) replaced the file's value; `why` names it.
    enum class Origin { File, Default, Derived, Flag };
    std::string name;   // as in the file, e.g. "text_config.rope_scaling.factor"
    std::string value;  // as shown to the user
    Origin origin = Origin::File;
    std::string why;    // for defaults and derived values: the rule
};

struct IgnoredField {
    std::string name;
    std::string why;
    // A RoPE field ropelab reads but does not apply (a rope_scaling key of a type that has none, a
    // remote-code key like rope_ratio): listed apart from the fields that are not about RoPE.
    bool rope = false;
};

// What the user said about a model the family table does not know (--layout and
// --partial-rotary-factor): with both, such a file is read as a transformers model with them.
// The refusal of such a model: an InputError, so every caller reports it as one, and its own type
// so the window can offer to read the file with the panel's layout and partial rotary factor.
class UnknownFamilyError : public InputError {
public:
    using InputError::InputError;
};

struct GivenRope {
    std::optional<PairLayout> layout;
    std::optional<double> partial_rotary_factor;
    // --head-dim: read only where the file cannot tell the head dim (no head_dim, no hidden_size
    // and num_attention_heads); a file that tells it is read, and the flag overrides it afterwards.
    std::optional<int> head_dim = std::nullopt;
    bool both() const { return layout && partial_rotary_factor; }
};

// One layer as the model's modeling code runs it: its type (layer_types, or the config class's
// rule when the file has none), which RoPE setting it uses, and its LayerAttention (NoPE, sliding
// window, Llama 4's chunks and query temperature).
struct LayerRule {
    std::string type;     // "full_attention", "sliding_attention", "chunked_attention", "linear_attention", …
    std::string setting;  // the RoPE setting (a layer type of `layer_types` below); "" when the model has one
    double theta = 10000.0;  // that setting's θ
    LayerAttention attention;
};

struct LoadedConfig {
    ModelConfig config;  // the chosen layer type's RoPE
    ConfigNote note;
    // Models whose layers use different RoPE (Gemma 3: full_attention, sliding_attention):
    // the names, and which one `config` is. Empty for a single setting.
    std::vector<std::string> layer_types;
    std::string layer_type;
    // Layers the file describes, and how many of them apply no RoPE (linear attention, Mamba or
    // convolution layers, no_rope_layers); 0 when the file does not say.
    int layer_count = 0;
    int layers_without_rope = 0;
    // One rule per layer for files with per-layer rules (layer_types, no_rope_layers, a sliding
    // window pattern); empty otherwise. `layer`: the one picked (−1: none; `config.attention` is then
    // the default layer's, `default_layer`).
    std::vector<LayerRule> layers;
    int layer = -1;
    int default_layer = -1;
    std::vector<std::string> notes;  // said to the user: assumptions, warnings, duplicate keys
    std::vector<ReadField> used;
    std::vector<IgnoredField> ignored;
};

// Parses config.json text. `source` names the file in error messages; `layer_type` picks a
// setting of a multi-setting model ("" = full_attention, or the only one). A known key with a
// bad type or value throws InputError naming the source, the field and the value. A model_type
// the family table (core/model_families.h) does not know, or remote code (auto_map) for one, is
// refused unless `given` has both the layout and the partial rotary factor; ropelab's own files
// (a "_ropelab" note) are read without a model_type.
// `layer` ≥ 0 picks one layer: its setting and its LayerAttention (out of range: InputError naming
// the file, the layer and the count).
LoadedConfig parse_config_json(std::string_view text, std::string_view source, std::string_view layer_type = "",
                               const GivenRope& given = {}, int layer = -1);

// Reads and parses a file; an unreadable file throws InputError naming the path.
LoadedConfig load_config_json(const std::string& path, std::string_view layer_type = "", const GivenRope& given = {},
                              int layer = -1);

// The setting a picked layer uses (its layer type when the model's types differ in RoPE), else
// `wanted`; a layer outside `layers`, or a layer type that contradicts it, is refused naming `source`.
// Shared by the config.json and GGUF readers.
std::string layer_setting(const std::string& source, const std::vector<LayerRule>& layers, int layer, std::string_view wanted);
// Sets out.config.attention (and out.layer / out.default_layer) from the picked layer, else from
// the first RoPE layer of `setting`, and says which in a note.
void apply_layer_rule(const std::string& setting, int layer, LoadedConfig& out);

// The layer picker's entry: "3: full_attention (NoPE)", "0: chunked_attention (RoPE θ=500000, chunk 8192)".
std::string layer_label(int index, const LayerRule& rule);
// The same, short enough for the picker's box: "layer 3: NoPE", "layer 0: RoPE, chunk 8192".
std::string layer_preview(int index, const LayerRule& rule);

// `freqs --explain`: every field used, the RoPE fields not applied, the fields not about RoPE,
// and the notes, in aligned columns.
std::string explain_config(const LoadedConfig& loaded);
// The same as short lines for a narrow panel: "used: text_config.rope_scaling.factor = 8 (file)".
std::vector<std::string> explain_lines(const LoadedConfig& loaded);

}  // namespace ropelab
