#include "views/panel/panel.h"

#include <string>

#include "core/math_notes.h"
#include "state/schema.h"

namespace ropelab::controls {

namespace {

void warning_line(const std::string& text, const std::string& detail) {
    ui::message(text, kWarningColor);
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

void controls_panel(LabParams& p, lab::Status& s, PanelState& panel, const LabCompute& compute, bool lesson_open) {
    const int pairs = compute.data().freqs.pairs();
    ImGui::PushItemWidth(-ImGui::GetFontSize() * 7.5f);
    if (ui::header("Model", ImGuiTreeNodeFlags_DefaultOpen)) model_section(p, s);
    if (!s.error.empty()) {
        ui::message("Refused: " + s.error, IM_COL32(255, 90, 80, 255));
    } else if (!s.notice.empty()) {
        ui::message(s.notice, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    }
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
    if (ui::header("Display")) view_section(p, panel);
    if (!s.what_was_read.empty() && ui::header("What was read")) {
        for (const std::string& line : s.what_was_read) {
            ui::message(line, ImGui::GetColorU32(line.starts_with("ignored") ? ImGuiCol_TextDisabled : ImGuiCol_Text));
        }
    }
    if (ui::header("Export", s.export_status.running ? ImGuiTreeNodeFlags_DefaultOpen : 0)) export_section(s);
    if (ui::header("Session")) session_section(s);
    if (ui::header("Lesson", lesson_open ? ImGuiTreeNodeFlags_DefaultOpen : 0)) lesson_section(s, lesson_open);
    if (ui::button("Reset")) {
        p = schema::reset(p);
        s.error.clear();
        s.notice = "reset to the textbook preset and default curves";
    }
    tip("Every model, curve, position and playback setting back to its default (display settings stay)");
    ImGui::PopItemWidth();
}

}  // namespace ropelab::controls
