#pragma once
// Options that set up the lab's parameters, shared by `gui`, `render` and `export-data`.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "lab/params.h"
#include "model_options.h"

namespace ropelab {

struct LabOptions {
    ModelOptions model;
    std::optional<std::int64_t> position;
    std::optional<int> pair;
    std::optional<std::int64_t> max_distance;
    std::optional<float> ui_scale;
    std::string theme = "dark";
    std::string encoding = "both";
    std::string vectors = "ones";
    bool log_distance = false;
};

void add_lab_options(CLI::App* cmd, LabOptions& o);

// Validated parameters (throws InputError naming the option or field). `default_scale` is used
// when --ui-scale is absent (the monitor's content scale in the window).
LabParams lab_params_from(const LabOptions& o, float default_scale);

// "WxH" within 1 .. 8192 each; throws InputError naming --size and the value.
std::pair<int, int> parse_size(const std::string& text);

}  // namespace ropelab
