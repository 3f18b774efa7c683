#pragma once
// Loading HF transformers config.json files (and ropelab's presets, which are such files).
#include <string>
#include <string_view>

#include "core/model_config.h"

namespace ropelab {

// Metadata a preset carries under "_ropelab"; ordinary configs have none of it.
struct ConfigNote {
    std::string name;    // short id, e.g. "llama3.1-8b"
    std::string title;   // e.g. "Llama 3.1 8B"
    std::string source;  // where the values come from
};

struct LoadedConfig {
    ModelConfig config;
    ConfigNote note;
};

// Parses config.json text. `source` names the file in error messages. Unknown keys are ignored
// (real configs carry dozens); a known key with a bad type or value throws InputError naming
// the source, the field and the value. The result is validated.
LoadedConfig parse_config_json(std::string_view text, std::string_view source);

// Reads and parses a file; an unreadable file throws InputError naming the path.
LoadedConfig load_config_json(const std::string& path);

}  // namespace ropelab
