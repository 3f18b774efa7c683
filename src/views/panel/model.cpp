#include "views/panel/panel.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "core/presets.h"

namespace ropelab::controls {

namespace {

// An optional number edited through a checkbox ("given") and a value.
void optional_double(const char* label, std::optional<double>& value, double fallback, bool& changed) {
    bool given = value.has_value();
    ImGui::PushID(label);
    const std::string name = std::string(label) + " given";
    if (ui::checkbox("##given", &given, name.c_str())) {
        value = given ? std::optional<double>(fallback) : std::nullopt;
        changed = true;
    }
    ImGui::SameLine();
    double v = value.value_or(fallback);
    ImGui::BeginDisabled(!given);
    if (ui::input_double(label, &v) && given) {
        value = v;
        changed = true;
    }
    ImGui::EndDisabled();
    ImGui::PopID();
}

// The layer picker of a config or preset with per-layer rules (Llama 4, Gemma 2/3, SmolLM3,
// Qwen3-Next, Cohere2, EXAONE 4): picking reloads the model with that layer's setting and its
// attention rules (NoPE, sliding window, chunks), as the request path does for a config.
void layer_picker(const LabParams& p, const Lab& lab, lab::Commands& out) {
    const auto& s = lab.status();
    if (s.layer_labels.empty()) return;
    const int count = static_cast<int>(s.layer_labels.size());
    const bool picked = p.layer >= 0 && p.layer < count;
    const int shown_layer = picked ? p.layer : s.default_layer;
    // The box names the layer and what it does, short; the list and the tooltip the whole label.
    const bool known = shown_layer >= 0 && shown_layer < count && s.layer_previews.size() == s.layer_labels.size();
    const std::string preview = !known ? std::string("default")
                                : picked ? s.layer_previews[static_cast<std::size_t>(shown_layer)]
                                         : fmt::format("default = layer {}", shown_layer);
    if (ui::begin_combo("Layer##layer-picker", preview.c_str())) {
        if (ui::combo_item("default (the first RoPE layer)##layer-default", !picked) && picked) out.push_back(lab::cmd::PickLayer{-1});
        for (int i = 0; i < count; ++i) {
            const std::string& label = s.layer_labels[static_cast<std::size_t>(i)];
            if (ui::combo_item(label.c_str(), i == p.layer) && i != p.layer) out.push_back(lab::cmd::PickLayer{i});
        }
        ui::end_combo();
    }
    const std::string shown_label = known ? s.layer_labels[static_cast<std::size_t>(shown_layer)] : std::string("none");
    tip(fmt::format("Showing {}{}.\nThis model's layers differ: each one's type, and whether it applies RoPE (its θ),\n"
                    "a sliding window, Llama 4's chunks, or no RoPE at all (NoPE). Picking one loads its\n"
                    "RoPE setting and its attention rules (--layer L); default: the first RoPE layer.",
                    shown_label, picked ? "" : " (no layer picked)")
            .c_str());
}

// p-RoPE (Barbero et al. 2024, "Round and Round We Go!"): the lowest-frequency fraction of the
// pairs left unrotated. Snapped to whole pairs, so the slider's value is what the math uses.
bool p_rope_row(ModelConfig& m) {
    const int pairs = std::max(1, rotary_dim(m) / 2);
    double fraction = m.p_rope;
    bool changed = false;
    if (ui::slider_double("p-RoPE##p-rope", &fraction, 0.0, 1.0, "%.3f unrotated", false)) {
        m.p_rope = std::clamp(std::round(fraction * pairs) / pairs, 0.0, 1.0);
        changed = true;
    }
    const int dropped = p_rope_dropped_pairs(m.p_rope, pairs);
    const std::string which = dropped == 0 ? std::string("none: every pair rotates (RoPE)")
                              : dropped == pairs
                                  ? fmt::format("all {} pairs: no pair rotates (as NoPE)", pairs)
                                  : fmt::format("{} of {} pairs, i = {} … {} (the lowest frequencies)", dropped, pairs, pairs - dropped,
                                                pairs - 1);
    tip(("p-RoPE (Barbero et al. 2024, \"Round and Round We Go!\"): the fraction p of the pairs\n"
         "with the lowest frequencies passes through unrotated. The paper finds models use high\n"
         "frequencies for positional heads and low ones for meaning. Snaps to whole pairs.\n"
         "Unrotated now: " + which)
            .c_str());
    return changed;
}

// Preset picker and config.json loading: both replace the whole model (the lab reads the file
// and validates it first).
void source_rows(const LabParams& p, const Lab& lab, PanelState& panel, lab::Commands& out) {
    const auto& s = lab.status();
    // A config file shows as its name; the tooltip has the whole path.
    const std::string shown = p.preset.find('/') == std::string::npos ? p.preset : p.preset.substr(p.preset.rfind('/') + 1);
    if (ui::begin_combo("Preset", shown.c_str())) {
        for (const Preset& preset : presets()) {
            if (ui::combo_item(preset.note.title.c_str(), preset.note.name == p.preset)) {
                out.push_back(lab::cmd::SelectPreset{preset.note.name});
            }
            tip(preset.note.source.c_str());
        }
        ui::end_combo();
    }
    tip(p.preset.find('/') == std::string::npos ? "Real model settings from assets/presets (HF config.json values)"
                                                : ("Loaded from " + p.preset).c_str());
    ui::input_text("Config file", &panel.config_path, ui::kMaxPathChars);
    tip("Path to a HF config.json; you can also drop the file onto the window");
    browse_button("config", "Browse configs", panel.config_path,
                  {.title = "Load a config.json", .mode = ui::FileDialogMode::Open, .extensions = {".json"}, .start = {}, .recent = {}}, lab);
    if (const auto path = browsed("config")) {
        panel.config_path = *path;
        out.push_back(lab::cmd::LoadConfig{.path = *path, .layer_type = "", .given = {}, .layer = -1});
    }
    if (ui::button("Load config")) out.push_back(lab::cmd::LoadConfig{.path = panel.config_path, .layer_type = "", .given = {}, .layer = -1});
    tip("Load the config.json at this path; a bad file is refused and the current model stays");
    if (s.config_needs_rope) {
        // The CLI's --layout and --partial-rotary-factor, said with the panel's own controls.
        ImGui::SameLine();
        if (ui::button("Read with these")) {
            out.push_back(lab::cmd::LoadConfig{.path = s.config_path, .layer_type = "",
                                               .given = GivenRope{p.model.layout, p.model.partial_rotary_factor}, .layer = -1});
        }
        tip("This file's model type is not in ropelab's family table (ropelab families lists it), so ropelab cannot "
            "tell how its RoPE pairs components or how much of the head rotates. Set the layout (interleaved or "
            "half) and Partial rotary below as the model's code does, then read the file with them");
    }
    if (!s.layer_types.empty() && ui::begin_combo("Layer type", p.layer_type.c_str())) {
        for (const std::string& name : s.layer_types) {
            if (ui::combo_item(name.c_str(), name == p.layer_type)) {
                out.push_back(lab::cmd::LoadConfig{.path = s.config_path, .layer_type = name, .given = s.config_given, .layer = -1});
            }
        }
        ui::end_combo();
    }
    if (!s.layer_types.empty()) tip("This model's layers use different RoPE settings: the one shown");
    layer_picker(p, lab, out);
}

bool input_double(const char* label, double& v, const char* help) {
    const bool changed = ui::input_double(label, &v);
    tip(help);
    return changed;
}

}  // namespace

// Head dim, base, partial rotary and layout. Returns true when the candidate changed.
bool geometry_rows(ModelConfig& m) {
    bool changed = false;
    int head_dim = m.head_dim;
    if (ui::input_int("Head dim d", &head_dim, 2, 16)) {
        m.head_dim = head_dim;
        changed = true;
    }
    tip("d: components per head; rotary dim = d × partial_rotary_factor must be even");
    if (ui::slider_double("θ (base)", &m.rope_theta, 1.0001, 1e9, "%.6g", true)) changed = true;
    tip("θ_i = base^(−2i/d): a larger base slows every pair (longer wavelengths)");
    float prf = static_cast<float>(m.partial_rotary_factor);
    if (ui::slider_float("Partial rotary", &prf, 0.05f, 1.0f, "%.3f")) {
        m.partial_rotary_factor = prf;
        changed = true;
    }
    tip("Fraction of the head that rotates; the rest passes through unrotated (GPT-J 0.25)");
    int layout = static_cast<int>(m.layout);
    if (ui::radio("interleaved", &layout, 0)) changed = true;
    tip("pairs (2i, 2i+1): Meta Llama, GPT-J, RoFormer");
    ImGui::SameLine();
    if (ui::radio("half", &layout, 1)) changed = true;
    tip("pairs (i, i + d/2): GPT-NeoX, HF rotate_half");
    m.layout = static_cast<PairLayout>(layout);
    return changed;
}

// The rope_scaling type and the parameters that type reads.
bool scaling_rows(ModelConfig& m) {
    bool changed = false;
    RopeScaling& sc = m.rope_scaling;
    if (ui::begin_combo("Scaling", std::string(to_string(sc.type)).c_str())) {
        for (RopeType t : {RopeType::Default, RopeType::Linear, RopeType::Dynamic, RopeType::Ntk, RopeType::Yarn,
                           RopeType::Llama3, RopeType::LongRope}) {
            if (ui::combo_item(std::string(to_string(t)).c_str(), t == sc.type) && t != sc.type) {
                sc.type = t;
                // A scaling type that needs numbers gets HF's usual ones, so the choice shows at once.
                if (t != RopeType::Default && t != RopeType::LongRope && !sc.factor) sc.factor = 2.0;
                if (t == RopeType::Llama3) {
                    if (!sc.low_freq_factor) sc.low_freq_factor = 1.0;
                    if (!sc.high_freq_factor) sc.high_freq_factor = 4.0;
                    if (!sc.original_max_position_embeddings && !m.original_max_position_embeddings) {
                        sc.original_max_position_embeddings = m.max_position_embeddings;
                    }
                }
                changed = true;
            }
        }
        ui::end_combo();
    }
    tip("How θ_i is stretched for longer contexts (HF rope_scaling.rope_type)");
    if (sc.type != RopeType::Default && sc.type != RopeType::LongRope) {
        double factor = sc.factor.value_or(1.0);
        if (ui::slider_double("factor", &factor, 0.1, 1000.0, "%.4g", true)) {
            sc.factor = factor;
            changed = true;
        }
        tip("Context extension factor s: linear divides θ_i by s; NTK raises the base by s^(d/(d−2))");
    }
    if (sc.type == RopeType::Llama3) {
        double lo = sc.low_freq_factor.value_or(1.0), hi = sc.high_freq_factor.value_or(4.0);
        if (input_double("low_freq_factor", lo, "Wavelengths above context/low_freq_factor are divided by the factor")) {
            sc.low_freq_factor = lo, changed = true;
        }
        if (input_double("high_freq_factor", hi, "Wavelengths below context/high_freq_factor are kept; between, a smooth blend")) {
            sc.high_freq_factor = hi, changed = true;
        }
    }
    if (sc.type == RopeType::Yarn) {
        changed |= input_double("beta_fast", sc.beta_fast, "Pairs turning more than beta_fast times in the original context keep their frequency");
        changed |= input_double("beta_slow", sc.beta_slow, "Pairs turning fewer than beta_slow times are interpolated by 1/factor");
        optional_double("attention_factor", sc.attention_factor, 1.0, changed);
        tip("Scales cos and sin (q·k by its square); default 0.1·ln(factor) + 1");
    }
    if (sc.type == RopeType::Llama3 || sc.type == RopeType::Yarn || sc.type == RopeType::LongRope) {
        std::int64_t original = sc.original_max_position_embeddings.value_or(
            m.original_max_position_embeddings.value_or(m.max_position_embeddings));
        if (ui::input_int64("original context", &original)) {
            sc.original_max_position_embeddings = original;
            changed = true;
        }
        tip("original_max_position_embeddings: the training context before scaling");
    }
    if (sc.type == RopeType::Dynamic || sc.type == RopeType::LongRope) {
        std::int64_t seq = m.seq_len.value_or(m.max_position_embeddings);
        if (ui::input_int64("sequence length", &seq)) {
            m.seq_len = seq;
            changed = true;
        }
        tip("Current length L: dynamic NTK grows the base with L; LongRoPE switches to long factors past the original context");
    }
    return changed;
}

void model_section(LabParams& p, const Lab& lab, PanelState& panel, lab::Commands& out) {
    source_rows(p, lab, panel, out);
    ModelConfig candidate = p.model;
    const bool geometry = geometry_rows(candidate);
    const bool unrotated = p_rope_row(candidate);
    const bool scaling = scaling_rows(candidate);
    if (geometry || unrotated || scaling) out.push_back(lab::cmd::SetModel{candidate});
}

}  // namespace ropelab::controls
