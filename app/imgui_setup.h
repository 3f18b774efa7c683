#pragma once
// Dear ImGui set-up shared by the window and the offscreen renderer: fonts with Greek and math
// glyphs, the themes, and what a software rasteriser needs.
#include <string>

#include "state/params.h"

struct ImGuiContext;

namespace ropelab {

// Loads DejaVu Sans (compiled into the binary) at 15 px × scale into ImGui's atlas, with the
// glyph ranges below; the caller rebuilds the GL texture. Nothing is read from the system.
void load_fonts(float scale);
// The code point ranges loaded: pairs of first, last, then 0 (ImGui's format).
const unsigned short* ui_glyph_ranges();
void apply_style(Theme theme, float scale, bool software_renderer);
bool is_software_renderer(const std::string& gl_renderer);

// A second ImGui context of our own (offscreen renders, the presenter's audience picture) with
// the OpenGL 3 backend in the GL context current now; ImGui's current context is left as it was.
ImGuiContext* create_own_imgui();
// Its end: the backend's GL objects go with the GL context current now (the one it was made
// in), and ImGui's current context is left as it was, unless it was this one.
void destroy_own_imgui(ImGuiContext* context);

}  // namespace ropelab
