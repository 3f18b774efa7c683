#pragma once
// `ropelab gui` (and plain `ropelab`): the interactive lab. With --frames it runs a fixed number
// of frames with vsync off and a fixed time step, optionally saves the last one as a PNG and
// prints frame-time statistics — for tests, benchmarks and the README's screenshots.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "lab_options.h"

namespace ropelab {

struct GuiOptions {
    LabOptions lab;
    int frames = 0;  // 0: until the window closes
    bool stats = false;
    std::string screenshot;
    std::string size = "1280x720";
    int view = 0;  // 0: all views; 1..10: one view large
    bool paused = false;
    bool fullscreen = false;
    bool help = false;
    // Every frame changes a parameter (for the 2^20 frame-time measurement).
    bool churn = false;
    std::string lesson;   // FILE or "builtin"
    bool present = false;
    bool presenter = false;  // present with notes: an audience window and the lecturer's console
    int monitor = 0;
    // Every frame a seeded random change of parameters and views (reliability soak).
    std::optional<std::uint64_t> soak;
    std::string script;  // drive the window with these steps (script.h), then exit
    // `ropelab FILE` (a file manager's double-click): a session, a lesson or a config (lab::file_kind).
    std::string file;
};

void add_gui_options(CLI::App* cmd, GuiOptions& o);
// The positional FILE, on `gui` and on plain `ropelab`.
void add_file_argument(CLI::App* cmd, GuiOptions& o);

// Returns the exit status; throws InputError for bad option values.
int run_gui(const GuiOptions& o);

}  // namespace ropelab
