#pragma once
// The token layout drawn as a sequence: text tokens as small boxes with their id, <vision_start>
// and <vision_end> as markers, each image or video frame as a grid of cells. Hover shows a token's
// (t, h, w) under both rules; tokens whose ids differ between the rules, and overlaps, are drawn
// in the warning colour.
#include "lab/token_positions.h"

namespace ropelab::views {

// Draws in the current window at the cursor, as wide as the space left; records itself in the
// widget log as "token strip" (kind plot) with a one-line summary as its value.
void token_strip(const lab::TokenPositions& positions);

// "N tokens (…); K differ between 4.x and 5.x; J overlap" — the strip's summary line.
std::string token_strip_summary(const lab::TokenPositions& positions);

}  // namespace ropelab::views
