#include "models/model_weights.h"

#include <filesystem>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "core/config_json.h"
#include "core/error.h"
#include "core/input_file.h"
#include "core/json_input.h"
#include "models/gguf.h"
#include "models/gguf_rope.h"
#include "models/model_file.h"
#include "models/safetensors.h"

namespace ropelab::models {

void WeightMatrix::row(std::int64_t r, std::span<float> out) const {
    if (r < 0 || r >= rows) throw InputError(fmt::format("{}: row {} is not one of its {} rows", name, r, rows));
    if (cols <= 0 || static_cast<std::int64_t>(out.size()) != cols) {
        throw InputError(fmt::format("{}: a row of {} columns read into {} values", name, cols, out.size()));
    }
    if (cols % block_values(format) != 0) {
        throw InputError(fmt::format("{}: rows of {} values are not whole {} blocks of {}", name, cols, to_string(format),
                                     block_values(format)));
    }
    const std::size_t row_bytes = bytes_of(format, static_cast<std::uint64_t>(cols));
    const auto index = static_cast<std::uint64_t>(first_row + r);
    if (first_row < 0 || index >= bytes.size() / row_bytes) {
        throw InputError(fmt::format("{}: row {} lies past the tensor's {} bytes ({} per row)", name, first_row + r,
                                     bytes.size(), row_bytes));
    }
    dequantize(format, bytes.subspan(index * row_bytes, row_bytes), out);
}

namespace {

// Refuses a matrix whose rows are not `heads` heads of `head_dim` with the rotary part inside,
// naming the tensor.
void check_matrix(const WeightMatrix& matrix, int heads, int head_dim, int rotary_dim, int rotary_offset, const char* role) {
    if (heads <= 0 || heads > kMaxAttentionHeads) {
        throw InputError(fmt::format("{}: {} heads = {} (must be 1 to {})", matrix.name, role, heads, kMaxAttentionHeads));
    }
    if (head_dim <= 0 || head_dim > kMaxHeadDim) {
        throw InputError(fmt::format("{}: {} head_dim = {} (must be 1 to {})", matrix.name, role, head_dim, kMaxHeadDim));
    }
    if (rotary_offset < 0 || rotary_offset + rotary_dim > head_dim) {
        throw InputError(fmt::format("{}: rotary dim {} at offset {} does not fit a {} head of {}", matrix.name, rotary_dim,
                                     rotary_offset, role, head_dim));
    }
    if (matrix.cols <= 0) throw InputError(fmt::format("{}: {} columns (must be at least 1)", matrix.name, matrix.cols));
    if (matrix.rows != static_cast<std::int64_t>(heads) * head_dim) {
        throw InputError(fmt::format("{}: {} rows do not fit {} {} heads of {} (expected {})", matrix.name, matrix.rows, heads,
                                     role, head_dim, static_cast<std::int64_t>(heads) * head_dim));
    }
    // Before any row is read: the bytes hold every row the view claims (whole blocks).
    if (matrix.cols % block_values(matrix.format) != 0) {
        throw InputError(fmt::format("{}: rows of {} values are not whole {} blocks of {}", matrix.name, matrix.cols,
                                     to_string(matrix.format), block_values(matrix.format)));
    }
    const std::size_t row_bytes = bytes_of(matrix.format, static_cast<std::uint64_t>(matrix.cols));
    if (matrix.first_row < 0 || static_cast<std::uint64_t>(matrix.first_row + matrix.rows) > matrix.bytes.size() / row_bytes) {
        throw InputError(fmt::format("{}: rows {} to {} lie past the tensor's {} bytes ({} per row)", matrix.name, matrix.first_row,
                                     matrix.first_row + matrix.rows - 1, matrix.bytes.size(), row_bytes));
    }
}

}  // namespace

void validate(const AttentionWeights& weights) {
    if (weights.rotary_dim <= 0 || weights.rotary_dim % 2 != 0) {
        throw InputError(fmt::format("{}: rotary dim = {} (must be a positive even number)", weights.q.name, weights.rotary_dim));
    }
    check_matrix(weights.q, weights.q_heads, weights.head_dim, weights.rotary_dim, weights.rotary_offset, "query");
    // Query heads share key heads in equal groups (GQA; MQA and MLA: one key head).
    if (weights.kv_heads <= 0 || weights.q_heads % weights.kv_heads != 0) {
        throw InputError(fmt::format("{}: {} query heads are not a multiple of {} key heads", weights.k.name, weights.q_heads,
                                     weights.kv_heads));
    }
    check_matrix(weights.k, weights.kv_heads, weights.key_head_dim(), weights.rotary_dim, weights.key_rotary_offset(), "key");
}

namespace {

// validate(), its refusal naming the file as well as the tensor.
void validate_in(const std::string& source, const AttentionWeights& weights) {
    try {
        validate(weights);
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}", source, e.what()));
    }
}

int checked_heads(double value, const std::string& source, const std::string& key) {
    if (!(value >= 1 && value <= static_cast<double>(kMaxAttentionHeads)) || value != static_cast<double>(static_cast<std::int64_t>(value))) {
        throw InputError(fmt::format("{}: {} = {} (must be a whole number of heads, 1 to {})", source, key, value, kMaxAttentionHeads));
    }
    return static_cast<int>(value);
}

// What MLA's energies are: k_pe is one key head for every query head, and a compressed q's rows
// read the normalised q_a latent, not the hidden state.
void add_mla_notes(AttentionWeights& w, bool compressed, std::string_view q_b, std::string_view q_a) {
    w.notes.push_back(fmt::format("MLA: the keys' rotary part is one head (k_pe, the last {} rows of {}) that every query head reads",
                                  w.rotary_dim, w.k.name));
    if (compressed) {
        w.notes.push_back(fmt::format("MLA: q is compressed: {}'s rows read the normalised {} latent, not the hidden state, so the "
                                      "bound is for a unit latent",
                                      q_b, q_a));
    }
}

// ---------------------------------------------------------------------------------------------
// GGUF (tensor names from llama.cpp's src/llama-arch.cpp, hparams from src/llama-model.cpp).

class GgufWeights final : public ModelWeights {
public:
    explicit GgufWeights(gguf::File file) : held_(std::make_shared<const gguf::File>(std::move(file))), file_(*held_) {
        const std::optional<std::string> arch = file_.string("general.architecture");
        if (!arch) throw InputError(fmt::format("{}: general.architecture is missing", source()));
        arch_ = *arch;
        rope_ = gguf::rope_of(file_);  // refuses architectures without RoPE, and unknown ones
        const std::optional<std::int64_t> blocks = file_.integer(key("block_count"));
        if (!blocks) throw InputError(fmt::format("{}: {} is missing", source(), key("block_count")));
        if (*blocks < 1 || *blocks > kMaxLayers) {
            throw InputError(fmt::format("{}: {} = {} (must be 1 to {})", source(), key("block_count"), *blocks, kMaxLayers));
        }
        layers_ = static_cast<int>(*blocks);
    }

    int layers() const override { return layers_; }
    const std::string& source() const override { return file_.source(); }

    AttentionWeights attention(int layer) const override {
        check_layer(layer);
        AttentionWeights w;
        w.layer = layer;
        w.q_heads = heads_at(key("attention.head_count"), layer, std::nullopt);
        w.kv_heads = heads_at(key("attention.head_count_kv"), layer, w.q_heads);
        // The head, its rotary part and the pair order as llama.cpp runs the layer (gguf_rope.cpp:
        // key_length or n_embd / n_head, dimension_count, the architecture's rope type).
        const LoadedConfig loaded = rope_.layers.empty() ? rope_ : gguf::rope_of(file_, "", {}, layer);
        w.head_dim = loaded.config.head_dim;
        w.rotary_dim = rotary_dim(loaded.config);
        w.rotary_offset = loaded.config.rotary_offset;
        w.rows = loaded.config.layout;
        w.notes.push_back(row_note(w.rows));
        if (!loaded.config.attention.rope) w.notes.push_back(fmt::format("layer {} applies no RoPE (NoPE): its pairs do not turn", layer));
        if (!read_mla(layer, w)) read_matrices(layer, w);
        validate_in(source(), w);
        return w;
    }

private:
    std::string key(std::string_view name) const { return fmt::format("{}.{}", arch_, name); }
    std::string blk(int layer, std::string_view name) const { return fmt::format("blk.{}.{}.weight", layer, name); }

    void check_layer(int layer) const {
        if (layer < 0 || layer >= layers_) {
            throw InputError(fmt::format("{}: layer {} is not one of its {} layers (0 .. {})", source(), layer, layers_, layers_ - 1));
        }
    }

    // DeepSeek's multi-head latent attention (llama-model.cpp, the deepseek2 graph): each query
    // head is [nope | rope] rows of attn_q (attn_q_b where q is compressed: it reads the q_a
    // latent), and the keys' rotary part k_pe is the last n_rot rows of attn_kv_a_mqa, one head
    // shared by all. False when the layer is not MLA.
    bool read_mla(int layer, AttentionWeights& w) const {
        const gguf::TensorInfo* mqa = file_.tensor(blk(layer, "attn_kv_a_mqa"));
        if (!mqa) return false;
        const bool compressed = !file_.tensor(blk(layer, "attn_q"));
        w.q = matrix(tensor(blk(layer, compressed ? "attn_q_b" : "attn_q")), 0, std::nullopt);
        w.kv_heads = 1;
        w.k_head_dim = w.rotary_dim;
        w.k_rotary_offset = 0;
        const std::int64_t rows = mqa->dims.size() >= 2 ? static_cast<std::int64_t>(std::min<std::uint64_t>(mqa->dims[1], 1u << 30)) : 0;
        w.k = matrix(*mqa, std::max<std::int64_t>(0, rows - w.rotary_dim), w.rotary_dim);
        add_mla_notes(w, compressed, "attn_q_b", "attn_q_a");
        return true;
    }

    // A head count: a number, or a per-layer array (llama-model.cpp reads both) of which layer's
    // entry counts. `fallback` when the key is absent (head_count_kv defaults to head_count).
    int heads_at(const std::string& name, int layer, std::optional<int> fallback) const {
        const std::optional<std::vector<double>> values = file_.numbers(name);
        if (!values) {
            if (fallback) return *fallback;
            throw InputError(fmt::format("{}: {} is missing", source(), name));
        }
        if (values->size() == 1) return checked_heads(values->front(), source(), name);
        if (static_cast<std::size_t>(layer) >= values->size()) {
            throw InputError(fmt::format("{}: {} has {} entries, none for layer {}", source(), name, values->size(), layer));
        }
        const double v = (*values)[static_cast<std::size_t>(layer)];
        if (v == 0) throw InputError(fmt::format("{}: layer {} has no attention heads ({}[{}] = 0)", source(), layer, name, layer));
        return checked_heads(v, source(), fmt::format("{}[{}]", name, layer));
    }

    // llama.cpp rotates NORM architectures' consecutive components (2i, 2i+1), and
    // convert_hf_to_gguf.py permutes their q/k rows so that these are the checkpoint's
    // rotate_half pairs (i, i + n_rot/2); NEOX and the multi-axis orders keep HF's halves.
    std::string row_note(PairLayout rows) const {
        if (rows == PairLayout::Interleaved) {
            return fmt::format("rows as converted by llama.cpp for {} (NORM): pair i is rows (2i, 2i+1) of a head, the checkpoint's "
                               "rows (i, i + rotary/2) permuted by convert_hf_to_gguf.py",
                               arch_);
        }
        return fmt::format("rows as in the checkpoint for {} (NEOX order): pair i is rows (i, i + rotary/2) of a head", arch_);
    }

    const gguf::TensorInfo& tensor(const std::string& name) const {
        const gguf::TensorInfo* t = file_.tensor(name);
        if (!t) throw InputError(fmt::format("{}: tensor {} is missing", source(), name));
        return *t;
    }

    // The matrix a tensor holds, its rows from `first_row` on; `rows` of them when given.
    WeightMatrix matrix(const gguf::TensorInfo& t, std::int64_t first_row, std::optional<std::int64_t> rows) const {
        const std::optional<Format> format = models::format_of_gguf(t.type);
        if (!format) {
            throw InputError(fmt::format("{}: {} is {}, which ropelab cannot read; re-quantise to Q8_0, Q4_K or Q6_K, or use F16",
                                         source(), t.name, gguf::tensor_type_name(t.type)));
        }
        bool flat = t.dims.size() >= 2;
        for (std::size_t d = 2; d < t.dims.size(); ++d) flat = flat && t.dims[d] == 1;
        if (!flat || t.dims[0] < 1 || t.dims[1] < 1 || t.dims[0] > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()) ||
            t.dims[1] > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())) {
            throw InputError(fmt::format("{}: {} is not a matrix (dims {})", source(), t.name, fmt::join(t.dims, " × ")));
        }
        WeightMatrix m;
        m.name = t.name;
        m.format = *format;
        m.cols = static_cast<std::int64_t>(t.dims[0]);
        m.rows = rows.value_or(static_cast<std::int64_t>(t.dims[1]));
        m.first_row = first_row;
        if (first_row + m.rows > static_cast<std::int64_t>(t.dims[1])) {
            throw InputError(fmt::format("{}: {} has {} rows, fewer than the {} that q and k need", source(), t.name, t.dims[1],
                                         first_row + m.rows));
        }
        m.bytes = file_.data(t);
        m.owner = held_;
        return m;
    }

    // attn_q and attn_k, or the fused attn_qkv's rows [q | k | v] (llama-model.cpp's wqkv views).
    void read_matrices(int layer, AttentionWeights& w) const {
        const std::int64_t q_rows = static_cast<std::int64_t>(w.q_heads) * w.head_dim;
        const std::int64_t k_rows = static_cast<std::int64_t>(w.kv_heads) * w.head_dim;
        if (!file_.tensor(blk(layer, "attn_q")) && file_.tensor(blk(layer, "attn_qkv"))) {
            const gguf::TensorInfo& qkv = tensor(blk(layer, "attn_qkv"));
            w.q = matrix(qkv, 0, q_rows);
            w.k = matrix(qkv, q_rows, k_rows);
            w.notes.push_back(fmt::format("q and k are rows [0, {}) and [{}, {}) of the fused {}", q_rows, q_rows, q_rows + k_rows, qkv.name));
            return;
        }
        w.q = matrix(tensor(blk(layer, "attn_q")), 0, std::nullopt);
        w.k = matrix(tensor(blk(layer, "attn_k")), 0, std::nullopt);
    }

    std::shared_ptr<const gguf::File> held_;  // shared with every matrix handed out
    const gguf::File& file_;
    std::string arch_;
    LoadedConfig rope_;
    int layers_ = 0;
};

// ---------------------------------------------------------------------------------------------
// safetensors checkpoints (tensor names from transformers' modeling files).

// The text model's part of a config: text_config (multimodal models), else the top level.
const Json& text_part(const Json& root) {
    if (root.contains("text_config") && root.at("text_config").is_object()) return root.at("text_config");
    return root;
}

// A number of the config; nullopt when absent or null.
std::optional<double> config_number(const Json& config, const std::string& name, const std::string& path) {
    if (!config.contains(name) || config.at(name).is_null()) return std::nullopt;
    if (!config.at(name).is_number()) throw InputError(fmt::format("{}: {} = {} is not a number", path, name, json_excerpt(config.at(name))));
    return config.at(name).get<double>();
}

class CheckpointWeights final : public ModelWeights {
public:
    explicit CheckpointWeights(safetensors::Checkpoint checkpoint)
        : held_(std::make_shared<const safetensors::Checkpoint>(std::move(checkpoint))), checkpoint_(*held_) {
        const std::string& config = checkpoint_.config_path();
        if (config.empty()) {
            throw InputError(fmt::format("{}: no config.json beside the checkpoint: its heads and RoPE are unknown", source()));
        }
        loaded_ = load_config_json(config);
        const Json root = parse_json_input(read_input_file(config, "config"), config);
        read_heads(text_part(root), config);
        find_prefix();
        layers_ = loaded_.layer_count > 0 ? loaded_.layer_count : count_layers();
    }

    int layers() const override { return layers_; }
    const std::string& source() const override { return checkpoint_.source(); }

    AttentionWeights attention(int layer) const override {
        if (layer < 0 || layer >= layers_) {
            throw InputError(fmt::format("{}: layer {} is not one of its {} layers (0 .. {})", source(), layer, layers_, layers_ - 1));
        }
        const LoadedConfig loaded = loaded_.layers.empty() ? loaded_ : load_config_json(checkpoint_.config_path(), "", {}, layer);
        AttentionWeights w;
        w.layer = layer;
        w.head_dim = loaded.config.head_dim;
        w.q_heads = query_heads(layer, w.head_dim, w.notes);
        w.kv_heads = kv_heads_ > 0 ? kv_heads_ : w.q_heads;  // transformers' default: one key head per query head
        w.rotary_dim = rotary_dim(loaded.config);
        w.rotary_offset = loaded.config.rotary_offset;
        w.rows = loaded.config.layout;
        w.notes.push_back(w.rows == PairLayout::Half
                              ? "rows as in the checkpoint: the model rotates halves (rotate_half), pair i is rows (i, i + rotary/2) of a head"
                              : "rows as in the checkpoint: the model rotates consecutive components, pair i is rows (2i, 2i+1) of a head");
        if (w.rotary_offset > 0) w.notes.push_back(fmt::format("the rotary part starts at component {} of each head", w.rotary_offset));
        if (!loaded.config.attention.rope) w.notes.push_back(fmt::format("layer {} applies no RoPE (NoPE): its pairs do not turn", layer));
        if (!read_mla(layer, w)) read_matrices(layer, w);
        validate_in(source(), w);
        return w;
    }

private:
    // The head counts as written; 0 where the file leaves them out (llava-1.5's text_config relies
    // on LlamaConfig's defaults): they are then counted from q_proj's rows (query_heads).
    void read_heads(const Json& config, const std::string& path) {
        if (const std::optional<double> heads = config_number(config, "num_attention_heads", path)) {
            q_heads_ = checked_heads(*heads, path, "num_attention_heads");
        }
        if (const std::optional<double> kv = config_number(config, "num_key_value_heads", path)) {
            kv_heads_ = checked_heads(*kv, path, "num_key_value_heads");
        }
    }

    int query_heads(int layer, int head_dim, std::vector<std::string>& notes) const {
        if (q_heads_ > 0) return q_heads_;
        const safetensors::Tensor* q = checkpoint_.tensor(attn(layer, "q_proj"));
        if (!q || q->shape.size() != 2 || head_dim <= 0 || q->shape[0] % head_dim != 0) {
            throw InputError(fmt::format("{}: num_attention_heads is missing, and {} does not tell it in rows of head_dim {}",
                                         checkpoint_.config_path(), attn(layer, "q_proj"), head_dim));
        }
        const int heads = checked_heads(static_cast<double>(q->shape[0] / head_dim), source(), q->name + " rows / head_dim");
        notes.push_back(fmt::format("num_attention_heads is not in the config: {} heads from {}'s {} rows of {}", heads, q->name,
                                    q->shape[0], head_dim));
        return heads;
    }

    // The prefix before "layers.0.self_attn.q_proj.weight" ("model.", "model.language_model.", …):
    // multimodal checkpoints nest the text model under names of their own.
    void find_prefix() {
        static constexpr std::string_view kProbes[] = {"layers.0.self_attn.q_proj.weight", "layers.0.self_attn.qkv_proj.weight",
                                                       "layers.0.self_attn.kv_a_proj_with_mqa.weight"};
        for (std::string_view probe : kProbes) {
            for (const safetensors::Tensor& t : checkpoint_.tensors()) {
                if (t.name.size() < probe.size() || !t.name.ends_with(probe)) continue;
                const std::string prefix = t.name.substr(0, t.name.size() - probe.size());
                if (prefix.empty() || prefix.ends_with('.')) {
                    if (prefix.find("vision") != std::string::npos || prefix.find("visual") != std::string::npos) continue;
                    prefix_ = prefix;
                    return;
                }
            }
        }
        throw InputError(fmt::format("{}: no tensor named …layers.0.self_attn.q_proj.weight: not a checkpoint of a transformers "
                                     "attention model ropelab knows",
                                     source()));
    }

    // The number of layers when the config does not say: one past the highest prefix + "layers.L.".
    int count_layers() const {
        const std::string start = prefix_ + "layers.";
        int count = 0;
        for (const safetensors::Tensor& t : checkpoint_.tensors()) {
            if (!t.name.starts_with(start)) continue;
            std::int64_t layer = 0;
            std::size_t at = start.size();
            while (at < t.name.size() && t.name[at] >= '0' && t.name[at] <= '9' && layer < kMaxLayers) layer = layer * 10 + (t.name[at++] - '0');
            if (at > start.size() && layer < kMaxLayers) count = std::max(count, static_cast<int>(layer) + 1);
        }
        return count;
    }

    std::string attn(int layer, std::string_view name) const { return fmt::format("{}layers.{}.self_attn.{}.weight", prefix_, layer, name); }

    // DeepSeek V2/V3 (modeling_deepseek_v3.py): q_proj (q_b_proj where q is compressed) gives
    // [nope | rope] heads, and the keys' rotary part k_pe is the last qk_rope_head_dim rows of
    // kv_a_proj_with_mqa, shared by every head. False when the layer is not MLA.
    bool read_mla(int layer, AttentionWeights& w) const {
        const safetensors::Tensor* mqa = checkpoint_.tensor(attn(layer, "kv_a_proj_with_mqa"));
        if (!mqa) return false;
        const bool compressed = !checkpoint_.tensor(attn(layer, "q_proj"));
        w.q = matrix(tensor(attn(layer, compressed ? "q_b_proj" : "q_proj")), 0, std::nullopt);
        w.kv_heads = 1;
        w.k_head_dim = w.rotary_dim;
        w.k_rotary_offset = 0;
        const std::int64_t rows = mqa->shape.size() == 2 ? mqa->shape[0] : 0;
        w.k = matrix(*mqa, std::max<std::int64_t>(0, rows - w.rotary_dim), w.rotary_dim);
        add_mla_notes(w, compressed, "q_b_proj", "q_a_proj");
        return true;
    }

    const safetensors::Tensor& tensor(const std::string& name) const {
        const safetensors::Tensor* t = checkpoint_.tensor(name);
        if (!t) throw InputError(fmt::format("{}: tensor {} is missing", source(), name));
        return *t;
    }

    WeightMatrix matrix(const safetensors::Tensor& t, std::int64_t first_row, std::optional<std::int64_t> rows) const {
        const std::optional<Format> format = format_of_dtype(t.dtype);
        if (!format) {
            throw InputError(fmt::format("{}: {} is {}, which ropelab cannot read (F32, F16, BF16, F8_E4M3 or F8_E5M2)", source(),
                                         t.name, t.dtype));
        }
        if (t.shape.size() != 2 || t.shape[0] < 1 || t.shape[1] < 1) {
            throw InputError(fmt::format("{}: {} is not a matrix (shape [{}])", source(), t.name, fmt::join(t.shape, ", ")));
        }
        // FP8 checkpoints scale blocks of the weights by a tensor beside them (DeepSeek V3's
        // weight_scale_inv, compressed-tensors' weight_scale): the raw values alone mislead.
        for (const char* scale : {"_scale_inv", "_scale"}) {
            if (checkpoint_.tensor(t.name + scale)) {
                throw InputError(fmt::format("{}: {} is scaled by {}{}, which ropelab does not apply yet", source(), t.name, t.name, scale));
            }
        }
        WeightMatrix m;
        m.name = t.name;
        m.format = *format;
        m.rows = rows.value_or(t.shape[0]);
        m.cols = t.shape[1];
        m.first_row = first_row;
        if (first_row + m.rows > t.shape[0]) {
            throw InputError(fmt::format("{}: {} has {} rows, fewer than the {} that q and k need", source(), t.name, t.shape[0],
                                         first_row + m.rows));
        }
        m.bytes = checkpoint_.data(t);
        m.owner = held_;
        return m;
    }

    // q_proj and k_proj, or Phi-3's fused qkv_proj, rows [q | k | v] (modeling_phi3.py).
    void read_matrices(int layer, AttentionWeights& w) const {
        const std::int64_t q_rows = static_cast<std::int64_t>(w.q_heads) * w.head_dim;
        const std::int64_t k_rows = static_cast<std::int64_t>(w.kv_heads) * w.head_dim;
        if (!checkpoint_.tensor(attn(layer, "q_proj")) && checkpoint_.tensor(attn(layer, "qkv_proj"))) {
            const safetensors::Tensor& qkv = tensor(attn(layer, "qkv_proj"));
            w.q = matrix(qkv, 0, q_rows);
            w.k = matrix(qkv, q_rows, k_rows);
            w.notes.push_back(fmt::format("q and k are rows [0, {}) and [{}, {}) of the fused {}", q_rows, q_rows, q_rows + k_rows, qkv.name));
            return;
        }
        w.q = matrix(tensor(attn(layer, "q_proj")), 0, std::nullopt);
        w.k = matrix(tensor(attn(layer, "k_proj")), 0, std::nullopt);
    }

    std::shared_ptr<const safetensors::Checkpoint> held_;  // shared with every matrix handed out
    const safetensors::Checkpoint& checkpoint_;
    LoadedConfig loaded_;
    std::string prefix_;
    int q_heads_ = 0, kv_heads_ = 0, layers_ = 0;
};

// True when the path is a file that starts with GGUF's magic.
bool is_gguf(const std::string& path) { return model_file_kind(path) == ModelFileKind::Gguf; }

}  // namespace

std::shared_ptr<const ModelWeights> ModelWeights::open(const std::string& path) {
    if (is_gguf(path)) return std::make_shared<GgufWeights>(gguf::File::open(path));
    return std::make_shared<CheckpointWeights>(safetensors::Checkpoint::open(path));
}

}  // namespace ropelab::models
