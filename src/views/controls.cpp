#include "views/controls.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>
#include <imgui.h>
#include <imgui_stdlib.h>

#include "core/config_json.h"
#include "core/error.h"
#include "core/math_notes.h"
#include "core/presets.h"
#include "lab/actions.h"
#include "lab/compare.h"
#include "lab/schema.h"
#include "ui/widgets.h"
#include "views/views.h"

namespace ropelab::controls {

namespace {

using lab::ExportSpec;
using lab::ExportStatus;
using lab::Sweep;
using lab::load_config;
using lab::select_preset;
using lab::try_set_model;
using ui::tip;

constexpr ImU32 kWarningColor = IM_COL32(240, 170, 40, 255);

void warning_line(const std::string& text, const std::string& detail) {
    ui::message(text, kWarningColor);
    tip(detail.c_str());
}

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

// Preset picker and config.json loading: both replace the whole model (validated first).
void source_rows(LabParams& p, lab::Status& s) {
    // A config file shows as its name; the tooltip has the whole path.
    const std::string shown = p.preset.find('/') == std::string::npos ? p.preset : p.preset.substr(p.preset.rfind('/') + 1);
    if (ui::begin_combo("Preset", shown.c_str())) {
        for (const Preset& preset : presets()) {
            if (ui::combo_item(preset.note.title.c_str(), preset.note.name == p.preset)) {
                select_preset(p, s, preset.note.name);
            }
            tip(preset.note.source.c_str());
        }
        ui::end_combo();
    }
    tip(p.preset.find('/') == std::string::npos ? "Real model settings from assets/presets (HF config.json values)"
                                                : ("Loaded from " + p.preset).c_str());
    ui::input_text("Config file", &s.config_path);
    tip("Path to a HF config.json; you can also drop the file onto the window");
    if (ui::button("Load config")) load_config(p, s, s.config_path);
    tip("Load the config.json at this path; a bad file is refused and the current model stays");
    if (!s.layer_types.empty() && ui::begin_combo("Layer type", p.layer_type.c_str())) {
        for (const std::string& name : s.layer_types) {
            if (ui::combo_item(name.c_str(), name == p.layer_type)) load_config(p, s, s.config_path, name);
        }
        ui::end_combo();
    }
    if (!s.layer_types.empty()) tip("This model's layers use different RoPE settings: the one shown");
}

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

bool input_double(const char* label, double& v, const char* help) {
    const bool changed = ui::input_double(label, &v);
    tip(help);
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

void model_section(LabParams& p, lab::Status& s) {
    source_rows(p, s);
    ModelConfig candidate = p.model;
    const bool geometry = geometry_rows(candidate);
    const bool scaling = scaling_rows(candidate);
    if (geometry || scaling) try_set_model(p, s, candidate);
}

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

// An edit of the compared settings, refused in words when it cannot apply.
template <class Edit>
void compare_edit(LabParams& p, lab::Status& s, const std::string& what, Edit edit) {
    LabParams next = p;
    try {
        edit(next);
        schema::validate(next);
    } catch (const InputError& e) {
        s.error = what + ": " + e.what();
        return;
    }
    p = std::move(next);
    s.error.clear();
}

// One compared setting: name, colour, order, removal, and (when opened) its model's rows.
void compared_rows(LabParams& p, lab::Status& s, PanelState& panel, int slot) {
    ComparedSetting& c = p.compared[static_cast<std::size_t>(slot)];
    ImGui::PushID(slot + 1);
    ImGui::Separator();
    ui::input_text("Name", &c.name);
    tip(("From " + c.source + (c.layer_type.empty() ? "" : " (" + c.layer_type + " layers)")).c_str());
    colour_combo("Colour", c.colour);
    if (slot > 0 && ui::button("Up")) compare_edit(p, s, "move up", [&](LabParams& n) { move_compared(n, slot, -1); });
    if (slot > 0) tip("Move it up: the order of the legends and export columns");
    if (slot + 1 < p.compared_count) {
        if (slot > 0) ImGui::SameLine();
        if (ui::button("Down")) compare_edit(p, s, "move down", [&](LabParams& n) { move_compared(n, slot, +1); });
        tip("Move it down");
    }
    if (slot > 0 || slot + 1 < p.compared_count) ImGui::SameLine();
    if (ui::button(panel.compare_editing == slot ? "Done" : "Edit")) panel.compare_editing = panel.compare_editing == slot ? -1 : slot;
    tip("Its θ, head, layout and scaling");
    ImGui::SameLine();
    if (ui::button("Make base")) {
        compare_edit(p, s, "make base", [&](LabParams& n) { swap_with_base(n, slot); });
        panel.compare_editing = -1;
    }
    tip("Swap it with the base: the Model section then edits it, the base is compared");
    ImGui::SameLine();
    if (ui::button("Remove")) {
        compare_edit(p, s, "remove", [&](LabParams& n) { remove_compared(n, slot); });
        panel.compare_editing = -1;
    }
    tip("Stop drawing this setting");
    if (panel.compare_editing == slot && slot < p.compared_count) {
        ModelConfig candidate = c.model;
        const bool geometry = geometry_rows(candidate);
        const bool scaling = scaling_rows(candidate);
        if (geometry || scaling) compare_edit(p, s, setting_name(p, slot + 1), [&](LabParams& n) { n.compared[static_cast<std::size_t>(slot)].model = candidate; });
    }
    ImGui::PopID();
}

// Compare mode: the base and up to three settings on the same axes (lab/compare.h).
void compare_section(LabParams& p, lab::Status& s, PanelState& panel) {
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
    for (int slot = 0; slot < p.compared_count; ++slot) compared_rows(p, s, panel, slot);
    // Ways to add a setting, shown when full too: adding then says why it cannot.
    ImGui::Separator();
    if (ui::begin_combo("Add preset", "a preset beside the base")) {
        for (const Preset& preset : presets()) {
            if (ui::combo_item(preset.note.title.c_str(), false)) {
                compare_edit(p, s, "add " + preset.note.name, [&](LabParams& n) { add_compared(n, parse_compare_spec(preset.note.name, n)); });
            }
            tip(preset.note.source.c_str());
        }
        ui::end_combo();
    }
    tip("Draw a preset's setting beside the base");
    if (ui::button("Duplicate base")) {
        compare_edit(p, s, "duplicate base", [&](LabParams& n) { add_compared(n, duplicate_base(n)); });
        panel.compare_editing = p.compared_count - 1;  // its rows open, ready to edit
    }
    tip("A copy of the base to edit: change its θ, scaling or layout and see both");
    ImGui::SameLine();
    if (ui::button("Add config")) {
        compare_edit(p, s, "add config " + s.config_path, [&](LabParams& n) { add_compared(n, parse_compare_spec(s.config_path, n)); });
    }
    tip("The config.json named in Model → Config file (PATH@layer_type picks a layer type)");
    if (ui::begin_combo("Built in", "a ready comparison")) {
        for (const Comparison& c : comparisons()) {
            if (ui::combo_item(std::string(c.title).c_str(), false)) {
                compare_edit(p, s, std::string(c.name), [&](LabParams& n) { n = apply_comparison(n, c.name); });
                s.notice = std::string(c.title);
            }
        }
        ui::end_combo();
    }
    tip("A ready comparison: its base model, settings and distances (also --comparison NAME)");
    if (p.compared_count > 0 && ui::button("Stop comparing")) {
        compare_edit(p, s, "stop comparing", [&](LabParams& n) { n.compared_count = 0; n.compared = {}; });
        panel.compare_editing = -1;
    }
    if (p.compared_count > 0) tip("Remove every compared setting; the base stays");
}

constexpr const char* kEncodingNames[] = {"RoPE (rotation)", "Sinusoidal (addition)", "Both"};
constexpr const char* kVectorNames[] = {"All ones", "Random (seed)", "Mean of S random (k = q)", "Focused pair alone", "Custom"};
constexpr const char* kThemeNames[] = {"Dark", "Light"};
// "Whole window", then the views' own titles.
std::array<const char*, kViewCount + 1> export_view_names() {
    std::array<const char*, kViewCount + 1> names{"Whole window"};
    for (int v = 0; v < kViewCount; ++v) names[static_cast<std::size_t>(v) + 1] = view_title(static_cast<View>(v)).data();
    return names;
}
constexpr const char* kSweepNames[] = {"position", "distance", "θ (log)", "factor (log)"};

// An enum edited through a combo of names.
template <class Enum>
void enum_combo(const char* label, Enum& value, std::span<const char* const> names) {
    int index = static_cast<int>(value);
    if (ui::combo(label, &index, names)) value = static_cast<Enum>(index);
}

void curve_section(LabParams& p) {
    enum_combo("Encoding", p.encoding, kEncodingNames);
    tip("RoPE: ⟨R_m q, R_n k⟩; sinusoidal: (q + p_m)·(k + p_n), Vaswani et al.");
    enum_combo("q, k", p.vectors, kVectorNames);
    tip("The query and key contents c_i = q_i·conj(k_i), pairs read as complex numbers, that the rotation acts on");
    if (p.vectors == VectorChoice::Random || p.vectors == VectorChoice::MeanOfRandom) {
        std::int64_t seed = static_cast<std::int64_t>(p.seed);
        if (ui::input_int64("seed", &seed)) p.seed = static_cast<std::uint64_t>(std::max<std::int64_t>(-1, seed));
        tip("q = random:seed, k = random:seed+1 (standard normal)");
    }
    if (p.vectors == VectorChoice::MeanOfRandom) {
        ui::slider_int("S samples", &p.samples, 1, schema::kMaxSamples, "%d", ImGuiSliderFlags_Logarithmic);
        tip("Average of c_i over S random vectors with k = q: the expected decay curve");
    }
    if (p.vectors == VectorChoice::Custom) {
        ui::input_text("q", &p.custom_q);
        tip("head_dim numbers, comma-separated (or ones, random:SEED, …)");
        ui::input_text("k", &p.custom_k);
        tip("head_dim numbers, comma-separated");
    }
    int exponent = static_cast<int>(std::lround(std::log2(static_cast<double>(p.max_distance))));
    if (ui::slider_int("N distances", &exponent, 4, 24, "2^%d")) {
        p.max_distance = std::int64_t{1} << exponent;
    }
    tip("Score computed for Δ = 0 .. N−1 by the GPU core (or CPU fast path)");
    ui::checkbox("log Δ axis", &p.log_distance);
    tip("Logarithmic distance axis: long-range decay becomes visible");
    ImGui::SameLine();
    ui::checkbox("bound", &p.show_bound);
    tip("RoFormer: |Σ c_i e^{iΔθ_i}| ≤ max|c_{i+1} − c_i| · Σ_j |S_j(Δ)|");
    ImGui::SameLine();
    ui::checkbox("no encoding", &p.show_unencoded);
    tip("q·k with no position encoding: the same at every distance, so attention alone cannot see order");
    enum_combo("Angles", p.angle_mode, views::kAngleModeLabels);
    tip("exact: integer phase reduction; naive fp32: sin/cos(float(m)·θ); bf16: those rounded to bfloat16. "
        "A naive mode is drawn over the exact score, with q at m = N − 1 and k at m − Δ");
    ui::checkbox("difference", &p.mode_difference);
    tip("With a naive angle mode: plot naive − exact under the scores (summed term by term, so it is not lost "
        "in rounding)");
    ui::slider_int64("invariance Δ", &p.invariance_distance, 0, 4096, true);
    tip("The fixed distance of the translation-invariance view (Ctrl+click to type up to 2^31 − 1)");
}

void position_section(LabParams& p, int pairs) {
    ui::slider_int("Focused pair", &p.focused_pair, 0, std::max(0, pairs - 1));
    tip("Pair i rotates by m·θ_i; the planes, numbers and precision views follow it");
    ui::slider_int64("Position m", &p.position, 0, kMaxPosition, p.log_position_slider);
    tip("The query's position, up to 2^31 − 1; angles are exact at any m. Ctrl+click to type a value");
    ui::checkbox("log slider", &p.log_position_slider);
    ImGui::SameLine();
    if (ui::arrow_button("##back", ImGuiDir_Left, "Step back")) p.position = std::max<std::int64_t>(0, p.position - 1);
    tip("Step back one position (←)");
    ImGui::SameLine();
    if (ui::button(p.playing ? "Pause" : "Play")) p.playing = !p.playing;
    tip("Play or pause (Space)");
    ImGui::SameLine();
    if (ui::arrow_button("##forward", ImGuiDir_Right, "Step forward")) p.position = std::min(kMaxPosition, p.position + 1);
    tip("Step forward one position (→)");
    float speed = static_cast<float>(p.speed);
    if (ui::slider_float("speed", &speed, 0.25f, 4096.0f, "%.2f pos/s", ImGuiSliderFlags_Logarithmic)) p.speed = speed;
    tip("Positions per second while playing (+ and − double and halve it)");
    std::int64_t range[2] = {p.loop_from, p.loop_to};
    if (ui::slider_int64_range("loop", range, 0, kMaxPosition)) p.loop_from = range[0], p.loop_to = range[1];
    tip("Playback wraps from the end of this range back to its start (from must stay below to)");
    ui::slider_int64("key distance", &p.key_distance, 0, 4096, true);
    tip("The key sits at n = m − this in the planes view; the score plot marks it");
}

void export_section(lab::Status& s) {
    ExportSpec& e = s.export_spec;
    ExportStatus& status = s.export_status;
    // While an export runs its settings stay in view, greyed, and only the last row changes:
    // nothing jumps under the pointer when it finishes.
    ImGui::BeginDisabled(status.running);
    ui::input_text("Export file", &e.path);
    tip(".png one image, .gif/.mp4 an animation, DIR/ a PNG sequence, .csv/.json the view's data");
    int view = e.view + 1;
    static const auto view_names = export_view_names();
    if (ui::combo("View", &view, view_names)) e.view = view - 1;
    tip("What to render (data exports need one view)");
    int size[2] = {e.width, e.height};
    if (ui::input_int2("Size", size)) e.width = size[0], e.height = size[1];
    tip("Rendered at this size (1 .. 8192), not upscaled");
    ui::slider_float("Text scale", &e.ui_scale, schema::kMinUiScale, schema::kMaxUiScale, "%.1f");
    tip("Keeps text readable in large exports (3 for 4K)");
    int sweep = static_cast<int>(e.sweep);
    if (ui::combo("Animate", &sweep, kSweepNames)) e.sweep = static_cast<Sweep>(sweep);
    tip("What moves in a GIF/MP4/sequence; frame k shows t = k/fps");
    // Unset, the fields show the range the export will use (never "nan").
    const auto [from, to] = default_sweep_range(e.sweep, e.frames);
    double range[2] = {e.from.value_or(from), e.to.value_or(to)};
    if (ui::input_double2("From, to", range, "%.6g")) {
        e.from = range[0];
        e.to = range[1];
    }
    tip("The sweep's start and end (by default: position 0..frames − 1, distance 0..64, θ 1e3..1e6, factor 1..32)");
    ui::input_int("Frames", &e.frames);
    ui::input_int("FPS", &e.fps);
    ui::checkbox("Transparent PNG", &e.transparent);
    ImGui::EndDisabled();
    if (status.running) {
        const std::string label = fmt::format("{:.0f}%  ({:.0f} s left)", status.progress * 100, status.eta_seconds);
        ImGui::ProgressBar(status.progress, ImVec2(ImGui::CalcItemWidth(), 0), label.c_str());
        ImGui::SameLine();
        if (ui::button("Cancel export")) status.cancel = true;
        tip("Stop; nothing is left under the target name");
    } else {
        if (ui::button("Start export")) status.requested = true;
        tip("Renders exactly the lab on screen (its whole state travels to the renderer); writes a temporary file and renames it when complete");
    }
    if (!status.message.empty()) ui::message(status.message);
}

void session_section(lab::Status& s) {
    using Kind = lab::SessionRequest::Kind;
    ui::input_text("Session file", &s.session_path);
    tip("A versioned JSON file with the whole state: parameters, views, plot zoom, focus, playback");
    if (ui::button("Save session")) s.session_request.kind = Kind::Save;
    ImGui::SameLine();
    if (ui::button("Open session")) s.session_request.kind = Kind::Load;
    if (ui::button("Copy share string")) s.session_request.kind = Kind::CopyShareString;
    tip("The same state as one line of text (base64url) on the clipboard, to paste anywhere");
    ui::input_text("Share string", &s.share_text);
    tip("Paste a share string (or session JSON) here");
    if (ui::button("Open share string")) s.session_request.kind = Kind::OpenShareString;
}

void lesson_section(lab::Status& s, bool lesson_open) {
    using Kind = lab::SessionRequest::Kind;
    ui::input_text("Lesson file", &s.lesson_path);
    tip("A lesson file (JSON scenes), or builtin: \"RoPE from first principles\"");
    if (ui::button("Open lesson")) s.session_request.kind = Kind::OpenLesson;
    tip("Step through its scenes here, with the controls at hand; editing a control pauses the scene");
    ImGui::SameLine();
    if (ui::button("Present")) s.session_request.kind = Kind::PresentLesson;
    tip("Fullscreen, large light text; → and ← (or a clicker) step scenes, B blanks, Esc leaves");
    if (lesson_open) {
        if (ui::button("Close lesson")) s.session_request.kind = Kind::CloseLesson;
        tip("Back to the lab exactly as it was before the lesson opened (Esc)");
    }
}

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
                    kWarningColor);
    }
    enum_combo("Theme", p.theme, kThemeNames);
    tip("Light is easier to read on projectors");
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

// Why the numbers are on the CPU, and where the math degenerates for these settings: always
// visible, since a flat or noisy curve without its reason looks like a bug.
void notes_section(const LabCompute& compute) {
    const std::string& fallback = compute.fallback_reason();
    if (!fallback.empty()) {
        warning_line("Computing on the CPU: no GPU compute shaders here", fallback);
    }
    for (const MathNote& note : compute.notes()) {
        if (note.degenerate) {
            warning_line(note.summary, note.detail);
        } else {
            ui::message(note.summary, ImGui::GetColorU32(ImGuiCol_TextDisabled));
            tip(note.detail.c_str());
        }
    }
}

}  // namespace

void controls_panel(LabParams& p, lab::Status& s, PanelState& panel, const LabCompute& compute, bool lesson_open) {
    const int pairs = compute.data().freqs.pairs();
    ImGui::PushItemWidth(-ImGui::GetFontSize() * 7.5f);
    if (ui::header("Model", ImGuiTreeNodeFlags_DefaultOpen)) model_section(p, s);
    if (!s.error.empty()) {
        ui::message("Refused: " + s.error, IM_COL32(255, 90, 80, 255));
    } else if (!s.notice.empty()) {
        ui::message(s.notice, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    }
    notes_section(compute);
    if (ui::header("Curves", ImGuiTreeNodeFlags_DefaultOpen)) {
        curve_section(p);
        if (!compute.error().empty()) {
            ui::message("Refused: " + compute.error() + " (showing the previous curves)", IM_COL32(255, 90, 80, 255));
        }
    }
    // After the curves: a built-in comparison sets some of them (vectors, N, the log axis).
    if (ui::header("Compare", p.compared_count > 0 ? ImGuiTreeNodeFlags_DefaultOpen : 0)) compare_section(p, s, panel);
    if (ui::header("Position and playback", ImGuiTreeNodeFlags_DefaultOpen)) position_section(p, pairs);
    if (ui::header("Display")) view_section(p, panel);
    if (!s.what_was_read.empty() && ui::header("What was read")) {
        for (const std::string& line : s.what_was_read) {
            ui::message(line, ImGui::GetColorU32(line.starts_with("ignored") ? ImGuiCol_TextDisabled : ImGuiCol_Text));
        }
    }
    if (ui::header("Export", s.export_status.running ? ImGuiTreeNodeFlags_DefaultOpen : 0)) export_section(s);
    if (ui::header("Session")) session_section(s);
    if (ui::header("Lesson", lesson_open ? ImGuiTreeNodeFlags_DefaultOpen : 0)) lesson_section(s, lesson_open);
    if (ui::button("Reset")) {
        p = schema::reset(p);
        s.error.clear();
        s.notice = "reset to the textbook preset and default curves";
    }
    tip("Every model, curve, position and playback setting back to its default (display settings stay)");
    ImGui::PopItemWidth();
}

}  // namespace ropelab::controls
