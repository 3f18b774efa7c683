#include <fmt/format.h>

#include "state/compare.h"
#include "views/views.h"
#include "ui/widgets.h"
#include "ui/math_text.h"
#include "plot/screen.h"

namespace ropelab::views {

ImU32 setting_color(const Context& ctx, int setting) {
    const bool light = ctx.params.theme != Theme::Dark;  // the projector's background is white too
    // Okabe–Ito's colours; on the dark theme a lighter shade of each, for contrast.
    // A slot left to Auto takes the theme's compare colour for its place.
    const SettingColour chosen = setting <= 0 ? ctx.params.base_colour : ctx.params.compared[std::min(setting, kMaxCompared) - 1].colour;
    if (chosen == SettingColour::Auto) return compare_colours(ctx.params.theme)[std::clamp(setting, 0, kMaxCompared)];
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
        // Tooltips are plain ImGui text: scripts as Unicode characters where the font has them.
        ImGui::TextUnformatted(math_text::with_unicode_scripts(more).c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

}  // namespace ropelab::views
