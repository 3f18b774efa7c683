#include <fmt/format.h>

#include "lesson/lesson_format.h"
#include "views/panel/panel.h"

namespace ropelab::controls {

namespace {

// A scene's row cut with "…" to the room left on its line (whole UTF-8 characters); in full on hover.
std::string fitted(const std::string& text, float room) {
    if (ImGui::CalcTextSize(text.c_str()).x <= room) return text;
    std::string line = text;
    while (!line.empty() && ImGui::CalcTextSize((line + "…").c_str()).x > room) {
        line.pop_back();
        while (!line.empty() && (static_cast<unsigned char>(line.back()) & 0xC0) == 0x80) line.pop_back();
        if (!line.empty() && static_cast<unsigned char>(line.back()) >= 0xC0) line.pop_back();
    }
    return line + "…";
}

lab::LessonEdit request(lab::LessonEdit::Kind kind, int scene = 0) {
    lab::LessonEdit edit;
    edit.kind = kind;
    edit.scene = scene;
    return edit;
}

// The open lesson's scenes: move, delete, go to; the current one's text edited in place. Every
// edit is a request the lab performs after drawing.
void scene_list(lab::Status& s, const Lesson& lesson, int current) {
    using Kind = lab::LessonEdit::Kind;
    const int n = static_cast<int>(lesson.scenes.size());
    for (int i = 0; i < n; ++i) {
        ImGui::PushID(i);
        if (ui::arrow_button("##scene up", ImGuiDir_Up, fmt::format("Move scene {} up", i + 1).c_str()) && i > 0) {
            s.lesson_edit = request(lab::LessonEdit::Kind::MoveUp, i);
        }
        tip("Move this scene one place earlier");
        ImGui::SameLine();
        if (ui::arrow_button("##scene down", ImGuiDir_Down, fmt::format("Move scene {} down", i + 1).c_str()) && i + 1 < n) {
            s.lesson_edit = request(lab::LessonEdit::Kind::MoveDown, i);
        }
        tip("Move this scene one place later");
        ImGui::SameLine();
        if (ui::button(fmt::format("Delete {}##scene", i + 1).c_str())) s.lesson_edit = request(lab::LessonEdit::Kind::Delete, i);
        tip("Delete this scene from the lesson (Save lesson writes the change)");
        ImGui::SameLine();
        const std::string full = fmt::format("{}. {}", i + 1, lesson.scenes[static_cast<std::size_t>(i)].title);
        const std::string row = fitted(full, ImGui::GetContentRegionAvail().x) + "###scene row";
        if (ui::selectable(row.c_str(), i == current)) s.lesson_edit = request(lab::LessonEdit::Kind::GoTo, i);
        tip(("Show this scene (its text is edited below): " + full).c_str());
        ImGui::PopID();
    }
    if (current < 0 || current >= n) return;
    const Scene& scene = lesson.scenes[static_cast<std::size_t>(current)];
    std::string views;
    for (int v : scene.views) views += (views.empty() ? "" : ", ") + std::to_string(v + 1);
    lab::LessonEdit edit{.kind = Kind::EditText, .scene = current, .title = scene.title, .caption = scene.caption,
                         .notes = scene.notes, .views = views, .duration = scene.duration};
    ImGui::PushID(current);
    // The lesson file's own limits (lesson_format.h): a text the loader took is never cut here.
    bool changed = ui::input_text("Scene title", &edit.title, lesson_format::kMaxTitleChars);
    tip("The current scene's title, shown above its views (Enter to keep)");
    changed |= ui::input_text("Caption", &edit.caption, lesson_format::kMaxCaptionChars);
    tip("What the room reads under the title (Enter to keep)");
    changed |= ui::input_text("Speaker notes", &edit.notes, lesson_format::kMaxNotesChars);
    tip("Only the presenter sees these (Enter to keep)");
    changed |= ui::input_text("Views", &edit.views, 64);
    tip("The views the scene shows side by side: 1 to 4 of 1-11, e.g. 1, 3 (Enter to keep)");
    changed |= ui::input_double("Duration (s)", &edit.duration);
    tip("How long the scene plays, in seconds (0 .. 600); keyframes over the whole scene follow it");
    ImGui::PopID();
    if (changed) s.lesson_edit = edit;
}

}  // namespace

void lesson_section(lab::Status& s, const Lesson* lesson, int scene) {
    using Kind = lab::SessionRequest::Kind;
    ui::input_text("Lesson file", &s.lesson_path, ui::kMaxPathChars);
    tip("A lesson file (JSON scenes), or builtin: \"RoPE from first principles\"");
    if (ui::button("Open lesson")) s.session_request.kind = Kind::OpenLesson;
    tip("Step through its scenes here, with the controls at hand; editing a control pauses the scene");
    ImGui::SameLine();
    if (ui::button("Present")) s.session_request.kind = Kind::PresentLesson;
    tip("Fullscreen, large light text, from the current scene of the open lesson (else scene 1 of the file); → and ← "
        "(or a clicker) step scenes, B blanks, hold D to draw, C clears, R reveals, Esc leaves");
    ui::same_line_if_fits("Present with notes");
    if (ui::button("Present with notes")) {
        s.session_request.kind = Kind::PresentLesson;
        s.presenter_window = true;
    }
    tip("Two windows: the lesson for the audience, and here your notes, the next scene, a scene list and the time");
    if (lesson) {
        if (ui::button("Close lesson")) s.session_request.kind = Kind::CloseLesson;
        tip("Back to the lab exactly as it was before the lesson opened (Esc)");
    }
    // Under the buttons that caused it, not after a long scene list where it would be out of sight.
    message_for(s, lab::MessageFrom::Lesson);
    // Making a lesson: the state as it is now becomes a scene.
    if (ui::button("Record scene")) s.lesson_edit = request(lab::LessonEdit::Kind::Record);
    tip("Add the lab as it is now as a scene at the end of the open lesson (or of a new one)");
    ui::checkbox("Animate##record", &s.record_animated);
    tip("Record scene with keyframes: every number that differs from the previous scene moves there over the seconds below");
    if (s.record_animated) {
        ui::input_double("Over (s)##record", &s.record_seconds);
        tip("The animation's length in seconds (0 .. 600)");
    }
    if (lesson) {
        ui::text_disabled(fmt::format("{}: {} scenes", lesson->title, lesson->scenes.size()));
        scene_list(s, *lesson, scene);
        ui::input_text("Save to", &s.lesson_save_path, ui::kMaxPathChars);
        tip("The lesson file to write (written whole or not at all; a folder is refused)");
        if (ui::button("Save lesson")) s.lesson_edit = request(lab::LessonEdit::Kind::Save);
        tip("Write the lesson as a file that --lesson and Open lesson play back");
    }
}

}  // namespace ropelab::controls
