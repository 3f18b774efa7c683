#pragma once
// The controls panel, one file per section. Each section edits a candidate copy of the state,
// which the lab view hands to the lab as cmd::SetState, and asks for everything else (a preset,
// a file, a session, a lesson edit, an export) as a command (lab/command.h). The lab performs
// them between frames, validated, and reads the files; the panel reads none. What its fields
// hold while being typed is its own (PanelState) and travels in the commands.
#include <optional>
#include <span>

#include <imgui.h>

#include "lab/actions.h"
#include "lab/command.h"
#include "lab/lab.h"
#include "lab/lab_compute.h"
#include "lesson/lesson.h"
#include "state/params.h"
#include "ui/file_dialog.h"
#include "ui/widgets.h"

namespace ropelab::controls {

// The panel's own state between frames, none of it the lab's: its form fields.
struct PanelState {
    std::optional<float> ui_scale_dragging;  // the UI scale slider's value while it is held
    int compare_editing = -1;  // the compared setting whose model rows are open
    std::string config_path;   // Model → Config file
    lab::ExportSpec export_spec;
    std::string session_path;  // the lab's (documents/ropelab/session.ropelab at first)
    std::string share_text;
    std::string lesson_path = "builtin";
    bool record_animated = false;  // Record scene: keyframes from the previous scene's state
    double record_seconds = 2.0;   // over this many seconds
    std::string lesson_save_path;  // the lab's default (documents/ropelab/my-lesson.ropelesson) at first
    // The lab's files as last seen: a field follows the lab when the lab's file changes (a drop,
    // a save under another name), and keeps what is typed otherwise.
    std::string seen_config_path, seen_session_path, seen_share_text, seen_lesson_path = "builtin";
};

// A "…" button beside the path field just drawn: opens the file dialog `id` at the field's path,
// with the lab's recent files (panel.cpp). `name` is what the widget log and scripts call it.
void browse_button(const char* id, const char* name, const std::string& field, ui::FileDialogRequest request, const Lab& lab);
// The dialog a browse button opened: its path, in the frame it is chosen (panel.cpp).
std::optional<std::string> browsed(const char* id);

// The fields that name the lab's files follow it when it opened or saved another (panel.cpp).
void follow_lab(PanelState& panel, const Lab& lab);

// Draws the panel, editing the candidate `p` and adding the commands asked for to `out` (panel.cpp).
void controls_panel(LabParams& p, const Lab& lab, PanelState& panel, lab::Commands& out);

// The sections, each in the file of its name.
void model_section(LabParams& p, const Lab& lab, PanelState& panel, lab::Commands& out);
void curve_section(LabParams& p);  // curves.cpp
void compare_section(LabParams& p, PanelState& panel, lab::Commands& out);
void position_section(LabParams& p, int pairs);  // playback.cpp
void view_section(LabParams& p, PanelState& panel);  // display.cpp
void images_section(LabParams& p, const Lab& lab);
void attention_section(LabParams& p, const Lab& lab);
void export_section(const Lab& lab, PanelState& panel, lab::Commands& out);
void session_section(const Lab& lab, PanelState& panel, lab::Commands& out);
void lesson_section(const Lab& lab, PanelState& panel, lab::Commands& out);

// A model's head, base, layout and scaling rows (model.cpp); compare edits its settings with them.
// Each returns true when the candidate changed.
bool geometry_rows(ModelConfig& m);
bool scaling_rows(ModelConfig& m);

using ui::tip;
}  // namespace ropelab::controls
namespace ropelab::views {
// The theme's warning amber and error red (views/common.cpp): ≥ 4.5:1 against its background.
ImU32 warning_color();
ImU32 error_color();
}  // namespace ropelab::views
namespace ropelab::controls {

// The lab's current error or notice, where it answers `from` (panel.cpp): each shows beside the
// control that caused it.
void message_for(const Lab& lab, lab::MessageFrom from);

// An enum edited through a combo of names.
template <class Enum>
void enum_combo(const char* label, Enum& value, std::span<const char* const> names) {
    int index = static_cast<int>(value);
    if (ui::combo(label, &index, names)) value = static_cast<Enum>(index);
}

}  // namespace ropelab::controls
