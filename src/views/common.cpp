#include "views/views.h"
#include "views/widgets.h"

namespace ropelab::views {

Palette palette(Theme theme) {
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

void draw_label_annotations(const Context& ctx, ImVec2 view_min, ImVec2 view_size) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float font = ImGui::GetFontSize();
    for (const Annotation& a : ctx.annotations) {
        if (a.at != "label") continue;
        const ImVec2 at(view_min.x + static_cast<float>(a.x) * view_size.x, view_min.y + static_cast<float>(a.y) * view_size.y);
        const ImVec2 size = ImGui::CalcTextSize(a.text.c_str());
        dl->AddRectFilled(ImVec2(at.x - 0.3f * font, at.y - 0.2f * font), ImVec2(at.x + size.x + 0.3f * font, at.y + size.y + 0.2f * font),
                          ImGui::GetColorU32(ImGuiCol_PopupBg), 4.0f);
        dl->AddRect(ImVec2(at.x - 0.3f * font, at.y - 0.2f * font), ImVec2(at.x + size.x + 0.3f * font, at.y + size.y + 0.2f * font),
                    ctx.colors.marker, 4.0f, 0, 2.0f);
        dl->AddText(at, ImGui::GetColorU32(ImGuiCol_Text), a.text.c_str());
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
