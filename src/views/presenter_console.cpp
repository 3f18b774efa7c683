#include "views/presenter_console.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "ui/widgets.h"

namespace ropelab::views {

std::string elapsed_text(double seconds) {
    const auto s = static_cast<long long>(std::floor(std::max(0.0, seconds)));
    if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
    return fmt::format("{:02}:{:02}", s / 60, s % 60);
}

namespace {

const Scene& scene_at(const Lab& lab, int k) { return lab.lesson()->scenes[static_cast<std::size_t>(k)]; }

// The audience's frame, as large as the box allows at its own aspect ratio. It takes the
// pointer's presses (so a drag across it moves nothing else in this window); where it lies is
// handed back, for the aids the pointer steers over it.
void audience_picture(ImTextureID audience, ImVec2 audience_size, ImVec2 box, bool blank, ConsoleCommands& out) {
    const float aspect = audience_size.y > 0 ? audience_size.x / audience_size.y : 16.0f / 9.0f;
    const ImVec2 size = box.x / aspect <= box.y ? ImVec2(box.x, box.x / aspect) : ImVec2(box.y * aspect, box.y);
    const ImVec2 at = ImGui::GetCursorScreenPos(), end(at.x + size.x, at.y + size.y);
    ImGui::InvisibleButton("##audience picture", ImVec2(std::max(size.x, 1.0f), std::max(size.y, 1.0f)),
                           ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
    ui::log().record(blank ? "audience: blank" : "audience", "picture", fmt::format("{}x{}", audience_size.x, audience_size.y));
    out.picture_min = at;
    out.picture_max = end;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddImage(audience, at, end, ImVec2(0, 1), ImVec2(1, 0));  // GL's rows run bottom-up
    dl->AddRect(at, end, ImGui::GetColorU32(ImGuiCol_Border));
}

// The current scene in words: its title and caption, then the notes, larger, for the lecturer.
void current_scene(const Lab& lab) {
    const Scene& scene = scene_at(lab, lab.scene());
    ImGui::TextDisabled("Scene %d/%d%s", lab.scene() + 1, lab.scene_count(), lab.scene_playing() ? "" : " (paused)");
    ui::log().record(fmt::format("now {}/{}", lab.scene() + 1, lab.scene_count()), "message", scene.title);
    ui::text(scene.title);
    ui::text_disabled(scene.caption);
    ImGui::Separator();
    ImGui::BeginChild("notes##console", ImVec2(0, 0), false);
    ImGui::SetWindowFontScale(1.25f);  // read at a glance, from a step away
    if (scene.notes.empty()) {
        ui::text_disabled("No notes for this scene.");
    } else {
        ui::text(scene.notes);
    }
    ui::log().record("notes", "message", scene.notes);
    ImGui::SetWindowFontScale(1.0f);
    ImGui::EndChild();
}

// Buttons for the presenter's keys, for a mouse: each is the key it names.
void key_buttons(const Lab& lab, ConsoleCommands& out) {
    using lab::Key;
    if (ui::button("← Previous##console")) out.keys.push_back(Key::Left);
    ui::tip("The previous scene (← or PageUp)");
    ImGui::SameLine();
    if (ui::button("Next →##console")) out.keys.push_back(Key::Right);
    ui::tip("The next scene (→, PageDown or Space on a clicker)");
    ui::same_line_if_fits("Resume scene");
    if (ui::button(lab.scene_playing() ? "Pause scene##console" : "Resume scene##console")) out.keys.push_back(Key::Space);
    ui::tip("Pause or resume this scene's animation (Space)");
    ui::same_line_if_fits("Unblank");
    if (ui::button(lab.params().blank ? "Unblank##console" : "Blank##console")) out.keys.push_back(Key::B);
    ui::tip("Blank the audience's screen, or show it again (B)");
    ui::same_line_if_fits("End presenting");
    if (ui::button("End presenting##console")) out.keys.push_back(Key::Escape);
    ui::tip("Close the audience window and return to the lab, the lesson still open (Esc)");
}

// The elapsed time (from the first scene shown, pauses left out), its Pause and Reset, the
// wall clock. The log's value is the seconds, finer than the minutes and seconds shown.
void clock_line(const ConsoleTime& time, ConsoleCommands& out) {
    const std::string elapsed = "Elapsed " + elapsed_text(time.elapsed_s) + (time.paused ? " (paused)" : "");
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(elapsed.c_str());
    ui::log().record(elapsed, "message", fmt::format("{:.3f}", time.elapsed_s));
    const char* pause = time.paused ? "Resume##clock" : "Pause##clock";
    ui::same_line_if_fits(time.paused ? "Resume" : "Pause");
    if (ui::button(pause)) out.toggle_clock = true;
    ui::tip(time.paused ? "Let the elapsed time run again" : "Stop the elapsed time (a break, questions)");
    ui::same_line_if_fits("Reset");
    if (ui::button("Reset##clock")) out.reset_clock = true;
    ui::tip("Start the elapsed time again from 00:00");
    const std::string wall = "Clock " + time.wall;
    ui::same_line_if_fits(wall);
    ImGui::TextUnformatted(wall.c_str());
}

void next_scene(const Lab& lab) {
    if (lab.scene() + 1 >= lab.scene_count()) {
        ui::text_disabled("Next: the end of the lesson");
        ui::log().record("next", "message", "");
        return;
    }
    const Scene& next = scene_at(lab, lab.scene() + 1);
    ui::text("Next: " + next.title);
    ui::text_disabled(next.caption);
    ui::log().record("next", "message", next.title);
}

// Every scene by number and title; a click goes there.
void scene_list(const Lab& lab, ConsoleCommands& out) {
    ImGui::BeginChild("scenes##console", ImVec2(0, 0), true);
    // A long title wraps onto a second line (a selectable's own label cannot), at UI scale 2 too.
    const float wrap = ImGui::GetContentRegionAvail().x;
    for (int k = 0; k < lab.scene_count(); ++k) {
        const std::string text = fmt::format("{}. {}", k + 1, scene_at(lab, k).title);
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float height = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap).y;
        const bool selected = k == lab.scene();
        if (ImGui::Selectable(fmt::format("##scene{}", k).c_str(), selected, 0, ImVec2(0, height))) out.scene = k;
        ui::log().record(text, "button", selected ? "true" : "false");
        ImGui::GetWindowDrawList()->AddText(ImGui::GetFont(), ImGui::GetFontSize(), at, ImGui::GetColorU32(ImGuiCol_Text),
                                            text.c_str(), nullptr, wrap);
        ui::tip("Go to this scene");
        // A scene reached by keys scrolls into view, once: the lecturer may scroll away again.
        int& shown = *ImGui::GetStateStorage()->GetIntRef(ImGui::GetID("scene in view"), -1);
        if (selected && shown != k) {
            ImGui::SetScrollHereY(0.5f);
            shown = k;
        }
    }
    ImGui::EndChild();
}

}  // namespace

ConsoleCommands presenter_console(const Lab& lab, ImTextureID audience, ImVec2 audience_size, const ConsoleTime& time) {
    ConsoleCommands out;
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->WorkPos);
    ImGui::SetNextWindowSize(viewport->WorkSize);
    ImGui::Begin("presenter console", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoBringToFrontOnFocus);
    if (!lab.lesson()) {  // between the lesson closing and the audience window closing
        ui::text_disabled("No lesson open.");
        ImGui::End();
        return out;
    }
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const float left = std::floor((avail.x - gap) * 0.58f);
    // Left: what the room sees, then what to say.
    ImGui::BeginChild("current##console", ImVec2(left, 0), false);
    audience_picture(audience, audience_size, ImVec2(left, avail.y * 0.5f), lab.params().blank, out);
    current_scene(lab);
    ImGui::EndChild();
    ImGui::SameLine();
    // Right: time, the keys as buttons, what comes next, and every scene.
    ImGui::BeginChild("side##console", ImVec2(0, 0), false);
    clock_line(time, out);
    key_buttons(lab, out);
    ImGui::Separator();
    next_scene(lab);
    ImGui::Separator();
    scene_list(lab, out);
    ImGui::EndChild();
    ImGui::End();
    return out;
}

}  // namespace ropelab::views
