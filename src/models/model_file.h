#pragma once
// The one door for a model named by a path: a config.json, a GGUF file, a safetensors file or
// index, or a checkpoint folder. Tells them apart by their bytes (GGUF's magic, safetensors'
// header) and by being a folder, then reads the RoPE: config.json through core/config_json.h
// (a checkpoint's config.json beside its weights), a GGUF through models/gguf_rope.h.
#include <string>
#include <string_view>

#include "core/config_json.h"

namespace ropelab::models {

enum class ModelFileKind { ConfigJson, Gguf, Checkpoint };

// What `path` is. A folder is a checkpoint (its config.json and safetensors). Throws InputError
// for a path that is none of them (a folder without config.json, say).
ModelFileKind model_file_kind(const std::string& path);

// The model's RoPE, as load_config_json reads a config.json (same arguments, same errors).
LoadedConfig load_model(const std::string& path, std::string_view layer_type = "", const GivenRope& given = {}, int layer = -1);

// True when the path's weights can be shown (a GGUF, or a checkpoint with safetensors).
bool has_weights(const std::string& path);
// What ModelWeights::open should read for the model at `path`: the GGUF or checkpoint itself, or
// for a config.json with safetensors beside it, its folder; "" when there are no weights.
std::string weights_source(const std::string& path);

}  // namespace ropelab::models
