#include "audience.h"

#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <cstdio>
#include <ctime>

#include "export/image.h"
#include "gpu/gl_context.h"
#include "imgui_setup.h"
#include "offscreen.h"
#include "ui/widgets.h"
#include "views/presenter_console.h"

namespace ropelab {

namespace {

// The monitor the audience window fills: --monitor N when it exists and is not the lecturer's
// primary, else the first that is not the primary; nullptr (a window) when there is only one.
GLFWmonitor* audience_monitor(int wanted) {
    int count = 0;
    GLFWmonitor** monitors = glfwGetMonitors(&count);
    if (count < 2) return nullptr;
    return monitors[wanted > 0 && wanted < count ? wanted : 1];
}

// The monitor whose work area holds the centre of a window at r (the primary when none does).
GLFWmonitor* monitor_holding(const ScreenRect& r, ScreenRect& work) {
    int count = 0;
    GLFWmonitor** monitors = glfwGetMonitors(&count);
    const int cx = r.x + r.w / 2, cy = r.y + r.h / 2;
    GLFWmonitor* found = count > 0 ? monitors[0] : nullptr;
    for (int i = 0; i < count; ++i) {
        ScreenRect m;
        glfwGetMonitorWorkarea(monitors[i], &m.x, &m.y, &m.w, &m.h);
        if (cx >= m.x && cx < m.x + m.w && cy >= m.y && cy < m.y + m.h) {
            found = monitors[i];
            break;
        }
    }
    if (found) glfwGetMonitorWorkarea(found, &work.x, &work.y, &work.w, &work.h);
    return found;
}

// The one presentation's audience input, for its window's callbacks (GLFW's user pointer there
// is the lecturer's Window, which takes its keys), and the key callback that chain leads on to.
Presentation::AudienceInput* audience_input = nullptr;
GLFWkeyfun lecturer_keys = nullptr;

constexpr int kAidKeys[4] = {GLFW_KEY_D, GLFW_KEY_L, GLFW_KEY_S, GLFW_KEY_C};

void audience_key(GLFWwindow* w, int key, int scancode, int action, int mods) {
    for (int k = 0; k < 4; ++k) {
        if (key == kAidKeys[k] && action != GLFW_REPEAT && audience_input) audience_input->keys[k] = action == GLFW_PRESS;
    }
    if (lecturer_keys) lecturer_keys(w, key, scancode, action, mods);
}

void audience_button(GLFWwindow*, int button, int action, int) {
    if (audience_input && button >= 0 && button < 3) audience_input->buttons[button] = action == GLFW_PRESS;
}

std::string wall_clock() {
    const std::time_t now = std::time(nullptr);
    char text[16];
    std::strftime(text, sizeof text, "%H:%M", std::localtime(&now));
    return text;
}

}  // namespace

ScreenRect place_audience(const ScreenRect& lecturer, const ScreenRect& work, int w, int h) {
    w = std::min(w, work.w);
    h = std::min(h, work.h);
    const auto inside = [&](int x) { return x >= work.x && x + w <= work.x + work.w; };
    const int y = std::clamp(lecturer.y, work.y, work.y + work.h - h);
    if (const int right = lecturer.x + lecturer.w; inside(right)) return {right, y, w, h};
    if (const int left = lecturer.x - w; inside(left)) return {left, y, w, h};
    return {std::clamp(lecturer.x + lecturer.w, work.x, work.x + work.w - w), y, w, h};
}

std::unique_ptr<Presentation> Presentation::open(Window& lecturer, int width, int height, int monitor, std::string& why) {
    std::unique_ptr<Presentation> p(new Presentation);
    p->lecturer_ = &lecturer;
    GLFWwindow* shared = lecturer.glfw_window();
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, glfwGetWindowAttrib(shared, GLFW_CONTEXT_VERSION_MAJOR));
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, glfwGetWindowAttrib(shared, GLFW_CONTEXT_VERSION_MINOR));
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    // The lecturer's window keeps the keyboard (and ImGui's backend reads the pointer only
    // while its window has the focus).
    glfwWindowHint(GLFW_FOCUSED, GLFW_FALSE);
    glfwWindowHint(GLFW_FOCUS_ON_SHOW, GLFW_FALSE);
    GLFWmonitor* screen = audience_monitor(monitor);
    if (screen) {
        const GLFWvidmode* mode = glfwGetVideoMode(screen);
        width = mode->width;
        height = mode->height;
    }
    p->audience_ = glfwCreateWindow(width, height, "ropelab — audience", screen, shared);
    if (!p->audience_) {
        why = "the audience window could not be opened";
        return nullptr;
    }
    if (!screen) p->place_window(shared);
    lecturer.take_keys_from(p->audience_);
    p->listen_to_audience();
    glfwMakeContextCurrent(p->audience_);
    glfwSwapInterval(0);  // vsync is the lecturer window's: one wait per frame, not two
    glGenFramebuffers(1, &p->blit_source_);
    lecturer.make_current();
    glfwFocusWindow(shared);

    p->driver_ = FrameDriver(is_software_renderer(gpu::current_gl_info().renderer));
    p->imgui_ = create_own_imgui();
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(p->audience_, &fw, &fh);
    p->resize_target(std::max(fw, 64), std::max(fh, 64));
    if (!p->framebuffer_) {
        why = "cannot make the audience's framebuffer";
        return nullptr;
    }
    return p;
}

// With one monitor the audience window is the lecturer's neighbour, wholly on the screen: a
// window manager may move it again; without one (a bare X server) it stays where it is put.
void Presentation::place_window(GLFWwindow* shared) {
    ScreenRect lecturer, work, placed;
    glfwGetWindowPos(shared, &lecturer.x, &lecturer.y);
    glfwGetWindowSize(shared, &lecturer.w, &lecturer.h);
    if (!monitor_holding(lecturer, work)) return;
    int w = 0, h = 0;
    glfwGetWindowSize(audience_, &w, &h);
    const ScreenRect want = place_audience(lecturer, work, w, h);
    if (want.w != w || want.h != h) glfwSetWindowSize(audience_, want.w, want.h);
    glfwSetWindowPos(audience_, want.x, want.y);
    glfwGetWindowPos(audience_, &placed.x, &placed.y);
    glfwGetWindowSize(audience_, &placed.w, &placed.h);
    // Said where it landed (tests read it; a lecturer looking for the window may too).
    std::printf("ropelab: audience window at %d,%d %dx%d; the monitor's work area %d,%d %dx%d\n", placed.x, placed.y, placed.w,
                placed.h, work.x, work.y, work.w, work.h);
    std::fflush(stdout);
}

// The audience window's pointer, buttons and aid keys, recorded by its callbacks; its keys go on
// to the lecturer's (take_keys_from), which steps the scenes.
void Presentation::listen_to_audience() {
    audience_input = &audience_input_;
    lecturer_keys = glfwSetKeyCallback(audience_, audience_key);
    glfwSetMouseButtonCallback(audience_, audience_button);
}

Presentation::~Presentation() {
    if (audience_input == &audience_input_) audience_input = nullptr;
    lecturer_->make_current();
    destroy_own_imgui(imgui_);
    if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
    if (texture_) glDeleteTextures(1, &texture_);
    if (audience_) {
        glfwMakeContextCurrent(audience_);
        if (blit_source_) glDeleteFramebuffers(1, &blit_source_);
        glfwDestroyWindow(audience_);
    }
    lecturer_->make_current();
}

// A colour texture of the audience's size, the framebuffer the lab draws into.
void Presentation::resize_target(int width, int height) {
    if (width == width_ && height == height_ && texture_) return;
    if (!texture_) glGenTextures(1, &texture_);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);  // the console shows it scaled down
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    if (!framebuffer_) glGenFramebuffers(1, &framebuffer_);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_, 0);
    const bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (!complete) {
        glDeleteFramebuffers(1, &framebuffer_);
        framebuffer_ = 0;
        return;
    }
    width_ = width;
    height_ = height;
}

// The lab's ImGui context sees the pointer where it lies over the audience's picture: the
// audience window itself (in its framebuffer's pixels), else the console's scaled picture of it
// (where the last frame laid it out), else nowhere. The buttons and the aids' keys (D, L, S, C) are held as in
// the window the pointer is over, the keys in either.
void Presentation::hand_pointer_to_lab() {
    const ImGuiIO& lecturer = ImGui::GetIO();
    bool keys[4] = {};
    for (int k = 0; k < 4; ++k) keys[k] = audience_input_.keys[k] || lecturer.KeysDown[kAidKeys[k]];
    ImVec2 at(-FLT_MAX, -FLT_MAX);
    bool left = false, right = false;
    int ww = 0, wh = 0;
    glfwGetWindowSize(audience_, &ww, &wh);
    // Asked of the X server (or the platform) each frame, as the window's enter and leave events
    // may not come when the pointer is warped away; whichever window lies on top answers.
    const AudienceInput& a = audience_input_;
    double x = 0, y = 0;
    glfwGetCursorPos(audience_, &x, &y);
    const bool inside = glfwGetWindowAttrib(audience_, GLFW_HOVERED) && x >= 0 && y >= 0 && x < ww && y < wh;
    if (inside) {
        at = ImVec2(static_cast<float>(x * width_ / ww), static_cast<float>(y * height_ / wh));
        left = a.buttons[GLFW_MOUSE_BUTTON_LEFT];
        right = a.buttons[GLFW_MOUSE_BUTTON_RIGHT];
    } else if (const ImVec2 p = lecturer.MousePos, a0 = picture_min_, a1 = picture_max_;
               p.x >= a0.x && p.y >= a0.y && p.x < a1.x && p.y < a1.y) {
        at = ImVec2((p.x - a0.x) / (a1.x - a0.x) * static_cast<float>(width_), (p.y - a0.y) / (a1.y - a0.y) * static_cast<float>(height_));
        left = lecturer.MouseDown[ImGuiMouseButton_Left];
        right = lecturer.MouseDown[ImGuiMouseButton_Right];
    }
    ImGuiContext* own = ImGui::GetCurrentContext();
    ImGui::SetCurrentContext(imgui_);
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;
    io.MouseDown[ImGuiMouseButton_Left] = left;
    io.MouseDown[ImGuiMouseButton_Right] = right;
    for (int k = 0; k < 4; ++k) io.KeysDown[kAidKeys[k]] = keys[k];
    ImGui::SetCurrentContext(own);
}

// The elapsed time counts from the first scene the audience sees, pauses left out.
void Presentation::advance_clock(const Lab& lab, double seconds) {
    clock_started_ = clock_started_ || (lab.has_lesson() && lab.compute().ready());
    if (clock_started_ && !clock_paused_) elapsed_s_ += seconds;
}

void Presentation::frame(views::LabView& view, double seconds, const lab::Input& input) {
    const Lab& lab = view.lab();
    lab::Input keys = input;
    keys.keys.insert(keys.keys.end(), button_keys_.begin(), button_keys_.end());
    button_keys_.clear();
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(audience_, &fw, &fh);
    if (fw >= 64 && fh >= 64) resize_target(fw, fh);  // a minimised window keeps the last size
    hand_pointer_to_lab();

    // The lab's frame, in its own ImGui context, into the texture.
    ImGuiContext* lecturer = ImGui::GetCurrentContext();
    ImGui::SetCurrentContext(imgui_);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width_), static_cast<float>(height_));
    io.DeltaTime = static_cast<float>(std::max(seconds, 1e-4));
    driver_.present(lab.params(), io.DisplaySize.x, io.DisplaySize.y);
    driver_.build({}, [&] { view.frame(seconds, keys); });
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    driver_.render(width_, height_, 1.0f);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glFlush();  // drawn before the audience's context reads it
    ImGui::SetCurrentContext(lecturer);

    // The console: the log holds the lecturer's widgets only, those a script aims at.
    ui::log().begin_frame();
    ui::allow_tooltips(true);
    advance_clock(lab, seconds);
    const views::ConsoleTime time{.elapsed_s = elapsed_s_, .paused = clock_paused_, .wall = wall_clock()};
    const auto texture = reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(texture_));
    const views::ConsoleCommands commands =
        views::presenter_console(lab, texture, ImVec2(static_cast<float>(width_), static_cast<float>(height_)), time);
    if (commands.reset_clock) elapsed_s_ = 0.0;
    if (commands.toggle_clock) clock_paused_ = !clock_paused_;
    if (commands.scene) view.send(lab::cmd::GoToScene{.scene = *commands.scene, .time = 0.0});
    button_keys_ = commands.keys;
    picture_min_ = commands.picture_min;
    picture_max_ = commands.picture_max;
}

void Presentation::present() {
    int w = 0, h = 0;
    glfwGetFramebufferSize(audience_, &w, &h);
    if (w > 0 && h > 0) {
        glfwMakeContextCurrent(audience_);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, blit_source_);
        glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_, 0);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
        glViewport(0, 0, w, h);
        glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glBlitFramebuffer(0, 0, width_, height_, 0, 0, w, h, GL_COLOR_BUFFER_BIT,
                          w == width_ && h == height_ ? GL_NEAREST : GL_LINEAR);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
        glfwSwapBuffers(audience_);
    }
    lecturer_->make_current();
}

bool Presentation::closed() const { return glfwWindowShouldClose(audience_); }

bool Presentation::save_png(const std::string& path, std::string& error) const {
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    RgbaImage image = read_framebuffer(width_, height_);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    for (std::size_t i = 3; i < image.pixels.size(); i += 4) image.pixels[i] = 255;
    return write_png(path, image, error);
}

}  // namespace ropelab
