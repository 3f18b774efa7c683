#include "audience.h"

#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdint>
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

std::string wall_clock() {
    const std::time_t now = std::time(nullptr);
    char text[16];
    std::strftime(text, sizeof text, "%H:%M", std::localtime(&now));
    return text;
}

}  // namespace

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
    if (!screen) {  // beside the lecturer's window
        int x = 0, y = 0, w = 0, h = 0;
        glfwGetWindowPos(shared, &x, &y);
        glfwGetWindowSize(shared, &w, &h);
        glfwSetWindowPos(p->audience_, x + w, y);
    }
    lecturer.take_keys_from(p->audience_);
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

Presentation::~Presentation() {
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

void Presentation::frame(views::LabView& view, double seconds, const lab::Input& input) {
    const Lab& lab = view.lab();
    lab::Input keys = input;
    keys.keys.insert(keys.keys.end(), button_keys_.begin(), button_keys_.end());
    button_keys_.clear();
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(audience_, &fw, &fh);
    if (fw >= 64 && fh >= 64) resize_target(fw, fh);  // a minimised window keeps the last size

    // The lab's frame, in its own ImGui context, into the texture.
    ImGuiContext* lecturer = ImGui::GetCurrentContext();
    ImGui::SetCurrentContext(imgui_);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width_), static_cast<float>(height_));
    io.DeltaTime = static_cast<float>(std::max(seconds, 1e-4));
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);  // the pointer is the lecturer's
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
    elapsed_s_ += seconds;
    const views::ConsoleTime time{elapsed_s_, wall_clock()};
    const auto texture = reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(texture_));
    const views::ConsoleCommands commands =
        views::presenter_console(lab, texture, ImVec2(static_cast<float>(width_), static_cast<float>(height_)), time);
    if (commands.reset_clock) elapsed_s_ = 0.0;
    if (commands.scene) view.send(lab::cmd::GoToScene{.scene = *commands.scene, .time = 0.0});
    button_keys_ = commands.keys;
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
