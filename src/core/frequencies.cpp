#include "core/frequencies.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "core/error.h"

namespace ropelab {

namespace {

struct Scaled {
    std::vector<double> inv_freq;
    double attention_factor = 1.0;
    double theta = 0.0;
    std::optional<std::pair<double, double>> yarn_range;
};

std::int64_t current_seq_len(const ModelConfig& c) {
    return c.seq_len.value_or(c.max_position_embeddings);
}

// Top-level or rope_scaling's original_max_position_embeddings; rope_scaling wins when both exist.
std::int64_t original_max(const ModelConfig& c) {
    return c.rope_scaling.original_max_position_embeddings.value_or(
        c.original_max_position_embeddings.value_or(c.max_position_embeddings));
}

// NTK-aware base change: θ' = θ · s^(d/(d-2)). With d = 2 the only pair has inv_freq 1 whatever
// the base, so the base is left alone instead of dividing by zero.
double ntk_base(double theta, double scale, int d) {
    return d > 2 ? theta * std::pow(scale, static_cast<double>(d) / (d - 2)) : theta;
}

Scaled linear(const ModelConfig& c, int d) {
    Scaled s{default_inv_freq(d, c.rope_theta), 1.0, c.rope_theta, {}};
    for (double& f : s.inv_freq) f /= *c.rope_scaling.factor;
    return s;
}

// HF "dynamic": the NTK base grows with the current length L = max(seq_len, max_position).
Scaled dynamic(const ModelConfig& c, int d) {
    const double factor = *c.rope_scaling.factor;
    const double max_pos = static_cast<double>(c.max_position_embeddings);
    const double length = std::max(static_cast<double>(current_seq_len(c)), max_pos);
    const double base = ntk_base(c.rope_theta, factor * length / max_pos - (factor - 1.0), d);
    return {default_inv_freq(d, base), 1.0, base, {}};
}

// Static NTK-aware scaling (the fixed-factor form of "dynamic").
Scaled ntk(const ModelConfig& c, int d) {
    const double base = ntk_base(c.rope_theta, *c.rope_scaling.factor, d);
    return {default_inv_freq(d, base), 1.0, base, {}};
}

double yarn_mscale(double scale, double mscale) {
    return scale <= 1.0 ? 1.0 : 0.1 * mscale * std::log(scale) + 1.0;
}

// The pair-dimension at which a wavelength completes `rotations` turns within `context` positions.
double yarn_correction_dim(double rotations, int d, double base, double context) {
    return d * std::log(context / (rotations * kTwoPi)) / (2.0 * std::log(base));
}

// YaRN (Peng et al. 2023): pairs that turn often in the original context keep their frequency,
// pairs that turn less than once are interpolated by 1/factor, a linear ramp blends the rest.
Scaled yarn(const ModelConfig& c, int d) {
    const RopeScaling& s = c.rope_scaling;
    const double factor = *s.factor;
    // Only rope_scaling's own original length counts here, as in HF.
    const double context = static_cast<double>(
        s.original_max_position_embeddings.value_or(c.max_position_embeddings));

    double low = yarn_correction_dim(s.beta_fast, d, c.rope_theta, context);
    double high = yarn_correction_dim(s.beta_slow, d, c.rope_theta, context);
    if (s.truncate) {  // HF rounds the range outwards unless the config says truncate: false
        low = std::floor(low);
        high = std::ceil(high);
    }
    low = std::max(low, 0.0);
    high = std::min(high, static_cast<double>(d - 1));
    const double span = high == low ? 0.001 : high - low;  // HF's guard against a zero-width ramp

    Scaled out{default_inv_freq(d, c.rope_theta), 1.0, c.rope_theta, std::pair{low, high}};
    for (std::size_t i = 0; i < out.inv_freq.size(); ++i) {
        const double ramp = std::clamp((static_cast<double>(i) - low) / span, 0.0, 1.0);
        const double extrapolation_weight = 1.0 - ramp;
        const double f = out.inv_freq[i];
        out.inv_freq[i] = f / factor * ramp + f * extrapolation_weight;
    }

    if (s.attention_factor) {
        out.attention_factor = *s.attention_factor;
    } else if (s.mscale && s.mscale_all_dim) {
        out.attention_factor =
            yarn_mscale(factor, *s.mscale) / yarn_mscale(factor, *s.mscale_all_dim);
    } else {
        out.attention_factor = yarn_mscale(factor, 1.0);
    }
    return out;
}

// Llama 3.1: wavelengths shorter than context/high_freq_factor are kept, longer than
// context/low_freq_factor are divided by factor, and the band between is blended smoothly.
Scaled llama3(const ModelConfig& c, int d) {
    const RopeScaling& s = c.rope_scaling;
    const double factor = *s.factor, low = *s.low_freq_factor, high = *s.high_freq_factor;
    const double context = static_cast<double>(original_max(c));
    const double low_freq_wavelen = context / low;
    const double high_freq_wavelen = context / high;

    Scaled out{default_inv_freq(d, c.rope_theta), 1.0, c.rope_theta, {}};
    for (double& f : out.inv_freq) {
        const double wavelen = wavelength(f);
        if (wavelen < high_freq_wavelen) continue;
        if (wavelen > low_freq_wavelen) {
            f /= factor;
            continue;
        }
        if (high == low) continue;  // no band to blend across (wavelen sits exactly on the edge)
        const double smooth = (context / wavelen - low) / (high - low);
        f = (1.0 - smooth) * f / factor + smooth * f;
    }
    return out;
}

// LongRoPE (Phi-3): a searched rescale factor per pair, long_factor beyond the original context.
Scaled longrope(const ModelConfig& c, int d) {
    const RopeScaling& s = c.rope_scaling;
    const double context = static_cast<double>(original_max(c));
    const bool is_long = static_cast<double>(current_seq_len(c)) > context;
    const std::vector<double>& rescale = is_long ? s.long_factor : s.short_factor;

    Scaled out{default_inv_freq(d, c.rope_theta), 1.0, c.rope_theta, {}};
    for (std::size_t i = 0; i < out.inv_freq.size(); ++i) out.inv_freq[i] /= rescale[i];

    const double factor =
        s.factor.value_or(static_cast<double>(c.max_position_embeddings) / context);
    if (s.attention_factor) {
        out.attention_factor = *s.attention_factor;
    } else if (factor > 1.0) {
        out.attention_factor = std::sqrt(1.0 + std::log(factor) / std::log(context));
    }
    return out;
}

Scaled scaled_frequencies(const ModelConfig& c, int d) {
    switch (c.rope_scaling.type) {
        case RopeType::Linear: return linear(c, d);
        case RopeType::Dynamic: return dynamic(c, d);
        case RopeType::Ntk: return ntk(c, d);
        case RopeType::Yarn: return yarn(c, d);
        case RopeType::Llama3: return llama3(c, d);
        case RopeType::LongRope: return longrope(c, d);
        case RopeType::Default: break;
    }
    return {default_inv_freq(d, c.rope_theta), 1.0, c.rope_theta, {}};
}

}  // namespace

std::vector<double> default_inv_freq(int rotary_dim, double theta) {
    std::vector<double> inv_freq(static_cast<std::size_t>(rotary_dim / 2));
    for (std::size_t i = 0; i < inv_freq.size(); ++i) {
        inv_freq[i] = 1.0 / std::pow(theta, 2.0 * static_cast<double>(i) / rotary_dim);
    }
    return inv_freq;
}

double wavelength(double inv_freq) { return kTwoPi / inv_freq; }

namespace {

// NoPE turns no pair; p-RoPE leaves its ⌊p·pairs⌋ lowest frequencies (ties: the later pair) as
// they are. An unrotated pair's rotor is 1, so its ω is 0 and nothing downstream needs to know.
void mark_unrotated(const ModelConfig& config, RopeFrequencies& out) {
    const int pairs = out.pairs();
    out.unrotated.assign(static_cast<std::size_t>(pairs), !config.attention.rope);
    if (config.attention.rope) {
        std::vector<int> order(static_cast<std::size_t>(pairs));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return out.inv_freq[static_cast<std::size_t>(a)] > out.inv_freq[static_cast<std::size_t>(b)];
        });
        const int dropped = p_rope_dropped_pairs(config.p_rope, pairs);
        for (int k = pairs - dropped; k < pairs; ++k) out.unrotated[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] = true;
    }
    for (int i = 0; i < pairs; ++i) {
        if (out.unrotated[static_cast<std::size_t>(i)]) out.inv_freq[static_cast<std::size_t>(i)] = 0.0;
    }
    if (!config.attention.rope) out.attention_factor = 1.0;  // no cos and sin to scale
}

}  // namespace

RopeFrequencies compute_frequencies(const ModelConfig& config) {
    validate(config);
    const int d = rotary_dim(config);
    Scaled scaled = scaled_frequencies(config, d);
    for (std::size_t i = 0; i < config.freq_factors.size() && i < scaled.inv_freq.size(); ++i) scaled.inv_freq[i] /= config.freq_factors[i];

    RopeFrequencies out;
    out.head_dim = config.head_dim;
    out.rotary_dim = d;
    out.layout = config.layout;
    out.unscaled_inv_freq = default_inv_freq(d, config.rope_theta);
    out.inv_freq = std::move(scaled.inv_freq);
    out.attention_factor = scaled.attention_factor;
    out.yarn_correction_range = scaled.yarn_range;
    out.effective_theta = scaled.theta;
    // The schema's ranges keep every setting's result finite; this says so if a combination
    // still overflowed, instead of drawing inf.
    for (std::size_t i = 0; i < out.inv_freq.size(); ++i) {
        if (!(std::isfinite(out.inv_freq[i]) && out.inv_freq[i] > 0.0)) {
            throw InputError(fmt::format("the scaled inv_freq of pair {} is {}: these settings overflow the math", i, out.inv_freq[i]));
        }
    }
    if (!std::isfinite(out.attention_factor)) {
        throw InputError(fmt::format("the attention factor is {}: these settings overflow the math", out.attention_factor));
    }
    mark_unrotated(config, out);
    out.phase_step.reserve(out.inv_freq.size());
    for (double f : out.inv_freq) out.phase_step.push_back(phase_step(f));
    return out;
}

std::vector<PairScaling> classify_pairs(const RopeFrequencies& freqs, double factor) {
    std::vector<PairScaling> out;
    out.reserve(freqs.inv_freq.size());
    for (std::size_t i = 0; i < freqs.inv_freq.size(); ++i) {
        const double ratio = freqs.inv_freq[i] / freqs.unscaled_inv_freq[i];
        if (std::abs(ratio - 1.0) < 1e-12) {
            out.push_back(PairScaling::Unchanged);
        } else if (std::abs(ratio * factor - 1.0) < 1e-12) {
            out.push_back(PairScaling::Interpolated);
        } else {
            out.push_back(PairScaling::Blended);
        }
    }
    return out;
}

}  // namespace ropelab
