#pragma once
// The lab: its state and the one writer of it, what it computes from the state, the lesson
// clock, sessions and playback. A frame's whole step is update(dt, input, commands): the one door
// in (lab/command.h). Views read a const Lab and hand back commands. It knows no screen: the
// window, `render` and exports share it.
#include <map>
#include <optional>
#include <span>
#include <string>

#include "core/compute_device.h"
#include "core/user_dirs.h"
#include "lab/actions.h"
#include "lab/command.h"
#include "lab/input.h"
#include "lab/attention_product.h"
#include "lab/frame_costs.h"
#include "lab/frame.h"
#include "lab/grid_product.h"
#include "lab/lab_compute.h"
#include "state/params.h"
#include "lab/products.h"
#include "state/session.h"
#include "lesson/lesson.h"

namespace ropelab {

// How the lab computes: Interactive (the window) draws its first frame before computing
// anything, shows coarse previews after each change and the exact curves a slice per frame;
// AllAtOnce (exports, render) computes every curve exactly before the first frame.
enum class Pace { Interactive, AllAtOnce };

class Lab {
public:
    Lab(ComputeDevice& device, LabParams initial, Pace pace = Pace::Interactive);

    // The only way the lab changes, once per frame between frames: the commands in order (each
    // validated, refused with the reason shown and the state kept), then the window's keys and
    // toggles, then playback or the lesson clock, then the recompute they need and the products
    // the views asked for (cmd::ViewRequests).
    void update(double seconds, const lab::Input& input, std::span<const lab::Command> commands = {});

    const LabParams& params() const { return params_; }
    const LabCompute& compute() const { return compute_; }
    // The one door out: the committed state and each view's product, computed when read after
    // its inputs change (lab/frame.h).
    const lab::Frame& frame() const { return frame_; }
    const lab::GridProduct& grid() const { return grid_; }  // the grid view's scores over an image
    const lab::AttentionProduct& attention() const { return attention_; }  // the attention view's matrix
    // Its panels as textures (logits, masked, weights) and their colour scales, for the image shown.
    struct AttentionPictures {
        unsigned texture[3] = {};
        lab::AttentionColours colours;
        int serial = -1;  // AttentionProduct::serial() they were made for
    };
    const AttentionPictures& attention_pictures() const { return attention_pictures_; }
    // A plot's columns as last asked for (empty until the update after the first request), and
    // a sample asked for in the previous frame.
    const lab::Columns& columns(const std::string& plot) const;
    std::optional<double> sample(Series series, std::int64_t index) const;
    // Every plot's columns are of the current series and the bounds last asked for: a frame
    // drawn now shows exactly the lab's state.
    bool products_current() const;
    // AllAtOnce from the next change on: the soak's tour uses it so that every series buffer
    // reaches its largest size before memory is measured.
    void set_pace(Pace pace) {
        compute_.set_previews(pace == Pace::Interactive);
        all_at_once_ = pace == Pace::AllAtOnce;
    }
    // Where the last update spent its time, by product (gui --stats names the slowest frame's).
    const lab::FrameCosts& frame_costs() const { return costs_; }
    // Read-only: messages, what the last config said, files last used, the export's progress.
    const lab::Status& status() const { return status_; }

    // The whole state as a session.
    Session session() const { return Session{params_, plots_}; }
    // The plots' zoom and pan a session carries; the count changes when a session replaced them.
    const std::map<std::string, plot::PlotState>& plots() const { return plots_; }
    int plots_opened() const { return plots_opened_; }
    // The files opened or saved here (configs, sessions, lessons; only those that succeeded),
    // newest first, each once, at most RecentFiles::kKeep.
    const std::vector<std::string>& recent_files() const { return recent_.list(); }
    // Keeps recent_files() in `file` (read now, rewritten at each change): the window's lab,
    // with recent_files_path(); other labs remember in memory only.
    void keep_recent_files(const std::string& file) { recent_.keep_in(file); }

    // Lessons play beside the lab. While presenting, the scene drives the state; otherwise
    // editing any control pauses the scene and the edit stays. Closing returns the lab to
    // exactly the state it had before the lesson opened.
    bool has_lesson() const { return lesson_.has_value(); }
    const Lesson* lesson() const { return lesson_ ? &*lesson_ : nullptr; }
    bool scene_playing() const { return scene_playing_; }
    int scene() const { return scene_; }
    int scene_count() const { return lesson_ ? static_cast<int>(lesson_->scenes.size()) : 0; }
    // Scenes recorded or edited here since the lesson was opened or saved (closing asks first).
    bool lesson_unsaved() const { return lesson_ && lesson_unsaved_; }
    double scene_time() const { return scene_time_; }
    // States cmd::Undo can go back to.
    int undo_depth() const { return static_cast<int>(undo_.size()); }
    // States cmd::Redo can go forward to (emptied by the next edit).
    int redo_depth() const { return static_cast<int>(redo_.size()); }

private:
    enum class Origin { User, Lesson, Playback, Session };
    // Every command's work (lab.cpp; lessons made here in lesson_editing.cpp).
    void perform(const lab::Command& command);
    void perform_command(const lab::Command& command);
    void perform_model_command(const lab::Command& command);
    void perform_session_command(const lab::Command& command, lab::MessageFrom from);
    void perform_lesson_command(const lab::Command& command);
    void export_command(const lab::Command& command);
    void view_requests(const lab::Requests& requests);
    void undo();
    void redo();
    bool commit(const LabParams& candidate, Origin origin);
    // Validated and committed as a user's edit; the answer beside the model and the panel's top.
    bool apply(const LabParams& candidate, const std::string& control = "");
    // A candidate the lab's own actions (lab/actions.h) edited; refused: their reason shown.
    template <class Edit>
    void edit_state(Edit edit);
    void open_dropped(const std::string& path);

    bool open_session(const Session& session, const std::string& source);
    void save_session(const std::string& path);
    // `source`: the file it came from (Present then presents it from the current scene while the
    // lesson path asked for still names it).
    void open_lesson(Lesson lesson, bool present, std::string source = "");
    void present_lesson(const std::string& path, bool with_notes);
    void close_lesson();
    // Ctrl+Z after closing a lesson with unsaved scenes: it opens again as it was.
    void reopen_closed_lesson();
    void go_to_scene(int k, double t = 0.0);
    // Presenter mode: large text, the presenting theme, fullscreen; leaving it restores the user's own.
    void set_presenting(bool on);
    // The theme a presentation uses: the user's choice (--theme, the Display section's Theme this
    // run) over the lesson's own, else light (a projector's room).
    Theme presenting_theme() const;
    // R: the scene's hidden curves shown, for the rest of the scene.
    void reveal();
    void toggle_blank();

    // Lessons made in the lab (the panel's Lesson section): the current state appended as a
    // scene (to the open lesson, or a new one), with keyframes from the previous scene's state
    // over `seconds` when > 0; scenes reordered, deleted, their text edited; the lesson saved.
    // Each reports in the status beside the Lesson controls. An edited lesson plays over the
    // defaults, as `--lesson FILE` plays the saved file.
    void record_scene(const lab::cmd::RecordScene& record);
    void move_scene(int k, int by);
    void delete_scene(int k);
    void edit_scene_text(int k, const lab::SceneText& text);
    void save_lesson(const std::string& path);

    void show_scene_state();
    const LabParams& scene_base() const;
    // The lesson held, and the first state its scenes are read against.
    void keep_lesson(Lesson lesson);
    void replace_lesson(Lesson edited, const std::string& done);
    void presenter_keys(const std::vector<lab::Key>& keys);
    // ← and → with a lesson open: the previous and next scene (taken out of `shortcuts`).
    void step_scenes(std::vector<lab::Shortcut>& shortcuts);
    void refresh_products();
    // Messages: which control the current one answers (those set outside the lab's own session
    // and lesson actions answer the model and the panel's top), and clearing a notice left
    // from before the frame when the user changes something.
    void attribute_messages();
    void attribute_messages(lab::MessageFrom from);

    LabParams params_;
    lab::FrameCosts costs_;
    lab::Status status_;
    LabCompute compute_;
    lab::Frame frame_{params_, compute_};  // after the state and compute it reads
    lab::GridProduct grid_;
    lab::AttentionProduct attention_;
    std::optional<lab::AttentionWindow> attention_window_;  // asked for by the view drawn last frame
    bool weights_wanted_ = false;  // the weights view was drawn last frame
    AttentionPictures attention_pictures_;
    bool all_at_once_ = false;  // Pace::AllAtOnce: the grid is computed before update returns
    std::map<std::string, plot::PlotState> plots_;
    int plots_opened_ = 0;
    std::map<std::string, lab::SeriesColumns> wanted_columns_;  // by the plots drawn last frame
    std::map<std::string, lab::Columns> columns_;  // every plot's, kept while it is hidden
    std::vector<lab::Sample> wanted_samples_;
    std::map<lab::Sample, double> samples_;
    std::optional<Lesson> lesson_;
    int scene_ = 0;
    double scene_time_ = 0.0;
    bool scene_playing_ = true;
    bool revealed_ = false;       // R pressed in this scene
    bool spotlit_ = false;        // S pressed in this scene: the presenter's spotlight outlasts the scene's state
    bool lesson_unsaved_ = false; // edited since it was opened or saved: Esc keeps it open
    std::string lesson_source_;
    // A lesson closed with unsaved scenes, kept for Ctrl+Z until the next change.
    struct ClosedLesson {
        Lesson lesson;
        int scene = 0;
        std::string source;
        LabParams base, shown;  // the lab before it opened; what it showed when closed
    };
    std::optional<ClosedLesson> closed_unsaved_;
    LabParams lesson_base_;       // the lab as it was when the lesson opened (Close lesson returns to it)
    LabParams lesson_first_;      // what its scenes are read against (lesson_first_state)
    LabParams before_presenting_; // the user's scale, theme, fullscreen and panel
    std::optional<Theme> chosen_theme_;  // a theme the user chose this run (presenting_theme)
    std::string attributed_error_, attributed_notice_;  // the messages `status_.from` was set for
    // A notice clears at a user's edit that starts (no change for kEditPauseSeconds before it)
    // when it has shown for kNoticeSeconds.
    static constexpr double kNoticeSeconds = 1.5, kEditPauseSeconds = 0.5;
    std::string aged_notice_;
    double notice_age_ = 0.0, since_user_change_ = 1e9;
    // cmd::Undo: the states before the user's edits, the latest last (at most kUndoDepth).
    std::vector<LabParams> undo_;
    // cmd::Redo: the states Undo left, the latest last.
    std::vector<LabParams> redo_;
    static constexpr std::size_t kUndoDepth = 64;
    RecentFiles recent_;
};

}  // namespace ropelab
