#include "views/lab_ui.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/input_file.h"
#include "core/atomic_file.h"
#include "lab/schema.h"
#include "ui/widgets.h"

#include <fmt/format.h>

#include <imgui.h>

namespace ropelab {

namespace {

using DrawView = void (*)(views::Context&);
constexpr DrawView kViews[kViewCount] = {views::planes_view,     views::contrast_view,
                                         views::score_view,      views::invariance_view,
                                         views::heatmap_view,    views::frequencies_view,
                                         views::numbers_view,    views::precision_view};

constexpr const char* kShortcuts[][2] = {
    {"Space", "play / pause"},          {"← →", "step the position by one"},
    {"+ −", "double / halve the speed"}, {"1 … 8", "show one view large (again: back to all)"},
    {"Esc", "back to all views"},        {"Tab", "hide / show the controls"},
    {"F1", "this list"},
    {"F11", "fullscreen"},               {"F12", "screenshot to ~/Pictures/ropelab"},
    {"presenting: → PgDn / ← PgUp", "next / previous scene"},
    {"presenting: Home End", "first / last scene"},
    {"presenting: Space, B, Esc", "pause the scene, blank screen, leave presenting"},               {"drop a file", "load a HF config.json"},
    {"mouse wheel", "zoom a plot"},      {"drag", "pan a plot"},
    {"double-click", "reset a plot"},
    {"hold L or right button", "laser pointer"}, {"S", "spotlight the view under the pointer (again: off)"},
};

}  // namespace

LabUi::LabUi(gpu::ComputeDevice& device, LabParams initial, Pace pace)
    : params_(std::move(initial)), compute_(device) {
    if (pace == Pace::AllAtOnce) {
        compute_.set_previews(false);
        compute_.update(params_);
    }
}

// The very first frame of the window: only a line saying what comes, so the window appears at
// once; the lab computes from the next frame on.
void LabUi::starting_frame() {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->WorkPos);
    ImGui::SetNextWindowSize(viewport->WorkSize);
    ImGui::Begin("ropelab", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                         ImGuiWindowFlags_NoBackground);
    ui::text_disabled(fmt::format("ropelab: computing {} distances, head dim {} …", params_.max_distance, params_.model.head_dim));
    ImGui::End();
}

void LabUi::view(int index, ImVec2 size) {
    ImGui::PushID(index);
    std::vector<Annotation> annotations;  // this scene's, for this view
    if (lesson_) {
        for (const Annotation& a : lesson_->scenes[static_cast<std::size_t>(scene_)].annotations) {
            if (a.view == index) annotations.push_back(a);
        }
    }
    ImGui::BeginChild("view", size, true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    const auto title = view_title(static_cast<View>(index));
    // The title bar: a click shows the view large, another click brings the grid back.
    if (ui::selectable(std::string(title).c_str(), params_.focused_view == index)) {
        requests_.focus_view = params_.focused_view == index ? -1 : index;
    }
    ui::tip(fmt::format("Click or press {} to show this view large (again: all views)", index + 1).c_str());
    views::Context ctx{params_, compute_, view_state_, requests_, views::palette(params_.theme), annotations};
    if (params_.playing && !params_.stepwise_planes) ctx.position_fraction = controls_.playback_carry;
    const ImVec2 view_min = ImGui::GetWindowPos();
    const ImVec2 view_size = ImGui::GetWindowSize();
    aids_.add_view(index, view_min, ImVec2(view_min.x + view_size.x, view_min.y + view_size.y));
    kViews[index](ctx);
    views::draw_label_annotations(ctx, view_min, view_size);
    ImGui::EndChild();
    ImGui::PopID();
}

void LabUi::grid(ImVec2 origin, ImVec2 size) {
    constexpr int columns = 3, rows = 3;
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const ImVec2 cell((size.x - gap * (columns - 1)) / columns, (size.y - gap * (rows - 1)) / rows);
    for (int i = 0; i < kViewCount; ++i) {
        ImGui::SetCursorScreenPos(ImVec2(origin.x + (i % columns) * (cell.x + gap), origin.y + (i / columns) * (cell.y + gap)));
        view(i, cell);
    }
    // The ninth cell: where the numbers come from, and how to get help.
    ImGui::SetCursorScreenPos(ImVec2(origin.x + 2 * (cell.x + gap), origin.y + 2 * (cell.y + gap)));
    ImGui::BeginChild("status", cell, true);
    if (compute_.device().fallback_reason().empty()) {
        ui::text_disabled(fmt::format("Compute: {}", compute_.device().name()));
    } else {
        ui::text("Compute: CPU (no GPU compute shaders)", IM_COL32(240, 171, 41, 255));
        ui::tip(compute_.device().fallback_reason().c_str());
    }
    ui::text_disabled(fmt::format("{} · d = {}, rotary {}, θ = {:.6g}", params_.preset, compute_.data().freqs.head_dim,
                                  compute_.data().freqs.rotary_dim, params_.model.rope_theta));
    ui::text_disabled(fmt::format("{:.1f} ms/frame", 1000.0f / std::max(1.0f, ImGui::GetIO().Framerate)));
    ui::text("Keys 1–8 show one view large, Space plays, ←/→ step. F1 lists every shortcut.");
    ImGui::EndChild();
}

// When the grid does not fit: one view at a time, picked from a row of short tab labels that
// wraps onto a second line rather than scrolling or cutting a label (every tab stays in view).
void LabUi::tabs() {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    for (int i = 0; i < kViewCount; ++i) {
        const std::string label(view_short_title(static_cast<View>(i)));
        const ImVec2 size(ImGui::CalcTextSize(label.c_str()).x + 2 * style.FramePadding.x, ImGui::GetFrameHeight());
        if (i > 0) {
            ImGui::SameLine();
            if (ImGui::GetCursorScreenPos().x + size.x > right) ImGui::NewLine();
        }
        ImGui::PushStyleColor(ImGuiCol_Header, style.Colors[ImGuiCol_TabActive]);
        if (ui::selectable(label.c_str(), i == params_.tab_view, 0, "tab", size)) requests_.tab_view = i;
        ImGui::PopStyleColor();
        ui::tip(std::string(view_title(static_cast<View>(i))).c_str());
    }
    view(params_.tab_view, ImGui::GetContentRegionAvail());
}

bool LabUi::commit(const LabParams& candidate, Origin origin) {
    if (candidate == params_) return true;
    try {
        schema::validate(candidate);
    } catch (const InputError& e) {
        controls_.error = e.what();  // the current state stays
        return false;
    }
    if (origin == Origin::User) {
        controls_.error.clear();
        if (lesson_ && !params_.presenting && scene_playing_) {
            scene_playing_ = false;  // the person at the controls wins: the scene stops driving
            controls_.notice = "scene paused: your change stays (→ next scene, Close lesson or Esc to leave)";
        }
    }
    params_ = candidate;
    return true;
}

bool LabUi::apply(const LabParams& candidate) { return commit(candidate, Origin::User); }

void LabUi::open_lesson(Lesson lesson, bool present) {
    if (lesson_) close_lesson();
    lesson_base_ = params_;
    lesson_ = std::move(lesson);
    if (present) set_presenting(true);
    go_to_scene(0);
}

void LabUi::close_lesson() {
    if (!lesson_) return;
    if (params_.presenting) set_presenting(false);
    lesson_.reset();
    commit(lesson_base_, Origin::Session);
    controls_.notice = "closed the lesson: the lab is as it was before";
}

void LabUi::go_to_scene(int k, double t) {
    if (!lesson_) return;
    scene_ = std::clamp(k, 0, scene_count() - 1);
    scene_time_ = t;
    scene_playing_ = true;
    show_scene_state();
}

// The scene's state at its current time, over the lab as it was when the lesson opened; the
// presentation (scale, theme, fullscreen, presenting) stays as it is.
void LabUi::show_scene_state() {
    const Scene& scene = lesson_->scenes[static_cast<std::size_t>(scene_)];
    LabParams state;
    try {
        state = lesson_state(*lesson_, scene_, std::min(scene_time_, scene.duration), lesson_base_);
    } catch (const InputError& e) {
        controls_.error = fmt::format("scene {} (\"{}\"): {}", scene_ + 1, scene.title, e.what());
        scene_playing_ = false;
        return;
    }
    for (const schema::Field& f : schema::fields()) {
        if (!f.reset) f.set(state, f.get(params_));  // display settings are the viewer's
    }
    state.scene_views = scene.views;
    state.playing = false;  // the lesson's clock drives positions, not playback
    commit(state, Origin::Lesson);
}

void LabUi::set_presenting(bool on) {
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

void LabUi::presenter_keys(const std::vector<controls::Key>& keys) {
    using controls::Key;
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
            case Key::B: {
                LabParams next = params_;
                next.blank = !next.blank;
                commit(next, Origin::Lesson);
                break;
            }
        }
    }
}

// The laser follows the pointer while L or the right button is held; S spotlights the view under
// the pointer (again, or over no view: off). In the lab and while presenting alike.
void LabUi::presenter_aid_keys(double seconds) {
    const ImGuiIO& io = ImGui::GetIO();
    const bool typing = io.WantTextInput;
    // GLFW's key codes for letters are their capitals, and the backend indexes KeysDown by them.
    aids_.follow_pointer(seconds, !typing && (ImGui::IsKeyDown('L') || io.MouseDown[ImGuiMouseButton_Right]), io.MousePos);
    if (!typing && ImGui::IsKeyPressed('S', false)) {
        const int under = aids_.view_under(io.MousePos);
        requests_.spotlight = under == params_.spotlight ? 0 : under;
    }
}

void LabUi::lesson_bar(bool presenting) {
    const Scene& scene = lesson_->scenes[static_cast<std::size_t>(scene_)];
    if (!presenting) {
        if (ui::arrow_button("##previous scene", ImGuiDir_Left, "Previous scene")) go_to_scene(scene_ - 1);
        ui::tip("Previous scene (←)");
        ImGui::SameLine();
        if (ui::arrow_button("##next scene", ImGuiDir_Right, "Next scene")) go_to_scene(scene_ + 1);
        ui::tip("Next scene (→)");
        ImGui::SameLine();
        // After drawing, like the panel's: the scene this bar shows must outlive the frame.
        if (ui::button("Close lesson##bar")) controls_.session_request.kind = controls::SessionRequest::Kind::CloseLesson;
        ui::tip("Back to the lab as it was before the lesson (Esc)");
        ImGui::SameLine();
    }
    ImGui::TextDisabled("%d/%d%s", scene_ + 1, scene_count(), !presenting && !scene_playing_ ? " (paused)" : "");
    ui::log().record(fmt::format("scene {}/{}", scene_ + 1, scene_count()), "message", scene.title);
    ui::same_line_if_fits(scene.title);
    ui::text(scene.title);
    // On a projector the caption is what the room reads: full contrast there.
    ui::text(scene.caption, presenting ? 0 : ImGui::GetColorU32(ImGuiCol_TextDisabled));
}

void LabUi::scene_views(ImVec2 origin, ImVec2 size) {
    const auto& views = params_.scene_views;
    const int n = static_cast<int>(views.size());
    const int columns = n == 4 ? 2 : n, rows = n == 4 ? 2 : 1;
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const ImVec2 cell((size.x - gap * (columns - 1)) / columns, (size.y - gap * (rows - 1)) / rows);
    for (int i = 0; i < n; ++i) {
        ImGui::SetCursorScreenPos(ImVec2(origin.x + (i % columns) * (cell.x + gap), origin.y + (i / columns) * (cell.y + gap)));
        view(views[static_cast<std::size_t>(i)], cell);
    }
}

void LabUi::help_overlay() {
    if (!params_.show_help) return;
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowBgAlpha(0.95f);
    ImGui::Begin("Keyboard and mouse (F1)", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse);
    // It may cover the checkbox that opened it (large UI scales): a click on it closes it too.
    if (ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows) && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        requests_.show_help = false;
    }
    if (ImGui::BeginTable("keys", 2)) {
        for (const auto& [key, what] : kShortcuts) {
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(key);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(what);
        }
        ImGui::EndTable();
    }
    ImGui::TextDisabled("Click here or press F1 to close");
    ImGui::End();
}

namespace {
// The plots a session carries, by name.
std::vector<std::pair<const char*, plot::PlotState views::ViewState::*>> plot_members() {
    return {{"scores", &views::ViewState::scores},           {"invariance", &views::ViewState::invariance},
            {"angles", &views::ViewState::angles},           {"frequencies", &views::ViewState::frequencies},
            {"wavelengths", &views::ViewState::wavelengths}, {"precision", &views::ViewState::precision}};
}
}  // namespace

Session LabUi::session() const {
    Session s{params_, {}};
    for (const auto& [name, member] : plot_members()) s.plots[name] = view_state_.*member;
    return s;
}

bool LabUi::open_session(const Session& session, const std::string& source) {
    LabParams next = session.params;
    for (const schema::Field& f : schema::fields()) {
        if (f.scope == schema::Scope::Transient) f.set(next, f.get(params_));  // not part of a session
    }
    next.scene_views.clear();
    if (!commit(next, Origin::Session)) return false;
    lesson_.reset();  // the session replaces the lesson's state
    for (const auto& [name, member] : plot_members()) {
        if (auto it = session.plots.find(name); it != session.plots.end()) view_state_.*member = it->second;
    }
    controls_.error.clear();
    controls_.notice = "opened " + source;
    return true;
}

void LabUi::handle_session_request() {
    using Kind = controls::SessionRequest::Kind;
    const Kind kind = controls_.session_request.kind;
    controls_.session_request.kind = Kind::None;
    std::vector<std::string> warnings;
    try {
        switch (kind) {
            case Kind::None: return;
            case Kind::Save: {
                std::string error;
                if (write_file_atomically(controls_.session_path, session_to_json(session()), error)) {
                    controls_.notice = "saved " + controls_.session_path;
                } else {
                    controls_.error = error;
                }
                return;
            }
            case Kind::Load: {
                open_session(session_from_json(read_input_file(controls_.session_path, "session"), warnings),
                             controls_.session_path);
                break;
            }
            case Kind::CopyShareString:
                controls_.share_text = share_string(session());
                ImGui::SetClipboardText(controls_.share_text.c_str());
                controls_.notice = "share string copied to the clipboard";
                return;
            case Kind::OpenShareString:
                open_session(session_from_share_string(controls_.share_text, warnings), "the share string");
                break;
            case Kind::OpenLesson:
            case Kind::PresentLesson: {
                Lesson lesson = load_lesson(controls_.lesson_path);
                controls_.notice = "opened lesson " + controls_.lesson_path;
                for (const std::string& w : lesson.warnings) controls_.notice += "\n" + w;
                open_lesson(std::move(lesson), kind == Kind::PresentLesson);
                return;
            }
            case Kind::CloseLesson:
                close_lesson();
                return;
        }
    } catch (const InputError& e) {
        controls_.error = e.what();  // the current state stays
        return;
    }
    for (const std::string& w : warnings) controls_.notice += "; " + w;
}

void LabUi::frame(double seconds, const controls::Commands& commands) {
    ui::log().begin_frame();
    aids_.begin_frame();
    if (!compute_.ready() && !started_) {
        started_ = true;
        starting_frame();
        return;
    }
    if (!compute_.ready()) compute_.update(params_);  // the data the panel and keys below read
    ui::allow_tooltips(!params_.presenting);  // nothing floats over the slides
    LabParams next = params_;
    controls::apply_commands(next, controls_, commands);
    const bool typing = ImGui::GetIO().WantTextInput;
    const bool escape = std::find(commands.keys.begin(), commands.keys.end(), controls::Key::Escape) != commands.keys.end();
    if (lesson_ && params_.presenting) {
        presenter_keys(commands.keys);
    } else if (lesson_ && escape && !typing) {
        close_lesson();
    } else {
        controls::handle_shortcuts(next, compute_.data().freqs.pairs());
        commit(next, Origin::User);
    }
    if (lesson_) {
        if (scene_playing_) {
            scene_time_ += seconds;
            show_scene_state();
        }
    } else {
        next = params_;
        controls::advance_playback(next, controls_, seconds);
        commit(next, Origin::Playback);
    }
    compute_.update(params_);
    requests_ = {};
    presenter_aid_keys(seconds);
    if (params_.blank) {  // the presenter's B: nothing on screen but the background
        help_overlay();
        return;
    }

    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->WorkPos);
    ImGui::SetNextWindowSize(viewport->WorkSize);
    ImGui::Begin("ropelab", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoBringToFrontOnFocus |
                     ImGuiWindowFlags_NoSavedSettings |
                     // The window clears to this colour already: one full-screen blend fewer
                     // per frame, which software rasterisers feel.
                     ImGuiWindowFlags_NoBackground);
    if (params_.show_controls) {
        const float font = ImGui::GetFontSize();
        const float panel_width = std::clamp(font * 22.0f, viewport->WorkSize.x * 0.25f, viewport->WorkSize.x * 0.45f);
        ImGui::BeginChild("controls", ImVec2(panel_width, 0), true);
        LabParams edited = params_;
        controls::controls_panel(edited, controls_, compute_, lesson_.has_value());
        ImGui::EndChild();
        commit(edited, Origin::User);
        ImGui::SameLine();
    }
    // The right-hand side is its own child region, so tab bars and grids lay out inside it.
    ImGui::BeginChild("main", ImGui::GetContentRegionAvail(), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoBackground);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 size = ImGui::GetContentRegionAvail();
    // The grid of all eight needs room; with large fonts or a small window, tabs instead.
    const float font = ImGui::GetFontSize();
    const bool grid_fits = size.x / 3 > 20.0f * font && size.y / 3 > 11.0f * font;
    if (lesson_ && !params_.scene_views.empty() && params_.focused_view < 0) {
        lesson_bar(params_.presenting);
        const ImVec2 rest_origin = ImGui::GetCursorScreenPos();
        scene_views(rest_origin, ImGui::GetContentRegionAvail());
    } else if (params_.focused_view >= 0 && params_.focused_view < kViewCount) {
        view(params_.focused_view, size);
    } else if (grid_fits) {
        grid(origin, size);
    } else {
        tabs();
    }
    ImGui::EndChild();
    ImGui::End();
    help_overlay();
    aids_.draw(params_.spotlight, params_.laser);
    next = params_;
    controls::apply_requests(next, requests_);
    commit(next, Origin::User);
    handle_session_request();
}

}  // namespace ropelab
