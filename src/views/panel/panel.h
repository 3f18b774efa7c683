#pragma once
// The controls panel, one file per section. Each section edits a candidate copy of the state
// (and the lab's status: files, export, session requests); Lab::apply, the one writer,
// validates the candidate against the schema and commits it or keeps the current state.
#include <optional>
#include <span>

#include <imgui.h>

#include "lab/actions.h"
#include "lab/lab_compute.h"
#include "lesson/lesson.h"
#include "state/params.h"
#include "ui/widgets.h"

namespace ropelab::controls {

// The panel's own state between frames, none of it the lab's.
struct PanelState {
    std::optional<float> ui_scale_dragging;  // the UI scale slider's value while it is held
    int compare_editing = -1;  // the compared setting whose model rows are open
};

// Draws the panel, editing the candidate `p` (panel.cpp).
// `lesson`: the open lesson (null: none), `scene` its current scene.
void controls_panel(LabParams& p, lab::Status& s, PanelState& panel, const LabCompute& compute, const Lesson* lesson,
                    int scene = 0);

// The sections, each in the file of its name.
void model_section(LabParams& p, lab::Status& s);
void curve_section(LabParams& p);  // curves.cpp
void compare_section(LabParams& p, lab::Status& s, PanelState& panel);
void position_section(LabParams& p, int pairs);  // playback.cpp
void view_section(LabParams& p, PanelState& panel);  // display.cpp
void images_section(LabParams& p, const lab::Status& s, const LabCompute& compute);
void attention_section(LabParams& p, const lab::Status& s, const LabCompute& compute);
void export_section(lab::Status& s);
void session_section(lab::Status& s);
void lesson_section(lab::Status& s, const Lesson* lesson, int scene);

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
void message_for(const lab::Status& s, lab::MessageFrom from);

// An enum edited through a combo of names.
template <class Enum>
void enum_combo(const char* label, Enum& value, std::span<const char* const> names) {
    int index = static_cast<int>(value);
    if (ui::combo(label, &index, names)) value = static_cast<Enum>(index);
}

}  // namespace ropelab::controls
