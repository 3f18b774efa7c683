#pragma once
// The RoPE a GGUF file makes llama.cpp apply, per architecture (llama.cpp's src/llama-arch.cpp
// for the key names, src/llama-model.cpp for how load_hparams reads them and llama_model_rope_type
// for the pair order): θ (`{arch}.rope.freq_base`, default 10000), the rotary dim
// (`.rope.dimension_count`, default the head's key_length), the scaling keys, the per-layer rules
// (sliding-window layers and their own base and rotary dim, per-layer head counts), the tensors
// that carry frequencies (rope_freqs, rope_factors_long/short), and the multi-axis sections.
// The result is the LoadedConfig the config.json reader gives, with every field used, assumed or
// ignored recorded, so the lab, `freqs --explain` and the panel treat both alike.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/config_json.h"
#include "models/gguf.h"

namespace ropelab::gguf {

// How llama.cpp pairs the components of a head (llama_model_rope_type).
//   Norm    consecutive pairs (2i, 2i+1) — the converter permutes HF's q/k rows so that these are
//           HF's rotate_half pairs (i, i + n_rot/2), the same frequency
//   Neox    halves (i, i + n_rot/2), rows as in the HF checkpoint
//   Mrope   halves with sections of t, h, w (Qwen2-VL); Imrope interleaved sections (Qwen3-VL)
//   None    no RoPE: the architecture is refused
enum class RopeOrder { None, Norm, Neox, Mrope, Imrope, Vision };

// Where the q/k rows of a NORM architecture come from (convert_hf_to_gguf.py).
//   Permuted  the converter permuted HF's rotate_half rows (LlamaModel.permute) into consecutive pairs
//   Native    the checkpoint already pairs consecutive components (its modeling code rotates
//             interleaved pairs: Llama 4, Cohere, DeepSeek-V2/V3, GLM, ERNIE 4.5); the rows are the checkpoint's
//   Unknown   not checked
enum class NormRows { Unknown, Permuted, Native };

// The rules llama.cpp's load_hparams and graph builders hard-code for an architecture
// (src/llama-model.cpp, src/models/*.cpp); a file's own keys override the defaults.
struct Quirks {
    NormRows rows = NormRows::Unknown;
    // set_swa_pattern(N) when the file has no sliding_window_pattern: layer il slides unless
    // il % N == N − 1 (every Nth layer global); `dense_first`: unless il % N == 0.
    int swa_every = 0;
    bool dense_first = false;
    bool swa_needs_window = false;  // only with {arch}.attention.sliding_window > 0 (Gemma 3)
    int swa_only_with_layers = 0;   // only for a model of this many layers (EXAONE 4: the 32B's 64)
    std::int64_t default_window = 0;  // the window when the file has no sliding_window (EXAONE 4: 4096)
    // SWA layers take the full layers' base and scaling; otherwise llama-hparams.h's defaults
    // (rope_freq_base_train_swa 10000, rope_freq_scale_train_swa 1) unless freq_base_swa is set.
    bool swa_follows_model = false;
    bool global_nope = false;       // layers that do not slide apply no RoPE (Cohere2, EXAONE 4)
    int nope_every = 0;             // layers with (il + 1) % N == 0 apply no RoPE (Llama 4, SmolLM3)
    // Without its window (Llama 4: sliding_window 0; SmallThinker: none) llama.cpp sets
    // n_no_rope_layer_step to block_count: only the last layer applies no RoPE.
    bool nope_last_without_window = false;
    bool chunked = false;           // Llama 4: the RoPE layers attend in chunks of 8192
    // Hybrids: attention.recurrent_layers (one bool per layer), else only (il + 1) % N == 0 attends,
    // N = full_attention_interval, the rest is linear attention (Qwen3-Next, Qwen3.5).
    int attention_every = 0;
    bool mla = false;               // DeepSeek's [nope | rope] heads: the rotary part is the head's last n_rot
    bool mrope_if_sections = false; // GLM-4(V): M-RoPE when dimension_sections is set (hparams.use_mrope)
    bool freqs_full_only = false;   // rope_freqs applies to the layers that do not slide (Gemma 4)
};

struct Architecture {
    std::string_view name;     // general.architecture: "llama"
    RopeOrder order;
    std::string_view title;    // "Llama", shown in the README's table
    std::string_view rules;    // what differs from plain RoPE: "rope_freqs tensor: llama3 divisors"
    std::string_view positions = "";  // for None: what the model uses instead
    Quirks quirks = {};
};
std::span<const Architecture> architectures();
const Architecture* find_architecture(std::string_view name);

// The file's RoPE as llama.cpp applies it. `layer_type` / `layer` pick a setting and a layer as
// for config.json ("sliding_attention" for the SWA layers). Throws InputError naming the file,
// the key and the value; an architecture without RoPE is refused saying what it uses instead; one
// not in the table gets the --layout / --partial-rotary-factor hint (UnknownFamilyError) unless
// `given` has both.
LoadedConfig rope_of(const File& file, std::string_view layer_type = "", const GivenRope& given = {}, int layer = -1);

// `ropelab families --gguf` and the README's table of GGUF architectures.
std::string architectures_table(bool markdown);

}  // namespace ropelab::gguf
