// tests/ui: the real window and frame loop under Xvfb, input injected between the platform
// backend and ImGui, assertions on the lab's state and on rendered pixels.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>
#include <memory>

#include <imgui.h>
#include <imgui_internal.h>
#include <nlohmann/json.hpp>
#include <stb/stb_image.h>

#include "support/image.h"
#include "support/run_binary.h"
#include "core/presets.h"
#include "core/rotation.h"
#include "gpu/compute_device.h"
#include "gpu/gl_context.h"
#include "state/compare.h"
#include "views/lab_view.h"
#include "export_job.h"
#include "state/session.h"
#include "lesson/lesson.h"
#include "ui/widgets.h"
#include "window.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace ropelab {
namespace {

using test::Image;
using test::load_png;
using test::spread;

// Mean absolute difference per channel over a region (x from x0 to the right edge).
double difference(const Image& a, const Image& b, int x0 = 0) {
    if (a.width != b.width || a.height != b.height) return 255;
    double total = 0;
    for (int y = 0; y < a.height; ++y) {
        for (int x = x0; x < a.width; ++x) {
            for (int c = 0; c < 3; ++c) total += std::abs(a.channel(x, y, c) - b.channel(x, y, c));
        }
    }
    return total / (3.0 * (a.width - x0) * a.height);
}

class LabTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        std::string why;
        WindowOptions options;
        options.vsync = false;
        options.minimised_wait_s = 0.001;
        window_ = Window::open(options, why).release();
        if (!window_) {
            why_ = why;
            return;
        }
        std::string notice;
        device_ = gpu::ComputeDevice::open(gpu::DeviceRequest::Auto, false, notice).release();
    }

    void SetUp() override {
        if (!window_) GTEST_SKIP() << "no window: " << why_;
        errors_before_ = gpu::gl_error_count();
        LabParams p;
        p.playing = false;
        p.ui_scale = 1.0f;
        lab_ = std::make_unique<Lab>(*device_, p);
        view_ = std::make_unique<views::LabView>(*lab_);
    }

    void TearDown() override {
        if (!window_) return;
        EXPECT_EQ(gpu::gl_error_count(), errors_before_) << gpu::last_gl_error();
        window_->set_input_hook({});
    }

    // Runs frames; `inject(k)` runs in frame k between the backend and ImGui.
    void frames(int n, const std::function<void(int)>& inject = {}, const std::string& capture = "") {
        for (int k = 0; k < n; ++k) {
            window_->set_input_hook([&, k] {
                ImGuiIO& io = ImGui::GetIO();
                io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
                io.MouseDown[0] = false;
                if (inject) inject(k);
            });
            window_->frame(lab_->params(), [&](const lab::Input& c) { view_->frame(1.0 / 60, c); },
                           k == n - 1 ? capture : "");
        }
    }

    void press_key(ImGuiKey key, int times) {
        const int index = ImGui::GetIO().KeyMap[key];
        frames(2 * times, [&](int k) { ImGui::GetIO().KeysDown[index] = k % 2 == 0; });
    }

    // Where ImGui laid the widget out in the last frame (the widget log), by its visible label.
    ImVec2 center_of(const std::string& label) const {
        for (const ui::Widget& w : ui::log().this_frame()) {
            if (w.label == label && w.visible) return ImVec2(w.x + w.w / 2, w.y + w.h / 2);
        }
        ADD_FAILURE() << "no visible widget " << label;
        return ImVec2(-1, -1);
    }

    // Test set-up goes through the lab's one writer, as every edit does.
    // Frames until every curve is exact (the lab computes long ones a slice per frame); the
    // number of frames it took, or -1 when `limit` frames were not enough.
    int frames_until_exact(int limit = 3000) {
        for (int n = 0; n < limit; ++n) {
            if (!lab_->compute().progress() && lab_->compute().averaging().empty()) return n;
            frames(1);
        }
        return -1;
    }
    void set(const std::function<void(LabParams&)>& edit) {
        LabParams p = lab_->params();
        edit(p);
        ASSERT_TRUE(lab_->apply(p)) << lab_->status().error;
    }
    bool preset(const std::string& name) {
        LabParams p = lab_->params();
        return lab::select_preset(p, lab_->status(), name) && lab_->apply(p);
    }

    void click(ImVec2 at) {
        frames(4, [&](int k) {
            ImGui::GetIO().MousePos = at;
            ImGui::GetIO().MouseDown[0] = k == 1 || k == 2;
        });
    }

    Image capture(int frames_to_settle = 3) {
        const std::string path = ::testing::TempDir() + "/ropelab_ui_" + std::to_string(getpid()) + ".png";
        frames(frames_to_settle, {}, path);
        Image image = load_png(path);
        std::remove(path.c_str());
        return image;
    }

    static inline Window* window_ = nullptr;
    static inline gpu::ComputeDevice* device_ = nullptr;
    static inline std::string why_;
    std::unique_ptr<Lab> lab_;
    std::unique_ptr<views::LabView> view_;
    int errors_before_ = 0;
};

TEST_F(LabTest, ArrowKeysStepTheFocusedPairByTheta) {
    set([&](LabParams& p) { p.focused_pair = 5; });
    frames(2);
    press_key(ImGuiKey_RightArrow, 10);
    EXPECT_EQ(lab_->params().position, 10);
    const RopeFrequencies& f = lab_->compute().data().freqs;
    const double theta = std::pow(10000.0, -10.0 / 128);  // pair 5 of d = 128
    const double drawn = std::arg(pair_rotor(f, 5, lab_->params().position));
    EXPECT_NEAR(drawn, std::remainder(10 * theta, 2 * M_PI), 1e-12);
    press_key(ImGuiKey_LeftArrow, 3);
    EXPECT_EQ(lab_->params().position, 7);
}

TEST_F(LabTest, SpaceTogglesPlaybackAndPlaybackAdvances) {
    frames(2);
    press_key(ImGuiKey_Space, 1);
    EXPECT_TRUE(lab_->params().playing);
    const std::int64_t before = lab_->params().position;
    frames(60);  // one second at the default 4 positions per second
    EXPECT_EQ(lab_->params().position - before, 4);
}

TEST_F(LabTest, ChoosingAPresetChangesTheFrequencies) {
    frames(2);
    const std::vector<double> textbook = lab_->compute().data().freqs.inv_freq;
    ASSERT_TRUE(preset("llama3.1-8b"));
    frames(2);
    const auto& now = lab_->compute().data().freqs.inv_freq;
    const auto expected = compute_frequencies(preset_or_throw("llama3.1-8b").config).inv_freq;
    EXPECT_EQ(now, expected);
    EXPECT_NE(now, textbook);
}

TEST_F(LabTest, DraggingThetaChangesTheScoreCurve) {
    frames(3);
    const double theta_before = lab_->params().model.rope_theta;
    const float score_before = device_->series_value(gpu::Series::Scores, 100);
    const int version_before = lab_->compute().series_version();
    const ImVec2 start = center_of("θ (base)");
    frames(12, [&](int k) {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = ImVec2(start.x + (k >= 2 ? 4.0f * (k - 1) : 0.0f), start.y);
        io.MouseDown[0] = k >= 1 && k < 11;
    });
    frames(3);
    EXPECT_GT(lab_->params().model.rope_theta, theta_before);
    EXPECT_GT(lab_->compute().series_version(), version_before);
    EXPECT_NE(device_->series_value(gpu::Series::Scores, 100), score_before);
}

TEST_F(LabTest, LayoutToggleRepairsTheComponents) {
    set([&](LabParams& p) { p.vectors = VectorChoice::Random; });
    frames(3);
    click(center_of("half"));
    frames(2);
    ASSERT_EQ(lab_->params().model.layout, PairLayout::Half);
    const LabData& d = lab_->compute().data();
    // Half layout: pair i is (q_i, q_{i+64}); checked against the coefficients the curves use.
    for (int i : {0, 1, 17, 63}) {
        const std::complex<double> q(d.q[i], d.q[i + 64]), k(d.k[i], d.k[i + 64]);
        EXPECT_NEAR(std::abs(d.coefficients.pair[i] - q * std::conj(k)), 0.0, 1e-12) << i;
    }
    click(center_of("interleaved"));
    frames(2);
    EXPECT_EQ(lab_->params().model.layout, PairLayout::Interleaved);
    const std::complex<double> q(d.q[2], d.q[3]), k(d.k[2], d.k[3]);
    EXPECT_NEAR(std::abs(lab_->compute().data().coefficients.pair[1] - q * std::conj(k)), 0.0, 1e-12);
}

TEST_F(LabTest, BadValuesAreRefusedAndThePreviousValueStays) {
    frames(2);
    ModelConfig odd = lab_->params().model;
    odd.head_dim = 127;
    LabParams p = lab_->params();
    EXPECT_FALSE(lab::try_set_model(p, lab_->status(), odd));
    EXPECT_EQ(lab_->params().model.head_dim, 128);
    EXPECT_NE(lab_->status().error.find("127"), std::string::npos);
    const std::string broken = ::testing::TempDir() + "/ropelab_ui_broken.json";
    std::ofstream(broken) << "{\"head_dim\": 64, \"rope_theta\": \"x\"}";
    EXPECT_FALSE(lab::load_config(p, lab_->status(), broken));
    EXPECT_EQ(lab_->params().model.head_dim, 128);
    EXPECT_NE(lab_->status().error.find("rope_theta"), std::string::npos);
    std::remove(broken.c_str());
}

// Every view at 1280×720: not blank, and it changes where it should when the position moves.
// Minimised for 1,000 frames: nothing drawn, no GL error, no playback running on behind the
// user's back, and the same picture when it comes back.
TEST_F(LabTest, MinimisedForAThousandFramesThenRestored) {
    set([&](LabParams& p) { p.position = 100; });
    const Image before = capture();
    set([&](LabParams& p) { p.playing = true; });
    window_->simulate_minimised(true);
    int drawn = 0;
    for (int k = 0; k < 1000; ++k) {
        drawn += window_->frame(lab_->params(), [&](const lab::Input& c) { view_->frame(1.0 / 60, c); }) ? 1 : 0;
    }
    window_->simulate_minimised(false);
    EXPECT_EQ(drawn, 0);
    EXPECT_EQ(lab_->params().position, 100) << "playback ran while minimised";
    set([&](LabParams& p) { p.playing = false; });
    const Image after = capture();
    EXPECT_LT(difference(before, after), 0.5);
    EXPECT_GT(spread(after), 10.0);
}

TEST_F(LabTest, EveryViewRendersAndFollowsThePosition) {
    const bool follows_position[kViewCount] = {true, true, false, true, true, false, true, true};
    for (int v = 0; v < kViewCount; ++v) {
        set([&](LabParams& p) { p.focused_view = v; });
        set([&](LabParams& p) { p.position = 40; });
        const Image before = capture();
        ASSERT_EQ(before.width, 1280);
        ASSERT_EQ(before.height, 720);
        EXPECT_GT(spread(before), 10.0) << "view " << v + 1 << " looks blank";
        set([&](LabParams& p) { p.position = 300; });
        const Image after = capture();
        const double changed = difference(before, after, 420);  // the view area, right of the controls
        if (follows_position[v]) {
            EXPECT_GT(changed, 0.02) << "view " << v + 1 << " ignores the position";
        } else {
            EXPECT_LT(changed, 0.02) << "view " << v + 1 << " changed without reason";
        }
    }
}

// Golden images (made by this app's own --screenshot, looked at, committed): frequencies and
// numbers views of the Llama 3.1 preset. Tolerance: mean channel difference below 1.5.
TEST_F(LabTest, GoldenImages) {
    preset("llama3.1-8b");
    set([&](LabParams& p) { p.position = 1000; });
    set([&](LabParams& p) { p.focused_pair = 30; });
    for (int v : {6, 7}) {
        set([&](LabParams& p) { p.focused_view = v - 1; });
        const std::string golden = std::string(ROPELAB_SOURCE_DIR) + "/tests/ui/golden/view" + std::to_string(v) + ".png";
        if (std::getenv("ROPELAB_UPDATE_GOLDEN")) {  // regenerate, then look at them before committing
            frames(4, {}, golden);
            continue;
        }
        const Image image = capture(4);
        const Image expected = load_png(golden);
        ASSERT_GT(expected.width, 0) << "missing " << golden;
        EXPECT_LT(difference(image, expected), 1.5) << "view " << v << " differs from " << golden;
    }
}

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
            exports.step(*lab_);
            usleep(20000);  // the export runs in another process; give it time
        }
    };
    lab::Status& s = lab_->status();
    s.export_spec.path = (folder / "panel.png").string();
    s.export_spec.view = 2;
    s.export_spec.width = 640;
    s.export_spec.height = 360;
    s.export_status.requested = true;
    for (int i = 0; i < 400 && s.export_status.message.empty(); ++i) run_frames(1);
    EXPECT_EQ(s.export_status.message, "saved " + s.export_spec.path);
    EXPECT_TRUE(std::filesystem::exists(s.export_spec.path));
    EXPECT_EQ(load_png(s.export_spec.path).width, 640);

    s.export_spec.path = (folder / "panel.mp4").string();
    s.export_spec.frames = 300;
    s.export_status.requested = true;
    for (int i = 0; i < 400 && s.export_status.progress == 0.0f; ++i) run_frames(1);
    EXPECT_TRUE(s.export_status.running);
    EXPECT_GT(s.export_status.progress, 0.0f);
    s.export_status.cancel = true;
    for (int i = 0; i < 400 && s.export_status.running; ++i) run_frames(1);
    EXPECT_FALSE(s.export_status.running);
    EXPECT_NE(s.export_status.message.find("nothing left"), std::string::npos) << s.export_status.message;
    EXPECT_FALSE(std::filesystem::exists(folder / "panel.mp4"));
    EXPECT_FALSE(std::filesystem::exists(folder / "panel.mp4.partial"));
    frames(2);  // the window still draws after all that context switching
    std::filesystem::remove_all(folder);
}

// Session panel: save, change things, open again → the saved state is back; a broken file is
// refused with the field named and the current state kept.
TEST_F(LabTest, SessionPanelSavesAndOpens) {
    lab::Status& s = lab_->status();
    s.session_path = ::testing::TempDir() + "/ropelab_session_" + std::to_string(getpid()) + ".json";
    set([&](LabParams& p) { p.position = 777; });
    set([&](LabParams& p) { p.focused_pair = 9; });
    frames(2);
    s.session_request.kind = lab::SessionRequest::Kind::Save;
    frames(2);
    EXPECT_EQ(s.notice, "saved " + s.session_path);
    set([&](LabParams& p) { p.position = 5; });
    preset("gemma-7b");
    frames(2);
    s.session_request.kind = lab::SessionRequest::Kind::Load;
    frames(2);
    EXPECT_EQ(lab_->params().position, 777);
    EXPECT_EQ(lab_->params().focused_pair, 9);
    EXPECT_EQ(lab_->params().model.head_dim, 128);  // textbook again, not gemma's 256

    s.session_request.kind = lab::SessionRequest::Kind::CopyShareString;
    frames(2);
    EXPECT_FALSE(s.share_text.empty());
    EXPECT_EQ(std::string(ImGui::GetClipboardText()), s.share_text);

    std::ofstream(s.session_path) << "{\"ropelab_session\": 1, \"focus\": {\"pair\": 5000}}";
    s.session_request.kind = lab::SessionRequest::Kind::Load;
    frames(2);
    EXPECT_NE(s.error.find("focus.pair"), std::string::npos) << s.error;
    EXPECT_EQ(lab_->params().position, 777);
    std::remove(s.session_path.c_str());
}

// Presenter keys through GLFW's key callback (what a keyboard or a clicker sends); each press
// counts even when several arrive within one frame; leaving presenting restores the user's own
// scale and theme.
TEST_F(LabTest, PresenterKeysStepScenesAndLeavingRestoresTheUsersDisplay) {
    set([&](LabParams& p) { p.ui_scale = 1.25f; });
    lab_->open_lesson(load_lesson("builtin"), true);
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
    lab_->open_lesson(load_lesson("builtin"), true);
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
    lab_->set_presenting(false);
    lab_->close_lesson();
    frames(2);
}

// Two widgets with one ImGui ID within a frame are caught and named.
TEST_F(LabTest, DuplicateImGuiIdsAreNamed) {
    const std::size_t before = ui::log().duplicates().size();
    window_->set_input_hook({});
    window_->frame(lab_->params(), [&](const lab::Input&) {
        ui::log().begin_frame();
        ImGui::Begin("twins");
        ui::header("Export");
        ui::button("Export");
        ImGui::End();
    });
    ASSERT_EQ(ui::log().duplicates().size(), before + 1);
    const std::string clash = ui::log().duplicates().back();
    EXPECT_NE(clash.find("header \"Export\""), std::string::npos) << clash;
    EXPECT_NE(clash.find("button \"Export\""), std::string::npos) << clash;
}

// Derived data is keyed per product: focusing a pair recomputes its series only.
TEST_F(LabTest, FocusingAPairDoesNotRecomputeTheCurves) {
    frames(2);
    const int curves = lab_->compute().recompute_count();
    const int focus = lab_->compute().focus_refresh_count();
    set([&](LabParams& p) { p.focused_pair = 17; });
    frames(2);
    EXPECT_EQ(lab_->compute().recompute_count(), curves);
    EXPECT_EQ(lab_->compute().focus_refresh_count(), focus + 1);
    set([&](LabParams& p) { p.model.rope_theta = 20000; });
    frames(2);
    EXPECT_EQ(lab_->compute().recompute_count(), curves + 1);
}

// Compare mode: dragging the base's θ recomputes the base alone; the compared curves keep their
// data and series, and every curve ends exact (one refined per quiet frame) with the values of
// an independent float64 evaluation of that setting's own sum.
TEST_F(LabTest, CompareRecomputesOnlyTheSettingThatChanged) {
    set([&](LabParams& p) {
        p = with_compared(p, {"rope_type=yarn,factor=8", "llama3-8b", "layout=half"});
        p.max_distance = 1 << 20;
        p.vectors = VectorChoice::Random;
    });
    frames(2);
    EXPECT_GT(frames_until_exact(), 1);  // four curves of 2^20: over several frames
    EXPECT_EQ(lab_->compute().largest_stride(), 1);
    const int made = lab_->compute().setting_computations();
    set([&](LabParams& p) { p.model.rope_theta = 20000; });
    frames(1);
    EXPECT_EQ(lab_->compute().setting_computations(), made + 1);  // the base, not the three others
    EXPECT_EQ(lab_->compute().setting_stride(2), 1);               // their exact curves stay
    EXPECT_GE(frames_until_exact(), 1);
    EXPECT_EQ(lab_->compute().largest_stride(), 1);
    // Reading single values back (series_value binds the buffer, hence not const).
    auto& device = const_cast<gpu::ComputeDevice&>(lab_->compute().device());
    for (int s = 0; s < 4; ++s) {
        const LabData& d = lab_->compute().setting_data(s);
        for (std::int64_t delta : {0, 1, 777, 123456, (1 << 20) - 1}) {
            EXPECT_NEAR(device.series_value(gpu::setting_series(s), delta), evaluate(d.rope_sum, delta), 1e-5 * d.coefficients.l1())
                << s << " " << delta;
        }
    }
    // An edit of one compared setting recomputes that one.
    set([&](LabParams& p) { p.compared[1].model.rope_theta = 1e6; });
    frames(1);
    EXPECT_EQ(lab_->compute().setting_computations(), made + 2);
}

TEST(GuiCommand, SessionOptionOpensAShareString) {
    Session session;
    session.params.position = 4242;
    session.params.focused_view = 6;  // numbers
    session.params.playing = false;
    const test::Result good = test::run("gui --frames 2 --session " + share_string(session));
    EXPECT_EQ(good.status, 0) << good.err;
    const test::Result bad = test::run("gui --frames 2 --session AAAA");
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("--session"), std::string::npos) << bad.err;
}

TEST(GuiCommand, FramesStatsAndScreenshot) {
    const std::string png = ::testing::TempDir() + "/ropelab_gui_cmd_" + std::to_string(getpid()) + ".png";
    const test::Result r = test::run("gui --frames 5 --stats --paused --screenshot " + png);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto stats = nlohmann::json::parse(r.out);
    EXPECT_EQ(stats["frames"], 5);
    EXPECT_EQ(stats["gl_errors"], 0);
    EXPECT_GT(stats["mean_ms"].get<double>(), 0.0);
    const Image image = load_png(png);
    EXPECT_EQ(image.width, 1280);
    EXPECT_EQ(image.height, 720);
    EXPECT_GT(spread(image), 10.0);
    std::remove(png.c_str());
}

// Pixels of the warning colour (240, 170, 40) in the controls panel (x < 330).
int warning_pixels(const Image& img) {
    int count = 0;
    for (int y = 0; y < img.height; ++y) {
        for (int x = 0; x < std::min(330, img.width); ++x) {
            if (std::abs(img.channel(x, y, 0) - 240) < 30 && std::abs(img.channel(x, y, 1) - 170) < 30 &&
                img.channel(x, y, 2) < 90) {
                ++count;
            }
        }
    }
    return count;
}

// A GL 3.3 core context (what macOS and old drivers give): no compute shaders, so the CPU path
// computes, the panel says so in the warning colour, and every view still draws.
TEST(GuiCommand, OpenGl33ContextFallsBackToTheCpuVisibly) {
    const std::string png = ::testing::TempDir() + "/ropelab_gl33_" + std::to_string(getpid()) + ".png";
    for (int view = 0; view <= kViewCount; ++view) {
        const test::Result r = test::run("gui --frames 3 --stats --paused --view " + std::to_string(view) +
                                             " --screenshot " + png,
                                         "MESA_GL_VERSION_OVERRIDE=3.3");
        ASSERT_EQ(r.status, 0) << r.err;
        EXPECT_NE(r.err.find("computing on the CPU: OpenGL 3.3"), std::string::npos) << r.err;
        const auto stats = nlohmann::json::parse(r.out);
        EXPECT_EQ(stats["device"], "cpu");
        EXPECT_EQ(stats["gl_errors"], 0);
        const Image image = load_png(png);
        EXPECT_GT(spread(image), 10.0) << "view " << view << " looks blank";
        if (view == 0) {
            EXPECT_GT(warning_pixels(image), 100) << "no visible CPU notice";
        }
    }
    const test::Result normal = test::run("gui --frames 3 --paused --screenshot " + png);
    ASSERT_EQ(normal.status, 0) << normal.err;
    EXPECT_LT(warning_pixels(load_png(png)), 10) << "the warning colour appears without a reason";
    std::remove(png.c_str());
}

TEST(GuiCommand, UnwritableScreenshotFailsCleanly) {
    const test::Result r = test::run("gui --frames 2 --screenshot /nonexistent/dir/shot.png");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("/nonexistent/dir/shot.png"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists("/nonexistent/dir/shot.png.partial"));
}

}  // namespace
}  // namespace ropelab
