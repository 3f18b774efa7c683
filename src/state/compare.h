#pragma once
// Compare mode: the base setting (LabParams::model) and up to three compared settings, drawn on
// the same axes in every view. A compared setting comes from a SPEC — a preset, a config.json, or
// key=value overrides of the base — and keeps a name and a colour in every view and export. The
// built-in comparisons are the questions engineers bring (llama3 vs YaRN vs PI vs NTK at ×8, …).
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "state/params.h"

namespace ropelab {

// Settings drawn, base first: 1 + compared_count.
inline int setting_count(const LabParams& p) { return 1 + p.compared_count; }
inline bool comparing(const LabParams& p) { return p.compared_count > 0; }
const ModelConfig& setting_model(const LabParams& p, int setting);
// The legend's label: the given name, else the preset or a config's short name (its folder for
// "…/MODEL/config.json", else its file's stem), with "@layer_type" where one was picked.
std::string setting_name(const LabParams& p, int setting);
// Where it came from, in full (a config's whole path): the name's tooltip.
std::string setting_source(const LabParams& p, int setting);
// Auto resolved: the base keeps Auto (the views' RoPE colour); compared slots 1, 2, 3 are
// sky, orange and purple unless chosen.
SettingColour setting_colour(const LabParams& p, int setting);
// A column prefix made of the name: lower case letters, digits and '_', unique in this state.
std::string setting_slug(const LabParams& p, int setting);
// The state of one setting alone, as its own single export and single view would have it.
LabParams setting_params(const LabParams& p, int setting);

// SPEC: a preset name or config path, optionally "@layer_type", then ",key=value" items; or only
// key=value items, which override the base. Keys: the model's lesson names or HF names (theta or
// rope_theta, factor, rope_type, layout, …), and name, colour. Throws InputError naming the item.
ComparedSetting parse_compare_spec(std::string_view spec, const LabParams& base);
// The base as a compared setting (duplicate, then edit).
ComparedSetting duplicate_base(const LabParams& p);

// Edits that keep the slots packed; each throws InputError when it cannot apply.
void add_compared(LabParams& p, ComparedSetting setting);
void remove_compared(LabParams& p, int slot);       // slot 0 .. count−1
void move_compared(LabParams& p, int slot, int by);  // −1: up, +1: down
// The base and compared setting `slot` trade places: the full model panel then edits it.
void swap_with_base(LabParams& p, int slot);

struct Comparison {
    std::string_view name;   // for --comparison and lessons
    std::string_view title;  // the panel's menu
    std::string_view base;   // a preset (optionally @layer_type)
    std::string_view base_name;
    std::vector<std::string_view> specs;
    std::vector<std::pair<std::string_view, std::string_view>> set;  // lesson name → value
};
std::span<const Comparison> comparisons();
// The comparison's base, settings and view fields over `p`. Throws InputError listing the names.
LabParams apply_comparison(const LabParams& p, std::string_view name);

// Settings given as SPECs replace the compared ones (an empty list removes them), or with `keep`
// join them. Errors name the door and the SPEC: `--compare "rope_type=yarm": model.rope_scaling.
// rope_type = "yarm" is unknown (…)`; the whole state is validated.
LabParams with_compared(const LabParams& p, const std::vector<std::string>& specs, bool keep = false,
                        std::string_view door = "compare");

}  // namespace ropelab
