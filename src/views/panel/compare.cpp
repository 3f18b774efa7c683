#include "views/panel/panel.h"

#include <algorithm>
#include <string>

#include "core/error.h"
#include "core/presets.h"
#include "state/compare.h"
#include "state/schema.h"

namespace ropelab::controls {

namespace {

// A setting's colour, by the schema's names (auto, blue, orange, …).
void colour_combo(const char* label, SettingColour& colour) {
    const auto& names = schema::by_path("compare.base_colour")->names;
    const std::string shown(names[static_cast<std::size_t>(colour)]);
    if (ui::begin_combo(label, shown.c_str())) {
        for (std::size_t i = 0; i < names.size(); ++i) {
            if (ui::combo_item(std::string(names[i]).c_str(), i == static_cast<std::size_t>(colour))) colour = static_cast<SettingColour>(i);
        }
        ui::end_combo();
    }
    tip("Its colour in every view and export (auto: the slot's own; Okabe–Ito colours, told apart with colour-vision deficiencies)");
}

// An edit of the compared settings, refused in words when it cannot apply; the lab validates
// the candidate again when it commits it. `notice`: said when it is committed.
template <class Edit>
void compare_edit(LabParams& p, lab::Commands& out, const std::string& what, Edit edit, const std::string& notice = "") {
    LabParams next = p;
    try {
        edit(next);
        schema::validate(next);
    } catch (const InputError& e) {
        out.push_back(lab::cmd::Refuse{.control = what, .why = e.what()});
        return;
    }
    p = std::move(next);
    if (!notice.empty()) out.push_back(lab::cmd::SetState{.state = p, .control = what, .notice = notice});
}

// One compared setting: name, colour, order, removal, and (when opened) its model's rows.
void compared_rows(LabParams& p, PanelState& panel, lab::Commands& out, int slot) {
    ComparedSetting& c = p.compared[static_cast<std::size_t>(slot)];
    ImGui::PushID(slot + 1);
    ImGui::Separator();
    ui::input_text("Name", &c.name);
    tip(("From " + c.source + (c.layer_type.empty() ? "" : " (" + c.layer_type + " layers)")).c_str());
    colour_combo("Colour", c.colour);
    if (slot > 0 && ui::button("Up")) compare_edit(p, out, "move up", [&](LabParams& n) { move_compared(n, slot, -1); });
    if (slot > 0) tip("Move it up: the order of the legends and export columns");
    if (slot + 1 < p.compared_count) {
        if (slot > 0) ImGui::SameLine();
        if (ui::button("Down")) compare_edit(p, out, "move down", [&](LabParams& n) { move_compared(n, slot, +1); });
        tip("Move it down");
    }
    if (slot > 0 || slot + 1 < p.compared_count) ImGui::SameLine();
    if (ui::button(panel.compare_editing == slot ? "Done" : "Edit")) panel.compare_editing = panel.compare_editing == slot ? -1 : slot;
    tip("Its θ, head, layout and scaling");
    ImGui::SameLine();
    if (ui::button("Make base")) {
        compare_edit(p, out, "make base", [&](LabParams& n) { swap_with_base(n, slot); });
        panel.compare_editing = -1;
    }
    tip("Swap it with the base: the Model section then edits it, the base is compared");
    ImGui::SameLine();
    if (ui::button("Remove")) {
        compare_edit(p, out, "remove", [&](LabParams& n) { remove_compared(n, slot); });
        panel.compare_editing = -1;
    }
    tip("Stop drawing this setting");
    if (panel.compare_editing == slot && slot < p.compared_count) {
        ModelConfig candidate = c.model;
        const bool geometry = geometry_rows(candidate);
        const bool scaling = scaling_rows(candidate);
        if (geometry || scaling) compare_edit(p, out, setting_name(p, slot + 1), [&](LabParams& n) { n.compared[static_cast<std::size_t>(slot)].model = candidate; });
    }
    ImGui::PopID();
}

}  // namespace

// Compare mode: the base and up to three settings on the same axes (lab/compare.h).
void compare_section(LabParams& p, PanelState& panel, lab::Commands& out) {
    ImGui::PushID(0);
    ui::input_text("Base name", &p.base_name);
    LabParams unnamed = p;
    unnamed.base_name.clear();
    tip(("The base setting's label (empty: " + setting_name(unnamed, 0) + ")").c_str());
    colour_combo("Base colour", p.base_colour);
    ImGui::PopID();
    if (p.compared_count > 0) {
        const auto label = [&](int k) { return k == 0 ? std::string("the base's angles") : "base − " + setting_name(p, k); };
        const int shown = std::min(p.heatmap_difference, p.compared_count);
        if (ui::begin_combo("Heatmap", label(shown).c_str())) {
            for (int k = 0; k <= p.compared_count; ++k) {
                if (ui::combo_item(label(k).c_str(), k == shown)) p.heatmap_difference = k;
            }
            ui::end_combo();
        }
        tip("View 5: the base's angles, or the base's minus a compared setting's (same pair count), white where they agree");
    }
    for (int slot = 0; slot < p.compared_count; ++slot) compared_rows(p, panel, out, slot);
    // Ways to add a setting, shown when full too: adding then says why it cannot.
    ImGui::Separator();
    if (ui::begin_combo("Add preset", "a preset beside the base")) {
        for (const Preset& preset : presets()) {
            if (ui::combo_item(preset.note.title.c_str(), false)) {
                out.push_back(lab::cmd::AddCompared{.spec = preset.note.name, .control = "add " + preset.note.name});
            }
            tip(preset.note.source.c_str());
        }
        ui::end_combo();
    }
    tip("Draw a preset's setting beside the base");
    if (ui::button("Duplicate base")) {
        compare_edit(p, out, "duplicate base", [&](LabParams& n) { add_compared(n, duplicate_base(n)); });
        panel.compare_editing = p.compared_count - 1;  // its rows open, ready to edit
    }
    tip("A copy of the base to edit: change its θ, scaling or layout and see both");
    ImGui::SameLine();
    if (ui::button("Add config")) {
        out.push_back(lab::cmd::AddCompared{.spec = panel.config_path, .control = "add config " + panel.config_path});  // the lab reads it
    }
    tip("The config.json named in Model → Config file (PATH@layer_type picks a layer type)");
    if (ui::begin_combo("Built in", "a ready comparison")) {
        for (const Comparison& c : comparisons()) {
            if (ui::combo_item(std::string(c.title).c_str(), false)) {
                compare_edit(p, out, std::string(c.name), [&](LabParams& n) { n = apply_comparison(n, c.name); }, std::string(c.title));
            }
        }
        ui::end_combo();
    }
    tip("A ready comparison: its base model, settings and distances (also --comparison NAME)");
    if (p.compared_count > 0 && ui::button("Stop comparing")) {
        compare_edit(p, out, "stop comparing", [&](LabParams& n) { n.compared_count = 0; n.compared = {}; });
        panel.compare_editing = -1;
    }
    if (p.compared_count > 0) tip("Remove every compared setting; the base stays");
}

}  // namespace ropelab::controls
