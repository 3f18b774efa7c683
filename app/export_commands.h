#pragma once
// `render` (PNG, GIF, MP4, PNG sequence; headless through EGL) and `export-data` (CSV, JSON).
#include <CLI/CLI.hpp>
#include <string>

#include "lab_options.h"

namespace ropelab {

struct RenderOptions {
    LabOptions lab;
    std::string view = "all";
    std::optional<std::string> grid;  // TxHxW: the grid view's image
    std::string size = "1280x720";
    std::string out;
    std::optional<int> frames;
    int fps = 30;
    std::optional<std::string> animate;
    std::optional<double> from, to;
    bool transparent = false;
    bool progress = false;  // machine-readable "progress DONE TOTAL ETA_S FRAMES_PER_S" lines on stdout
    std::string lesson;
    int scene = 0;
};

struct ExportDataOptions {
    LabOptions lab;
    std::string view = "scores";
    std::optional<std::string> grid;  // TxHxW: the grid view's image
    std::string out;
};

void add_render_options(CLI::App* cmd, RenderOptions& o);
void add_export_data_options(CLI::App* cmd, ExportDataOptions& o);

// Throw InputError for bad options (exit 2); return the exit status otherwise.
int run_render(const RenderOptions& o);
int run_export_data(const ExportDataOptions& o);

}  // namespace ropelab
