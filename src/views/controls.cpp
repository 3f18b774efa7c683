#include "views/controls.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <imgui.h>
#include <imgui_stdlib.h>

#include "core/config_json.h"
#include "core/error.h"
#include "core/math_notes.h"
#include "core/presets.h"

namespace ropelab::controls {

namespace {

void tip(const char* text) {
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

constexpr ImU32 kWarningColor = IM_COL32(240, 170, 40, 255);

void warning_line(const std::string& text, const std::string& detail) {
    ImGui::PushStyleColor(ImGuiCol_Text, kWarningColor);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
    tip(detail.c_str());
}

void remember(ControlsState& s, const char* name) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    s.widget_rects[name] = {a.x, a.y, b.x, b.y};
}

bool slider_double(const char* label, double& v, double lo, double hi, const char* format, bool log) {
    return ImGui::SliderScalar(label, ImGuiDataType_Double, &v, &lo, &hi, format,
                               log ? ImGuiSliderFlags_Logarithmic : 0);
}

bool slider_int64(const char* label, std::int64_t& v, std::int64_t lo, std::int64_t hi, bool log) {
    return ImGui::SliderScalar(label, ImGuiDataType_S64, &v, &lo, &hi, "%lld",
                               log ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None);
}

// An optional number edited through a checkbox ("given") and a value.
void optional_double(const char* label, std::optional<double>& value, double fallback, bool& changed) {
    bool given = value.has_value();
    ImGui::PushID(label);
    if (ImGui::Checkbox("##given", &given)) {
        value = given ? std::optional<double>(fallback) : std::nullopt;
        changed = true;
    }
    ImGui::SameLine();
    double v = value.value_or(fallback);
    ImGui::BeginDisabled(!given);
    if (ImGui::InputDouble(label, &v, 0, 0, "%.6g", ImGuiInputTextFlags_EnterReturnsTrue) && given) {
        value = v;
        changed = true;
    }
    ImGui::EndDisabled();
    ImGui::PopID();
}

// Preset picker and config.json loading: both replace the whole model (validated first).
void source_rows(LabParams& p, ControlsState& s) {
    if (ImGui::BeginCombo("Preset", p.preset.c_str())) {
        for (const Preset& preset : presets()) {
            if (ImGui::Selectable(preset.note.title.c_str(), preset.note.name == p.preset)) {
                select_preset(p, s, preset.note.name);
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", preset.note.source.c_str());
        }
        ImGui::EndCombo();
    }
    tip("Real model settings from assets/presets (HF config.json values)");
    ImGui::InputText("##config", &s.config_path);
    tip("Path to a HF config.json; you can also drop the file onto the window");
    ImGui::SameLine();
    if (ImGui::Button("Load")) load_config(p, s, s.config_path);
    tip("Load the config.json at this path; a bad file is refused and the current model stays");
}

// Head dim, base, partial rotary and layout. Returns true when the candidate changed.
bool geometry_rows(ModelConfig& m, ControlsState& s) {
    bool changed = false;
    int head_dim = m.head_dim;
    if (ImGui::InputInt("Head dim d", &head_dim, 2, 16, ImGuiInputTextFlags_EnterReturnsTrue)) {
        m.head_dim = head_dim;
        changed = true;
    }
    tip("d: components per head; rotary dim = d × partial_rotary_factor must be even");
    if (slider_double("θ (base)", m.rope_theta, 1.0001, 1e9, "%.6g", true)) changed = true;
    remember(s, "theta");
    tip("θ_i = base^(−2i/d): a larger base slows every pair (longer wavelengths)");
    float prf = static_cast<float>(m.partial_rotary_factor);
    if (ImGui::SliderFloat("Partial rotary", &prf, 0.05f, 1.0f, "%.3f")) {
        m.partial_rotary_factor = prf;
        changed = true;
    }
    tip("Fraction of the head that rotates; the rest passes through unrotated (GPT-J 0.25)");
    int layout = static_cast<int>(m.layout);
    if (ImGui::RadioButton("interleaved", &layout, 0)) changed = true;
    remember(s, "interleaved");
    tip("pairs (2i, 2i+1): Meta Llama, GPT-J, RoFormer");
    ImGui::SameLine();
    if (ImGui::RadioButton("half", &layout, 1)) changed = true;
    remember(s, "half");
    tip("pairs (i, i + d/2): GPT-NeoX, HF rotate_half");
    m.layout = static_cast<PairLayout>(layout);
    return changed;
}

bool input_double(const char* label, double& v, const char* help) {
    const bool changed = ImGui::InputDouble(label, &v, 0, 0, "%.6g", ImGuiInputTextFlags_EnterReturnsTrue);
    tip(help);
    return changed;
}

// The rope_scaling type and the parameters that type reads.
bool scaling_rows(ModelConfig& m) {
    bool changed = false;
    RopeScaling& sc = m.rope_scaling;
    if (ImGui::BeginCombo("Scaling", std::string(to_string(sc.type)).c_str())) {
        for (RopeType t : {RopeType::Default, RopeType::Linear, RopeType::Dynamic, RopeType::Ntk, RopeType::Yarn,
                           RopeType::Llama3, RopeType::LongRope}) {
            if (ImGui::Selectable(std::string(to_string(t)).c_str(), t == sc.type)) {
                sc.type = t;
                changed = true;
            }
        }
        ImGui::EndCombo();
    }
    tip("How θ_i is stretched for longer contexts (HF rope_scaling.rope_type)");
    if (sc.type != RopeType::Default && sc.type != RopeType::LongRope) {
        double factor = sc.factor.value_or(1.0);
        if (slider_double("factor", factor, 0.1, 1000.0, "%.4g", true)) {
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
        if (ImGui::InputScalar("original context", ImGuiDataType_S64, &original, nullptr, nullptr, "%lld",
                               ImGuiInputTextFlags_EnterReturnsTrue)) {
            sc.original_max_position_embeddings = original;
            changed = true;
        }
        tip("original_max_position_embeddings: the training context before scaling");
    }
    if (sc.type == RopeType::Dynamic || sc.type == RopeType::LongRope) {
        std::int64_t seq = m.seq_len.value_or(m.max_position_embeddings);
        if (ImGui::InputScalar("sequence length", ImGuiDataType_S64, &seq, nullptr, nullptr, "%lld",
                               ImGuiInputTextFlags_EnterReturnsTrue)) {
            m.seq_len = seq;
            changed = true;
        }
        tip("Current length L: dynamic NTK grows the base with L; LongRoPE switches to long factors past the original context");
    }
    return changed;
}

void model_section(LabParams& p, ControlsState& s) {
    source_rows(p, s);
    ModelConfig candidate = p.model;
    const bool geometry = geometry_rows(candidate, s);
    const bool scaling = scaling_rows(candidate);
    if (geometry || scaling) try_set_model(p, s, candidate);
}

void curve_section(LabParams& p) {
    int encoding = static_cast<int>(p.encoding);
    if (ImGui::Combo("Encoding", &encoding, "RoPE (rotation)\0Sinusoidal (addition)\0Both\0")) {
        p.encoding = static_cast<Encoding>(encoding);
    }
    tip("RoPE: ⟨R_m q, R_n k⟩; sinusoidal: (q + p_m)·(k + p_n), Vaswani et al.");
    int vectors = static_cast<int>(p.vectors);
    if (ImGui::Combo("q, k", &vectors, "All ones\0Random (seed)\0Mean of S random (k = q)\0Focused pair alone\0Custom\0")) {
        p.vectors = static_cast<VectorChoice>(vectors);
    }
    tip("The query and key contents c_i = q̃_i·conj(k̃_i) that the rotation acts on");
    if (p.vectors == VectorChoice::Random || p.vectors == VectorChoice::MeanOfRandom) {
        int seed = static_cast<int>(p.seed);
        if (ImGui::InputInt("seed", &seed) && seed >= 0) p.seed = static_cast<std::uint64_t>(seed);
        tip("q = random:seed, k = random:seed+1 (standard normal)");
    }
    if (p.vectors == VectorChoice::MeanOfRandom) {
        ImGui::SliderInt("S samples", &p.samples, 1, 1024, "%d", ImGuiSliderFlags_Logarithmic);
        tip("Average of c_i over S random vectors with k = q: the expected decay curve");
    }
    int exponent = static_cast<int>(std::lround(std::log2(static_cast<double>(p.max_distance))));
    if (ImGui::SliderInt("N distances", &exponent, 4, 24, "2^%d")) {
        p.max_distance = std::int64_t{1} << exponent;
        p.loop_to = std::min(p.loop_to, p.max_distance);
    }
    tip("Score computed for Δ = 0 .. N−1 by the GPU core (or CPU fast path)");
    ImGui::Checkbox("log Δ axis", &p.log_distance);
    tip("Logarithmic distance axis: long-range decay becomes visible");
    ImGui::SameLine();
    ImGui::Checkbox("bound", &p.show_bound);
    tip("RoFormer: |Σ c_i e^{iΔθ_i}| ≤ max|c_{i+1} − c_i| · Σ_j |S_j(Δ)|");
    int mode = static_cast<int>(p.angle_mode);
    if (ImGui::Combo("Angles", &mode, "exact\0naive fp32\0bf16 cos/sin\0")) p.angle_mode = static_cast<AngleMode>(mode);
    tip("exact: integer phase reduction; naive fp32: sin/cos(float(m)·θ); bf16: those rounded to bfloat16");
    int delta = static_cast<int>(p.invariance_distance);
    if (ImGui::SliderInt("invariance Δ", &delta, 0, 256)) p.invariance_distance = delta;
    tip("The fixed distance of the translation-invariance view");
}

void position_section(LabParams& p, int pairs) {
    ImGui::SliderInt("Focused pair", &p.focused_pair, 0, std::max(0, pairs - 1));
    tip("Pair i rotates by m·θ_i; the planes, numbers and precision views follow it");
    slider_int64("Position m", p.position, 0, kMaxPosition, p.log_position_slider);
    tip("The query's position, up to 2^31 − 1; angles are exact at any m. Ctrl+click to type a value");
    ImGui::Checkbox("log slider", &p.log_position_slider);
    ImGui::SameLine();
    if (ImGui::ArrowButton("##back", ImGuiDir_Left)) p.position = std::max<std::int64_t>(0, p.position - 1);
    tip("Step back one position (←)");
    ImGui::SameLine();
    if (ImGui::Button(p.playing ? "Pause" : "Play")) p.playing = !p.playing;
    tip("Play or pause (Space)");
    ImGui::SameLine();
    if (ImGui::ArrowButton("##forward", ImGuiDir_Right)) p.position = std::min(kMaxPosition, p.position + 1);
    tip("Step forward one position (→)");
    float speed = static_cast<float>(p.speed);
    if (ImGui::SliderFloat("speed", &speed, 0.25f, 4096.0f, "%.2f pos/s", ImGuiSliderFlags_Logarithmic)) p.speed = speed;
    tip("Positions per second while playing (+ and − double and halve it)");
    std::int64_t range[2] = {p.loop_from, p.loop_to};
    const std::int64_t lo = 0, hi = kMaxPosition;
    if (ImGui::SliderScalarN("loop", ImGuiDataType_S64, range, 2, &lo, &hi, "%lld", ImGuiSliderFlags_Logarithmic)) {
        if (range[0] < range[1]) p.loop_from = range[0], p.loop_to = range[1];
    }
    tip("Playback wraps from the end of this range back to its start");
    int kd = static_cast<int>(p.key_distance);
    if (ImGui::SliderInt("key distance", &kd, 0, 512)) p.key_distance = kd;
    tip("The key sits at n = m − this in the planes view; the score plot marks it");
}

void export_section(ControlsState& s) {
    ExportSpec& e = s.export_spec;
    ExportStatus& status = s.export_status;
    if (status.running) {
        const std::string label = fmt::format("{:.0f}%  ({:.0f} s left)", status.progress * 100, status.eta_seconds);
        ImGui::ProgressBar(status.progress, ImVec2(-ImGui::GetFontSize() * 5.0f, 0), label.c_str());
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) status.cancel = true;
        tip("Stop; nothing is left under the target name");
        return;
    }
    ImGui::InputText("File", &e.path);
    tip(".png one image, .gif/.mp4 an animation, DIR/ a PNG sequence, .csv/.json the view's data");
    const char* views = "Whole window\0" "1 Rotation planes\0" "2 Addition vs rotation\0" "3 Score vs distance\0"
                        "4 Translation invariance\0" "5 Angle heatmap\0" "6 Frequencies and scaling\0" "7 Numbers\0"
                        "8 Precision\0";
    int view = e.view + 1;
    if (ImGui::Combo("View", &view, views)) e.view = view - 1;
    tip("What to render (data exports need one view)");
    int size[2] = {e.width, e.height};
    if (ImGui::InputInt2("Size", size)) e.width = size[0], e.height = size[1];
    tip("Rendered at this size (1 .. 8192), not upscaled");
    ImGui::SliderFloat("Text scale", &e.ui_scale, 1.0f, 6.0f, "%.1f");
    tip("Keeps text readable in large exports (3 for 4K)");
    int sweep = static_cast<int>(e.sweep);
    if (ImGui::Combo("Animate", &sweep, "position\0distance\0θ (log)\0factor (log)\0")) e.sweep = static_cast<Sweep>(sweep);
    tip("What moves in a GIF/MP4/sequence; frame k shows t = k/fps");
    double range[2] = {e.from.value_or(std::nan("")), e.to.value_or(std::nan(""))};
    if (ImGui::InputScalarN("From, to", ImGuiDataType_Double, range, 2, nullptr, nullptr, "%.6g")) {
        e.from = std::isnan(range[0]) ? std::nullopt : std::optional<double>(range[0]);
        e.to = std::isnan(range[1]) ? std::nullopt : std::optional<double>(range[1]);
    }
    tip("The sweep's start and end (empty: position 0..frames, distance 0..64, θ 1e3..1e6, factor 1..32)");
    ImGui::InputInt("Frames", &e.frames);
    ImGui::InputInt("FPS", &e.fps);
    ImGui::Checkbox("Transparent PNG", &e.transparent);
    if (ImGui::Button("Export")) status.requested = true;
    tip("Writes to a temporary file and renames it when complete");
    if (!status.message.empty()) ImGui::TextWrapped("%s", status.message.c_str());
}

void session_section(ControlsState& s) {
    using Kind = SessionRequest::Kind;
    ImGui::InputText("Session file", &s.session_path);
    tip("A versioned JSON file with the whole state: parameters, views, plot zoom, focus, playback");
    if (ImGui::Button("Save")) s.session_request.kind = Kind::Save;
    ImGui::SameLine();
    if (ImGui::Button("Open")) s.session_request.kind = Kind::Load;
    ImGui::SameLine();
    if (ImGui::Button("Copy share string")) s.session_request.kind = Kind::CopyShareString;
    tip("The same state as one line of text (base64url) on the clipboard, to paste anywhere");
    ImGui::InputText("##share", &s.share_text);
    tip("Paste a share string (or session JSON) here");
    ImGui::SameLine();
    if (ImGui::Button("Open string")) s.session_request.kind = Kind::OpenShareString;
}

void lesson_section(ControlsState& s) {
    using Kind = SessionRequest::Kind;
    ImGui::InputText("Lesson", &s.lesson_path);
    tip("A lesson file (JSON scenes), or builtin: \"RoPE from first principles\"");
    if (ImGui::Button("Open lesson")) s.session_request.kind = Kind::OpenLesson;
    tip("Step through its scenes here, with the controls at hand");
    ImGui::SameLine();
    if (ImGui::Button("Present")) s.session_request.kind = Kind::PresentLesson;
    tip("Fullscreen, large light text; → and ← (or a clicker) step scenes, B blanks, Esc leaves");
}

void view_section(LabParams& p) {
    ImGui::SliderFloat("UI scale", &p.ui_scale, 1.0f, 3.0f, "%.2f");
    tip("Text and widget size: 2.0 or more for projectors");
    int theme = static_cast<int>(p.theme);
    if (ImGui::Combo("Theme", &theme, "Dark\0Light\0")) p.theme = static_cast<Theme>(theme);
    tip("Light is easier to read on projectors");
    ImGui::Checkbox("Fullscreen (F11)", &p.fullscreen);
    tip("Fill the screen; Tab hides this panel for more room");
    ImGui::SameLine();
    ImGui::Checkbox("Keys (F1)", &p.show_help);
}

}  // namespace

bool try_set_model(LabParams& p, ControlsState& s, const ModelConfig& candidate) {
    try {
        validate(candidate);
    } catch (const InputError& e) {
        s.error = e.what();
        return false;
    }
    p.model = candidate;
    p.focused_pair = std::min(p.focused_pair, rotary_dim(candidate) / 2 - 1);
    s.error.clear();
    return true;
}

bool apply_sweep(LabParams& p, ControlsState& s, Sweep sweep, double value) {
    ModelConfig m = p.model;
    switch (sweep) {
        case Sweep::Position:
            p.position = std::clamp<std::int64_t>(std::llround(value), 0, kMaxPosition);
            return true;
        case Sweep::Distance:
            p.key_distance = std::max<std::int64_t>(0, std::llround(value));
            return true;
        case Sweep::Theta:
            m.rope_theta = value;
            return try_set_model(p, s, m);
        case Sweep::Factor:
            if (m.rope_scaling.type == RopeType::Default) m.rope_scaling.type = RopeType::Linear;
            m.rope_scaling.factor = value;
            return try_set_model(p, s, m);
    }
    return false;
}

void set_presenting(LabParams& p, bool on) {
    p.presenting = on;
    p.show_controls = !on;
    p.blank = false;
    if (on) {  // for a projector: large text, the light theme, the whole screen
        p.ui_scale = std::max(p.ui_scale, 2.0f);
        p.theme = Theme::Light;
        p.fullscreen = true;
    } else {
        p.fullscreen = false;
    }
}

void toggle_blank(LabParams& p) { p.blank = !p.blank; }

void apply_lesson_state(LabParams& p, const LabParams& state) {
    LabParams next = state;
    next.ui_scale = p.ui_scale;
    next.theme = p.theme;
    next.fullscreen = p.fullscreen;
    next.presenting = p.presenting;
    next.blank = p.blank;
    next.show_help = p.show_help;
    next.show_controls = p.show_controls;
    next.playing = false;  // the lesson's clock drives positions, not playback
    p = std::move(next);
}

void apply_session(LabParams& p, ControlsState& s, const LabParams& loaded, const std::string& source) {
    p = loaded;
    s.error.clear();
    s.notice = "opened " + source;
}

bool select_preset(LabParams& p, ControlsState& s, const std::string& name) {
    const Preset* preset = find_preset(name);
    if (!preset) {
        s.error = fmt::format("unknown preset \"{}\"", name);
        return false;
    }
    if (!try_set_model(p, s, preset->config)) return false;
    p.preset = name;
    s.notice = preset->note.title;
    return true;
}

bool load_config(LabParams& p, ControlsState& s, const std::string& path) {
    try {
        const LoadedConfig loaded = load_config_json(path);
        if (!try_set_model(p, s, loaded.config)) return false;
        p.preset = loaded.note.name.empty() ? path : loaded.note.name;
        s.config_path = path;
        s.notice = "loaded " + path;
        return true;
    } catch (const InputError& e) {
        s.error = e.what();  // names the file, the field and the value
        return false;
    }
}

namespace {

// Why the numbers are on the CPU, and where the math degenerates for these settings: always
// visible, since a flat or noisy curve without its reason looks like a bug.
void notes_section(const LabCompute& compute) {
    const std::string& fallback = compute.device().fallback_reason();
    if (!fallback.empty()) {
        warning_line("Computing on the CPU: no GPU compute shaders here", fallback);
    }
    for (const MathNote& note : compute.notes()) {
        if (note.degenerate) {
            warning_line(note.summary, note.detail);
        } else {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            ImGui::TextWrapped("%s", note.summary.c_str());
            ImGui::PopStyleColor();
            tip(note.detail.c_str());
        }
    }
}

}  // namespace

void controls_panel(LabParams& p, ControlsState& s, const LabCompute& compute) {
    const int pairs = compute.data().freqs.pairs();
    ImGui::PushItemWidth(-ImGui::GetFontSize() * 7.5f);
    if (ImGui::CollapsingHeader("Model", ImGuiTreeNodeFlags_DefaultOpen)) model_section(p, s);
    if (!s.error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 90, 80, 255));
        ImGui::TextWrapped("Refused: %s", s.error.c_str());
        ImGui::PopStyleColor();
    } else if (!s.notice.empty()) {
        ImGui::TextDisabled("%s", s.notice.c_str());
    }
    notes_section(compute);
    if (ImGui::CollapsingHeader("Curves", ImGuiTreeNodeFlags_DefaultOpen)) {
        curve_section(p);
        if (p.vectors == VectorChoice::Custom) {
            ImGui::InputText("q", &p.custom_q);
            tip("head_dim numbers, comma-separated");
            ImGui::InputText("k", &p.custom_k);
            tip("head_dim numbers, comma-separated");
        }
        if (!compute.error().empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 90, 80, 255));
            ImGui::TextWrapped("Refused: %s (showing the previous curves)", compute.error().c_str());
            ImGui::PopStyleColor();
        }
    }
    if (ImGui::CollapsingHeader("Position and playback", ImGuiTreeNodeFlags_DefaultOpen)) position_section(p, pairs);
    if (ImGui::CollapsingHeader("Display")) view_section(p);
    if (ImGui::CollapsingHeader("Export", s.export_status.running ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
        export_section(s);
    }
    if (ImGui::CollapsingHeader("Session")) session_section(s);
    if (ImGui::CollapsingHeader("Lesson")) lesson_section(s);
    if (ImGui::Button("Reset")) {
        const LabParams fresh;
        p.preset = fresh.preset;
        p.model = fresh.model;
        p.encoding = fresh.encoding;
        p.vectors = fresh.vectors;
        p.max_distance = fresh.max_distance;
        p.angle_mode = fresh.angle_mode;
        p.position = fresh.position;
        p.focused_pair = fresh.focused_pair;
        s.error.clear();
    }
    tip("Back to the textbook preset and default curves (display settings stay)");
    ImGui::PopItemWidth();
}

void handle_shortcuts(LabParams& p, int pairs) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantTextInput) return;  // typing into a field is not a shortcut
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space), false)) p.playing = !p.playing;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) p.position = std::min(kMaxPosition, p.position + 1);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) p.position = std::max<std::int64_t>(0, p.position - 1);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false)) p.focused_view = -1;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Tab), false)) p.show_controls = !p.show_controls;
    for (ImWchar c : io.InputQueueCharacters) {
        if (c == '+' || c == '=') p.speed = std::min(4096.0, p.speed * 2);
        if (c == '-') p.speed = std::max(0.25, p.speed / 2);
        if (c >= '1' && c <= '8') {
            const int view = c - '1';
            p.focused_view = p.focused_view == view ? -1 : view;
        }
    }
    p.focused_pair = std::clamp(p.focused_pair, 0, std::max(0, pairs - 1));
}

void apply_commands(LabParams& p, ControlsState& s, const Commands& c) {
    if (c.toggle_help) p.show_help = !p.show_help;
    if (c.toggle_fullscreen) p.fullscreen = !p.fullscreen;
    if (!c.dropped_file.empty()) load_config(p, s, c.dropped_file);
    if (!c.notice.empty()) s.notice = c.notice;
}

void apply_requests(LabParams& p, const views::Requests& r) {
    if (r.focus_pair) p.focused_pair = *r.focus_pair;
    if (r.position) p.position = std::clamp<std::int64_t>(*r.position, 0, kMaxPosition);
    if (r.focus_view) p.focused_view = *r.focus_view;
    if (r.tab_view) p.tab_view = *r.tab_view;
}

void advance_playback(LabParams& p, ControlsState& s, double seconds) {
    if (!p.playing) return;
    s.playback_carry += p.speed * seconds;
    const auto steps = static_cast<std::int64_t>(s.playback_carry);
    s.playback_carry -= static_cast<double>(steps);
    if (steps == 0) return;
    const std::int64_t span = std::max<std::int64_t>(1, p.loop_to - p.loop_from);
    std::int64_t next = p.position + steps;
    if (next >= p.loop_to || next < p.loop_from) next = p.loop_from + ((next - p.loop_from) % span + span) % span;
    p.position = next;
}

}  // namespace ropelab::controls
