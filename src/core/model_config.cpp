#include "core/model_config.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "core/error.h"

namespace ropelab {

int rotary_dim(const ModelConfig& config) {
    const double exact = config.head_dim * config.partial_rotary_factor;
    return static_cast<int>(std::floor(exact + 1e-9));
}

namespace {

void require(bool ok, std::string_view field, double value, std::string_view rule) {
    if (!ok) throw InputError(fmt::format("{} {} (got {})", field, rule, value));
}

void require_positive(std::string_view field, double value) {
    require(std::isfinite(value) && value > 0.0, field, value, "must be a finite number > 0");
}

void require_present(bool present, std::string_view field, RopeType type) {
    if (!present) {
        throw InputError(
            fmt::format("{} is required for rope_type \"{}\"", field, to_string(type)));
    }
}

void validate_scaling(const ModelConfig& config) {
    const RopeScaling& s = config.rope_scaling;
    const bool needs_factor = s.type == RopeType::Linear || s.type == RopeType::Dynamic ||
                              s.type == RopeType::Ntk || s.type == RopeType::Yarn ||
                              s.type == RopeType::Llama3;
    if (needs_factor) require_present(s.factor.has_value(), "rope_scaling.factor", s.type);
    if (s.factor) require_positive("rope_scaling.factor", *s.factor);
    if (s.attention_factor) require_positive("rope_scaling.attention_factor", *s.attention_factor);
    if (s.original_max_position_embeddings) {
        require(*s.original_max_position_embeddings >= 1,
                "rope_scaling.original_max_position_embeddings",
                static_cast<double>(*s.original_max_position_embeddings), "must be >= 1");
    }

    if (s.type == RopeType::Yarn) {
        require_positive("rope_scaling.beta_fast", s.beta_fast);
        require_positive("rope_scaling.beta_slow", s.beta_slow);
        if (s.mscale) require_positive("rope_scaling.mscale", *s.mscale);
        if (s.mscale_all_dim) require_positive("rope_scaling.mscale_all_dim", *s.mscale_all_dim);
    }
    if (s.type == RopeType::Llama3) {
        require_present(s.low_freq_factor.has_value(), "rope_scaling.low_freq_factor", s.type);
        require_present(s.high_freq_factor.has_value(), "rope_scaling.high_freq_factor", s.type);
        require_present(s.original_max_position_embeddings.has_value() ||
                            config.original_max_position_embeddings.has_value(),
                        "rope_scaling.original_max_position_embeddings", s.type);
        require_positive("rope_scaling.low_freq_factor", *s.low_freq_factor);
        // Equal factors leave no smooth band; HF warns and computes (Llama 4 Scout ships 1 and 1).
        require(*s.high_freq_factor >= *s.low_freq_factor, "rope_scaling.high_freq_factor",
                *s.high_freq_factor, "must be at least low_freq_factor");
    }
    if (s.type == RopeType::LongRope) {
        const auto pairs = static_cast<std::size_t>(rotary_dim(config) / 2);
        require_present(!s.long_factor.empty(), "rope_scaling.long_factor", s.type);
        require_present(!s.short_factor.empty(), "rope_scaling.short_factor", s.type);
        require_present(s.original_max_position_embeddings.has_value() ||
                            config.original_max_position_embeddings.has_value(),
                        "original_max_position_embeddings", s.type);
        for (const auto* list : {&s.long_factor, &s.short_factor}) {
            const char* name =
                list == &s.long_factor ? "rope_scaling.long_factor" : "rope_scaling.short_factor";
            if (list->size() != pairs) {
                throw InputError(fmt::format("{} has {} entries; rotary dim {} needs {} (one per pair)",
                                             name, list->size(), rotary_dim(config), pairs));
            }
            for (double v : *list) require_positive(name, v);
        }
    }
    if (!config.freq_factors.empty()) {
        const auto pairs = static_cast<std::size_t>(rotary_dim(config) / 2);
        if (config.freq_factors.size() != pairs) {
            throw InputError(fmt::format("freq_factors has {} entries; rotary dim {} needs {} (one per pair)",
                                         config.freq_factors.size(), rotary_dim(config), pairs));
        }
        for (double v : config.freq_factors) require_positive("freq_factors", v);
    }
}

// Each rule's own structure: sections that add up to the pairs, rules that bring their own
// frequency ladders only with unscaled RoPE.
void validate_multi_axis(const ModelConfig& config) {
    const MultiAxis& a = config.multi_axis;
    if (a.rule == AxisRule::None) return;
    const int pairs = rotary_dim(config) / 2;
    const bool has_sections = a.rule == AxisRule::Sections || a.rule == AxisRule::Interleaved || a.rule == AxisRule::Axial ||
                              a.rule == AxisRule::Alternating;
    if (has_sections) {
        if (a.sections.size() != 3) {
            throw InputError(fmt::format("multi_axis.sections has {} entries; {} needs 3 (pairs for t, h, w)", a.sections.size(),
                                         to_string(a.rule)));
        }
        double sum = 0;
        for (double s : a.sections) {
            require(std::isfinite(s) && s >= 0 && s == std::floor(s), "multi_axis.sections", s, "must be whole numbers >= 0");
            sum += s;
        }
        if (sum != pairs) {
            throw InputError(fmt::format("multi_axis.sections {}, {}, {} add up to {} pairs; rotary dim {} has {}", a.sections[0],
                                         a.sections[1], a.sections[2], sum, rotary_dim(config), pairs));
        }
        if (a.rule == AxisRule::Interleaved) {
            // apply_interleaved_mrope: h takes pairs 1, 4, …, 3·s_h − 2 and w 2, 5, …, 3·s_w − 1;
            // each must lie inside the pairs (Qwen3.5's 11, 11, 10 of 32 does: h ends at 31).
            const bool h_fits = 3 * a.sections[1] - 2 < pairs || a.sections[1] == 0;
            const bool w_fits = 3 * a.sections[2] - 1 < pairs || a.sections[2] == 0;
            require(h_fits && w_fits, "multi_axis.sections", h_fits ? a.sections[2] : a.sections[1],
                    "(h or w) must fit in the pairs when interleaved: h takes pairs 1, 4, …, 3·s_h − 2 and w 2, 5, …, 3·s_w − 1, "
                    "about a third of the pairs each");
        }
    }
    if (a.rule == AxisRule::Alternating) {
        // recomposition_to_3d stacks the h and w frequencies pair by pair: equal counts.
        require(a.sections[1] == a.sections[2], "multi_axis.sections", a.sections[2],
                "(w) must equal h's pairs when alternating: h and w take turns over the fastest pairs");
    }
    if ((a.rule == AxisRule::EvenOdd || a.rule == AxisRule::Mixed) && pairs % 2 != 0) {
        throw InputError(fmt::format("multi_axis.rule {} needs an even number of pairs (rotary dim {} has {})", to_string(a.rule),
                                     rotary_dim(config), pairs));
    }
    const bool own_ladders = a.rule == AxisRule::Axial || a.rule == AxisRule::EvenOdd || a.rule == AxisRule::Mixed;
    if (own_ladders && config.rope_scaling.type != RopeType::Default) {
        throw InputError(fmt::format("multi_axis.rule {} takes unscaled frequencies (got rope_type \"{}\")", to_string(a.rule),
                                     to_string(config.rope_scaling.type)));
    }
    require(std::isfinite(a.mixed_angle) && std::abs(a.mixed_angle) <= 360, "multi_axis.mixed_angle", a.mixed_angle,
            "must be in -360 .. 360 degrees");
    require(a.spatial_merge_size >= 1 && a.spatial_merge_size <= 16, "multi_axis.spatial_merge_size", a.spatial_merge_size,
            "must be in 1 .. 16");
    require(std::isfinite(a.tokens_per_second) && a.tokens_per_second >= 0 && a.tokens_per_second <= 1000,
            "multi_axis.tokens_per_second", a.tokens_per_second, "must be in 0 .. 1000");
}

void validate_attention(const LayerAttention& a) {
    require(a.sliding_window >= 0 && a.sliding_window <= kMaxContext, "attention.sliding_window", a.sliding_window,
            "must be in 0 .. 10^12 (0: no window)");
    require(a.attention_chunk >= 0 && a.attention_chunk <= kMaxContext, "attention.attention_chunk", a.attention_chunk,
            "must be in 0 .. 10^12 (0: no chunks)");
    require(std::isfinite(a.floor_scale) && a.floor_scale >= 1 && a.floor_scale <= 1e12, "attention.floor_scale", a.floor_scale,
            "must be in 1 .. 10^12");
    require(std::isfinite(a.attn_scale) && a.attn_scale >= 0 && a.attn_scale <= 10, "attention.attn_scale", a.attn_scale,
            "must be in 0 .. 10");
}

}  // namespace

std::vector<double> swap_pair_components(std::vector<double> x, int rotary_dim, PairLayout layout) {
    const int pairs = std::min(rotary_dim, static_cast<int>(x.size())) / 2;
    for (int i = 0; i < pairs; ++i) {
        const std::size_t a = static_cast<std::size_t>(layout == PairLayout::Half ? i : 2 * i);
        const std::size_t b = static_cast<std::size_t>(layout == PairLayout::Half ? i + rotary_dim / 2 : 2 * i + 1);
        std::swap(x[a], x[b]);
    }
    return x;
}

int p_rope_dropped_pairs(double p_rope, int pairs) {
    return std::clamp(static_cast<int>(std::floor(p_rope * pairs + 1e-9)), 0, pairs);
}

void validate(const ModelConfig& config) {
    require(config.head_dim >= 2, "head_dim", config.head_dim, "must be >= 2");
    require(config.partial_rotary_factor > 0.0 && config.partial_rotary_factor <= 1.0,
            "partial_rotary_factor", config.partial_rotary_factor, "must be in (0, 1]");
    const int rot = rotary_dim(config);
    if (rot < 2 || rot % 2 != 0) {
        throw InputError(fmt::format(
            "rotary dim = head_dim {} x partial_rotary_factor {} = {} must be even and >= 2",
            config.head_dim, config.partial_rotary_factor, rot));
    }
    require(config.rotary_offset >= 0 && config.rotary_offset + rot <= config.head_dim, "rotary_offset",
            config.rotary_offset, "must leave the rotary part inside the head");
    require(std::isfinite(config.rope_theta) && config.rope_theta > 1.0, "rope_theta",
            config.rope_theta, "must be a finite number > 1");
    require(config.max_position_embeddings >= 1, "max_position_embeddings",
            static_cast<double>(config.max_position_embeddings), "must be >= 1");
    if (config.original_max_position_embeddings) {
        require(*config.original_max_position_embeddings >= 1, "original_max_position_embeddings",
                static_cast<double>(*config.original_max_position_embeddings), "must be >= 1");
    }
    if (config.seq_len) {
        require(*config.seq_len >= 1, "seq_len", static_cast<double>(*config.seq_len),
                "must be >= 1");
    }
    validate_scaling(config);
    validate_multi_axis(config);
    validate_attention(config.attention);
    require(std::isfinite(config.p_rope) && config.p_rope >= 0 && config.p_rope <= 1, "p_rope", config.p_rope, "must be in 0 .. 1");
    require(config.query_pre_attn_scalar == 0 || (config.query_pre_attn_scalar >= 1 && config.query_pre_attn_scalar <= 1e6),
            "query_pre_attn_scalar", config.query_pre_attn_scalar, "must be 0 (head_dim) or in 1 .. 10^6");
}

std::string_view to_string(RopeType type) {
    switch (type) {
        case RopeType::Default: return "default";
        case RopeType::Linear: return "linear";
        case RopeType::Dynamic: return "dynamic";
        case RopeType::Ntk: return "ntk";
        case RopeType::Yarn: return "yarn";
        case RopeType::Llama3: return "llama3";
        case RopeType::LongRope: return "longrope";
    }
    return "default";
}

std::string_view to_string(PairLayout layout) {
    return layout == PairLayout::Half ? "half" : "interleaved";
}

RopeType parse_rope_type(std::string_view name) {
    for (RopeType t : {RopeType::Default, RopeType::Linear, RopeType::Dynamic, RopeType::Ntk,
                       RopeType::Yarn, RopeType::Llama3, RopeType::LongRope}) {
        if (name == to_string(t)) return t;
    }
    if (name == "su") return RopeType::LongRope;  // Phi-3's first configs called longrope "su"
    throw InputError(fmt::format(
        "unknown rope_type \"{}\" (expected default, linear, dynamic, ntk, yarn, llama3 or longrope)",
        name));
}

PairLayout parse_pair_layout(std::string_view name) {
    if (name == "interleaved") return PairLayout::Interleaved;
    if (name == "half") return PairLayout::Half;
    throw InputError(fmt::format("unknown layout \"{}\" (expected interleaved or half)", name));
}

std::string_view to_string(AxisRule rule) {
    switch (rule) {
        case AxisRule::None: return "none";
        case AxisRule::Sections: return "sections";
        case AxisRule::Interleaved: return "interleaved";
        case AxisRule::Axial: return "axial";
        case AxisRule::EvenOdd: return "even-odd";
        case AxisRule::Mixed: return "mixed";
        case AxisRule::Alternating: return "alternating";
    }
    return "none";
}

std::string_view to_string(PositionIds ids) {
    switch (ids) {
        case PositionIds::None: return "none";
        case PositionIds::Qwen2VL: return "qwen2_vl";
        case PositionIds::Qwen25VL: return "qwen2_5_vl";
        case PositionIds::Qwen3VL: return "qwen3_vl";
    }
    return "none";
}

AxisRule parse_axis_rule(std::string_view name) {
    for (AxisRule r : {AxisRule::None, AxisRule::Sections, AxisRule::Interleaved, AxisRule::Axial, AxisRule::EvenOdd, AxisRule::Mixed,
                       AxisRule::Alternating}) {
        if (name == to_string(r)) return r;
    }
    throw InputError(fmt::format("unknown multi-axis rule \"{}\" (expected none, sections, interleaved, axial, even-odd, mixed or alternating)", name));
}

PositionIds parse_position_ids(std::string_view name) {
    for (PositionIds r : {PositionIds::None, PositionIds::Qwen2VL, PositionIds::Qwen25VL, PositionIds::Qwen3VL}) {
        if (name == to_string(r)) return r;
    }
    throw InputError(fmt::format("unknown position ids \"{}\" (expected none, qwen2_vl, qwen2_5_vl or qwen3_vl)", name));
}

}  // namespace ropelab
