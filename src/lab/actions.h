#pragma once
// Edits of a candidate state that the lab's commands, the command line and exports share:
// presets, config files, sweeps, playback, shortcuts and the views' requests. Each edits a copy;
// the lab (performing a command, lab/command.h) validates it against the schema and commits it
// or keeps the current state. Refusals are recorded in Status::error, the text the panel shows.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/config_json.h"
#include "core/model_config.h"
#include "core/user_dirs.h"
#include "lab/input.h"
#include "state/params.h"

namespace ropelab::lab {

// What an animation sweeps, and setting it to a value (a factor sweep on an unscaled model uses
// linear scaling). Returns false, with s.error, when the value is refused.
enum class Sweep { Position, Distance, Theta, Factor };
// Where a sweep runs when no range is given: positions 0 .. frames − 1, distances 0 .. 64,
// θ 1e3 .. 1e6, factor 1 .. 32.
std::pair<double, double> default_sweep_range(Sweep sweep, int frames);

// An export as the panel (or the command line) describes it.
struct ExportSpec {
    // .png .gif .mp4 .csv .json or DIR/; by default in the pictures folder's ropelab/ (user_dirs.h)
    std::string path = default_save_path(UserFolder::Pictures, "ropelab-export.png");
    int view = -1;                            // −1: the whole window
    int width = 1280, height = 720;
    int frames = 60, fps = 30;
    Sweep sweep = Sweep::Position;
    std::optional<double> from, to;  // default per sweep
    bool transparent = false;
    float ui_scale = 1.0f;
    std::string lesson;  // FILE or "builtin": render the lesson's scenes instead of a sweep
    int scene = 0;       // 1-based: one scene (a slide, at its end); 0: all scenes
    std::optional<Theme> chosen_theme = std::nullopt;  // --theme given: the lesson is rendered in it, over its own
};

// A running export as the window's export runner reports it (cmd::ExportProgress).
struct ExportStatus {
    bool running = false;
    double eta_seconds = 0.0;
    int done_frames = 0, total_frames = 0;  // as the renderer reports them (passes counted)
    float progress() const { return total_frames > 0 ? static_cast<float>(done_frames) / static_cast<float>(total_frames) : 0.0f; }
    double frames_per_second = 0.0;
    std::string message;
    bool operator==(const ExportStatus&) const = default;
};

// A scene's text as the Lesson panel edits it (cmd::EditScene).
struct SceneText {
    std::string title, caption, notes;
    std::string views;  // "1, 3" (1-based)
    double duration = 4.0;
};

// The control a message answers: the panel shows it beside that control (and the window's status
// line shows it too). Lab: the model, a preset, a config, any refused edit (the panel's top).
enum class MessageFrom { Lab, Session, ShareString, Lesson };

// The lab's state beside its parameters, read-only outside the lab (Lab::status()): what the last
// config said, the last refusal and notice, playback's fraction, the export asked for and its
// progress, and the files last used. What the panel's fields hold while being typed is the
// panel's own (views::controls::PanelState), handed over in commands (lab/command.h).
struct Status {
    std::string config_path;  // the config file the model was last read from (the layer picker rereads it)
    // The file at config_path names a model the family table does not know: the panel offers to
    // read it with the layout and partial rotary factor set above (the window's --layout and
    // --partial-rotary-factor). `config_given` is what the file was read with, for its layer types.
    bool config_needs_rope = false;
    GivenRope config_given;
    // Of the last config loaded: its layer types (Gemma 3) and what the reader used and ignored.
    std::vector<std::string> layer_types;
    std::vector<std::string> what_was_read;
    // Its per-layer rules, one label per layer ("3: full_attention (NoPE)"; empty when its layers do
    // not differ), the layer shown when none is picked, and whether they came from a preset (the
    // picker then reloads the preset, else the file at config_path).
    std::vector<std::string> layer_labels;
    std::vector<std::string> layer_previews;  // the same, short: "layer 3: NoPE"
    int default_layer = -1;
    bool layers_from_preset = false;
    std::string error;       // the last refused change, shown inline until the next change
    std::string notice;      // e.g. "loaded config.json"; both clear at the next change the user makes
    MessageFrom from = MessageFrom::Lab;  // which control the error or notice answers
    double playback_carry = 0.0;  // fractional positions between frames
    // Exports: the last one asked for, how many were asked for and cancelled (the runner performs
    // each once), and the runner's last report.
    ExportSpec export_spec;
    int exports_asked = 0, cancels_asked = 0;
    ExportStatus export_status;
    // The session file last opened or saved; by default in the documents folder's ropelab/.
    std::string session_path = default_save_path(UserFolder::Documents, "session.ropelab");
    std::string share_text;                        // the share string last copied
    std::string lesson_path = "builtin";           // the lesson file last opened or saved
    // Where a lesson made here is saved unless the user names another file.
    std::string lesson_save_path = default_save_path(UserFolder::Documents, "my-lesson.ropelesson");
    int audience_asked = 0;  // Present with notes, counted: the app opens the audience window
};

// Replaces the model with a preset or a config.json; on failure keeps the current model and
// returns false with the reason (naming the file, field and value) in s.error.
bool select_preset(LabParams& p, Status& s, const std::string& name);
bool load_config(LabParams& p, Status& s, const std::string& path, const std::string& layer_type = "",
                 const GivenRope& given = {}, int layer = -1);
// The layer picker: reloads the preset or config shown with layer `layer` (its setting and its
// LayerAttention); −1 goes back to the default layer.
bool pick_layer(LabParams& p, Status& s, int layer);
// What the panel shows of a loaded config: its layer types, per-layer labels and what was read.
void show_loaded(Status& s, const LoadedConfig& loaded);
// A preset's per-layer rules (Llama 4, Gemma 3) offered in the picker.
void show_preset_layers(Status& s, const std::string& name);

// Applies model changes only if the result validates; otherwise records why in s.error.
bool try_set_model(LabParams& p, Status& s, const ModelConfig& candidate);

bool apply_sweep(LabParams& p, Status& s, Sweep sweep, double value);

// What a file the user hands over (a double-click, `ropelab FILE`, a drop on the window) is, told
// by its content, never by its name alone: a JSON object with "ropelab_session" is a session, one
// with "scenes" a lesson; a *.ropelesson without them is still a lesson (so its reader names what
// is missing); anything else is a model's config.json. Throws InputError naming the file when it
// cannot be read or is not JSON.
enum class FileKind { Session, Lesson, Config };
FileKind file_kind(const std::string& path);

// The window's toggles and a notice (a dropped file is opened by the lab itself: file_kind).
void apply_window_input(LabParams& p, Status& s, const Input& input);
void apply_shortcuts(LabParams& p, const std::vector<Shortcut>& shortcuts, int pairs);
void apply_requests(LabParams& p, const Requests& r);
// The grid view's query row and column and its key frame, clamped into the image: a size change
// takes them along rather than being refused.
LabParams with_query_in_image(LabParams p);
void advance_playback(LabParams& p, Status& s, double seconds);

}  // namespace ropelab::lab
