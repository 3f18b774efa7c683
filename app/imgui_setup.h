#pragma once
// Dear ImGui set-up shared by the window and the offscreen renderer: fonts with Greek and math
// glyphs, the themes, and what a software rasteriser needs.
#include <string>

#include "state/params.h"


namespace ropelab {

// Loads DejaVu Sans (compiled into the binary) at 15 px × scale into ImGui's atlas, with the
// glyph ranges below; the caller rebuilds the GL texture. Nothing is read from the system.
// Throws std::bad_alloc where the atlas cannot be built.
void load_fonts(float scale);
// ImGui's allocations checked: a failed one throws std::bad_alloc (call before CreateContext).
void install_imgui_allocator();
// The code point ranges loaded: pairs of first, last, then 0 (ImGui's format).
const unsigned short* ui_glyph_ranges();
void apply_style(Theme theme, float scale, bool software_renderer);
bool is_software_renderer(const std::string& gl_renderer);

}  // namespace ropelab
