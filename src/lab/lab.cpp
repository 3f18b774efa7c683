#include "lab/lab.h"

#include <algorithm>
#include <new>
#include <optional>
#include <type_traits>

#include <fmt/format.h>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/input_file.h"
#include "lab/messages.h"
#include "lesson/lesson.h"
#include "lesson/library.h"
#include "state/compare.h"
#include "state/schema.h"

namespace ropelab {

Lab::Lab(ComputeDevice& device, LabParams initial, Pace pace)
    : params_(std::move(initial)), compute_(device) {
    if (pace == Pace::AllAtOnce) {
        compute_.set_previews(false);
        compute_.update(params_);
        all_at_once_ = true;
    }
}

void Lab::update(double seconds, const lab::Input& input, std::span<const lab::Command> commands) {
    costs_.clear();
    if (!compute_.ready()) {
        compute_.update(params_);  // the data the keys below read
        costs_ = compute_.frame_costs();
    }
    attribute_messages();
    if (status_.notice != aged_notice_) {
        aged_notice_ = status_.notice;
        notice_age_ = 0.0;
    } else {
        notice_age_ += seconds;
    }
    since_user_change_ += seconds;
    for (const lab::Command& command : commands) perform(command);
    if (!input.dropped_file.empty()) open_dropped(input.dropped_file);
    if (!input.typing && !params_.presenting) {  // Ctrl+Z and its redo: the lab's, not a field's (nor a slide's)
        for (lab::Key key : input.keys) {
            if (key == lab::Key::Undo) undo();
            if (key == lab::Key::Redo) redo();
        }
    }
    // With a lesson open, ← and → step the scene (as the ▶ tooltip and the status line say), not
    // the position: taken here, before the state the other shortcuts edit is read.
    std::vector<lab::Shortcut> shortcuts = input.shortcuts;
    if (lesson_ && !params_.presenting && !input.typing) step_scenes(shortcuts);
    LabParams next = params_;
    lab::apply_window_input(next, status_, input);
    const bool escape = std::find(input.keys.begin(), input.keys.end(), lab::Key::Escape) != input.keys.end();
    const bool r_pressed = std::find(input.keys.begin(), input.keys.end(), lab::Key::R) != input.keys.end();
    if (lesson_ && params_.presenting) {
        presenter_keys(input.keys);
    } else if (lesson_ && escape && !input.typing && !lesson_unsaved_) {
        close_lesson();
    } else {
        // Esc leaves large views as ever; it does not throw away scenes recorded here.
        if (lesson_ && escape && !input.typing) status_.notice = "the lesson has unsaved scenes: Save lesson, or Close lesson to drop them";
        if (!input.typing) lab::apply_shortcuts(next, shortcuts, compute_.data().freqs.pairs());
        commit(next, Origin::User);
        if (lesson_ && r_pressed && !input.typing) reveal();  // in the lab too: predict, then reveal
    }
    if (lesson_) {
        if (scene_playing_) {
            scene_time_ += seconds;
            show_scene_state();
        }
    } else {
        next = params_;
        lab::advance_playback(next, status_, seconds);
        commit(next, Origin::Playback);
    }
    {
        lab::FrameCosts whole;
        {
            lab::TimedPart timed(whole, "score series");
            compute_.update(params_);
        }
        // Its named parts, and the rest as the score series' own (slices begun, focus refreshed).
        const lab::FrameCosts& parts = compute_.frame_costs();
        for (const lab::FrameCosts::Part& part : parts.parts) costs_.add(part.product, part.ms);
        costs_.add("score series", std::max(0.0, whole.total_ms() - parts.total_ms()));
    }
    {
        lab::TimedPart timed(costs_, "image grid");
        grid_.update(params_, compute_, all_at_once_);
    }
    // Only while the attention view is drawn: a hidden view costs no work.
    if (attention_window_) {
        lab::TimedPart timed(costs_, "attention");
        attention_.update(params_, setting_model(params_, lab::attention_setting(params_)), *attention_window_, all_at_once_);
        const lab::AttentionImage& image = attention_.image();
        if (attention_.serial() != attention_pictures_.serial && image.rows > 0) {
            attention_pictures_.serial = attention_.serial();
            attention_pictures_.colours = lab::fitted_colours(image);
            for (int panel = 0; panel < 3; ++panel) {
                const std::vector<std::uint8_t> rgba = lab::panel_rgba(image, attention_pictures_.colours, static_cast<lab::AttentionPanel>(panel));
                attention_pictures_.texture[panel] = compute_.device().image_texture(panel, image.cols, image.rows, rgba);
            }
        }
    }
    // The same for the weights view: a model file's layer is read only while it is drawn.
    if (weights_wanted_ && compute_.ready()) {
        lab::TimedPart timed(costs_, "weights");
        frame_.weights_product().update(params_, compute_.data().freqs, all_at_once_);
    }
    {
        lab::TimedPart timed(costs_, "plot columns");
        refresh_products();
    }
    // A render or export waits for the workers: one that ran out of memory fails it (the CLI's
    // "out of memory", exit 2) rather than drawing a picture with a hole. The window says it in
    // the view and goes on.
    if (all_at_once_ && grid_.current() && !grid_.error().empty()) throw OutOfMemory(grid_.error());
    if (all_at_once_ && attention_window_ && attention_.image().out_of_memory) throw OutOfMemory(attention_.image().error);
}

void Lab::refresh_products() {
    for (const auto& [plot, wanted] : wanted_columns_) {
        lab::Columns& c = columns_[plot];
        if (c.version == compute_.series_version() && c.series == wanted) continue;
        for (auto& columns : c.columns) columns.clear();
        for (const auto& [s, bounds] : wanted) c.columns[static_cast<int>(s)] = compute_.device().decimate(s, bounds);
        c.series = wanted;
        c.version = compute_.series_version();
    }
    samples_.clear();
    for (const lab::Sample& s : wanted_samples_) samples_[s] = compute_.device().series_value(s.series, s.index);
}

const lab::Columns& Lab::columns(const std::string& plot) const {
    static const lab::Columns none;
    const auto it = columns_.find(plot);
    return it == columns_.end() ? none : it->second;
}

std::optional<double> Lab::sample(Series series, std::int64_t index) const {
    const auto it = samples_.find({series, index});
    return it == samples_.end() ? std::nullopt : std::optional<double>(it->second);
}

bool Lab::products_current() const {
    for (const auto& [plot, wanted] : wanted_columns_) {
        const lab::Columns& c = columns(plot);
        if (c.version != compute_.series_version() || c.series != wanted) return false;
    }
    return (!attention_window_ || attention_.current()) && (!weights_wanted_ || frame_.weights().current());
}

void Lab::view_requests(const lab::Requests& requests) {
    for (const auto& [name, plot] : requests.plots) plots_[name] = plot;
    wanted_columns_ = requests.columns;  // only the plots drawn: a hidden plot costs no device work
    wanted_samples_ = requests.samples;
    attention_window_ = requests.attention;
    weights_wanted_ = requests.weights;
    LabParams next = params_;
    lab::apply_requests(next, requests);
    spotlit_ = spotlit_ || (lesson_ && requests.spotlight);
    commit(next, Origin::User);
}

bool Lab::commit(const LabParams& requested, Origin origin) {
    // An image that shrinks takes the query and key frame along rather than being refused.
    const LabParams candidate = lab::with_query_in_image(requested);
    if (candidate == params_) return true;
    try {
        schema::validate(candidate);
    } catch (const InputError& e) {
        status_.error = e.what();  // the current state stays
        return false;
    }
    if (origin == Origin::User) {
        // A new edit (not the next step of a drag) can be undone.
        if (undo_.empty() || since_user_change_ > kEditPauseSeconds) {
            undo_.push_back(params_);
            if (undo_.size() > kUndoDepth) undo_.erase(undo_.begin());
        }
        redo_.clear();  // a new edit: the undone states are no longer ahead of this one
        status_.error.clear();
        // A notice ("opened …", "closed the lesson …") is stale once the user starts another
        // edit a while after it: not one set with this change ("loaded …"), nor during the drag
        // that caused it ("scene paused …").
        if (status_.notice == aged_notice_ && notice_age_ > kNoticeSeconds && since_user_change_ > kEditPauseSeconds) {
            status_.notice.clear();
        }
        since_user_change_ = 0.0;
        closed_unsaved_.reset();  // Ctrl+Z now undoes this change, not the close
        if (candidate.theme != params_.theme) chosen_theme_ = candidate.theme;  // the Display section's Theme
        if (lesson_ && !params_.presenting && scene_playing_) {
            scene_playing_ = false;  // the person at the controls wins: the scene stops driving
            status_.notice = "scene paused: your change stays (→ next scene, Close lesson or Esc to leave)";
        }
    }
    params_ = candidate;
    return true;
}

bool Lab::apply(const LabParams& candidate, const std::string& control) {
    attribute_messages();  // the model rows' and presets' actions set theirs before applying
    const bool committed = commit(candidate, Origin::User);
    if (!committed && !control.empty()) status_.error = control + ": " + status_.error;
    attribute_messages();
    return committed;
}

template <class Edit>
void Lab::edit_state(Edit edit) {
    LabParams next = params_;
    if (edit(next)) {
        apply(next);
    } else {
        attribute_messages();  // the action's refusal, beside the model
    }
}

void Lab::undo() {
    attribute_messages();
    if (closed_unsaved_ && !lesson_) {
        reopen_closed_lesson();
        return;
    }
    if (undo_.empty()) {
        status_.notice = "nothing to undo";
    } else {
        const LabParams before = undo_.back();
        undo_.pop_back();
        const LabParams now = params_;
        if (commit(before, Origin::Session)) {
            redo_.push_back(now);
            status_.notice = "undid the last change (Ctrl+Shift+Z redoes it)";
        }
    }
    attribute_messages(lab::MessageFrom::Lab);
}

void Lab::redo() {
    attribute_messages();
    if (redo_.empty()) {
        status_.notice = "nothing to redo";
    } else {
        const LabParams after = redo_.back();
        redo_.pop_back();
        const LabParams now = params_;
        if (commit(after, Origin::Session)) {
            undo_.push_back(now);
            if (undo_.size() > kUndoDepth) undo_.erase(undo_.begin());
            status_.notice = "redid the change";
        }
    }
    attribute_messages(lab::MessageFrom::Lab);
}

void Lab::attribute_messages() {
    if (status_.error != attributed_error_ || status_.notice != attributed_notice_) attribute_messages(lab::MessageFrom::Lab);
}

void Lab::attribute_messages(lab::MessageFrom from) {
    status_.error = lab::in_own_words(status_.error);
    status_.from = from;
    attributed_error_ = status_.error;
    attributed_notice_ = status_.notice;
}

void Lab::open_lesson(Lesson lesson, bool present, std::string source) {
    if (lesson_) close_lesson();
    lesson_base_ = params_;
    keep_lesson(std::move(lesson));
    lesson_unsaved_ = false;
    lesson_source_ = std::move(source);
    if (present) set_presenting(true);
    go_to_scene(0);
}

void Lab::close_lesson() {
    if (!lesson_) return;
    if (params_.presenting) set_presenting(false);
    const int unsaved = lesson_unsaved_ ? scene_count() : 0;
    closed_unsaved_.reset();
    if (unsaved) closed_unsaved_ = ClosedLesson{.lesson = *lesson_, .scene = scene_, .source = lesson_source_, .base = lesson_base_, .shown = params_};
    lesson_.reset();
    commit(lesson_base_, Origin::Session);
    status_.error.clear();
    status_.notice = unsaved ? fmt::format("closed the lesson and its {} unsaved scenes: Ctrl+Z opens it again", unsaved)
                             : "closed the lesson: the lab is as it was before";
    attribute_messages(lab::MessageFrom::Lesson);
}

void Lab::reopen_closed_lesson() {
    ClosedLesson closed = std::move(*closed_unsaved_);
    closed_unsaved_.reset();
    keep_lesson(std::move(closed.lesson));
    lesson_base_ = closed.base;
    lesson_source_ = closed.source;
    lesson_unsaved_ = true;
    scene_ = std::clamp(closed.scene, 0, scene_count() - 1);
    scene_time_ = 0.0;
    scene_playing_ = false;  // as it was left: the lab shows what it showed
    revealed_ = false;
    commit(closed.shown, Origin::Session);
    status_.error.clear();
    status_.notice = fmt::format("opened the closed lesson again ({} unsaved scenes)", scene_count());
    attribute_messages(lab::MessageFrom::Lesson);
}

void Lab::go_to_scene(int k, double t) {
    if (!lesson_) return;
    scene_ = std::clamp(k, 0, scene_count() - 1);
    scene_time_ = t;
    scene_playing_ = true;
    revealed_ = false;  // a new scene asks its question again
    spotlit_ = false;
    show_scene_state();
}

void Lab::reveal() {
    if (params_.hidden_views.empty()) return;
    revealed_ = true;
    LabParams next = params_;
    next.hidden_views.clear();
    commit(next, Origin::Lesson);
}

// A lesson plays over the defaults and its own first state (lesson.h's scene_base), never over
// the lab it opened in: the same scenes wherever it is opened, as `--lesson FILE` plays them.
const LabParams& Lab::scene_base() const { return ropelab::scene_base(*lesson_, scene_, lesson_first_); }

void Lab::keep_lesson(Lesson lesson) {
    lesson_first_ = lesson_first_state(lesson);  // checked when it was read: scene 1's set is taken
    lesson_ = std::move(lesson);
}

// The scene's state at its current time, over the lesson's first state; the presentation
// (scale, theme, fullscreen, presenting) and the other display settings stay as they are.
void Lab::show_scene_state() {
    const Scene& scene = lesson_->scenes[static_cast<std::size_t>(scene_)];
    LabParams state;
    try {
        state = lesson_state(*lesson_, scene_, std::min(scene_time_, scene.duration), scene_base());
    } catch (const InputError& e) {
        status_.error = fmt::format("scene {} (\"{}\"): {}", scene_ + 1, scene.title, e.what());
        scene_playing_ = false;
        return;
    }
    for (const schema::Field& f : schema::fields()) {
        if (!f.reset) f.set(state, f.get(params_));  // display settings are the viewer's
    }
    state.scene_views = scene.views;
    if (scene.workspace) state.workspace = *scene.workspace;  // a scene's workspace, over the viewer's
    state.hidden_views = revealed_ ? std::vector<int>{} : scene.hide;
    if (spotlit_) state.spotlight = params_.spotlight;
    state.playing = false;  // the lesson's clock drives positions, not playback
    commit(state, Origin::Lesson);
}

void Lab::set_presenting(bool on) {
    if (on == params_.presenting) return;
    LabParams next = params_;
    next.presenting = on;
    next.blank = false;
    if (on) {  // for a projector: large text, the light theme, the whole screen
        before_presenting_ = params_;
        next.show_controls = false;
        next.ui_scale = std::max(next.ui_scale, 2.0f);
        next.theme = presenting_theme();
        next.fullscreen = true;
    } else {  // the user's own presentation again
        next.show_controls = before_presenting_.show_controls;
        next.ui_scale = before_presenting_.ui_scale;
        next.theme = before_presenting_.theme;
        next.fullscreen = before_presenting_.fullscreen;
    }
    commit(next, Origin::Lesson);
}

Theme Lab::presenting_theme() const {
    if (chosen_theme_) return *chosen_theme_;
    if (lesson_ && lesson_->theme) return *lesson_->theme;
    return Theme::Light;
}

void Lab::toggle_blank() {
    LabParams next = params_;
    next.blank = !next.blank;
    commit(next, Origin::Lesson);
}

void Lab::step_scenes(std::vector<lab::Shortcut>& shortcuts) {
    using lab::Shortcut;
    for (Shortcut s : shortcuts) {
        if (s == Shortcut::StepForward) go_to_scene(scene_ + 1);
        if (s == Shortcut::StepBack) go_to_scene(scene_ - 1);
    }
    std::erase_if(shortcuts, [](Shortcut s) { return s == Shortcut::StepForward || s == Shortcut::StepBack; });
}

void Lab::presenter_keys(const std::vector<lab::Key>& keys) {
    using lab::Key;
    for (Key key : keys) {  // every press counts: a clicker's quick presses can share a frame
        switch (key) {
            case Key::Right:
            case Key::PageDown: go_to_scene(scene_ + 1); break;
            case Key::Left:
            case Key::PageUp: go_to_scene(scene_ - 1); break;
            case Key::Home: go_to_scene(0); break;
            case Key::End: go_to_scene(scene_count() - 1); break;
            case Key::Space: scene_playing_ = !scene_playing_; break;
            case Key::Escape: set_presenting(false); return;
            case Key::S:
            case Key::D:
            case Key::C: break;  // the spotlight and the pen are the views' (presenter aids)
            case Key::R: reveal(); break;
            case Key::B: toggle_blank(); break;
            case Key::Undo:
            case Key::Redo: break;  // the scene drives the state while presenting
        }
    }
}

bool Lab::open_session(const Session& session, const std::string& source) {
    LabParams next = session.params;
    for (const schema::Field& f : schema::fields()) {
        if (f.scope == schema::Scope::Transient) f.set(next, f.get(params_));  // not part of a session
    }
    next.scene_views.clear();
    next.hidden_views.clear();
    if (!commit(next, Origin::Session)) return false;
    lesson_.reset();  // the session replaces the lesson's state
    for (const auto& [name, plot] : session.plots) plots_[name] = plot;
    ++plots_opened_;
    status_.error.clear();
    status_.notice = "opened " + source;
    return true;
}

void Lab::save_session(const std::string& path) {
    std::string error;
    if (write_file_atomically(path, session_to_json(session()), error, "session")) {
        status_.session_path = path;
        status_.notice = "saved " + path;
    } else {
        status_.error = error;
    }
}

void Lab::present_lesson(const std::string& path, bool with_notes) {
    // Present from here: the open lesson, at its current scene, while the lesson file asked for
    // names it (or it was made here and has no file yet).
    if (lesson_ && (lesson_source_.empty() || lesson_source_ == path)) {
        set_presenting(true);
        go_to_scene(scene_);
        status_.notice = fmt::format("presenting from scene {}", scene_ + 1);
    } else {
        Lesson lesson = load_lesson(path);
        std::string notice = "opened lesson " + path;
        for (const std::string& w : lesson.warnings) notice += "\n" + w;
        open_lesson(std::move(lesson), true, path);
        status_.lesson_path = path;
        status_.notice = notice;  // after open_lesson: closing the previous one says so
    }
    if (with_notes) ++status_.audience_asked;
}

// A file dropped on the window opens as what it is (file_kind); sessions and lessons answer as
// the panel's Open buttons do.
void Lab::open_dropped(const std::string& path) {
    lab::FileKind kind = lab::FileKind::Config;
    try {
        kind = lab::file_kind(path);
    } catch (const InputError&) {
        // Unreadable or not JSON: the config reader says why, as it did before drops took sessions.
    }
    switch (kind) {
        case lab::FileKind::Session: perform(lab::cmd::OpenSession{path}); break;
        case lab::FileKind::Lesson: perform(lab::cmd::OpenLesson{path}); break;
        case lab::FileKind::Config: perform(lab::cmd::LoadConfig{.path = path, .layer_type = "", .given = {}, .layer = -1}); break;
    }
}

namespace {

template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};
// C++20 deduces this for aggregates; clang 14 (the sanitizer build's compiler) does not yet.
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

template <class T>
constexpr bool is_any_of(const lab::Command& c) {
    return std::holds_alternative<T>(c);
}

// The document file a command opens or saves: a config, a session or a lesson (not the built-in one).
std::optional<std::string> document_file(const lab::Command& command) {
    using namespace lab::cmd;
    const auto path = Overloaded{
        [](const LoadConfig& c) { return std::optional(c.path); },
        [](const OpenSession& c) { return std::optional(c.path); },
        [](const SaveSession& c) { return std::optional(c.path); },
        [](const OpenLesson& c) { return std::optional(c.path); },
        [](const PresentLesson& c) { return std::optional(c.path); },
        [](const SaveLesson& c) { return std::optional(c.path); },
        [](const auto&) { return std::optional<std::string>(); },
    };
    std::optional<std::string> file = std::visit(path, command);
    // A library lesson's name (lesson/library.h) is no file.
    const bool library = file && find_library_lesson(*file) && !names_lesson_file(*file);
    return file && !file->empty() && !library ? file : std::nullopt;
}

}  // namespace

// A file command that succeeded (no refusal) puts its file first among the recent files. A save
// to a default path (user_dirs.h) makes its ropelab/ folder, and never replaces a file there
// that this run did not open or save: it takes the next free name (session-2.ropelab).
void Lab::perform(const lab::Command& command) {
    using namespace lab::cmd;
    lab::Command adjusted = command;
    const auto to_default = [&](std::string& path, const std::string& default_path) {
        if (path != default_path) return;
        make_default_folder_for(path);
        if (!recent_.added_this_run(path)) path = free_file_name(path);
    };
    if (auto* save = std::get_if<SaveSession>(&adjusted)) to_default(save->path, lab::Status{}.session_path);
    if (auto* save = std::get_if<SaveLesson>(&adjusted)) to_default(save->path, lab::Status{}.lesson_save_path);
    if (auto* start = std::get_if<StartExport>(&adjusted)) make_default_folder_for(start->spec.path);
    const std::optional<std::string> file = document_file(adjusted);
    if (file) status_.error.clear();  // its own answer decides
    perform_command(adjusted);
    if (file && status_.error.empty()) recent_.add(*file);
}

void Lab::perform_command(const lab::Command& command) {
    using namespace lab::cmd;
    using From = lab::MessageFrom;
    if (is_any_of<SaveSession>(command) || is_any_of<OpenSession>(command)) return perform_session_command(command, From::Session);
    if (is_any_of<CopyShareString>(command) || is_any_of<OpenShareString>(command)) {
        return perform_session_command(command, From::ShareString);
    }
    if (is_any_of<OpenLesson>(command) || is_any_of<PresentLesson>(command) || is_any_of<CloseLesson>(command) ||
        is_any_of<RecordScene>(command) || is_any_of<MoveScene>(command) || is_any_of<DeleteScene>(command) ||
        is_any_of<EditScene>(command) || is_any_of<SaveLesson>(command)) {
        return perform_session_command(command, From::Lesson);
    }
    if (is_any_of<StartExport>(command) || is_any_of<CancelExport>(command) || is_any_of<ExportProgress>(command)) {
        return export_command(command);
    }
    if (is_any_of<OpenReadSession>(command) || is_any_of<OpenReadLesson>(command) || is_any_of<PresentWithNotes>(command) ||
        is_any_of<Present>(command) || is_any_of<GoToScene>(command) || is_any_of<StepScene>(command) ||
        is_any_of<Reveal>(command) || is_any_of<Blank>(command)) {
        return perform_lesson_command(command);
    }
    perform_model_command(command);
}

// The state, the model and the messages about them (beside the model, the panel's top).
void Lab::perform_model_command(const lab::Command& command) {
    using namespace lab::cmd;
    std::visit(Overloaded{
                   [&](const SetState& c) {
                       if (apply(c.state, c.control) && !c.notice.empty()) status_.notice = c.notice;
                   },
                   [&](const SetModel& c) { edit_state([&](LabParams& p) { return lab::try_set_model(p, status_, c.model); }); },
                   [&](const Refuse& c) {
                       status_.error = c.control.empty() ? c.why : c.control + ": " + c.why;
                       attribute_messages(lab::MessageFrom::Lab);
                   },
                   [&](const Reset&) {
                       apply(schema::reset(params_));
                       status_.error.clear();
                       status_.notice = "reset to the textbook preset and default curves";
                   },
                   [&](const Undo&) { undo(); },
                   [&](const Redo&) { redo(); },
                   [&](const OpenFile& c) { open_dropped(c.path); },
                   [&](const SelectPreset& c) { edit_state([&](LabParams& p) { return lab::select_preset(p, status_, c.name); }); },
                   [&](const LoadConfig& c) {
                       edit_state([&](LabParams& p) { return lab::load_config(p, status_, c.path, c.layer_type, c.given, c.layer); });
                   },
                   [&](const PickLayer& c) { edit_state([&](LabParams& p) { return lab::pick_layer(p, status_, c.layer); }); },
                   [&](const AddCompared& c) {
                       LabParams next = params_;
                       try {
                           add_compared(next, parse_compare_spec(c.spec, next));  // a config's file is read here
                       } catch (const InputError& e) {
                           status_.error = c.control + ": " + e.what();
                           attribute_messages(lab::MessageFrom::Lab);
                           return;
                       }
                       apply(next, c.control);
                   },
                   [&](const ShowLoadedConfig& c) {
                       status_.config_path = c.path;
                       lab::show_loaded(status_, c.loaded);
                       status_.notice = "loaded " + c.path;
                       for (const std::string& note : c.loaded.notes) status_.notice += "\n" + note;
                   },
                   [&](const ShowPresetLayers& c) { lab::show_preset_layers(status_, c.name); },
                   [&](const ViewRequests& c) { view_requests(c.requests); },
                   [&](const auto&) {},  // the others have their own performers
               },
               command);
}

// Sessions, the share string and the Lesson panel's actions: the answer shows beside the control
// that asked, and an older message goes.
void Lab::perform_session_command(const lab::Command& command, lab::MessageFrom from) {
    using namespace lab::cmd;
    status_.error.clear();
    status_.notice.clear();
    std::vector<std::string> warnings;
    try {
        std::visit(Overloaded{
                       [&](const SaveSession& c) { save_session(c.path); },
                       [&](const OpenSession& c) {
                           if (open_session(session_from_json(read_input_file(c.path, "session"), warnings), c.path)) {
                               status_.session_path = c.path;
                           }
                       },
                       [&](const CopyShareString&) {
                           status_.share_text = share_string(session());  // the window copies it to the clipboard
                           status_.notice = "share string copied to the clipboard";
                       },
                       [&](const OpenShareString& c) {
                           status_.share_text = c.text;
                           open_session(session_from_share_string(c.text, warnings), "the share string");
                       },
                       [&](const OpenLesson& c) {
                           Lesson lesson = load_lesson(c.path);
                           std::string notice = "opened lesson " + c.path;
                           for (const std::string& w : lesson.warnings) notice += "\n" + w;
                           open_lesson(std::move(lesson), false, c.path);
                           status_.lesson_path = c.path;
                           status_.notice = notice;  // after open_lesson: closing the previous one says so
                       },
                       [&](const PresentLesson& c) { present_lesson(c.path, c.with_notes); },
                       [&](const CloseLesson& c) {
                           if (!c.save_first.empty()) save_lesson(c.save_first);
                           if (status_.error.empty()) close_lesson();  // a failed save keeps the scenes open
                       },
                       [&](const RecordScene& c) { record_scene(c); },
                       [&](const MoveScene& c) { move_scene(c.scene, c.by); },
                       [&](const DeleteScene& c) { delete_scene(c.scene); },
                       [&](const EditScene& c) { edit_scene_text(c.scene, c.text); },
                       [&](const SaveLesson& c) { save_lesson(c.path); },
                       [&](const auto&) {},
                   },
                   command);
    } catch (const InputError& e) {
        status_.error = e.what();  // the current state stays
    }
    if (status_.error.empty()) {
        for (const std::string& w : warnings) status_.notice += "; " + w;
    }
    attribute_messages(from);
}

// Opening what the command line read, presenting and moving through the scenes.
void Lab::perform_lesson_command(const lab::Command& command) {
    using namespace lab::cmd;
    std::visit(Overloaded{
                   [&](const OpenReadSession& c) { open_session(c.session, c.source); },
                   [&](const OpenReadLesson& c) {
                       if (c.chosen_theme) chosen_theme_ = c.chosen_theme;
                       open_lesson(c.lesson, c.present, c.source);
                       if (!c.source.empty()) status_.lesson_path = c.source;  // the panel's Lesson file follows
                   },
                   [&](const PresentWithNotes&) {
                       if (!lesson_) return;
                       set_presenting(true);
                       ++status_.audience_asked;
                   },
                   [&](const Present& c) { set_presenting(c.on); },
                   [&](const GoToScene& c) { go_to_scene(c.scene, c.time); },
                   [&](const StepScene& c) { go_to_scene(scene_ + c.by); },
                   [&](const Reveal&) { reveal(); },
                   [&](const Blank&) { toggle_blank(); },
                   [&](const auto&) {},
               },
               command);
}

// The panel's export: the window's runner sees each request once (by the counts) and reports back.
void Lab::export_command(const lab::Command& command) {
    using namespace lab::cmd;
    std::visit(Overloaded{
                   [&](const StartExport& c) {
                       status_.export_spec = c.spec;
                       // A lesson rendered from the window: in the theme the user chose here, as presenting is.
                       if (!c.spec.lesson.empty() && !c.spec.chosen_theme) status_.export_spec.chosen_theme = chosen_theme_;
                       ++status_.exports_asked;
                   },
                   [&](const CancelExport&) { ++status_.cancels_asked; },
                   [&](const ExportProgress& c) { status_.export_status = c.status; },
                   [&](const auto&) {},
               },
               command);
}

}  // namespace ropelab
