#include "lab_options.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "core/error.h"
#include "core/input_file.h"
#include "state/schema.h"

namespace ropelab {

void add_lab_options(CLI::App* cmd, LabOptions& o) {
    add_model_options(cmd, o.model, false);
    add_compare_options(cmd, o.model);
    cmd->add_option("--session", o.session, "Start from a saved session: a FILE.json or a share string")->check(non_empty());
    add_vector_options(cmd, o.fields);
    add_curve_options(cmd, o.fields);
    add_display_options(cmd, o.fields);
}

int view_option_index(const std::string& text, bool all_allowed) {
    if (all_allowed && (text == "all" || text == "0")) return -1;
    try {
        return static_cast<int>(parse_view(text));
    } catch (const InputError& e) {
        throw InputError(std::string("--view: ") + e.what());
    }
}

CLI::Validator view_option_number() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            try {
                text = std::to_string(view_option_index(text, true) + 1);
            } catch (const InputError& e) {
                return std::string(e.what()).substr(std::string("--view: ").size());
            }
            return {};
        },
        fmt::format("NAME, 1-{} or all", kViewCount));
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

namespace {
// Files the options name as inputs, whether or not this run reads them (a --q-file is read only
// with --token-vectors file): no output of the run may replace them.
void register_named_inputs(const LabParams& p) {
    register_named_input(p.q_file, "vector array");
    register_named_input(p.k_file, "vector array");
    for (const std::string& custom : {p.custom_q, p.custom_k}) {
        if (custom.starts_with('@')) register_named_input(custom.substr(1), "vector");
    }
}
}  // namespace

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
        for (const char* path : {"layer_type", "layer"}) {
            if (const auto it = o.model.fields.find(path); it != o.model.fields.end()) source.fields.insert(*it);
        }
        const LoadedConfig loaded = resolve_loaded(source);
        p.model = loaded.config;
        p.layer_type = loaded.layer_type;
        p.preset = model_source(o.model);
    }
    p = with_comparison_option(o.model, p);
    apply_schema_options(p, o.model.fields);
    apply_schema_options(p, with_implied_vectors(o.fields));
    p = with_compare_options(o.model, p);
    schema::validate(p);
    register_named_inputs(p);
    return p;
}

namespace {
// One side of WxH: digits only, read as 64 bits so 4294967297 is refused rather than wrapped.
std::optional<std::int64_t> size_side(std::string_view digits) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    return v;
}
}  // namespace

std::pair<int, int> parse_size(const std::string& text) {
    const std::size_t x = text.find('x');
    const auto w = x == std::string::npos ? std::nullopt : size_side(std::string_view(text).substr(0, x));
    const auto h = x == std::string::npos ? std::nullopt : size_side(std::string_view(text).substr(x + 1));
    if (!w || !h || *w < 1 || *h < 1 || *w > 8192 || *h > 8192) {
        throw InputError(fmt::format("--size: expected WxH with each side in 1 .. 8192 (got \"{}\")", text));
    }
    return {static_cast<int>(*w), static_cast<int>(*h)};
}

}  // namespace ropelab
