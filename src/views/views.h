#pragma once
// The lab's views: one file each, draw only. They read LabParams and LabCompute and hand back
// requests (focus a pair, jump to a position) that the Lab applies, so the parameters keep
// one writer.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include <imgui.h>

#include "lab/input.h"
#include "lab/lab.h"
#include "lab/lab_compute.h"
#include "state/params.h"
#include "lesson/lesson.h"
#include "plot/plot.h"

namespace ropelab::views {

using lab::Requests;


// The attention view's shared zoom: keys and queries [row0, row0 + span) × [col0, col0 + span);
// span 0: the whole matrix.
struct AttentionZoom {
    double row0 = 0, col0 = 0, span = 0;  // fractional while dragged
    std::int64_t tokens = 0;  // the T it was made for: a new T shows the whole new matrix
};

// Per-view UI state that survives frames (plot zoom and pan).
struct ViewState {
    plot::PlotState scores, invariance, angles, frequencies, wavelengths, precision, decay_shape, mode_error;
    AttentionZoom attention;
    std::array<plot::PlotState, 3> attention_readouts;  // mass within w, mean distance, entropy vs m
    plot::PlotState grid_text;  // the grid view's text-token curve
    plot::PlotState weights_curve;  // the weights view's head score curve
    std::array<plot::PlotState, kMaxCompared + 1> axis_wavelengths;  // compare mode, multi-axis: one per setting
};

// How the angle modes are named on screen (the schema's names are the CLI's: naive-fp32, bf16).
inline constexpr const char* kAngleModeLabels[] = {"exact", "naive fp32", "bf16 cos/sin"};
inline const char* angle_mode_label(AngleMode mode) { return kAngleModeLabels[static_cast<int>(mode)]; }
// A lesson scene hides this view's curves until R (predict, then reveal): axes and captions stay.
inline bool curves_hidden(const LabParams& p, View view) {
    for (int v : p.hidden_views) if (v == static_cast<int>(view)) return true;
    return false;
}
// A slide (presenting, or a lesson scene's views): the words are for the room, so a view fits
// what it can and never asks for a key, a hover or a larger cell.
inline bool on_slide(const LabParams& p) { return p.presenting || !p.scene_views.empty(); }

struct Palette {
    ImU32 q, k, rope, sinusoidal, bound, exact, naive, bf16, marker, unchanged, blended, interpolated;
    // Multi-axis RoPE: the pairs turned by t, h, w, and RoPE-Mixed's (Okabe–Ito hues: colour-blind safe).
    ImU32 axis_t, axis_h, axis_w, axis_mixed;
};
Palette palette(Theme theme);
// Compare mode's settings in their slots' own colours (the base first): apart from each other and
// from the background with colour-vision deficiencies too (colors.cpp).
std::array<ImU32, 4> compare_colours(Theme theme);
// Warning text in the current ImGui style: amber, dark on a light background (≥ 4.5:1 on both).
ImU32 warning_color();
ImU32 error_color();

struct Context {
    const LabParams& params;
    const LabCompute& compute;
    const Lab& lab;  // its products: device columns and samples (lab/products.h)
    const lab::Frame& frame;  // each view's product (lab/frame.h): views draw it, never work it out
    ViewState& state;
    Requests& requests;
    Palette colors;
    std::span<const Annotation> annotations = {};  // the current lesson scene's, for this view
    // How far playback is between m and m + 1: the planes glide through it (readouts stay whole).
    double position_fraction = 0.0;
    View view{};  // the view being drawn (its row of the view table), set by LabView::view
};
inline bool curves_hidden(const Context& ctx) { return curves_hidden(ctx.params, ctx.view); }

// Compare mode: a setting's colour in every view (lab/compare.h; setting 0 is the base).
ImU32 setting_color(const Context& ctx, int setting);
// A pair's axis letter ('t', 'h', 'w', 'm': core/multi_axis.h) as its colour.
ImU32 axis_color(const Palette& colors, char axis);
// When the compared heads differ in size, random q and k are drawn per size: said under the plots.
std::string vectors_note(const LabParams& p);

// Compare mode, in a view that shows one setting: which one.
// Compare mode: "showing the base, NAME" (the heatmap, which draws the base or a difference).
void base_setting_note(const Context& ctx);
// Compare mode, in a view that draws one setting (2, 4): a combo in its header picking which
// (a request; the base until changed). Returns the setting drawn.
int single_setting_header(Context& ctx);
// Settings the compute holds curves for (score_view.cpp).
int settings_of(const LabParams& p, const LabCompute& compute);

// Lesson annotations that are plain labels, drawn over the view at relative positions.
void draw_label_annotations(const Context& ctx, ImVec2 view_min, ImVec2 view_size);

// Each fills the rest of the current ImGui window (its content region).
void planes_view(Context& ctx);
void contrast_view(Context& ctx);
void score_view(Context& ctx);
void invariance_view(Context& ctx);
void heatmap_view(Context& ctx);
void frequencies_view(Context& ctx);
void numbers_view(Context& ctx);
void precision_view(Context& ctx);
void phasors_view(Context& ctx);
void grid_view(Context& ctx);
void attention_view(Context& ctx);
void weights_view(Context& ctx);

// The one-line caption every view starts with; the longer explanation shows on hover.
void caption(const char* line, const char* more);
// The rotary components as cells, paired in both layouts, the focused pair marked (pairing_strip.cpp).
void pairing_strip(Context& ctx, ImVec2 size);
inline float pairing_strip_height() { return 6.3f * ImGui::GetFontSize(); }

}  // namespace ropelab::views
