#include "imgui_setup.h"

#include <imgui.h>

#include <cstdlib>
#include <new>

#include "core/embedded.h"
#include "plot/plot.h"

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

namespace {
// ImGui (and stb_truetype inside it) writes through whatever its allocator returns, unchecked:
// a null pointer under a memory limit was a SIGSEGV in the font atlas. This one throws instead,
// and the frame's owner turns it into "out of memory" (exit 2).
void* checked_alloc(std::size_t bytes, void*) {
    if (void* p = std::malloc(bytes)) return p;
    throw std::bad_alloc();
}
void checked_free(void* p, void*) { std::free(p); }
}  // namespace

void install_imgui_allocator() { ImGui::SetAllocatorFunctions(checked_alloc, checked_free, nullptr); }

void load_fonts(float scale) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    ImFontConfig config;
    config.OversampleH = 2;
    config.FontDataOwnedByAtlas = false;  // the bytes are the binary's own (core/embedded.h)
    const EmbeddedFile& font = embedded::fonts().front();
    const ImFont* added = io.Fonts->AddFontFromMemoryTTF(const_cast<char*>(font.data.data()), static_cast<int>(font.data.size()),
                                                         kBaseFontPixels * scale, &config, kGlyphRanges);
    // The font is the binary's own, so an atlas that cannot be built is one with no memory to be
    // built in; it is built here, checked, rather than first touched by the GL texture upload.
    if (!added || !io.Fonts->Build()) {
        io.Fonts->Clear();
        throw std::bad_alloc();
    }
}

namespace {

// ImGui's light style with its grey text darkened: 0.6 grey on the 0.94 background was 2.5:1,
// 0.38 is 5.5:1 (WCAG asks 4.5:1 of body text).
void light_colors(ImGuiStyle& style) {
    ImGui::StyleColorsLight(&style);
    style.Colors[ImGuiCol_TextDisabled] = ImVec4(0.38f, 0.38f, 0.38f, 1.0f);
}

// For the back of a room: black on white, grey text at 7:1, dark borders and grid, strong
// selection colours; the plots' lines and markers doubled (plot::set_line_emphasis).
void projector_colors(ImGuiStyle& style) {
    ImGui::StyleColorsLight(&style);
    ImVec4* c = style.Colors;
    c[ImGuiCol_Text] = ImVec4(0.0f, 0.0f, 0.0f, 1.0f);
    c[ImGuiCol_TextDisabled] = ImVec4(0.30f, 0.30f, 0.30f, 1.0f);
    c[ImGuiCol_WindowBg] = ImVec4(1.0f, 1.0f, 1.0f, 1.0f);
    c[ImGuiCol_PopupBg] = ImVec4(1.0f, 1.0f, 1.0f, 1.0f);
    c[ImGuiCol_FrameBg] = ImVec4(0.97f, 0.97f, 0.97f, 1.0f);
    c[ImGuiCol_Border] = ImVec4(0.25f, 0.25f, 0.25f, 1.0f);
    c[ImGuiCol_Separator] = ImVec4(0.25f, 0.25f, 0.25f, 1.0f);
    c[ImGuiCol_TitleBg] = ImVec4(0.85f, 0.85f, 0.85f, 1.0f);
    c[ImGuiCol_Button] = ImVec4(0.82f, 0.87f, 0.95f, 1.0f);
    c[ImGuiCol_Header] = ImVec4(0.80f, 0.86f, 0.96f, 1.0f);
    c[ImGuiCol_CheckMark] = ImVec4(0.0f, 0.2f, 0.6f, 1.0f);
    c[ImGuiCol_SliderGrab] = ImVec4(0.0f, 0.25f, 0.7f, 1.0f);
    c[ImGuiCol_TextSelectedBg] = ImVec4(0.0f, 0.3f, 0.9f, 0.3f);
}

}  // namespace

void apply_style(Theme theme, float scale, bool software_renderer) {
    ImGuiStyle style;
    if (theme == Theme::Projector) {
        projector_colors(style);
        style.FrameBorderSize = 1.0f;
    } else if (theme == Theme::Light) {
        light_colors(style);
    } else {
        ImGui::StyleColorsDark(&style);
    }
    plot::set_line_emphasis(theme == Theme::Projector ? 2.0f : 1.0f);
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
