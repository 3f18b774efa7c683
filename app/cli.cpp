#include "cli.h"

#include <cstdio>
#include <functional>
#include <new>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/model_families.h"
#include "core/presets.h"
#include "lesson/library.h"
#include "models/gguf_rope.h"
#include "state/schema.h"
#include "core_commands.h"
#include "positions_command.h"
#include "export_commands.h"
#include "gui_command.h"
#include "version.h"
#include "model_options.h"
#include "output_table.h"

namespace ropelab {

namespace {

// Pads to a width in characters, not bytes: titles hold θ and ×.
std::string pad_right(const std::string& text, std::size_t width) {
    std::size_t chars = 0;
    for (unsigned char c : text) chars += (c & 0xC0) != 0x80;
    return text + std::string(chars < width ? width - chars : 0, ' ');
}

void run_presets() {
    for (const Preset& p : presets()) {
        const ModelConfig& c = p.config;
        // Multi-axis presets add their rule: its sections, or RoPE-Mixed's angle.
        std::string axes;
        if (c.multi_axis.rule != AxisRule::None) {
            axes = " axes=" + std::string(to_string(c.multi_axis.rule));
            for (std::size_t i = 0; i < c.multi_axis.sections.size(); ++i) axes += fmt::format("{}{:g}", i ? "/" : " ", c.multi_axis.sections[i]);
            if (c.multi_axis.rule == AxisRule::Mixed) axes += fmt::format(" angle={:g}", c.multi_axis.mixed_angle);
        }
        std::printf("%s %s d=%d rot=%d theta=%g %s %s%s\n", pad_right(p.note.name, 16).c_str(),
                    pad_right(p.note.title, 46).c_str(), c.head_dim, rotary_dim(c), c.rope_theta,
                    std::string(to_string(c.rope_scaling.type)).c_str(),
                    std::string(to_string(c.layout)).c_str(), axes.c_str());
    }
}

// The lesson library: one line per lesson (name, scenes, title, summary), or a JSON list.
void run_lessons(bool json) {
    if (json) {
        std::string out = "[";
        for (const LibraryLesson& l : lesson_library()) {
            out += fmt::format("{}\n  {{\"name\": {}, \"scenes\": {}, \"title\": {}, \"summary\": {}}}", out.size() > 1 ? "," : "",
                               json_string(std::string(l.name)), l.scenes, json_string(l.title), json_string(std::string(l.summary)));
        }
        std::printf("%s\n]\n", out.c_str());
        return;
    }
    std::printf("%s %s %s %s\n", pad_right("name", 28).c_str(), pad_right("scenes", 6).c_str(), pad_right("title", 34).c_str(), "summary");
    for (const LibraryLesson& l : lesson_library()) {
        std::printf("%s %s %s %s\n", pad_right(std::string(l.name), 28).c_str(), pad_right(std::to_string(l.scenes), 6).c_str(),
                    pad_right(l.title, 34).c_str(), std::string(l.summary).c_str());
    }
    std::printf("(--lesson NAME opens one; %s is also %s)\n", std::string(kBuiltinAlias).c_str(), std::string(lesson_library().front().name).c_str());
}

// The lab state's schema: every field with its session path, flag, lesson name and range.
void run_fields() {
    std::printf("%s %s %s %s\n", pad_right("session path", 52).c_str(), pad_right("flag", 36).c_str(),
                pad_right("lesson", 24).c_str(), "valid values");
    for (const schema::Field& f : schema::fields()) {
        if (f.scope != schema::Scope::Session) continue;
        std::printf("%s %s %s %s%s\n", pad_right(std::string(f.path), 52).c_str(),
                    pad_right(f.flag.empty() ? "-" : std::string(f.flag), 36).c_str(),
                    pad_right(f.lesson.empty() ? "-" : std::string(f.lesson), 24).c_str(), schema::range_text(f).c_str(),
                    f.optional ? " (or none)" : "");
    }
}

}  // namespace

int run_cli(int argc, char** argv) {
    CLI::App app{"ropelab: a lab for Rotary Position Embeddings (RoPE).\n"
                 "Every subcommand prints the exact core's numbers as CSV (default) or JSON.",
                 "ropelab"};
    app.require_subcommand(0, 1);
    app.set_version_flag("--version", [] { return version_line(); }, "Print the version and the git commit, then exit");

    CoreOptions core;
    std::function<void()> action;
    add_core_subcommands(app, core, action);
    add_positions_subcommand(app, core, action);

    app.add_subcommand("fields", "List the lab's fields: session path, flag, lesson name and valid range")->callback([&] {
        action = [] { run_fields(); };
    });
    app.add_subcommand("presets", "List the built-in model presets")->callback([&] {
        action = [] { run_presets(); };
    });
    std::string families_format = "text";
    bool families_gguf = false;
    auto* families = app.add_subcommand("families", "List the model families ropelab reads: layout, rotary dim, θ, per-layer rule, source");
    families->callback([&] {
        action = [&] {
            const bool markdown = families_format == "markdown";
            std::fputs((families_gguf ? gguf::architectures_table(markdown) : families_table(markdown)).c_str(), stdout);
        };
    });
    families->add_option("--format", families_format, "Output format")->check(CLI::IsMember({"text", "markdown"}))->capture_default_str();
    families->add_flag("--gguf", families_gguf, "The GGUF architectures instead: llama.cpp's pair order and RoPE rules for each");

    std::string lessons_format = "text";
    app.add_subcommand("lessons", "List the built-in lessons (--lesson NAME opens one): name, scenes, title, summary")
        ->callback([&] { action = [&] { run_lessons(lessons_format == "json"); }; })
        ->add_option("--format", lessons_format, "Output format")
        ->check(CLI::IsMember({"text", "json"}))
        ->capture_default_str();

    RenderOptions render_opts;
    auto* render = app.add_subcommand("render", "Render views headless to PNG, GIF, MP4 or a PNG sequence");
    add_render_options(render, render_opts);
    ExportDataOptions data_opts;
    auto* export_data = app.add_subcommand("export-data", "Write a view's series as CSV or JSON");
    add_export_data_options(export_data, data_opts);

    GuiOptions gui_opts;
    int gui_status = 0;
    render->callback([&] { action = [&] { gui_status = run_render(render_opts); }; });
    export_data->callback([&] { action = [&] { gui_status = run_export_data(data_opts); }; });
    auto* gui = app.add_subcommand("gui", "Open the interactive lab (the default without a subcommand)");
    add_gui_options(gui, gui_opts);
    // Plain `ropelab --lesson builtin --present` opens the lab too.
    app.add_option("--lesson", gui_opts.lesson, "Open a lesson in the lab: FILE.json or a built-in lesson's NAME (ropelab lessons)")->check(non_empty());
    app.add_flag("--present", gui_opts.present, "With --lesson: presenter mode");
    add_file_argument(&app, gui_opts);  // `ropelab FILE`: what a double-click runs
    app.add_option("--monitor", gui_opts.monitor, "Monitor for presenting (0: primary)")->transform(in_range(0, 16));
    gui->callback([&] { action = [&] { gui_status = run_gui(gui_opts); }; });

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "ropelab: error: %s\nRun `ropelab --help` for usage.\n", e.what());
        return 2;
    }

    if (!action) action = [&] { gui_status = run_gui(gui_opts); };  // plain `ropelab` opens the lab
    remove_partials_on_signal();  // Ctrl-C or SIGTERM at any point leaves no file of this run behind
    try {
        action();
    } catch (const InputError& e) {
        std::fprintf(stderr, "ropelab: error: %s\n", e.what());
        return 2;
    } catch (const OutOfMemory& e) {  // what could not be made, in its own words
        std::fprintf(stderr, "ropelab: error: %s\n", e.what());
        return 2;
    } catch (const std::bad_alloc&) {  // a limit set by the user (ulimit -v) or a full machine
        std::fprintf(stderr, "ropelab: error: out of memory; choose smaller settings (fewer distances, a smaller head)\n");
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ropelab: internal error: %s\n", e.what());
        return 1;
    }
    return gui_status;
}

}  // namespace ropelab
