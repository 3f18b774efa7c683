#pragma once
// The desktop window, a surface for the frame driver: GLFW, Dear ImGui's GLFW backend, input,
// fullscreen, screenshots and the present. With src/gpu it is the only code that calls GL.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "export/image.h"
#include "frame_driver.h"
#include "lab/input.h"
#include "state/params.h"

struct GLFWwindow;

namespace ropelab {

struct WindowOptions {
    int width = 1280, height = 720;
    bool vsync = true;
    int monitor = 0;  // which monitor fullscreen (and presenting) uses; 0 = the primary
    std::string title = "ropelab — Rotary Position Embeddings lab";
    // How long a minimised window sleeps per frame waiting for events (tests shorten it).
    double minimised_wait_s = 0.25;
};

class Window {
public:
    // Opens the window with a GL 4.3 core context (compute shaders), else 3.3 core (the CPU
    // path then computes). nullptr and a one-line reason when no window can be opened.
    static std::unique_ptr<Window> open(const WindowOptions& options, std::string& why);
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    bool should_close() const;
    // The monitor's content scale (1 on ordinary screens, 2 on HiDPI).
    float content_scale() const;

    // One frame: events, then `build` between ImGui's NewFrame and Render, then draw and swap.
    // A minimised window (iconified, or a 0×0 framebuffer) waits for events instead of drawing
    // and returns false. `capture_to`, when set, saves this frame as a PNG (error text on failure).
    bool frame(const LabParams& presentation, const std::function<void(const lab::Input&)>& build,
               const std::string& capture_to = "", std::string* capture_error = nullptr);

    // Sleeps until an input event arrives or `seconds` pass (an idle lab: idle_pacer.h); the
    // next frame handles what arrived.
    void wait_for_input(double seconds);
    // The refresh rate of the screen the window is on, in Hz (0 where it does not say).
    double refresh_rate() const;
    // Input events so far (keys, characters, buttons, motion, wheel, drops, focus, resizes), and
    // whether some are still queued for ImGui (handed over one change per frame).
    std::uint64_t input_events() const { return input_events_; }
    bool input_queued() const { return !queue_.empty(); }

    // Called each frame after the platform backend has read the real mouse and keyboard and
    // before ImGui sees them: tests inject input here, into the real frame loop.
    void set_input_hook(std::function<void()> hook) { input_hook_ = std::move(hook); }
    // Moves the pointer off the window, so scripted screenshots show no hover tooltips.
    void park_pointer();
    // For tests: what a window manager's minimise does to the frame loop (Xvfb has no window
    // manager, so GLFW never sees the window iconified there).
    void simulate_minimised(bool on) { simulated_minimised_ = on; }
    // Scripted input (gui --script) through the GLFW callbacks real devices use.
    void send_key(int glfw_key, bool press);
    void send_char(unsigned codepoint);
    void send_mouse_button(bool press);  // the left button
    void send_scroll(double dy);
    void send_drop(const std::string& path);  // a file dropped onto the window
    void move_pointer(double x, double y);
    bool cursor_hidden() const { return cursor_hidden_; }
    // Makes the window's GL context current again (after an offscreen export step).
    void make_current();
    // The window's framebuffer size in pixels, and its size in screen coordinates.
    std::pair<int, int> framebuffer_size() const;
    std::pair<int, int> window_size() const;
    void set_window_size(int width, int height);
    // For a second window sharing this one's GL textures (the audience's, audience.h).
    GLFWwindow* glfw_window() const { return window_; }
    // Presenter keys pressed in `other` reach this window's lab, as if pressed here.
    void take_keys_from(GLFWwindow* other);

    // Where the last frame's time went: building the UI (views, plots, compute requests) and
    // rendering plus presenting it.
    double last_build_ms() const { return build_ms_; }
    double last_render_ms() const { return render_ms_; }

private:
    Window() = default;
    void apply_presentation(const LabParams& p);
    void set_fullscreen(bool on);

    GLFWwindow* window_ = nullptr;
    lab::Input pending_;
    FrameDriver driver_;
    bool fullscreen_ = false;
    int windowed_[4] = {0, 0, 1280, 720};  // x, y, w, h to return to from fullscreen
    double build_ms_ = 0.0, render_ms_ = 0.0;
    int monitor_ = 0;
    std::function<void()> input_hook_;
    bool screenshot_requested_ = false;
    bool pointer_parked_ = false;
    bool simulated_minimised_ = false;
    double minimised_wait_s_ = 0.25;
    double last_motion_ = 0.0;
    std::uint64_t input_events_ = 0;
    bool cursor_hidden_ = false;
    bool key_held_[512] = {};
    // Keys, characters and mouse buttons as GLFW delivered them, not yet handed to ImGui.
    struct InputEvent {
        enum Kind { Key, Char, Mouse } kind;
        int code;   // GLFW key, codepoint or button
        bool down;  // pressed (keys, buttons)
    };
    std::vector<InputEvent> queue_;
    bool buttons_down_[5] = {};  // as the queue has left them (ImGui's five buttons)
    void trickle_input();

    friend struct WindowCallbacks;
};

// The bound framebuffer's w×h pixels, rows top-down (GL reads them bottom-up).
RgbaImage read_framebuffer(int width, int height);

// Saves the current GL framebuffer (w×h, bottom-up RGBA) as a PNG: written to a temporary file
// beside `path` and renamed, so a failure never leaves a partial file under that name.
bool save_framebuffer_png(const std::string& path, int width, int height, std::string& error);

// Where F12 saves: a timestamped name in $ROPELAB_SCREENSHOT_DIR, the pictures folder's ropelab/
// ($XDG_PICTURES_DIR, user-dirs.dirs, else ~/Pictures: core/user_dirs.h) or ./screenshots
// (created if missing).
std::string screenshot_path();

}  // namespace ropelab
