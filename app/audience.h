#pragma once
// Presenting with notes: a second window for the audience, and the lecturer's console in the
// first. The lab is drawn (by its own ImGui context) into a texture in the lecturer window's GL
// context; the audience window, sharing that context's textures, copies it to its screen, and
// the lecturer's console shows it scaled. Keys pressed in either window reach the lab. The
// pointer over the audience window, or over the console's picture of it, is the lab's pointer:
// the laser, the pen and the spotlight are steered from either and drawn on the audience's screen.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "frame_driver.h"
#include "lab/input.h"
#include "views/lab_view.h"
#include "window.h"

struct GLFWwindow;
struct ImGuiContext;

namespace ropelab {

class Lab;

// Where a window of w×h goes beside `lecturer` (x, y, w, h) on a monitor whose work area is
// `work`: to its right, else its left, where that lies wholly inside; else as near as fits,
// shrunk to the work area if larger. {x, y, w, h}.
struct ScreenRect {
    int x = 0, y = 0, w = 0, h = 0;
    bool operator==(const ScreenRect&) const = default;
};
ScreenRect place_audience(const ScreenRect& lecturer, const ScreenRect& work, int w, int h);

class Presentation {
public:
    // Opens the audience window (fullscreen on `monitor` when there are several monitors: 0 picks
    // the first that is not the primary); with one, beside `lecturer` where that fits on the
    // monitor's work area, else inside it (place_audience). nullptr and a reason on failure.
    static std::unique_ptr<Presentation> open(Window& lecturer, int width, int height, int monitor, std::string& why);
    ~Presentation();
    Presentation(const Presentation&) = delete;
    Presentation& operator=(const Presentation&) = delete;

    // Inside the lecturer window's frame: the lab's frame into the audience texture (with the
    // window's keys and the console's buttons), then the console in the lecturer's ImGui context.
    void frame(views::LabView& view, double seconds, const lab::Input& input);
    // After the lecturer's frame: the texture onto the audience window, presented (no vsync: the
    // lecturer's window waits for it). The lecturer's context is current again afterwards.
    void present();
    // The audience window was closed (the presentation ends).
    bool closed() const;
    // The audience's last frame as a PNG.
    bool save_png(const std::string& path, std::string& error) const;
    // The audience's window, for scripts that point and press there (gui --script).
    GLFWwindow* audience_window() const { return audience_; }

    // What the audience window's GLFW callbacks reported: a mouse's buttons and keys there, or a
    // script's through the same callbacks. (Where the pointer is, is asked each frame.)
    struct AudienceInput {
        bool buttons[3] = {}, keys[4] = {};  // left, right, middle; D, L, S, C held
    };

private:
    Presentation() = default;
    void resize_target(int width, int height);
    void place_window(GLFWwindow* shared);
    void listen_to_audience();
    // The lab's ImGui input this frame: the pointer and buttons over the audience window, else
    // over the console's picture, else nowhere; the presenter aids' keys held in either window.
    void hand_pointer_to_lab();
    void advance_clock(const Lab& lab, double seconds);

    Window* lecturer_ = nullptr;
    GLFWwindow* audience_ = nullptr;
    ImGuiContext* imgui_ = nullptr;  // the lab's, drawing into the texture
    FrameDriver driver_;
    unsigned framebuffer_ = 0, texture_ = 0;  // in the lecturer's context
    unsigned blit_source_ = 0;                // the audience context's own (framebuffers are not shared)
    int width_ = 0, height_ = 0;
    double elapsed_s_ = 0.0;
    bool clock_started_ = false, clock_paused_ = false;
    std::vector<lab::Key> button_keys_;  // the console's buttons, for the next frame
    ImVec2 picture_min_, picture_max_;  // the console's picture of the audience, as last laid out
    AudienceInput audience_input_;
};

}  // namespace ropelab
