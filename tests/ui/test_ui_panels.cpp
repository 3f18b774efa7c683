// tests/ui: the panel's actions in the real window (F12, export, session) and presenting a
// lesson (presenter keys, tooltips, the idle pointer).
#include "lab_test.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <imgui_internal.h>

#include "support/files.h"
#include "export_job.h"
#include "lesson/lesson.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace ropelab {
namespace {

// F12 through the X server (xdotool), as a person presses it: a timestamped PNG appears in the
// screenshot folder and the controls say where.
TEST_F(LabTest, F12SavesATimestampedScreenshot) {
    const std::filesystem::path folder = test::temp_path("f12");
    std::filesystem::remove_all(folder);
    setenv("ROPELAB_SCREENSHOT_DIR", folder.c_str(), 1);
    frames(2);
    ASSERT_EQ(std::system("xdotool search --name 'ropelab' windowactivate --sync key F12 2>/dev/null || "
                          "xdotool search --name 'ropelab' key F12"), 0);
    for (int i = 0; i < 20 && lab_->status().notice.rfind("saved", 0) != 0; ++i) frames(1);
    EXPECT_EQ(lab_->status().notice.rfind("saved " + folder.string(), 0), 0u) << lab_->status().notice;
    int pngs = 0;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) pngs += entry.path().extension() == ".png";
    EXPECT_EQ(pngs, 1);
    std::filesystem::remove_all(folder);
    unsetenv("ROPELAB_SCREENSHOT_DIR");
}

// The export panel: a PNG saved while the window keeps running, and an MP4 cancelled after
// two frames leaving nothing behind.
TEST_F(LabTest, ExportPanelSavesAndCancels) {
    const std::filesystem::path folder = test::temp_path("panel");
    std::filesystem::create_directories(folder);
    ExportPanelRunner exports(ROPELAB_BINARY);
    auto run_frames = [&](int n) {
        for (int i = 0; i < n; ++i) {
            frames(1);
            exports.step(*view_);
            usleep(20000);  // the export runs in another process; give it time
        }
    };
    // What the panel's Start export and Cancel export send.
    const lab::Status& s = lab_->status();
    lab::ExportSpec spec;
    spec.path = (folder / "panel.png").string();
    spec.view = 2;
    spec.width = 640;
    spec.height = 360;
    view_->send(lab::cmd::StartExport{spec});
    for (int i = 0; i < 400 && s.export_status.message.empty(); ++i) run_frames(1);
    EXPECT_EQ(s.export_status.message, "saved " + spec.path);
    EXPECT_TRUE(std::filesystem::exists(spec.path));
    EXPECT_EQ(load_png(spec.path).width, 640);

    spec.path = (folder / "panel.mp4").string();
    spec.frames = 300;
    view_->send(lab::cmd::StartExport{spec});
    for (int i = 0; i < 400 && s.export_status.progress() == 0.0f; ++i) run_frames(1);
    EXPECT_TRUE(s.export_status.running);
    EXPECT_GT(s.export_status.progress(), 0.0f);
    view_->send(lab::cmd::CancelExport{});
    for (int i = 0; i < 400 && s.export_status.running; ++i) run_frames(1);
    EXPECT_FALSE(s.export_status.running);
    // The renderer's own words, as for any export it does not finish.
    EXPECT_EQ(s.export_status.message, "not saved: cancelled; nothing was written to " + spec.path);
    EXPECT_FALSE(std::filesystem::exists(folder / "panel.mp4"));
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        EXPECT_FALSE(entry.path().filename().string().starts_with(".ropelab-")) << "staging file left";
    }
    frames(2);  // the window still draws after all that context switching
    std::filesystem::remove_all(folder);
}

// Session panel: save, change things, open again → the saved state is back; a broken file is
// refused with the field named and the current state kept.
TEST_F(LabTest, SessionPanelSavesAndOpens) {
    // What the panel's Save session, Open session and Copy share string send.
    const lab::Status& s = lab_->status();
    const std::string path = ::testing::TempDir() + "/ropelab_session_" + std::to_string(getpid()) + ".json";
    set([&](LabParams& p) { p.position = 777; });
    set([&](LabParams& p) { p.focused_pair = 9; });
    frames(2);
    view_->send(lab::cmd::SaveSession{path});
    frames(2);
    EXPECT_EQ(s.notice, "saved " + path);
    EXPECT_EQ(view_->panel().session_path, path);  // the field follows the file the lab saved
    set([&](LabParams& p) { p.position = 5; });
    preset("gemma-7b");
    frames(2);
    view_->send(lab::cmd::OpenSession{path});
    frames(2);
    EXPECT_EQ(lab_->params().position, 777);
    EXPECT_EQ(lab_->params().focused_pair, 9);
    EXPECT_EQ(lab_->params().model.head_dim, 128);  // textbook again, not gemma's 256

    view_->send(lab::cmd::CopyShareString{});
    frames(2);
    EXPECT_FALSE(s.share_text.empty());
    EXPECT_EQ(std::string(ImGui::GetClipboardText()), s.share_text);
    EXPECT_EQ(view_->panel().share_text, s.share_text);

    std::ofstream(path) << "{\"ropelab_session\": 1, \"focus\": {\"pair\": 5000}}";
    view_->send(lab::cmd::OpenSession{path});
    frames(2);
    EXPECT_NE(s.error.find("focus.pair"), std::string::npos) << s.error;
    EXPECT_EQ(lab_->params().position, 777);
    std::remove(path.c_str());
}

// Presenter keys through GLFW's key callback (what a keyboard or a clicker sends); each press
// counts even when several arrive within one frame; leaving presenting restores the user's own
// scale and theme.
TEST_F(LabTest, PresenterKeysStepScenesAndLeavingRestoresTheUsersDisplay) {
    set([&](LabParams& p) { p.ui_scale = 1.25f; });
    command(lab::cmd::OpenReadLesson{.lesson = load_lesson("builtin"), .present = true, .source = ""});
    frames(2);
    EXPECT_TRUE(lab_->params().presenting);
    EXPECT_FALSE(lab_->params().show_controls);
    EXPECT_EQ(lab_->params().ui_scale, 2.0f);
    EXPECT_EQ(lab_->params().theme, Theme::Light);
    auto keys = [&](int key, int times) {  // `times` presses and releases, all inside one frame
        frames(1, [&](int) {
            for (int i = 0; i < times; ++i) {
                window_->send_key(key, true);
                window_->send_key(key, false);
            }
        });
        frames(1);
    };
    EXPECT_EQ(lab_->scene(), 0);
    keys(GLFW_KEY_RIGHT, 2);
    EXPECT_EQ(lab_->scene(), 2);
    keys(GLFW_KEY_PAGE_UP, 1);
    EXPECT_EQ(lab_->scene(), 1);
    keys(GLFW_KEY_PAGE_DOWN, 6);  // a clicker's six quick presses
    EXPECT_EQ(lab_->scene(), 7);
    keys(GLFW_KEY_END, 1);
    EXPECT_EQ(lab_->scene(), lab_->scene_count() - 1);
    keys(GLFW_KEY_PAGE_DOWN, 1);  // past the end stays at the end
    EXPECT_EQ(lab_->scene(), lab_->scene_count() - 1);
    keys(GLFW_KEY_HOME, 1);
    EXPECT_EQ(lab_->scene(), 0);
    keys(GLFW_KEY_B, 1);
    EXPECT_TRUE(lab_->params().blank);
    keys(GLFW_KEY_B, 1);
    EXPECT_FALSE(lab_->params().blank);
    keys(GLFW_KEY_ESCAPE, 1);
    EXPECT_FALSE(lab_->params().presenting);
    EXPECT_TRUE(lab_->params().show_controls);
    EXPECT_EQ(lab_->params().ui_scale, 1.25f);
    EXPECT_EQ(lab_->params().theme, Theme::Dark);
    EXPECT_TRUE(lab_->has_lesson());
    keys(GLFW_KEY_ESCAPE, 1);  // not presenting: Esc closes the lesson
    EXPECT_FALSE(lab_->has_lesson());
}

// While presenting: no hover tooltips over the slides, and the pointer hides after 2 s still.
TEST_F(LabTest, PresentingShowsNoTooltipsAndHidesAnIdlePointer) {
    auto tooltip_shown = [] {
        const ImGuiWindow* w = ImGui::FindWindowByName("##Tooltip_00");
        return w != nullptr && w->Active;
    };
    frames(3);
    const ImVec2 title = center_of("3 Score vs distance");
    frames(3, [&](int) { ImGui::GetIO().MousePos = title; });
    EXPECT_TRUE(tooltip_shown()) << "the lab shows the title's tooltip";
    command(lab::cmd::OpenReadLesson{.lesson = load_lesson("builtin"), .present = true, .source = ""});
    frames(3);
    ImVec2 view(-1, -1);  // the first view title the scene shows
    for (const ui::Widget& w : ui::log().this_frame()) {
        if (w.kind == "button" && !w.label.empty() && std::isdigit(static_cast<unsigned char>(w.label[0])) && view.x < 0) {
            view = ImVec2(w.x + w.w / 2, w.y + w.h / 2);
        }
    }
    ASSERT_GE(view.x, 0.0f);
    frames(3, [&](int) { ImGui::GetIO().MousePos = view; });
    EXPECT_FALSE(tooltip_shown()) << "no tooltip while presenting";
    window_->move_pointer(100, 100);
    frames(2);
    EXPECT_FALSE(window_->cursor_hidden());
    std::this_thread::sleep_for(std::chrono::milliseconds(2100));
    frames(2);
    EXPECT_TRUE(window_->cursor_hidden());
    window_->move_pointer(120, 100);
    frames(2);
    EXPECT_FALSE(window_->cursor_hidden());
    command(lab::cmd::Present{false});
    command(lab::cmd::CloseLesson{});
    frames(2);
}

}  // namespace
}  // namespace ropelab
