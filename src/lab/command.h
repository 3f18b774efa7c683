#pragma once
// The one door into the lab: every intent of a person (or of the app acting for one) as a value.
// Views, the panel, the presenter console, the soak, scripts and exports never change the lab;
// they hand it commands, and Lab::update(seconds, input, commands) performs them between frames,
// in order, before the keys, the lesson clock and the recompute. Files (configs, sessions,
// lessons) are read by the lab when a command names them, never by a view. Each command answers
// in the lab's status (error or notice) beside the control it came from.
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/config_json.h"
#include "lab/actions.h"
#include "lab/input.h"
#include "lesson/lesson.h"
#include "state/params.h"
#include "state/session.h"

namespace ropelab::lab {

namespace cmd {

// The state itself, as a control edited a copy of it: validated against the schema and committed,
// or refused with the reason (prefixed by `control` when one is named) and the current state kept.
// `notice` is said when it is committed (a built-in comparison's title).
struct SetState {
    LabParams state;
    std::string control;
    std::string notice;
};
// The model alone (the Model rows): the focused pair follows a head that shrinks.
struct SetModel {
    ModelConfig model;
};
// A control whose edit could not even be made (a fourth compared setting): the reason is shown.
struct Refuse {
    std::string control, why;
};
// Every model, curve, position and playback setting back to its default (display settings stay).
struct Reset {};
// Back to the state before the last edit by the user (edits under half a second apart are one).
struct Undo {};
// Forward again to the state an Undo left (until the next edit, which starts a new history).
struct Redo {};

// The model from a preset, a HF config.json (read by the lab), or one layer of either.
struct SelectPreset {
    std::string name;
};
struct LoadConfig {
    std::string path;
    std::string layer_type;
    GivenRope given;
    int layer = -1;
};
struct PickLayer {
    int layer = -1;  // −1: the default layer
};
// A compared setting from a preset name or a config file (PATH@layer_type), read by the lab.
struct AddCompared {
    std::string spec;
    std::string control;  // "add llama3-8b", "add config PATH"
};
// What the command line already read, shown in the panel as if the lab had loaded it.
struct ShowLoadedConfig {
    std::string path;
    LoadedConfig loaded;
};
struct ShowPresetLayers {
    std::string name;
};

// Any file the lab opens, told apart by content as a drop is (a session, a lesson, else a
// config.json): the menu's File › Open and its recent files.
struct OpenFile {
    std::string path;
};

// Sessions: a file, the share string, or one already read (the command line, an export).
struct SaveSession {
    std::string path;
};
struct OpenSession {
    std::string path;
};
struct CopyShareString {};  // into Status::share_text; the window puts it on the clipboard
struct OpenShareString {
    std::string text;
};
struct OpenReadSession {
    Session session;
    std::string source;  // named in the notice: "opened SOURCE"
};

// Lessons: opened from a file or as read, presented (with notes: the audience window), closed.
struct OpenLesson {
    std::string path;
};
struct OpenReadLesson {
    Lesson lesson;
    bool present = false;
    std::string source;
    // A theme the user chose (--theme): presenting uses it over the lesson's own `theme`.
    std::optional<Theme> chosen_theme = std::nullopt;
};
// Presents the lesson at `path` (the open one from its current scene while `path` names it).
struct PresentLesson {
    std::string path;
    bool with_notes = false;
};
struct PresentWithNotes {};  // the open lesson, presented with the audience window
struct Present {
    bool on = true;  // false: leave presenting (the user's own scale, theme and window again)
};
// Closing a lesson with unsaved scenes keeps it for Ctrl+Z until the next change.
struct CloseLesson {
    std::string save_first;  // a path: saved there, then closed (left open if the save fails)
};
struct GoToScene {
    int scene = 0;
    double time = 0.0;
};
struct StepScene {
    int by = 1;
};
struct Reveal {};  // the scene's hidden curves shown
struct Blank {};   // the screen black, or back

// Lessons made in the lab.
struct RecordScene {
    bool animated = false;  // keyframes from the previous scene's state
    double seconds = 2.0;   // over this many seconds
};
struct MoveScene {
    int scene = 0, by = 0;
};
struct DeleteScene {
    int scene = 0;
};
struct EditScene {
    int scene = 0;
    SceneText text;
};
struct SaveLesson {
    std::string path;
};

// Exports from the panel: the window's export runner starts and cancels them and reports back.
struct StartExport {
    ExportSpec spec;
};
struct CancelExport {};
struct ExportProgress {
    ExportStatus status;
};

// What the views asked for while drawing (focus a pair, a plot's columns, its zoom).
struct ViewRequests {
    Requests requests;
};

}  // namespace cmd

using Command = std::variant<cmd::SetState, cmd::SetModel, cmd::Refuse, cmd::Reset, cmd::Undo, cmd::Redo, cmd::OpenFile,
                             cmd::SelectPreset,
                             cmd::LoadConfig, cmd::PickLayer, cmd::AddCompared, cmd::ShowLoadedConfig,
                             cmd::ShowPresetLayers, cmd::SaveSession, cmd::OpenSession, cmd::CopyShareString,
                             cmd::OpenShareString, cmd::OpenReadSession, cmd::OpenLesson, cmd::OpenReadLesson,
                             cmd::PresentLesson, cmd::PresentWithNotes, cmd::Present, cmd::CloseLesson, cmd::GoToScene,
                             cmd::StepScene, cmd::Reveal, cmd::Blank, cmd::RecordScene, cmd::MoveScene, cmd::DeleteScene,
                             cmd::EditScene, cmd::SaveLesson, cmd::StartExport, cmd::CancelExport, cmd::ExportProgress,
                             cmd::ViewRequests>;
using Commands = std::vector<Command>;

}  // namespace ropelab::lab
