// Red team, round 4, pure tier: config.json fields checked as transformers' own validation checks
// them (configuration_utils.py's layer_type_validation and ALLOWED_LAYER_TYPES, each config class),
// and what the reader says it applied. Every hostile row starts from a published config of the
// corpus (tests/data/configs) or a config shaped exactly like a published one, changes the fields
// named, and expects the refusal's words (file, field, value) or, with "", acceptance. The rows are
// listed by category in docs/redteam.md.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "core/config_json.h"
#include "core/error.h"
#include "core/frequencies.h"
#include "core/json_input.h"
#include "core/model_families.h"
#include "support/files.h"
#include "support/refusal.h"

namespace ropelab {
namespace {

using ropelab::test::corpus;

// Configs shaped as the published config.json files of models the corpus lacks.
const char* kGpt2 = R"({"activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"], "attn_pdrop": 0.1,
    "bos_token_id": 50256, "embd_pdrop": 0.1, "eos_token_id": 50256, "initializer_range": 0.02, "layer_norm_epsilon": 1e-05,
    "model_type": "gpt2", "n_ctx": 1024, "n_embd": 768, "n_head": 12, "n_layer": 12, "n_positions": 1024, "resid_pdrop": 0.1,
    "summary_activation": null, "summary_first_dropout": 0.1, "summary_proj_to_labels": true, "summary_type": "cls_index",
    "summary_use_proj": true, "task_specific_params": {"text-generation": {"do_sample": true, "max_length": 50}}, "vocab_size": 50257})";
const char* kBloom = R"({"apply_residual_connection_post_layernorm": false, "architectures": ["BloomForCausalLM"],
    "attention_dropout": 0.0, "bos_token_id": 1, "eos_token_id": 2, "hidden_dropout": 0.0, "hidden_size": 1024,
    "initializer_range": 0.02, "layer_norm_epsilon": 1e-05, "model_type": "bloom", "n_head": 16, "n_layer": 24,
    "pad_token_id": 3, "pretraining_tp": 1, "slow_but_exact": false, "transformers_version": "4.21.0", "use_cache": true,
    "vocab_size": 250880})";
const char* kMpt = R"({"architectures": ["MPTForCausalLM"], "attn_config": {"alibi": true, "alibi_bias_max": 8,
    "attn_impl": "torch", "attn_pdrop": 0, "attn_type": "multihead_attention", "clip_qkv": null, "prefix_lm": false,
    "qk_ln": false, "softmax_scale": null}, "d_model": 4096, "emb_pdrop": 0, "expansion_ratio": 4, "max_seq_len": 2048,
    "model_type": "mpt", "n_heads": 32, "n_layers": 32, "no_bias": true, "vocab_size": 50432})";
const char* kBert = R"({"architectures": ["BertForMaskedLM"], "attention_probs_dropout_prob": 0.1, "gradient_checkpointing": false,
    "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "hidden_size": 768, "initializer_range": 0.02, "intermediate_size": 3072,
    "layer_norm_eps": 1e-12, "max_position_embeddings": 512, "model_type": "bert", "num_attention_heads": 12,
    "num_hidden_layers": 12, "pad_token_id": 0, "position_embedding_type": "absolute", "transformers_version": "4.6.0.dev0",
    "type_vocab_size": 2, "use_cache": true, "vocab_size": 30522})";
const char* kRoberta = R"({"architectures": ["RobertaForMaskedLM"], "attention_probs_dropout_prob": 0.1, "bos_token_id": 0,
    "eos_token_id": 2, "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "hidden_size": 768, "initializer_range": 0.02,
    "intermediate_size": 3072, "layer_norm_eps": 1e-05, "max_position_embeddings": 514, "model_type": "roberta",
    "num_attention_heads": 12, "num_hidden_layers": 12, "pad_token_id": 1, "type_vocab_size": 1, "vocab_size": 50265})";
const char* kT5 = R"({"architectures": ["T5ForConditionalGeneration"], "d_ff": 2048, "d_kv": 64, "d_model": 512,
    "decoder_start_token_id": 0, "dropout_rate": 0.1, "eos_token_id": 1, "initializer_factor": 1.0, "is_encoder_decoder": true,
    "layer_norm_epsilon": 1e-06, "model_type": "t5", "n_positions": 512, "num_heads": 8, "num_layers": 6, "output_past": true,
    "pad_token_id": 0, "relative_attention_num_buckets": 32, "vocab_size": 32128})";
const char* kOpt = R"({"_name_or_path": "facebook/opt-125m", "activation_dropout": 0.0, "activation_function": "relu",
    "architectures": ["OPTForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 2, "do_layer_norm_before": true,
    "dropout": 0.1, "eos_token_id": 2, "ffn_dim": 3072, "hidden_size": 768, "init_std": 0.02, "layerdrop": 0.0,
    "max_position_embeddings": 2048, "model_type": "opt", "num_attention_heads": 12, "num_hidden_layers": 12,
    "pad_token_id": 1, "prefix": "</s>", "torch_dtype": "float16", "transformers_version": "4.21.0.dev0", "use_cache": true,
    "vocab_size": 50272, "word_embed_proj_dim": 768})";
const char* kGptBigCode = R"({"activation_function": "gelu_pytorch_tanh", "architectures": ["GPTBigCodeForCausalLM"],
    "attention_softmax_in_fp32": true, "attn_pdrop": 0.1, "bos_token_id": 0, "embd_pdrop": 0.1, "eos_token_id": 0,
    "model_type": "gpt_bigcode", "multi_query": true, "n_embd": 6144, "n_head": 48, "n_inner": 24576, "n_layer": 40,
    "n_positions": 8192, "scale_attn_weights": true, "vocab_size": 49152})";
const char* kGptNeo = R"({"activation_function": "gelu_new", "architectures": ["GPTNeoForCausalLM"], "attention_dropout": 0,
    "attention_layers": ["global", "local", "global", "local"], "attention_types": [[["global", "local"], 2]],
    "bos_token_id": 50256, "embed_dropout": 0, "eos_token_id": 50256, "hidden_size": 768, "max_position_embeddings": 2048,
    "model_type": "gpt_neo", "num_heads": 12, "num_layers": 4, "vocab_size": 50257, "window_size": 256})";
const char* kDistilbert = R"({"activation": "gelu", "architectures": ["DistilBertForMaskedLM"], "attention_dropout": 0.1,
    "dim": 768, "dropout": 0.1, "hidden_dim": 3072, "initializer_range": 0.02, "max_position_embeddings": 512,
    "model_type": "distilbert", "n_heads": 12, "n_layers": 6, "pad_token_id": 0, "sinusoidal_pos_embds": false,
    "vocab_size": 30522})";
const char* kBart = R"({"activation_function": "gelu", "architectures": ["BartModel"], "attention_dropout": 0.0, "d_model": 768,
    "decoder_attention_heads": 12, "decoder_layers": 6, "encoder_attention_heads": 12, "encoder_layers": 6,
    "max_position_embeddings": 1024, "model_type": "bart", "vocab_size": 50265})";
// Qwen (v1): remote code, its RoPE in modeling_qwen.py.
const char* kQwen1 = R"({"architectures": ["QWenLMHeadModel"], "auto_map": {"AutoConfig": "configuration_qwen.QWenConfig",
    "AutoModelForCausalLM": "modeling_qwen.QWenLMHeadModel"}, "attn_dropout_prob": 0.0, "bf16": false, "emb_dropout_prob": 0.0,
    "fp16": false, "fp32": false, "hidden_size": 4096, "initializer_range": 0.02, "intermediate_size": 22016,
    "kv_channels": 128, "layer_norm_epsilon": 1e-06, "max_position_embeddings": 8192, "model_type": "qwen", "no_bias": true,
    "num_attention_heads": 32, "num_hidden_layers": 32, "onnx_safe": null, "rotary_emb_base": 10000, "rotary_pct": 1.0,
    "scale_attn_weights": true, "seq_length": 8192, "tie_word_embeddings": false, "tokenizer_class": "QWenTokenizer",
    "transformers_version": "4.32.0", "use_cache": true, "use_dynamic_ntk": true, "use_flash_attn": "auto",
    "use_logn_attn": true, "vocab_size": 151936})";
// microsoft/phi-1_5 before transformers had Phi: remote code, model_type phi-msft.
const char* kPhiMsft = R"({"_name_or_path": "microsoft/phi-1_5", "activation_function": "gelu_new",
    "architectures": ["PhiForCausalLM"], "attn_pdrop": 0.0, "auto_map": {"AutoConfig": "configuration_phi.PhiConfig",
    "AutoModelForCausalLM": "modeling_phi.PhiForCausalLM"}, "embd_pdrop": 0.0, "flash_attn": false, "flash_rotary": false,
    "fused_dense": false, "img_processor": null, "initializer_range": 0.02, "layer_norm_epsilon": 1e-05,
    "model_type": "phi-msft", "n_embd": 2048, "n_head": 32, "n_head_kv": null, "n_inner": null, "n_layer": 24,
    "n_positions": 2048, "resid_pdrop": 0.0, "rotary_dim": 32, "tie_word_embeddings": false, "torch_dtype": "float16",
    "transformers_version": "4.34.1", "vocab_size": 51200})";
// llava-hf/llava-1.5-7b-hf: its text_config gives no hidden_size or heads (LlamaConfig's defaults).
const char* kLlava15 = R"({"architectures": ["LlavaForConditionalGeneration"], "ignore_index": -100,
    "image_token_index": 32000, "model_type": "llava", "pad_token_id": 32001, "projector_hidden_act": "gelu",
    "text_config": {"_name_or_path": "lmsys/vicuna-7b-v1.5", "architectures": ["LlamaForCausalLM"],
    "max_position_embeddings": 4096, "model_type": "llama", "rms_norm_eps": 1e-05, "torch_dtype": "float16",
    "vocab_size": 32064}, "tie_word_embeddings": false, "torch_dtype": "float16", "transformers_version": "4.36.0.dev0",
    "vision_config": {"hidden_size": 1024, "image_size": 336, "intermediate_size": 4096, "model_type": "clip_vision_model",
    "num_attention_heads": 16, "num_hidden_layers": 24, "patch_size": 14, "projection_dim": 768, "vocab_size": 32000},
    "vision_feature_layer": -2, "vision_feature_select_strategy": "default", "vocab_size": 32064})";
// assets/presets/textbook.json's shape: ropelab's own file.
const char* kPreset = R"({"_ropelab": {"name": "p", "title": "P", "source": "test", "layout": "interleaved"},
    "head_dim": 128, "rope_theta": 10000, "max_position_embeddings": 4096})";
const char* kMystery = R"({"model_type": "mystery", "hidden_size": 2048, "num_attention_heads": 16, "rope_theta": 10000})";

// The config a row starts from: a corpus file by name, or JSON text (starting with '{').
Json base_of(const std::string& base) {
    if (base.starts_with("{")) return Json::parse(base);
    std::ifstream in(corpus(base));
    return Json::parse(in);
}

// "n×ITEM": a list of n copies of ITEM (a JSON value), for the long layer lists.
Json value_of(const std::string& text) {
    const auto times = text.find("×");
    if (times != std::string::npos && text.find_first_not_of("0123456789") == times) {
        const std::size_t n = std::stoul(text.substr(0, times));
        return Json(std::vector<Json>(n, Json::parse(text.substr(times + std::string("×").size()))));
    }
    return Json::parse(text);
}

struct Row {
    const char* category;
    std::string base;
    // JSON pointer → new value (JSON text; "n×V" a list of n copies of V; "DELETE" removes the key).
    std::vector<std::pair<std::string, std::string>> set;
    std::string expected;  // the refusal's start, after "c.json: "; "" = accepted
    GivenRope given = {};
};

std::string text_of(const Row& row) {
    Json j = base_of(row.base);
    for (const auto& [pointer, value] : row.set) {
        const Json::json_pointer p(pointer);
        if (value == "DELETE") {
            j[p.parent_pointer()].erase(p.back());
        } else {
            j[p] = value_of(value);
        }
    }
    return j.dump();
}

const GivenRope kFlags{PairLayout::Half, 1.0, 64};

const std::vector<Row>& rows() {
    static const std::vector<Row> all = {
        // Gemma 3's per-layer-type rope_parameters (transformers 5): one bad entry is refused, never the
        // whole dict dropped (which gave the sliding layers θ 10^6 instead of 10^4).
        {"rope-parameters", "gemma-3-4b-it-v5", {{"/text_config/rope_parameters/sliding_attention", "10000.0"}},
         "text_config.rope_parameters.sliding_attention = 10000.0 must be an object: rope_parameters is keyed by layer type"},
        {"rope-parameters", "gemma-3-4b-it-v5", {{"/text_config/rope_parameters/sliding_attention", "null"}},
         "text_config.rope_parameters.sliding_attention = null must be an object"},
        {"rope-parameters", "gemma-3-4b-it-v5", {{"/text_config/rope_parameters/sliding_attention", "\"default\""}},
         "text_config.rope_parameters.sliding_attention = \"default\" must be an object"},
        {"rope-parameters", "gemma-3-4b-it-v5", {{"/text_config/rope_parameters/sliding_attention", "[]"}},
         "text_config.rope_parameters.sliding_attention = [] must be an object"},
        {"rope-parameters", "gemma-3-4b-it-v5", {{"/text_config/rope_parameters/full_attention", "true"}},
         "text_config.rope_parameters.full_attention = true must be an object"},
        {"rope-parameters", "gemma-3-4b-it-v5", {{"/text_config/rope_parameters/rope_theta", "10000"}},
         "text_config.rope_parameters.rope_theta = 10000 must be an object"},
        {"rope-parameters", "gemma-3-4b-it-v5", {{"/text_config/rope_parameters/sliding_attentio", "{\"rope_theta\": 10000}"}},
         "text_config.rope_parameters.sliding_attentio names no layer type transformers knows (one of full_attention, "
         "sliding_attention, chunked_attention"},
        {"rope-parameters", "gemma-3-4b-it-v5", {{"/text_config/rope_parameters/global", "{\"rope_theta\": 1e6}"}},
         "text_config.rope_parameters.global names no layer type transformers knows"},
        {"rope-parameters", "gemma-3-4b-it-v5", {{"/text_config/rope_parameters/sliding_attention/rope_theta", "null"}},
         "text_config.rope_parameters.sliding_attention.rope_theta = null: transformers takes the null as the base"},
        {"rope-parameters", "gemma-3-4b-it-v5", {{"/text_config/rope_parameters/full_attention/factor", "null"}},
         "text_config.rope_parameters.full_attention.factor = null: transformers takes the null as the value"},
        {"rope-parameters", "gemma-3-4b-it-v5", {{"/text_config/rope_parameters/full_attention/rope_type", "null"}},
         "text_config.rope_parameters.full_attention.rope_type = null: transformers takes the null as the value"},
        {"rope-parameters", "gemma-3-4b-it-v5", {{"/text_config/rope_parameters/sliding_attention/rope_theta", "\"1e4\""}},
         "text_config.rope_parameters.sliding_attention.rope_theta must be a number (got \"1e4\")"},

        // null for a RoPE field is refused as rope_theta: null is (transformers keeps the null; the
        // class default fills in only a missing key).
        {"null", "gemma-3-1b-it", {{"/rope_local_base_freq", "null"}},
         "rope_local_base_freq = null: transformers takes the null as the value, not the config class's default"},
        {"null", "gemma-3-4b-it", {{"/text_config/rope_local_base_freq", "null"}},
         "text_config.rope_local_base_freq = null: transformers takes the null as the value"},
        {"null", "gemma-3-1b-it", {{"/sliding_window_pattern", "null"}}, "sliding_window_pattern = null: transformers takes the null"},
        {"null", "phi-2", {{"/partial_rotary_factor", "null"}}, "partial_rotary_factor = null: transformers takes the null"},
        {"null", "gpt-neox-20b", {{"/rotary_pct", "null"}}, "rotary_pct = null: transformers takes the null"},
        {"null", "gpt-neox-20b", {{"/rotary_emb_base", "null"}}, "rotary_emb_base = null: transformers takes the null"},
        {"null", "llama-3.1-8b", {{"/rope_scaling/factor", "null"}}, "rope_scaling.factor = null: transformers takes the null"},
        {"null", "llama-3.1-8b", {{"/rope_scaling/rope_type", "null"}}, "rope_scaling.rope_type = null: transformers takes the null"},
        {"null", "llama-3.1-8b", {{"/rope_scaling/low_freq_factor", "null"}},
         "rope_scaling.low_freq_factor = null: transformers takes the null"},
        {"null", "llama-3.1-8b", {{"/rope_scaling/original_max_position_embeddings", "null"}},
         "rope_scaling.original_max_position_embeddings = null: transformers takes the null"},
        {"null", "qwen2.5-7b-instruct-yarn", {{"/rope_scaling/type", "null"}}, "rope_scaling.type = null: transformers takes the null"},
        {"null", "llama-3.1-8b", {{"/max_position_embeddings", "null"}}, "max_position_embeddings = null: transformers takes the null"},
        {"null", "deepseek-v3", {{"/rope_interleave", "null"}}, "rope_interleave = null: transformers takes the null"},
        {"null", "deepseek-v3", {{"/qk_rope_head_dim", "null"}}, "qk_rope_head_dim = null: transformers takes the null"},
        {"null", "phi-3-mini-128k-instruct", {{"/rope_scaling/long_factor", "null"}},
         "rope_scaling.long_factor = null: transformers takes the null"},
        {"null", "qwen2-vl-7b-instruct", {{"/rope_scaling/mrope_section", "null"}},
         "rope_scaling.mrope_section = null: transformers takes the null"},
        {"null", "gpt-oss-20b", {{"/rope_scaling/truncate", "null"}}, "rope_scaling.truncate = null: transformers takes the null"},
        // …and where transformers itself reads null as "left out", so does ropelab.
        {"null", "qwen2.5-7b-instruct-yarn", {{"/rope_scaling/attention_factor", "null"}}, ""},
        {"null", "llama-3.1-8b", {{"/head_dim", "null"}}, ""},
        {"null", "qwen2-7b", {{"/sliding_window", "null"}}, ""},

        // layer_types and no_rope_layers: one entry per layer (num_hidden_layers), known layer types only.
        {"layer-lists", "gemma-3-4b-it-v5", {{"/text_config/layer_types", "33×\"sliding_attention\""}},
         "text_config.layer_types has 33 entries but num_hidden_layers = 34: transformers requires one per layer"},
        {"layer-lists", "gemma-3-4b-it-v5", {{"/text_config/layer_types", "35×\"sliding_attention\""}},
         "text_config.layer_types has 35 entries but num_hidden_layers = 34"},
        {"layer-lists", "gemma-3-4b-it-v5", {{"/text_config/layer_types/5", "\"chunked_attention\""}},
         "text_config.layer_types[5] = \"chunked_attention\" has no RoPE parameters: the model's settings are for full_attention, "
         "sliding_attention only"},
        {"layer-lists", "gemma-3-1b-it", {{"/layer_types", "26×\"chunked_attention\""}},
         "layer_types[0] = \"chunked_attention\" has no RoPE parameters: the model's settings are for full_attention, sliding_attention only"},
        {"layer-lists", "gemma-3-4b-it-v5", {{"/text_config/layer_types", "[]"}}, "text_config.layer_types has 0 entries but num_hidden_layers = 34"},
        {"layer-lists", "gpt-oss-20b", {{"/num_hidden_layers", "100000"}, {"/layer_types", "100001×\"full_attention\""}},
         "layer_types has 100001 entries, over the 100000 layers a config may have"},
        {"layer-lists", "gpt-oss-20b", {{"/num_hidden_layers", "100000"}, {"/layer_types", "100000×\"full_attention\""}}, ""},
        {"layer-lists", "gpt-oss-20b", {{"/num_hidden_layers", "100001"}},
         "num_hidden_layers = 100001 is not a whole number of layers in 1 .. 100000"},
        {"layer-lists", "gpt-oss-20b", {{"/layer_types/3", "\"sliding_window\""}},
         "layer_types[3] = \"sliding_window\" is not a layer type transformers knows (one of full_attention, sliding_attention,"},
        {"layer-lists", "gpt-oss-20b", {{"/layer_types/0", "\"Full_Attention\""}}, "layer_types[0] = \"Full_Attention\" is not a layer type"},
        {"layer-lists", "gpt-oss-20b", {{"/layer_types/23", "\"\""}}, "layer_types[23] = \"\" is not a layer type"},
        {"layer-lists", "gpt-oss-20b", {{"/layer_types/1", "\"full_attention \""}}, "layer_types[1] = \"full_attention \" is not a layer type"},
        {"layer-lists", "qwen3-coder-next", {{"/layer_types/0", "\"mamba\""}}, "layer_types[0] = \"mamba\" is not a layer type"},
        {"layer-lists", "qwen3-coder-next", {{"/layer_types/0", "\"global\""}}, "layer_types[0] = \"global\" is not a layer type"},
        {"layer-lists", "llama-4-scout-17b-16e", {{"/text_config/no_rope_layers", "47×1"}},
         "text_config.no_rope_layers has 47 entries but num_hidden_layers = 48"},
        {"layer-lists", "llama-4-scout-17b-16e", {{"/text_config/no_rope_layers", "49×1"}},
         "text_config.no_rope_layers has 49 entries but num_hidden_layers = 48"},
        {"layer-lists", "smollm3-3b", {{"/no_rope_layers", "35×1"}}, "no_rope_layers has 35 entries but num_hidden_layers = 36"},
        {"layer-lists", "smollm3-3b", {{"/no_rope_layers", "100001×1"}}, "no_rope_layers has 100001 entries, over the 100000 layers"},
        {"layer-lists", "gemma-3-1b-it", {{"/num_hidden_layers", "\"26\""}},
         "num_hidden_layers = \"26\" is not a whole number of layers in 1 .. 100000"},
        {"layer-lists", "gemma-3-1b-it", {{"/num_hidden_layers", "26.0"}}, "num_hidden_layers = 26.0 is not a whole number of layers"},
        {"layer-lists", "gemma-3-1b-it", {{"/num_hidden_layers", "0"}}, "num_hidden_layers = 0 is not a whole number of layers"},
        {"layer-lists", "gemma-3-1b-it", {{"/num_hidden_layers", "-1"}}, "num_hidden_layers = -1 is not a whole number of layers"},
        {"layer-lists", "gemma-3-1b-it", {{"/num_hidden_layers", "true"}}, "num_hidden_layers = true is not a whole number of layers"},

        // sliding_window_pattern: a positive whole number (or EXAONE 4's L/G string), never dropped silently.
        {"window-pattern", "gemma-3-1b-it", {{"/sliding_window_pattern", "0"}},
         "sliding_window_pattern = 0 must be a positive whole number (every Nth layer is global)"},
        {"window-pattern", "gemma-3-1b-it", {{"/sliding_window_pattern", "-6"}}, "sliding_window_pattern = -6 must be a positive whole number"},
        {"window-pattern", "gemma-3-1b-it", {{"/sliding_window_pattern", "6.5"}}, "sliding_window_pattern = 6.5 must be a positive whole number"},
        {"window-pattern", "gemma-3-1b-it", {{"/sliding_window_pattern", "\"6\""}}, "sliding_window_pattern = \"6\" must be a positive whole number"},
        {"window-pattern", "gemma-3-1b-it", {{"/sliding_window_pattern", "true"}}, "sliding_window_pattern = true must be a positive whole number"},
        {"window-pattern", "gemma-3-1b-it", {{"/sliding_window_pattern", "[6]"}}, "sliding_window_pattern = [6] must be a positive whole number"},
        {"window-pattern", "gemma-3-1b-it", {{"/sliding_window_pattern", "100001"}}, "sliding_window_pattern = 100001 is out of range (1 .. 100000)"},
        {"window-pattern", "c4ai-command-r7b-12-2024", {{"/sliding_window_pattern", "0"}},
         "sliding_window_pattern = 0 must be a positive whole number"},
        {"window-pattern", "exaone-4.0-32b", {{"/sliding_window_pattern", "\"\""}}, "sliding_window_pattern = \"\" must be a positive whole number"},
        {"window-pattern", "exaone-4.0-32b", {{"/sliding_window_pattern", "\"LLLX\""}},
         "sliding_window_pattern = \"LLLX\" must be a positive whole number"},

        // Booleans are JSON booleans: "true" is not true.
        {"booleans", "qwen2-7b", {{"/use_sliding_window", "\"true\""}},
         "use_sliding_window = \"true\" must be true or false (JSON booleans, not text or numbers)"},
        {"booleans", "qwen2-7b", {{"/use_sliding_window", "1"}}, "use_sliding_window = 1 must be true or false"},
        {"booleans", "qwen2-7b", {{"/use_sliding_window", "\"false\""}}, "use_sliding_window = \"false\" must be true or false"},
        {"booleans", "deepseek-v3", {{"/rope_interleave", "\"true\""}}, "rope_interleave = \"true\" must be true or false"},
        {"booleans", "llama-4-scout-17b-16e", {{"/text_config/attn_temperature_tuning", "1"}},
         "text_config.attn_temperature_tuning = 1 must be true or false"},
        {"booleans", "falcon-7b", {{"/alibi", "\"false\""}}, "alibi = \"false\" must be true or false"},
        {"booleans", "gpt-oss-20b", {{"/rope_scaling/truncate", "\"false\""}}, "rope_scaling.truncate must be true or false (got \"false\")"},
        {"booleans", "qwen3-vl-8b-instruct", {{"/text_config/rope_scaling/mrope_interleaved", "\"true\""}},
         "text_config.rope_scaling.mrope_interleaved must be true or false (got \"true\")"},

        // _ropelab: ropelab's own note, validated and named; never a way past the family table.
        {"ropelab-note", kPreset, {{"/_ropelab/layout", "\"diagonal\""}},
         "_ropelab.layout = \"diagonal\" is not a pair layout (one of interleaved, half)"},
        {"ropelab-note", kPreset, {{"/_ropelab/layout", "\"\""}}, "_ropelab.layout = \"\" is not a pair layout"},
        {"ropelab-note", kPreset, {{"/_ropelab/layout", "\"Half\""}}, "_ropelab.layout = \"Half\" is not a pair layout"},
        {"ropelab-note", kPreset, {{"/_ropelab/layout", "5"}}, "_ropelab.layout must be a string (got 5)"},
        {"ropelab-note", kPreset, {{"/_ropelab", "\"x\""}}, "_ropelab must be an object (got \"x\")"},
        {"ropelab-note", kPreset, {{"/_ropelab/multi_axis", "{\"rule\": \"diag\"}"}}, "_ropelab.multi_axis.rule"},
        {"ropelab-note", kMystery, {{"/_ropelab", "{}"}}, "model_type \"mystery\" is not in ropelab's family table"},
        {"ropelab-note", kMystery, {{"/_ropelab", "{\"layout\": \"half\"}"}}, "model_type \"mystery\" is not in ropelab's family table"},
        {"ropelab-note", kPreset, {{"/_ropelab/layout", "DELETE"}}, "a file with no model_type and no architectures is not in ropelab's"},

        // Model types transformers runs without RoPE: refused as having none, whatever the flags.
        {"no-rope", kGpt2, {}, "model_type = \"gpt2\": this model has no RoPE: GPT-2 adds learned absolute position embeddings (wpe)"},
        {"no-rope", kGpt2, {}, "model_type = \"gpt2\": this model has no RoPE", kFlags},
        {"no-rope", kBloom, {}, "model_type = \"bloom\": this model has no RoPE: BLOOM adds ALiBi biases"},
        {"no-rope", kMpt, {}, "model_type = \"mpt\": this model has no RoPE: MPT adds ALiBi biases", kFlags},
        {"no-rope", kBert, {}, "model_type = \"bert\": this model has no RoPE: BERT adds absolute position embeddings"},
        {"no-rope", kRoberta, {}, "model_type = \"roberta\": this model has no RoPE"},
        {"no-rope", kT5, {}, "model_type = \"t5\": this model has no RoPE: T5 adds learned relative position biases"},
        {"no-rope", kOpt, {}, "model_type = \"opt\": this model has no RoPE: OPT adds learned position embeddings"},
        {"no-rope", kGptBigCode, {}, "model_type = \"gpt_bigcode\": this model has no RoPE"},
        {"no-rope", kGptNeo, {}, "model_type = \"gpt_neo\": this model has no RoPE"},
        {"no-rope", kDistilbert, {}, "model_type = \"distilbert\": this model has no RoPE"},
        {"no-rope", kBart, {}, "model_type = \"bart\": this model has no RoPE"},
        {"no-rope", "falcon-7b", {{"/alibi", "true"}},
         "alibi = true: this Falcon model has no RoPE: FalconConfig's rotary is `not alibi`"},
        {"no-rope", kGpt2, {{"/auto_map", "{\"AutoConfig\": \"configuration_gpt2.GPT2Config\"}"}}, "model_type = \"gpt2\": this model has no RoPE"},

        // Remote code and missing head dims: the hint names every RoPE-like field and flags that work.
        {"remote-code", kQwen1, {},
         "auto_map: this model's RoPE is defined by its own remote code (configuration_qwen.QWenConfig, modeling_qwen.QWenLMHeadModel), "
         "not by transformers; fields its code may use: kv_channels, max_position_embeddings, rotary_emb_base, rotary_pct, "
         "seq_length, use_dynamic_ntk, use_logn_attn; give --layout and --partial-rotary-factor to read it as a transformers model "
         "with those settings (its rotary_pct 1 is --partial-rotary-factor 1)"},
        {"remote-code", kPhiMsft, {},
         "auto_map: this model's RoPE is defined by its own remote code (configuration_phi.PhiConfig, modeling_phi.PhiForCausalLM), "
         "not by transformers; fields its code may use: flash_rotary, n_positions, rotary_dim; give --layout and "
         "--partial-rotary-factor to read it as a transformers model with those settings (its rotary_dim 32 of a 64-wide head is "
         "--partial-rotary-factor 0.5)"},
        {"remote-code", kMystery, {{"/partial_rotary_factor", "0.25"}},
         "model_type \"mystery\" is not in ropelab's family table (" + std::to_string(model_families().size()) +
             " families, see `ropelab families`); say how its RoPE is laid "
         "out with --layout half|interleaved and --partial-rotary-factor F (its partial_rotary_factor 0.25 is --partial-rotary-factor 0.25)"},
        {"remote-code", kPhiMsft, {}, "", kFlags},
        {"remote-code", kLlava15, {}, ""},
        {"remote-code", kLlava15, {{"/text_config", "DELETE"}}, ""},
        {"remote-code", kLlava15, {{"/text_config/model_type", "DELETE"}}, ""},
        {"remote-code", kMystery, {{"/hidden_size", "DELETE"}}, "cannot tell the head dim: the file gives no head_dim and no hidden_size; "
                                                               "add them to the file, or give --head-dim N",
         GivenRope{PairLayout::Half, 1.0}},
        {"remote-code", kMystery, {{"/hidden_size", "DELETE"}}, "", kFlags},
    };
    return all;
}

class HostileConfig : public ::testing::TestWithParam<std::string> {};

TEST_P(HostileConfig, IsRefusedNamingFileFieldAndValueOrReadAsTransformersReadsIt) {
    int ran = 0;
    for (const Row& row : rows()) {
        if (GetParam() != row.category) continue;
        ++ran;
        const std::string text = text_of(row);
        const std::string shown = row.base.substr(0, 40) + " " + (row.set.empty() ? "" : row.set.front().first);
        const std::string got = test::refusal([&] { parse_config_json(text, "c.json", "", row.given); }, "(accepted)");
        if (row.expected.empty()) {
            EXPECT_EQ(got, "(accepted)") << shown;
        } else {
            EXPECT_EQ(got.find("c.json: " + row.expected), 0u) << shown << "\nexpected: c.json: " << row.expected << "\ngot: " << got;
        }
    }
    EXPECT_GT(ran, 0);
}

INSTANTIATE_TEST_SUITE_P(EachCategory, HostileConfig,
                         ::testing::Values("rope-parameters", "null", "layer-lists", "window-pattern", "booleans", "ropelab-note",
                                           "no-rope", "remote-code"),
                         [](const auto& info) {
                             std::string name = info.param;
                             for (char& ch : name) ch = ch == '-' ? '_' : ch;
                             return name;
                         });

TEST(HostileConfigRows, AtLeastSeventy) { EXPECT_GE(rows().size(), 70u); }

// --explain says only what was applied, each value with where it came from.
const ReadField* used_row(const LoadedConfig& loaded, const std::string& name) {
    for (const ReadField& f : loaded.used) {
        if (f.name == name) return &f;
    }
    return nullptr;
}

const IgnoredField* ignored_row(const LoadedConfig& loaded, const std::string& name) {
    for (const IgnoredField& f : loaded.ignored) {
        if (f.name == name) return &f;
    }
    return nullptr;
}

std::string with(const std::string& base, const std::vector<std::pair<std::string, std::string>>& set) {
    return text_of(Row{"", base, set, ""});
}

// Qwen2Config: sliding_window = sliding_window if use_sliding_window else None.
TEST(ConfigExplain, Qwen2SlidingWindowIsNotUsedWhenUseSlidingWindowIsFalse) {
    const LoadedConfig qwen = load_config_json(corpus("qwen2-7b"));
    EXPECT_EQ(qwen.config.attention.sliding_window, 0);
    EXPECT_TRUE(qwen.layers.empty());
    const IgnoredField* window = ignored_row(qwen, "sliding_window");
    ASSERT_NE(window, nullptr);
    EXPECT_TRUE(window->rope);
    EXPECT_EQ(window->why, "not used: use_sliding_window is false, so Qwen2Config sets sliding_window to None (no layer slides)");
    const LoadedConfig absent = parse_config_json(with("qwen2-7b", {{"/use_sliding_window", "DELETE"}}), "c.json");
    EXPECT_EQ(ignored_row(absent, "sliding_window")->why,
              "not used: use_sliding_window is left out (false), so Qwen2Config sets sliding_window to None (no layer slides)");
}

// rope_theta inside rope_parameters (transformers 5): the θ applied is listed, from the file; no
// top-level default beside it.
TEST(ConfigExplain, ThetaInsideRopeParametersIsTheOneListed) {
    const LoadedConfig vl = load_config_json(corpus("qwen2.5-vl-3b-instruct-v5"));
    EXPECT_EQ(vl.config.rope_theta, 1e6);
    const ReadField* theta = used_row(vl, "text_config.rope_parameters.rope_theta");
    ASSERT_NE(theta, nullptr);
    EXPECT_EQ(theta->value, "1000000");
    EXPECT_EQ(theta->origin, ReadField::Origin::File);
    EXPECT_EQ(used_row(vl, "rope_theta"), nullptr);
    EXPECT_EQ(used_row(vl, "text_config.rope_theta"), nullptr);
    // A top-level rope_theta beside rope_parameters' own applies to no layer: said as not applied.
    const LoadedConfig both = parse_config_json(
        with("qwen2-7b", {{"/rope_theta", "10000"}, {"/rope_parameters", R"({"rope_type": "default", "rope_theta": 1000000.0})"}}), "c.json");
    EXPECT_EQ(both.config.rope_theta, 1e6);
    EXPECT_EQ(used_row(both, "rope_theta"), nullptr);
    ASSERT_NE(ignored_row(both, "rope_theta"), nullptr);
    EXPECT_EQ(ignored_row(both, "rope_theta")->why,
              "not applied: rope_parameters gives the model its own rope_theta, which transformers uses instead");
    // Without its own, rope_parameters takes the top level's (setdefault), listed once, from the file.
    const LoadedConfig inherit = parse_config_json(
        with("qwen2-7b", {{"/rope_theta", "500000"}, {"/rope_parameters", R"({"rope_type": "default"})"}}), "c.json");
    EXPECT_EQ(inherit.config.rope_theta, 5e5);
    EXPECT_EQ(used_row(inherit, "rope_theta")->origin, ReadField::Origin::File);
    // Gemma 3 (v5): each layer type's own θ, the class's 10^6 never listed as used.
    const LoadedConfig gemma = load_config_json(corpus("gemma-3-4b-it-v5"), "sliding_attention");
    EXPECT_EQ(gemma.config.rope_theta, 1e4);
    EXPECT_EQ(used_row(gemma, "text_config.rope_theta"), nullptr);
    EXPECT_EQ(ignored_row(gemma, "text_config.rope_theta"), nullptr);
}

// rope_parameters.type is the old name of rope_type: read with it, not "not applied".
TEST(ConfigExplain, TypeIsTheOldNameOfRopeType) {
    const std::string yarn = R"({"rope_type": "yarn", "type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768,
        "rope_theta": 1000000.0})";
    const LoadedConfig same = parse_config_json(with("qwen2-7b", {{"/rope_parameters", yarn}}), "c.json");
    EXPECT_EQ(same.config.rope_scaling.type, RopeType::Yarn);
    EXPECT_EQ(ignored_row(same, "rope_parameters.type"), nullptr);
    ASSERT_NE(used_row(same, "rope_parameters.type"), nullptr);
    EXPECT_EQ(used_row(same, "rope_parameters.type")->value, "yarn (old name of rope_type)");
    const LoadedConfig old_only = parse_config_json(
        with("qwen2-7b", {{"/rope_parameters", yarn}, {"/rope_parameters/rope_type", "DELETE"}}), "c.json");
    EXPECT_EQ(old_only.config.rope_scaling.type, RopeType::Yarn);
    EXPECT_EQ(ignored_row(old_only, "rope_parameters.type"), nullptr);
    const LoadedConfig differ = parse_config_json(with("qwen2-7b", {{"/rope_parameters", yarn}, {"/rope_parameters/type", "\"linear\""}}), "c.json");
    EXPECT_EQ(differ.config.rope_scaling.type, RopeType::Yarn);
    ASSERT_NE(ignored_row(differ, "rope_parameters.type"), nullptr);
    EXPECT_EQ(ignored_row(differ, "rope_parameters.type")->why,
              "the old name of rope_type: transformers reads rope_type = \"yarn\" when both are given, so type = \"linear\" is not used");
}

// Keys transformers itself never reads are said to be ignored by transformers too.
TEST(ConfigExplain, KeysTransformersIgnoresAreSaidToBeIgnoredByItToo) {
    const LoadedConfig q = parse_config_json(with("qwen2-7b", {{"/rope_interleaved", "false"}, {"/use_mrope", "false"}}), "c.json");
    for (const char* key : {"rope_interleaved", "use_mrope"}) {
        const IgnoredField* f = ignored_row(q, key);
        ASSERT_NE(f, nullptr) << key;
        EXPECT_TRUE(f->rope) << key;
        EXPECT_EQ(f->why, "transformers does not read it either (no config class or modeling file uses it): the frequencies are as "
                          "transformers computes them without it")
            << key;
    }
}

// phi-msft read with the flags: the flag's factor rotates, and the file's rotary_dim is said not applied.
TEST(ConfigExplain, PhiMsftWithFlagsListsRotaryDimAsNotApplied) {
    const LoadedConfig whole = parse_config_json(kPhiMsft, "c.json", "", kFlags);
    EXPECT_EQ(whole.config.head_dim, 64);
    EXPECT_EQ(rotary_dim(whole.config), 64);
    EXPECT_EQ(used_row(whole, "rotary_dim"), nullptr);
    ASSERT_NE(ignored_row(whole, "rotary_dim"), nullptr);
    EXPECT_EQ(ignored_row(whole, "rotary_dim")->why,
              "not applied: --partial-rotary-factor 1 decides the rotary dim (64 of 64 components rotate); the model type is not in "
              "ropelab's family table");
    const LoadedConfig half = parse_config_json(kPhiMsft, "c.json", "", GivenRope{PairLayout::Half, 0.5});
    EXPECT_EQ(rotary_dim(half.config), 32);
    EXPECT_EQ(used_row(half, "partial_rotary_factor")->value, "0.5");
}

// llava-1.5: transformers reads its partial text_config (or none) with LlamaConfig's defaults.
TEST(ConfigExplain, Llava15IsReadWithLlamaConfigDefaultsAndSaysSo) {
    for (const std::string& text : {std::string(kLlava15), with(kLlava15, {{"/text_config", "DELETE"}}),
                                    with(kLlava15, {{"/text_config/model_type", "DELETE"}})}) {
        const LoadedConfig l = parse_config_json(text, "c.json");
        EXPECT_EQ(l.config.head_dim, 128);
        EXPECT_EQ(l.config.rope_theta, 10000);
        EXPECT_EQ(l.config.layout, PairLayout::Half);
        const ReadField* hidden = used_row(l, "text_config.hidden_size");
        ASSERT_NE(hidden, nullptr);
        EXPECT_EQ(hidden->value, "4096");
        EXPECT_EQ(hidden->origin, ReadField::Origin::Default);
        EXPECT_EQ(hidden->why, "LlamaConfig's default (the file leaves it out)");
        EXPECT_EQ(used_row(l, "text_config.num_attention_heads")->value, "32");
        // A default nothing read is not listed as a key of the file.
        EXPECT_EQ(ignored_row(l, "text_config.head_dim"), nullptr);
    }
    const LoadedConfig none = parse_config_json(with(kLlava15, {{"/text_config", "DELETE"}}), "c.json");
    EXPECT_EQ(used_row(none, "text_config.model_type")->why, "LlavaConfig's default text model (the file leaves it out)");
    EXPECT_EQ(none.config.max_position_embeddings, 2048);
}

// --head-dim gets past a file that cannot tell its head dim, and is said as the source.
TEST(ConfigExplain, HeadDimFlagIsUsedOnlyWhereTheFileCannotTell) {
    const std::string no_head = with(kMystery, {{"/hidden_size", "DELETE"}});
    const LoadedConfig given = parse_config_json(no_head, "c.json", "", kFlags);
    EXPECT_EQ(given.config.head_dim, 64);
    EXPECT_EQ(used_row(given, "head_dim")->why, "--head-dim: the file gives no head_dim and no hidden_size");
    // A file that tells it is read (the flag overrides it later, in resolve_loaded).
    const LoadedConfig told = parse_config_json(kMystery, "c.json", "", kFlags);
    EXPECT_EQ(told.config.head_dim, 128);
}

}  // namespace
}  // namespace ropelab
