#pragma once
// Dear ImGui set-up shared by the window and the offscreen renderer: fonts with Greek and math
// glyphs, the themes, and what a software rasteriser needs.
#include <string>

#include "lab/params.h"

namespace ropelab {

// Loads DejaVu Sans at 15 px × scale into ImGui's atlas (the caller rebuilds the GL texture).
void load_fonts(float scale);
void apply_style(Theme theme, float scale, bool software_renderer);
bool is_software_renderer(const std::string& gl_renderer);

}  // namespace ropelab
