#include "views/registry.h"

#include <iterator>

#include "views/views.h"

namespace ropelab::views {

namespace {

// In kViewTable's order: row i is drawn by kDraw[i].
constexpr DrawView kDraw[] = {planes_view,      contrast_view, score_view,     invariance_view, heatmap_view, frequencies_view,
                              numbers_view,     precision_view, phasors_view,  grid_view,       attention_view,
                              weights_view};
static_assert(std::size(kDraw) == kViewCount, "one draw function per row of the view table");

}  // namespace

DrawView draw_function(View v) { return kDraw[static_cast<int>(v)]; }

}  // namespace ropelab::views
