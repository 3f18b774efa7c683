#pragma once
// safetensors checkpoints (huggingface/safetensors' format): an 8-byte little-endian header
// length, a JSON header (tensor → dtype, shape, data_offsets; "__metadata__"), then the data,
// row-major little-endian. A sharded checkpoint lists its tensors in
// model.safetensors.index.json's weight_map. Every offset and shape is checked against the file
// before any tensor is used; errors name the file, the tensor and the value.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/mapped_file.h"

namespace ropelab::safetensors {

struct Tensor {
    std::string name;
    std::string dtype;                 // as written: "F32", "F16", "BF16", "F8_E4M3", "F8_E5M2", "I8", …
    std::vector<std::int64_t> shape;   // PyTorch order: shape[0] rows (out_features) × shape[1] columns
    std::uint64_t begin = 0, end = 0;  // data_offsets, from the start of the data section
    int shard = 0;                     // which file of the checkpoint
};

class Checkpoint {
public:
    // A .safetensors file, a model.safetensors.index.json, or a folder holding either (and the
    // config.json the lab reads beside it). Every file read is registered as an input.
    static Checkpoint open(const std::string& path);
    // One file's bytes in memory (tests, fuzzing).
    static Checkpoint parse(models::MappedFile bytes);

    std::span<const Tensor> tensors() const { return tensors_; }
    const Tensor* tensor(std::string_view name) const;
    std::span<const std::byte> data(const Tensor& tensor) const;
    // The folder's config.json, "" when there is none beside the checkpoint.
    const std::string& config_path() const { return config_path_; }
    const std::string& source() const { return source_; }  // the path the user gave

private:
    static Checkpoint open_index(const std::string& index_path, const std::string& folder);
    // Sorts by_name_; returns the first tensor whose name is given twice, or nullptr.
    const Tensor* index_names();

    std::vector<models::MappedFile> shards_;
    std::vector<std::uint64_t> data_start_;  // per shard
    std::vector<Tensor> tensors_;
    std::vector<std::size_t> by_name_;  // tensors_ in name order: tensor() is a binary search
    std::string config_path_, source_;
};

bool looks_like_safetensors(std::span<const std::byte> head);

}  // namespace ropelab::safetensors
