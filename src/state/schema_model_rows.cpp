#include <deque>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "core/model_config.h"
#include "state/schema_rows.h"

namespace ropelab::schema::rows {

namespace {

constexpr double kBig = static_cast<double>(kMaxContext);  // context lengths (core/model_config.h)

const Names kRopeTypes = {"default", "linear", "dynamic", "ntk", "yarn", "llama3", "longrope"};
const Names kLayouts = {"interleaved", "half"};
const Names kAxisRules = {"none", "sections", "interleaved", "axial", "even-odd", "mixed", "alternating"};
const Names kPositionIds = {"none", "qwen2_vl", "qwen2_5_vl", "qwen3_vl"};
const Names kColours = {"auto", "blue", "orange", "green", "vermillion", "purple", "sky", "yellow", "grey"};

// Paths and lesson names made at start-up (the compared settings' rows) live here for good.
std::string_view at(std::string text) {
    static std::deque<std::string> store;
    return store.emplace_back(std::move(text));
}

Field slotted(int slot, Field f) {
    f.slot = slot;
    return f;
}

ModelConfig& model_of(LabParams& p, int slot) {
    return slot == 0 ? p.model : p.compared[static_cast<std::size_t>(slot - 1)].model;
}

#define MODEL(expr) [slot = r.slot](LabParams& p) -> auto& { ModelConfig& m = model_of(p, slot); return expr; }

// How one slot names its model's rows: the base's are "model.…" with flags and lesson names; a
// compared setting's are "compare.K.model.…", lesson names "compareK.theta", and no flags (it
// comes from --compare SPEC). One declaration of each field's range serves all four.
struct ModelRows {
    std::vector<Field>& f;
    int slot;
    std::string prefix;

    bool base() const { return slot == 0; }
    std::string_view path(std::string_view name) const { return at(prefix + std::string(name)); }
    std::string_view flag(std::string_view name) const { return base() ? name : std::string_view{}; }
    std::string_view lesson(std::string_view name) const { return base() ? name : at(fmt::format("compare{}.{}", slot, name)); }
    template <class Member>
    void add(Field row_of, Member member) const { f.push_back(slotted(slot, row(std::move(row_of), member))); }
};

// The head and the context.
void add_head_rows(const ModelRows& r) {
    using K = Kind;
    using A = Affects;
    r.add({.path = r.path("head_dim"), .flag = r.flag("--head-dim"), .lesson = r.lesson("head_dim"), .kind = K::Int, .min = 2,
        .max = kMaxHeadDim, .affects = A::Data, .help = "Components per head d"},
        MODEL(m.head_dim));
    r.add({.path = r.path("partial_rotary_factor"), .flag = r.flag("--partial-rotary-factor"), .lesson = r.lesson("partial_rotary_factor"),
        .kind = K::Real, .min = 1e-6, .max = 1, .affects = A::Data, .help = "Fraction of the head that rotates (with --layout, reads a config whose model type is not in `ropelab families`)"},
        MODEL(m.partial_rotary_factor));
    r.add({.path = r.path("rotary_offset"), .flag = "", .lesson = "", .kind = K::Int, .min = 0, .max = kMaxHeadDim - 2,
        .affects = A::Data, .help = "First rotating component of the model's head (DeepSeek: qk_nope_head_dim)"},
        MODEL(m.rotary_offset));
    r.add({.path = r.path("rope_theta"), .flag = r.flag("--rope-theta"), .lesson = r.lesson("theta"), .kind = K::Real, .min = kMinTheta,
        .max = kMaxTheta, .affects = A::Data, .help = "RoPE base θ"},
        MODEL(m.rope_theta));
    r.add({.path = r.path("max_position_embeddings"), .flag = r.flag("--max-position-embeddings"), .lesson = r.lesson("max_position_embeddings"),
        .kind = K::Int, .min = 1, .max = kBig, .affects = A::Data, .help = "Context length"},
        MODEL(m.max_position_embeddings));
    r.add({.path = r.path("original_max_position_embeddings"), .flag = "", .lesson = "", .kind = K::Int, .min = 1,
        .max = kBig, .optional = true, .affects = A::Data, .help = "Top-level original context (Phi-3)"},
        MODEL(m.original_max_position_embeddings));
    r.add({.path = r.path("seq_len"), .flag = r.flag("--seq-len"), .lesson = r.lesson("seq_len"), .kind = K::Int, .min = 1, .max = kBig,
        .optional = true, .affects = A::Data, .help = "Current sequence length (dynamic, longrope)"},
        MODEL(m.seq_len));
    r.add({.path = r.path("layout"), .flag = r.flag("--layout"), .lesson = r.lesson("layout"), .kind = K::Enum, .names = kLayouts,
        .affects = A::Data, .help = "Pair layout (a config's model type sets it: see `ropelab families`)"},
        MODEL(m.layout));
}

// How θ_i is stretched: HF's rope_scaling block.
void add_scaling_rows(const ModelRows& r) {
    using K = Kind;
    using A = Affects;
    r.add({.path = r.path("rope_scaling.rope_type"), .flag = r.flag("--rope-type"), .lesson = r.lesson("rope_type"), .kind = K::Enum,
        .names = kRopeTypes, .affects = A::Data, .help = "How θ_i is stretched for longer contexts"},
        MODEL(m.rope_scaling.type));
    r.add({.path = r.path("rope_scaling.factor"), .flag = r.flag("--factor"), .lesson = r.lesson("factor"), .kind = K::Real, .min = kMinFactor,
        .max = kMaxFactor, .optional = true, .affects = A::Data, .help = "Context scaling factor"},
        MODEL(m.rope_scaling.factor));
    r.add({.path = r.path("rope_scaling.low_freq_factor"), .flag = r.flag("--low-freq-factor"), .lesson = r.lesson("low_freq_factor"),
        .kind = K::Real, .min = kMinFactor, .max = kMaxFactor, .optional = true, .affects = A::Data, .help = "llama3 low_freq_factor"},
        MODEL(m.rope_scaling.low_freq_factor));
    r.add({.path = r.path("rope_scaling.high_freq_factor"), .flag = r.flag("--high-freq-factor"), .lesson = r.lesson("high_freq_factor"),
        .kind = K::Real, .min = kMinFactor, .max = kMaxFactor, .optional = true, .affects = A::Data, .help = "llama3 high_freq_factor"},
        MODEL(m.rope_scaling.high_freq_factor));
    r.add({.path = r.path("rope_scaling.beta_fast"), .flag = r.flag("--beta-fast"), .lesson = r.lesson("beta_fast"), .kind = K::Real,
        .min = kMinFactor, .max = kMaxFactor, .affects = A::Data, .help = "YaRN beta_fast"},
        MODEL(m.rope_scaling.beta_fast));
    r.add({.path = r.path("rope_scaling.beta_slow"), .flag = r.flag("--beta-slow"), .lesson = r.lesson("beta_slow"), .kind = K::Real,
        .min = kMinFactor, .max = kMaxFactor, .affects = A::Data, .help = "YaRN beta_slow"},
        MODEL(m.rope_scaling.beta_slow));
    r.add({.path = r.path("rope_scaling.truncate"), .flag = r.flag("--truncate"), .lesson = r.lesson("truncate"), .kind = K::Bool,
        .affects = A::Data, .help = "YaRN: round the correction range outwards (HF's default; gpt-oss: false)"},
        MODEL(m.rope_scaling.truncate));
    r.add({.path = r.path("rope_scaling.attention_factor"), .flag = r.flag("--attention-factor"), .lesson = r.lesson("attention_factor"),
        .kind = K::Real, .min = 1e-3, .max = 1e3, .optional = true, .affects = A::Data, .help = "Scales cos and sin"},
        MODEL(m.rope_scaling.attention_factor));
    r.add({.path = r.path("rope_scaling.mscale"), .flag = r.flag("--mscale"), .lesson = r.lesson("mscale"), .kind = K::Real, .min = 1e-3,
        .max = 1e3, .optional = true, .affects = A::Data, .help = "YaRN mscale (DeepSeek)"},
        MODEL(m.rope_scaling.mscale));
    r.add({.path = r.path("rope_scaling.mscale_all_dim"), .flag = r.flag("--mscale-all-dim"), .lesson = r.lesson("mscale_all_dim"),
        .kind = K::Real, .min = 1e-3, .max = 1e3, .optional = true, .affects = A::Data,
        .help = "YaRN mscale_all_dim (DeepSeek)"},
        MODEL(m.rope_scaling.mscale_all_dim));
    r.add({.path = r.path("rope_scaling.original_max_position_embeddings"), .flag = r.flag("--original-max-position-embeddings"),
        .lesson = r.lesson("original_max_position_embeddings"), .kind = K::Int, .min = 1, .max = kBig, .optional = true,
        .affects = A::Data, .help = "Training context before scaling"},
        MODEL(m.rope_scaling.original_max_position_embeddings));
    r.add({.path = r.path("rope_scaling.long_factor"), .flag = r.flag("--long-factor"), .lesson = "", .kind = K::List, .min = 1e-3,
        .max = 1e6, .affects = A::Data, .help = "LongRoPE long factors, one per pair (comma-separated)",
        .count = kMaxHeadDim / 2},
        MODEL(m.rope_scaling.long_factor));
    r.add({.path = r.path("rope_scaling.short_factor"), .flag = r.flag("--short-factor"), .lesson = "", .kind = K::List, .min = 1e-3,
        .max = 1e6, .affects = A::Data, .help = "LongRoPE short factors, one per pair (comma-separated)",
        .count = kMaxHeadDim / 2},
        MODEL(m.rope_scaling.short_factor));
    r.add({.path = r.path("freq_factors"), .flag = r.flag("--freq-factors"), .lesson = "", .kind = K::List, .min = 1e-3,
        .max = 1e30, .affects = A::Data, .help = "Per-pair frequency divisors after scaling (a GGUF's rope_freqs; comma-separated)",
        .count = kMaxHeadDim / 2},
        MODEL(m.freq_factors));
}

// Images and video: which coordinate of (t, h, w) turns each pair, and how a layout's tokens get
// their ids (core/model_config.h says what each rule means).
void add_multi_axis_rows(const ModelRows& r) {
    using K = Kind;
    using A = Affects;
    r.add({.path = r.path("multi_axis.rule"), .flag = r.flag("--multi-axis"), .lesson = r.lesson("multi_axis"), .kind = K::Enum,
        .names = kAxisRules, .affects = A::Data,
        .help = "Which position axis turns each pair: none (1-D), sections (M-RoPE), interleaved (Qwen3-VL), axial, even-odd (Pixtral), mixed, alternating (ERNIE 4.5-VL)"},
        MODEL(m.multi_axis.rule));
    r.add({.path = r.path("multi_axis.sections"), .flag = r.flag("--mrope-section"), .lesson = r.lesson("mrope_section"), .kind = K::List, .min = 0,
        .max = kMaxHeadDim / 2, .affects = A::Data, .help = "Pairs for t, h, w (mrope_section; FLUX: axes_dims_rope / 2), comma-separated (in a compare SPEC: 24:20:20)",
        .count = 3, .exact_count = true},
        MODEL(m.multi_axis.sections));
    r.add({.path = r.path("multi_axis.mixed_angle"), .flag = r.flag("--mixed-angle"), .lesson = r.lesson("mixed_angle"), .kind = K::Real,
        .min = -360, .max = 360, .affects = A::Data, .help = "RoPE-Mixed: the head's direction φ in degrees (illustrative)"},
        MODEL(m.multi_axis.mixed_angle));
    r.add({.path = r.path("multi_axis.position_ids"), .flag = r.flag("--position-ids"), .lesson = "", .kind = K::Enum,
        .names = kPositionIds, .affects = A::Data, .help = "Whose get_rope_index gives a token layout its (t, h, w) ids (none: 1-D, raster order)"},
        MODEL(m.multi_axis.position_ids));
    r.add({.path = r.path("multi_axis.spatial_merge_size"), .flag = r.flag("--spatial-merge-size"), .lesson = "", .kind = K::Int,
        .min = 1, .max = 16, .affects = A::Data, .help = "Patches merged per side into one token (vision_config)"},
        MODEL(m.multi_axis.spatial_merge_size));
    r.add({.path = r.path("multi_axis.tokens_per_second"), .flag = r.flag("--tokens-per-second"), .lesson = "", .kind = K::Real,
        .min = 0, .max = 1000, .affects = A::Data, .help = "t ids per second of video (Qwen2.5-VL vision_config; 0: one per frame)"},
        MODEL(m.multi_axis.tokens_per_second));
}

// What the layer shown does besides its frequencies (core/model_config.h: LayerAttention), and
// p-RoPE. A config's per-layer rules set them when a layer is picked.
void add_attention_rows(const ModelRows& r) {
    using K = Kind;
    using A = Affects;
    r.add({.path = r.path("attention.rope"), .flag = r.flag("--layer-rope"), .lesson = r.lesson("layer_rope"), .kind = K::Bool,
        .affects = A::Data, .help = "The layer applies RoPE (false: NoPE, its pairs pass through unrotated)"},
        MODEL(m.attention.rope));
    r.add({.path = r.path("attention.sliding_window"), .flag = r.flag("--sliding-window"), .lesson = r.lesson("sliding_window"),
        .kind = K::Int, .min = 0, .max = kBig, .affects = A::Data, .help = "Keys within this many positions (m − n < w); 0: every earlier key"},
        MODEL(m.attention.sliding_window));
    r.add({.path = r.path("attention.attention_chunk"), .flag = r.flag("--attention-chunk"), .lesson = r.lesson("attention_chunk"),
        .kind = K::Int, .min = 0, .max = kBig, .affects = A::Data, .help = "Llama 4's chunked attention: keys in the query's block of this many tokens; 0: none"},
        MODEL(m.attention.attention_chunk));
    r.add({.path = r.path("attention.temperature_tuning"), .flag = r.flag("--attn-temperature-tuning"), .lesson = r.lesson("attn_temperature_tuning"),
        .kind = K::Bool, .affects = A::Data, .help = "Llama 4's NoPE layers: queries scaled by 1 + attn_scale·log1p(floor((p + 1) / floor_scale))"},
        MODEL(m.attention.temperature_tuning));
    r.add({.path = r.path("attention.floor_scale"), .flag = r.flag("--floor-scale"), .lesson = "", .kind = K::Real, .min = 1, .max = 1e12,
        .affects = A::Data, .help = "Llama 4 floor_scale of the query temperature"},
        MODEL(m.attention.floor_scale));
    r.add({.path = r.path("attention.attn_scale"), .flag = r.flag("--attn-scale"), .lesson = "", .kind = K::Real, .min = 0, .max = 10,
        .affects = A::Data, .help = "Llama 4 attn_scale of the query temperature"},
        MODEL(m.attention.attn_scale));
    r.add({.path = r.path("p_rope"), .flag = r.flag("--p-rope"), .lesson = r.lesson("p_rope"), .kind = K::Real, .min = 0, .max = 1,
        .affects = A::Data, .help = "p-RoPE: the fraction of pairs, lowest frequencies first, left unrotated (0: RoPE, 1: none rotate)"},
        MODEL(m.p_rope));
    r.add({.path = r.path("query_pre_attn_scalar"), .flag = r.flag("--query-pre-attn-scalar"), .lesson = "", .kind = K::Real, .min = 0,
        .max = 1e6, .affects = A::Data, .help = "Gemma 2/3: logits scaled by 1/sqrt(query_pre_attn_scalar) instead of 1/sqrt(head_dim); 0: head_dim"},
        MODEL(m.query_pre_attn_scalar));
    r.add({.path = r.path("negative_rotation"), .flag = r.flag("--negative-rotation"), .lesson = "", .kind = K::Bool, .affects = A::Data,
        .help = "nanochat: each pair turns by −θ (read as +θ of q and k with each pair's components swapped)"},
        MODEL(m.negative_rotation));
}

#undef MODEL

}  // namespace

void add_model_rows(std::vector<Field>& f, int slot) {
    const ModelRows r{f, slot, slot == 0 ? std::string("model.") : fmt::format("compare.{}.model.", slot)};
    add_head_rows(r);
    add_scaling_rows(r);
    add_multi_axis_rows(r);
    add_attention_rows(r);
}

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
    f.push_back(row({.path = "compare.single_setting", .flag = "--single-setting", .lesson = "single_setting", .kind = K::Int,
                     .min = 0, .max = kMaxCompared,
                     .help = "The setting views 2, 4 and 11 show, as they draw one (0: the base; 1-3: compared setting K)"},
                    MEMBER(p.single_setting)));
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
        add_model_rows(f, slot);
    }
}

}  // namespace ropelab::schema::rows
