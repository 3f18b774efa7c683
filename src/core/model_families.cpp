#include "core/model_families.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace ropelab {

namespace {

constexpr PairLayout H = PairLayout::Half;
constexpr PairLayout I = PairLayout::Interleaved;

// The rotary-dim rules, as the config classes and rotary classes of transformers 5 compute them.
constexpr std::string_view kWhole = "head_dim, else hidden_size / num_attention_heads";
constexpr std::string_view kPartial = "head_dim (else hidden_size / num_attention_heads) × partial_rotary_factor";
constexpr std::string_view kHiddenPartial = "hidden_size / num_attention_heads × partial_rotary_factor";
constexpr std::string_view kMla = "qk_rope_head_dim: the last of qk_nope_head_dim + qk_rope_head_dim components";
constexpr std::string_view kSame = "";

// rotate_half / chunk into halves pair component i with i + d/2; view_as_complex,
// rotate_every_two and Cohere's even/odd rotate_half pair adjacent components (2i, 2i+1).
// θ defaults are each config class's (its rope_theta argument or default_theta).
constexpr ModelFamily kFamilies[] = {
    // LlamaConfig's hidden_size and heads: llava-1.5's text_config leaves them out.
    {"llama", "Llama", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000, kSame, "models/llama/modeling_llama.py", "LlamaConfig",
     R"({"hidden_size": 4096, "num_attention_heads": 32})"},
    {"llama4", "Llama4", I, "view_as_complex", kWhole, 1.0, "rope_theta", 500000,
     "no_rope_layers: 1 = RoPE, 0 = no RoPE (left out or []: every 4th layer has none)", "models/llama4/modeling_llama4.py",
     "Llama4TextConfig", "", 4},
    {"mistral", "Mistral", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000, kSame, "models/mistral/modeling_mistral.py",
     "MistralConfig"},
    {"mixtral", "Mixtral", H, "rotate_half", kWhole, 1.0, "rope_theta", 1000000, kSame, "models/mixtral/modeling_mixtral.py",
     "MixtralConfig"},
    {"qwen2", "Qwen2", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000, "layer_types: sliding window only, same RoPE",
     "models/qwen2/modeling_qwen2.py", "Qwen2Config"},
    {"qwen2_moe", "Qwen2Moe", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000, kSame, "models/qwen2_moe/modeling_qwen2_moe.py",
     "Qwen2MoeConfig"},
    {"qwen3", "Qwen3", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000, "layer_types: sliding window only, same RoPE",
     "models/qwen3/modeling_qwen3.py", "Qwen3Config"},
    {"qwen3_moe", "Qwen3Moe", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000, kSame, "models/qwen3_moe/modeling_qwen3_moe.py",
     "Qwen3MoeConfig"},
    {"qwen2_vl", "Qwen2VL", H, "rotate_half", kWhole, 1.0, "rope_theta", 1000000,
     "M-RoPE sections (t, h, w); --layer-type vision: the tower's axial RoPE", "models/qwen2_vl/modeling_qwen2_vl.py", "Qwen2VLTextConfig"},
    {"qwen2_5_vl", "Qwen2_5_VL", H, "rotate_half", kWhole, 1.0, "rope_theta", 1000000,
     "M-RoPE sections (t, h, w); --layer-type vision: the tower's axial RoPE", "models/qwen2_5_vl/modeling_qwen2_5_vl.py", "Qwen2_5_VLTextConfig"},
    {"gemma", "Gemma", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000, kSame, "models/gemma/modeling_gemma.py", "GemmaConfig"},
    {"gemma2", "Gemma2", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000,
     "sliding and full attention alternate, same RoPE", "models/gemma2/modeling_gemma2.py", "Gemma2Config"},
    {"gemma3", "Gemma3", H, "rotate_half", kWhole, 1.0, "rope_theta; rope_local_base_freq", 1000000,
     "sliding_attention: rope_local_base_freq (10000), unscaled; full_attention: rope_theta and rope_scaling",
     "models/gemma3/modeling_gemma3.py", "Gemma3TextConfig",
     R"({"head_dim": 256, "num_attention_heads": 8, "hidden_size": 2304, "rope_theta": 1000000.0,
         "rope_local_base_freq": 10000.0, "max_position_embeddings": 131072, "sliding_window_pattern": 6})"},
    {"phi3", "Phi3", H, "rotate_half", kHiddenPartial, 1.0, "rope_theta", 10000, kSame, "models/phi3/modeling_phi3.py",
     "Phi3Config"},
    {"phi", "Phi", H, "rotate_half", kHiddenPartial, 0.5, "rope_theta", 10000, kSame, "models/phi/modeling_phi.py", "PhiConfig"},
    {"gpt_neox", "GPTNeoX", H, "rotate_half", "hidden_size / num_attention_heads × rotary_pct", 0.25, "rope_theta (v4: rotary_emb_base)",
     10000, kSame, "models/gpt_neox/modeling_gpt_neox.py", "GPTNeoXConfig"},
    {"gpt_oss", "GptOss", H, "chunk into halves", kWhole, 1.0, "rope_theta", 150000,
     "sliding and full attention alternate, same RoPE", "models/gpt_oss/modeling_gpt_oss.py", "GptOssConfig",
     R"({"rope_scaling": {"rope_type": "yarn", "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0, "truncate": false,
                          "original_max_position_embeddings": 4096}})"},
    {"falcon", "Falcon", H, "rotate_half", "hidden_size / num_attention_heads", 1.0, "rope_theta", 10000, kSame,
     "models/falcon/modeling_falcon.py", "FalconConfig"},
    {"olmo", "Olmo", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000, kSame, "models/olmo/modeling_olmo.py", "OlmoConfig"},
    {"olmo2", "Olmo2", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000, kSame, "models/olmo2/modeling_olmo2.py", "Olmo2Config"},
    {"starcoder2", "Starcoder2", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000, kSame,
     "models/starcoder2/modeling_starcoder2.py", "Starcoder2Config"},
    {"stablelm", "StableLm", H, "rotate_half", kHiddenPartial, 0.25, "rope_theta", 10000, kSame,
     "models/stablelm/modeling_stablelm.py", "StableLmConfig"},
    {"deepseek_v2", "DeepseekV2", I, "view_as_complex", kMla, 1.0, "rope_theta", 10000, kSame,
     "models/deepseek_v2/modeling_deepseek_v2.py", "DeepseekV2Config"},
    {"deepseek_v3", "DeepseekV3", I, "rope_interleave (default true)", kMla, 1.0, "rope_theta", 10000, kSame,
     "models/deepseek_v3/modeling_deepseek_v3.py", "DeepseekV3Config"},
    {"gptj", "GPTJ", I, "rotate_every_two", "rotary_dim (else the whole head, n_embd / n_head)", 1.0, "rope_theta", 10000, kSame,
     "models/gptj/modeling_gptj.py", "GPTJConfig"},
    {"cohere", "Cohere", I, "rotate_half on even/odd components", kWhole, 1.0, "rope_theta", 500000, kSame,
     "models/cohere/modeling_cohere.py", "CohereConfig"},
    // Read from each family's configuration_<type>.py and modeling (or modular) file of transformers 5.
    {"cohere2", "Cohere2", I, "rotate_half on even/odd components", "hidden_size / num_attention_heads", 1.0, "rope_theta", 10000,
     "with sliding_window: only sliding_attention layers rotate; full_attention layers have no RoPE (every 4th)",
     "models/cohere2/modeling_cohere2.py", "Cohere2Config", "", 0, true},
    {"exaone4", "Exaone4", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000,
     "with sliding_window: only sliding_attention layers rotate; full_attention layers have no RoPE (sliding_window_pattern)",
     "models/exaone4/modular_exaone4.py", "Exaone4Config", "", 0, true},
    {"smollm3", "SmolLM3", H, "rotate_half", kWhole, 1.0, "rope_theta", 2000000,
     "no_rope_layers: 1 = RoPE, 0 = no RoPE (left out: every 4th layer has none)", "models/smollm3/modeling_smollm3.py",
     "SmolLM3Config", "", 4},
    {"qwen3_next", "Qwen3Next", H, "rotate_half", kPartial, 0.25, "rope_theta", 10000,
     "layer_types: linear_attention layers (Gated DeltaNet) have no RoPE", "models/qwen3_next/modeling_qwen3_next.py",
     "Qwen3NextConfig", R"({"head_dim": 256})"},
    {"lfm2", "Lfm2", H, "rotate_half", kWhole, 1.0, "rope_theta", 1000000, "layer_types: conv layers have no RoPE",
     "models/lfm2/modeling_lfm2.py", "Lfm2Config"},
    {"gemma3n", "Gemma3n", H, "rotate_half", kWhole, 1.0, "rope_theta; rope_local_base_freq", 1000000,
     "sliding_attention: rope_local_base_freq (10000); full_attention: rope_theta", "models/gemma3n/modeling_gemma3n.py",
     "Gemma3nTextConfig", R"({"head_dim": 256})"},
    {"vaultgemma", "VaultGemma", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000, "sliding and full attention alternate, same RoPE",
     "models/vaultgemma/modular_vaultgemma.py", "VaultGemmaConfig", R"({"head_dim": 256})"},
    {"glm", "Glm", I, "rotate_half on even/odd components", kPartial, 0.5, "rope_theta", 10000, kSame, "models/glm/modeling_glm.py",
     "GlmConfig", R"({"head_dim": 128})"},
    {"glm4", "Glm4", I, "rotate_half on even/odd components", kPartial, 0.5, "rope_theta", 10000, kSame,
     "models/glm4/modular_glm4.py", "Glm4Config", R"({"head_dim": 128})"},
    {"glm4_moe", "Glm4Moe", H, "rotate_half", kPartial, 0.5, "rope_theta", 10000, kSame, "models/glm4_moe/modular_glm4_moe.py",
     "Glm4MoeConfig"},
    {"glm4_moe_lite", "Glm4MoeLite", I, "rope_interleave (default true)", kMla, 1.0, "rope_theta", 10000, kSame,
     "models/glm4_moe_lite/modular_glm4_moe_lite.py", "Glm4MoeLiteConfig"},
    {"ernie4_5", "Ernie4_5", I, "rotate_half on even/odd components", kWhole, 1.0, "rope_theta", 500000, kSame,
     "models/ernie4_5/modular_ernie4_5.py", "Ernie4_5Config", R"({"head_dim": 128})"},
    {"ernie4_5_moe", "Ernie4_5_Moe", I, "rotate_half on even/odd components", kWhole, 1.0, "rope_theta", 500000, kSame,
     "models/ernie4_5_moe/modular_ernie4_5_moe.py", "Ernie4_5_MoeConfig"},
    {"helium", "Helium", I, "rotate_half on even/odd components", kWhole, 1.0, "rope_theta", 100000, kSame,
     "models/helium/modular_helium.py", "HeliumConfig", R"({"head_dim": 128})"},
    {"gpt_neox_japanese", "GPTNeoXJapanese", H, "rotate_half", "hidden_size / num_attention_heads × rotary_pct", 1.0,
     "rope_theta (v4: rotary_emb_base)", 10000, kSame, "models/gpt_neox_japanese/modeling_gpt_neox_japanese.py",
     "GPTNeoXJapaneseConfig"},
    {"arcee", "Arcee", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000, kSame, "models/arcee/modular_arcee.py", "ArceeConfig"},
    {"bitnet", "BitNet", H, "rotate_half", kWhole, 1.0, "rope_theta", 500000, kSame, "models/bitnet/modular_bitnet.py", "BitNetConfig"},
    {"chameleon", "Chameleon", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000, kSame, "models/chameleon/modeling_chameleon.py",
     "ChameleonConfig"},
    {"diffllama", "DiffLlama", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000, kSame, "models/diffllama/modular_diffllama.py",
     "DiffLlamaConfig"},
    {"doge", "Doge", H, "rotate_half", "hidden_size / num_attention_heads", 1.0, "rope_theta", 10000, kSame,
     "models/doge/modular_doge.py", "DogeConfig"},
    {"dots1", "Dots1", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000, kSame, "models/dots1/modular_dots1.py", "Dots1Config"},
    {"flex_olmo", "FlexOlmo", H, "rotate_half", kWhole, 1.0, "rope_theta", 500000, kSame, "models/flex_olmo/modular_flex_olmo.py",
     "FlexOlmoConfig"},
    {"granite", "Granite", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000, kSame, "models/granite/modular_granite.py",
     "GraniteConfig"},
    {"glm4v", "Glm4v", I, "rotate_half on even/odd components", kWhole, 1.0, "rope_theta", 10000,
     "M-RoPE sections (t, h, w); position ids as Qwen2-VL's (assumed)", "models/glm4v/modeling_glm4v.py", "Glm4vTextConfig"},
    {"glm4v_moe", "Glm4vMoe", H, "rotate_half", kPartial, 0.5, "rope_theta", 10000,
     "M-RoPE sections (t, h, w); position ids as Qwen2-VL's (assumed)", "models/glm4v_moe/modular_glm4v_moe.py", "Glm4vMoeTextConfig"},
    {"aria", "Aria", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000, kSame, "models/aria/modular_aria.py", "AriaTextConfig"},
    {"bamba", "Bamba", H, "rotate_half", "hidden_size / num_attention_heads × 0.5, set by the class", 0.5, "rope_theta", 10000,
     "only the layers in attn_layer_indices are attention with RoPE; the others are Mamba", "models/bamba/modeling_bamba.py",
     "BambaConfig", "", 0, false, true},
    // Their classes scale by default: a file without rope_scaling gets llama3 scaling.
    {"apertus", "Apertus", H, "rotate_half", "hidden_size / num_attention_heads", 1.0, "rope_theta", 12000000, kSame,
     "models/apertus/modular_apertus.py", "ApertusConfig",
     R"({"rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                          "original_max_position_embeddings": 8192}})"},
    {"cwm", "Cwm", H, "rotate_half", kWhole, 1.0, "rope_theta", 1000000, "sliding and full attention (every 4th), same RoPE",
     "models/cwm/modular_cwm.py", "CwmConfig",
     R"({"head_dim": 128, "rope_scaling": {"rope_type": "llama3", "factor": 16.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                          "original_max_position_embeddings": 8192}})"},
    {"seed_oss", "SeedOss", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000, kSame, "models/seed_oss/modeling_seed_oss.py",
     "SeedOssConfig", R"({"head_dim": 128})"},
    {"persimmon", "Persimmon", H, "rotate_half on the first rotary dims", kHiddenPartial, 0.5, "rope_theta", 25000, kSame,
     "models/persimmon/modeling_persimmon.py", "PersimmonConfig"},
    {"nemotron", "Nemotron", H, "rotate_half on the first rotary dims", kPartial, 0.5, "rope_theta", 10000, kSame,
     "models/nemotron/modeling_nemotron.py", "NemotronConfig"},
    {"olmoe", "Olmoe", H, "rotate_half", kWhole, 1.0, "rope_theta", 10000, kSame, "models/olmoe/modeling_olmoe.py", "OlmoeConfig"},
    {"granitemoe", "GraniteMoe", H, "rotate_half", "hidden_size / num_attention_heads", 1.0, "rope_theta", 10000, kSame,
     "models/granitemoe/modeling_granitemoe.py", "GraniteMoeConfig"},
    // Qwen3-VL interleaves the T/H/W axes over the frequencies (mrope_interleaved); a text token has
    // the same position on all three, so its RoPE is the 1-D one.
    {"qwen3_vl", "Qwen3VL", H, "rotate_half", kWhole, 1.0, "rope_theta", 500000,
     "interleaved M-RoPE (t, h, w); --layer-type vision: the tower's axial RoPE", "models/qwen3_vl/modeling_qwen3_vl.py", "Qwen3VLTextConfig",
     R"({"head_dim": 128})"},
    {"qwen3_vl_moe", "Qwen3VLMoe", H, "rotate_half", kWhole, 1.0, "rope_theta", 500000,
     "interleaved M-RoPE (t, h, w); --layer-type vision: the tower's axial RoPE", "models/qwen3_vl_moe/modeling_qwen3_vl_moe.py",
     "Qwen3VLMoeTextConfig"},
    {"mllama", "Mllama", H, "rotate_half", "hidden_size / num_attention_heads", 1.0, "rope_theta", 500000,
     "cross_attention_layers attend to the image without RoPE; the self-attention layers rotate",
     "models/mllama/modeling_mllama.py", "MllamaTextConfig"},
    {"recurrent_gemma", "RecurrentGemma", H, "rotate_half on the first rotary dims", kHiddenPartial, 0.5, "rope_theta", 10000,
     "block_types repeat over the layers: recurrent blocks have no RoPE, attention blocks rotate",
     "models/recurrent_gemma/modeling_recurrent_gemma.py", "RecurrentGemmaConfig"},
    // JetMoe's heads are kv_channels wide (its attribute_map: head_dim → kv_channels); the class
    // derives num_attention_heads, so hidden_size / heads is not the head dim.
    {"jetmoe", "JetMoe", H, "rotate_half", "kv_channels", 1.0, "rope_theta", 10000, kSame, "models/jetmoe/modeling_jetmoe.py",
     "JetMoeConfig", R"({"kv_channels": 128})", 0, false, false, "kv_channels"},
    {"olmo3", "Olmo3", H, "rotate_half", kWhole, 1.0, "rope_theta", 500000,
     "layer_types (3 sliding, then 1 full): rope_scaling and the file's rope_theta apply to full_attention layers only; sliding layers keep θ 500000", "models/olmo3/modular_olmo3.py",
     "Olmo3Config", "", 0, false, false, "head_dim", true},
    // 2026's models, each read from its configuration_<type>.py and modeling_<type>.py.
    // Gemma 4: full_attention layers are global_head_dim wide and take modeling_rope_utils'
    // proportional RoPE (θ^(−2j/d) over the whole head for the fastest ⌊p·d/2⌋ pairs, 0 for the
    // rest: p-RoPE); sliding layers are head_dim wide with default RoPE. Scaling is 1.0 (q/k norms).
    {"gemma4", "Gemma4", H, "rotate_half", "sliding: head_dim; full_attention: global_head_dim, all of it (proportional)", 1.0,
     "rope_parameters[layer type].rope_theta", 1000000,
     "layer_types (every 6th full, the last always full): sliding_attention θ 10000 over head_dim; full_attention proportional "
     "RoPE over global_head_dim: only the fastest partial_rotary_factor of its pairs rotate (p-RoPE)",
     "models/gemma4/modeling_gemma4.py", "Gemma4TextConfig",
     R"({"head_dim": 256, "global_head_dim": 512, "sliding_window": 512, "max_position_embeddings": 131072,
         "rope_parameters": {"sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
                             "full_attention": {"rope_type": "proportional", "partial_rotary_factor": 0.25, "rope_theta": 1000000.0}}})"},
    // Hunyuan: rope_scaling {"type": "dynamic", "alpha": α} is DynamicNTKAlphaRotary, a fixed base
    // θ·α^(d/(d−2)) over head_dim (HunYuanDenseV1RotaryEmbedding.__init__).
    {"hunyuan_v1_dense", "HunYuanDenseV1", H, "rotate_half", kWhole, 1.0, "rope_theta; with rope_scaling.alpha: θ·α^(d/(d−2))", 10000,
     kSame, "models/hunyuan_v1_dense/modeling_hunyuan_v1_dense.py", "HunYuanDenseV1Config"},
    {"hunyuan_v1_moe", "HunYuanMoEV1", H, "rotate_half", kWhole, 1.0, "rope_theta; with rope_scaling.alpha: θ·α^(d/(d−2))", 10000,
     kSame, "models/hunyuan_v1_moe/modeling_hunyuan_v1_moe.py", "HunYuanMoEV1Config"},
    // Qwen3.5: Qwen3-Next's hybrid layers with Qwen3-VL's interleaved M-RoPE over the rotary quarter
    // (Qwen3_5TextRotaryEmbedding: mrope_section defaults to [11, 11, 10]).
    // ERNIE 4.5-VL: ERNIE 4.5's adjacent pairs, with 3-D positions: h and w alternate over the
    // fastest pairs, t takes the slowest (mrope_section is h, w, t; default 22, 22, 20).
    {"ernie4_5_vl_moe", "Ernie4_5_VL", I, "rotate_half_text: even/odd components", kWhole, 1.0, "rope_theta", 500000,
     "3-D RoPE: the fastest 2·s_h pairs alternate h (even) and w (odd), the slowest s_t turn with t",
     "models/ernie4_5_vl_moe/modeling_ernie4_5_vl_moe.py", "Ernie4_5_VL_MoeTextConfig", R"({"head_dim": 128})"},
    // nanochat: Llama's rotary, but rotate_half is cat(x2, −x1): every pair turns by −mθ.
    {"nanochat", "NanoChat", H, "rotate_half with flipped signs: rotation by −θ", kWhole, 1.0,
     "rope_theta", 10000, kSame, "models/nanochat/modeling_nanochat.py", "NanoChatConfig"},
    // DeepSeek-V3.2: MLA as DeepSeek-V3 (apply_rotary_pos_emb_interleave on the rope part), and a
    // lightning indexer whose first qk_rope_head_dim components rotate with rotate_half.
    {"deepseek_v32", "DeepseekV32", I, "apply_rotary_pos_emb_interleave (MLA)", kMla, 1.0, "rope_theta", 10000,
     "--layer-type indexer: the lightning indexer's rotate_half RoPE on the first qk_rope_head_dim of index_head_dim (128)",
     "models/deepseek_v32/modeling_deepseek_v32.py", "DeepseekV32Config", R"({"index_head_dim": 128})"},
    {"qwen3_5", "Qwen3_5", H, "rotate_half", kPartial, 0.25, "rope_theta", 10000,
     "interleaved M-RoPE (t, h, w) on the rotary dims; layer_types: linear_attention layers have no RoPE; --layer-type vision: "
     "the tower's axial RoPE",
     "models/qwen3_5/modeling_qwen3_5.py", "Qwen3_5TextConfig", R"({"head_dim": 256})"},
    {"qwen3_5_moe", "Qwen3_5Moe", H, "rotate_half", kPartial, 0.25, "rope_theta", 10000,
     "interleaved M-RoPE (t, h, w) on the rotary dims; layer_types: linear_attention layers have no RoPE; --layer-type vision: "
     "the tower's axial RoPE",
     "models/qwen3_5_moe/modeling_qwen3_5_moe.py", "Qwen3_5MoeTextConfig", R"({"head_dim": 256})"},
};

// Model types whose transformers modeling file has no rotary embedding at all: each checked in
// transformers' models/<type>/modeling_<type>.py. (Falcon is a RoPE family unless alibi is true.)
constexpr NoRopeFamily kNoRope[] = {
    {"gpt2", "GPT-2 adds learned absolute position embeddings (wpe) to its inputs", "models/gpt2/modeling_gpt2.py"},
    {"gpt_bigcode", "GPTBigCode adds learned absolute position embeddings (wpe) to its inputs",
     "models/gpt_bigcode/modeling_gpt_bigcode.py"},
    {"gpt_neo", "GPT-Neo adds learned absolute position embeddings (wpe) to its inputs", "models/gpt_neo/modeling_gpt_neo.py"},
    {"opt", "OPT adds learned position embeddings (OPTLearnedPositionalEmbedding) to its inputs", "models/opt/modeling_opt.py"},
    {"bloom", "BLOOM adds ALiBi biases to its attention scores", "models/bloom/modeling_bloom.py"},
    {"mpt", "MPT adds ALiBi biases to its attention scores", "models/mpt/modeling_mpt.py"},
    {"bert", "BERT adds absolute position embeddings to its inputs", "models/bert/modeling_bert.py"},
    {"roberta", "RoBERTa adds absolute position embeddings to its inputs", "models/roberta/modeling_roberta.py"},
    {"distilbert", "DistilBERT adds absolute (learned or sinusoidal) position embeddings to its inputs",
     "models/distilbert/modeling_distilbert.py"},
    {"t5", "T5 adds learned relative position biases (relative_attention_bias) to its attention scores", "models/t5/modeling_t5.py"},
    {"bart", "BART adds learned position embeddings (BartLearnedPositionalEmbedding) to its inputs", "models/bart/modeling_bart.py"},
};

std::string_view base_type(std::string_view type) {
    // Mllama names its text part "mllama_text_model".
    if (type.ends_with("_text_model")) type.remove_suffix(11);
    if (type.ends_with("_text")) type.remove_suffix(5);
    return type;
}

// θ, and the scaling the class applies when the file gives no rope_scaling (Apertus: llama3 ×8).
std::string theta_text(const ModelFamily& f) {
    std::string text = fmt::format("{}", f.theta_default);
    if (f.class_defaults.empty()) return text;
    const nlohmann::json defaults = nlohmann::json::parse(f.class_defaults);
    if (defaults.contains("rope_scaling")) {
        const nlohmann::json& s = defaults["rope_scaling"];
        text += fmt::format(" (no rope_scaling: {} ×{})", s["rope_type"].get<std::string>(), s["factor"].get<double>());
    }
    return text;
}

std::string rotary_text(const ModelFamily& f) {
    if (f.partial_rotary_default == 1.0) return std::string(f.rotary);
    return fmt::format("{} (default {:g})", f.rotary, f.partial_rotary_default);
}

std::string layout_text(const ModelFamily& f) { return fmt::format("{} ({})", to_string(f.layout), f.layout_rule); }

std::string per_layer_text(const ModelFamily& f) { return f.per_layer.empty() ? "every layer the same" : std::string(f.per_layer); }

// Widths in characters, not bytes: the rules hold × and θ.
std::size_t chars(const std::string& text) {
    std::size_t n = 0;
    for (unsigned char c : text) n += (c & 0xC0) != 0x80;
    return n;
}

std::string padded(const std::string& text, std::size_t width) {
    const std::size_t n = chars(text);
    return text + std::string(n < width ? width - n : 0, ' ');
}

}  // namespace

std::span<const ModelFamily> model_families() { return kFamilies; }

std::span<const NoRopeFamily> no_rope_families() { return kNoRope; }

const NoRopeFamily* find_no_rope_family(std::string_view model_type) {
    for (const NoRopeFamily& f : kNoRope) {
        if (f.model_type == model_type) return &f;
    }
    return nullptr;
}

const ModelFamily* find_family(std::string_view model_type) {
    const std::string_view type = base_type(model_type);
    for (const ModelFamily& f : kFamilies) {
        if (f.model_type == type) return &f;
    }
    return nullptr;
}

const ModelFamily* family_of_architecture(std::string_view architecture) {
    const ModelFamily* best = nullptr;
    for (const ModelFamily& f : kFamilies) {
        if (architecture.starts_with(f.arch_prefix) && (!best || f.arch_prefix.size() > best->arch_prefix.size())) best = &f;
    }
    return best;
}

std::string families_table(bool markdown) {
    std::string s;
    if (markdown) {
        s += "| model_type | layout | rotary dim | θ (default) | per layer | transformers file |\n";
        s += "|---|---|---|---|---|---|\n";
        for (const ModelFamily& f : kFamilies) {
            s += fmt::format("| `{}` | {} | {} | {} = {} | {} | `{}` |\n", f.model_type, layout_text(f), rotary_text(f), f.theta_keys,
                             theta_text(f), per_layer_text(f), f.source);
        }
        return s;
    }
    std::vector<std::vector<std::string>> rows = {{"model_type", "layout", "θ default", "rotary dim", "per layer", "source"}};
    for (const ModelFamily& f : kFamilies) {
        rows.push_back({std::string(f.model_type), layout_text(f), theta_text(f), rotary_text(f), per_layer_text(f),
                        std::string(f.source)});
    }
    // Each column as wide as its longest cell, two spaces between; the last one unpadded.
    std::vector<std::size_t> width(rows.front().size(), 0);
    for (const auto& r : rows) {
        for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], chars(r[c]));
    }
    for (const auto& r : rows) {
        std::string line;
        for (std::size_t c = 0; c + 1 < r.size(); ++c) line += padded(r[c], width[c]) + "  ";
        s += line + r.back() + "\n";
    }
    return s;
}

}  // namespace ropelab
