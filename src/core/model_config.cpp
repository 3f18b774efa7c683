#include "core/model_config.h"

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
}

}  // namespace

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

}  // namespace ropelab
