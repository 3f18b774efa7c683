#include "views/panel/panel.h"

#include <string>

#include "core/math_notes.h"
#include "lab/messages.h"
#include "state/schema.h"

namespace ropelab::controls {

namespace {

void warning_line(const std::string& text, const std::string& detail) {
    ui::message(text, views::warning_color());
    tip(detail.c_str());
}

// Why the numbers are on the CPU, and where the math degenerates for these settings: always
// visible, since a flat or noisy curve without its reason looks like a bug.
void notes_section(const LabCompute& compute) {
    const std::string& fallback = compute.fallback_reason();
    if (!fallback.empty()) {
        warning_line("Computing on the CPU: no GPU compute shaders here", fallback);
    }
    for (const MathNote& note : compute.notes()) {
        if (note.degenerate) {
            warning_line(note.summary, note.detail);
        } else {
            ui::message(note.summary, ImGui::GetColorU32(ImGuiCol_TextDisabled));
            tip(note.detail.c_str());
        }
    }
}

}  // namespace

void message_for(const Lab& lab, lab::MessageFrom from) {
    const auto& s = lab.status();
    if (s.from != from || (s.error.empty() && s.notice.empty())) return;
    const std::string text = s.error.empty() ? s.notice : "Refused: " + lab::in_own_words(s.error);
    ui::message(text, s.error.empty() ? ImGui::GetColorU32(ImGuiCol_TextDisabled) : views::error_color());
    // A new message below the panel's visible part (the user clicked a button at its bottom):
    // the panel scrolls to show it, once; one in view leaves the panel where it is.
    static std::string shown;
    if (text == shown) return;
    shown = text;
    const float top = ImGui::GetWindowPos().y, bottom = top + ImGui::GetWindowHeight();
    if (ImGui::GetItemRectMax().y > bottom || ImGui::GetItemRectMin().y < top) ImGui::SetScrollHereY(1.0f);
}

void browse_button(const char* id, const char* name, const std::string& field, ui::FileDialogRequest request, const Lab& lab) {
    ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
    ImGui::PushID(id);
    const bool pressed = ImGui::Button("…");
    ImGui::PopID();
    ui::log().record(name, "button");
    tip("Choose the file in a dialog");
    if (!pressed) return;
    request.start = field;
    request.recent = lab.recent_files();
    ui::open_file_dialog(id, std::move(request));
}

std::optional<std::string> browsed(const char* id) { return ui::file_dialog(id); }

void follow_lab(PanelState& panel, const Lab& lab) {
    const auto follow = [](std::string& field, std::string& seen, const std::string& lab_file) {
        if (lab_file == seen) return;
        seen = lab_file;
        field = lab_file;
    };
    follow(panel.config_path, panel.seen_config_path, lab.status().config_path);
    follow(panel.session_path, panel.seen_session_path, lab.status().session_path);
    follow(panel.share_text, panel.seen_share_text, lab.status().share_text);
    follow(panel.lesson_path, panel.seen_lesson_path, lab.status().lesson_path);
    if (panel.lesson_save_path.empty()) panel.lesson_save_path = lab.status().lesson_save_path;
}

void controls_panel(LabParams& p, const Lab& lab, PanelState& panel, lab::Commands& out) {
    const LabCompute& compute = lab.compute();
    const bool lesson_open = lab.has_lesson();
    const int pairs = compute.data().freqs.pairs();
    ImGui::PushItemWidth(-ImGui::GetFontSize() * 7.5f);
    if (ui::header("Model", ImGuiTreeNodeFlags_DefaultOpen)) model_section(p, lab, panel, out);
    message_for(lab, lab::MessageFrom::Lab);  // sessions' and lessons' show beside their buttons
    notes_section(compute);
    if (ui::header("Curves", ImGuiTreeNodeFlags_DefaultOpen)) {
        curve_section(p);
        if (!compute.error().empty()) {
            ui::message("Refused: " + compute.error() + " (showing the previous curves)", IM_COL32(255, 90, 80, 255));
        }
    }
    // After the curves: a built-in comparison sets some of them (vectors, N, the log axis).
    if (ui::header("Compare", p.compared_count > 0 ? ImGuiTreeNodeFlags_DefaultOpen : 0)) compare_section(p, panel, out);
    if (ui::header("Position and playback", ImGuiTreeNodeFlags_DefaultOpen)) position_section(p, pairs);
    if (ui::header("Images")) images_section(p, lab);
    if (ui::header("Attention")) attention_section(p, lab);
    if (ui::header("Display")) view_section(p, panel);
    const std::vector<std::string>& read = lab.status().what_was_read;
    if (!read.empty() && ui::header("What was read")) {
        for (const std::string& line : read) {
            ui::message(line, ImGui::GetColorU32(line.starts_with("ignored") ? ImGuiCol_TextDisabled : ImGuiCol_Text));
        }
    }
    if (ui::header("Export", lab.status().export_status.running ? ImGuiTreeNodeFlags_DefaultOpen : 0)) export_section(lab, panel, out);
    if (ui::header("Session")) session_section(lab, panel, out);
    if (ui::header("Lesson", lesson_open ? ImGuiTreeNodeFlags_DefaultOpen : 0)) lesson_section(lab, panel, out);
    if (ui::button("Reset")) out.push_back(lab::cmd::Reset{});
    tip("Every model, curve, position and playback setting back to its default (display settings stay)");
    ImGui::PopItemWidth();
}

}  // namespace ropelab::controls
