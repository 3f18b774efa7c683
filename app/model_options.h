#pragma once
// The model options every subcommand shares (preset or config.json, then explicit overrides),
// and the option validators that name the option and value when they refuse. The override
// flags are the schema's (lab/schema.h): one row per field gives its flag, help and range.
#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/config_json.h"
#include "core/model_config.h"
#include "lab/schema.h"

namespace ropelab {

struct ModelOptions {
    std::string preset;
    std::string config_path;
    // Schema path → the text given to that field's flag.
    std::map<std::string, std::string> fields;
    std::string format = "csv";
    bool explain = false;  // freqs --explain
    bool quiet = false;    // no notes on stderr (a second resolve of the same options)
    // Compare mode (lab/compare.h): a built-in comparison, then settings beside the base.
    std::string comparison;
    std::vector<std::string> compare;
};

CLI::Validator greater_than(double bound);
CLI::Validator in_range(double low, double high);

// Adds the flag of every schema row `wanted` accepts, storing the text in `fields`.
void add_schema_options(CLI::App* cmd, std::map<std::string, std::string>& fields,
                        bool (*wanted)(const schema::Field&));

// `with_format` adds --format (the GUI has no output format).
void add_model_options(CLI::App* cmd, ModelOptions& o, bool with_format = true);

// --compare SPEC (repeatable) and --comparison NAME.
void add_compare_options(CLI::App* cmd, ModelOptions& o);
// `p` with --comparison's base and settings, before the other flags apply.
LabParams with_comparison_option(const ModelOptions& o, const LabParams& p);
// `p` with --compare's settings after the base's (relative to the base as the flags left it).
LabParams with_compare_options(const ModelOptions& o, const LabParams& p);
// The model options as a lab state: base, then compared settings (freqs and scores).
LabParams resolve_settings(const ModelOptions& o);

// Applies the given fields to `p` in schema order; a refusal names the flag, field, value and range.
void apply_schema_options(LabParams& p, const std::map<std::string, std::string>& fields);

// The preset (default textbook) or config file with the overrides applied; validated against the
// schema's ranges. Throws InputError naming the field, file or option.
ModelConfig resolve_model(const ModelOptions& o);
// The same, with what the reader used, ignored and noted (freqs --explain). Prints the notes.
LoadedConfig resolve_loaded(const ModelOptions& o);
// The preset name the model came from ("textbook", a preset, or the config path).
std::string model_source(const ModelOptions& o);

}  // namespace ropelab
