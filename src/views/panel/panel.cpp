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

void message_for(const lab::Status& s, lab::MessageFrom from) {
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

void controls_panel(LabParams& p, lab::Status& s, PanelState& panel, const LabCompute& compute, const Lesson* lesson, int scene) {
    const bool lesson_open = lesson != nullptr;
    const int pairs = compute.data().freqs.pairs();
    ImGui::PushItemWidth(-ImGui::GetFontSize() * 7.5f);
    if (ui::header("Model", ImGuiTreeNodeFlags_DefaultOpen)) model_section(p, s);
    message_for(s, lab::MessageFrom::Lab);  // sessions' and lessons' show beside their buttons
    notes_section(compute);
    if (ui::header("Curves", ImGuiTreeNodeFlags_DefaultOpen)) {
        curve_section(p);
        if (!compute.error().empty()) {
            ui::message("Refused: " + compute.error() + " (showing the previous curves)", IM_COL32(255, 90, 80, 255));
        }
    }
    // After the curves: a built-in comparison sets some of them (vectors, N, the log axis).
    if (ui::header("Compare", p.compared_count > 0 ? ImGuiTreeNodeFlags_DefaultOpen : 0)) compare_section(p, s, panel);
    if (ui::header("Position and playback", ImGuiTreeNodeFlags_DefaultOpen)) position_section(p, pairs);
    if (ui::header("Images")) images_section(p, s, compute);
    if (ui::header("Attention")) attention_section(p, s, compute);
    if (ui::header("Display")) view_section(p, panel);
    if (!s.what_was_read.empty() && ui::header("What was read")) {
        for (const std::string& line : s.what_was_read) {
            ui::message(line, ImGui::GetColorU32(line.starts_with("ignored") ? ImGuiCol_TextDisabled : ImGuiCol_Text));
        }
    }
    if (ui::header("Export", s.export_status.running ? ImGuiTreeNodeFlags_DefaultOpen : 0)) export_section(s);
    if (ui::header("Session")) session_section(s);
    if (ui::header("Lesson", lesson_open ? ImGuiTreeNodeFlags_DefaultOpen : 0)) lesson_section(s, lesson, scene);
    if (ui::button("Reset")) {
        p = schema::reset(p);
        s.error.clear();
        s.notice = "reset to the textbook preset and default curves";
    }
    tip("Every model, curve, position and playback setting back to its default (display settings stay)");
    ImGui::PopItemWidth();
}

}  // namespace ropelab::controls
