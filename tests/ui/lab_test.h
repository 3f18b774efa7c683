#pragma once
// The lab's window and frame loop in this process under Xvfb, shared by tests/ui/test_ui_*.cpp:
// one window and compute device for the suite, a fresh Lab per test, input injected between the
// platform backend and ImGui.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include <imgui.h>

#include "support/image.h"
#include "gpu/gl_device.h"
#include "gpu/gl_context.h"
#include "views/lab_view.h"
#include "ui/widgets.h"
#include "window.h"

// Not in an anonymous namespace: every file's TEST_F(LabTest, …) must name the one fixture class.
namespace ropelab {

using test::Image;
using test::load_png;
using test::spread;

// Mean absolute difference per channel over a region (x from x0 to the right edge).
inline double difference(const Image& a, const Image& b, int x0 = 0) {
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
        if (window_) return;  // a fixture derived from this one shares the process's one window
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
        device_ = gpu::GlDevice::open(gpu::DeviceRequest::Auto, false, notice).release();
    }

    void SetUp() override {
        if (!window_) GTEST_SKIP() << "no window: " << why_;
        errors_before_ = gpu::gl_error_count();
        LabParams p;
        p.playing = false;
        p.ui_scale = 1.0f;
        // These tests read every view at once, as the grid shows them (the All workspace); the
        // workspaces' own layouts are tests/ui/test_workspaces.cpp's and test_layout.cpp's.
        p.workspace = Workspace::All;
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
    // One step of the lab with one command, between frames: the door every change goes through.
    void command(lab::Command c) { lab_->update(0.0, {}, std::span<const lab::Command>(&c, 1)); }
    void set(const std::function<void(LabParams&)>& edit) {
        LabParams p = lab_->params();
        edit(p);
        command(lab::cmd::SetState{.state = p, .control = "", .notice = ""});
        ASSERT_TRUE(lab_->params() == lab::with_query_in_image(p)) << lab_->status().error;
    }
    bool preset(const std::string& name) {
        command(lab::cmd::SelectPreset{name});
        return lab_->status().error.empty() && lab_->params().preset == name;
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
    static inline gpu::GlDevice* device_ = nullptr;
    static inline std::string why_;
    std::unique_ptr<Lab> lab_;
    std::unique_ptr<views::LabView> view_;
    int errors_before_ = 0;
};

}  // namespace ropelab
