#include "views/menu_bar.h"

#include <string>

#include <fmt/format.h>

#include "lesson/library.h"
#include "ui/file_dialog.h"
#include "ui/widgets.h"

namespace ropelab::views {

namespace {

// The file dialogs the menus open, by id; each is drawn every frame while open.
constexpr const char* kOpenDialog = "menu: open";
constexpr const char* kSaveSessionDialog = "menu: save session as";
constexpr const char* kPictureDialog = "menu: export picture";
constexpr const char* kDataDialog = "menu: export data";
constexpr const char* kLessonDialog = "menu: open lesson";
constexpr const char* kAboutPopup = "About ropelab";

constexpr const char* kThemeNames[] = {"Dark", "Light", "Projector"};

// The view whose data File › Export data writes: the one shown large, else the workspace's first.
int data_view(const LabParams& p) {
    if (p.focused_view >= 0) return p.focused_view;
    return static_cast<int>(workspace_views_of(p.workspace).front());
}

void file_menu(const Lab& lab, const controls::PanelState& panel, MenuChoices& out) {
    if (!ui::begin_menu("File")) return;
    const std::vector<std::string>& recent = lab.recent_files();
    if (ui::menu_item("Open…", "Ctrl+O")) {
        ui::open_file_dialog(kOpenDialog, {.title = "Open a session, lesson, config.json or model file",
                                           .extensions = {".ropelab", ".json", ".ropelesson", ".gguf", ".safetensors"},
                                           .start = lab.status().session_path,
                                           .recent = recent});
    }
    if (ui::begin_menu("Open recent", !recent.empty())) {
        for (const std::string& path : recent) {
            if (ui::menu_item(path.c_str())) out.commands.push_back(lab::cmd::OpenFile{path});
        }
        ui::end_menu();
    }
    ImGui::Separator();
    if (ui::menu_item("Save session", "Ctrl+S")) out.commands.push_back(lab::cmd::SaveSession{lab.status().session_path});
    ui::tip(("Save the lab's state to " + lab.status().session_path).c_str());
    if (ui::menu_item("Save session as…")) {
        ui::open_file_dialog(kSaveSessionDialog, {.title = "Save the session as", .mode = ui::FileDialogMode::Save,
                                                  .extensions = {".ropelab", ".json"}, .start = lab.status().session_path,
                                                  .recent = recent});
    }
    ImGui::Separator();
    const bool exporting = lab.status().export_status.running;
    if (ui::menu_item("Export picture…", nullptr, false, !exporting)) {
        ui::open_file_dialog(kPictureDialog, {.title = "Export a picture of the workspace", .mode = ui::FileDialogMode::Save,
                                              .extensions = {".png", ".svg", ".pdf"}, .start = panel.export_spec.path, .recent = {}});
    }
    ui::tip("The workspace as on screen, at the Export section's size and text scale (.png, or .svg/.pdf with text as text)");
    const std::string data_label = fmt::format("Export data of {}…", view_short_title(static_cast<View>(data_view(lab.params()))));
    if (ui::menu_item((data_label + "###export data").c_str(), nullptr, false, !exporting)) {
        ui::open_file_dialog(kDataDialog, {.title = "Export the view's data", .mode = ui::FileDialogMode::Save,
                                           .extensions = {".csv", ".json"}, .start = "ropelab-data.csv", .recent = {}});
    }
    ui::tip("The series of the view shown large, else of the workspace's first view (.csv or .json)");
#ifndef __EMSCRIPTEN__  // a page cannot close its browser tab: no Quit there
    ImGui::Separator();
    if (ui::menu_item("Quit", "Ctrl+Q")) out.quit = true;
#endif
    ui::end_menu();
}

void edit_menu(const Lab& lab, MenuChoices& out) {
    if (!ui::begin_menu("Edit")) return;
    if (ui::menu_item("Undo", "Ctrl+Z", false, lab.undo_depth() > 0)) out.commands.push_back(lab::cmd::Undo{});
    if (ui::menu_item("Redo", "Ctrl+Shift+Z", false, lab.redo_depth() > 0)) out.commands.push_back(lab::cmd::Redo{});
    ImGui::Separator();
    if (ui::menu_item("Reset")) out.commands.push_back(lab::cmd::Reset{});
    ui::tip("Every model, curve, position and playback setting back to its default (the display stays)");
    ui::end_menu();
}

void view_menu(LabParams& edited, Requests& requests) {
    if (!ui::begin_menu("Window")) return;
    for (const WorkspaceRow& row : workspace_table()) {
        const std::string keys = fmt::format("Ctrl+{}", row.key);
        if (ui::menu_item(std::string(row.title).c_str(), keys.c_str(), row.id == edited.workspace)) requests.workspace = row.id;
        ui::tip(std::string(row.story).c_str());
    }
    ImGui::Separator();
    if (ui::menu_item("Controls panel", "Tab", edited.show_controls)) edited.show_controls = !edited.show_controls;
    if (ui::begin_menu("Theme")) {
        for (int t = 0; t < static_cast<int>(std::size(kThemeNames)); ++t) {
            if (ui::menu_item(kThemeNames[t], nullptr, static_cast<int>(edited.theme) == t)) edited.theme = static_cast<Theme>(t);
        }
        ui::end_menu();
    }
    if (ui::menu_item("Fullscreen", "F11", edited.fullscreen)) edited.fullscreen = !edited.fullscreen;
    ui::end_menu();
}

void lesson_menu(const Lab& lab, const controls::PanelState& panel, MenuChoices& out) {
    if (!ui::begin_menu("Lessons")) return;
    // The library (lesson/library.h): each lesson by its title, opened by its name.
    for (const LibraryLesson& l : lesson_library()) {
        if (ui::menu_item(l.title.c_str())) out.commands.push_back(lab::cmd::OpenLesson{std::string(l.name)});
        ui::tip(fmt::format("{} ({} scenes; --lesson {})", l.summary, l.scenes, l.name).c_str());
    }
    ImGui::Separator();
    // The lesson file field names a library lesson or a file: only a file is a place to browse from.
    const bool library = find_library_lesson(panel.lesson_path) && !names_lesson_file(panel.lesson_path);
    if (ui::menu_item("Open lesson…")) {
        ui::open_file_dialog(kLessonDialog, {.title = "Open a lesson", .extensions = {".ropelesson", ".json"},
                                             .start = library ? "" : panel.lesson_path,
                                             .recent = lab.recent_files()});
    }
    if (ui::menu_item("Present")) out.commands.push_back(lab::cmd::PresentLesson{.path = panel.lesson_path, .with_notes = false});
    const std::string presented = library ? "\"" + find_library_lesson(panel.lesson_path)->title + "\"" : panel.lesson_path;
    ui::tip(("Present " + presented + " (arrows step scenes, Esc leaves)").c_str());
    if (ui::menu_item("Record scene")) {
        out.commands.push_back(lab::cmd::RecordScene{.animated = panel.record_animated, .seconds = panel.record_seconds});
    }
    ui::tip("Add the lab as it is now to the lesson as a scene (a new lesson if none is open)");
    if (ui::menu_item("Close lesson", nullptr, false, lab.has_lesson())) out.commands.push_back(lab::cmd::CloseLesson{});
    ui::end_menu();
}

void help_menu(const LabParams& p, Requests& requests, bool& about) {
    if (!ui::begin_menu("Help")) return;
    if (ui::menu_item("Keyboard shortcuts", "F1", p.show_help)) requests.show_help = !p.show_help;
    if (ui::menu_item("About ropelab")) about = true;
    ui::end_menu();
}

void about_popup(bool open) {
    if (open) ImGui::OpenPopup(kAboutPopup);
    if (!ImGui::BeginPopupModal(kAboutPopup, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted("ropelab");
    ImGui::TextUnformatted("A native lab for Rotary Position Embeddings (RoPE): the exact numbers behind \"each pair of "
                           "dimensions of a query or key is rotated by an angle proportional to its position, so q_m·k_n "
                           "depends only on m − n\", for real model settings.");
    ImGui::PopTextWrapPos();
    if (ui::button("Close##about")) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

// The dialogs the menus opened: a chosen path becomes the command it was asked for.
void finish_dialogs(const Lab& lab, const controls::PanelState& panel, MenuChoices& out) {
    if (auto path = ui::file_dialog(kOpenDialog)) out.commands.push_back(lab::cmd::OpenFile{*path});
    if (auto path = ui::file_dialog(kSaveSessionDialog)) out.commands.push_back(lab::cmd::SaveSession{*path});
    if (auto path = ui::file_dialog(kLessonDialog)) out.commands.push_back(lab::cmd::OpenLesson{*path});
    if (auto path = ui::file_dialog(kPictureDialog)) {
        lab::ExportSpec spec = panel.export_spec;  // its size, text scale and background
        spec.path = *path;
        spec.view = -1;
        out.commands.push_back(lab::cmd::StartExport{spec});
    }
    if (auto path = ui::file_dialog(kDataDialog)) {
        lab::ExportSpec spec = panel.export_spec;
        spec.path = *path;
        spec.view = data_view(lab.params());
        out.commands.push_back(lab::cmd::StartExport{spec});
    }
}

}  // namespace

MenuChoices menu_bar(const Lab& lab, const controls::PanelState& panel, LabParams& edited, Requests& requests) {
    MenuChoices out;
    bool about = false;
    if (ImGui::BeginMenuBar()) {
        file_menu(lab, panel, out);
        edit_menu(lab, out);
        view_menu(edited, requests);
        lesson_menu(lab, panel, out);
        help_menu(lab.params(), requests, about);
        ImGui::EndMenuBar();
    }
    about_popup(about);
    finish_dialogs(lab, panel, out);
    return out;
}

}  // namespace ropelab::views
