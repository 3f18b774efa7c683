#include "model_options.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <span>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "core/config_json.h"
#include "models/model_file.h"
#include "core/error.h"
#include "core/presets.h"
#include "state/compare.h"

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

namespace {

// "010" → "10": CLI11 reads a whole number with a leading zero as octal (--frames 010 would be
// 8 frames); people mean decimal.
void drop_leading_zeros(std::string& text) {
    const std::size_t sign = !text.empty() && (text[0] == '+' || text[0] == '-') ? 1 : 0;
    std::size_t first = sign;
    while (first + 1 < text.size() && text[first] == '0' && std::isdigit(static_cast<unsigned char>(text[first + 1]))) ++first;
    if (first > sign && text.find_first_not_of("0123456789", sign) == std::string::npos) text.erase(sign, first - sign);
}

}  // namespace

CLI::Validator in_range(double low, double high) {
    return CLI::Validator(
        [low, high](std::string& text) -> std::string {
            double value = 0.0;
            if (!CLI::detail::lexical_cast(text, value)) return fmt::format("\"{}\" is not a number", text);
            if (!(value >= low && value <= high)) {
                return fmt::format("must be in [{}, {}] (got {})", low, high, text);
            }
            drop_leading_zeros(text);
            return {};
        },
        fmt::format("NUMBER in [{}, {}]", low, high));
}

CLI::Validator non_empty() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            return text.find_first_not_of(" \t") == std::string::npos ? "must not be empty" : "";
        },
        "");
}

CLI::Validator finite_number() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            double value = 0.0;
            if (!CLI::detail::lexical_cast(text, value)) return fmt::format("\"{}\" is not a number", text);
            if (!std::isfinite(value)) return fmt::format("must be a finite number (got {})", text);
            return {};
        },
        "NUMBER");
}

namespace {

bool is_model_field(const schema::Field& f) {
    return f.path.starts_with("model.") || f.path == "layer_type" || f.path == "layer";
}

// The groups' rows, by path; the display group is every other lab row with a flag.
constexpr std::string_view kVectorFields[] = {"curves.vectors", "curves.seed", "curves.samples",
                                              "curves.custom_q", "curves.custom_k", "focus.pair"};
constexpr std::string_view kCurveFields[] = {"curves.encoding", "curves.max_distance", "curves.angle_mode"};

bool in(std::span<const std::string_view> paths, std::string_view path) {
    return std::find(paths.begin(), paths.end(), path) != paths.end();
}

std::string option_help(const schema::Field& f) {
    return fmt::format("{} ({})", f.help, schema::range_text(f));
}

// One row's option (and its old spelling, hidden). Only the text is kept here: the schema checks
// it when the options are applied, so the range is stated once.
CLI::Option* add_row_option(CLI::App* cmd, std::map<std::string, std::string>& fields, const schema::Field& f) {
    const std::string path(f.path);
    const auto store = [&fields, path](const std::string& v) { fields[path] = v; };
    CLI::Option* option = nullptr;
    if (f.kind == schema::Kind::Bool) {  // --log-distance, or --log-distance=false
        option = cmd->add_flag_function(
            std::string(f.flag), [&fields, path](std::int64_t n) { fields[path] = n > 0 ? "true" : "false"; },
            option_help(f));
        // CLI11 turns --flag=VALUE into a count with std::stoll and lets its exception escape for
        // a word it does not know (--layer-rope=maybe aborted); refuse such a value here first.
        option->check(CLI::Validator(
            [path](std::string& v) {
                try {
                    CLI::detail::to_flag_value(v);
                    return std::string();
                } catch (const std::exception&) {
                    return fmt::format("{} = {} is not true or false", path, v);
                }
            },
            ""));
    } else {
        option = cmd->add_option_function<std::string>(std::string(f.flag), store, option_help(f));
    }
    if (!f.old_flag.empty()) {
        const std::string note =
            fmt::format("ropelab: note: {} is now {}; the old spelling goes in the next release\n", f.old_flag, f.flag);
        const auto old_store = [store, note](const std::string& v) {
            std::fputs(note.c_str(), stderr);
            store(v);
        };
        cmd->add_option_function<std::string>(std::string(f.old_flag), old_store, "")->group("");  // hidden
    }
    return option;
}

void add_rows_where(CLI::App* cmd, std::map<std::string, std::string>& fields, bool (*wanted)(const schema::Field&)) {
    for (const schema::Field& f : schema::fields()) {
        if (!f.flag.empty() && wanted(f)) add_row_option(cmd, fields, f);
    }
}

bool is_vector_field(const schema::Field& f) { return in(kVectorFields, f.path); }
bool is_curve_field(const schema::Field& f) { return in(kCurveFields, f.path); }
bool is_display_field(const schema::Field& f) { return !is_model_field(f) && !is_vector_field(f) && !is_curve_field(f); }

}  // namespace

std::vector<CLI::Option*> add_field_options(CLI::App* cmd, std::map<std::string, std::string>& fields,
                                            std::initializer_list<std::string_view> paths) {
    std::vector<CLI::Option*> options;
    for (std::string_view path : paths) {
        const schema::Field* f = schema::by_path(path);
        if (!f || f->flag.empty()) throw std::logic_error(fmt::format("no flag for schema path {}", path));
        options.push_back(add_row_option(cmd, fields, *f));
    }
    return options;
}

void add_vector_options(CLI::App* cmd, std::map<std::string, std::string>& fields) {
    add_rows_where(cmd, fields, is_vector_field);
}

void add_curve_options(CLI::App* cmd, std::map<std::string, std::string>& fields) {
    add_rows_where(cmd, fields, is_curve_field);
}

void add_display_options(CLI::App* cmd, std::map<std::string, std::string>& fields) {
    add_rows_where(cmd, fields, is_display_field);
}

void add_model_options(CLI::App* cmd, ModelOptions& o, bool with_format) {
    auto* preset = cmd->add_option("--preset", o.preset, "Model preset (see `ropelab presets`)")->check(non_empty());
    auto* config = cmd->add_option("--config", o.config_path, "The model to read: an HF config.json, a GGUF file, or a safetensors checkpoint (its folder, index or file, with config.json beside it)")->check(non_empty());
    preset->excludes(config);
    add_rows_where(cmd, o.fields, is_model_field);
    if (with_format) {
        cmd->add_option("--format", o.format, "Output format")
            ->check(CLI::IsMember({"csv", "json"}))
            ->capture_default_str();
    }
}

std::map<std::string, std::string> with_implied_vectors(std::map<std::string, std::string> fields) {
    if (fields.contains("curves.vectors")) return fields;
    if (fields.contains("curves.custom_q") || fields.contains("curves.custom_k")) {
        fields["curves.vectors"] = "custom";
    } else if (fields.contains("curves.samples")) {
        fields["curves.vectors"] = "mean";
    }
    return fields;
}

void apply_schema_options(LabParams& p, const std::map<std::string, std::string>& fields) {
    for (const schema::Field& f : schema::fields()) {
        const auto it = fields.find(std::string(f.path));
        if (it == fields.end()) continue;
        try {
            schema::assign_text(p, f, it->second);
        } catch (const InputError& e) {
            throw InputError(fmt::format("{}: {}", f.flag, e.what()));
        }
    }
}

namespace {

// --layout and --partial-rotary-factor as the reader needs them for a model its family table does
// not know, and --head-dim for a file that cannot tell its head dim; each checked by the schema
// first, so a bad value is refused naming the flag.
GivenRope given_rope(const ModelOptions& o) {
    GivenRope given;
    std::map<std::string, std::string> said;
    for (const char* path : {"model.layout", "model.partial_rotary_factor", "model.head_dim"}) {
        if (const auto it = o.fields.find(path); it != o.fields.end()) said[path] = it->second;
    }
    LabParams p;
    apply_schema_options(p, said);
    if (said.contains("model.layout")) given.layout = p.model.layout;
    if (said.contains("model.partial_rotary_factor")) given.partial_rotary_factor = p.model.partial_rotary_factor;
    if (said.contains("model.head_dim")) given.head_dim = p.model.head_dim;
    return given;
}

// --layer, checked by the schema (−1 .. 100000) before the config names its own count.
int picked_layer(const ModelOptions& o) {
    const auto it = o.fields.find("layer");
    if (it == o.fields.end()) return -1;
    LabParams p;
    apply_schema_options(p, {{"layer", it->second}});
    return p.layer;
}

// --explain says what was applied: a model flag given with --config (--rope-theta 1000) replaces
// the file's rows for that field, which are listed as not applied, and is listed as used.
void say_flags(LoadedConfig& loaded, const std::map<std::string, std::string>& fields) {
    for (const schema::Field& f : schema::fields()) {
        const std::string path(f.path);
        const auto given = fields.find(path);
        if (!path.starts_with("model.") || f.flag.empty() || given == fields.end()) continue;
        const std::string key = path.substr(6);  // "rope_theta", "rope_scaling.factor"
        const std::string last = key.substr(key.rfind('.') + 1);
        std::vector<std::string> names{last};
        if (last == "partial_rotary_factor") names = {"partial_rotary_factor", "rotary_pct", "rotary_dim"};
        if (last == "rope_type") names = {"rope_type", "type"};
        const bool scaling = key.starts_with("rope_scaling.");
        const std::string flag(f.flag);
        std::string replaced;
        for (auto row = loaded.used.begin(); row != loaded.used.end();) {
            const std::string tail = row->name.substr(row->name.rfind('.') + 1);
            const bool in_block = row->name.find("rope_scaling.") != std::string::npos || row->name.find("rope_parameters.") != std::string::npos;
            const bool match = std::find(names.begin(), names.end(), tail) != names.end() &&
                               (scaling ? in_block : !in_block || tail == "rope_theta" || tail == "partial_rotary_factor");
            if (match && !row->why.starts_with(flag)) {
                loaded.ignored.push_back({row->name, fmt::format("not applied: {} {} replaces its {}", flag, given->second, row->value), true});
                if (replaced.empty()) replaced = row->name;
                row = loaded.used.erase(row);
            } else {
                ++row;
            }
        }
        const bool said = std::any_of(loaded.used.begin(), loaded.used.end(), [&](const ReadField& r) { return r.why.starts_with(flag); });
        if (!said) loaded.used.push_back({replaced.empty() ? key : replaced, given->second, ReadField::Origin::Flag, flag});
    }
}

}  // namespace

LoadedConfig resolve_loaded(const ModelOptions& o) {
    const auto layer_type_field = o.fields.find("layer_type");
    const std::string layer_type = layer_type_field == o.fields.end() ? "" : layer_type_field->second;
    const int layer = picked_layer(o);
    LoadedConfig loaded;
    if (!o.config_path.empty()) {
        loaded = models::load_model(o.config_path, layer_type, given_rope(o), layer);
        if (!o.quiet && !o.explain) {  // --explain lists them on stdout
            for (const std::string& note : loaded.notes) std::fprintf(stderr, "ropelab: note: %s: %s\n", o.config_path.c_str(), note.c_str());
        }
    } else {
        loaded = load_preset(o.preset.empty() ? "textbook" : o.preset, layer_type, layer);  // Gemma 3: sliding_attention
    }
    LabParams p;
    p.model = loaded.config;
    apply_schema_options(p, o.fields);
    try {
        schema::validate_model(p.model);
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}", model_source(o), e.what()));
    }
    loaded.config = p.model;
    if (!o.config_path.empty()) say_flags(loaded, o.fields);
    return loaded;
}

void add_compare_options(CLI::App* cmd, ModelOptions& o) {
    cmd->add_option("--compare", o.compare,
                    "A setting drawn beside the base (up to 3, repeatable): a preset, a config.json (optionally "
                    "@layer_type), or key=value overrides of the base such as rope_type=yarn,factor=8; name=… and "
                    "colour=… label it")
        ->check(non_empty())
        ->allow_extra_args(false);
    std::string names;
    for (const Comparison& c : comparisons()) names += fmt::format("{}{} ({})", names.empty() ? "" : ", ", c.name, c.title);
    cmd->add_option("--comparison", o.comparison, "A built-in comparison: " + names)->check(non_empty());
}

LabParams with_comparison_option(const ModelOptions& o, const LabParams& p) {
    if (o.comparison.empty()) return p;
    if (!o.preset.empty() || !o.config_path.empty()) {
        throw InputError(fmt::format("--comparison {} brings its own base model: leave out --preset and --config", o.comparison));
    }
    try {
        return apply_comparison(p, o.comparison);
    } catch (const InputError& e) {
        throw InputError(fmt::format("--comparison: {}", e.what()));
    }
}

LabParams with_compare_options(const ModelOptions& o, const LabParams& p) {
    if (o.compare.empty()) return p;
    return with_compared(p, o.compare, true, "--compare");  // a comparison's settings stay; --compare adds to them
}

LabParams resolve_settings(const ModelOptions& o) {
    LabParams p;
    if (o.comparison.empty()) {
        const LoadedConfig loaded = resolve_loaded(o);
        p.model = loaded.config;
        p.layer_type = loaded.layer_type;
        p.preset = model_source(o);
    } else {
        p = with_comparison_option(o, p);
    }
    // Every field given, in schema order: the model's overrides again (the same values), then the
    // curve, vector and position fields the core subcommands read from the state.
    apply_schema_options(p, with_implied_vectors(o.fields));
    p = with_compare_options(o, p);
    try {
        schema::validate(p);
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}", model_source(o), e.what()));
    }
    return p;
}

ModelConfig resolve_model(const ModelOptions& o) { return resolve_loaded(o).config; }

std::string model_source(const ModelOptions& o) {
    if (!o.config_path.empty()) return o.config_path;
    return o.preset.empty() ? "textbook" : o.preset;
}

}  // namespace ropelab
