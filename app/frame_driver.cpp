#include "frame_driver.h"

#include "gpu/gl_api.h"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "core/headroom.h"
#include "imgui_setup.h"

namespace ropelab {

void FrameDriver::present(const LabParams& p, float width, float height) {
    const float scale = fitted_ui_scale(p.ui_scale, width, height);
    if (scale != font_scale_) {
        load_fonts(scale);
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
        font_scale_ = scale;
        styled_ = false;  // sizes scale with the font
    }
    if (!styled_ || p.theme != theme_) {
        apply_style(p.theme, scale, software_renderer_);
        theme_ = p.theme;
        styled_ = true;
    }
}

void FrameDriver::build(const std::function<void()>& read_input, const std::function<void()>& content) {
    ImGui_ImplOpenGL3_NewFrame();
    if (read_input) read_input();
    ImGui::NewFrame();
    content();
    ImGui::Render();
}

void FrameDriver::render(int width, int height, float clear_alpha) const {
    glViewport(0, 0, width, height);
    const ImVec4 clear = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
    glClearColor(clear.x, clear.y, clear.z, clear_alpha);
    glClear(GL_COLOR_BUFFER_BIT);
    // llvmpipe crashes where its frame's allocations fail: the room is asked for first.
    require_headroom();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace ropelab
