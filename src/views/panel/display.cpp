#include "views/panel/panel.h"

#include <array>

#include <fmt/format.h>

#include "state/schema.h"

namespace ropelab::controls {

namespace {

constexpr const char* kThemeNames[] = {"Dark", "Light", "Projector"};

}  // namespace

void view_section(LabParams& p, PanelState& panel) {
    // The scale applies when the slider is let go: applied live, the slider would grow under
    // the pointer and run away to its maximum.
    float scale = panel.ui_scale_dragging.value_or(p.ui_scale);
    ui::slider_float("UI scale", &scale, schema::kMinUiScale, schema::kMaxUiScale, "%.2f");
    if (ImGui::IsItemActive()) {
        panel.ui_scale_dragging = scale;
    } else {
        if (ImGui::IsItemDeactivatedAfterEdit() || panel.ui_scale_dragging) p.ui_scale = scale;
        panel.ui_scale_dragging.reset();
    }
    tip("Text and widget size: 2.0 or more for projectors (applies when you let go)");
    const ImVec2 screen = ImGui::GetMainViewport()->Size;
    if (const float shown = fitted_ui_scale(p.ui_scale, screen.x, screen.y); shown < p.ui_scale - 0.005f) {
        ui::message(fmt::format("Shown at {:.2f}: a {:.0f}×{:.0f} window fits at most that; a larger window shows {:.2f}", shown,
                                screen.x, screen.y, p.ui_scale),
                    views::warning_color());
    }
    enum_combo("Theme", p.theme, kThemeNames);
    tip("Projector: black on white at high contrast with thick lines and large markers, for the back of a room; "
        "Light also reads well on projectors");
    ui::checkbox("Frequencies over λ/L₀", &p.wavelength_axis);
    tip("The frequencies view's x axis in tokens: each pair's unscaled wavelength over the training context "
        "L₀, where llama3's and YaRN's rules are stated (instead of the pair index)");
    ui::checkbox("Planes move stepwise", &p.stepwise_planes);
    tip("While playing, the planes' arrows jump a whole position at a time (θ_i per step) instead of gliding "
        "between positions; the readouts are whole positions either way");
    static const auto spotlight_names = [] {  // "off", then the views' tab titles
        std::array<const char*, kViewCount + 1> names{"off"};
        for (int v = 0; v < kViewCount; ++v) names[v + 1] = view_short_title(static_cast<View>(v)).data();
        return names;
    }();
    ui::combo("Spotlight", &p.spotlight, spotlight_names);
    tip("Dim every view but this one (or press S over a view; again: off). Hold L or the right mouse button "
        "for a laser pointer");
    ui::checkbox("Fullscreen (F11)", &p.fullscreen);
    tip("Fill the screen; Tab hides this panel for more room");
    ui::checkbox("Keys (F1)", &p.show_help);
    tip("The list of keyboard and mouse shortcuts");
}

}  // namespace ropelab::controls
