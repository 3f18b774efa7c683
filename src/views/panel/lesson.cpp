#include <fmt/format.h>

#include "lesson/library.h"
#include "lesson/lesson_schema.h"
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

// The open lesson's scenes: move, delete, go to; the current one's text edited in place. Every
// edit is a command the lab performs between frames.
void scene_list(lab::Commands& out, const Lesson& lesson, int current) {
    const int n = static_cast<int>(lesson.scenes.size());
    for (int i = 0; i < n; ++i) {
        ImGui::PushID(i);
        if (ui::arrow_button("##scene up", ImGuiDir_Up, fmt::format("Move scene {} up", i + 1).c_str()) && i > 0) {
            out.push_back(lab::cmd::MoveScene{.scene = i, .by = -1});
        }
        tip("Move this scene one place earlier");
        ImGui::SameLine();
        if (ui::arrow_button("##scene down", ImGuiDir_Down, fmt::format("Move scene {} down", i + 1).c_str()) && i + 1 < n) {
            out.push_back(lab::cmd::MoveScene{.scene = i, .by = +1});
        }
        tip("Move this scene one place later");
        ImGui::SameLine();
        if (ui::button(fmt::format("Delete {}##scene", i + 1).c_str())) out.push_back(lab::cmd::DeleteScene{i});
        tip("Delete this scene from the lesson (Save lesson writes the change)");
        ImGui::SameLine();
        const std::string full = fmt::format("{}. {}", i + 1, lesson.scenes[static_cast<std::size_t>(i)].title);
        const std::string row = fitted(full, ImGui::GetContentRegionAvail().x) + "###scene row";
        if (ui::selectable(row.c_str(), i == current)) out.push_back(lab::cmd::GoToScene{.scene = i, .time = 0.0});
        tip(("Show this scene (its text is edited below): " + full).c_str());
        ImGui::PopID();
    }
    if (current < 0 || current >= n) return;
    const Scene& scene = lesson.scenes[static_cast<std::size_t>(current)];
    std::string views;
    for (int v : scene.views) views += (views.empty() ? "" : ", ") + std::to_string(v + 1);
    lab::SceneText edit{.title = scene.title, .caption = scene.caption, .notes = scene.notes, .views = views, .duration = scene.duration};
    ImGui::PushID(current);
    // The lesson file's own limits (lesson_schema.h): a text the loader took is never cut here.
    bool changed = ui::input_text("Scene title", &edit.title, lesson_schema::input_chars(lesson_schema::scene::title));
    tip("The current scene's title, shown above its views (Enter to keep)");
    changed |= ui::input_text("Caption", &edit.caption, lesson_schema::input_chars(lesson_schema::scene::caption));
    tip("What the room reads under the title (Enter to keep)");
    changed |= ui::input_text("Speaker notes", &edit.notes, lesson_schema::input_chars(lesson_schema::scene::notes));
    tip("Only the presenter sees these (Enter to keep)");
    changed |= ui::input_text("Views", &edit.views, lesson_schema::input_chars(lesson_schema::scene::views));
    tip(fmt::format("The views the scene shows side by side: {} to {} of {}-{}, e.g. 1, 3 (Enter to keep)", lesson_schema::scene::views.least,
                    lesson_schema::scene::views.limit, lesson_schema::scene::views.min, lesson_schema::scene::views.max).c_str());
    changed |= ui::input_double("Duration (s)", &edit.duration);
    tip(fmt::format("How long the scene plays, in seconds {}; keyframes over the whole scene follow it",
                    lesson_schema::range_text(lesson_schema::scene::duration)).c_str());
    ImGui::PopID();
    if (changed) out.push_back(lab::cmd::EditScene{.scene = current, .text = edit});
}

}  // namespace

void lesson_section(const Lab& lab, PanelState& panel, lab::Commands& out) {
    const Lesson* lesson = lab.lesson();
    ui::input_text("Lesson file", &panel.lesson_path, ui::kMaxPathChars);
    tip("A lesson file (JSON scenes), or a built-in lesson's name (the Lessons menu lists them; builtin: \"RoPE from first principles\")");
    browse_button("open lesson", "Browse lessons", names_lesson_file(panel.lesson_path) ? panel.lesson_path : panel.lesson_save_path,
                  {.title = "Open a lesson", .mode = ui::FileDialogMode::Open, .extensions = {".ropelesson", ".json"}, .start = {},
                   .recent = {}}, lab);
    if (const auto path = browsed("open lesson")) {
        panel.lesson_path = *path;
        out.push_back(lab::cmd::OpenLesson{*path});
    }
    if (ui::button("Open lesson")) out.push_back(lab::cmd::OpenLesson{panel.lesson_path});
    tip("Step through its scenes here, with the controls at hand; editing a control pauses the scene");
    ImGui::SameLine();
    if (ui::button("Present")) out.push_back(lab::cmd::PresentLesson{.path = panel.lesson_path, .with_notes = false});
    tip("Fullscreen, large text in the theme chosen (Display, --theme; else the lesson's own, else light), from the current scene of the open lesson (else scene 1 of the file); → and ← "
        "(or a clicker) step scenes, B blanks, hold D to draw, C clears, R reveals, Esc leaves");
    ui::same_line_if_fits("Present with notes");
    if (ui::button("Present with notes")) out.push_back(lab::cmd::PresentLesson{.path = panel.lesson_path, .with_notes = true});
    tip("Two windows: the lesson for the audience, and here your notes, the next scene, a scene list and the time");
    // Record scene keeps its place whether a lesson is open or not (a double-click records twice,
    // never closes), with the message it causes below it.
    if (ui::button("Record scene")) out.push_back(lab::cmd::RecordScene{.animated = panel.record_animated, .seconds = panel.record_seconds});
    tip("Add the lab as it is now as a scene at the end of the open lesson (or of a new one)");
    ImGui::SameLine();
    ui::checkbox("Animate##record", &panel.record_animated);
    tip("Record scene with keyframes: every number that differs from the previous scene moves there over the seconds below");
    if (panel.record_animated) {
        ui::input_double("Over (s)##record", &panel.record_seconds);
        tip(fmt::format("The animation's length in seconds {}", lesson_schema::range_text(lesson_schema::keyframe::duration)).c_str());
    }
    message_for(lab, lab::MessageFrom::Lesson);
    if (lesson) {
        ui::text_disabled(fmt::format("{}: {} scenes", lesson->title, lesson->scenes.size()));
        ImGui::SameLine();
        if (ui::button("Close lesson")) out.push_back(lab::cmd::CloseLesson{});
        tip("Back to the lab exactly as it was before the lesson opened (Esc); unsaved scenes: Ctrl+Z opens the lesson again");
        scene_list(out, *lesson, lab.scene());
        ui::input_text("Save to", &panel.lesson_save_path, ui::kMaxPathChars);
        tip("The lesson file to write (written whole or not at all; a folder is refused)");
        browse_button("save lesson", "Browse lesson to save", panel.lesson_save_path,
                      {.title = "Save the lesson as", .mode = ui::FileDialogMode::Save, .extensions = {".ropelesson"}, .start = {},
                       .recent = {}}, lab);
        if (const auto path = browsed("save lesson")) {
            panel.lesson_save_path = *path;
            out.push_back(lab::cmd::SaveLesson{*path});
        }
        if (ui::button("Save lesson")) out.push_back(lab::cmd::SaveLesson{panel.lesson_save_path});
        tip("Write the lesson as a file that --lesson and Open lesson play back");
    }
}

}  // namespace ropelab::controls
