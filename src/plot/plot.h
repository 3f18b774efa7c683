#pragma once
// A small plotting widget: it turns double-precision data into a display list (plot/display_list.h)
// drawn on screen through ImGui and written as SVG/PDF by the figure writers: axes with readable ticks and labels,
// several series with a legend, hover crosshair with values, wheel zoom (x; with Ctrl, y), drag
// pan, Shift+drag box zoom, double-click reset, log axes. Zoom and pan stop at the data's extent. Long series arrive as M4 columns (first, last, min, max per pixel column), so
// a 2^20-point curve costs about two vertices per pixel column. It knows nothing about RoPE.
//
// Use: Plot p("id", state, size, data_x); p.columns(...); p.line(...); p.finish();
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <imgui.h>

#include "core/m4.h"
#include "core/plot_state.h"
#include "plot/display_list.h"

namespace ropelab::plot {

struct Options {
    const char* x_label = "";
    const char* y_label = "";
    bool log_x = false;
    bool log_y = false;
    bool legend = true;
    bool integer_x = false;  // x counts something (a distance, a position, a pair): hover reads whole numbers
};

class Plot {
public:
    Plot(const char* id, PlotState& state, ImVec2 size, Range data_x, Options options);

    // The pixel columns' sample ranges for a series sampled at x = x0 + i·dx, i < count: what
    // to decimate before calling columns().
    std::vector<std::uint32_t> column_boundaries(std::int64_t count, double x0, double dx) const;
    // One M4 column per pixel column (from column_boundaries); y = scale·value + offset. With
    // fit = false the series does not widen the fitted y range (it may run off the plot).
    void columns(const char* name, std::vector<M4Column> cols, ImU32 color, double scale = 1.0,
                 double offset = 0.0, bool fit = true);
    // Where the last columns() series' samples lie: sample i at x0 + i·dx, column c holding
    // samples bounds[c] .. bounds[c+1] − 1 (the boundaries it was decimated with). With it the
    // hover reads the sample nearest the pointer, not its pixel column's (the two part when
    // a pixel is about as wide as a sample: the column's one sample may be the next distance).
    void sampled_at(std::vector<std::uint32_t> bounds, double x0, double dx);
    void line(const char* name, std::span<const double> x, std::span<const double> y, ImU32 color,
              float thickness = 1.0f);
    void points(const char* name, std::span<const double> x, std::span<const double> y,
                std::span<const ImU32> colors);
    void vline(double x, ImU32 color, const char* label);
    void hline(double y, ImU32 color, const char* label);
    // A value that may lie off the plot's y range (a loose bound, a zoomed-in view): where it
    // does, an arrow at the plot's top or bottom edge says "label value ↑/↓", in the plot.
    void off_scale_note(const char* label, double value, ImU32 color);
    // What a legend entry means, shown when the pointer is over its name.
    void legend_tip(const char* name, std::string tip) { legend_tips_.emplace_back(name, std::move(tip)); }
    // A vertical line the user may drag: a left-drag starting within half a character of it (or
    // on its label) moves it instead of panning; dragged() is then its new x (after finish()).
    void draggable_vline(double x, ImU32 color, const char* label);
    std::optional<double> dragged() const { return dragged_; }

    // Draws everything and handles input. Returns the x under the mouse, if it is over the plot.
    std::optional<double> finish();

    Range visible_x() const { return x_; }
    // The y range drawn (after finish()).
    Range visible_y() const { return y_; }

private:
    struct Entry {
        std::string name;
        ImU32 color;
        std::vector<M4Column> cols;         // columns form
        std::vector<ImVec2> xy;             // line/points form (data units)
        std::vector<ImU32> point_colors;    // points form
        double scale = 1.0, offset = 0.0;
        float thickness = 1.5f;
        bool fit = true;
        std::vector<std::uint32_t> bounds;  // the columns' samples, when known (sampled_at)
        double x0 = 0.0, dx = 1.0;          // and where sample i lies
    };
    struct Marker {
        double at;
        ImU32 color;
        std::string label;
        bool horizontal = false;
        bool label_in_legend = false;  // too long for the plot's width: named in the legend instead
        bool crowded = false;          // no free spot near its line (a small plot): named in the legend
        ImVec2 label_at{0, 0};         // where its label is drawn (place_marker_labels)
    };
    struct EdgeNote {
        std::string label;
        double value;
        ImU32 color;
    };
    struct LegendItem {
        std::string name;
        ImU32 color;
        ImVec2 at;  // where its stroke starts
        std::string full;  // the name, when `name` had to be shortened to fit
    };

    double x_to_px(double x) const;
    double px_to_x(double px) const;
    double y_to_px(double y) const;
    Range fit_y() const;
    void draw_axes(draw::List& out) const;
    void draw_entries(draw::List& out) const;
    void draw_markers(draw::List& out) const;
    bool place_marker_labels();
    void layout_legend();
    void draw_legend(draw::List& out) const;
    void draw_edge_notes(draw::List& out) const;
    void hover(ImDrawList* dl, double mouse_x) const;
    std::string column_readout(const Entry& e, double mouse_x, float mouse_px) const;
    void handle_input(bool hovered, bool active, bool released);
    void zoom_to_box(ImVec2 from, ImVec2 to);
    void set_view(Range x, std::optional<Range> y);

    PlotState& state_;
    Options options_;
    ImVec2 frame_min_, frame_max_, area_min_, area_max_;
    Range data_x_, x_, y_;
    std::vector<Entry> entries_;
    std::vector<Marker> markers_;
    std::vector<EdgeNote> edge_notes_;
    std::vector<LegendItem> legend_;
    std::vector<std::string> hidden_;  // legend names folded into "+K more"
    std::vector<std::pair<std::string, std::string>> legend_tips_;  // name, what it means
    std::optional<double> handle_x_;  // the draggable vline's x
    std::string handle_label_;
    std::optional<double> dragged_;
    bool near_handle(ImVec2 mouse) const;
    std::string y_label_;
    double y_unit_ = 1.0;  // the y tick labels' power of ten
    ImGuiID id_;
    std::string name_;
};

double safe_log(double v);
// `r` moved, and shrunk where wider, into `extent` (in log space on a log axis): zooming out or
// panning stops at the data's edge.
Range clamp_range(Range r, Range extent, bool log_axis);
// Lines and markers thicker by this factor (2 for a projector; 1 otherwise).
// A label's size at the current font, its maths markup typeset (what the screen and files draw).
ImVec2 text_size(const char* text);

void set_line_emphasis(float factor);
float line_emphasis();
// A tick's label: 6 significant digits, 3 in scientific notation for the very large and small.
std::string tick_label(double v);
// A power of ten that tick labels are divided by when they would be long (|v| ≥ 10^5 or all
// below 10^-2): "0.2, 0.4" under "(×1e-05)" instead of "2e-06, 4e-06". 1 otherwise.
double axis_unit(Range r);

// "Nice" tick positions covering [min, max]: 1, 2, 5 × 10^k steps, or decades on log axes.
std::vector<double> nice_ticks(Range r, int target_count, bool log_axis);
// Ticks for an axis `length` pixels long, about `spacing` apart: at least four where four fit
// without their labels touching (label widths along a horizontal axis, line heights along a
// vertical one). Needs the current font.
std::vector<double> ticks_for(Range r, float length, float spacing, bool log_axis, bool horizontal);

}  // namespace ropelab::plot
