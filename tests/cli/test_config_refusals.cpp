// Red team, round 4, binary tier: what the app says about configs, through the real binary. Each
// row writes config files shaped as published config.json files into FILE/, runs a command line,
// and expects exit 2 with the error line's start (file, field, value), or exit 0 with words on
// stdout (--explain). The rows are listed by category in docs/redteam.md.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/hostile_case.h"
#include "support/run_binary.h"

namespace {

namespace fs = std::filesystem;
using ropelab::test::Result;
using ropelab::test::run;

struct RefusalCase {
    const char* category;
    std::string args;
    std::vector<std::pair<std::string, std::string>> files;  // name in FILE/ -> text
    int status;
    // status 2: the start of the error line after "ropelab: error: "; status 0: words stdout holds.
    std::string message;
};

const std::string kGpt2 = R"({"activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"], "model_type": "gpt2",
    "n_ctx": 1024, "n_embd": 768, "n_head": 12, "n_layer": 12, "n_positions": 1024, "vocab_size": 50257})";
const std::string kBloom = R"({"architectures": ["BloomForCausalLM"], "hidden_size": 1024, "model_type": "bloom", "n_head": 16,
    "n_layer": 24, "vocab_size": 250880})";
const std::string kFalconAlibi = R"({"alibi": true, "architectures": ["FalconForCausalLM"], "hidden_size": 4544,
    "model_type": "falcon", "multi_query": true, "new_decoder_architecture": false, "num_attention_heads": 71,
    "num_hidden_layers": 32, "parallel_attn": true, "vocab_size": 65024})";
const std::string kQwen1 = R"({"architectures": ["QWenLMHeadModel"], "auto_map": {"AutoConfig": "configuration_qwen.QWenConfig",
    "AutoModelForCausalLM": "modeling_qwen.QWenLMHeadModel"}, "hidden_size": 4096, "kv_channels": 128,
    "max_position_embeddings": 8192, "model_type": "qwen", "num_attention_heads": 32, "num_hidden_layers": 32,
    "rotary_emb_base": 10000, "rotary_pct": 1.0, "seq_length": 8192, "use_dynamic_ntk": true, "use_logn_attn": true,
    "vocab_size": 151936})";
const std::string kPhiMsft = R"({"architectures": ["PhiForCausalLM"], "auto_map": {"AutoConfig": "configuration_phi.PhiConfig",
    "AutoModelForCausalLM": "modeling_phi.PhiForCausalLM"}, "flash_rotary": false, "model_type": "phi-msft", "n_embd": 2048,
    "n_head": 32, "n_layer": 24, "n_positions": 2048, "rotary_dim": 32, "vocab_size": 51200})";
const std::string kLlava15 = R"({"architectures": ["LlavaForConditionalGeneration"], "image_token_index": 32000,
    "model_type": "llava", "text_config": {"_name_or_path": "lmsys/vicuna-7b-v1.5", "architectures": ["LlamaForCausalLM"],
    "max_position_embeddings": 4096, "model_type": "llama", "rms_norm_eps": 1e-05, "vocab_size": 32064},
    "vision_config": {"hidden_size": 1024, "image_size": 336, "model_type": "clip_vision_model", "num_attention_heads": 16,
    "num_hidden_layers": 24, "patch_size": 14}, "vocab_size": 32064})";
const std::string kNoHead = R"({"model_type": "mystery", "num_attention_heads": 16, "rope_theta": 10000})";
const std::string kQwen2 = R"({"architectures": ["Qwen2ForCausalLM"], "hidden_size": 3584, "max_position_embeddings": 131072,
    "max_window_layers": 28, "model_type": "qwen2", "num_attention_heads": 28, "num_hidden_layers": 28,
    "num_key_value_heads": 4, "rope_theta": 1000000.0, "sliding_window": 131072, "use_sliding_window": false,
    "vocab_size": 152064})";
const std::string kGemma3v5 = R"({"architectures": ["Gemma3ForCausalLM"], "head_dim": 256, "hidden_size": 1152,
    "max_position_embeddings": 32768, "model_type": "gemma3_text", "num_attention_heads": 4, "num_hidden_layers": 6,
    "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention", "sliding_attention", "sliding_attention",
    "full_attention"], "rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 1000000.0},
    "sliding_attention": SLIDING}, "sliding_window": 512})";

std::string gemma3(const std::string& sliding) {
    std::string text = kGemma3v5;
    text.replace(text.find("SLIDING"), 7, sliding);
    return text;
}

const std::string kFlags = " --layout half --partial-rotary-factor 1";

const std::vector<RefusalCase>& refusal_cases() {
    static const std::vector<RefusalCase> all = {
        // A model without RoPE stays refused whatever the flags (before: --layout and
        // --partial-rotary-factor invented a RoPE with exit 0).
        {"no-rope", "freqs --config FILE/c.json", {{"c.json", kGpt2}}, 2,
         "FILE/c.json: model_type = \"gpt2\": this model has no RoPE: GPT-2 adds learned absolute position embeddings (wpe)"},
        {"no-rope", "freqs --config FILE/c.json" + kFlags, {{"c.json", kGpt2}}, 2, "FILE/c.json: model_type = \"gpt2\": this model has no RoPE"},
        {"no-rope", "freqs --config FILE/c.json" + kFlags + " --head-dim 64", {{"c.json", kGpt2}}, 2,
         "FILE/c.json: model_type = \"gpt2\": this model has no RoPE"},
        {"no-rope", "angles --position 5 --config FILE/c.json" + kFlags, {{"c.json", kBloom}}, 2, "FILE/c.json: model_type = \"bloom\": this model has no RoPE"},
        {"no-rope", "freqs --config FILE/c.json --layout interleaved", {{"c.json", kFalconAlibi}}, 2,
         "FILE/c.json: alibi = true: this Falcon model has no RoPE"},
        {"no-rope", "freqs --compare FILE/c.json", {{"c.json", kGpt2}}, 2, "--compare \"FILE/c.json\": FILE/c.json: model_type = \"gpt2\": this model has no RoPE"},
        // Remote code: every RoPE-like field named; the flags named really get past it.
        {"remote-code", "freqs --config FILE/c.json", {{"c.json", kQwen1}}, 2,
         "FILE/c.json: auto_map: this model's RoPE is defined by its own remote code (configuration_qwen.QWenConfig, "
         "modeling_qwen.QWenLMHeadModel), not by transformers; fields its code may use: kv_channels, max_position_embeddings, "
         "rotary_emb_base, rotary_pct, seq_length, use_dynamic_ntk, use_logn_attn; give --layout and --partial-rotary-factor"},
        {"remote-code", "freqs --config FILE/c.json" + kFlags + " --explain", {{"c.json", kQwen1}}, 0,
         "  use_dynamic_ntk                              the model's remote code may use it"},
        {"remote-code", "freqs --config FILE/c.json", {{"c.json", kPhiMsft}}, 2,
         "FILE/c.json: auto_map: this model's RoPE is defined by its own remote code (configuration_phi.PhiConfig, "
         "modeling_phi.PhiForCausalLM), not by transformers; fields its code may use: flash_rotary, n_positions, rotary_dim;"},
        {"remote-code", "freqs --config FILE/c.json" + kFlags + " --explain", {{"c.json", kPhiMsft}}, 0,
         "  rotary_dim                                   not applied: --partial-rotary-factor 1 decides the rotary dim (64 of 64"},
        {"remote-code", "freqs --config FILE/c.json --layout half --partial-rotary-factor 0.5 --format json", {{"c.json", kPhiMsft}}, 0,
         "\"rotary_dim\": 32"},
        // llava-1.5: read with LlamaConfig's defaults, said so; --head-dim is not needed.
        {"head-dim", "freqs --config FILE/c.json --explain", {{"c.json", kLlava15}}, 0,
         "  text_config.hidden_size                      4096                   default: LlamaConfig's default (the file leaves it out)"},
        {"head-dim", "freqs --config FILE/c.json --head-dim 128 --format json", {{"c.json", kLlava15}}, 0, "\"rotary_dim\": 128"},
        {"head-dim", "freqs --config FILE/c.json" + kFlags, {{"c.json", kNoHead}}, 2,
         "FILE/c.json: cannot tell the head dim: the file gives no head_dim and no hidden_size; add them to the file, or give --head-dim N"},
        {"head-dim", "freqs --config FILE/c.json" + kFlags + " --head-dim 64 --format json", {{"c.json", kNoHead}}, 0, "\"rotary_dim\": 64"},
        // --explain: what was applied, and why the rest was not.
        {"explain", "freqs --config FILE/c.json --explain", {{"c.json", kQwen2}}, 0,
         "  sliding_window                               not used: use_sliding_window is false, so Qwen2Config sets sliding_window to None"},
        {"explain", "freqs --config FILE/c.json --explain", {{"c.json", gemma3(R"({"rope_type": "default", "rope_theta": 10000.0})")}}, 0,
         "  rope_parameters.sliding_attention.rope_theta 10000                  file"},
        {"explain", "freqs --config FILE/c.json --rope-theta 1000 --explain", {{"c.json", kQwen2}}, 0,
         "  rope_theta                                   1000                   flag: --rope-theta"},
        {"explain", "freqs --config FILE/c.json --rope-theta 1000 --explain", {{"c.json", kQwen2}}, 0,
         "  rope_theta                                   not applied: --rope-theta 1000 replaces its 1000000"},
        {"explain", "freqs --config FILE/c.json --partial-rotary-factor 0.5 --explain", {{"c.json", kQwen2}}, 0,
         "  partial_rotary_factor                        0.5                    flag: --partial-rotary-factor"},
        // Per-layer fields checked as transformers checks them, at every entry point.
        {"fields", "freqs --config FILE/c.json", {{"c.json", gemma3("10000.0")}}, 2,
         "FILE/c.json: rope_parameters.sliding_attention = 10000.0 must be an object"},
        {"fields", "freqs --config FILE/c.json --layer-type sliding_attention", {{"c.json", gemma3("null")}}, 2,
         "FILE/c.json: rope_parameters.sliding_attention = null must be an object"},
        {"fields", "freqs --compare FILE/c.json", {{"c.json", gemma3("\"default\"")}}, 2,
         "--compare \"FILE/c.json\": FILE/c.json: rope_parameters.sliding_attention = \"default\" must be an object"},
        {"fields", "angles --position 5 --config FILE/c.json --layer 5", {{"c.json", gemma3(R"({"rope_theta": null})")}}, 2,
         "FILE/c.json: rope_parameters.sliding_attention.rope_theta = null"},
        {"fields", "freqs --config FILE/c.json", {{"c.json", R"({"model_type": "gemma3_text", "head_dim": 256, "rope_local_base_freq": null})"}}, 2,
         "FILE/c.json: rope_local_base_freq = null: transformers takes the null as the value"},
        {"fields", "freqs --config FILE/c.json", {{"c.json", R"({"model_type": "gemma3_text", "head_dim": 256, "num_hidden_layers": 26, "sliding_window_pattern": -6})"}}, 2,
         "FILE/c.json: sliding_window_pattern = -6 must be a positive whole number"},
        {"fields", "freqs --config FILE/c.json", {{"c.json", R"({"model_type": "qwen2", "head_dim": 128, "use_sliding_window": "true", "sliding_window": 4096})"}}, 2,
         "FILE/c.json: use_sliding_window = \"true\" must be true or false"},
        {"fields", "freqs --config FILE/c.json", {{"c.json", R"({"model_type": "gpt_oss", "head_dim": 64, "num_hidden_layers": 3, "layer_types": ["sliding_attention", "full_attention"]})"}}, 2,
         "FILE/c.json: layer_types has 2 entries but num_hidden_layers = 3"},
        {"fields", "freqs --config FILE/c.json --layer 1", {{"c.json", R"({"model_type": "gpt_oss", "head_dim": 64, "num_hidden_layers": 2, "layer_types": ["sliding_attention", "swa"]})"}}, 2,
         "FILE/c.json: layer_types[1] = \"swa\" is not a layer type transformers knows"},
        {"fields", "freqs --config FILE/c.json", {{"c.json", R"({"_ropelab": {"layout": "diagonal"}, "head_dim": 64})"}}, 2,
         "FILE/c.json: _ropelab.layout = \"diagonal\" is not a pair layout (one of interleaved, half)"},
        {"fields", "freqs --config FILE/c.json", {{"c.json", R"({"_ropelab": {}, "model_type": "mystery", "head_dim": 64})"}}, 2,
         "FILE/c.json: model_type \"mystery\" is not in ropelab's family table"},
        {"fields", "export-data --view frequencies --config FILE/c.json --out OUT/f.csv", {{"c.json", R"({"_ropelab": {}, "model_type": "mystery", "head_dim": 64})"}}, 2,
         "FILE/c.json: model_type \"mystery\" is not in ropelab's family table"},
    };
    return all;
}

using ropelab::test::with_folders;

class ConfigRefusal : public ::testing::TestWithParam<std::string> {};

TEST_P(ConfigRefusal, SaysFileFieldAndValueOrOnlyWhatWasApplied) {
    int ran = 0;
    for (const RefusalCase& c : refusal_cases()) {
        if (GetParam() != c.category) continue;
        ++ran;
        const ropelab::test::CaseRun run = ropelab::test::run_case("config_refusal", c.args, c.files);
        const Result& r = run.result;
        const std::string &in = run.in, &out = run.out;
        const fs::path& dir = run.dir;
        EXPECT_EQ(r.status, c.status) << c.args << "\n" << r.err.substr(0, 600);
        if (c.status == 2) {
            const std::string expected = "ropelab: error: " + with_folders(c.message, in, out);
            EXPECT_EQ(r.err.find(expected), 0u) << c.args << "\nexpected: " << expected << "\ngot: " << r.err.substr(0, 600);
            EXPECT_TRUE(fs::is_empty(dir / "out")) << c.args;
        } else {
            EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << "\nexpected: " << c.message << "\nin:\n" << r.out.substr(0, 3000);
        }
        fs::remove_all(dir);
    }
    EXPECT_GT(ran, 0);
}

INSTANTIATE_TEST_SUITE_P(EachKind, ConfigRefusal, ::testing::Values("no-rope", "remote-code", "head-dim", "explain", "fields"),
                         [](const auto& info) {
                             std::string name = info.param;
                             for (char& ch : name) ch = ch == '-' ? '_' : ch;
                             return name;
                         });

}  // namespace
