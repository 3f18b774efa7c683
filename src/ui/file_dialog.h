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
#include <cstdint>
#include <functional>
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

// A host with file choosers of its own (the web page: the browser's file input and downloads)
// instead of the dialog: Open calls `choose` (the chosen file comes back as a dropped file), and
// Save answers at once with the suggested name in `save_folder`, whose files the host hands on.
struct HostFiles {
    std::function<void(const std::vector<std::string>& extensions)> choose;
    std::string save_folder;
};
void use_host_files(HostFiles host);

}  // namespace ropelab::ui

namespace ropelab::ui {

// One entry of a listed folder, as the dialog shows it.
struct FolderEntry {
    std::string name;
    bool folder = false;
    std::uintmax_t bytes = 0;     // files only
    std::string modified;         // "2026-11-28 14:05", local time; empty when unknown
};

struct FolderListing {
    std::vector<FolderEntry> entries;  // folders first, then files matching the extensions; each by name
    std::string error;                 // why the folder could not be read ("" when it could)
};

// Lists `folder` once (the dialog's only disk access): its sub-folders and the files whose names
// end in one of `extensions` (any case; empty: every file), hidden ones ('.') only when asked.
// Never throws: an unreadable folder is a listing with its reason.
FolderListing list_folder(const std::string& folder, std::span<const std::string> extensions, bool show_hidden = false);

// Whether `name` ends in one of `extensions` (any case); every name matches an empty list.
bool has_extension(std::string_view name, std::span<const std::string> extensions);

}  // namespace ropelab::ui
