// The model's parts a config.json gives: the pair layout, the head and the RoPE scaling.
#include <optional>

#include "core/config_reader.h"

namespace ropelab {

namespace {

// Whether rope_parameters (flat, or any layer type's) holds `key`.
bool in_rope_parameters(const config_detail::Reader::Object& t, const std::string& key) {
    if (!t.has("rope_parameters") || !t.at("rope_parameters").is_object()) return false;
    const Json& p = t.at("rope_parameters");
    if (p.contains(key)) return true;
    for (const auto& [name, v] : p.items()) {
        if (v.is_object() && v.contains(key)) return true;
    }
    return false;
}

// "models/llama/modeling_llama.py" → "modeling_llama.py".
std::string_view file_name(std::string_view path) { return path.substr(path.rfind('/') + 1); }

}  // namespace

namespace config_detail {

// text_config's model_type, else the top level's; `arch` is set to architectures[0] when given.
std::string default_text_model(const std::string& outer_type) {
    // configuration_llava.py, configuration_llava_next.py: text_config's model_type defaults to
    // "llama", and no text_config is a default LlamaConfig.
    return outer_type == "llava" || outer_type == "llava_next" ? "llama" : "";
}

std::string composite_class(const std::string& outer_type) {
    return outer_type == "llava_next" ? "LlavaNextConfig" : outer_type == "llava" ? "LlavaConfig" : "";
}

std::optional<std::string> read_model_type(Reader& r, const Reader::Object& t, const Reader::Object& root, bool nested,
                                           std::string& arch) {
    std::optional<std::string> type = r.text(t, "model_type");
    if (nested) {
        const auto outer = r.text(root, "model_type");
        if (!type && outer && !default_text_model(*outer).empty()) {
            type = default_text_model(*outer);
            r.assume(t.prefix + "model_type", *type, ReadField::Origin::Default,
                     fmt::format("{}'s default text model (the file leaves it out)", composite_class(*outer)));
        }
        if (!type) type = outer;
    }
    if (root.has("architectures") && root.at("architectures").is_array() && !root.at("architectures").empty() &&
        root.at("architectures")[0].is_string()) {
        r.mark_read(root, "architectures");
        arch = root.at("architectures")[0].get<std::string>();
    }
    return type;
}

// The model_type's family, else (files without model_type) the first architecture's.
const ModelFamily* family_of(const std::optional<std::string>& type, const std::string& arch) {
    if (type) return find_family(*type);
    return arch.empty() ? nullptr : family_of_architecture(arch);
}

// The layout: _ropelab.layout, DeepSeek-V3's rope_interleave, the family's modeling code, else
// --layout for a model the table does not know.
void read_layout(Reader& r, const Reader::Object& t, ModelConfig& c, LoadedConfig& out, const ModelFamily* family,
                 const std::optional<std::string>& type, const std::optional<std::string>& ropelab_layout,
                 const GivenRope& given) {
    if (ropelab_layout) {
        c.layout = parse_pair_layout(*ropelab_layout);
        return;
    }
    if (auto interleave = r.boolean(t, "rope_interleave")) {
        c.layout = *interleave ? PairLayout::Interleaved : PairLayout::Half;
        out.notes.push_back(fmt::format("layout {}: rope_interleave = {} in the file", to_string(c.layout), *interleave));
        return;
    }
    if (family) {
        const std::string rule = fmt::format("{} in {}", family->layout_rule, file_name(family->source));
        c.layout = family->layout;
        out.notes.push_back(fmt::format("layout {}: {} ({} for model_type \"{}\"); --layout overrides",
                                        to_string(c.layout), c.layout == PairLayout::Half ? "pairs (i, i + d/2)" : "pairs (2i, 2i+1)",
                                        rule, type.value_or(std::string(family->model_type))));
        r.assume("layout", std::string(to_string(c.layout)), ReadField::Origin::Derived, rule);
        return;
    }
    if (given.layout) {
        c.layout = *given.layout;
        r.assume("layout", std::string(to_string(c.layout)), ReadField::Origin::Default,
                 "--layout: the model type is not in ropelab's family table");
        return;
    }
    // ropelab's own files without a layout, and files refused once everything is read.
    c.layout = PairLayout::Half;
    out.notes.push_back(fmt::format("layout half assumed: model_type {} is not in ropelab's family table, and most HF "
                                    "models use rotate_half; --layout interleaved if the model pairs adjacent components",
                                    type ? "\"" + *type + "\"" : "(none)"));
    r.assume("layout", "half", ReadField::Origin::Default, "the model type is not in the family table");
}

// head_dim; DeepSeek's [nope | rope] heads; hidden_size / num_attention_heads (GPT-J: n_embd / n_head).
void read_head(Reader& r, const Reader::Object& t, ModelConfig& c, const ModelFamily* family, const GivenRope& given) {
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
    const std::string head_key(family ? family->head_dim_key : std::string_view("head_dim"));
    if (auto head_dim = r.integer(t, head_key, 2, kMaxHeadDim)) {
        c.head_dim = static_cast<int>(*head_dim);
    } else {
        const std::string hidden_key = !t.has("hidden_size") && t.has("n_embd") ? "n_embd" : "hidden_size";
        const std::string heads_key = !t.has("num_attention_heads") && t.has("n_head") ? "n_head" : "num_attention_heads";
        const auto hidden = r.integer(t, hidden_key, 1, kMaxInt);
        const auto heads = r.integer(t, heads_key, 1, kMaxInt);
        const std::string missing = !hidden && !heads ? hidden_key + " and " + heads_key : !hidden ? hidden_key : heads_key;
        if ((!hidden || !heads) && given.head_dim) {
            c.head_dim = *given.head_dim;
            r.assume("head_dim", std::to_string(c.head_dim), ReadField::Origin::Default,
                     fmt::format("--head-dim: the file gives no {} and no {}", head_key, missing));
        } else if (!hidden || !heads) {
            throw InputError(fmt::format("{}: cannot tell the head dim: the file gives no {}{} and no {}{}; add them to the "
                                         "file, or give --head-dim N",
                                         r.source(), t.prefix, head_key, t.prefix, missing));
        } else {
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
    }
    // Gemma 2 and 3: the logits' scale (core/attention.h, logit_scale).
    if (const auto scalar = r.number(t, "query_pre_attn_scalar", 1, 1e6)) c.query_pre_attn_scalar = *scalar;
    if (family && family->partial_forced) {
        // BambaConfig sets the factor itself, over whatever the file says.
        c.partial_rotary_factor = family->partial_rotary_default;
        if (t.has("partial_rotary_factor")) {
            r.not_applied(t, "partial_rotary_factor", fmt::format("{} sets {} whatever the file says", family->config_class,
                                                                  shown(family->partial_rotary_default)));
        }
        r.assume("partial_rotary_factor", shown(c.partial_rotary_factor), ReadField::Origin::Default,
                 fmt::format("{} sets it", family->config_class));
    } else if (auto factor = r.number(t, "partial_rotary_factor", 1e-6, 1.0)) {
        c.partial_rotary_factor = *factor;
    } else if (auto pct = r.number(t, "rotary_pct", 1e-6, 1.0)) {
        c.partial_rotary_factor = *pct;
    } else if (auto dims = r.integer(t, "rotary_dim", 2, c.head_dim)) {
        c.partial_rotary_factor = static_cast<double>(*dims) / c.head_dim;
    } else if (in_rope_parameters(t, "partial_rotary_factor")) {
        // v5: read with the setting it belongs to (config_json.cpp).
    } else if (family && family->partial_rotary_default != 1.0) {
        c.partial_rotary_factor = family->partial_rotary_default;
        r.assume("partial_rotary_factor", shown(c.partial_rotary_factor), ReadField::Origin::Default,
                 fmt::format("{}'s default (the file leaves it out)", family->config_class));
    } else {
        r.assume("partial_rotary_factor", "1", ReadField::Origin::Default, "the whole head rotates");
    }
}

// Reads rope_scaling / rope_parameters (one setting) into `s`.
void read_scaling(Reader& r, const Reader::Object& o, RopeScaling& s, LoadedConfig& out, MropeRead* mrope) {
    refuse_nulls(r, o);
    auto type = r.text(o, "rope_type");
    if (!type) {
        type = r.text(o, "type");  // the legacy key
    } else if (o.has("type")) {
        // Both: transformers (standardize_rope_params) reads rope_type and drops the old name.
        const Json& old = o.at("type");
        if (old.is_string() && old.get<std::string>() == *type) {
            r.use(o, "type", old.get<std::string>() + " (old name of rope_type)");
        } else {
            r.not_applied(o, "type", fmt::format("the old name of rope_type: transformers reads rope_type = \"{}\" when both are given, "
                                                 "so type = {} is not used",
                                                 *type, json_excerpt(old)));
        }
    }
    const std::string type_name = type.value_or("default");
    const bool unscaled = !type || type_name == "default";
    if (unscaled) {
        // transformers (standardize_rope_params, validate_rope) reads a block without a type as
        // "default", and default RoPE has no scaling keys: they are dropped, not applied. Listed,
        // so a factor is never mistaken for one in use.
        const std::string block = o.prefix.substr(0, o.prefix.size() - 1);
        std::string dropped;
        for (const char* key : {"factor", "low_freq_factor", "high_freq_factor", "beta_fast", "beta_slow", "attention_factor", "mscale",
                                "mscale_all_dim", "truncate", "original_max_position_embeddings", "long_factor", "short_factor"}) {
            if (o.has(key)) {
                r.not_applied(o, key, type ? fmt::format("ignored: {} is rope_type default; transformers applies no scaling", block)
                                           : fmt::format("ignored: {} has no type; transformers applies no scaling", block));
                dropped += (dropped.empty() ? "" : ", ") + std::string(key);
            }
        }
        if (!dropped.empty()) {
            out.notes.push_back(fmt::format("{} {}: transformers applies no scaling, so {} {} not used; give another "
                                            "rope_type to apply it",
                                            block, type ? "is rope_type default" : "has no rope_type or type (default RoPE)",
                                            dropped, dropped.find(',') == std::string::npos ? "is" : "are"));
        }
    }
    if (type_name == "mrope") {
        // Qwen2-VL: transformers reads "mrope" as default RoPE with mrope_section (configuration_qwen2_vl.py).
        s.type = RopeType::Default;
    } else if (type_name == "proportional") {
        // modeling_rope_utils._compute_proportional_rope_parameters: the frequencies over the whole
        // head, then inv_freq /= factor — linear scaling; which pairs rotate is the caller's
        // (config_json.cpp, apply_proportional: p-RoPE).
        s.type = RopeType::Linear;
    } else {
        try {
            s.type = parse_rope_type(type_name);
        } catch (const InputError& e) {
            r.fail(o.prefix + "rope_type", e.what());
        }
    }
    if (!unscaled) {
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
        // Proportional's factor defaults to 1.0 (rope_parameters_dict.get("factor", 1.0)): unscaled.
        if (type_name == "proportional" && (!s.factor || *s.factor == 1.0)) s.type = RopeType::Default;
    }
    // Checked against the rotary pairs once the head is known (read_multi_axis); here only as numbers.
    const std::vector<double> sections = r.numbers(o, "mrope_section", -1e9, 1e9);
    const std::optional<bool> interleaved = r.boolean(o, "mrope_interleaved");
    if (type_name == "mrope" || !sections.empty()) {
        std::string list;
        for (double v : sections) list += (list.empty() ? "" : "/") + shown(v);
        out.notes.push_back(fmt::format(
            "multi-axis RoPE (M-RoPE{}): positions are (time, height, width) triples; for text tokens the three are "
            "equal, which is ordinary 1-D RoPE",
            list.empty() ? "" : ", sections " + list + " pairs"));
    }
    if (mrope) {
        mrope->section = sections;
        mrope->field = o.prefix + "mrope_section";
        mrope->legacy_type = type_name == "mrope";
        mrope->type_field = o.prefix + (o.has("rope_type") ? "rope_type" : "type");
        mrope->interleaved = interleaved;
        mrope->interleaved_field = o.prefix + "mrope_interleaved";
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
