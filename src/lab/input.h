#pragma once
// What reaches the lab in a frame, in its own words: keys as lab-level events (the window and the
// views translate GLFW and ImGui codes), dropped files, toggles; and what the views ask for while
// drawing (Requests, handed to the lab as cmd::ViewRequests at its next step). Everything else a
// person asks for is a command (lab/command.h); Lab::update takes both.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lab/attention_product.h"
#include "lab/products.h"
#include "core/plot_state.h"
#include "state/workspaces.h"

namespace ropelab::lab {

// Keys the presenter uses, each press counted (a clicker's quick presses can come within one frame).
// S (the spotlight) counts presses only, not a held key's repeats. D: the pen (held; the views
// read it), C: clear the pen's strokes, R: reveal a scene's hidden curves.
enum class Key { Left, Right, PageUp, PageDown, Home, End, Space, Escape, B, S, D, C, R,
                 Undo, Redo };  // Ctrl+Z; Ctrl+Shift+Z and Ctrl+Y (none while a text field has the keyboard)

// The lab's shortcuts while no text field has the keyboard; ShowWorkspace1 + w shows workspace w
// (Ctrl+1 …), ShowView1 + i shows view i large.
enum class Shortcut {
    PlayPause, StepForward, StepBack, AllViews, ToggleControls, Faster, Slower,
    ShowWorkspace1, ShowView1 = ShowWorkspace1 + kWorkspaceCount
};
inline Shortcut show_workspace(Workspace w) { return static_cast<Shortcut>(static_cast<int>(Shortcut::ShowWorkspace1) + static_cast<int>(w)); }
inline Shortcut show_view(int view) { return static_cast<Shortcut>(static_cast<int>(Shortcut::ShowView1) + view); }

struct Input {
    std::vector<Key> keys;  // presses and repeats this frame, in order (from the window)
    std::vector<Shortcut> shortcuts;  // in the order the lab applies them
    bool typing = false;  // a text field has the keyboard: Esc does not leave a lesson
    bool toggle_help = false;
    bool toggle_fullscreen = false;
    std::string dropped_file;
    std::string notice;  // e.g. where an F12 screenshot went, or why it failed
};

// What the views ask for while drawing (focus a pair, jump to a position), performed at the lab's
// next step.
struct Requests {
    std::optional<int> focus_pair;
    std::optional<std::int64_t> position;
    std::optional<int> focus_view;  // −1: back to the grid
    std::optional<int> tab_view;
    std::optional<Workspace> workspace;  // a workspace tab or the View menu (its views, none large)
    std::optional<bool> show_help;  // the shortcut overlay, closed by a click on it
    std::optional<int> spotlight;   // 1..10, 0: off
    // The grid view: a click on a key cell makes it the query (row, column).
    std::optional<std::pair<std::int64_t, std::int64_t>> grid_query;
    std::optional<int> single_setting;  // views 2, 4 and 11: the setting shown (0: the base)
    std::optional<std::int64_t> key_distance;  // the linked Δ, dragged on the score plot
    // The plots' zoom and pan as drawn, by session name: a session carries them.
    std::map<std::string, plot::PlotState> plots;
    // The device series each plot draws and the samples under the pointer (lab/products.h).
    std::map<std::string, SeriesColumns> columns;
    std::vector<Sample> samples;
    // The attention view, when drawn: the part of the matrix it shows (lab/attention_product.h).
    std::optional<AttentionWindow> attention;
    // The weights view is drawn: the model file's layer is read (lab/products/weights.h); its
    // pickers ask for another layer or head (clamped to the schema's rows).
    bool weights = false;
    std::optional<int> weights_layer, weights_head;
};

}  // namespace ropelab::lab
