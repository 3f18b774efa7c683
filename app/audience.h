#pragma once
// Presenting with notes: a second window for the audience, and the lecturer's console in the
// first. The lab is drawn (by its own ImGui context) into a texture in the lecturer window's GL
// context; the audience window, sharing that context's textures, copies it to its screen, and
// the lecturer's console shows it scaled. Keys pressed in either window reach the lab.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frame_driver.h"
#include "lab/input.h"
#include "views/lab_view.h"
#include "window.h"

struct GLFWwindow;
struct ImGuiContext;

namespace ropelab {

class Presentation {
public:
    // Opens the audience window beside `lecturer` (fullscreen on `monitor` when there are several
    // monitors: 0 picks the first that is not the primary). nullptr and a reason on failure.
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

private:
    Presentation() = default;
    void resize_target(int width, int height);

    Window* lecturer_ = nullptr;
    GLFWwindow* audience_ = nullptr;
    ImGuiContext* imgui_ = nullptr;  // the lab's, drawing into the texture
    FrameDriver driver_;
    unsigned framebuffer_ = 0, texture_ = 0;  // in the lecturer's context
    unsigned blit_source_ = 0;                // the audience context's own (framebuffers are not shared)
    int width_ = 0, height_ = 0;
    double elapsed_s_ = 0.0;
    std::vector<lab::Key> button_keys_;  // the console's buttons, for the next frame
};

}  // namespace ropelab
