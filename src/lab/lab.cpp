#include "lab/lab.h"

#include <algorithm>
#include <new>
#include <optional>

#include <fmt/format.h>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/input_file.h"
#include "lab/messages.h"
#include "state/compare.h"
#include "state/schema.h"

namespace ropelab {

Lab::Lab(gpu::ComputeDevice& device, LabParams initial, Pace pace)
    : params_(std::move(initial)), compute_(device) {
    if (pace == Pace::AllAtOnce) {
        compute_.set_previews(false);
        compute_.update(params_);
        all_at_once_ = true;
    }
}

void Lab::update(double seconds, const lab::Input& input) {
    if (!compute_.ready()) compute_.update(params_);  // the data the keys below read
    attribute_messages();
    if (status_.notice != aged_notice_) {
        aged_notice_ = status_.notice;
        notice_age_ = 0.0;
    } else {
        notice_age_ += seconds;
    }
    since_user_change_ += seconds;
    LabParams next = params_;
    lab::apply_commands(next, status_, input);
    const bool escape = std::find(input.keys.begin(), input.keys.end(), lab::Key::Escape) != input.keys.end();
    const bool r_pressed = std::find(input.keys.begin(), input.keys.end(), lab::Key::R) != input.keys.end();
    if (lesson_ && params_.presenting) {
        presenter_keys(input.keys);
    } else if (lesson_ && escape && !input.typing && !lesson_unsaved_) {
        close_lesson();
    } else {
        // Esc leaves large views as ever; it does not throw away scenes recorded here.
        if (lesson_ && escape && !input.typing) status_.notice = "the lesson has unsaved scenes: Save lesson, or Close lesson to drop them";
        if (!input.typing) lab::apply_shortcuts(next, input.shortcuts, compute_.data().freqs.pairs());
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
    compute_.update(params_);
    grid_.update(params_, compute_, all_at_once_);
    // Only while the attention view is drawn: a hidden view costs no work.
    if (attention_window_) {
        attention_.update(params_, setting_model(params_, 0), *attention_window_, all_at_once_);
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
    refresh_products();
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

std::optional<double> Lab::sample(gpu::Series series, std::int64_t index) const {
    const auto it = samples_.find({series, index});
    return it == samples_.end() ? std::nullopt : std::optional<double>(it->second);
}

bool Lab::products_current() const {
    for (const auto& [plot, wanted] : wanted_columns_) {
        const lab::Columns& c = columns(plot);
        if (c.version != compute_.series_version() || c.series != wanted) return false;
    }
    return !attention_window_ || attention_.current();
}

void Lab::apply_requests(const lab::Requests& requests) {
    for (const auto& [name, plot] : requests.plots) plots_[name] = plot;
    wanted_columns_ = requests.columns;  // only the plots drawn: a hidden plot costs no device work
    wanted_samples_ = requests.samples;
    attention_window_ = requests.attention;
    LabParams next = params_;
    lab::apply_requests(next, requests);
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
        status_.error.clear();
        // A notice ("opened …", "closed the lesson …") is stale once the user starts another
        // edit a while after it: not one set with this change ("loaded …"), nor during the drag
        // that caused it ("scene paused …").
        if (status_.notice == aged_notice_ && notice_age_ > kNoticeSeconds && since_user_change_ > kEditPauseSeconds) {
            status_.notice.clear();
        }
        since_user_change_ = 0.0;
        if (lesson_ && !params_.presenting && scene_playing_) {
            scene_playing_ = false;  // the person at the controls wins: the scene stops driving
            status_.notice = "scene paused: your change stays (→ next scene, Close lesson or Esc to leave)";
        }
    }
    params_ = candidate;
    return true;
}

bool Lab::apply(const LabParams& candidate) {
    attribute_messages();  // the panel's model rows and presets set theirs before applying
    const bool committed = commit(candidate, Origin::User);
    attribute_messages();
    return committed;
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
    lesson_ = std::move(lesson);
    lesson_edited_ = false;
    lesson_unsaved_ = false;
    lesson_source_ = std::move(source);
    if (present) set_presenting(true);
    go_to_scene(0);
}

void Lab::close_lesson() {
    if (!lesson_) return;
    if (params_.presenting) set_presenting(false);
    lesson_.reset();
    commit(lesson_base_, Origin::Session);
    status_.error.clear();
    status_.notice = "closed the lesson: the lab is as it was before";
    attribute_messages(lab::MessageFrom::Lesson);
}

void Lab::go_to_scene(int k, double t) {
    if (!lesson_) return;
    scene_ = std::clamp(k, 0, scene_count() - 1);
    scene_time_ = t;
    scene_playing_ = true;
    revealed_ = false;  // a new scene asks its question again
    show_scene_state();
}

void Lab::reveal() {
    if (params_.hidden_views.empty()) return;
    revealed_ = true;
    LabParams next = params_;
    next.hidden_views.clear();
    commit(next, Origin::Lesson);
}

// A lesson file plays over the defaults; so does a lesson edited here, which is saved as one.
const LabParams& Lab::scene_base() const {
    static const LabParams defaults;
    return lesson_edited_ ? defaults : lesson_base_;
}

// The scene's state at its current time, over the lab as it was when the lesson opened; the
// presentation (scale, theme, fullscreen, presenting) stays as it is.
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
    state.hidden_views = revealed_ ? std::vector<int>{} : scene.hide;
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
        next.theme = Theme::Light;
        next.fullscreen = true;
    } else {  // the user's own presentation again
        next.show_controls = before_presenting_.show_controls;
        next.ui_scale = before_presenting_.ui_scale;
        next.theme = before_presenting_.theme;
        next.fullscreen = before_presenting_.fullscreen;
    }
    commit(next, Origin::Lesson);
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
            case Key::B: {
                LabParams next = params_;
                next.blank = !next.blank;
                commit(next, Origin::Lesson);
                break;
            }
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

void Lab::perform_session_request() {
    perform_lesson_edit();
    using Kind = lab::SessionRequest::Kind;
    const Kind kind = status_.session_request.kind;
    if (kind == Kind::None) return;
    status_.session_request.kind = Kind::None;
    // The answer shows beside the control that asked; an older message goes.
    status_.error.clear();
    status_.notice.clear();
    const lab::MessageFrom from = kind == Kind::Save || kind == Kind::Load ? lab::MessageFrom::Session
                                  : kind == Kind::CopyShareString || kind == Kind::OpenShareString
                                      ? lab::MessageFrom::ShareString
                                      : lab::MessageFrom::Lesson;
    session_request(kind);
    attribute_messages(from);
}

void Lab::session_request(lab::SessionRequest::Kind kind) {
    using Kind = lab::SessionRequest::Kind;
    std::vector<std::string> warnings;
    try {
        switch (kind) {
            case Kind::None: return;
            case Kind::Save: {
                std::string error;
                if (write_file_atomically(status_.session_path, session_to_json(session()), error, "session")) {
                    status_.notice = "saved " + status_.session_path;
                } else {
                    status_.error = error;
                }
                return;
            }
            case Kind::Load: {
                open_session(session_from_json(read_input_file(status_.session_path, "session"), warnings),
                             status_.session_path);
                break;
            }
            case Kind::CopyShareString:
                status_.share_text = share_string(session());  // the view copies it to the clipboard
                status_.notice = "share string copied to the clipboard";
                return;
            case Kind::OpenShareString:
                open_session(session_from_share_string(status_.share_text, warnings), "the share string");
                break;
            case Kind::OpenLesson:
            case Kind::PresentLesson: {
                // Present from here: the open lesson, at its current scene, while the lesson
                // file names it (or it was made here and has no file yet).
                if (kind == Kind::PresentLesson && lesson_ && (lesson_source_.empty() || lesson_source_ == status_.lesson_path)) {
                    set_presenting(true);
                    go_to_scene(scene_);
                    status_.notice = fmt::format("presenting from scene {}", scene_ + 1);
                    return;
                }
                Lesson lesson = load_lesson(status_.lesson_path);
                std::string notice = "opened lesson " + status_.lesson_path;
                for (const std::string& w : lesson.warnings) notice += "\n" + w;
                open_lesson(std::move(lesson), kind == Kind::PresentLesson, status_.lesson_path);
                status_.notice = notice;  // after open_lesson: closing the previous one says so
                return;
            }
            case Kind::CloseLesson:
                close_lesson();
                return;
        }
    } catch (const InputError& e) {
        status_.error = e.what();  // the current state stays
        return;
    }
    for (const std::string& w : warnings) status_.notice += "; " + w;
}

}  // namespace ropelab
