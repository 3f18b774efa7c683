#pragma once
// The controls: the panel's widgets, the keyboard shortcuts, playback, loading configs and the
// requests views hand back. Each edits a candidate copy of the state; LabUi::apply, the one
// writer, validates the candidate against the schema and commits it or keeps the current state.
#include <vector>
#include <optional>
#include <string>

#include "lab/lab_compute.h"
#include "lab/params.h"
#include "views/views.h"

namespace ropelab::controls {

// What an animation sweeps, and setting it to a value (a factor sweep on an unscaled model uses
// linear scaling). Returns false, with s.error, when the value is refused.
enum class Sweep { Position, Distance, Theta, Factor };
// Where a sweep runs when no range is given: positions 0 .. frames − 1, distances 0 .. 64,
// θ 1e3 .. 1e6, factor 1 .. 32.
std::pair<double, double> default_sweep_range(Sweep sweep, int frames);

// An export as the panel (or the command line) describes it.
struct ExportSpec {
    std::string path = "ropelab-export.png";  // .png .gif .mp4 .csv .json or DIR/
    int view = -1;                            // −1: the whole window
    int width = 1280, height = 720;
    int frames = 60, fps = 30;
    Sweep sweep = Sweep::Position;
    std::optional<double> from, to;  // default per sweep
    bool transparent = false;
    float ui_scale = 1.0f;
    std::string lesson;  // FILE or "builtin": render the lesson's scenes instead of a sweep
    int scene = 0;       // 1-based: one scene (a slide, at its end); 0: all scenes
};

// The export panel's side of a running export (the window layer runs it between frames).
struct ExportStatus {
    bool requested = false, cancel = false, running = false;
    float progress = 0.0f;
    double eta_seconds = 0.0;
    std::string message;
};

// A session action asked for in the panel; LabUi performs it after drawing (it holds the plot
// zoom a session also carries).
struct SessionRequest {
    enum class Kind { None, Save, Load, CopyShareString, OpenShareString, OpenLesson, PresentLesson, CloseLesson } kind = Kind::None;
};

// Text being typed and the last refusal per field, kept between frames.
struct ControlsState {
    std::string config_path;
    // Of the last config loaded: its layer types (Gemma 3) and what the reader used and ignored.
    std::vector<std::string> layer_types;
    std::vector<std::string> what_was_read;
    std::string custom_q = "1,0,0,1", custom_k = "1,0,0,1";
    std::string error;       // the last refused change, shown inline until the next change
    std::string notice;      // e.g. "loaded config.json"
    double playback_carry = 0.0;  // fractional positions between frames
    std::optional<float> ui_scale_dragging;  // the UI scale slider's value while it is held
    ExportSpec export_spec;
    ExportStatus export_status;
    std::string session_path = "ropelab-session.json";
    std::string share_text;
    std::string lesson_path = "builtin";
    SessionRequest session_request;
    int compare_editing = -1;  // the compared setting whose model rows are open
};

// Keys the presenter uses, each press counted (a clicker's quick presses can come within one frame).
enum class Key { Left, Right, PageUp, PageDown, Home, End, Space, Escape, B };

// Window-level events the window layer turns into commands (it knows the key codes).
struct Commands {
    std::vector<Key> keys;  // presses and repeats this frame, in order
    bool toggle_help = false;
    bool toggle_fullscreen = false;
    std::string dropped_file;
    std::string notice;  // e.g. where an F12 screenshot went, or why it failed
};

// Draws the panel, editing the candidate `p`.
void controls_panel(LabParams& p, ControlsState& s, const LabCompute& compute, bool lesson_open);
void handle_shortcuts(LabParams& p, int pairs);
void apply_commands(LabParams& p, ControlsState& s, const Commands& c);
void apply_requests(LabParams& p, const views::Requests& r);
void advance_playback(LabParams& p, ControlsState& s, double seconds);

// Replaces the model with a preset or a config.json; on failure keeps the current model and
// returns false with the reason (naming the file, field and value) in s.error.
bool select_preset(LabParams& p, ControlsState& s, const std::string& name);
bool load_config(LabParams& p, ControlsState& s, const std::string& path, const std::string& layer_type = "");

// Applies model changes only if the result validates; otherwise records why in s.error.
bool try_set_model(LabParams& p, ControlsState& s, const ModelConfig& candidate);

bool apply_sweep(LabParams& p, ControlsState& s, Sweep sweep, double value);

}  // namespace ropelab::controls
