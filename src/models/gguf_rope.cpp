// The RoPE llama.cpp applies to a GGUF file. Where each rule comes from (ggml-org/llama.cpp):
//   src/llama-arch.cpp    the key names (LLM_KV_NAMES) and tensor names (rope_freqs,
//                         rope_factors_long / rope_factors_short), the architecture names
//   src/llama-model.cpp   load_hparams: freq_base defaults to 10000, key_length to
//                         embedding_length / head_count, dimension_count to key_length, the SWA
//                         layer's key_length_swa / dimension_count_swa to the full layer's; the
//                         scaling type defaults to "linear" with factor 0 meaning none; the
//                         per-architecture cases (set_swa_pattern, freq_base_swa, Gemma 3's SWA
//                         base 10000); llama_model_rope_type: the pair order of each architecture
//   src/llama-hparams.cpp set_swa_pattern: layer il slides unless il % N == N − 1
//                         (dense_first: unless il % N == 0)
//   src/models/*.cpp      which layers skip RoPE (Cohere2's global layers, Llama 4 / SmolLM3's
//                         every 4th), Gemma 4's rope_freqs on its full-attention layers only,
//                         DeepSeek2's q_pe as the last n_rot of the head, its yarn_log_multiplier
//   llama-graph / llama-model get_rope_factors: rope_factors_long beyond n_ctx_orig_yarn, else short
//   convert_hf_to_gguf.py LlamaModel permutes HF's q/k rows so that consecutive pairs are HF's
//                         rotate_half pairs; llama3 scaling becomes the rope_freqs tensor; Phi-3's
//                         LongRoPE the rope_factors tensors; Hunyuan's NTK alpha is baked into
//                         freq_base
#include "models/gguf_rope.h"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "core/error.h"
#include "models/dequantize.h"

namespace ropelab::gguf {

namespace {

constexpr RopeOrder kNone = RopeOrder::None, kNorm = RopeOrder::Norm, kNeox = RopeOrder::Neox, kMrope = RopeOrder::Mrope,
                    kImrope = RopeOrder::Imrope;

// llama_model_rope_type's lists (src/llama-model.cpp), with the per-architecture rules of
// load_hparams and the graph builders. Architectures whose pair order depends on the file
// (dflash) or whose attention ropelab has not read (deepseek4) are left out: the hint applies.
const Architecture kArchitectures[] = {
    // No RoPE.
    {"clip", kNone, "CLIP / mmproj", "", "a vision projector file (mmproj); its text model is a separate GGUF"},
    {"gpt2", kNone, "GPT-2", "", "learned absolute positions"},
    {"gptj", kNone, "GPT-J", "", "none in llama.cpp (llama_model_rope_type lists gptj without RoPE; its config.json reads in ropelab)"},
    {"mpt", kNone, "MPT", "", "ALiBi, attention biases that grow with distance"},
    {"refact", kNone, "Refact", "", "ALiBi, attention biases that grow with distance"},
    {"bloom", kNone, "BLOOM", "", "ALiBi, attention biases that grow with distance"},
    {"starcoder", kNone, "StarCoder", "", "learned absolute positions (the graph adds position_embd)"},
    {"bert", kNone, "BERT", "", "learned absolute positions (position_embd)"},
    {"jina-bert-v2", kNone, "Jina BERT v2", "", "ALiBi, attention biases that grow with distance"},
    {"jais", kNone, "JAIS", "", "ALiBi, attention biases that grow with distance"},
    {"t5", kNone, "T5", "", "relative position buckets, learned attention biases"},
    {"t5encoder", kNone, "T5 encoder", "", "relative position buckets, learned attention biases"},
    {"mamba", kNone, "Mamba", "", "a state-space model, with no attention and no positions"},
    {"mamba2", kNone, "Mamba-2", "", "a state-space model, with no attention and no positions"},
    {"jamba", kNone, "Jamba", "", "Mamba layers; its attention layers use no positional encoding"},
    {"nemotron_h", kNone, "Nemotron-H", "", "Mamba-2 layers; its attention layers use no positional encoding"},
    {"nemotron_h_moe", kNone, "Nemotron-H MoE", "", "Mamba-2 layers; its attention layers use no positional encoding"},
    {"kimi-linear", kNone, "Kimi Linear", "", "Kimi delta attention and NoPE MLA layers"},
    {"rwkv6", kNone, "RWKV-6", "", "a recurrent model (RWKV), with no attention and no positions"},
    {"rwkv6qwen2", kNone, "RWKV-6 Qwen2", "", "a recurrent model (RWKV), with no attention and no positions"},
    {"rwkv7", kNone, "RWKV-7", "", "a recurrent model (RWKV), with no attention and no positions"},
    {"arwkv7", kNone, "ARWKV-7", "", "a recurrent model (RWKV), with no attention and no positions"},
    {"wavtokenizer-dec", kNone, "WavTokenizer decoder", "", "convolutions (an audio codec's decoder)"},

    // NORM: consecutive pairs.
    {"llama", kNorm, "Llama", "rope_freqs tensor: Llama 3.1's divisors", "", {.rows = NormRows::Permuted}},
    {"llama-embed", kNorm, "Llama embedding", "", "", {.rows = NormRows::Permuted}},
    {"llada", kNorm, "LLaDA", ""},
    {"llama4", kNorm, "Llama 4", "every 4th layer NoPE; the others in chunks of 8192", "",
     {.rows = NormRows::Native, .swa_follows_model = true, .nope_every = 4, .nope_last_without_window = true, .chunked = true}},
    {"deci", kNorm, "DeciLM / Nemotron-NAS", "layers with 0 KV heads have no attention", "", {.rows = NormRows::Permuted}},
    {"baichuan", kNorm, "Baichuan", "", "", {.rows = NormRows::Permuted}},
    {"internlm2", kNorm, "InternLM2", "", "", {.rows = NormRows::Permuted}},
    {"minicpm", kNorm, "MiniCPM", "", "", {.rows = NormRows::Permuted}},
    {"xverse", kNorm, "XVERSE", "", "", {.rows = NormRows::Permuted}},
    {"command-r", kNorm, "Command R", "", "", {.rows = NormRows::Native}},
    {"cohere2", kNorm, "Command R7B / A (Cohere2)", "sliding layers rotate; every 4th layer global, NoPE", "",
     {.rows = NormRows::Native, .swa_every = 4, .swa_follows_model = true, .global_nope = true}},
    {"cohere2moe", kNorm, "Cohere2 MoE", "sliding layers rotate; every 4th layer global, NoPE", "",
     {.rows = NormRows::Native, .swa_every = 4, .swa_follows_model = true, .global_nope = true}},
    {"olmo", kNorm, "OLMo", "", "", {.rows = NormRows::Permuted}},
    {"arctic", kNorm, "Arctic", "", "", {.rows = NormRows::Permuted}},
    {"deepseek", kNorm, "DeepSeek (V1 MoE)", "", "", {.rows = NormRows::Permuted}},
    {"deepseek2", kNorm, "DeepSeek-V2 / V3", "MLA: rotates the head's last n_rot (q_pe, k_pe); yarn", "", {.rows = NormRows::Native, .mla = true}},
    {"deepseek2-ocr", kNorm, "DeepSeek-OCR", "MLA: rotates the head's last n_rot", "", {.rows = NormRows::Native, .mla = true}},
    {"deepseek32", kNorm, "DeepSeek-V3.2", "MLA: rotates the head's last n_rot; yarn", "", {.rows = NormRows::Native, .mla = true}},
    {"glm-dsa", kNorm, "GLM (DSA)", "MLA: rotates the head's last n_rot", "", {.rows = NormRows::Native, .mla = true}},
    {"mistral4", kNorm, "Mistral 4", "MLA: rotates the head's last n_rot", "", {.rows = NormRows::Native, .mla = true}},
    {"plm", kNorm, "PLM", ""},
    {"chatglm", kNorm, "ChatGLM", "partial rotary (dimension_count)", "", {.rows = NormRows::Native}},
    {"glm4", kNorm, "GLM-4", "M-RoPE (halves) when dimension_sections is set", "", {.rows = NormRows::Native, .mrope_if_sections = true}},
    {"granite", kNorm, "Granite", "", "", {.rows = NormRows::Permuted}},
    {"granitemoe", kNorm, "Granite MoE", "", "", {.rows = NormRows::Permuted}},
    {"granitehybrid", kNorm, "Granite 4 hybrid", "layers with 0 KV heads are Mamba-2 (no RoPE)", "", {.rows = NormRows::Permuted}},
    {"chameleon", kNorm, "Chameleon", "", "", {.rows = NormRows::Permuted}},
    {"bailingmoe", kNorm, "Ling (BailingMoE)", "", "", {.rows = NormRows::Permuted}},
    {"neo-bert", kNorm, "NeoBERT", ""},
    {"smollm3", kNorm, "SmolLM3", "every 4th layer NoPE", "", {.rows = NormRows::Permuted, .nope_every = 4}},
    {"arcee", kNorm, "Arcee (AFM)", "", "", {.rows = NormRows::Permuted}},
    {"ernie4_5", kNorm, "ERNIE 4.5", "", "", {.rows = NormRows::Native}},
    {"ernie4_5-moe", kNorm, "ERNIE 4.5 MoE", "", "", {.rows = NormRows::Native}},
    {"mistral3", kNorm, "Mistral 3", "yarn keys", "", {.rows = NormRows::Permuted}},
    {"eagle3", kNorm, "EAGLE-3 draft", ""},
    {"maincoder", kNorm, "Maincoder", ""},

    // NEOX: halves.
    {"falcon", kNeox, "Falcon", ""},
    {"falcon-h1", kNeox, "Falcon-H1", "hybrid Mamba-2 + attention"},
    {"grok", kNeox, "Grok", ""},
    {"dbrx", kNeox, "DBRX", ""},
    {"jina-bert-v3", kNeox, "Jina BERT v3", ""},
    {"modern-bert", kNeox, "ModernBERT", "every 3rd layer global from layer 0; local layers freq_base_swa", "",
     {.swa_every = 3, .dense_first = true, .swa_needs_window = true}},
    {"nomic-bert", kNeox, "Nomic BERT", ""},
    {"nomic-bert-moe", kNeox, "Nomic BERT MoE", ""},
    {"eurobert", kNeox, "EuroBERT", ""},
    {"stablelm", kNeox, "StableLM", "partial rotary (dimension_count)"},
    {"bitnet", kNeox, "BitNet", ""},
    {"qwen", kNeox, "Qwen", ""},
    {"qwen2", kNeox, "Qwen2 / 2.5", ""},
    {"qwen2moe", kNeox, "Qwen2 MoE", ""},
    {"qwen3", kNeox, "Qwen3", ""},
    {"qwen3moe", kNeox, "Qwen3 MoE", ""},
    {"qwen3next", kNeox, "Qwen3-Next", "partial rotary; every 4th layer attention, the rest linear (no RoPE)", "", {.attention_every = 4}},
    {"dream", kNeox, "Dream", ""},
    {"llada-moe", kNeox, "LLaDA MoE", ""},
    {"rnd1", kNeox, "RND1", ""},
    {"olmo2", kNeox, "OLMo 2 / 3", "with a window (OLMo 3): every 4th layer global", "",
     {.swa_every = 4, .swa_needs_window = true, .swa_follows_model = true}},
    {"olmoe", kNeox, "OLMoE", ""},
    {"phi2", kNeox, "Phi-2", "partial rotary (dimension_count)"},
    {"phi3", kNeox, "Phi-3 / 4", "LongRoPE: rope_factors_long/short tensors"},
    {"phimoe", kNeox, "Phi-3.5 MoE", "LongRoPE: rope_factors_long/short tensors"},
    {"plamo", kNeox, "PLaMo", ""},
    {"plamo2", kNeox, "PLaMo 2", "hybrid Mamba + attention"},
    {"plamo3", kNeox, "PLaMo 3", ""},
    {"gemma", kNeox, "Gemma", ""},
    {"gemma2", kNeox, "Gemma 2", "every 2nd layer global", "", {.swa_every = 2, .swa_follows_model = true}},
    {"gemma3", kNeox, "Gemma 3", "with a window: every 6th layer global; sliding layers θ 10000, unscaled", "",
     {.swa_every = 6, .swa_needs_window = true}},
    {"gemma3n", kNeox, "Gemma 3n", "every 5th layer global; sliding layers θ 10000, unscaled", "",
     {.swa_every = 5}},
    {"gemma-embedding", kNeox, "EmbeddingGemma", "with a window: every 6th layer global; sliding layers θ 10000, unscaled", "",
     {.swa_every = 6, .swa_needs_window = true}},
    {"gemma4", kNeox, "Gemma 4", "per-layer SWA array; own head and base for sliding layers; rope_freqs (1e30: unrotated) on global",
     "", {.freqs_full_only = true}},
    {"starcoder2", kNeox, "StarCoder2", ""},
    {"openelm", kNeox, "OpenELM", "per-layer head counts"},
    {"gptneox", kNeox, "GPT-NeoX / Pythia", "partial rotary (dimension_count)"},
    {"codeshell", kNeox, "CodeShell", ""},
    {"orion", kNeox, "Orion", ""},
    {"nemotron", kNeox, "Nemotron", "partial rotary (dimension_count)"},
    {"exaone", kNeox, "EXAONE", ""},
    {"exaone4", kNeox, "EXAONE 4", "the 64-layer 32B: window 4096, every 4th layer global and NoPE", "",
     {.swa_every = 4, .swa_only_with_layers = 64, .default_window = 4096, .swa_follows_model = true, .global_nope = true}},
    {"exaone-moe", kNeox, "EXAONE MoE", "", "", {.swa_follows_model = true}},
    {"minicpm3", kNeox, "MiniCPM3", "MLA: rotates the head's last n_rot; LongRoPE tensors", "", {.mla = true}},
    {"bailingmoe2", kNeox, "Ling 2 (BailingMoE2)", "partial rotary"},
    {"dots1", kNeox, "dots.llm1", ""},
    {"hunyuan-moe", kNeox, "Hunyuan MoE", "NTK alpha baked into freq_base by the converter"},
    {"hunyuan-dense", kNeox, "Hunyuan dense", "NTK alpha baked into freq_base by the converter"},
    {"hunyuan_vl", kNeox, "Hunyuan VL", "M-RoPE when dimension_sections is set", "", {.mrope_if_sections = true}},
    {"hy_v3", kNeox, "Hunyuan V3", ""},
    {"jais2", kNeox, "JAIS 2", ""},
    {"gpt-oss", kNeox, "gpt-oss", "every 2nd layer global; yarn", "", {.swa_every = 2, .swa_follows_model = true}},
    {"lfm2", kNeox, "LFM2", "layers with 0 KV heads are convolutions (no RoPE)"},
    {"lfm2moe", kNeox, "LFM2 MoE", "layers with 0 KV heads are convolutions (no RoPE)"},
    {"smallthinker", kNeox, "SmallThinker", "with a window: every 4th layer global from layer 0, every 4th NoPE", "",
     {.swa_every = 4, .dense_first = true, .swa_needs_window = true, .swa_follows_model = true, .nope_every = 4,
      .nope_last_without_window = true}},
    {"seed_oss", kNeox, "Seed-OSS", ""},
    {"grovemoe", kNeox, "GroveMoE", ""},
    {"apertus", kNeox, "Apertus", "llama3 rope_freqs tensor"},
    {"minimax-m2", kNeox, "MiniMax-M2", "partial rotary (dimension_count)"},
    {"cogvlm", kNeox, "CogVLM", ""},
    {"pangu-embedded", kNeox, "openPangu Embedded", ""},
    {"afmoe", kNeox, "AFMoE", "sliding-window layers", "", {.swa_follows_model = true}},
    {"laguna", kNeox, "Laguna", "", "", {.swa_follows_model = true}},
    {"glm4moe", kNeox, "GLM-4.5 / 4.6 (MoE)", "partial rotary; M-RoPE when dimension_sections is set", "", {.mrope_if_sections = true}},
    {"mimo2", kNeox, "MiMo-V2", "per-layer SWA array, freq_base_swa"},
    {"step35", kNeox, "Step-3.5", "per-layer SWA array"},
    {"talkie", kNeox, "Talkie", ""},
    {"mellum", kNeox, "Mellum", "", "", {.swa_follows_model = true}},

    // Multi-axis.
    {"qwen2vl", kMrope, "Qwen2-VL / Qwen2.5-VL", "M-RoPE: dimension_sections t, h, w (halves)"},
    {"paddleocr", kMrope, "PaddleOCR-VL", "M-RoPE: dimension_sections t, h, w (halves)"},
    {"qwen3vl", kImrope, "Qwen3-VL", "interleaved M-RoPE (dimension_sections)"},
    {"qwen3vlmoe", kImrope, "Qwen3-VL MoE", "interleaved M-RoPE (dimension_sections)"},
    {"qwen35", kImrope, "Qwen3.5", "interleaved M-RoPE, partial rotary; every 4th layer attention", "", {.attention_every = 4}},
    {"qwen35moe", kImrope, "Qwen3.5 MoE", "interleaved M-RoPE, partial rotary; every 4th layer attention", "",
     {.attention_every = 4}},
};

std::string shown(double v) { return fmt::format("{}", v); }

std::string_view order_name(RopeOrder order) {
    switch (order) {
        case RopeOrder::None: return "none";
        case RopeOrder::Norm: return "NORM (consecutive pairs)";
        case RopeOrder::Neox: return "NEOX (halves)";
        case RopeOrder::Mrope: return "MROPE (halves, t/h/w sections)";
        case RopeOrder::Imrope: return "IMROPE (halves, interleaved t/h/w)";
        case RopeOrder::Vision: return "VISION";
    }
    return "none";
}

// Reads `{arch}.…` keys through File's typed reads, checks ranges, and records what was used so
// the rest can be listed as not applied.
class Keys {
public:
    Keys(const File& file, std::string arch, LoadedConfig& out) : file_(file), arch_(std::move(arch)), out_(out) {}

    std::string name(std::string_view suffix) const { return fmt::format("{}.{}", arch_, suffix); }
    bool has(std::string_view suffix) const { return file_.find(name(suffix)) != nullptr; }
    const std::string& source() const { return file_.source(); }
    const std::string& arch() const { return arch_; }
    const File& file() const { return file_; }

    [[noreturn]] void fail(const std::string& key, const std::string& text) const {
        throw InputError(fmt::format("{}: {} {}", source(), key, text));
    }

    // A whole number in lo .. hi (File::integer refuses fractions and negatives).
    std::optional<std::int64_t> count(std::string_view suffix, std::int64_t lo, std::int64_t hi) {
        const std::string key = name(suffix);
        const auto v = file_.integer(key);
        if (!v) return std::nullopt;
        if (*v < lo || *v > hi) fail(key, fmt::format("= {} is out of range ({} .. {})", *v, lo, hi));
        use(key, fmt::format("{}", *v));
        return v;
    }
    std::optional<double> real(std::string_view suffix, double lo, double hi) {
        const std::string key = name(suffix);
        const auto v = file_.number(key);
        if (!v) return std::nullopt;
        if (!std::isfinite(*v) || *v < lo || *v > hi) fail(key, fmt::format("= {} is out of range ({} .. {})", shown(*v), shown(lo), shown(hi)));
        use(key, shown(*v));
        return v;
    }
    std::optional<std::string> text(std::string_view suffix) {
        const std::string key = name(suffix);
        auto v = file_.string(key);
        if (v) use(key, fmt::format("\"{}\"", *v));
        return v;
    }
    // A number or one per layer: whole numbers in lo .. hi; an array must have `layers` items.
    std::vector<std::int64_t> per_layer(std::string_view suffix, std::int64_t lo, std::int64_t hi, std::int64_t layers) {
        const std::string key = name(suffix);
        const Value* value = file_.find(key);
        if (!value) return {};
        const auto numbers = file_.numbers(key);
        if (!numbers) return {};
        if (value->type == ValueType::Array && layers > 0 && static_cast<std::int64_t>(numbers->size()) != layers) {
            fail(key, fmt::format("= {} has {} entries for {} layers (block_count; one per layer)", value->shown(), numbers->size(), layers));
        }
        std::vector<std::int64_t> out;
        for (std::size_t i = 0; i < numbers->size(); ++i) {
            const double v = (*numbers)[i];
            if (!(v >= static_cast<double>(lo) && v <= static_cast<double>(hi)) || v != std::floor(v)) {
                fail(value->type == ValueType::Array ? fmt::format("{}[{}]", key, i) : key,
                     fmt::format("= {} is not a whole number in {} .. {}", shown(v), lo, hi));
            }
            out.push_back(static_cast<std::int64_t>(v));
        }
        use(key, value->shown());
        return out;
    }

    void use(const std::string& key, std::string value, ReadField::Origin origin = ReadField::Origin::File, std::string why = "") {
        read_.insert(key);
        out_.used.push_back({key, std::move(value), origin, std::move(why)});
    }
    void assume(const std::string& key, std::string value, std::string why) { use(key, std::move(value), ReadField::Origin::Default, std::move(why)); }
    void derive(const std::string& key, std::string value, std::string why) { use(key, std::move(value), ReadField::Origin::Derived, std::move(why)); }
    // Read, but not applied: listed with the RoPE fields ropelab does not apply.
    void not_applied(std::string_view suffix, std::string why) {
        const std::string key = name(suffix);
        if (!file_.find(key) || read_.count(key)) return;
        read_.insert(key);
        out_.ignored.push_back({key, std::move(why), true});
    }
    bool was_read(const std::string& key) const { return read_.count(key) > 0; }

private:
    const File& file_;
    std::string arch_;
    LoadedConfig& out_;
    std::set<std::string> read_;
};

// One RoPE setting: what a full-attention or a sliding layer uses.
struct Setting {
    std::string name;  // "full_attention", "sliding_attention"; "" for a model with one
    ModelConfig config;
};

// One per layer, as llama.cpp's hparams decide it.
struct LayerPlan {
    bool attends = true;
    bool slides = false;
    bool rope = true;
};

// The first `pairs` values of an F32 tensor (ggml takes the first n_rot/2 of freq_factors).
std::vector<double> read_factors(const File& file, const std::string& tensor_name, int pairs, std::vector<std::string>& notes) {
    const TensorInfo* info = file.tensor(tensor_name);
    if (!info) return {};
    if (info->type != static_cast<std::uint32_t>(TensorType::F32)) {
        throw InputError(fmt::format("{}: tensor {} is {}: llama.cpp's converter writes it as f32, and ropelab reads it only so",
                                     file.source(), tensor_name, tensor_type_name(info->type)));
    }
    const std::uint64_t elements = info->elements();
    if (elements < static_cast<std::uint64_t>(pairs)) {
        throw InputError(fmt::format("{}: tensor {} has {} values; rotary dim {} needs {} (one per pair)", file.source(), tensor_name,
                                     elements, 2 * pairs, pairs));
    }
    if (elements > static_cast<std::uint64_t>(pairs)) {
        notes.push_back(fmt::format("tensor {} has {} values; llama.cpp uses the first {} (one per pair of the rotary dim {})", tensor_name,
                                    elements, pairs, 2 * pairs));
    }
    const std::span<const std::byte> bytes = file.data(*info);
    const std::size_t need = models::bytes_of(models::Format::F32, static_cast<std::uint64_t>(pairs));
    if (bytes.size() < need) {
        throw InputError(fmt::format("{}: tensor {} holds {} bytes; {} f32 values need {}", file.source(), tensor_name, bytes.size(), pairs, need));
    }
    std::vector<float> values(static_cast<std::size_t>(pairs));
    models::dequantize(models::Format::F32, bytes.first(need), values);
    std::vector<double> out;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double v = values[i];
        if (!std::isfinite(v) || v <= 0) {
            throw InputError(fmt::format("{}: tensor {}[{}] = {} must be a positive number (it divides pair {}'s frequency)", file.source(),
                                         tensor_name, i, shown(v), i));
        }
        out.push_back(v);
    }
    return out;
}

std::string factors_shown(const std::vector<double>& v) {
    std::string s = fmt::format("[{} f32:", v.size());
    for (std::size_t i = 0; i < v.size() && i < 4; ++i) s += fmt::format(" {}{}", shown(v[i]), i + 1 < v.size() ? "," : "");
    return s + (v.size() > 4 ? " …]" : "]");
}

// rope_freqs: llama.cpp's freq_factors. Divisors of 1e20 or more mean the pair does not turn
// (Gemma 4's proportional RoPE writes 1e30): trailing ones become p-RoPE so the views show them
// as unrotated pairs.
void apply_rope_freqs(std::vector<double> factors, ModelConfig& c, std::vector<std::string>& notes) {
    constexpr double kFrozen = 1e20;
    const int pairs = static_cast<int>(factors.size());
    int trailing = 0;
    while (trailing < pairs && factors[static_cast<std::size_t>(pairs - 1 - trailing)] >= kFrozen) ++trailing;
    const auto frozen = std::count_if(factors.begin(), factors.end(), [](double v) { return v >= kFrozen; });
    if (trailing > 0 && frozen == trailing) {
        for (int i = pairs - trailing; i < pairs; ++i) factors[static_cast<std::size_t>(i)] = 1.0;
        c.p_rope = static_cast<double>(trailing) / pairs;
        notes.push_back(fmt::format("rope_freqs: the last {} of {} pairs have divisor {} (Gemma 4's proportional RoPE): they do not "
                                    "rotate; shown as p-RoPE {} (unrotated pairs)",
                                    trailing, pairs, shown(kFrozen) + " or more", shown(c.p_rope)));
    } else if (frozen > 0) {
        notes.push_back(fmt::format("rope_freqs: {} pairs have a divisor of 1e20 or more: they barely rotate", frozen));
    }
    if (std::all_of(factors.begin(), factors.end(), [](double v) { return v == 1.0; })) factors.clear();
    c.freq_factors = std::move(factors);
}

// What the file's consecutive pairs are in the HF checkpoint (convert_hf_to_gguf.py).
std::string norm_rows_note(NormRows rows) {
    const std::string turns = "llama.cpp's NORM RoPE turns consecutive pairs (2i, 2i+1) of the file's q/k rows";
    switch (rows) {
        case NormRows::Permuted:
            return turns + "; convert_hf_to_gguf.py permuted HF's rows (LlamaModel.permute) so that these are HF's rotate_half pairs "
                           "(i, i + n_rot/2) — the same frequencies. q/k vectors taken from llama.cpp are in this order, from HF in halves";
        case NormRows::Native:
            return turns + "; the checkpoint itself rotates consecutive pairs, so the file's rows are the checkpoint's";
        case NormRows::Unknown: break;
    }
    return turns + "; for a model converted from an HF rotate_half checkpoint, convert_hf_to_gguf.py permuted the rows so that these "
                   "are HF's pairs (i, i + n_rot/2) — the same frequencies";
}

struct Context {
    const Architecture* arch = nullptr;  // null: not in the table (read with --layout / --partial-rotary-factor)
    Quirks quirks;
};

// The head: key_length (MLA: key_length_mla), else embedding_length / head_count, else --head-dim.
int read_head_dim(Keys& k, const Context& cx, const GivenRope& given, int layer) {
    if (cx.quirks.mla && k.has("attention.key_length_mla")) {
        const int dim = static_cast<int>(*k.count("attention.key_length_mla", 2, kMaxHeadDim));
        k.not_applied("attention.key_length", "MLA's cached key width (kv_lora_rank + n_rot); the head is key_length_mla");
        return dim;
    }
    if (const auto key_length = k.file().integer(k.name("attention.key_length"))) {
        if (*key_length > kMaxHeadDim) {
            k.fail(k.name("attention.key_length"), fmt::format("= {}: ropelab shows heads of up to {} components", *key_length, kMaxHeadDim));
        }
        return static_cast<int>(*k.count("attention.key_length", 2, kMaxHeadDim));
    }
    const auto embd = k.count("embedding_length", 1, 1 << 24);
    const auto heads = k.per_layer("attention.head_count", 0, 1 << 16, 0);
    // The picked layer's count, else the first layer that has heads (hybrids write 0 for the others).
    std::int64_t head_count = 0;
    if (layer >= 0 && static_cast<std::size_t>(layer) < heads.size()) head_count = heads[static_cast<std::size_t>(layer)];
    for (std::size_t i = 0; head_count == 0 && i < heads.size(); ++i) head_count = heads[i];
    if (embd && head_count > 0) {
        const std::int64_t dim = *embd / head_count;
        if (dim < 2 || dim > kMaxHeadDim) {
            k.fail(k.name("embedding_length"), fmt::format("= {} over {} heads is a head of {}: ropelab shows heads of 2 .. {}", *embd, head_count,
                                                          dim, kMaxHeadDim));
        }
        k.derive(k.name("attention.key_length"), fmt::format("{}", dim),
                 "llama.cpp's default: embedding_length / head_count (key_length absent)");
        return static_cast<int>(dim);
    }
    if (given.head_dim) {
        k.use("--head-dim", fmt::format("{}", *given.head_dim), ReadField::Origin::Flag, "the file has no key_length and no head count");
        return *given.head_dim;
    }
    throw InputError(fmt::format("{}: {} is missing, and so is {} or {}: the head's width is unknown (--head-dim gives it)", k.source(),
                                 k.name("attention.key_length"), k.name("embedding_length"), k.name("attention.head_count")));
}

int read_rotary(Keys& k, std::string_view suffix, int head_dim, int fallback, const std::string& why) {
    const std::string key = k.name(suffix);
    if (const auto v = k.file().integer(key)) {
        if (*v < 2 || *v > head_dim || *v % 2 != 0) {
            k.fail(key, fmt::format("= {} must be an even number of components in 2 .. {} (the head's width)", *v, head_dim));
        }
        return static_cast<int>(*k.count(suffix, 2, head_dim));
    }
    k.assume(key, fmt::format("{}", fallback), why);
    return fallback;
}

// The scaling keys (load_hparams: type defaults to "linear"; factor 0 or absent means none).
RopeScaling read_scaling(Keys& k, const File& file, int pairs, std::int64_t context, std::vector<std::string>& notes) {
    RopeScaling s;
    const auto type_text = k.text("rope.scaling.type");
    std::optional<double> factor = k.real("rope.scaling.factor", 0.0, kMaxFactor);
    if (!factor) factor = k.real("rope.scale_linear", 0.0, kMaxFactor);  // the key's old name
    if (factor && *factor == 0.0) factor.reset();
    if (factor && *factor < kMinFactor) k.fail(k.name("rope.scaling.factor"), fmt::format("= {} is below {}", shown(*factor), shown(kMinFactor)));
    const auto attn_factor = k.real("rope.scaling.attn_factor", 1e-6, 1e6);
    const auto original = k.count("rope.scaling.original_context_length", 1, kMaxContext);
    const std::string type = type_text.value_or(factor ? "linear" : "none");

    const bool has_longrope = file.tensor("rope_factors_long.weight") || file.tensor("rope_factors_short.weight");
    if (type == "longrope" || has_longrope) {
        s.type = RopeType::LongRope;
        s.long_factor = read_factors(file, "rope_factors_long.weight", pairs, notes);
        s.short_factor = read_factors(file, "rope_factors_short.weight", pairs, notes);
        if (s.long_factor.empty() || s.short_factor.empty()) {
            throw InputError(fmt::format("{}: LongRoPE ({}) needs both tensors rope_factors_long.weight and rope_factors_short.weight; "
                                         "the file has only {}",
                                         k.source(), type_text ? k.name("rope.scaling.type") + " = longrope" : "rope_factors tensors",
                                         s.long_factor.empty() ? (s.short_factor.empty() ? "neither" : "the short one") : "the long one"));
        }
        k.use("rope_factors_long.weight", factors_shown(s.long_factor));
        k.use("rope_factors_short.weight", factors_shown(s.short_factor));
        s.factor = factor;
        s.original_max_position_embeddings = original;
        if (!original) {
            k.assume(k.name("rope.scaling.original_context_length"), fmt::format("{}", context),
                     "llama.cpp's n_ctx_orig_yarn defaults to context_length: the short factors apply up to it");
        }
        // llama.cpp multiplies by attn_factor as written (1 when absent): no LongRoPE formula of its own.
        s.attention_factor = attn_factor.value_or(1.0);
        if (!attn_factor) k.assume(k.name("rope.scaling.attn_factor"), "1", "llama.cpp's default: cos and sin are not scaled");
        notes.push_back("LongRoPE: llama.cpp divides by rope_factors_long beyond original_context_length (n_ctx_orig_yarn), else by "
                        "rope_factors_short");
        return s;
    }
    if (type == "none" || (type == "linear" && !factor)) {
        if (attn_factor && *attn_factor != 1.0) {
            notes.push_back(fmt::format("{} = {} scales cos and sin; ropelab's frequencies are unaffected", k.name("rope.scaling.attn_factor"),
                                        shown(*attn_factor)));
        }
        if (original) k.not_applied("rope.scaling.original_context_length", "no scaling uses it");
        return s;
    }
    if (type == "linear") {
        s.type = RopeType::Linear;
        s.factor = factor;
        return s;
    }
    if (type == "yarn") {
        s.type = RopeType::Yarn;
        s.factor = factor.value_or(1.0);
        if (!factor) k.assume(k.name("rope.scaling.factor"), "1", "llama.cpp's default: factor absent means 1");
        s.original_max_position_embeddings = original;
        if (!original) {
            k.assume(k.name("rope.scaling.original_context_length"), fmt::format("{}", context),
                     "llama.cpp's n_ctx_orig_yarn defaults to context_length");
        }
        s.beta_fast = k.real("rope.scaling.yarn_beta_fast", 0.0, kMaxFactor).value_or(32.0);
        s.beta_slow = k.real("rope.scaling.yarn_beta_slow", 0.0, kMaxFactor).value_or(1.0);
        if (const auto log_mul = k.real("rope.scaling.yarn_log_multiplier", 0.0, 100.0)) {
            // DeepSeek2 (src/models/deepseek2.cpp): the rope's attn_factor is 1/(1 + 0.1 ln s), which
            // cancels ggml's own YaRN mscale; the mscale² of yarn_log_multiplier goes into kq_scale,
            // the logits' scale, as HF's softmax_scale does.
            s.attention_factor = attn_factor.value_or(1.0);
            notes.push_back(fmt::format("yarn_log_multiplier {}: llama.cpp cancels YaRN's cos/sin scale and multiplies the logits by "
                                        "(1 + {}·ln {})² instead (not RoPE; not shown)",
                                        shown(*log_mul), shown(*log_mul), shown(*s.factor)));
        } else {
            // ggml's rope_yarn: mscale = attn_factor · (1 + 0.1 ln(factor)); llama-context folds
            // rope.scaling.attn_factor into the yarn_attn_factor some architectures read (Grok).
            const double yarn_attn = k.real("rope.scaling.yarn_attn_factor", 1e-6, 1e6).value_or(1.0);
            const double multiplier = yarn_attn * attn_factor.value_or(1.0);
            s.attention_factor = multiplier * (*s.factor > 1.0 ? 1.0 + 0.1 * std::log(*s.factor) : 1.0);
            k.derive("attention factor", shown(*s.attention_factor), "ggml's YaRN: attn_factor · (1 + 0.1 ln factor)");
        }
        if (const auto ext = k.file().number(k.name("rope.scaling.yarn_ext_factor")); ext && *ext == 1.0) {
            k.use(k.name("rope.scaling.yarn_ext_factor"), "1");
        }
        k.not_applied("rope.scaling.yarn_ext_factor", "the weight of YaRN's ramp; ropelab applies the full ramp (1, llama.cpp's default)");
        notes.push_back("YaRN as ggml applies it: the correction range rounded outwards (floor / ceil)");
        return s;
    }
    k.fail(k.name("rope.scaling.type"), fmt::format("= \"{}\" is not a scaling llama.cpp knows (none, linear, yarn, longrope)", type));
}

// Which layers slide, attend and rotate (llama-hparams.cpp set_swa_pattern; the graph builders).
std::vector<LayerPlan> plan_layers(Keys& k, const Context& cx, std::int64_t layers, std::int64_t window) {
    if (layers <= 0) return {};
    std::vector<LayerPlan> plan(static_cast<std::size_t>(layers));
    bool any_rule = false;
    const Quirks& q = cx.quirks;

    // Hybrids: a layer with 0 KV heads has no attention (Mamba, convolution or linear layers).
    const auto kv = k.per_layer("attention.head_count_kv", 0, 1 << 16, layers);
    if (kv.size() == plan.size()) {
        for (std::size_t i = 0; i < plan.size(); ++i) plan[i].attends = kv[i] > 0;
        any_rule = std::any_of(kv.begin(), kv.end(), [](std::int64_t v) { return v == 0; });
    }
    const Value* recurrent = k.file().find(k.name("attention.recurrent_layers"));
    if (q.attention_every > 0 && recurrent && recurrent->type == ValueType::Array) {
        const auto flags = k.per_layer("attention.recurrent_layers", 0, 1, layers);
        for (std::size_t i = 0; i < plan.size(); ++i) plan[i].attends = plan[i].attends && flags[i] == 0;
        any_rule = true;
    } else if (q.attention_every > 0) {
        std::int64_t every = q.attention_every;
        if (const auto v = k.count("full_attention_interval", 1, kMaxLayers)) every = *v;
        else k.assume(k.name("full_attention_interval"), fmt::format("{}", every), "llama.cpp's default for this architecture");
        for (std::size_t i = 0; i < plan.size(); ++i) plan[i].attends = plan[i].attends && (static_cast<std::int64_t>(i) + 1) % every == 0;
        any_rule = true;
    }

    // Sliding layers: a per-layer array (Gemma 4, MiMo-V2, Step-3.5), else the pattern N.
    const std::string pattern_key = k.name("attention.sliding_window_pattern");
    const Value* pattern = k.file().find(pattern_key);
    std::int64_t every = 0;
    bool dense_first = q.dense_first;
    if (pattern && pattern->type == ValueType::Array) {
        const auto flags = k.per_layer("attention.sliding_window_pattern", 0, 1, layers);
        for (std::size_t i = 0; i < plan.size(); ++i) plan[i].slides = flags[i] != 0;
        any_rule = true;
    } else if (q.swa_every > 0 && (!q.swa_needs_window || window > 0) && (q.swa_only_with_layers == 0 || layers == q.swa_only_with_layers)) {
        every = q.swa_every;
        if (pattern) every = *k.count("attention.sliding_window_pattern", 1, kMaxLayers);
        else k.assume(pattern_key, fmt::format("{}", every), "llama.cpp's set_swa_pattern for this architecture");
    }
    if (every > 0) {
        for (std::size_t i = 0; i < plan.size(); ++i) {
            const auto il = static_cast<std::int64_t>(i);
            plan[i].slides = dense_first ? il % every != 0 : il % every < every - 1;
        }
        any_rule = true;
    }
    const bool any_slides = std::any_of(plan.begin(), plan.end(), [](const LayerPlan& p) { return p.slides; });
    for (LayerPlan& p : plan) {
        if (!p.attends) p.rope = false;
        if (q.global_nope && any_slides && !p.slides) p.rope = false;
    }
    if (q.nope_every > 0) {
        // llama4.cpp, smollm3.cpp, smallthinker.cpp: use_rope = (il + 1) % n_no_rope_layer_step != 0.
        const bool windowed = q.chunked ? !(k.has("attention.sliding_window") && window == 0) : (!q.swa_needs_window || window > 0);
        const std::int64_t step = q.nope_last_without_window && !windowed ? layers : q.nope_every;
        for (std::size_t i = 0; i < plan.size(); ++i) {
            if ((static_cast<std::int64_t>(i) + 1) % step == 0) plan[i].rope = false;
        }
        if (step == layers) {
            k.derive("n_no_rope_layer_step", fmt::format("{}", layers),
                     "llama.cpp's step without a window is block_count: the last layer applies no RoPE");
        }
        any_rule = true;
    }
    return any_rule ? plan : std::vector<LayerPlan>{};
}

std::string layer_type_of(const LayerPlan& p, const Context& cx, bool chunked) {
    if (!p.attends) return cx.quirks.attention_every > 0 ? "linear_attention" : "recurrent";
    if (chunked && p.rope) return "chunked_attention";
    return p.slides ? "sliding_attention" : "full_attention";
}

void add_layer_notes(LoadedConfig& out, const std::vector<LayerPlan>& plan) {
    out.layer_count = static_cast<int>(plan.size());
    out.layers_without_rope = static_cast<int>(std::count_if(plan.begin(), plan.end(), [](const LayerPlan& p) { return !p.rope; }));
    if (out.layers_without_rope > 0) {
        out.notes.push_back(fmt::format("{} of {} layers apply no RoPE (llama.cpp's graph skips it there)", out.layers_without_rope,
                                        out.layer_count));
    }
}


// M-RoPE sections (load_hparams: get_key_or_arr(dimension_sections, 4)): pairs for t, h, w and a
// fourth that text never uses.
void read_sections(Keys& k, RopeOrder order, const std::string& arch, ModelConfig& c, std::vector<std::string>& notes) {
    const std::string key = k.name("rope.dimension_sections");
    const auto sections = k.per_layer("rope.dimension_sections", 0, kMaxHeadDim, 0);
    if (sections.empty()) k.fail(key, fmt::format("is missing: llama.cpp's {} M-RoPE needs the pairs of t, h and w", arch));
    if (sections.size() > 4) k.fail(key, fmt::format("has {} entries; llama.cpp reads at most 4", sections.size()));
    std::vector<double> s(3, 0.0);
    for (std::size_t i = 0; i < 3 && i < sections.size(); ++i) s[i] = static_cast<double>(sections[i]);
    const int pairs = rotary_dim(c) / 2;
    const double sum = s[0] + s[1] + s[2];
    if (sum != pairs) {
        k.fail(key, fmt::format("= {} gives t, h, w {} pairs; the rotary dim {} has {}", k.file().find(key)->shown(), shown(sum), rotary_dim(c), pairs));
    }
    // ggml's IMROPE turns pair i with h when i % 3 == 1 and i < 3·s_h, with w when i % 3 == 2 and
    // i < 3·s_w: the last h pair, 3·s_h − 2, and the last w pair, 3·s_w − 1, must be pairs (Qwen3.5's
    // 11, 11, 10 of 32 are).
    const bool h_fits = s[1] == 0 || 3 * s[1] - 2 < pairs, w_fits = s[2] == 0 || 3 * s[2] - 1 < pairs;
    if (order == RopeOrder::Imrope && !(h_fits && w_fits)) {
        k.fail(key, fmt::format("= {}: interleaved M-RoPE takes h from pairs 1, 4, … and w from 2, 5, …; {} of {} pairs do not reach",
                                k.file().find(key)->shown(), h_fits ? "w's" : "h's", pairs));
    }
    if (sections.size() == 4 && sections[3] != 0) notes.push_back(fmt::format("{}: the fourth section ({} pairs) is for vision tokens; text uses t, h, w", key, sections[3]));
    c.multi_axis.rule = order == RopeOrder::Imrope ? AxisRule::Interleaved : AxisRule::Sections;
    c.multi_axis.sections = s;
    if (arch == "qwen2vl") c.multi_axis.position_ids = PositionIds::Qwen2VL;
    if (arch == "qwen3vl" || arch == "qwen3vlmoe" || arch == "qwen35" || arch == "qwen35moe") c.multi_axis.position_ids = PositionIds::Qwen3VL;
}

// Every `{arch}.…` key nothing read: RoPE and attention keys as not applied, the rest as not about RoPE.
void list_unread(Keys& k, LoadedConfig& out) {
    const std::string prefix = k.arch() + ".";
    for (const KeyValue& kv : k.file().entries()) {
        if (!kv.key.starts_with(prefix) || k.was_read(kv.key)) continue;
        const std::string_view rest = std::string_view(kv.key).substr(prefix.size());
        if (rest.starts_with("rope.")) {
            std::string why = fmt::format("llama.cpp reads it for {}, and it changes none of the frequencies ropelab shows", k.arch());
            if (rest == "rope.scaling.finetuned") why = "a flag llama.cpp reads and logs; it changes no frequency";
            if (rest == "rope.scaling.alpha") why = "Hunyuan's NTK alpha: the converter already baked it into freq_base";
            if (rest == "rope.dimension_count_swa" || rest == "rope.freq_base_swa") why = "no layer of this file slides";
            out.ignored.push_back({kv.key, why, true});
        } else if (rest.starts_with("attention.")) {
            const bool about_rope = rest.find("sliding") != std::string_view::npos || rest.find("key_length") != std::string_view::npos ||
                                    rest.find("head_count") != std::string_view::npos;
            std::string why = about_rope ? fmt::format("no per-layer rule of llama.cpp's {} that ropelab applies uses it", k.arch())
                                         : std::string("an attention setting outside RoPE");
            if (rest == "attention.sliding_window" && (k.arch() == "phi3" || k.arch() == "phimoe")) {
                why = "llama.cpp disables Phi's sliding window (phi3.cpp: swa_type NONE), so every layer sees every key";
            }
            if (rest == "attention.value_length" || rest == "attention.value_length_swa") why = "the value head's width: RoPE turns queries and keys only";
            if (rest == "attention.head_count") why = "how many heads: key_length gives each head's width, all RoPE needs";
            if (rest == "attention.head_count_kv") why = "how many key heads: every head rotates alike";
            out.ignored.push_back({kv.key, why, about_rope});
        } else {
            out.ignored.push_back({kv.key, "not about RoPE", false});
        }
    }
}

}  // namespace

std::span<const Architecture> architectures() { return kArchitectures; }

const Architecture* find_architecture(std::string_view name) {
    for (const Architecture& a : kArchitectures) {
        if (a.name == name) return &a;
    }
    return nullptr;
}

LoadedConfig rope_of(const File& file, std::string_view layer_type, const GivenRope& given, int layer) {
    LoadedConfig out;
    const auto arch_name = file.string("general.architecture");
    if (!arch_name) throw InputError(fmt::format("{}: general.architecture is missing: the file does not say which model it is", file.source()));
    Context cx;
    cx.arch = find_architecture(*arch_name);
    if (cx.arch && cx.arch->order == RopeOrder::None) {
        throw InputError(fmt::format("{}: general.architecture = \"{}\": architecture {} applies no RoPE ({}) — ropelab shows RoPE only",
                                     file.source(), *arch_name, *arch_name, cx.arch->positions));
    }
    if (!cx.arch && !given.both()) {
        throw UnknownFamilyError(fmt::format("{}: general.architecture = \"{}\" is not in ropelab's table of llama.cpp architectures ({}, "
                                             "see `ropelab families --gguf`); say how its RoPE is laid out with --layout half|interleaved "
                                             "and --partial-rotary-factor F",
                                             file.source(), *arch_name, architectures().size()));
    }
    if (cx.arch) cx.quirks = cx.arch->quirks;
    Keys k(file, *arch_name, out);
    k.use("general.architecture", fmt::format("\"{}\"", *arch_name));
    ModelConfig base;

    // The head and its rotary part.
    base.head_dim = read_head_dim(k, cx, given, layer);
    int n_rot = base.head_dim;
    if (cx.arch) {
        n_rot = read_rotary(k, "rope.dimension_count", base.head_dim, base.head_dim, "llama.cpp's default: the head's key_length");
    } else {
        n_rot = std::clamp(static_cast<int>(std::floor(base.head_dim * *given.partial_rotary_factor + 1e-9)) / 2 * 2, 2, base.head_dim);
        k.use("--partial-rotary-factor", shown(*given.partial_rotary_factor), ReadField::Origin::Flag,
              "the architecture is not in ropelab's table");
        k.not_applied("rope.dimension_count", "--partial-rotary-factor gives the rotary part of an architecture ropelab does not know");
    }
    base.partial_rotary_factor = static_cast<double>(n_rot) / base.head_dim;
    if (cx.quirks.mla) {
        base.rotary_offset = base.head_dim - n_rot;
        out.notes.push_back(fmt::format("MLA heads: the first {} components carry no position, the last {} rotate (q_pe, k_pe)",
                                        base.rotary_offset, n_rot));
    }

    // θ, the context and the scaling.
    if (const auto theta = k.real("rope.freq_base", kMinTheta, kMaxTheta)) {
        base.rope_theta = *theta;
    } else {
        base.rope_theta = 10000.0;
        k.assume(k.name("rope.freq_base"), "10000", "llama.cpp's default when the key is absent (load_hparams: rope_freq_base_train)");
    }
    if (const auto ctx = k.count("context_length", 1, kMaxContext)) {
        base.max_position_embeddings = *ctx;
    } else {
        k.assume(k.name("context_length"), fmt::format("{}", base.max_position_embeddings),
                 "absent (llama.cpp requires it); ropelab's default context");
    }
    base.rope_scaling = read_scaling(k, file, n_rot / 2, base.max_position_embeddings, out.notes);

    // The pair order.
    RopeOrder order = cx.arch ? cx.arch->order : RopeOrder::None;
    if (cx.quirks.mrope_if_sections) {
        const auto sections = k.file().numbers(k.name("rope.dimension_sections"));
        // llama-hparams.cpp use_mrope(): rope_sections[0] > 0 && rope_sections[1] > 0.
        if (sections && sections->size() >= 2 && (*sections)[0] > 0 && (*sections)[1] > 0) order = RopeOrder::Mrope;
    }
    if (!cx.arch) {
        base.layout = *given.layout;
        k.use("--layout", std::string(to_string(base.layout)), ReadField::Origin::Flag, "the architecture is not in ropelab's table");
        out.notes.push_back(fmt::format("general.architecture \"{}\" is not in ropelab's table: read with --layout {} and "
                                        "--partial-rotary-factor {}",
                                        *arch_name, to_string(base.layout), shown(*given.partial_rotary_factor)));
    } else if (order == RopeOrder::Norm) {
        base.layout = PairLayout::Interleaved;
        out.notes.push_back(norm_rows_note(cx.quirks.rows));
    } else {
        base.layout = PairLayout::Half;
    }
    k.derive("pair order", std::string(order_name(order)), fmt::format("llama_model_rope_type for {}", *arch_name));
    if (order == RopeOrder::Mrope || order == RopeOrder::Imrope) read_sections(k, order, *arch_name, base, out.notes);
    if (*arch_name == "hunyuan-moe" || *arch_name == "hunyuan-dense") {
        out.notes.push_back("Hunyuan's NTK alpha is already in freq_base (the converter writes θ·α^(d/(d−2)))");
    }

    // Per-layer rules.
    const std::int64_t layers = k.count("block_count", 1, kMaxLayers).value_or(0);
    std::int64_t window = k.count("attention.sliding_window", 0, kMaxContext).value_or(0);
    if (!k.has("attention.sliding_window") && cx.quirks.default_window > 0 && layers == cx.quirks.swa_only_with_layers) {
        window = cx.quirks.default_window;
        k.assume(k.name("attention.sliding_window"), fmt::format("{}", window), "llama.cpp's value for this model");
    }
    const std::vector<LayerPlan> plan = plan_layers(k, cx, layers, window);
    const bool any_slides = std::any_of(plan.begin(), plan.end(), [](const LayerPlan& p) { return p.attends && p.slides; });
    const bool any_full = plan.empty() || std::any_of(plan.begin(), plan.end(), [](const LayerPlan& p) { return p.attends && !p.slides; });

    // rope_freqs: llama3's divisors (every layer), Gemma 4's proportional RoPE (full layers only).
    ModelConfig full = base;
    const int pairs = n_rot / 2;
    std::vector<double> rope_freqs = read_factors(file, "rope_freqs.weight", pairs, out.notes);
    if (!rope_freqs.empty()) {
        k.use("rope_freqs.weight", factors_shown(rope_freqs), ReadField::Origin::File, "llama.cpp's freq_factors: pair i's frequency / f_i");
        apply_rope_freqs(rope_freqs, full, out.notes);
    }
    ModelConfig slide = cx.quirks.freqs_full_only ? base : full;
    if (any_slides) {
        if (const auto theta = k.real("rope.freq_base_swa", kMinTheta, kMaxTheta)) {
            slide.rope_theta = *theta;
        } else if (cx.quirks.swa_follows_model) {
            k.assume(k.name("rope.freq_base_swa"), shown(base.rope_theta), "llama.cpp gives this architecture's sliding layers the model's freq_base");
        } else {
            slide.rope_theta = 10000.0;
            k.assume(k.name("rope.freq_base_swa"), "10000", "llama.cpp's default for sliding layers (llama-hparams.h: rope_freq_base_train_swa)");
        }
        const RopeType scaling = slide.rope_scaling.type;
        if (!cx.quirks.swa_follows_model && scaling != RopeType::Default && scaling != RopeType::LongRope) {
            // rope_freq_scale_train_swa stays 1: ggml's linear and YaRN scaling do nothing at scale 1.
            slide.rope_scaling = RopeScaling{};
            out.notes.push_back("sliding layers: unscaled (llama.cpp's rope_freq_scale_train_swa is 1 for this architecture)");
        }
        if (k.has("attention.key_length_swa")) slide.head_dim = static_cast<int>(*k.count("attention.key_length_swa", 2, kMaxHeadDim));
        const int n_rot_swa = read_rotary(k, "rope.dimension_count_swa", slide.head_dim, std::min(n_rot, slide.head_dim),
                                          "llama.cpp's default: the full layers' rotary dim");
        slide.partial_rotary_factor = static_cast<double>(n_rot_swa) / slide.head_dim;
        if (slide.rope_scaling.type == RopeType::LongRope && n_rot_swa != n_rot) slide.rope_scaling = RopeScaling{};
        if (cx.quirks.mla) slide.rotary_offset = slide.head_dim - n_rot_swa;
    }
    if (!plan.empty() && window > 0 && !any_slides) k.not_applied("attention.sliding_window", "no layer of this file slides");

    std::vector<Setting> settings;
    if (any_full) settings.push_back({"full_attention", full});
    if (any_slides && (!any_full || !(slide == full))) settings.push_back({"sliding_attention", slide});
    if (settings.empty()) {
        // No layer attends (every head_count_kv 0, fewer layers than full_attention_interval): no layer rotates.
        settings.push_back({"", full});
        out.notes.push_back("no layer of this file attends, so none applies RoPE");
    }
    if (settings.size() == 1) settings.front().name.clear();

    // One rule per layer.
    const bool chunked = cx.quirks.chunked && !(k.has("attention.sliding_window") && window == 0);
    for (std::size_t i = 0; i < plan.size(); ++i) {
        const LayerPlan& p = plan[i];
        LayerRule rule;
        rule.type = layer_type_of(p, cx, chunked);
        const bool sliding_setting = settings.size() > 1 && p.slides;
        const Setting& s = settings.size() > 1 ? settings[sliding_setting ? 1 : 0] : settings.front();
        rule.setting = s.name;
        rule.theta = s.config.rope_theta;
        rule.attention.rope = p.rope;
        if (p.slides) rule.attention.sliding_window = window;
        if (rule.type == "chunked_attention") rule.attention.attention_chunk = 8192;
        if (cx.quirks.chunked && chunked && !p.rope && p.attends) rule.attention.temperature_tuning = true;  // Llama 4's NoPE layers
        out.layers.push_back(rule);
    }
    if (!plan.empty()) add_layer_notes(out, plan);
    if (cx.quirks.chunked && chunked) out.notes.push_back("Llama 4: RoPE layers attend in chunks of 8192 (llama.cpp's n_swa for CHUNKED)");

    // The setting shown.
    const std::string wanted = layer_setting(file.source(), out.layers, layer, layer_type);
    const Setting* chosen = &settings.front();
    if (settings.size() == 1) {
        if (!wanted.empty()) {
            throw InputError(fmt::format("{}: --layer-type {}: this model has one RoPE setting for every layer", file.source(), wanted));
        }
    } else {
        for (const Setting& s : settings) out.layer_types.push_back(s.name);
        const std::string want = wanted.empty() ? "full_attention" : wanted;
        const auto it = std::find_if(settings.begin(), settings.end(), [&](const Setting& s) { return s.name == want; });
        if (it == settings.end()) {
            throw InputError(fmt::format("{}: no layer type \"{}\" (this model has full_attention, sliding_attention)", file.source(), want));
        }
        chosen = &*it;
        out.layer_type = chosen->name;
        const auto sliding = std::count_if(plan.begin(), plan.end(), [](const LayerPlan& p) { return p.attends && p.slides; });
        const auto attending = std::count_if(plan.begin(), plan.end(), [](const LayerPlan& p) { return p.attends; });
        out.notes.push_back(fmt::format("the model's layers use 2 RoPE settings ({} layers: {} full_attention, {} sliding_attention); "
                                        "showing {} (--layer-type or the panel picks another)",
                                        attending, attending - sliding, sliding, chosen->name));
    }
    out.config = chosen->config;
    apply_layer_rule(chosen->name, layer, out);

    try {
        validate(out.config);
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}", file.source(), e.what()));
    }
    list_unread(k, out);
    return out;
}

std::string architectures_table(bool markdown) {
    std::string s;
    if (markdown) {
        s += "| architecture | pair order | what differs | positions |\n|---|---|---|---|\n";
        for (const Architecture& a : kArchitectures) {
            s += fmt::format("| `{}` ({}) | {} | {} | {} |\n", a.name, a.title, order_name(a.order), a.rules.empty() ? "—" : a.rules,
                             a.order == RopeOrder::None ? a.positions : "RoPE");
        }
        return s;
    }
    std::size_t width = 0;
    for (const Architecture& a : kArchitectures) width = std::max(width, a.name.size());
    for (const Architecture& a : kArchitectures) {
        const std::string_view what = a.order == RopeOrder::None ? a.positions : a.rules;
        s += fmt::format("{:<{}}  {:<34}  {}{}\n", a.name, width, a.order == RopeOrder::None ? "no RoPE" : order_name(a.order), a.title,
                         what.empty() ? "" : fmt::format(": {}", what));
    }
    return s;
}

}  // namespace ropelab::gguf
