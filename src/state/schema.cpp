#include "state/schema.h"

#include <algorithm>
#include <charconv>
#include <deque>
#include <cmath>
#include <optional>
#include <type_traits>

#include <fmt/format.h>

#include "core/error.h"
#include "core/presets.h"

namespace ropelab::schema {

namespace {

using Names = std::vector<std::string_view>;

template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};
template <class T> struct is_vector : std::false_type {};
template <class T> struct is_vector<std::vector<T>> : std::true_type {};

// A member of LabParams as a Value, and back. Enums travel as their names.
template <class T>
Value to_value(const T& x, const Names& names) {
    if constexpr (std::is_enum_v<T>) {
        return std::string(names.at(static_cast<std::size_t>(x)));
    } else if constexpr (is_optional<T>::value) {
        return x ? to_value(*x, names) : Value{};
    } else if constexpr (std::is_same_v<T, bool>) {
        return x;
    } else if constexpr (std::is_integral_v<T>) {
        return static_cast<std::int64_t>(x);
    } else if constexpr (std::is_floating_point_v<T>) {
        return static_cast<double>(x);
    } else if constexpr (std::is_same_v<T, std::string>) {
        return x;
    } else {
        static_assert(is_vector<T>::value);
        return std::vector<double>(x.begin(), x.end());
    }
}

template <class T>
void from_value(T& out, const Value& v, const Names& names) {
    if constexpr (std::is_enum_v<T>) {
        const auto it = std::find(names.begin(), names.end(), std::get<std::string>(v));
        out = static_cast<T>(it - names.begin());
    } else if constexpr (is_optional<T>::value) {
        if (std::holds_alternative<std::monostate>(v)) {
            out.reset();
        } else {
            typename T::value_type inner{};
            from_value(inner, v, names);
            out = inner;
        }
    } else if constexpr (std::is_same_v<T, bool>) {
        out = std::get<bool>(v);
    } else if constexpr (std::is_integral_v<T>) {
        out = static_cast<T>(std::get<std::int64_t>(v));
    } else if constexpr (std::is_floating_point_v<T>) {
        out = static_cast<T>(std::get<double>(v));
    } else if constexpr (std::is_same_v<T, std::string>) {
        out = std::get<std::string>(v);
    } else {
        const auto& list = std::get<std::vector<double>>(v);
        out.assign(list.size(), {});
        for (std::size_t i = 0; i < list.size(); ++i) out[i] = static_cast<typename T::value_type>(list[i]);
    }
}

// A row: the description plus the member it reads and writes.
template <class Member>
Field row(Field f, Member member) {
    const Names names = f.names;
    f.get = [member, names](const LabParams& p) { return to_value(member(const_cast<LabParams&>(p)), names); };
    f.set = [member, names](LabParams& p, const Value& v) { from_value(member(p), v, names); };
    return f;
}

#define MEMBER(expr) [](LabParams& p) -> auto& { return expr; }

constexpr double kBig = static_cast<double>(kMaxContext);  // context lengths (core/model_config.h)
constexpr double kMaxPos = static_cast<double>(kMaxPosition);

const Names kRopeTypes = {"default", "linear", "dynamic", "ntk", "yarn", "llama3", "longrope"};
const Names kLayouts = {"interleaved", "half"};
const Names kEncodings = {"rope", "sinusoidal", "both"};
const Names kVectors = {"ones", "random", "mean", "pair", "custom"};
const Names kAngleModes = {"exact", "naive-fp32", "bf16"};
const Names kThemes = {"dark", "light"};

// Paths and lesson names made at start-up (the compared settings' rows) live here for good.
std::string_view at(std::string text) {
    static std::deque<std::string> store;
    return store.emplace_back(std::move(text));
}

Field slotted(int slot, Field f) {
    f.slot = slot;
    return f;
}

#define MODEL(expr) [model](LabParams& p) -> auto& { ModelConfig& m = model(p); return expr; }

// The model's rows, once for the base ("model.…", with flags) and once per compared setting
// ("compare.K.model.…", lesson names "compareK.theta"): one declaration of each field's range.
template <class ModelOf>
void add_model_rows(std::vector<Field>& f, int slot, ModelOf model) {
    using K = Kind;
    using A = Affects;
    const bool base = slot == 0;
    const std::string prefix = base ? "model." : fmt::format("compare.{}.model.", slot);
    const auto path = [&](std::string_view name) { return at(prefix + std::string(name)); };
    const auto flag = [&](std::string_view name) { return base ? name : std::string_view{}; };  // compared: --compare SPEC
    const auto lesson = [&](std::string_view name) { return base ? name : at(fmt::format("compare{}.{}", slot, name)); };
    const auto add = [&](Field row_of, auto member) { f.push_back(slotted(slot, row(std::move(row_of), member))); };
    add({.path = path("head_dim"), .flag = flag("--head-dim"), .lesson = lesson("head_dim"), .kind = K::Int, .min = 2,
        .max = kMaxHeadDim, .affects = A::Data, .help = "Components per head d"},
        MODEL(m.head_dim));
    add({.path = path("partial_rotary_factor"), .flag = flag("--partial-rotary-factor"), .lesson = lesson("partial_rotary_factor"),
        .kind = K::Real, .min = 1e-6, .max = 1, .affects = A::Data, .help = "Fraction of the head that rotates"},
        MODEL(m.partial_rotary_factor));
    add({.path = path("rotary_offset"), .flag = "", .lesson = "", .kind = K::Int, .min = 0, .max = kMaxHeadDim - 2,
        .affects = A::Data, .help = "First rotating component of the model's head (DeepSeek: qk_nope_head_dim)"},
        MODEL(m.rotary_offset));
    add({.path = path("rope_theta"), .flag = flag("--rope-theta"), .lesson = lesson("theta"), .kind = K::Real, .min = kMinTheta,
        .max = kMaxTheta, .affects = A::Data, .help = "RoPE base θ"},
        MODEL(m.rope_theta));
    add({.path = path("max_position_embeddings"), .flag = flag("--max-position-embeddings"), .lesson = lesson("max_position_embeddings"),
        .kind = K::Int, .min = 1, .max = kBig, .affects = A::Data, .help = "Context length"},
        MODEL(m.max_position_embeddings));
    add({.path = path("original_max_position_embeddings"), .flag = "", .lesson = "", .kind = K::Int, .min = 1,
        .max = kBig, .optional = true, .affects = A::Data, .help = "Top-level original context (Phi-3)"},
        MODEL(m.original_max_position_embeddings));
    add({.path = path("seq_len"), .flag = flag("--seq-len"), .lesson = lesson("seq_len"), .kind = K::Int, .min = 1, .max = kBig,
        .optional = true, .affects = A::Data, .help = "Current sequence length (dynamic, longrope)"},
        MODEL(m.seq_len));
    add({.path = path("layout"), .flag = flag("--layout"), .lesson = lesson("layout"), .kind = K::Enum, .names = kLayouts,
        .affects = A::Data, .help = "Pair layout"},
        MODEL(m.layout));
    add({.path = path("rope_scaling.rope_type"), .flag = flag("--rope-type"), .lesson = lesson("rope_type"), .kind = K::Enum,
        .names = kRopeTypes, .affects = A::Data, .help = "How θ_i is stretched for longer contexts"},
        MODEL(m.rope_scaling.type));
    add({.path = path("rope_scaling.factor"), .flag = flag("--factor"), .lesson = lesson("factor"), .kind = K::Real, .min = kMinFactor,
        .max = kMaxFactor, .optional = true, .affects = A::Data, .help = "Context scaling factor"},
        MODEL(m.rope_scaling.factor));
    add({.path = path("rope_scaling.low_freq_factor"), .flag = flag("--low-freq-factor"), .lesson = lesson("low_freq_factor"),
        .kind = K::Real, .min = kMinFactor, .max = kMaxFactor, .optional = true, .affects = A::Data, .help = "llama3 low_freq_factor"},
        MODEL(m.rope_scaling.low_freq_factor));
    add({.path = path("rope_scaling.high_freq_factor"), .flag = flag("--high-freq-factor"), .lesson = lesson("high_freq_factor"),
        .kind = K::Real, .min = kMinFactor, .max = kMaxFactor, .optional = true, .affects = A::Data, .help = "llama3 high_freq_factor"},
        MODEL(m.rope_scaling.high_freq_factor));
    add({.path = path("rope_scaling.beta_fast"), .flag = flag("--beta-fast"), .lesson = lesson("beta_fast"), .kind = K::Real,
        .min = kMinFactor, .max = kMaxFactor, .affects = A::Data, .help = "YaRN beta_fast"},
        MODEL(m.rope_scaling.beta_fast));
    add({.path = path("rope_scaling.beta_slow"), .flag = flag("--beta-slow"), .lesson = lesson("beta_slow"), .kind = K::Real,
        .min = kMinFactor, .max = kMaxFactor, .affects = A::Data, .help = "YaRN beta_slow"},
        MODEL(m.rope_scaling.beta_slow));
    add({.path = path("rope_scaling.truncate"), .flag = flag("--truncate"), .lesson = lesson("truncate"), .kind = K::Bool,
        .affects = A::Data, .help = "YaRN: round the correction range outwards (HF's default; gpt-oss: false)"},
        MODEL(m.rope_scaling.truncate));
    add({.path = path("rope_scaling.attention_factor"), .flag = flag("--attention-factor"), .lesson = lesson("attention_factor"),
        .kind = K::Real, .min = 1e-3, .max = 1e3, .optional = true, .affects = A::Data, .help = "Scales cos and sin"},
        MODEL(m.rope_scaling.attention_factor));
    add({.path = path("rope_scaling.mscale"), .flag = flag("--mscale"), .lesson = lesson("mscale"), .kind = K::Real, .min = 1e-3,
        .max = 1e3, .optional = true, .affects = A::Data, .help = "YaRN mscale (DeepSeek)"},
        MODEL(m.rope_scaling.mscale));
    add({.path = path("rope_scaling.mscale_all_dim"), .flag = flag("--mscale-all-dim"), .lesson = lesson("mscale_all_dim"),
        .kind = K::Real, .min = 1e-3, .max = 1e3, .optional = true, .affects = A::Data,
        .help = "YaRN mscale_all_dim (DeepSeek)"},
        MODEL(m.rope_scaling.mscale_all_dim));
    add({.path = path("rope_scaling.original_max_position_embeddings"), .flag = flag("--original-max-position-embeddings"),
        .lesson = lesson("original_max_position_embeddings"), .kind = K::Int, .min = 1, .max = kBig, .optional = true,
        .affects = A::Data, .help = "Training context before scaling"},
        MODEL(m.rope_scaling.original_max_position_embeddings));
    add({.path = path("rope_scaling.long_factor"), .flag = flag("--long-factor"), .lesson = "", .kind = K::List, .min = 1e-3,
        .max = 1e6, .affects = A::Data, .help = "LongRoPE long factors, one per pair (comma-separated)",
        .count = kMaxHeadDim / 2},
        MODEL(m.rope_scaling.long_factor));
    add({.path = path("rope_scaling.short_factor"), .flag = flag("--short-factor"), .lesson = "", .kind = K::List, .min = 1e-3,
        .max = 1e6, .affects = A::Data, .help = "LongRoPE short factors, one per pair (comma-separated)",
        .count = kMaxHeadDim / 2},
        MODEL(m.rope_scaling.short_factor));

}

#undef MODEL

const Names kColours = {"auto", "blue", "orange", "green", "vermillion", "purple", "sky", "yellow", "grey"};

// Compare mode: the base's label and colour, how many settings are compared, and each one's
// label, source, colour and model. Lessons move a compared model's numbers as "compare2.theta".
void add_compare_rows(std::vector<Field>& f) {
    using K = Kind;
    f.push_back(row({.path = "compare.base_name", .flag = "--base-name", .lesson = "base_name", .kind = K::Text, .max = 64,
                     .help = "The base setting's name in compare mode (\"\" = the preset's)"},
                    MEMBER(p.base_name)));
    f.push_back(row({.path = "compare.base_colour", .flag = "--base-colour", .lesson = "base_colour", .kind = K::Enum,
                     .names = kColours, .help = "The base setting's colour (auto: the RoPE curve's)"},
                    MEMBER(p.base_colour)));
    f.push_back(row({.path = "compare.count", .flag = "", .lesson = "", .kind = K::Int, .min = 0, .max = kMaxCompared,
                     .affects = Affects::Data, .help = "Settings compared with the base (--compare SPEC adds one)"},
                    MEMBER(p.compared_count)));
    f.push_back(row({.path = "compare.heatmap_difference", .flag = "--heatmap-difference", .lesson = "heatmap_difference",
                     .kind = K::Int, .min = 0, .max = kMaxCompared,
                     .help = "The heatmap shows the base's angles minus compared setting K's (1-3; 0: the base's own)"},
                    MEMBER(p.heatmap_difference)));
    for (int slot = 1; slot <= kMaxCompared; ++slot) {
        const auto i = static_cast<std::size_t>(slot - 1);
        const auto path = [slot](std::string_view name) { return at(fmt::format("compare.{}.{}", slot, name)); };
        const auto lesson = [slot](std::string_view name) { return at(fmt::format("compare{}.{}", slot, name)); };
        f.push_back(slotted(slot, row({.path = path("name"), .flag = "", .lesson = lesson("name"), .kind = K::Text, .max = 64,
                                       .help = "A compared setting's name (\"\" = its source)"},
                                      [i](LabParams& p) -> auto& { return p.compared[i].name; })));
        f.push_back(slotted(slot, row({.path = path("source"), .flag = "", .lesson = "", .kind = K::Text, .max = 4096,
                                       .help = "Where a compared setting came from: a preset, a config path, or overrides of the base"},
                                      [i](LabParams& p) -> auto& { return p.compared[i].source; })));
        f.push_back(slotted(slot, row({.path = path("layer_type"), .flag = "", .lesson = "", .kind = K::Text, .max = 256,
                                       .help = "Which layers' RoPE a compared config shows"},
                                      [i](LabParams& p) -> auto& { return p.compared[i].layer_type; })));
        f.push_back(slotted(slot, row({.path = path("colour"), .flag = "", .lesson = lesson("colour"), .kind = K::Enum,
                                       .names = kColours, .help = "A compared setting's colour"},
                                      [i](LabParams& p) -> auto& { return p.compared[i].colour; })));
        add_model_rows(f, slot, [i](LabParams& p) -> ModelConfig& { return p.compared[i].model; });
    }
}

std::vector<Field> make_fields() {
    using K = Kind;
    using A = Affects;
    std::vector<Field> f;
    // The model: the names of HF's config.json.
    f.push_back(row({.path = "preset", .flag = "", .lesson = "preset", .kind = K::Text, .max = 4096,
                     .help = "Where the model came from: a preset name or a config.json path (a lesson's preset loads it)"},
                    MEMBER(p.preset)));
    // A label of where the model came from, like `preset`: the flag and the panel's picker reload
    // the config with it; a lesson sets the model's values instead.
    f.push_back(row({.path = "layer_type", .flag = "--layer-type", .lesson = "", .kind = K::Text, .max = 256,
                     .help = "Which layers' RoPE to show, for models whose layers differ (Gemma 3: full_attention, "
                             "sliding_attention); \"\" = full attention"},
                    MEMBER(p.layer_type)));
    add_model_rows(f, 0, [](LabParams& p) -> ModelConfig& { return p.model; });
    add_compare_rows(f);

    // What is plotted.
    f.push_back(row({.path = "curves.encoding", .flag = "--encoding", .lesson = "encoding", .kind = K::Enum, .names = kEncodings,
                     .affects = A::Data, .help = "RoPE, sinusoidal (additive) or both"},
                    MEMBER(p.encoding)));
    f.push_back(row({.path = "curves.vectors", .flag = "--vectors", .lesson = "vectors", .kind = K::Enum, .names = kVectors,
                     .affects = A::Data, .help = "q and k: ones, random, mean of S random, the focused pair, custom"},
                    MEMBER(p.vectors)));
    f.push_back(row({.path = "curves.seed", .flag = "--seed", .lesson = "seed", .kind = K::Int, .min = 0, .max = 4294967295.0,
                     .affects = A::Data, .help = "Seed of the random q and k"},
                    MEMBER(p.seed)));
    f.push_back(row({.path = "curves.samples", .flag = "--samples", .lesson = "samples", .kind = K::Int, .min = 1,
                     .max = kMaxSamples, .affects = A::Data, .help = "S random vectors averaged (vectors = mean)"},
                    MEMBER(p.samples)));
    // q and k are --q and --k in every subcommand (scores always spelled them so).
    f.push_back(row({.path = "curves.custom_q", .flag = "--q", .lesson = "custom_q", .kind = K::Text, .max = 65536,
                     .affects = A::Data,
                     .help = "Query q for vectors = custom: ones | random:SEED | v0,v1,... (head_dim numbers) | @FILE",
                     .old_flag = "--custom-q"},
                    MEMBER(p.custom_q)));
    f.push_back(row({.path = "curves.custom_k", .flag = "--k", .lesson = "custom_k", .kind = K::Text, .max = 65536,
                     .affects = A::Data,
                     .help = "Key k for vectors = custom: ones | random:SEED | v0,v1,... (head_dim numbers) | @FILE",
                     .old_flag = "--custom-k"},
                    MEMBER(p.custom_k)));
    f.push_back(row({.path = "curves.max_distance", .flag = "--max-distance", .lesson = "max_distance", .kind = K::Int,
                     .min = static_cast<double>(kMinDistances), .max = static_cast<double>(kMaxDistances), .affects = A::Data,
                     .help = "N distances of the score curve"},
                    MEMBER(p.max_distance)));
    f.push_back(row({.path = "curves.angle_mode", .flag = "--angle-mode", .lesson = "angle_mode", .kind = K::Enum,
                     .names = kAngleModes, .affects = A::Data, .help = "exact, naive-fp32 or bf16 angles"},
                    MEMBER(p.angle_mode)));
    f.push_back(row({.path = "curves.mode_difference", .flag = "--mode-difference", .lesson = "mode_difference",
                     .kind = K::Bool, .affects = A::Data,
                     .help = "Plot naive − exact below the scores (naive angle modes)"},
                    MEMBER(p.mode_difference)));
    f.push_back(row({.path = "curves.show_bound", .flag = "--show-bound", .lesson = "show_bound", .kind = K::Bool,
                     .affects = A::Data, .help = "Draw RoFormer's decay bound"},
                    MEMBER(p.show_bound)));
    f.push_back(row({.path = "curves.show_unencoded", .flag = "--show-unencoded", .lesson = "show_unencoded",
                     .kind = K::Bool, .help = "Draw q·k with no position encoding (flat in Δ)"},
                    MEMBER(p.show_unencoded)));
    f.push_back(row({.path = "curves.log_distance", .flag = "--log-distance", .lesson = "log_distance", .kind = K::Bool,
                     .help = "Logarithmic distance axis"},
                    MEMBER(p.log_distance)));
    f.push_back(row({.path = "curves.invariance_distance", .flag = "--invariance-distance", .lesson = "invariance_distance",
                     .kind = K::Int, .min = 0, .max = kMaxPos, .affects = A::Data,
                     .help = "Δ = m − n of the translation-invariance view", .old_flag = "--distance"},
                    MEMBER(p.invariance_distance)));

    // Where we are.
    f.push_back(row({.path = "focus.pair", .flag = "--pair", .lesson = "pair", .kind = K::Int, .min = 0,
                     .max = kMaxHeadDim / 2 - 1, .affects = A::Focus, .help = "Focused pair (inside the model)"},
                    MEMBER(p.focused_pair)));
    f.push_back(row({.path = "focus.position", .flag = "--position", .lesson = "position", .kind = K::Int, .min = 0,
                     .max = kMaxPos, .help = "Query position m"},
                    MEMBER(p.position)));
    f.push_back(row({.path = "focus.key_distance", .flag = "--key-distance", .lesson = "key_distance", .kind = K::Int,
                     .min = 0, .max = kMaxPos, .help = "The key sits at m − this in the planes view"},
                    MEMBER(p.key_distance)));
    f.push_back(row({.path = "focus.log_position_slider", .flag = "", .lesson = "", .kind = K::Bool,
                     .help = "Logarithmic position slider"},
                    MEMBER(p.log_position_slider)));

    // Playback.
    f.push_back(row({.path = "playback.playing", .flag = "", .lesson = "", .kind = K::Bool, .help = "Playing"},
                    MEMBER(p.playing)));
    f.push_back(row({.path = "playback.speed", .flag = "--speed", .lesson = "", .kind = K::Real, .min = 0.01, .max = 4096,
                     .help = "Positions per second"},
                    MEMBER(p.speed)));
    f.push_back(row({.path = "playback.loop_from", .flag = "--loop-from", .lesson = "", .kind = K::Int, .min = 0, .max = kMaxPos,
                     .help = "Playback loop start"},
                    MEMBER(p.loop_from)));
    f.push_back(row({.path = "playback.loop_to", .flag = "--loop-to", .lesson = "", .kind = K::Int, .min = 1, .max = kMaxPos,
                     .help = "Playback loop end"},
                    MEMBER(p.loop_to)));

    // Presentation: kept by Reset.
    f.push_back(row({.path = "layout.focused_view", .flag = "", .lesson = "", .kind = K::Int, .min = -1, .max = kViewCount - 1,
                     .reset = false, .help = "−1: all views; 0 .. 7: one view large"},
                    MEMBER(p.focused_view)));
    f.push_back(row({.path = "layout.tab_view", .flag = "", .lesson = "", .kind = K::Int, .min = 0, .max = kViewCount - 1,
                     .reset = false, .help = "The tab shown when the grid does not fit"},
                    MEMBER(p.tab_view)));
    f.push_back(row({.path = "layout.show_controls", .flag = "", .lesson = "", .kind = K::Bool, .reset = false,
                     .help = "The controls panel"},
                    MEMBER(p.show_controls)));
    f.push_back(row({.path = "layout.ui_scale", .flag = "--ui-scale", .lesson = "", .kind = K::Real, .min = kMinUiScale,
                     .max = kMaxUiScale, .reset = false, .help = "Text and widget size (3: readable at 4K)",
                     .old_flag = "--scale"},
                    MEMBER(p.ui_scale)));
    f.push_back(row({.path = "layout.theme", .flag = "--theme", .lesson = "", .kind = K::Enum, .names = kThemes,
                     .reset = false, .help = "dark or light"},
                    MEMBER(p.theme)));
    f.push_back(row({.path = "layout.stepwise_planes", .flag = "--stepwise", .lesson = "", .kind = K::Bool, .reset = false,
                     .help = "Playback moves the planes' arrows a whole position at a time instead of gliding"},
                    MEMBER(p.stepwise_planes)));
    f.push_back(row({.path = "layout.wavelength_axis", .flag = "--wavelength-axis", .lesson = "wavelength_axis", .kind = K::Bool,
                     .reset = false, .help = "Frequencies view: x = each pair's unscaled wavelength over the training context"},
                    MEMBER(p.wavelength_axis)));
    f.push_back(row({.path = "layout.spotlight", .flag = "--spotlight", .lesson = "spotlight", .kind = K::Int, .min = 0,
                     .max = kViewCount, .help = "Dim every view but this one (1-8; 0: off; S over a view)"},
                    MEMBER(p.spotlight)));
    f.push_back(row({.path = "layout.laser", .flag = "--laser", .lesson = "", .kind = K::List, .min = 0, .max = 1,
                     .reset = false, .help = "A laser dot at X,Y (fractions of the window; hold L or the right button live)",
                     .count = 2, .exact_count = true},
                    MEMBER(p.laser)));
    f.push_back(row({.path = "layout.show_help", .flag = "", .lesson = "", .kind = K::Bool, .scope = Scope::Transient,
                     .reset = false, .help = "The shortcut overlay (F1)"},
                    MEMBER(p.show_help)));
    f.push_back(row({.path = "layout.fullscreen", .flag = "", .lesson = "", .kind = K::Bool, .scope = Scope::Transient,
                     .reset = false, .help = "Fullscreen (F11)"},
                    MEMBER(p.fullscreen)));
    f.push_back(row({.path = "layout.presenting", .flag = "", .lesson = "", .kind = K::Bool, .scope = Scope::Transient,
                     .reset = false, .help = "Presenter mode"},
                    MEMBER(p.presenting)));
    f.push_back(row({.path = "layout.blank", .flag = "", .lesson = "", .kind = K::Bool, .scope = Scope::Transient,
                     .reset = false, .help = "Presenter's blank screen (B)"},
                    MEMBER(p.blank)));
    f.push_back(row({.path = "layout.scene_views", .flag = "", .lesson = "", .kind = K::List, .min = 0, .max = kViewCount - 1,
                     .scope = Scope::Transient, .reset = false, .help = "A lesson scene's views", .count = 4},
                    MEMBER(p.scene_views)));
    return f;
}

#undef MEMBER

const std::vector<Field>& table() {
    static const std::vector<Field> all = make_fields();
    return all;
}

std::string number_text(double x) { return fmt::format("{}", x); }

std::string short_text(std::string text) {
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    return text;
}

[[noreturn]] void refuse(const Field& f, const std::string& value, const std::string& why = "is out of range") {
    throw InputError(fmt::format("{} = {} {} ({})", f.path, short_text(value), why, range_text(f)));
}

bool whole(double x) { return std::isfinite(x) && x == std::floor(x); }

double parse_number(const Field& f, std::string_view text) {
    std::string s(text);
    s.erase(0, s.find_first_not_of(" \t"));
    s.erase(s.find_last_not_of(" \t") + 1);
    char* end = nullptr;
    const double x = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size()) refuse(f, std::string(text), "is not a number");
    return x;
}

}  // namespace

std::span<const Field> fields() { return table(); }

const Field* by_path(std::string_view path) {
    for (const Field& f : table()) {
        if (f.path == path) return &f;
    }
    return nullptr;
}

const Field* by_flag(std::string_view flag) {
    for (const Field& f : table()) {
        if (!f.flag.empty() && f.flag == flag) return &f;
    }
    return nullptr;
}

const Field* by_lesson_name(std::string_view name) {
    for (const Field& f : table()) {
        if (!f.lesson.empty() && f.lesson == name) return &f;
    }
    return nullptr;
}

std::string range_text(const Field& f) {
    switch (f.kind) {
        case Kind::Int:
        case Kind::Real: return fmt::format("{} .. {}", number_text(f.min), number_text(f.max));
        case Kind::Bool: return "true or false";
        case Kind::Enum: {
            std::string names;
            for (std::string_view n : f.names) names += (names.empty() ? "" : ", ") + std::string(n);
            return "one of " + names;
        }
        case Kind::Text: return fmt::format("text of at most {} characters", number_text(f.max));
        case Kind::List:
            return fmt::format("{} {} numbers, each {} .. {}", f.exact_count ? "none or" : "at most", f.count,
                               number_text(f.min), number_text(f.max));
    }
    return "";
}

std::string value_text(const Field&, const Value& v) {
    return std::visit(
        [](const auto& x) -> std::string {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, std::monostate>) return "none";
            else if constexpr (std::is_same_v<T, bool>) return x ? "true" : "false";
            else if constexpr (std::is_same_v<T, std::int64_t>) return std::to_string(x);
            else if constexpr (std::is_same_v<T, double>) return number_text(x);
            else if constexpr (std::is_same_v<T, std::string>) return x;
            else {
                std::string out;
                for (double d : x) out += (out.empty() ? "" : ",") + number_text(d);
                return out;
            }
        },
        v);
}

Value from_number(const Field& f, double x) {
    switch (f.kind) {
        case Kind::Int: {
            const double r = std::round(x);
            // Out-of-range doubles are refused before any integer conversion (which would be undefined).
            if (!(r >= f.min && r <= f.max)) refuse(f, number_text(x));
            return static_cast<std::int64_t>(r);
        }
        case Kind::Real: return x;
        default: refuse(f, number_text(x), "is not a number field");
    }
}

Value parse(const Field& f, std::string_view text) {
    if (f.optional && (text == "none" || text == "null" || text.empty())) return Value{};
    Value v;
    switch (f.kind) {
        case Kind::Int: {
            const double x = parse_number(f, text);
            if (!whole(x)) refuse(f, std::string(text), "is not a whole number");
            v = from_number(f, x);  // the range in the same words as every other door
            break;
        }
        case Kind::Real: v = parse_number(f, text); break;
        case Kind::Bool:
            if (text == "true" || text == "1") v = true;
            else if (text == "false" || text == "0") v = false;
            else refuse(f, std::string(text), "is not true or false");
            break;
        case Kind::Enum:
        case Kind::Text: v = std::string(text); break;
        case Kind::List: {
            std::vector<double> list;
            std::size_t start = 0;
            while (start <= text.size() && !text.empty()) {
                const std::size_t comma = std::min(text.find(',', start), text.size());
                list.push_back(parse_number(f, text.substr(start, comma - start)));
                if (list.size() > f.count) refuse(f, std::string(text), "has too many numbers");
                start = comma + 1;
            }
            v = std::move(list);
            break;
        }
    }
    check(f, v);
    return v;
}

void check(const Field& f, const Value& v) {
    if (std::holds_alternative<std::monostate>(v)) {
        if (!f.optional) refuse(f, "none", "is required");
        return;
    }
    const std::string text = value_text(f, v);
    switch (f.kind) {
        case Kind::Int: {
            const auto* x = std::get_if<std::int64_t>(&v);
            if (!x) refuse(f, text, "is not a whole number");
            if (!(static_cast<double>(*x) >= f.min && static_cast<double>(*x) <= f.max)) refuse(f, text);
            return;
        }
        case Kind::Real: {
            const auto* x = std::get_if<double>(&v);
            if (!x) refuse(f, text, "is not a number");
            if (!std::isfinite(*x)) refuse(f, text, "is not a finite number");
            if (!(*x >= f.min && *x <= f.max)) refuse(f, text);
            return;
        }
        case Kind::Bool:
            if (!std::holds_alternative<bool>(v)) refuse(f, text, "is not true or false");
            return;
        case Kind::Enum: {
            const auto* x = std::get_if<std::string>(&v);
            if (!x || std::find(f.names.begin(), f.names.end(), *x) == f.names.end()) refuse(f, "\"" + text + "\"", "is unknown");
            return;
        }
        case Kind::Text: {
            const auto* x = std::get_if<std::string>(&v);
            if (!x) refuse(f, text, "is not text");
            if (static_cast<double>(x->size()) > f.max) refuse(f, text, "is too long");
            return;
        }
        case Kind::List: {
            const auto* x = std::get_if<std::vector<double>>(&v);
            if (!x) refuse(f, text, "is not a list of numbers");
            if (x->size() > f.count) refuse(f, text, "has too many numbers");
            if (f.exact_count && !x->empty() && x->size() != f.count) refuse(f, text, fmt::format("needs {} numbers", f.count));
            for (double d : *x) {
                if (!std::isfinite(d) || d < f.min || d > f.max) refuse(f, text, fmt::format("holds {}, out of range", number_text(d)));
            }
            return;
        }
    }
}

void validate(const LabParams& p) {
    for (const Field& f : table()) check(f, f.get(p));
    try {
        ropelab::validate(p.model);
    } catch (const InputError& e) {
        throw InputError(fmt::format("model: {}", e.what()));
    }
    for (int i = 0; i < p.compared_count; ++i) {
        try {
            ropelab::validate(p.compared[static_cast<std::size_t>(i)].model);
        } catch (const InputError& e) {
            throw InputError(fmt::format("compare.{}.model: {}", i + 1, e.what()));
        }
    }
    for (int i = 0; i < p.compared_count; ++i) {
        const int dim = p.compared[static_cast<std::size_t>(i)].model.head_dim;
        if (p.vectors == VectorChoice::Custom && dim != p.model.head_dim) {
            throw InputError(fmt::format("curves.vectors = custom needs every compared head to match the base's "
                                         "(compare.{} has head_dim {}, the base {}): use ones, random or mean",
                                         i + 1, dim, p.model.head_dim));
        }
    }
    const int pairs = rotary_dim(p.model) / 2;
    if (p.focused_pair >= pairs) {
        throw InputError(fmt::format("focus.pair = {} is out of range (0 .. {}: the model's pairs)", p.focused_pair, pairs - 1));
    }
    if (p.loop_from >= p.loop_to) {
        throw InputError(fmt::format("playback.loop_from = {} must be below playback.loop_to = {}", p.loop_from, p.loop_to));
    }
}

void validate_model(const ModelConfig& m) {
    LabParams p;
    p.model = m;
    for (const Field& f : table()) {
        if (f.path.starts_with("model.")) check(f, f.get(p));
    }
    ropelab::validate(m);
}

void assign(LabParams& p, const Field& f, const Value& v) {
    check(f, v);
    f.set(p, v);
}

void assign_text(LabParams& p, const Field& f, std::string_view text) {
    if (f.path == "preset") {
        const Preset& preset = preset_or_throw(std::string(text));
        p.model = preset.config;
        p.focused_pair = std::min(p.focused_pair, rotary_dim(p.model) / 2 - 1);
    }
    assign(p, f, parse(f, text));
}

std::string key(const LabParams& p, Affects what) {
    std::string k;
    for (const Field& f : table()) {
        if (f.affects == what && in_use(f, p)) k += value_text(f, f.get(p)) + "|";
    }
    // With q = k = the focused pair, the curves themselves follow the focus.
    if (what == Affects::Data && p.vectors == VectorChoice::FocusedPair) k += fmt::format("pair {}", p.focused_pair);
    return k;
}

LabParams reset(const LabParams& p) {
    const LabParams fresh;
    LabParams out = p;
    for (const Field& f : table()) {
        if (f.reset) f.set(out, f.get(fresh));
    }
    return out;
}

}  // namespace ropelab::schema
