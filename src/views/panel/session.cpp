#include "views/panel/panel.h"

namespace ropelab::controls {

void session_section(lab::Status& s) {
    using Kind = lab::SessionRequest::Kind;
    ui::input_text("Session file", &s.session_path, ui::kMaxPathChars);
    tip("A versioned JSON file with the whole state: parameters, views, plot zoom, focus, playback");
    if (ui::button("Save session")) s.session_request.kind = Kind::Save;
    ImGui::SameLine();
    if (ui::button("Open session")) s.session_request.kind = Kind::Load;
    message_for(s, lab::MessageFrom::Session);
    if (ui::button("Copy share string")) s.session_request.kind = Kind::CopyShareString;
    tip("The same state as one line of text (base64url) on the clipboard, to paste anywhere");
    ui::input_text("Share string", &s.share_text);
    tip("Paste a share string (or session JSON) here");
    if (ui::button("Open share string")) s.session_request.kind = Kind::OpenShareString;
    message_for(s, lab::MessageFrom::ShareString);
}

}  // namespace ropelab::controls
