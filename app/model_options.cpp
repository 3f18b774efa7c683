#include "model_options.h"

#include <fmt/format.h>

#include "core/config_json.h"
#include "core/error.h"
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

namespace {

bool is_model_field(const schema::Field& f) { return f.path.starts_with("model."); }

std::string option_help(const schema::Field& f) {
    return fmt::format("{} ({})", f.help, schema::range_text(f));
}

}  // namespace

void add_schema_options(CLI::App* cmd, std::map<std::string, std::string>& fields, bool (*wanted)(const schema::Field&)) {
    for (const schema::Field& f : schema::fields()) {
        if (f.flag.empty() || !wanted(f)) continue;
        const std::string path(f.path);
        if (f.kind == schema::Kind::Bool) {  // --log-distance, or --log-distance=false
            cmd->add_flag_function(std::string(f.flag), [&fields, path](std::int64_t n) { fields[path] = n > 0 ? "true" : "false"; },
                                   option_help(f));
        } else {
            cmd->add_option_function<std::string>(std::string(f.flag), [&fields, path](const std::string& v) { fields[path] = v; },
                                                  option_help(f));
        }
    }
}

void add_model_options(CLI::App* cmd, ModelOptions& o, bool with_format) {
    auto* preset = cmd->add_option("--preset", o.preset, "Model preset (see `ropelab presets`)");
    auto* config = cmd->add_option("--config", o.config_path, "HF-style config.json to load");
    preset->excludes(config);
    add_schema_options(cmd, o.fields, is_model_field);
    if (with_format) {
        cmd->add_option("--format", o.format, "Output format")
            ->check(CLI::IsMember({"csv", "json"}))
            ->capture_default_str();
    }
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

ModelConfig resolve_model(const ModelOptions& o) {
    LabParams p;
    if (!o.config_path.empty()) {
        p.model = load_config_json(o.config_path).config;
    } else {
        p.model = preset_or_throw(o.preset.empty() ? "textbook" : o.preset).config;
    }
    apply_schema_options(p, o.fields);
    schema::validate_model(p.model);
    return p.model;
}

std::string model_source(const ModelOptions& o) {
    if (!o.config_path.empty()) return o.config_path;
    return o.preset.empty() ? "textbook" : o.preset;
}

}  // namespace ropelab
