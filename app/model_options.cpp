#include "model_options.h"

#include <fmt/format.h>

#include "core/config_json.h"
#include "core/presets.h"

namespace ropelab {

CLI::Validator greater_than(double bound) {
    return CLI::Validator(
        [bound](std::string& text) -> std::string {
            double value = 0.0;
            if (!CLI::detail::lexical_cast(text, value)) return fmt::format("\"{}\" is not a number", text);
            if (!(value > bound)) return fmt::format("must be > {} (got {})", bound, text);
            return {};
        },
        fmt::format("NUMBER > {}", bound));
}

CLI::Validator in_range(double low, double high) {
    return CLI::Validator(
        [low, high](std::string& text) -> std::string {
            double value = 0.0;
            if (!CLI::detail::lexical_cast(text, value)) return fmt::format("\"{}\" is not a number", text);
            if (!(value >= low && value <= high)) {
                return fmt::format("must be in [{}, {}] (got {})", low, high, text);
            }
            return {};
        },
        fmt::format("NUMBER in [{}, {}]", low, high));
}

void add_model_options(CLI::App* cmd, ModelOptions& o, bool with_format) {
    auto* preset = cmd->add_option("--preset", o.preset, "Model preset (see `ropelab presets`)");
    auto* config = cmd->add_option("--config", o.config_path, "HF-style config.json to load");
    preset->excludes(config);
    cmd->add_option("--head-dim", o.head_dim, "Head dimension d")->check(in_range(2, 65536));
    cmd->add_option("--rope-theta", o.rope_theta, "RoPE base θ")->check(greater_than(1));
    cmd->add_option("--partial-rotary-factor", o.partial_rotary_factor,
                    "Fraction of the head that rotates")->check(in_range(1e-9, 1));
    cmd->add_option("--rope-type", o.rope_type,
                    "default|linear|dynamic|ntk|yarn|llama3|longrope");
    cmd->add_option("--factor", o.factor, "Context scaling factor")->check(greater_than(0));
    cmd->add_option("--low-freq-factor", o.low_freq_factor, "llama3 low_freq_factor")
        ->check(greater_than(0));
    cmd->add_option("--high-freq-factor", o.high_freq_factor, "llama3 high_freq_factor")
        ->check(greater_than(0));
    cmd->add_option("--original-max-position-embeddings", o.original_max_position_embeddings,
                    "Training context before scaling")->check(in_range(1, 1e15));
    cmd->add_option("--max-position-embeddings", o.max_position_embeddings,
                    "Context length")->check(in_range(1, 1e15));
    cmd->add_option("--beta-fast", o.beta_fast, "YaRN beta_fast")->check(greater_than(0));
    cmd->add_option("--beta-slow", o.beta_slow, "YaRN beta_slow")->check(greater_than(0));
    cmd->add_option("--attention-factor", o.attention_factor, "Scales cos and sin")
        ->check(greater_than(0));
    cmd->add_option("--seq-len", o.seq_len, "Current sequence length (dynamic, longrope)")
        ->check(in_range(1, 1e15));
    cmd->add_option("--layout", o.layout, "Pair layout")
        ->check(CLI::IsMember({"interleaved", "half"}));
    if (with_format) {
        cmd->add_option("--format", o.format, "Output format")
            ->check(CLI::IsMember({"csv", "json"}))
            ->capture_default_str();
    }
}

ModelConfig resolve_model(const ModelOptions& o) {
    ModelConfig c;
    if (!o.config_path.empty()) {
        c = load_config_json(o.config_path).config;
    } else {
        c = preset_or_throw(o.preset.empty() ? "textbook" : o.preset).config;
    }
    if (o.head_dim) c.head_dim = *o.head_dim;
    if (o.rope_theta) c.rope_theta = *o.rope_theta;
    if (o.partial_rotary_factor) c.partial_rotary_factor = *o.partial_rotary_factor;
    if (o.max_position_embeddings) c.max_position_embeddings = *o.max_position_embeddings;
    if (o.seq_len) c.seq_len = *o.seq_len;
    if (o.layout) c.layout = parse_pair_layout(*o.layout);
    RopeScaling& s = c.rope_scaling;
    if (o.rope_type) s.type = parse_rope_type(*o.rope_type);
    if (o.factor) s.factor = *o.factor;
    if (o.low_freq_factor) s.low_freq_factor = *o.low_freq_factor;
    if (o.high_freq_factor) s.high_freq_factor = *o.high_freq_factor;
    if (o.original_max_position_embeddings) {
        s.original_max_position_embeddings = *o.original_max_position_embeddings;
    }
    if (o.beta_fast) s.beta_fast = *o.beta_fast;
    if (o.beta_slow) s.beta_slow = *o.beta_slow;
    if (o.attention_factor) s.attention_factor = *o.attention_factor;
    validate(c);
    return c;
}


std::string model_source(const ModelOptions& o) {
    if (!o.config_path.empty()) return o.config_path;
    return o.preset.empty() ? "textbook" : o.preset;
}

}  // namespace ropelab
