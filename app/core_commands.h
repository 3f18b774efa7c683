#pragma once
// The core's subcommands: freqs, angles, scores, invariance, decay-bound. Each prints the exact
// core's numbers (or the GPU/CPU fast paths') as CSV or JSON. Their model, vector and curve
// options are the schema's, registered by the same functions as the lab's (model_options.h).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "model_options.h"

namespace ropelab {

// Where a core command computes, and how often to time it.
struct DeviceOptions {
    std::string device = "auto";
    std::string kernel = "auto";
    int repeat = 1;
};

// The options of every core subcommand; only the chosen one's are parsed. Lives until the action
// has run (the options' callbacks write into it).
struct CoreOptions {
    ModelOptions model;
    std::optional<std::int64_t> query_position;  // scores, sinusoidal
    std::string positions;                       // invariance A:B
    std::string positions_format = "json";       // positions: json, table or csv
    DeviceOptions device;
};

// Adds the five subcommands to `app`; the one parsed sets `action` to run it.
void add_core_subcommands(CLI::App& app, CoreOptions& o, std::function<void()>& action);

}  // namespace ropelab
