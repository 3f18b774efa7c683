#pragma once
// A Figure as SVG 1.1 text: curves as paths, text as <text> (one x per character, so it sits
// where the screen drew it even where the viewer substitutes the font), images embedded as PNG.
#include <string>

#include "plot/display_list.h"

namespace ropelab::draw {

// `font_family`: the CSS font-family list the text asks for (the font the screen used first).
std::string to_svg(const Figure& figure, const std::string& font_family = "DejaVu Sans, Verdana, sans-serif");

}  // namespace ropelab::draw
