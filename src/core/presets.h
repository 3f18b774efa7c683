#pragma once
// Model presets: HF-style config.json files in assets/presets/, compiled into the binary.
#include <span>
#include <string_view>

#include "core/config_json.h"

namespace ropelab {

struct Preset {
    ConfigNote note;
    ModelConfig config;
    std::string_view text;  // its config.json, to read another layer type's setting
};

// All presets, textbook first, then in the order of assets/presets/ file names.
std::span<const Preset> presets();

// nullptr when no preset has that name.
const Preset* find_preset(std::string_view name);

// Throws InputError listing the valid names.
const Preset& preset_or_throw(std::string_view name);

// A preset's setting for one layer type (Gemma 3: "sliding_attention"); "" = its default.
// Throws InputError naming the preset and the layer types it has.
// `layer` ≥ 0 picks one of its layers (see parse_config_json).
LoadedConfig load_preset(std::string_view name, std::string_view layer_type, int layer = -1);

}  // namespace ropelab
