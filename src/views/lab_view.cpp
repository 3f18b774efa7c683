#include "views/lab_view.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <utility>
#include <variant>

#include "lab/messages.h"
#include "views/menu_bar.h"
#include "views/registry.h"
#include "ui/widgets.h"

#include <fmt/format.h>

#include <imgui.h>
#include <imgui_internal.h>  // ImRect

namespace ropelab::views {

namespace {

constexpr const char* kShortcuts[][2] = {
    {"Space", "play / pause"},          {"← →", "step the position by one (the scene, with a lesson open)"},
    {"+ −", "double / halve the speed"}, {"1 … 9, 0, A", "one view large (0: 10th, A: 11th; again: the workspace)"},
    {"Esc", "back to the workspace"},    {"Tab", "hide / show the controls"},
    {"Ctrl + 1 … 7", "workspace: overview, rotation, distance, frequencies, attention, images, all"},
    {"Ctrl + Z, Ctrl + Shift + Z", "undo, redo"},
    {"F1", "this list"},
    {"F11", "fullscreen"},               {"F12", "screenshot to ~/Pictures/ropelab"},
    {"presenting: → PgDn / ← PgUp", "next / previous scene"},
    {"presenting: Home End", "first / last scene"},
    {"presenting: Space, B, Esc", "pause the scene, blank screen, leave presenting"},               {"drop a file", "load a HF config.json"},
    {"mouse wheel", "zoom a plot"},      {"drag", "pan a plot"},
    {"Ctrl + wheel", "zoom a plot's y"}, {"Shift + drag", "zoom a plot to a box"},
    {"double-click", "reset a plot"},
    {"hold L or right button", "laser pointer"}, {"S", "spotlight the view under the pointer (again: off)"},
    {"hold D (or Pen and drag)", "draw over the views; C clears"}, {"R", "reveal a scene's hidden curves"},
};

}  // namespace

// The very first frame of the window: only a line saying what comes, so the window appears at
// once; the lab computes from the next frame on.
void LabView::starting_frame() {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->WorkPos);
    ImGui::SetNextWindowSize(viewport->WorkSize);
    ImGui::Begin("ropelab", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                         ImGuiWindowFlags_NoBackground);
    ui::text_disabled(fmt::format("ropelab: computing {} distances, head dim {} …", lab_.params().max_distance, lab_.params().model.head_dim));
    ImGui::End();
}

void LabView::view(int index, ImVec2 size) {
    ImGui::PushID(index);
    std::vector<Annotation> annotations;  // this scene's, for this view
    if (lab_.lesson()) {
        for (const Annotation& a : lab_.lesson()->scenes[static_cast<std::size_t>(lab_.scene())].annotations) {
            if (a.view == index) annotations.push_back(a);
        }
    }
    ImGui::BeginChild("view", size, true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    const auto title = view_title(static_cast<View>(index));
    // The title bar: a click shows the view large, another click brings the grid back.
    if (ui::selectable(std::string(title).c_str(), lab_.params().focused_view == index)) {
        requests_.focus_view = lab_.params().focused_view == index ? -1 : index;
    }
    ui::tip(fmt::format("Click or press {} to show this view large (again: the workspace)", view_key(index)).c_str());
    Context ctx{lab_.params(), lab_.compute(), lab_, lab_.frame(), view_state_, requests_, palette(lab_.params().theme), annotations};
    ctx.view = static_cast<View>(index);
    if (lab_.params().playing && !lab_.params().stepwise_planes && !lab_.params().sweep_distance) ctx.position_fraction = lab_.status().playback_carry;
    const ImVec2 view_min = ImGui::GetWindowPos();
    const ImVec2 view_size = ImGui::GetWindowSize();
    aids_.add_view(index, view_min, ImVec2(view_min.x + view_size.x, view_min.y + view_size.y));
    draw_function(ctx.view)(ctx);
    if (curves_hidden(lab_.params(), static_cast<View>(index))) aids_.reveal_hint(view_min, view_size, lab_.params().presenting);
    draw_label_annotations(ctx, view_min, view_size);
    ImGui::EndChild();
    ImGui::PopID();
}

void LabView::grid(ImVec2 origin, ImVec2 size) {
    // Rows of 3, 3 and 5 views: the first six keep a third of the width (their legends need it);
    // the last row is numbers, precision, phasors, the image grid and attention.
    const std::span<const View> all = workspace_views_of(Workspace::All);
    const int rows = 3, row_start[rows + 1] = {0, 3, 6, static_cast<int>(all.size())};
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const float cell_h = (size.y - gap * (rows - 1)) / rows;
    for (int r = 0; r < rows; ++r) {
        const int columns = row_start[r + 1] - row_start[r];
        const float cell_w = (size.x - gap * static_cast<float>(columns - 1)) / static_cast<float>(columns);
        for (int c = 0; c < columns; ++c) {
            ImGui::SetCursorScreenPos(ImVec2(origin.x + static_cast<float>(c) * (cell_w + gap), origin.y + static_cast<float>(r) * (cell_h + gap)));
            view(static_cast<int>(all[static_cast<std::size_t>(row_start[r] + c)]), ImVec2(cell_w, cell_h));
        }
    }
}

namespace {

// A workspace's cells: the first view about 60 % of the room (full height beside the others, or
// full width above them where the room is taller than wide), the others sharing the rest.
std::vector<ImRect> workspace_cells(int count, ImVec2 origin, ImVec2 size, float gap) {
    std::vector<ImRect> cells;
    if (count <= 1) return {ImRect(origin, ImVec2(origin.x + size.x, origin.y + size.y))};
    const bool tall = size.y > size.x;
    const int rest = count - 1;
    if (!tall) {
        const float first_w = std::floor((size.x - gap) * 0.6f), rest_w = size.x - gap - first_w;
        const float rest_h = (size.y - gap * static_cast<float>(rest - 1)) / static_cast<float>(rest);
        cells.emplace_back(origin, ImVec2(origin.x + first_w, origin.y + size.y));
        for (int i = 0; i < rest; ++i) {
            const ImVec2 at(origin.x + first_w + gap, origin.y + static_cast<float>(i) * (rest_h + gap));
            cells.emplace_back(at, ImVec2(at.x + rest_w, at.y + rest_h));
        }
    } else {
        const float first_h = std::floor((size.y - gap) * 0.6f), rest_h = size.y - gap - first_h;
        const float rest_w = (size.x - gap * static_cast<float>(rest - 1)) / static_cast<float>(rest);
        cells.emplace_back(origin, ImVec2(origin.x + size.x, origin.y + first_h));
        for (int i = 0; i < rest; ++i) {
            const ImVec2 at(origin.x + static_cast<float>(i) * (rest_w + gap), origin.y + first_h + gap);
            cells.emplace_back(at, ImVec2(at.x + rest_w, at.y + rest_h));
        }
    }
    return cells;
}

}  // namespace

void LabView::menu_bar() {
    const LabParams& p = lab_.params();
    LabParams edited = p;
    MenuChoices chosen = views::menu_bar(lab_, panel_, edited, requests_);
    if (!(edited == p)) send(lab::cmd::SetState{.state = edited, .control = "", .notice = ""});
    for (lab::Command& c : chosen.commands) send(std::move(c));
    quit_requested_ = quit_requested_ || chosen.quit;
}

bool LabView::window_chrome() const { return surface_ == Surface::Window && !lab_.params().presenting; }

// The views of the current workspace: its layout where every cell holds a view's legends and
// axes (as the grid asks: about 20 × 11 lines of text), else one view at a time under tabs; the
// device line under them in the window.
void LabView::workspace_views(ImVec2 origin, ImVec2 size) {
    const Workspace w = lab_.params().workspace;
    const float font = ImGui::GetFontSize();
    const float line = window_chrome() ? ImGui::GetTextLineHeightWithSpacing() : 0.0f;
    const ImVec2 room(size.x, size.y - line);
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    if (w == Workspace::All) {
        const bool grid_fits = room.x / 3 > 20.0f * font && room.y / 3 > 11.0f * font;
        if (grid_fits) grid(origin, room);
        else tabs(workspace_views_of(w));
    } else {
        const std::span<const View> views = workspace_views_of(w);
        const std::vector<ImRect> cells = workspace_cells(static_cast<int>(views.size()), origin, room, gap);
        const bool fits = std::all_of(cells.begin(), cells.end(),
                                      [&](const ImRect& c) { return c.GetWidth() > 18.0f * font && c.GetHeight() > 10.0f * font; });
        if (fits) {
            for (std::size_t i = 0; i < views.size(); ++i) {
                ImGui::SetCursorScreenPos(cells[i].Min);
                view(static_cast<int>(views[i]), cells[i].GetSize());
            }
        } else {
            tabs(views);
        }
    }
    if (!window_chrome()) return;
    ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + room.y + ImGui::GetStyle().ItemSpacing.y * 0.5f));
    grid_status_line(size.x);
}

// The workspaces as a row of tabs above the views (Ctrl+1 … and the Window menu do the same),
// wrapping onto a second line rather than cutting a label (large UI scales).
void LabView::workspace_tabs() {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    float row_width = 0.0f;
    for (const WorkspaceRow& row : workspace_table()) {
        row_width += ImGui::CalcTextSize(std::string(row.title).c_str()).x + 2 * style.FramePadding.x + style.ItemSpacing.x;
    }
    // Too narrow for one row (large UI scales): a combo, so the views keep their height.
    if (row_width > ImGui::GetContentRegionAvail().x) {
        const std::string current(workspace_row(lab_.params().workspace).title);
        if (ui::begin_combo("Workspace", current.c_str())) {
            for (const WorkspaceRow& row : workspace_table()) {
                if (ui::combo_item(std::string(row.title).c_str(), row.id == lab_.params().workspace)) requests_.workspace = row.id;
            }
            ui::end_combo();
        }
        ui::tip("The views shown together (Ctrl+1 … 7, or the Window menu)");
        return;
    }
    for (const WorkspaceRow& row : workspace_table()) {
        const std::string label(row.title);
        const ImVec2 size(ImGui::CalcTextSize(label.c_str()).x + 2 * style.FramePadding.x, ImGui::GetFrameHeight());
        if (row.id != Workspace::Overview) {
            ImGui::SameLine();
            if (ImGui::GetCursorScreenPos().x + size.x > right) ImGui::NewLine();
        }
        ImGui::PushStyleColor(ImGuiCol_Header, style.Colors[ImGuiCol_TabActive]);
        const bool current = row.id == lab_.params().workspace;
        if (ui::selectable((label + "##workspace").c_str(), current, 0, "tab", size)) requests_.workspace = row.id;
        ImGui::PopStyleColor();
        ui::tip(fmt::format("{} (Ctrl+{})", row.story, row.key).c_str());
    }
}

// Compute device, model, frame time and the keys, as much as the width holds (all on hover).
void LabView::grid_status_line(float width) {
    const bool fallback = !lab_.compute().fallback_reason().empty();
    const std::string compute = fallback ? "Compute: CPU (no GPU compute shaders)" : fmt::format("Compute: {}", lab_.compute().device_name());
    const std::string model = fmt::format("{} · d = {}, rotary {}, θ = {:.6g}", lab_.params().preset, lab_.compute().data().freqs.head_dim,
                                          lab_.compute().data().freqs.rotary_dim, lab_.params().model.rope_theta);
    const std::string frame = fmt::format("{:.1f} ms/frame", 1000.0f / std::max(1.0f, ImGui::GetIO().Framerate));
    const std::string keys = "Keys 1–9, 0, A show one view large, Ctrl+1–7 a workspace, Space plays, ←/→ step. F1 lists every shortcut.";
    const std::string all = compute + " · " + model + " · " + frame + " · " + keys;
    // The longest that fits, dropping from the least needed; the compute device always shows.
    const std::string tries[] = {all, compute + " · " + model + " · " + keys, compute + " · " + keys, compute + " · F1: shortcuts", compute};
    const std::string* shown = &tries[4];
    for (const std::string& t : tries) {
        if (ImGui::CalcTextSize(t.c_str()).x <= width) {
            shown = &t;
            break;
        }
    }
    if (fallback) ui::text(*shown, warning_color());
    else ui::text_disabled(*shown);
    ui::log().record(*shown, "device", all);  // scripts read it: the window's, never a figure's
    ui::tip(fallback ? (all + "\n" + lab_.compute().fallback_reason()).c_str() : all.c_str());
}

// When the grid does not fit: one view at a time, picked from a row of short tab labels that
// wraps onto a second line rather than scrolling or cutting a label (every tab stays in view).
// The tab shown is the last one picked while it belongs to the workspace, else its first view.
void LabView::tabs(std::span<const View> views) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    const int picked = lab_.params().tab_view;
    const bool in_workspace = std::any_of(views.begin(), views.end(), [&](View v) { return static_cast<int>(v) == picked; });
    const int shown = in_workspace ? picked : static_cast<int>(views.front());
    for (std::size_t k = 0; k < views.size(); ++k) {
        const int i = static_cast<int>(views[k]);
        const std::string label(view_short_title(views[k]));
        const ImVec2 size(ImGui::CalcTextSize(label.c_str()).x + 2 * style.FramePadding.x, ImGui::GetFrameHeight());
        if (k > 0) {
            ImGui::SameLine();
            if (ImGui::GetCursorScreenPos().x + size.x > right) ImGui::NewLine();
        }
        ImGui::PushStyleColor(ImGuiCol_Header, style.Colors[ImGuiCol_TabActive]);
        if (ui::selectable(label.c_str(), i == shown, 0, "tab", size)) requests_.tab_view = i;
        ImGui::PopStyleColor();
        ui::tip(std::string(view_title(views[k])).c_str());
    }
    const float line = window_chrome() ? ImGui::GetTextLineHeightWithSpacing() : 0.0f;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    view(shown, ImVec2(avail.x, avail.y - line));
}

// The laser follows the pointer while L or the right button is held; S spotlights the view under
// the pointer (again, or over no view: off). In the lab and while presenting alike.
void LabView::presenter_aid_keys(double seconds, const lab::Input& window_input) {
    const ImGuiIO& io = ImGui::GetIO();
    const bool typing = io.WantTextInput;
    // GLFW's key codes for letters are their capitals, and the backend indexes KeysDown by them.
    aids_.follow_pointer(seconds, !typing && (ImGui::IsKeyDown('L') || io.MouseDown[ImGuiMouseButton_Right]), io.MousePos);
    // S from the window's key queue: a tap whose press and release fall within one frame counts
    // (ImGui 1.86 polls key state, and sees such a tap as nothing).
    const bool s_pressed = std::find(window_input.keys.begin(), window_input.keys.end(), lab::Key::S) != window_input.keys.end();
    if (!typing && s_pressed) {
        const int under = aids_.view_under(io.MousePos);
        requests_.spotlight = under == lab_.params().spotlight ? 0 : under;
    }
    // The pen: D held draws; C, or another scene, wipes the strokes.
    pen_key_ = !typing && ImGui::IsKeyDown('D');
    const bool c_pressed = std::find(window_input.keys.begin(), window_input.keys.end(), lab::Key::C) != window_input.keys.end();
    const int scene = lab_.has_lesson() ? lab_.scene() : -1;
    if ((!typing && c_pressed) || scene != pen_scene_) aids_.clear_pen();
    pen_scene_ = scene;
    // Presenting ended (Esc, the audience window closed): the ink, the laser's trail and the
    // spotlight were the audience's, drawn where the slides were, not on the lab's panel.
    const bool presenting = lab_.params().presenting;
    if (was_presenting_ && !presenting) {
        aids_.clear_ink();
        if (lab_.params().spotlight != 0) requests_.spotlight = 0;
    }
    was_presenting_ = presenting;
}

void LabView::pen_canvas() {
    bool pressed = false;
    ImVec2 min, max;
    if (pen_on_ && lab_.has_lesson() && aids_.views_box(min, max)) {
        ImGui::SetNextWindowPos(min);
        ImGui::SetNextWindowSize(ImVec2(max.x - min.x, max.y - min.y));
        ImGui::Begin("##pen canvas", nullptr,
                     ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoSavedSettings |
                         ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoNav);
        ImGui::SetCursorScreenPos(min);
        ImGui::InvisibleButton("pen", ImVec2(std::max(1.0f, max.x - min.x), std::max(1.0f, max.y - min.y)));
        ui::log().record("Pen canvas", "canvas");
        pressed = ImGui::IsItemActive();
        ImGui::End();
    }
    aids_.follow_pen(pen_key_ || pressed, ImGui::GetIO().MousePos);
}

void LabView::lesson_bar(bool presenting) {
    const Scene& scene = lab_.lesson()->scenes[static_cast<std::size_t>(lab_.scene())];
    if (!presenting) {
        if (ui::arrow_button("##previous scene", ImGuiDir_Left, "Previous scene")) send(lab::cmd::StepScene{-1});
        ui::tip("Previous scene (←)");
        ImGui::SameLine();
        if (ui::arrow_button("##next scene", ImGuiDir_Right, "Next scene")) send(lab::cmd::StepScene{+1});
        ui::tip("Next scene (→)");
        ImGui::SameLine();
        // At the lab's next step, like the panel's: the scene this bar shows must outlive the frame.
        if (ui::button("Close lesson##bar")) send(lab::cmd::CloseLesson{});
        ui::tip("Back to the lab as it was before the lesson (Esc)");
        ImGui::SameLine();
        // Not on the slides (nor in their exports): presenting, D draws, or Pen set before.
        ui::checkbox("Pen##lesson bar", &pen_on_);
        ui::tip("Draw over the views with the left button (or hold D), here and when presenting; C or another scene clears");
        ImGui::SameLine();
    }
    ImGui::TextDisabled("%d/%d%s", lab_.scene() + 1, lab_.scene_count(), !presenting && !lab_.scene_playing() ? " (paused)" : "");
    ui::log().record(fmt::format("scene {}/{}", lab_.scene() + 1, lab_.scene_count()), "message", scene.title);
    ui::same_line_if_fits(scene.title);
    ui::text(scene.title);
    // On a projector the caption is what the room reads: full contrast there.
    ui::text(scene.caption, presenting ? 0 : ImGui::GetColorU32(ImGuiCol_TextDisabled));
}

void LabView::scene_views(ImVec2 origin, ImVec2 size) {
    const auto& views = lab_.params().scene_views;
    const int n = static_cast<int>(views.size());
    const int columns = n == 4 ? 2 : n, rows = n == 4 ? 2 : 1;
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const ImVec2 cell((size.x - gap * (columns - 1)) / columns, (size.y - gap * (rows - 1)) / rows);
    for (int i = 0; i < n; ++i) {
        ImGui::SetCursorScreenPos(ImVec2(origin.x + (i % columns) * (cell.x + gap), origin.y + (i / columns) * (cell.y + gap)));
        view(views[static_cast<std::size_t>(i)], cell);
    }
}

void LabView::help_overlay() {
    if (!lab_.params().show_help) return;
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
std::vector<std::pair<const char*, plot::PlotState ViewState::*>> plot_members() {
    return {{"scores", &ViewState::scores},           {"invariance", &ViewState::invariance},
            {"angles", &ViewState::angles},           {"frequencies", &ViewState::frequencies},
            {"wavelengths", &ViewState::wavelengths}, {"precision", &ViewState::precision}};
}
}  // namespace

void LabView::take_opened_plots() {
    if (plots_opened_ == lab_.plots_opened()) return;
    plots_opened_ = lab_.plots_opened();
    for (const auto& [name, member] : plot_members()) {
        if (auto it = lab_.plots().find(name); it != lab_.plots().end()) view_state_.*member = it->second;
    }
}

void LabView::hand_back_plots() {
    for (const auto& [name, member] : plot_members()) requests_.plots[name] = view_state_.*member;
}

// ImGui's keys as the lab's shortcuts, read as ImGui sees them (repeats step the position).
lab::Input LabView::read_input(const lab::Input& window_input) const {
    using lab::Shortcut;
    lab::Input input = window_input;
    const ImGuiIO& io = ImGui::GetIO();
    input.typing = io.WantTextInput;
    if (input.typing) return input;  // typing into a field is not a shortcut
    auto& out = input.shortcuts;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space), false)) out.push_back(Shortcut::PlayPause);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) out.push_back(Shortcut::StepForward);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) out.push_back(Shortcut::StepBack);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false)) out.push_back(Shortcut::AllViews);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Tab), false)) out.push_back(Shortcut::ToggleControls);
    // Ctrl+1 … a workspace (GLFW types no character while Ctrl is held: no view key below).
    if (io.KeyCtrl && !io.KeyAlt) {
        for (const WorkspaceRow& row : workspace_table()) {
            if (ImGui::IsKeyPressed(row.key, false)) out.push_back(lab::show_workspace(row.id));
        }
        return input;
    }
    for (ImWchar c : io.InputQueueCharacters) {
        if (c == '+' || c == '=') out.push_back(Shortcut::Faster);
        if (c == '-') out.push_back(Shortcut::Slower);
        for (const ViewRow& row : view_table()) {  // each view's key from its row (a letter in either case)
            if (c < 128 && std::toupper(static_cast<int>(c)) == row.key) out.push_back(lab::show_view(static_cast<int>(row.id)));
        }
    }
    return input;
}

void LabView::frame(double seconds, const lab::Input& window_input) {
    ui::log().begin_frame();
    aids_.begin_frame();
    if (!lab_.compute().ready() && !started_) {
        started_ = true;
        starting_frame();
        return;
    }
    ui::allow_tooltips(!lab_.params().presenting);  // nothing floats over the slides
    const lab::Commands commands = std::exchange(pending_, {});
    lab_.update(seconds, read_input(window_input), commands);
    const auto copy = [](const lab::Command& c) { return std::holds_alternative<lab::cmd::CopyShareString>(c); };
    if (std::any_of(commands.begin(), commands.end(), copy)) ImGui::SetClipboardText(lab_.status().share_text.c_str());
    controls::follow_lab(panel_, lab_);
    requests_ = {};
    take_opened_plots();
    presenter_aid_keys(seconds, window_input);
    if (lab_.params().blank) {  // the presenter's B: black in every theme, the projector dark
        const ImGuiViewport* viewport = ImGui::GetMainViewport();
        ImGui::GetBackgroundDrawList()->AddRectFilled(viewport->Pos, ImVec2(viewport->Pos.x + viewport->Size.x, viewport->Pos.y + viewport->Size.y),
                                                      IM_COL32(0, 0, 0, 255));
        help_overlay();
        return;
    }
    draw();
    pen_canvas();
    help_overlay();
    aids_.draw(lab_.params().spotlight, lab_.params().laser);
    hand_back_plots();
    send(lab::cmd::ViewRequests{std::move(requests_)});
}

void LabView::draw() {
    const LabParams& p = lab_.params();
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->WorkPos);
    ImGui::SetNextWindowSize(viewport->WorkSize);
    ImGui::Begin("ropelab", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoBringToFrontOnFocus |
                     ImGuiWindowFlags_NoSavedSettings | (window_chrome() ? ImGuiWindowFlags_MenuBar : 0) |
                     // The window clears to this colour already: one full-screen blend fewer
                     // per frame, which software rasterisers feel.
                     ImGuiWindowFlags_NoBackground);
    // The last message, on a line of its own at the bottom, while there is one (in the window only).
    const std::string& error = lab_.status().error;
    const std::string message = !error.empty() ? "Refused: " + lab::in_own_words(error) : lab_.status().notice;
    const bool with_status = !message.empty() && window_chrome();
    const float status_height = with_status ? ImGui::GetFrameHeightWithSpacing() : 0.0f;
    if (p.show_controls) {
        const float font = ImGui::GetFontSize();
        const float panel_width = std::clamp(font * 22.0f, viewport->WorkSize.x * 0.25f, viewport->WorkSize.x * 0.45f);
        ImGui::BeginChild("controls", ImVec2(panel_width, -status_height), true);
        LabParams edited = p;
        lab::Commands asked;
        controls::controls_panel(edited, lab_, panel_, asked);
        ImGui::EndChild();
        // The edited copy first: the panel's other commands (a preset, a model row) act on it.
        if (!(edited == p)) send(lab::cmd::SetState{.state = edited, .control = "", .notice = ""});
        for (lab::Command& c : asked) send(std::move(c));
        ImGui::SameLine();
    }
    // The right-hand side is its own child region, so tab bars and grids lay out inside it.
    ImGui::BeginChild("main", ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetContentRegionAvail().y - status_height), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoBackground);
    const ImVec2 size = ImGui::GetContentRegionAvail();
    if (lab_.has_lesson() && p.focused_view < 0) {
        // A scene shows its own views, or else a workspace (its own, or the one the lab is in).
        lesson_bar(p.presenting);
        const ImVec2 rest_origin = ImGui::GetCursorScreenPos();
        if (!p.scene_views.empty()) scene_views(rest_origin, ImGui::GetContentRegionAvail());
        else workspace_views(rest_origin, ImGui::GetContentRegionAvail());
    } else if (p.focused_view >= 0 && p.focused_view < kViewCount) {
        view(p.focused_view, size);
    } else {
        if (window_chrome()) workspace_tabs();
        const ImVec2 rest_origin = ImGui::GetCursorScreenPos();
        workspace_views(rest_origin, ImGui::GetContentRegionAvail());
    }
    ImGui::EndChild();
    if (with_status) status_line(message, !error.empty());
    // Last, though it shows on top: the panel's "Lesson" header and "View" combo come first in
    // the widget log, so scripts clicking them by label find them, not the menus.
    if (window_chrome()) menu_bar();
    ImGui::End();
}

// One line: the message's first line, cut with "…" to the window's width; all of it on hover.
void LabView::status_line(const std::string& message, bool error) {
    const float room = ImGui::GetContentRegionAvail().x;
    std::string line = message.substr(0, message.find('\n'));
    const bool cut = line.size() < message.size() || ImGui::CalcTextSize(line.c_str()).x > room;
    if (cut) {
        while (!line.empty() && ImGui::CalcTextSize((line + " …").c_str()).x > room) {
            line.pop_back();
            while (!line.empty() && (static_cast<unsigned char>(line.back()) & 0xC0) == 0x80) line.pop_back();  // whole UTF-8 characters
            if (!line.empty() && static_cast<unsigned char>(line.back()) >= 0xC0) line.pop_back();
        }
        line += " …";
    }
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error ? IM_COL32(255, 90, 80, 255) : ImGui::GetColorU32(ImGuiCol_TextDisabled)),
                       "%s", line.c_str());
    ui::log().record(line, "status", message);
    if (cut) ui::tip(message.c_str());
}

}  // namespace ropelab::views
