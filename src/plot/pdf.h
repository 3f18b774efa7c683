#pragma once
// A Figure as PDF, through cairo's PDF surface: one page of the figure's size (1 px = 1 pt), the
// font embedded as a subset with a ToUnicode map (text stays searchable and selectable), each
// character at the position the screen gave it.
#include <string>
#include <string_view>

#include "plot/display_list.h"

namespace ropelab::draw {

// The PDF's bytes; "" with `error` set when cairo or FreeType refuses (an unreadable font).
// `font`: the TrueType file the screen drew the text with.
std::string to_pdf(const Figure& figure, std::string_view font, std::string& error);

}  // namespace ropelab::draw
