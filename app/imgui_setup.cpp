#include "imgui_setup.h"

#include <imgui.h>

#include "core/embedded.h"

namespace ropelab {

namespace {
constexpr float kBaseFontPixels = 15.0f;

// Latin, Greek (θ, Δ), punctuation (…, —), super/subscripts, arrows, math operators, and the
// angle brackets ⟨ ⟩ — every character the captions, lessons and readouts use (tests/ui checks).
const ImWchar kGlyphRanges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x2000, 0x206F, 0x2070, 0x209F,
                                0x2190, 0x21FF, 0x2200, 0x22FF, 0x27E6, 0x27EB, 0};
}  // namespace

static_assert(sizeof(ImWchar) == sizeof(unsigned short), "the header declares 16-bit glyph ranges");
const unsigned short* ui_glyph_ranges() { return kGlyphRanges; }

void load_fonts(float scale) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    ImFontConfig config;
    config.OversampleH = 2;
    config.FontDataOwnedByAtlas = false;  // the bytes are the binary's own (core/embedded.h)
    const EmbeddedFile& font = embedded::fonts().front();
    io.Fonts->AddFontFromMemoryTTF(const_cast<char*>(font.data.data()), static_cast<int>(font.data.size()),
                                   kBaseFontPixels * scale, &config, kGlyphRanges);
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
