// The model's parts a config.json gives: the pair layout, the head and the RoPE scaling.
#include <optional>

#include "core/config_reader.h"

namespace ropelab {

namespace {

// ---- The layout rule ---------------------------------------------------------------------------
// From each model's rotary code in transformers (src/transformers/models/<type>/modeling_<type>.py):
// rotate_half (or chunk into halves) pairs component i with i + d/2; view_as_complex and
// rotate_every_two pair adjacent components (2i, 2i+1).
struct LayoutRule {
    std::string_view model_type;
    PairLayout layout;
    std::string_view source;
};

constexpr LayoutRule kLayoutRules[] = {
    {"llama", PairLayout::Half, "rotate_half in modeling_llama.py"},
    {"mistral", PairLayout::Half, "rotate_half in modeling_mistral.py"},
    {"mixtral", PairLayout::Half, "rotate_half in modeling_mixtral.py"},
    {"qwen2", PairLayout::Half, "rotate_half in modeling_qwen2.py"},
    {"qwen2_moe", PairLayout::Half, "rotate_half in modeling_qwen2_moe.py"},
    {"qwen3", PairLayout::Half, "rotate_half in modeling_qwen3.py"},
    {"qwen3_moe", PairLayout::Half, "rotate_half in modeling_qwen3_moe.py"},
    {"qwen2_vl", PairLayout::Half, "rotate_half in modeling_qwen2_vl.py"},
    {"qwen2_5_vl", PairLayout::Half, "rotate_half in modeling_qwen2_5_vl.py"},
    {"gemma", PairLayout::Half, "rotate_half in modeling_gemma.py"},
    {"gemma2", PairLayout::Half, "rotate_half in modeling_gemma2.py"},
    {"gemma3", PairLayout::Half, "rotate_half in modeling_gemma3.py"},
    {"phi3", PairLayout::Half, "rotate_half in modeling_phi3.py"},
    {"phi", PairLayout::Half, "rotate_half in modeling_phi.py"},
    {"gpt_neox", PairLayout::Half, "rotate_half in modeling_gpt_neox.py"},
    {"gpt_oss", PairLayout::Half, "chunk into halves in modeling_gpt_oss.py"},
    {"falcon", PairLayout::Half, "rotate_half in modeling_falcon.py"},
    {"olmo", PairLayout::Half, "rotate_half in modeling_olmo.py"},
    {"olmo2", PairLayout::Half, "rotate_half in modeling_olmo2.py"},
    {"starcoder2", PairLayout::Half, "rotate_half in modeling_starcoder2.py"},
    {"stablelm", PairLayout::Half, "rotate_half in modeling_stablelm.py"},
    {"deepseek_v2", PairLayout::Interleaved, "view_as_complex in modeling_deepseek_v2.py"},
    {"deepseek_v3", PairLayout::Interleaved, "rope_interleave (default true) in modeling_deepseek_v3.py"},
    {"llama4", PairLayout::Interleaved, "view_as_complex in modeling_llama4.py"},
    {"gptj", PairLayout::Interleaved, "rotate_every_two in modeling_gptj.py"},
    {"cohere", PairLayout::Interleaved, "rotate_half on even/odd components in modeling_cohere.py"},
};

// "LlamaForCausalLM" → "llama", for files without model_type.
std::optional<std::string> model_type_from_architecture(std::string_view arch) {
    static const std::pair<std::string_view, std::string_view> prefixes[] = {
        {"Llama4", "llama4"},       {"Llama", "llama"},       {"Mistral", "mistral"},     {"Mixtral", "mixtral"},
        {"Qwen2_5_VL", "qwen2_5_vl"}, {"Qwen2VL", "qwen2_vl"}, {"Qwen2Moe", "qwen2_moe"}, {"Qwen2", "qwen2"},
        {"Qwen3Moe", "qwen3_moe"},  {"Qwen3", "qwen3"},       {"Gemma3", "gemma3"},       {"Gemma2", "gemma2"},
        {"Gemma", "gemma"},         {"Phi3", "phi3"},         {"Phi", "phi"},             {"GPTNeoX", "gpt_neox"},
        {"GptOss", "gpt_oss"},      {"Falcon", "falcon"},     {"Olmo2", "olmo2"},         {"Olmo", "olmo"},
        {"DeepseekV2", "deepseek_v2"}, {"DeepseekV3", "deepseek_v3"}, {"GPTJ", "gptj"},    {"Cohere", "cohere"},
        {"Starcoder2", "starcoder2"}, {"StableLm", "stablelm"},
    };
    for (const auto& [prefix, type] : prefixes) {
        if (arch.starts_with(prefix)) return std::string(type);
    }
    return std::nullopt;
}

}  // namespace

bool hf_pair_layout(std::string_view model_type, PairLayout& layout, std::string& rule) {
    const std::string_view type = config_detail::base_model_type(model_type);
    for (const LayoutRule& r : kLayoutRules) {
        if (r.model_type == type) {
            layout = r.layout;
            rule = std::string(r.source);
            return true;
        }
    }
    return false;
}

namespace config_detail {

// "gemma3_text", "llama4_text", "qwen2_5_vl_text" name the text part of a multimodal model.
std::string_view base_model_type(std::string_view type) {
    if (type.ends_with("_text")) type.remove_suffix(5);
    return type;
}

// text_config's model_type, else the top level's, else the first architecture's.
std::optional<std::string> read_model_type(Reader& r, const Reader::Object& t, const Reader::Object& root, bool nested) {
    std::optional<std::string> type = r.text(t, "model_type");
    if (nested) {
        const auto outer = r.text(root, "model_type");
        if (!type) type = outer;
    }
    if (root.has("architectures") && root.at("architectures").is_array() && !root.at("architectures").empty() &&
        root.at("architectures")[0].is_string()) {
        r.mark_read(root, "architectures");
        if (!type) type = model_type_from_architecture(root.at("architectures")[0].get<std::string>());
    }
    return type;
}

// The layout: _ropelab.layout, DeepSeek-V3's rope_interleave, else HF's modeling code for the type.
void read_layout(Reader& r, const Reader::Object& t, ModelConfig& c, LoadedConfig& out,
                 const std::optional<std::string>& type, const std::optional<std::string>& ropelab_layout) {
    if (ropelab_layout) {
        c.layout = parse_pair_layout(*ropelab_layout);
        return;
    }
    if (auto interleave = r.boolean(t, "rope_interleave")) {
        c.layout = *interleave ? PairLayout::Interleaved : PairLayout::Half;
        out.notes.push_back(fmt::format("layout {}: rope_interleave = {} in the file", to_string(c.layout), *interleave));
        return;
    }
    std::string rule;
    if (type && hf_pair_layout(*type, c.layout, rule)) {
        out.notes.push_back(fmt::format("layout {}: {} ({} for model_type \"{}\"); --layout overrides",
                                        to_string(c.layout), c.layout == PairLayout::Half ? "pairs (i, i + d/2)" : "pairs (2i, 2i+1)",
                                        rule, *type));
        r.assume("layout", std::string(to_string(c.layout)), ReadField::Origin::Derived, rule);
        return;
    }
    c.layout = PairLayout::Half;
    out.notes.push_back(fmt::format("layout half assumed: model_type {} is not in ropelab's table, and most HF "
                                    "models use rotate_half; --layout interleaved if the model pairs adjacent components",
                                    type ? "\"" + *type + "\"" : "(none)"));
    r.assume("layout", "half", ReadField::Origin::Default, "the model type is not in the table");
}

// head_dim; DeepSeek's [nope | rope] heads; hidden_size / num_attention_heads (GPT-J: n_embd / n_head).
void read_head(Reader& r, const Reader::Object& t, ModelConfig& c, LoadedConfig& out) {
    constexpr std::int64_t kMaxInt = 2147483647;
    const auto nope = r.integer(t, "qk_nope_head_dim", 0, kMaxHeadDim);
    const auto rope = r.integer(t, "qk_rope_head_dim", 2, kMaxHeadDim);
    if (rope) {
        // DeepSeek V2/V3 (modeling_deepseek_v3.py): q = [q_nope | q_pe]; only the trailing
        // qk_rope_head_dim components rotate.
        const std::int64_t head = nope.value_or(0) + *rope;
        if (head > kMaxHeadDim) r.fail("qk_nope_head_dim + qk_rope_head_dim", fmt::format("= {} is out of range (2 .. {})", head, kMaxHeadDim));
        c.head_dim = static_cast<int>(head);
        c.partial_rotary_factor = static_cast<double>(*rope) / static_cast<double>(head);
        c.rotary_offset = static_cast<int>(nope.value_or(0));
        r.assume("head_dim", std::to_string(head), ReadField::Origin::Derived, "qk_nope_head_dim + qk_rope_head_dim");
        r.assume("rotary dim", std::to_string(*rope), ReadField::Origin::Derived,
                 fmt::format("qk_rope_head_dim: components {} .. {} of the head rotate", c.rotary_offset, head - 1));
        if (t.has("head_dim")) r.mark_read(t, "head_dim");
        return;
    }
    if (auto head_dim = r.integer(t, "head_dim", 2, kMaxHeadDim)) {
        c.head_dim = static_cast<int>(*head_dim);
    } else {
        const std::string hidden_key = t.has("hidden_size") ? "hidden_size" : "n_embd";
        const std::string heads_key = t.has("num_attention_heads") ? "num_attention_heads" : "n_head";
        const auto hidden = r.integer(t, hidden_key, 1, kMaxInt);
        const auto heads = r.integer(t, heads_key, 1, kMaxInt);
        if (!hidden || !heads) {
            throw InputError(fmt::format("{}: cannot tell the head dim: give head_dim, or hidden_size and "
                                         "num_attention_heads",
                                         r.source()));
        }
        if (*hidden % *heads != 0) {
            r.fail(t.prefix + hidden_key, fmt::format("= {} is not a multiple of {} = {}", *hidden, heads_key, *heads));
        }
        const std::int64_t head = *hidden / *heads;
        if (head < 2 || head > kMaxHeadDim) {
            r.fail("head_dim", fmt::format("= {} / {} = {} is out of range (2 .. {})", hidden_key, heads_key, head, kMaxHeadDim));
        }
        c.head_dim = static_cast<int>(head);
        r.assume("head_dim", std::to_string(head), ReadField::Origin::Derived, hidden_key + " / " + heads_key);
    }
    if (auto factor = r.number(t, "partial_rotary_factor", 1e-6, 1.0)) {
        c.partial_rotary_factor = *factor;
    } else if (auto pct = r.number(t, "rotary_pct", 1e-6, 1.0)) {
        c.partial_rotary_factor = *pct;
    } else if (auto dims = r.integer(t, "rotary_dim", 2, c.head_dim)) {
        c.partial_rotary_factor = static_cast<double>(*dims) / c.head_dim;
    } else {
        r.assume("partial_rotary_factor", "1", ReadField::Origin::Default, "the whole head rotates");
    }
    (void)out;
}

// Reads rope_scaling / rope_parameters (one setting) into `s`.
void read_scaling(Reader& r, const Reader::Object& o, RopeScaling& s, LoadedConfig& out) {
    auto type = r.text(o, "rope_type");
    if (!type) type = r.text(o, "type");  // the legacy key
    const std::string type_name = type.value_or("default");
    if (type_name == "mrope") {
        // Qwen2-VL: transformers reads "mrope" as default RoPE with mrope_section (configuration_qwen2_vl.py).
        s.type = RopeType::Default;
    } else {
        try {
            s.type = parse_rope_type(type_name);
        } catch (const InputError& e) {
            r.fail(o.prefix + "rope_type", e.what());
        }
    }
    s.factor = r.number(o, "factor", kMinFactor, kMaxFactor);
    s.low_freq_factor = r.number(o, "low_freq_factor", kMinFactor, kMaxFactor);
    s.high_freq_factor = r.number(o, "high_freq_factor", kMinFactor, kMaxFactor);
    s.beta_fast = r.number(o, "beta_fast", kMinFactor, kMaxFactor).value_or(s.beta_fast);
    s.beta_slow = r.number(o, "beta_slow", kMinFactor, kMaxFactor).value_or(s.beta_slow);
    s.attention_factor = r.number(o, "attention_factor", 1e-3, 1e3);
    s.mscale = r.number(o, "mscale", 1e-3, 1e3);
    s.mscale_all_dim = r.number(o, "mscale_all_dim", 1e-3, 1e3);
    s.truncate = r.boolean(o, "truncate").value_or(true);
    s.original_max_position_embeddings = r.integer(o, "original_max_position_embeddings", 1, kMaxContext);
    s.long_factor = r.numbers(o, "long_factor", 1e-3, 1e6);
    s.short_factor = r.numbers(o, "short_factor", 1e-3, 1e6);
    const std::vector<double> sections = r.numbers(o, "mrope_section", 0, 1e6);
    if (type_name == "mrope" || !sections.empty()) {
        std::string list;
        for (double v : sections) list += (list.empty() ? "" : "/") + shown(v);
        out.notes.push_back(fmt::format(
            "multi-axis RoPE (M-RoPE{}): positions are (time, height, width) triples; for text tokens the three are "
            "equal, which is ordinary 1-D RoPE, and that is what the lab shows",
            list.empty() ? "" : ", sections " + list + " pairs"));
    }
    if (s.type == RopeType::Yarn && s.factor && *s.factor < 1.0) {
        out.notes.push_back(fmt::format("YaRN factor {} < 1 compresses rather than extends the context; "
                                        "HF warns and computes it, and so does the lab",
                                        shown(*s.factor)));
    }
    if (s.type == RopeType::Llama3 && s.low_freq_factor && s.high_freq_factor && *s.low_freq_factor == *s.high_freq_factor) {
        out.notes.push_back("llama3 low_freq_factor == high_freq_factor: no smooth band between kept and divided "
                            "frequencies (HF warns and computes the same)");
    }
    if (!s.truncate) {
        out.notes.push_back("YaRN truncate = false: the correction range is used without rounding (gpt-oss)");
    }
}

}  // namespace config_detail

}  // namespace ropelab
