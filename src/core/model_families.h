#pragma once
// The model families ropelab reads, one row per transformers model_type: how transformers 5's
// modeling file pairs the components, how the rotary dim follows from the config, which key gives
// θ and the config class's θ when the file gives none, and what differs from layer to layer. The
// config reader, `ropelab families` and the README's table all come from this one table.
#include <span>
#include <string>
#include <string_view>

#include "core/model_config.h"

namespace ropelab {

struct ModelFamily {
    std::string_view model_type;   // "llama"; "<type>_text" names the same family
    std::string_view arch_prefix;  // architectures[0] starts with it: "Llama" (LlamaForCausalLM)
    PairLayout layout;
    std::string_view layout_rule;  // the function that pairs them: "rotate_half"
    std::string_view rotary;       // how the rotary dim follows from the config's keys
    // The config class's partial rotary factor when the file gives none of partial_rotary_factor,
    // rotary_pct, rotary_dim (Phi: 0.5; GPT-NeoX: rotary_pct 0.25).
    double partial_rotary_default;
    std::string_view theta_keys;    // where θ is read: "rope_theta"
    double theta_default;           // the config class's θ when the file gives none
    std::string_view per_layer;     // how the layers differ, "" when they all use the same RoPE
    std::string_view source;        // transformers' modeling file: "models/llama/modeling_llama.py"
    std::string_view config_class;  // "LlamaConfig", named when one of its defaults is used
    // Values of the config class that published files rely on leaving out (Gemma 3 4B's sparse
    // text_config), as a JSON object; "" for none.
    std::string_view class_defaults = "";
    // no_rope_layers' class default when the file gives none: every Nth layer has no RoPE (Llama 4,
    // SmolLM3: 4); 0 when the class has no such list.
    int no_rope_every = 0;
    // Cohere2, EXAONE 4: with a sliding window, only the sliding layers rotate; the global
    // (full_attention) layers apply no RoPE.
    bool global_layers_without_rope = false;
    // Bamba: the class sets partial_rotary_factor to its default whatever the file says.
    bool partial_forced = false;
    // The key that holds the head dim (JetMoe: kv_channels, its attribute_map's head_dim).
    std::string_view head_dim_key = "head_dim";
    // OLMo 3: a v4 rope_scaling scales the full_attention layers only; sliding layers stay unscaled.
    bool scaling_only_on_full = false;
};

// A model type transformers runs without RoPE: the config is refused as having none.
struct NoRopeFamily {
    std::string_view model_type;  // "gpt2"
    std::string_view positions;   // what it uses instead: "learned absolute position embeddings (wpe)"
    std::string_view source;      // "models/gpt2/modeling_gpt2.py"
};
std::span<const NoRopeFamily> no_rope_families();
const NoRopeFamily* find_no_rope_family(std::string_view model_type);

// The table, in the order `ropelab families` prints it.
std::span<const ModelFamily> model_families();
// The family of a model_type ("gemma3_text" → gemma3), or null.
const ModelFamily* find_family(std::string_view model_type);
// The family whose arch_prefix is the longest prefix of `architecture`, or null.
const ModelFamily* family_of_architecture(std::string_view architecture);

// `ropelab families`: aligned text, or a Markdown table (the README's "Model families").
std::string families_table(bool markdown);

}  // namespace ropelab
