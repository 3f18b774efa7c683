#pragma once
// Each view's draw function, bound to its row of the view table (state/view_table.h) in the
// table's order: the one place a draw function meets its view.
#include "state/view_table.h"

namespace ropelab::views {

struct Context;
using DrawView = void (*)(Context&);

// The draw function of a view (fills the rest of the current ImGui window).
DrawView draw_function(View v);
// Its shortcut as shown in tips: "1" … "9", "0", "A".
inline std::string view_key(int index) { return std::string(1, view_row(index).key); }

}  // namespace ropelab::views
