#pragma once
// The model options every subcommand shares (preset or config.json, then explicit overrides),
// and the option validators that name the option and value when they refuse.
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "core/model_config.h"

namespace ropelab {

struct ModelOptions {
    std::string preset;
    std::string config_path;
    std::optional<int> head_dim;
    std::optional<double> rope_theta;
    std::optional<double> partial_rotary_factor;
    std::optional<std::string> rope_type;
    std::optional<double> factor;
    std::optional<double> low_freq_factor;
    std::optional<double> high_freq_factor;
    std::optional<std::int64_t> original_max_position_embeddings;
    std::optional<std::int64_t> max_position_embeddings;
    std::optional<double> beta_fast;
    std::optional<double> beta_slow;
    std::optional<double> attention_factor;
    std::optional<std::int64_t> seq_len;
    std::optional<std::string> layout;
    std::string format = "csv";
};

CLI::Validator greater_than(double bound);
CLI::Validator in_range(double low, double high);

// `with_format` adds --format (the GUI has no output format).
void add_model_options(CLI::App* cmd, ModelOptions& o, bool with_format = true);

// The preset (default textbook) or config file with the overrides applied; validated.
// Throws InputError naming the field, file or option.
ModelConfig resolve_model(const ModelOptions& o);

// The preset name the model came from ("textbook", a preset, or the config path).
std::string model_source(const ModelOptions& o);

}  // namespace ropelab
