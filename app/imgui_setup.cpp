#include "imgui_setup.h"

#include <cstdio>
#include <filesystem>

#include <imgui.h>

namespace ropelab {

namespace {
constexpr const char* kFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
constexpr float kBaseFontPixels = 15.0f;

// Latin, Greek (θ, Δ), punctuation (…, —), super/subscripts, arrows and math operators.
const ImWchar kGlyphRanges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x2000, 0x206F, 0x2070, 0x209F,
                                0x2190, 0x21FF, 0x2200, 0x22FF, 0};
}  // namespace

void load_fonts(float scale) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    ImFontConfig config;
    config.OversampleH = 2;
    if (std::filesystem::exists(kFontPath)) {
        io.Fonts->AddFontFromFileTTF(kFontPath, kBaseFontPixels * scale, &config, kGlyphRanges);
    } else {
        std::fprintf(stderr, "ropelab: notice: %s not found (package fonts-dejavu-core); "
                             "Greek letters will not show\n", kFontPath);
        config.SizePixels = 13.0f * scale;
        io.Fonts->AddFontDefault(&config);
    }
}

void apply_style(Theme theme, float scale, bool software_renderer) {
    ImGuiStyle style;
    if (theme == Theme::Light) {
        ImGui::StyleColorsLight(&style);
    } else {
        ImGui::StyleColorsDark(&style);
    }
    style.WindowRounding = 0.0f;
    // Anti-aliased fills add fringe triangles to every shape: free on a GPU, a quarter of the
    // frame on a software rasteriser.
    style.AntiAliasedFill = !software_renderer;
    style.ScaleAllSizes(scale);
    ImGui::GetStyle() = style;
}

bool is_software_renderer(const std::string& gl_renderer) {
    for (const char* name : {"llvmpipe", "softpipe", "SwiftShader"}) {
        if (gl_renderer.find(name) != std::string::npos) return true;
    }
    return false;
}

}  // namespace ropelab
