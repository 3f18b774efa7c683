#include "positions_command.h"

#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "core/error.h"
#include "lab/token_positions.h"
#include "output_table.h"
#include "state/schema.h"

namespace ropelab {

namespace {

std::string json_ints(const std::vector<std::int64_t>& v) {
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i) out += fmt::format("{}{}", i ? ", " : "", v[i]);
    return out + "]";
}

std::string json_bools(const std::vector<bool>& v) {
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i) out += fmt::format("{}{}", i ? ", " : "", v[i] ? "true" : "false");
    return out + "]";
}

std::string json_kinds(const TokenIds& ids) {
    std::string out = "[";
    for (std::size_t i = 0; i < ids.size(); ++i) out += fmt::format("{}\"{}\"", i ? ", " : "", to_string(ids.kind[i]));
    return out + "]";
}

void write_json(const lab::TokenPositions& tp, const LabParams& p) {
    const TokenIds& ids = tp.ids;
    std::string out = "{\n";
    out += fmt::format("  \"t\": {},\n  \"h\": {},\n  \"w\": {},\n", json_ints(ids.t), json_ints(ids.h), json_ints(ids.w));
    out += fmt::format("  \"kind\": {},\n", json_kinds(ids));
    std::vector<std::int64_t> parts(ids.part.begin(), ids.part.end());
    out += fmt::format("  \"part\": {},\n", json_ints(parts));
    out += fmt::format("  \"tokens\": {},\n", ids.size());
    out += fmt::format("  \"layout\": {},\n", json_string(p.tokens));
    out += fmt::format("  \"position_ids\": \"{}\",\n", to_string(p.model.multi_axis.position_ids));
    out += fmt::format("  \"one_dimensional\": {},\n", tp.one_d ? "true" : "false");
    // A 1-D model has one position per token (t = h = w): given once more under its own name.
    if (tp.one_d) out += fmt::format("  \"position\": {},\n", json_ints(ids.t));
    out += fmt::format("  \"rule\": \"{}\",\n", to_string(tp.rule));
    out += fmt::format("  \"other_rule\": \"{}\",\n", to_string(tp.other));
    out += fmt::format("  \"rules_differ\": {},\n", tp.differing > 0 ? "true" : "false");
    out += fmt::format("  \"differs\": {},\n", json_bools(tp.differ));
    out += fmt::format("  \"other_t\": {},\n  \"other_h\": {},\n  \"other_w\": {},\n", json_ints(tp.other_ids.t),
                       json_ints(tp.other_ids.h), json_ints(tp.other_ids.w));
    out += fmt::format("  \"overlaps\": {},\n", json_bools(tp.overlap));
    out += fmt::format("  \"overlapping\": {}\n}}\n", tp.overlapping);
    std::fputs(out.c_str(), stdout);
}

void write_rows(const lab::TokenPositions& tp, bool csv) {
    const TokenIds& ids = tp.ids;
    const auto other = std::string(to_string(tp.other));
    if (csv) {
        std::printf("token,kind,part,t,h,w,%s_t,%s_h,%s_w,differs,overlaps\n", other.c_str(), other.c_str(), other.c_str());
    } else {
        std::printf("%7s  %-12s %4s  %8s %8s %8s   %-26s %s\n", "token", "kind", "part", "t", "h", "w",
                    fmt::format("under {}", other).c_str(), "");
    }
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const auto kind = std::string(to_string(ids.kind[i]));
        if (csv) {
            std::printf("%zu,%s,%d,%lld,%lld,%lld,%lld,%lld,%lld,%d,%d\n", i, kind.c_str(), ids.part[i] + 1,
                        static_cast<long long>(ids.t[i]), static_cast<long long>(ids.h[i]), static_cast<long long>(ids.w[i]),
                        static_cast<long long>(tp.other_ids.t[i]), static_cast<long long>(tp.other_ids.h[i]),
                        static_cast<long long>(tp.other_ids.w[i]), tp.differ[i] ? 1 : 0, tp.overlap[i] ? 1 : 0);
        } else {
            const std::string under = tp.differ[i] ? fmt::format("({}, {}, {})", tp.other_ids.t[i], tp.other_ids.h[i], tp.other_ids.w[i]) : "same";
            std::printf("%7zu  %-12s %4d  %8lld %8lld %8lld   %-26s %s\n", i, kind.c_str(), ids.part[i] + 1,
                        static_cast<long long>(ids.t[i]), static_cast<long long>(ids.h[i]), static_cast<long long>(ids.w[i]),
                        under.c_str(), tp.overlap[i] ? "overlap" : "");
        }
    }
}

void run_positions(const ModelOptions& o, const std::string& format) {
    const LabParams p = resolve_settings(o);
    const lab::TokenPositions tp = lab::compute_token_positions(p.tokens, p.position_rule, p.model.multi_axis);
    if (!tp.error.empty()) throw InputError(tp.error);
    if (tp.one_d) {
        std::fprintf(stderr, "note: this model has 1-D positions (position_ids none): one position per token, t = h = w\n");
    }
    if (format == "json") {
        write_json(tp, p);
    } else {
        write_rows(tp, format == "csv");
    }
}

}  // namespace

void add_positions_subcommand(CLI::App& app, CoreOptions& c, std::function<void()>& action) {
    ModelOptions& model = c.model;
    auto* cmd = app.add_subcommand("positions",
                                   "The (t, h, w) position id of every token of a layout, as transformers' get_rope_index "
                                   "gives them (4.x or 5.x rule), and where the two rules differ");
    add_model_options(cmd, model, false);
    add_field_options(cmd, model.fields, {"images.tokens", "images.position_rule"});
    cmd->add_option("--format", c.positions_format, "Output format: json (t, h, w arrays), table or csv (a row per token)")
        ->check(CLI::IsMember({"json", "table", "csv"}))
        ->capture_default_str();
    cmd->callback([&] { action = [&] { run_positions(model, c.positions_format); }; });
}

}  // namespace ropelab
