// Compare mode's four colours (views::compare_colours) stay apart with colour-vision deficiency:
// computed here in float64, independent of the app — each colour to linear RGB, through
// Machado, Oliveira & Fernandes (2009)'s simulation matrices at severity 1.0 (protanopia,
// deuteranopia, tritanopia), to CIELAB (D65) — every two settings' colours, and each against the
// theme's backgrounds (the window and the plot area, from the style each theme sets), differ by
// ΔE76 ≥ 20 under normal vision and under each simulation.
//
// Why 20: ΔE76 ≈ 2.3 is a just-noticeable difference between large patches side by side; curves
// are 1–3 px lines, often crossing, where colour discrimination falls several-fold, and a
// legend's swatch is read away from its curve. 20 is the "clearly a different colour at a
// glance" distance used for categorical palettes (Tol's and Okabe–Ito's pairs are 20–60
// apart). The salmon and pink this replaces were 13.6 apart under deuteranopia.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>

#include <imgui.h>

#include "imgui_setup.h"
#include "views/views.h"

namespace ropelab {
namespace {

using Rgb = std::array<double, 3>;  // 0..1, sRGB-encoded
using Matrix = std::array<std::array<double, 3>, 3>;

// Machado et al. 2009, Table 1 at severity 1.0 (on linear RGB).
constexpr Matrix kNormal{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
constexpr Matrix kProtanopia{{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}};
constexpr Matrix kDeuteranopia{{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}};
constexpr Matrix kTritanopia{{{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}};

struct Vision {
    const char* name;
    Matrix m;
};
constexpr std::array<Vision, 4> kVisions{{{"normal", kNormal}, {"protanopia", kProtanopia}, {"deuteranopia", kDeuteranopia}, {"tritanopia", kTritanopia}}};

double to_linear(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }

// CIELAB (D65 white) of an sRGB colour as seen with vision `m`.
Rgb lab(const Rgb& srgb, const Matrix& m) {
    Rgb lin{to_linear(srgb[0]), to_linear(srgb[1]), to_linear(srgb[2])}, seen{};
    for (int i = 0; i < 3; ++i) {
        seen[i] = std::clamp(m[i][0] * lin[0] + m[i][1] * lin[1] + m[i][2] * lin[2], 0.0, 1.0);
    }
    const double x = 0.4124564 * seen[0] + 0.3575761 * seen[1] + 0.1804375 * seen[2];
    const double y = 0.2126729 * seen[0] + 0.7151522 * seen[1] + 0.0721750 * seen[2];
    const double z = 0.0193339 * seen[0] + 0.1191920 * seen[1] + 0.9503041 * seen[2];
    const auto f = [](double t) { return t > 216.0 / 24389.0 ? std::cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0; };
    const double fx = f(x / 0.95047), fy = f(y / 1.0), fz = f(z / 1.08883);
    return {116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)};
}

double delta_e76(const Rgb& a, const Rgb& b, const Matrix& m) {
    const Rgb la = lab(a, m), lb = lab(b, m);
    return std::hypot(la[0] - lb[0], la[1] - lb[1], la[2] - lb[2]);
}

Rgb rgb(ImU32 c) { return {(c & 0xFF) / 255.0, (c >> 8 & 0xFF) / 255.0, (c >> 16 & 0xFF) / 255.0}; }
Rgb rgb(const ImVec4& c) { return {c.x, c.y, c.z}; }
// `top` with its alpha over an opaque `under`.
Rgb over(const ImVec4& top, const Rgb& under) {
    return {top.x * top.w + under[0] * (1 - top.w), top.y * top.w + under[1] * (1 - top.w), top.z * top.w + under[2] * (1 - top.w)};
}

std::string hex(const Rgb& c) {
    char out[8];
    std::snprintf(out, sizeof out, "#%02x%02x%02x", static_cast<int>(std::lround(c[0] * 255)), static_cast<int>(std::lround(c[1] * 255)),
                  static_cast<int>(std::lround(c[2] * 255)));
    return out;
}

TEST(ColourScience, HandWorkedValues) {
    // White is L* 100, black 0; sRGB red is (53.24, 80.09, 67.20) in every reference table.
    const Rgb white = lab({1, 1, 1}, kNormal), red = lab({1, 0, 0}, kNormal);
    EXPECT_NEAR(white[0], 100.0, 1e-3);
    EXPECT_NEAR(white[1], 0.0, 1e-3);
    EXPECT_NEAR(white[2], 0.0, 1e-3);
    EXPECT_NEAR(lab({0, 0, 0}, kNormal)[0], 0.0, 1e-12);
    EXPECT_NEAR(red[0], 53.24, 0.01);
    EXPECT_NEAR(red[1], 80.09, 0.01);
    EXPECT_NEAR(red[2], 67.20, 0.01);
    // Each simulation keeps greys grey (its rows sum to 1) and makes red and green alike for the
    // red-green deficiencies, not for tritanopia.
    for (const Vision& v : kVisions) {
        for (const auto& row : v.m) EXPECT_NEAR(row[0] + row[1] + row[2], 1.0, 2e-6) << v.name;
        EXPECT_NEAR(delta_e76({0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}, v.m), 0.0, 1e-12);
    }
    const Rgb red_ish{0.8, 0.3, 0.1}, green_ish{0.45, 0.5, 0.1};
    EXPECT_LT(delta_e76(red_ish, green_ish, kDeuteranopia), 0.5 * delta_e76(red_ish, green_ish, kNormal));
    EXPECT_GT(delta_e76(red_ish, green_ish, kTritanopia), 0.5 * delta_e76(red_ish, green_ish, kNormal));
}

class SettingColours : public ::testing::TestWithParam<Theme> {
protected:
    void SetUp() override {
        ImGui::CreateContext();
        apply_style(GetParam(), 1.0f, false);
    }
    void TearDown() override {
        apply_style(Theme::Dark, 1.0f, false);
        ImGui::DestroyContext();
    }
};

TEST_P(SettingColours, FourSettingsStayApartWithColourVisionDeficiency) {
    constexpr double kThreshold = 20.0;
    const ImGuiStyle& style = ImGui::GetStyle();
    const Rgb window = rgb(style.Colors[ImGuiCol_WindowBg]);
    const Rgb plot_area = over(style.Colors[ImGuiCol_FrameBg], window);  // the plots' background (plot_figure.cpp)
    const std::array<ImU32, 4> colours = views::compare_colours(GetParam());
    for (const Vision& v : kVisions) {
        for (int a = 0; a < 4; ++a) {
            for (int b = a + 1; b < 4; ++b) {
                EXPECT_GE(delta_e76(rgb(colours[a]), rgb(colours[b]), v.m), kThreshold)
                    << v.name << ": settings " << a << " and " << b << ", " << hex(rgb(colours[a])) << " and " << hex(rgb(colours[b]));
            }
            for (const Rgb& background : {window, plot_area}) {
                EXPECT_GE(delta_e76(rgb(colours[a]), background, v.m), kThreshold)
                    << v.name << ": setting " << a << " " << hex(rgb(colours[a])) << " on " << hex(background);
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(EveryTheme, SettingColours, ::testing::Values(Theme::Dark, Theme::Light, Theme::Projector),
                         [](const auto& info) {
                             return std::string(info.param == Theme::Dark ? "Dark" : info.param == Theme::Light ? "Light" : "Projector");
                         });

}  // namespace
}  // namespace ropelab
