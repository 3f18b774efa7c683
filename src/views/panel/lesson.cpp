#include "views/panel/panel.h"

namespace ropelab::controls {

void lesson_section(lab::Status& s, bool lesson_open) {
    using Kind = lab::SessionRequest::Kind;
    ui::input_text("Lesson file", &s.lesson_path, ui::kMaxPathChars);
    tip("A lesson file (JSON scenes), or builtin: \"RoPE from first principles\"");
    if (ui::button("Open lesson")) s.session_request.kind = Kind::OpenLesson;
    tip("Step through its scenes here, with the controls at hand; editing a control pauses the scene");
    ImGui::SameLine();
    if (ui::button("Present")) s.session_request.kind = Kind::PresentLesson;
    tip("Fullscreen, large light text; → and ← (or a clicker) step scenes, B blanks, Esc leaves");
    ui::same_line_if_fits("Present with notes");
    if (ui::button("Present with notes")) {
        s.session_request.kind = Kind::PresentLesson;
        s.presenter_window = true;
    }
    tip("Two windows: the lesson for the audience, and here your notes, the next scene, a scene list and the time");
    if (lesson_open) {
        if (ui::button("Close lesson")) s.session_request.kind = Kind::CloseLesson;
        tip("Back to the lab exactly as it was before the lesson opened (Esc)");
    }
    message_for(s, lab::MessageFrom::Lesson);
}

}  // namespace ropelab::controls
