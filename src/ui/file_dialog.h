#pragma once
// The file dialog behind every path field and the menu's Open / Save as: drawn in ImGui (a modal
// over the lab), listing a folder, filtered by extension, with the recent files and folders.
// It only lists folders and returns a path; it never opens, reads or writes a file (the lab does,
// when the caller hands it a command with the path).
//
// Use: ask once (a button, a menu item), then call file_dialog() with the same id every frame;
// it returns the chosen path in the frame the person confirms it, and nothing otherwise.
//     if (ui::button("…##session")) ui::open_file_dialog("session", {.title = "Open a session", …});
//     if (auto path = ui::file_dialog("session")) send(lab::cmd::OpenSession{*path});
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ropelab::ui {

enum class FileDialogMode { Open, Save };

struct FileDialogRequest {
    std::string title;                    // "Open a session", "Save the lesson as"
    FileDialogMode mode = FileDialogMode::Open;
    std::vector<std::string> extensions;  // ".ropelab", ".json"; empty: every file
    std::string start;                    // a folder, or a file whose folder to start in (and, saving, its name)
    std::vector<std::string> recent;      // recent files, newest first: listed beside the folder
};

// Shows the dialog `id` from the next frame on (replacing one already open).
void open_file_dialog(std::string_view id, FileDialogRequest request);
// Draws the dialog `id` while it is open; the chosen path (absolute) in the frame it is chosen.
std::optional<std::string> file_dialog(std::string_view id);
// Whether any file dialog is open (the lab's shortcuts wait while one is).
bool file_dialog_open();

}  // namespace ropelab::ui
