#include "window.h"

#include "gpu/gl_api.h"
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif
// epoxy provides the GL declarations; keep GLFW from including its own.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <cfloat>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <vector>

#include "export/image.h"
#include "gpu/gl_context.h"
#include "core/headroom.h"
#include "core/user_dirs.h"
#include "imgui_setup.h"
#include "ui/file_dialog.h"

namespace ropelab {

namespace {

// The key's platform scancode, as a real press would carry it (emscripten's GLFW has none).
int key_scancode(int key) {
#ifdef __EMSCRIPTEN__
    return key;
#else
    return glfwGetKeyScancode(key);
#endif
}

// While probing for a 4.3 context a refusal is expected; only the last attempt's errors count.
bool quiet_glfw_errors = false;

}  // namespace

struct WindowCallbacks {
    static Window* owner(GLFWwindow* w) { return static_cast<Window*>(glfwGetWindowUserPointer(w)); }
    // What every key event does: queued for ImGui (trickled, one change per key per frame), and
    // the lab's keys counted at once.
    static void queued_key(GLFWwindow* w, int key, int scancode, int action, int mods) {
        Window* self = owner(w);
        ++self->input_events_;
        if (action != GLFW_REPEAT) self->queue_.push_back({.kind = Window::InputEvent::Key, .code = key, .down = action == GLFW_PRESS});
        undo_key(w, key, action, mods);
        WindowCallbacks::key(w, key, scancode, action, mods);
    }
    static void queued_char(GLFWwindow* w, unsigned codepoint) {
        ++owner(w)->input_events_;
        owner(w)->queue_.push_back({.kind = Window::InputEvent::Char, .code = static_cast<int>(codepoint), .down = true});
    }
    static void queued_mouse(GLFWwindow* w, int button, int action, int) {
        ++owner(w)->input_events_;
        owner(w)->queue_.push_back({.kind = Window::InputEvent::Mouse, .code = button, .down = action == GLFW_PRESS});
    }
    // Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo (repeats too), unless a text field has the
    // keyboard (its own undo then) or a file dialog is open.
    static void undo_key(GLFWwindow* w, int key, int action, int mods) {
        if (action == GLFW_RELEASE || !(mods & GLFW_MOD_CONTROL) || (key != GLFW_KEY_Z && key != GLFW_KEY_Y)) return;
        if (ImGui::GetIO().WantTextInput || ui::file_dialog_open()) return;
        const bool redo = key == GLFW_KEY_Y || (mods & GLFW_MOD_SHIFT);
        owner(w)->pending_.keys.push_back(redo ? lab::Key::Redo : lab::Key::Undo);
    }
    static void key(GLFWwindow* w, int key, int, int action, int) {
        if (action == GLFW_RELEASE) return;
        if (ui::file_dialog_open() && key != GLFW_KEY_F12) return;  // Esc and arrows are the dialog's then
        // Presses and repeats are queued, so quick presses within one frame all count (ImGui
        // 1.86's legacy input sees a press and release inside one frame as nothing).
        if (const auto k = presenter_key(key); k && (action == GLFW_PRESS || *k != lab::Key::S)) {
            owner(w)->pending_.keys.push_back(*k);
        }
        if (action != GLFW_PRESS) return;
        if (key == GLFW_KEY_F1) owner(w)->pending_.toggle_help = true;
        if (key == GLFW_KEY_F11) owner(w)->pending_.toggle_fullscreen = true;
        if (key == GLFW_KEY_F12) owner(w)->screenshot_requested_ = true;
    }
    static void cursor(GLFWwindow* w, double, double) {
        ++owner(w)->input_events_;
        owner(w)->last_motion_ = glfwGetTime();
    }
    // Events ImGui's backend handles (it chains to these) or that change what the window shows:
    // counted, so an idle window draws again at once (idle_pacer.h).
    static void scroll(GLFWwindow* w, double, double) { ++owner(w)->input_events_; }
    static void focus(GLFWwindow* w, int) { ++owner(w)->input_events_; }
    static void enter(GLFWwindow* w, int) { ++owner(w)->input_events_; }
    static void resized(GLFWwindow* w, int, int) { ++owner(w)->input_events_; }
    static void exposed(GLFWwindow* w) { ++owner(w)->input_events_; }
    static std::optional<lab::Key> presenter_key(int key) {
        using lab::Key;
        switch (key) {
            case GLFW_KEY_LEFT: return Key::Left;
            case GLFW_KEY_RIGHT: return Key::Right;
            case GLFW_KEY_PAGE_UP: return Key::PageUp;
            case GLFW_KEY_PAGE_DOWN: return Key::PageDown;
            case GLFW_KEY_HOME: return Key::Home;
            case GLFW_KEY_END: return Key::End;
            case GLFW_KEY_SPACE: return Key::Space;
            case GLFW_KEY_ESCAPE: return Key::Escape;
            case GLFW_KEY_B: return Key::B;
            case GLFW_KEY_S: return Key::S;
            case GLFW_KEY_D: return Key::D;
            case GLFW_KEY_C: return Key::C;
            case GLFW_KEY_R: return Key::R;
            default: return std::nullopt;
        }
    }
    static void drop(GLFWwindow* w, int count, const char** paths) {
        ++owner(w)->input_events_;
        if (count > 0) owner(w)->pending_.dropped_file = paths[0];
    }
};

std::unique_ptr<Window> Window::open(const WindowOptions& options, std::string& why) {
    glfwSetErrorCallback([](int, const char* message) {
        if (!quiet_glfw_errors) std::fprintf(stderr, "ropelab: glfw: %s\n", message);
    });
    if (!glfwInit()) {
        why = "GLFW could not initialise (no display? set DISPLAY or run under xvfb-run)";
        return nullptr;
    }
    // Mesa crashes (llvmpipe under GLX: SIGSEGV) or fails to load where its allocations do not fit
    // an address-space limit: about 200 MB to load the driver, 110 MB for a context and its
    // threads, and a frame's room. Its lack is "out of memory" (exit 2), said first.
    require_headroom((std::size_t{352} << 20) + kDriverHeadroomBytes);
    std::unique_ptr<Window> w(new Window);
#ifdef __EMSCRIPTEN__
    // The page's canvas: WebGL2 (OpenGL ES 3.0), chosen at link time (app/web/CMakeLists.txt).
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    w->window_ = glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
#else
    for (int minor : {3, -1}) {  // 4.3 core for compute shaders, else 3.3 core
        quiet_glfw_errors = minor >= 0;
        glfwDefaultWindowHints();
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, minor < 0 ? 3 : 4);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor < 0 ? 3 : minor);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
        glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, GLFW_TRUE);
        glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
        w->window_ = glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
        if (w->window_) break;
    }
#endif
    quiet_glfw_errors = false;
    if (!w->window_) {
        require_headroom();
        why = "no OpenGL 3.3 core context could be created";
        glfwTerminate();
        return nullptr;
    }
    w->monitor_ = options.monitor;
    w->minimised_wait_s_ = options.minimised_wait_s;
    glfwMakeContextCurrent(w->window_);
    glfwSwapInterval(options.vsync ? 1 : 0);
    glfwSetWindowUserPointer(w->window_, w.get());
    // Installed before ImGui's, which chains to them.
    glfwSetKeyCallback(w->window_, WindowCallbacks::key);
    glfwSetDropCallback(w->window_, WindowCallbacks::drop);
    glfwSetCursorPosCallback(w->window_, WindowCallbacks::cursor);
    glfwSetScrollCallback(w->window_, WindowCallbacks::scroll);
    glfwSetWindowFocusCallback(w->window_, WindowCallbacks::focus);
    glfwSetCursorEnterCallback(w->window_, WindowCallbacks::enter);
    glfwSetFramebufferSizeCallback(w->window_, WindowCallbacks::resized);
    glfwSetWindowRefreshCallback(w->window_, WindowCallbacks::exposed);
    gpu::install_debug_counter();
    w->driver_ = FrameDriver(is_software_renderer(gpu::current_gl_info().renderer));

    IMGUI_CHECKVERSION();
    install_imgui_allocator();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // the layout is the app's; screenshots reproducible
    ImGui_ImplGlfw_InitForOpenGL(w->window_, true);
    // Keys, characters and buttons go through the window's queue rather than straight into
    // ImGui's state (trickle_input); the backend's other callbacks stay.
    glfwSetKeyCallback(w->window_, WindowCallbacks::queued_key);
    glfwSetCharCallback(w->window_, WindowCallbacks::queued_char);
    glfwSetMouseButtonCallback(w->window_, WindowCallbacks::queued_mouse);
#ifdef __EMSCRIPTEN__
    ImGui_ImplOpenGL3_Init("#version 300 es");
#else
    ImGui_ImplOpenGL3_Init("#version 330 core");
#endif
    return w;
}

Window::~Window() {
    if (!window_) return;
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window_);
    glfwTerminate();
}

bool Window::should_close() const { return glfwWindowShouldClose(window_); }

void Window::wait_for_input(double seconds) { glfwWaitEventsTimeout(seconds); }

double Window::refresh_rate() const {
    GLFWmonitor* monitor = glfwGetWindowMonitor(window_);
    if (!monitor) monitor = glfwGetPrimaryMonitor();
    const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
    return mode ? mode->refreshRate : 0.0;
}

float Window::content_scale() const {
    float x = 1.0f, y = 1.0f;
#ifndef __EMSCRIPTEN__  // emscripten 3.1.6's GLFW draws at CSS pixels: scale 1
    glfwGetWindowContentScale(window_, &x, &y);
#endif
    return std::max(x, y);
}

void Window::set_fullscreen(bool on) {
    if (on == fullscreen_) return;
#ifdef __EMSCRIPTEN__
    // The page's canvas already fills the browser window; full screen is the browser's, asked
    // for the whole page (a browser may refuse it without a recent click or key: then the lab
    // presents in the window as it is).
    if (on) {
        EM_ASM({ if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(() => {}); });
    } else {
        EM_ASM({ if (document.fullscreenElement) document.exitFullscreen().catch(() => {}); });
    }
#else
    int count = 0;
    GLFWmonitor** monitors = glfwGetMonitors(&count);
    GLFWmonitor* monitor = monitor_ > 0 && monitor_ < count ? monitors[monitor_] : glfwGetPrimaryMonitor();
    if (on && monitor) {
        glfwGetWindowPos(window_, &windowed_[0], &windowed_[1]);
        glfwGetWindowSize(window_, &windowed_[2], &windowed_[3]);
        const GLFWvidmode* mode = glfwGetVideoMode(monitor);
        glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    } else {
        glfwSetWindowMonitor(window_, nullptr, windowed_[0], windowed_[1], windowed_[2], windowed_[3], 0);
    }
#endif
    fullscreen_ = on;
}

void Window::apply_presentation(const LabParams& p) {
    int width = 0, height = 0;
    glfwGetWindowSize(window_, &width, &height);
    driver_.present(p, static_cast<float>(width), static_cast<float>(height));
    set_fullscreen(p.fullscreen);
    // Presenting: the pointer hides after 2 s without motion, and comes back when moved.
    const bool hide = p.presenting && glfwGetTime() - last_motion_ > 2.0;
    if (hide != cursor_hidden_) {
        glfwSetInputMode(window_, GLFW_CURSOR, hide ? GLFW_CURSOR_HIDDEN : GLFW_CURSOR_NORMAL);
        cursor_hidden_ = hide;
    }
}

// Input as GLFW delivers it: the callbacks installed on the window (ImGui's backend, which
// chains to ropelab's), called exactly as a mouse or keyboard event would call them.
void Window::send_key(int key, bool press) {
    GLFWkeyfun callback = glfwSetKeyCallback(window_, nullptr);
    glfwSetKeyCallback(window_, callback);
    if (key >= 0 && key < static_cast<int>(sizeof key_held_)) key_held_[key] = press;
    // The modifiers held, as GLFW reports them (a modifier key's own event includes itself).
    const int mods = (key_held_[GLFW_KEY_LEFT_CONTROL] || key_held_[GLFW_KEY_RIGHT_CONTROL] ? GLFW_MOD_CONTROL : 0) |
                     (key_held_[GLFW_KEY_LEFT_SHIFT] || key_held_[GLFW_KEY_RIGHT_SHIFT] ? GLFW_MOD_SHIFT : 0) |
                     (key_held_[GLFW_KEY_LEFT_ALT] || key_held_[GLFW_KEY_RIGHT_ALT] ? GLFW_MOD_ALT : 0);
    if (callback) callback(window_, key, key_scancode(key), press ? GLFW_PRESS : GLFW_RELEASE, mods);
}

void Window::send_char(unsigned codepoint) {
    GLFWcharfun callback = glfwSetCharCallback(window_, nullptr);
    glfwSetCharCallback(window_, callback);
    if (callback) callback(window_, codepoint);
}

void Window::send_mouse_button(bool press) {
    GLFWmousebuttonfun callback = glfwSetMouseButtonCallback(window_, nullptr);
    glfwSetMouseButtonCallback(window_, callback);
    if (callback) callback(window_, GLFW_MOUSE_BUTTON_LEFT, press ? GLFW_PRESS : GLFW_RELEASE, 0);
}

void Window::send_drop(const std::string& path) {
    GLFWdropfun callback = glfwSetDropCallback(window_, nullptr);
    glfwSetDropCallback(window_, callback);
    const char* paths[] = {path.c_str()};
    if (callback) callback(window_, 1, paths);
}

void Window::send_scroll(double dy) {
    GLFWscrollfun callback = glfwSetScrollCallback(window_, nullptr);
    glfwSetScrollCallback(window_, callback);
    if (callback) callback(window_, 0.0, dy);
}

// The pointer itself moves (a warp on X11), so the backend's next poll reads it where a mouse
// would have left it; the motion callback fires as for real motion.
void Window::move_pointer(double x, double y) {
    pointer_parked_ = false;
    glfwSetCursorPos(window_, x, y);
    WindowCallbacks::cursor(window_, x, y);
    GLFWcursorenterfun enter = glfwSetCursorEnterCallback(window_, nullptr);
    glfwSetCursorEnterCallback(window_, enter);
    if (enter) enter(window_, GLFW_TRUE);
}

bool Window::frame(const LabParams& presentation,
                   const std::function<void(const lab::Input&)>& build,
                   const std::string& capture_to, std::string* capture_error) {
    glfwPollEvents();
    int width = 0, height = 0;
    glfwGetFramebufferSize(window_, &width, &height);
    // X11 keeps the framebuffer size of an iconified window; Windows reports 0×0.
    const bool minimised = width == 0 || height == 0 || glfwGetWindowAttrib(window_, GLFW_ICONIFIED) || simulated_minimised_;
    if (minimised) {  // sleep until something happens: no drawing, no spinning
        glfwWaitEventsTimeout(minimised_wait_s_);
        return false;
    }
    apply_presentation(presentation);
    std::chrono::steady_clock::time_point start;
    driver_.build(
        [&] {
            ImGui_ImplGlfw_NewFrame();
            // Two frames at one clock reading (a headless browser's virtual time) give a zero
            // step, which ImGui 1.86 asserts against.
            if (ImGui::GetIO().DeltaTime <= 0.0f) ImGui::GetIO().DeltaTime = 1e-4f;
            if (pointer_parked_) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
            trickle_input();
            // After the window's own events: the in-process tests' hook sets ImGui's input
            // (modifiers, buttons) as the frame's last word.
            if (input_hook_) input_hook_();
        },
        [&] {
            const lab::Input input = pending_;
            pending_ = {};
            start = std::chrono::steady_clock::now();
            build(input);
        });
    const auto built = std::chrono::steady_clock::now();
    driver_.render(width, height, 1.0f);
    if (!capture_to.empty()) {
        std::string error;
        if (!save_framebuffer_png(capture_to, width, height, error) && capture_error) *capture_error = error;
    }
    if (screenshot_requested_) {  // F12: a timestamped PNG in the screenshot folder
        screenshot_requested_ = false;
        std::string error;
        const std::string path = screenshot_path();
        pending_.notice = save_framebuffer_png(path, width, height, error) ? "saved " + path : error;
    }
    glfwSwapBuffers(window_);
    const auto done = std::chrono::steady_clock::now();
    build_ms_ = std::chrono::duration<double, std::milli>(built - start).count();
    render_ms_ = std::chrono::duration<double, std::milli>(done - built).count();
    return true;
}

// ImGui 1.86 reads keys and buttons as states once per frame, so a press and its release inside
// one frame were never seen (a 12 ms Space toggled playback 1 time in 6). The queued events are
// handed over in order, each key and button changing at most once per frame: its next change,
// and everything after it, waits for the next frame (1.87's input trickling, for 1.86's KeysDown).
void Window::trickle_input() {
    ImGuiIO& io = ImGui::GetIO();
    constexpr int kKeys = IM_ARRAYSIZE(io.KeysDown), kButtons = IM_ARRAYSIZE(io.MouseDown);
    bool key_changed[kKeys] = {}, button_changed[kButtons] = {};
    std::size_t handed = 0;
    for (; handed < queue_.size(); ++handed) {
        const InputEvent& e = queue_[handed];
        if (e.kind == InputEvent::Char) {
            io.AddInputCharacter(static_cast<unsigned>(e.code));
        } else if (e.kind == InputEvent::Key && e.code >= 0 && e.code < kKeys) {
            if (key_changed[e.code] && io.KeysDown[e.code] != e.down) break;
            key_changed[e.code] = true;
            io.KeysDown[e.code] = e.down;
        } else if (e.kind == InputEvent::Mouse && e.code >= 0 && e.code < kButtons) {
            if (button_changed[e.code] && buttons_down_[e.code] != e.down) break;
            button_changed[e.code] = true;
            buttons_down_[e.code] = e.down;
        }
    }
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(handed));
    const bool* down = io.KeysDown;
    io.KeyCtrl = down[GLFW_KEY_LEFT_CONTROL] || down[GLFW_KEY_RIGHT_CONTROL];
    io.KeyShift = down[GLFW_KEY_LEFT_SHIFT] || down[GLFW_KEY_RIGHT_SHIFT];
    io.KeyAlt = down[GLFW_KEY_LEFT_ALT] || down[GLFW_KEY_RIGHT_ALT];
    io.KeySuper = down[GLFW_KEY_LEFT_SUPER] || down[GLFW_KEY_RIGHT_SUPER];
    // The backend polled the buttons (and an input hook may have set them): a button the queue
    // holds down is down too, so a click inside one frame is down for a frame, then up.
    for (int b = 0; b < kButtons; ++b) io.MouseDown[b] = io.MouseDown[b] || buttons_down_[b];
}

void Window::park_pointer() { pointer_parked_ = true; }

void Window::make_current() { glfwMakeContextCurrent(window_); }

void Window::take_keys_from(GLFWwindow* other) {
    glfwSetWindowUserPointer(other, this);
    glfwSetKeyCallback(other, WindowCallbacks::key);
}

std::string screenshot_path() {
    // $ROPELAB_SCREENSHOT_DIR, else the pictures folder's ropelab/ (core/user_dirs.h: XDG's, else
    // ~/Pictures), else ./screenshots.
    std::filesystem::path folder;
    if (const char* dir = std::getenv("ROPELAB_SCREENSHOT_DIR"); dir && *dir) {
        folder = dir;
    } else if (const std::string pictures = ropelab_folder(UserFolder::Pictures); !pictures.empty()) {
        folder = pictures;
    } else {
        folder = "screenshots";
    }
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    const std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
    std::string path = (folder / ("ropelab-" + std::string(stamp) + ".png")).string();
    for (int n = 2; std::filesystem::exists(path); ++n) {
        path = (folder / ("ropelab-" + std::string(stamp) + "-" + std::to_string(n) + ".png")).string();
    }
    return path;
}

std::pair<int, int> Window::window_size() const {
    int w = 0, h = 0;
    glfwGetWindowSize(window_, &w, &h);
    return {w, h};
}

void Window::set_window_size(int width, int height) { glfwSetWindowSize(window_, width, height); }

std::pair<int, int> Window::framebuffer_size() const {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    return {w, h};
}

RgbaImage read_framebuffer(int width, int height) {
    RgbaImage image{width, height, std::vector<unsigned char>(static_cast<std::size_t>(width) * height * 4)};
    std::vector<unsigned char> raw(image.pixels.size());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, raw.data());
    const std::size_t row = static_cast<std::size_t>(width) * 4;
    for (int y = 0; y < height; ++y) {
        std::copy_n(raw.data() + static_cast<std::size_t>(height - 1 - y) * row, row, image.pixels.data() + y * row);
    }
    return image;
}

bool save_framebuffer_png(const std::string& path, int width, int height, std::string& error) {
    glReadBuffer(GL_BACK);
    RgbaImage image = read_framebuffer(width, height);
    for (std::size_t i = 3; i < image.pixels.size(); i += 4) image.pixels[i] = 255;  // the window is opaque
    return write_png(path, image, error);
}

}  // namespace ropelab
