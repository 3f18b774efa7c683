#include <fmt/format.h>

#include "state/compare.h"
#include "views/views.h"
#include "ui/widgets.h"
#include "plot/screen.h"

namespace ropelab::views {

Palette palette(Theme theme) {
    if (theme == Theme::Projector) {  // dark, saturated strokes on white: every one ≥ 4.5:1 (tests/ui/test_contrast)
        return {IM_COL32(190, 0, 0, 255),   IM_COL32(0, 60, 200, 255),   IM_COL32(190, 0, 0, 255),
                IM_COL32(0, 120, 40, 255),  IM_COL32(90, 90, 90, 255),   IM_COL32(0, 0, 0, 255),
                IM_COL32(170, 80, 0, 255),  IM_COL32(120, 0, 160, 255),  IM_COL32(0, 100, 130, 255),
                IM_COL32(70, 70, 70, 255),  IM_COL32(150, 90, 0, 255),   IM_COL32(0, 60, 200, 255)};
    }
    if (theme == Theme::Light) {
        return {IM_COL32(200, 40, 40, 255),  IM_COL32(30, 90, 200, 255),  IM_COL32(200, 40, 40, 255),
                IM_COL32(20, 140, 60, 255),  IM_COL32(120, 120, 120, 255), IM_COL32(30, 30, 30, 255),
                IM_COL32(220, 110, 0, 255),  IM_COL32(140, 40, 170, 255),  IM_COL32(0, 130, 160, 255),
                IM_COL32(90, 90, 90, 255),   IM_COL32(220, 140, 0, 255),   IM_COL32(30, 90, 200, 255)};
    }
    return {IM_COL32(255, 110, 100, 255), IM_COL32(100, 170, 255, 255), IM_COL32(255, 110, 100, 255),
            IM_COL32(110, 220, 130, 255), IM_COL32(170, 170, 170, 255), IM_COL32(235, 235, 235, 255),
            IM_COL32(255, 170, 60, 255),  IM_COL32(210, 120, 255, 255), IM_COL32(90, 220, 230, 255),
            IM_COL32(170, 170, 170, 255), IM_COL32(255, 190, 70, 255),  IM_COL32(110, 170, 255, 255)};
}

ImU32 setting_color(const Context& ctx, int setting) {
    const bool light = ctx.params.theme != Theme::Dark;  // the projector's background is white too
    // Okabe–Ito's colours; on the dark theme a lighter shade of each, for contrast.
    switch (setting_colour(ctx.params, setting)) {
        case SettingColour::Auto: return ctx.colors.rope;
        case SettingColour::Blue: return light ? IM_COL32(0, 114, 178, 255) : IM_COL32(80, 160, 240, 255);
        case SettingColour::Orange: return light ? IM_COL32(230, 159, 0, 255) : IM_COL32(240, 175, 40, 255);
        case SettingColour::Green: return light ? IM_COL32(0, 158, 115, 255) : IM_COL32(40, 200, 150, 255);
        case SettingColour::Vermillion: return light ? IM_COL32(213, 94, 0, 255) : IM_COL32(240, 120, 40, 255);
        case SettingColour::Purple: return light ? IM_COL32(204, 121, 167, 255) : IM_COL32(225, 145, 190, 255);
        case SettingColour::Sky: return light ? IM_COL32(60, 150, 210, 255) : IM_COL32(86, 180, 233, 255);
        case SettingColour::Yellow: return light ? IM_COL32(180, 160, 0, 255) : IM_COL32(240, 228, 66, 255);
        case SettingColour::Grey: return light ? IM_COL32(100, 100, 100, 255) : IM_COL32(170, 170, 170, 255);
    }
    return ctx.colors.rope;
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

std::string vectors_note(const LabParams& p) {
    bool differ = false;
    for (int i = 1; i < setting_count(p); ++i) differ = differ || setting_model(p, i).head_dim != p.model.head_dim;
    if (!differ || (p.vectors != VectorChoice::Random && p.vectors != VectorChoice::MeanOfRandom)) return "";
    return fmt::format("heads differ: q, k drawn from seed {} per head size", p.seed);
}

void base_setting_note(const Context& ctx) {
    if (!comparing(ctx.params)) return;
    ui::text(fmt::format("showing the base, {}", setting_name(ctx.params, 0)), setting_color(ctx, 0));
    if (ImGui::IsItemHovered() && ui::tooltips_allowed()) {
        ImGui::SetTooltip("%s", ("Compare mode draws every setting in views 3 (scores) and 6 (frequencies); this view shows the base, " +
                                 setting_source(ctx.params, 0))
                                    .c_str());
    }
}

static int single_setting(const LabParams& p, const LabCompute& compute) {
    return comparing(p) ? std::clamp(p.single_setting, 0, settings_of(p, compute) - 1) : 0;
}

int single_setting_header(Context& ctx) {
    const LabParams& p = ctx.params;
    if (!comparing(p)) return 0;
    const int shown = single_setting(p, ctx.compute);
    // The combo as wide as its longest name, within the view.
    float widest = 0;
    for (int s = 0; s < settings_of(p, ctx.compute); ++s) widest = std::max(widest, ImGui::CalcTextSize(setting_name(p, s).c_str()).x);
    const float label = ImGui::CalcTextSize("setting shown").x + ImGui::GetStyle().ItemInnerSpacing.x;
    ImGui::SetNextItemWidth(std::max(4 * ImGui::GetFrameHeight(), std::min(widest + ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().FramePadding.x,
                                                                         ImGui::GetContentRegionAvail().x - label)));
    ImGui::PushStyleColor(ImGuiCol_Text, setting_color(ctx, shown));
    const bool open = ui::begin_combo("setting shown", setting_name(p, shown).c_str());
    ImGui::PopStyleColor();
    ui::tip(("This view draws one setting: pick which (views 3 and 6 draw every one). " + setting_source(p, shown)).c_str());
    if (open) {
        for (int s = 0; s < settings_of(p, ctx.compute); ++s) {
            ImGui::PushStyleColor(ImGuiCol_Text, setting_color(ctx, s));
            if (ui::combo_item(setting_name(p, s).c_str(), s == shown)) ctx.requests.single_setting = s;
            ImGui::PopStyleColor();
        }
        ui::end_combo();
    }
    return shown;
}

void draw_label_annotations(const Context& ctx, ImVec2 view_min, ImVec2 view_size) {
    draw::Canvas dl = draw::Canvas::window();
    const float font = ImGui::GetFontSize();
    for (const Annotation& a : ctx.annotations) {
        if (a.at != "label") continue;
        const ImVec2 at(view_min.x + static_cast<float>(a.x) * view_size.x, view_min.y + static_cast<float>(a.y) * view_size.y);
        const ImVec2 size = ImGui::CalcTextSize(a.text.c_str());
        dl.fill_rect(ImVec2(at.x - 0.3f * font, at.y - 0.2f * font), ImVec2(at.x + size.x + 0.3f * font, at.y + size.y + 0.2f * font),
                          ImGui::GetColorU32(ImGuiCol_PopupBg), 4.0f);
        dl.rect(ImVec2(at.x - 0.3f * font, at.y - 0.2f * font), ImVec2(at.x + size.x + 0.3f * font, at.y + size.y + 0.2f * font),
                    ctx.colors.marker, 2.0f, 4.0f);
        dl.text(at, ImGui::GetColorU32(ImGuiCol_Text), a.text.c_str());
    }
}

void caption(const char* line, const char* more) {
    ui::text_disabled(line);  // wraps in a narrow cell rather than losing its end
    if (ImGui::IsItemHovered() && ui::tooltips_allowed()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
        ImGui::TextUnformatted(more);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

}  // namespace ropelab::views
