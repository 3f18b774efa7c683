// The themes' colours: the views' palette and the messages' amber and red. Apart from the rest of
// the views so that the contrast test links colours only (no lab, no GL).
#include "views/views.h"

namespace ropelab::views {

Palette palette(Theme theme) {
    if (theme == Theme::Projector) {  // dark, saturated strokes on white: every one ≥ 4.5:1 (tests/ui/test_contrast)
        return {IM_COL32(190, 0, 0, 255),   IM_COL32(0, 60, 200, 255),   IM_COL32(190, 0, 0, 255),
                IM_COL32(0, 120, 40, 255),  IM_COL32(90, 90, 90, 255),   IM_COL32(0, 0, 0, 255),
                IM_COL32(170, 80, 0, 255),  IM_COL32(120, 0, 160, 255),  IM_COL32(0, 100, 130, 255),
                IM_COL32(70, 70, 70, 255),  IM_COL32(150, 90, 0, 255),   IM_COL32(0, 60, 200, 255),
                IM_COL32(170, 70, 0, 255),  IM_COL32(0, 90, 160, 255),   IM_COL32(0, 120, 80, 255),
                IM_COL32(150, 50, 120, 255)};
    }
    if (theme == Theme::Light) {
        return {IM_COL32(200, 40, 40, 255),  IM_COL32(30, 90, 200, 255),  IM_COL32(200, 40, 40, 255),
                IM_COL32(20, 140, 60, 255),  IM_COL32(120, 120, 120, 255), IM_COL32(30, 30, 30, 255),
                IM_COL32(220, 110, 0, 255),  IM_COL32(140, 40, 170, 255),  IM_COL32(0, 130, 160, 255),
                IM_COL32(90, 90, 90, 255),   IM_COL32(220, 140, 0, 255),   IM_COL32(30, 90, 200, 255),
                IM_COL32(213, 94, 0, 255),   IM_COL32(0, 114, 178, 255),   IM_COL32(0, 140, 100, 255),
                IM_COL32(180, 80, 140, 255)};
    }
    return {IM_COL32(255, 110, 100, 255), IM_COL32(100, 170, 255, 255), IM_COL32(255, 110, 100, 255),
            IM_COL32(110, 220, 130, 255), IM_COL32(170, 170, 170, 255), IM_COL32(235, 235, 235, 255),
            IM_COL32(255, 170, 60, 255),  IM_COL32(210, 120, 255, 255), IM_COL32(90, 220, 230, 255),
            IM_COL32(170, 170, 170, 255), IM_COL32(255, 190, 70, 255),  IM_COL32(110, 170, 255, 255),
            IM_COL32(230, 159, 0, 255),   IM_COL32(86, 180, 233, 255),  IM_COL32(40, 200, 150, 255),
            IM_COL32(220, 130, 180, 255)};
}

// Compare mode's four settings (the base, then the three slots), chosen so that every two stay
// apart, and each from the background, with any of the three colour-vision deficiencies: at
// least ΔE76 = 25 under normal vision and Machado et al.'s (2009) protanopia, deuteranopia and
// tritanopia (tests/lab/test_setting_colours.cpp). Paul Tol's muted rose, blue/olive and indigo
// with Okabe–Ito's sky and yellow where they keep more distance on the dark background; on the
// projector every one ≥ 4.5:1 on white, as its other curves.
std::array<ImU32, 4> compare_colours(Theme theme) {
    if (theme == Theme::Projector) {  // Tol's vibrant red, bright blue, muted wine and indigo
        return {IM_COL32(204, 51, 17, 255), IM_COL32(68, 119, 170, 255), IM_COL32(136, 34, 85, 255), IM_COL32(51, 34, 136, 255)};
    }
    if (theme == Theme::Light) {  // Tol's muted rose, bright blue, olive, indigo
        return {IM_COL32(204, 102, 119, 255), IM_COL32(68, 119, 170, 255), IM_COL32(153, 153, 51, 255), IM_COL32(51, 34, 136, 255)};
    }
    // Dark: Tol's rose, Okabe–Ito's sky blue and yellow, Tol's olive.
    return {IM_COL32(204, 102, 119, 255), IM_COL32(86, 180, 233, 255), IM_COL32(240, 228, 66, 255), IM_COL32(153, 153, 51, 255)};
}

ImU32 axis_color(const Palette& colors, char axis) {
    switch (axis) {
        case 't': return colors.axis_t;
        case 'h': return colors.axis_h;
        case 'w': return colors.axis_w;
        default: return colors.axis_mixed;
    }
}

namespace {
// Whether the current style's background is light (the light and projector themes).
bool light_background() {
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    return 0.2126f * bg.x + 0.7152f * bg.y + 0.0722f * bg.z > 0.5f;
}
}  // namespace

// Amber and red that keep 4.5:1 against the background: bright on the dark theme, deep on a
// light one (the bright amber on light grey was 1.9:1).
ImU32 warning_color() { return light_background() ? IM_COL32(150, 80, 0, 255) : IM_COL32(240, 170, 40, 255); }
ImU32 error_color() { return light_background() ? IM_COL32(180, 20, 10, 255) : IM_COL32(255, 90, 80, 255); }

}  // namespace ropelab::views
