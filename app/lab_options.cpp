#include "lab_options.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "core/error.h"
#include "core/input_file.h"
#include "lab/schema.h"

namespace ropelab {

namespace {

bool is_lab_field(const schema::Field& f) { return !f.path.starts_with("model."); }

}  // namespace

void add_lab_options(CLI::App* cmd, LabOptions& o) {
    add_model_options(cmd, o.model, false);
    cmd->add_option("--session", o.session, "Start from a saved session: a FILE.json or a share string");
    add_schema_options(cmd, o.fields, is_lab_field);
}

std::optional<Session> load_session_option(const std::string& text) {
    if (text.empty()) return std::nullopt;
    std::vector<std::string> warnings;
    std::optional<Session> session;
    std::error_code ec;
    if (std::filesystem::exists(text, ec)) {
        const std::string json = read_input_file(text, "session");  // its errors name the file
        try {
            session = session_from_json(json, warnings);
        } catch (const InputError& e) {
            throw InputError(fmt::format("--session {}: {}", text, e.what()));
        }
    } else {
        try {
            session = session_from_share_string(text, warnings);
        } catch (const InputError& e) {
            throw InputError(fmt::format("--session: not a readable file, and not a share string: {}", e.what()));
        }
    }
    for (const std::string& w : warnings) std::fprintf(stderr, "ropelab: warning: session: %s\n", w.c_str());
    return session;
}

LabParams lab_params_from(const LabOptions& o, float default_scale, const Session* session) {
    LabParams p;
    if (session) {
        p = session->params;
    } else {
        p.ui_scale = std::clamp(default_scale, schema::kMinUiScale, schema::kMaxUiScale);
    }
    // A model source on the command line replaces the session's model.
    if (!session || !o.model.preset.empty() || !o.model.config_path.empty()) {
        ModelOptions source = o.model;
        source.fields.clear();
        p.model = resolve_model(source);
        p.preset = model_source(o.model);
    }
    apply_schema_options(p, o.model.fields);
    apply_schema_options(p, o.fields);
    schema::validate(p);
    return p;
}

std::pair<int, int> parse_size(const std::string& text) {
    int w = 0, h = 0;
    char x = 0, extra = 0;
    if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || x != 'x' || w < 1 || h < 1 || w > 8192 ||
        h > 8192) {
        throw InputError(fmt::format("--size: expected WxH with each side in 1 .. 8192 (got \"{}\")", text));
    }
    return {w, h};
}

}  // namespace ropelab
