#pragma once
// The attention weights of a model file, one layer at a time: W_q and W_k as row-major matrices
// (a row per output component, a column per input), in the file's own format, dequantised a row at
// a time on demand. GGUF tensors are named blk.L.attn_q.weight / attn_k.weight (or a fused
// attn_qkv), checkpoint tensors model.layers.L.self_attn.q_proj.weight / k_proj.weight (with the
// common prefixes of multimodal checkpoints). Which rows of a head form rotary pair i depends on
// the file: GGUF NORM architectures hold the converter's permuted rows (2i, 2i+1), GGUF NEOX and
// HF checkpoints of rotate_half models hold (i, i + rotary/2), interleaved HF models (2i, 2i+1).
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/model_config.h"
#include "models/dequantize.h"

namespace ropelab::models {

// The most heads a file may claim: far above any published model (DeepSeek V3 and Llama 3.1
// 405B have 128 query heads), and a bound on what is sized by a file's word.
inline constexpr int kMaxAttentionHeads = 4096;

// A matrix stored row after row in one format; rows are whole blocks.
struct WeightMatrix {
    std::string name;  // the tensor's name in the file
    Format format = Format::F32;
    std::int64_t rows = 0, cols = 0;
    std::int64_t first_row = 0;  // within a fused tensor (attn_qkv): where this matrix starts
    std::span<const std::byte> bytes;  // the whole tensor
    std::shared_ptr<const void> owner;  // keeps `bytes` mapped: the file they lie in (none for bytes the caller holds)
    void row(std::int64_t r, std::span<float> out) const;  // out.size() == cols
};

struct AttentionWeights {
    int layer = 0;
    WeightMatrix q, k;
    int q_heads = 0, kv_heads = 0, head_dim = 0;
    int rotary_dim = 0;     // the rotary part of each head
    int rotary_offset = 0;  // where it starts in the head (DeepSeek: after the nope part)
    PairLayout rows = PairLayout::Half;  // Interleaved: pair i is rows (2i, 2i+1) of the rotary part
    // MLA (DeepSeek V2/V3): the keys' rotary part is one head of its own, k_pe, the last rotary_dim
    // rows of kv_a_proj_with_mqa, shared by every query head. 0: k's heads are q's (head_dim,
    // rotary_offset).
    int k_head_dim = 0, k_rotary_offset = 0;
    int key_head_dim() const { return k_head_dim > 0 ? k_head_dim : head_dim; }
    int key_rotary_offset() const { return k_head_dim > 0 ? k_rotary_offset : rotary_offset; }
    std::vector<std::string> notes;      // what was assumed: "rows as converted by llama.cpp (NORM)"
};

// Refuses (InputError naming the tensor) weights whose matrices do not fit their heads: rows ≠
// heads × head_dim (key_head_dim for k), a rotary part outside the head or of odd size, query heads that are no
// multiple of the key heads, bytes that do not hold every row.
void validate(const AttentionWeights& weights);

// One model file's weights (a GGUF, or a safetensors checkpoint with its config.json). Holds the
// mapping open; copies share it, and so do the matrices it hands out (WeightMatrix::owner).
class ModelWeights {
public:
    static std::shared_ptr<const ModelWeights> open(const std::string& path);
    virtual ~ModelWeights() = default;
    virtual int layers() const = 0;
    // Throws InputError naming the file and the tensor when the layer's q/k cannot be read
    // (missing, an unsupported format, a shape that does not fit the heads, MLA's compressed q/k).
    virtual AttentionWeights attention(int layer) const = 0;
    virtual const std::string& source() const = 0;
};

}  // namespace ropelab::models
