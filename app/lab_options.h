#pragma once
// Options that set up the lab's state, shared by `gui`, `render` and `export-data`: a session
// (file or share string), a model source, then any schema field by its flag (lab/schema.h).
#include <CLI/CLI.hpp>
#include <map>
#include <optional>
#include <string>

#include "state/params.h"
#include "state/session.h"
#include "model_options.h"

namespace ropelab {

struct LabOptions {
    ModelOptions model;
    std::string session;                          // FILE.json or a share string
    std::map<std::string, std::string> fields;    // the lab's own fields, by schema path
};

void add_lab_options(CLI::App* cmd, LabOptions& o);

// --session's session (warnings printed to stderr), if one was given. Throws InputError
// naming the file or the share string's problem.
std::optional<Session> load_session_option(const std::string& file_or_share_string);

// The state: the session (or the defaults), then --preset/--config, then each flag, validated
// against the schema (throws InputError naming the option and field). `default_scale` is the UI
// scale when neither a session nor --ui-scale gives one (the monitor's content scale).
LabParams lab_params_from(const LabOptions& o, float default_scale, const Session* session = nullptr);

// --view in every command: a view's name or number 1..12 (state/view_table.h), or "all" / 0 for
// the whole window. Returns the view's index, −1 for all; throws InputError naming --view.
int view_option_index(const std::string& text, bool all_allowed);
// gui's --view as a number (0: all views, 1..12: one view large), given as a name or a number.
CLI::Validator view_option_number();

// "WxH" within 1 .. 8192 each; throws InputError naming --size and the value.
std::pair<int, int> parse_size(const std::string& text);

}  // namespace ropelab
