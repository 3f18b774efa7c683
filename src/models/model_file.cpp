#include "models/model_file.h"

#include <array>
#include <filesystem>
#include <algorithm>

#include <fmt/format.h>

#include "core/error.h"
#include "models/gguf.h"
#include "models/gguf_rope.h"
#include "models/mapped_file.h"
#include "models/safetensors.h"

namespace ropelab::models {

namespace {

namespace fs = std::filesystem;

// The first bytes of a file, enough for GGUF's magic and safetensors' header length and '{',
// through the mapping that registers it as an input. A file that cannot be mapped here (missing,
// a folder, a pipe) is left to the reader that will name the problem.
std::array<std::byte, 9> head_of(const std::string& path) {
    std::array<std::byte, 9> head{};
    try {
        const MappedFile file = MappedFile::open(path, "model");  // held while its bytes are read
        const std::span<const std::byte> bytes = file.bytes();
        if (bytes.size() >= head.size()) std::copy_n(bytes.begin(), head.size(), head.begin());
    } catch (const InputError&) {
    }
    return head;
}

bool is_index_name(const std::string& path) { return path.ends_with(".safetensors.index.json"); }

// A checkpoint's config.json: in the folder named, or beside the file named.
std::string checkpoint_config(const std::string& path) {
    std::error_code ec;
    const fs::path folder = fs::is_directory(path, ec) ? fs::path(path) : fs::path(path).parent_path();
    const fs::path config = (folder.empty() ? fs::path(".") : folder) / "config.json";
    if (!fs::is_regular_file(config, ec)) {
        throw InputError(fmt::format("{}: no config.json {} (a checkpoint's RoPE is read from the config.json beside its "
                                     "safetensors files)",
                                     path, fs::is_directory(path, ec) ? "in this folder" : "beside this file"));
    }
    return config.string();
}

bool folder_has_safetensors(const fs::path& folder) {
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".safetensors" || is_index_name(it->path().filename().string())) return true;
    }
    return false;
}

}  // namespace

ModelFileKind model_file_kind(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        checkpoint_config(path);  // a folder without config.json says so here
        return ModelFileKind::Checkpoint;
    }
    if (is_index_name(path) || path.ends_with(".safetensors")) return ModelFileKind::Checkpoint;
    const std::array<std::byte, 9> head = head_of(path);
    if (gguf::has_gguf_magic(head)) return ModelFileKind::Gguf;
    if (safetensors::looks_like_safetensors(head)) return ModelFileKind::Checkpoint;
    return ModelFileKind::ConfigJson;
}

LoadedConfig load_model(const std::string& path, std::string_view layer_type, const GivenRope& given, int layer) {
    switch (model_file_kind(path)) {
        case ModelFileKind::Gguf: return gguf::rope_of(gguf::File::open(path), layer_type, given, layer);
        case ModelFileKind::Checkpoint: {
            LoadedConfig loaded = load_config_json(checkpoint_config(path), layer_type, given, layer);
            loaded.notes.push_back(fmt::format("read from the checkpoint's config.json; its weights are in {}", path));
            return loaded;
        }
        case ModelFileKind::ConfigJson: break;
    }
    return load_config_json(path, layer_type, given, layer);
}

std::string weights_source(const std::string& path) {
    std::error_code ec;
    try {
        switch (model_file_kind(path)) {
            case ModelFileKind::Gguf: return path;
            case ModelFileKind::Checkpoint:
                if (fs::is_directory(path, ec)) return folder_has_safetensors(path) ? path : "";
                return fs::is_regular_file(path, ec) ? path : "";
            case ModelFileKind::ConfigJson: {
                const fs::path folder = fs::path(path).parent_path();
                return folder_has_safetensors(folder.empty() ? fs::path(".") : folder) ? (folder.empty() ? "." : folder.string()) : "";
            }
        }
    } catch (const InputError&) {
    }
    return "";
}

bool has_weights(const std::string& path) { return !weights_source(path).empty(); }

}  // namespace ropelab::models
