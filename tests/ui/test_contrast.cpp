// Every theme's text is legible at the back of a room: WCAG 2 contrast ratios, computed here in
// float64 from the ImGui style each theme sets and the views' palette, of the body text, grey
// (disabled) text that captions use, warnings and errors against the window background; the
// projector theme's every curve colour too, against the background and the plots' area. No
// window: the style is plain data.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "imgui_setup.h"
#include "plot/plot.h"
#include "views/views.h"

namespace ropelab {
namespace {

// sRGB channel (0..1) to linear light, as WCAG 2 defines relative luminance.
double linear(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }
double luminance(double r, double g, double b) { return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b); }
double contrast(double la, double lb) { return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05); }

double luminance(const ImVec4& c) { return luminance(c.x, c.y, c.z); }
double luminance(ImU32 c) {
    return luminance((c & 0xFF) / 255.0, (c >> 8 & 0xFF) / 255.0, (c >> 16 & 0xFF) / 255.0);
}

// `over` (with its alpha) composited on an opaque `under`: what the screen shows.
ImVec4 over(const ImVec4& top, const ImVec4& under) {
    const float a = top.w;
    return ImVec4(top.x * a + under.x * (1 - a), top.y * a + under.y * (1 - a), top.z * a + under.z * (1 - a), 1.0f);
}

class Contrast : public ::testing::TestWithParam<Theme> {
protected:
    void SetUp() override {
        ImGui::CreateContext();
        apply_style(GetParam(), 1.0f, false);
    }
    void TearDown() override {
        apply_style(Theme::Dark, 1.0f, false);  // leave the plot widget's emphasis as it was
        ImGui::DestroyContext();
    }
    static const char* name() { return GetParam() == Theme::Dark ? "dark" : GetParam() == Theme::Light ? "light" : "projector"; }
    // The window background is the frame's clear colour (alpha ignored: the window is cleared to it).
    static double background() { return luminance(ImGui::GetStyle().Colors[ImGuiCol_WindowBg]); }
};

TEST(ContrastFormula, HandWorkedValues) {
    EXPECT_NEAR(contrast(luminance(0, 0, 0), luminance(1, 1, 1)), 21.0, 1e-12);
    EXPECT_NEAR(contrast(luminance(0.5, 0.5, 0.5), luminance(0.5, 0.5, 0.5)), 1.0, 1e-12);
    // #767676 on white is the well-known smallest grey passing 4.5:1 (4.54:1).
    EXPECT_NEAR(contrast(luminance(118 / 255.0, 118 / 255.0, 118 / 255.0), luminance(1, 1, 1)), 4.54, 0.01);
}

TEST_P(Contrast, TextGreyTextWarningsAndErrorsAreAtLeast4_5To1) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const double bg = background();
    const double text = contrast(luminance(style.Colors[ImGuiCol_Text]), bg);
    const double grey = contrast(luminance(style.Colors[ImGuiCol_TextDisabled]), bg);
    const double warning = contrast(luminance(views::warning_color()), bg);
    const double error = contrast(luminance(views::error_color()), bg);
    std::printf("%s: text %.2f:1, grey/captions %.2f:1, warning %.2f:1, error %.2f:1\n", name(), text, grey, warning, error);
    EXPECT_GE(text, 7.0);
    EXPECT_GE(grey, 4.5);
    EXPECT_GE(warning, 4.5);
    EXPECT_GE(error, 4.5);
    // Grey text on the plots' area (axis readouts sit beside it, off-scale notes on it).
    const ImVec4 frame = over(style.Colors[ImGuiCol_FrameBg], style.Colors[ImGuiCol_WindowBg]);
    EXPECT_GE(contrast(luminance(style.Colors[ImGuiCol_Text]), luminance(frame)), 4.5);
}

// High contrast: every curve and marker colour of the projector palette ≥ 4.5:1 on the window
// and on the plot area; lines and markers drawn twice as thick.
TEST(ProjectorTheme, EveryPaletteColourAndThickLines) {
    ImGui::CreateContext();
    apply_style(Theme::Projector, 1.0f, false);
    EXPECT_EQ(plot::line_emphasis(), 2.0f);
    const ImGuiStyle& style = ImGui::GetStyle();
    const double bg = luminance(style.Colors[ImGuiCol_WindowBg]);
    const double area = luminance(over(style.Colors[ImGuiCol_FrameBg], style.Colors[ImGuiCol_WindowBg]));
    const views::Palette p = views::palette(Theme::Projector);
    const ImU32 colours[] = {p.q,      p.k,         p.rope,    p.sinusoidal,   p.bound,  p.exact,  p.naive,  p.bf16,
                             p.marker, p.unchanged, p.blended, p.interpolated, p.axis_t, p.axis_h, p.axis_w, p.axis_mixed};
    double least = 21;
    for (ImU32 c : colours) {
        least = std::min({least, contrast(luminance(c), bg), contrast(luminance(c), area)});
        EXPECT_GE(contrast(luminance(c), bg), 4.5) << std::hex << c;
        EXPECT_GE(contrast(luminance(c), area), 4.5) << std::hex << c;
    }
    std::printf("projector palette: least contrast %.2f:1\n", least);
    apply_style(Theme::Light, 1.0f, false);
    EXPECT_EQ(plot::line_emphasis(), 1.0f);
    ImGui::DestroyContext();
}

INSTANTIATE_TEST_SUITE_P(Themes, Contrast, ::testing::Values(Theme::Dark, Theme::Light, Theme::Projector),
                         [](const ::testing::TestParamInfo<Theme>& info) {
                             return std::string(info.param == Theme::Dark ? "dark" : info.param == Theme::Light ? "light" : "projector");
                         });

}  // namespace
}  // namespace ropelab
