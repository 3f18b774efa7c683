#include "lab_options.h"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "core/error.h"

namespace ropelab {

void add_lab_options(CLI::App* cmd, LabOptions& o) {
    add_model_options(cmd, o.model, false);
    cmd->add_option("--position", o.position, "Query position m (0 .. 2^31 − 1)")
        ->check(in_range(0, static_cast<double>(kMaxPosition)));
    cmd->add_option("--pair", o.pair, "Focused pair")->check(in_range(0, 4096));
    cmd->add_option("--max-distance", o.max_distance, "N distances (16 .. 2^24)")
        ->check(in_range(static_cast<double>(kMinDistances), static_cast<double>(kMaxDistances)));
    cmd->add_option("--ui-scale", o.ui_scale, "UI scale 1-3")->check(in_range(1, 3));
    cmd->add_option("--theme", o.theme, "dark or light")->check(CLI::IsMember({"dark", "light"}));
    cmd->add_option("--encoding", o.encoding, "rope, sinusoidal or both")
        ->check(CLI::IsMember({"rope", "sinusoidal", "both"}));
    cmd->add_option("--vectors", o.vectors, "q/k: ones, random, mean, pair")
        ->check(CLI::IsMember({"ones", "random", "mean", "pair"}));
    cmd->add_flag("--log-distance", o.log_distance, "Logarithmic distance axis in the score plot");
}

LabParams lab_params_from(const LabOptions& o, float default_scale) {
    LabParams p;
    p.model = resolve_model(o.model);
    p.preset = model_source(o.model);
    if (o.max_distance) p.max_distance = *o.max_distance;
    p.loop_to = std::min<std::int64_t>(p.max_distance, 4096);
    if (o.position) p.position = *o.position;
    if (o.pair) p.focused_pair = std::clamp(*o.pair, 0, rotary_dim(p.model) / 2 - 1);
    p.ui_scale = std::clamp(o.ui_scale.value_or(default_scale), 1.0f, 3.0f);
    p.theme = o.theme == "light" ? Theme::Light : Theme::Dark;
    p.encoding = o.encoding == "rope" ? Encoding::Rope : o.encoding == "sinusoidal" ? Encoding::Sinusoidal : Encoding::Both;
    p.vectors = o.vectors == "random" ? VectorChoice::Random
                : o.vectors == "mean" ? VectorChoice::MeanOfRandom
                : o.vectors == "pair" ? VectorChoice::FocusedPair
                                      : VectorChoice::Ones;
    p.log_distance = o.log_distance;
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
