#include "lab/params.h"

#include <fmt/format.h>

namespace ropelab {

std::string compute_key(const LabParams& p) {
    const ModelConfig& m = p.model;
    const RopeScaling& s = m.rope_scaling;
    std::string key = fmt::format(
        "{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}", m.head_dim,
        m.partial_rotary_factor, m.rope_theta, m.max_position_embeddings,
        m.original_max_position_embeddings.value_or(-1), static_cast<int>(s.type),
        s.factor.value_or(-1), s.low_freq_factor.value_or(-1), s.high_freq_factor.value_or(-1),
        s.beta_fast, s.beta_slow, s.attention_factor.value_or(-1), s.mscale.value_or(-1),
        s.mscale_all_dim.value_or(-1), s.original_max_position_embeddings.value_or(-1),
        m.seq_len.value_or(-1), static_cast<int>(m.layout), static_cast<int>(p.encoding),
        static_cast<int>(p.vectors), p.seed, p.samples, p.max_distance);
    key += fmt::format("|{}|{}|{}|{}|{}|{}", static_cast<int>(p.angle_mode), p.focused_pair,
                       p.custom_q, p.custom_k, s.long_factor.size(), p.invariance_distance);
    for (double f : s.long_factor) key += fmt::format(",{}", f);
    for (double f : s.short_factor) key += fmt::format(";{}", f);
    return key;
}

std::string position_key(const LabParams& p) {
    return fmt::format("{}|{}|{}", p.position, p.focused_pair, p.key_distance);
}

std::string_view to_string(Encoding e) {
    switch (e) {
        case Encoding::Rope: return "RoPE";
        case Encoding::Sinusoidal: return "Sinusoidal (additive)";
        case Encoding::Both: return "Both";
    }
    return "RoPE";
}

std::string_view to_string(VectorChoice v) {
    switch (v) {
        case VectorChoice::Ones: return "All ones";
        case VectorChoice::Random: return "Random (seed)";
        case VectorChoice::MeanOfRandom: return "Mean of S random (k = q)";
        case VectorChoice::FocusedPair: return "Focused pair alone";
        case VectorChoice::Custom: return "Custom vectors";
    }
    return "All ones";
}

std::string_view view_title(View v) {
    switch (v) {
        case View::Planes: return "1 Rotation planes";
        case View::Contrast: return "2 Addition vs rotation";
        case View::Scores: return "3 Score vs distance";
        case View::Invariance: return "4 Translation invariance";
        case View::Heatmap: return "5 Angle heatmap";
        case View::Frequencies: return "6 Frequencies and scaling";
        case View::Numbers: return "7 Numbers";
        case View::Precision: return "8 Precision";
    }
    return "";
}

}  // namespace ropelab
