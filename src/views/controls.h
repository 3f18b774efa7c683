#pragma once
// The controls panel: its widgets edit a candidate copy of the state (and the lab's status:
// files, export, requests); Lab::apply, the one writer, validates the candidate against the
// schema and commits it or keeps the current state.
#include <optional>

#include "lab/actions.h"
#include "lab/lab_compute.h"
#include "lab/params.h"

namespace ropelab::controls {

// The panel's own state between frames, none of it the lab's.
struct PanelState {
    std::optional<float> ui_scale_dragging;  // the UI scale slider's value while it is held
    int compare_editing = -1;  // the compared setting whose model rows are open
};

// Draws the panel, editing the candidate `p`.
void controls_panel(LabParams& p, lab::Status& s, PanelState& panel, const LabCompute& compute, bool lesson_open);

}  // namespace ropelab::controls
