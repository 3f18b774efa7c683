#pragma once
// `ropelab positions`: the (t, h, w) position id of every token of a layout, as transformers'
// get_rope_index gives them, under the chosen rule (4.x, 5.x, or the model's release).
#include <functional>

#include <CLI/CLI.hpp>

#include "core_commands.h"

namespace ropelab {

void add_positions_subcommand(CLI::App& app, CoreOptions& c, std::function<void()>& action);

}  // namespace ropelab
