#pragma once
// A plot's visible ranges as the user left them (zoom and pan): plain data that sessions save
// and the lab keeps per plot name, so the lab needs no plotting code to carry it. The plot
// widget (src/plot) reads and edits it.
namespace ropelab::plot {

struct Range {
    double min = 0.0, max = 1.0;
    bool valid() const { return max > min; }
};

struct PlotState {
    Range x, y;
    bool user_view = false;  // false: fit the data
};

}  // namespace ropelab::plot
