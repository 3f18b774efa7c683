#pragma once
// One frame of the lab, the same on every surface (the window, the offscreen renderer): fonts and
// style for the lab's presentation, ImGui's frame around the lab's step and the views' drawing,
// and the draw data rendered into the framebuffer the surface has bound. A surface supplies the
// framebuffer, the input and the present.
#include <functional>

#include "state/params.h"

namespace ropelab {

class FrameDriver {
public:
    explicit FrameDriver(bool software_renderer = false) : software_renderer_(software_renderer) {}

    // Fonts and style for `p` on a surface of this size (in window units): the font texture is
    // rebuilt only when the fitted scale changes, the style when the scale or the theme does.
    void present(const LabParams& p, float width, float height);
    // ImGui's frame: the renderer's new frame, then the surface's (`read_input`: its platform
    // backend, test hooks), NewFrame, `content` (the lab's step and the views), Render.
    void build(const std::function<void()>& read_input, const std::function<void()>& content);
    // The last frame's draw data into the bound framebuffer, cleared to the theme's background.
    void render(int width, int height, float clear_alpha) const;

private:
    bool software_renderer_;
    float font_scale_ = 0.0f;
    Theme theme_ = Theme::Dark;
    bool styled_ = false;
};

}  // namespace ropelab
