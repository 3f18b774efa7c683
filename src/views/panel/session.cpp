#include "views/panel/panel.h"

namespace ropelab::controls {

void session_section(const Lab& lab, PanelState& panel, lab::Commands& out) {
    ui::input_text("Session file", &panel.session_path, ui::kMaxPathChars);
    tip("A versioned JSON file with the whole state: parameters, views, plot zoom, focus, playback");
    browse_button("open session", "Browse sessions", panel.session_path,
                  {.title = "Open a session", .mode = ui::FileDialogMode::Open, .extensions = {".ropelab", ".json"}, .start = {}, .recent = {}}, lab);
    if (const auto path = browsed("open session")) {
        panel.session_path = *path;
        out.push_back(lab::cmd::OpenSession{*path});
    }
    if (ui::button("Save session")) out.push_back(lab::cmd::SaveSession{panel.session_path});
    ImGui::SameLine();
    if (ui::button("Save session as…")) {
        ui::open_file_dialog("save session", {.title = "Save the session as", .mode = ui::FileDialogMode::Save,
                                              .extensions = {".ropelab"}, .start = panel.session_path, .recent = lab.recent_files()});
    }
    if (const auto path = ui::file_dialog("save session")) {
        panel.session_path = *path;
        out.push_back(lab::cmd::SaveSession{*path});
    }
    ImGui::SameLine();
    if (ui::button("Open session")) out.push_back(lab::cmd::OpenSession{panel.session_path});
    message_for(lab, lab::MessageFrom::Session);
    if (ui::button("Copy share string")) out.push_back(lab::cmd::CopyShareString{});
    tip("The same state as one line of text (base64url) on the clipboard, to paste anywhere");
    ui::input_text("Share string", &panel.share_text);
    tip("Paste a share string (or session JSON) here");
    if (ui::button("Open share string")) out.push_back(lab::cmd::OpenShareString{panel.share_text});
    message_for(lab, lab::MessageFrom::ShareString);
}

}  // namespace ropelab::controls
