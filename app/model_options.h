#pragma once
// The model options every subcommand shares (preset or config.json, then explicit overrides),
// and the option validators that name the option and value when they refuse. The override
// flags are the schema's (lab/schema.h): one row per field gives its flag, help and range.
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/config_json.h"
#include "core/model_config.h"
#include "state/schema.h"

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
// Any finite number: nan and inf are refused, not clamped.
CLI::Validator finite_number();
// A file name, preset or SPEC must say something: `--config ""` is refused, not ignored.
CLI::Validator non_empty();

// The flag groups. Each adds one CLI11 option per schema row (flag, help and range declared once
// there) that stores the text under the row's path in `fields`; the value is checked by the schema
// when it is applied (apply_schema_options), so a field is refused in the same words everywhere.
// A row's old spelling is added hidden, and prints a one-line note when used.

// The options of the given schema paths; returns them in order (for ->required()).
std::vector<CLI::Option*> add_field_options(CLI::App* cmd, std::map<std::string, std::string>& fields,
                                            std::initializer_list<std::string_view> paths);
// q and k: --vectors --seed --samples --q --k --pair (q = k = the focused pair).
void add_vector_options(CLI::App* cmd, std::map<std::string, std::string>& fields);
// The score curve: --encoding --max-distance --angle-mode.
void add_curve_options(CLI::App* cmd, std::map<std::string, std::string>& fields);
// The lab's other fields (what is drawn and how; gui, render and export-data).
void add_display_options(CLI::App* cmd, std::map<std::string, std::string>& fields);

// The model: --preset or --config, then every model row's flag (--head-dim, --rope-theta, …).
// `with_format` adds --format (the GUI has no output format).
void add_model_options(CLI::App* cmd, ModelOptions& o, bool with_format = true);

// `fields` with the vector choice the other vector flags imply when --vectors is not given:
// --q or --k mean custom vectors, --samples the mean of S random ones (as `scores` always read them).
std::map<std::string, std::string> with_implied_vectors(std::map<std::string, std::string> fields);

// --compare SPEC (repeatable) and --comparison NAME.
void add_compare_options(CLI::App* cmd, ModelOptions& o);
// `p` with --comparison's base and settings, before the other flags apply.
LabParams with_comparison_option(const ModelOptions& o, const LabParams& p);
// `p` with --compare's settings after the base's (relative to the base as the flags left it).
LabParams with_compare_options(const ModelOptions& o, const LabParams& p);
// The options as a lab state: base, compared settings, and every other field given (the core
// subcommands read their curve, vector and position fields from it).
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
