#pragma once
// The RoPE a GGUF file makes llama.cpp apply, per architecture (llama.cpp's src/llama-arch.cpp
// for the key names, src/llama-model.cpp for how load_hparams reads them and llama_model_rope_type
// for the pair order): θ (`{arch}.rope.freq_base`, default 10000), the rotary dim
// (`.rope.dimension_count`, default the head's key_length), the scaling keys, the per-layer rules
// (sliding-window layers and their own base and rotary dim, per-layer head counts), the tensors
// that carry frequencies (rope_freqs, rope_factors_long/short), and the multi-axis sections.
// The result is the LoadedConfig the config.json reader gives, with every field used, assumed or
// ignored recorded, so the lab, `freqs --explain` and the panel treat both alike.
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

struct Architecture {
    std::string_view name;     // general.architecture: "llama"
    RopeOrder order;
    std::string_view title;    // "Llama", shown in the README's table
    std::string_view rules;    // what differs from plain RoPE: "rope_freqs tensor: llama3 divisors"
    std::string_view positions = "";  // for None: what the model uses instead
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
