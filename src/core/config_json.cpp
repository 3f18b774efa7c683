#include "core/config_json.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "core/error.h"
#include "core/input_file.h"
#include "core/json_input.h"

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

// "gemma3_text", "llama4_text", "qwen2_5_vl_text" name the text part of a multimodal model.
std::string_view base_model_type(std::string_view type) {
    if (type.ends_with("_text")) type.remove_suffix(5);
    return type;
}

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

// ---- Reading fields with their names ------------------------------------------------------------

std::string shown(double v) { return fmt::format("{}", v); }

// Every read goes through here: it names the field in errors, checks types, exactness and
// ranges, and records what was used, so what is left over can be listed as ignored.
class Reader {
public:
    Reader(LoadedConfig& out, std::string source) : out_(out), source_(std::move(source)) {}

    // A view of one object of the file; `prefix` names it ("", "text_config.", "rope_scaling.").
    struct Object {
        const Json* json = nullptr;
        std::string prefix;
        bool has(const std::string& key) const { return json && json->contains(key) && !json->at(key).is_null(); }
        const Json& at(const std::string& key) const { return json->at(key); }
    };

    [[noreturn]] void fail(const std::string& name, const std::string& text) const {
        throw InputError(fmt::format("{}: {} {}", source_, name, text));
    }

    void use(const Object& o, const std::string& key, std::string value) {
        read_.insert(o.prefix + key);
        const auto d = defaulted_.find(o.prefix + key);
        if (d != defaulted_.end()) {
            out_.used.push_back({o.prefix + key, std::move(value), ReadField::Origin::Default, d->second});
        } else {
            out_.used.push_back({o.prefix + key, std::move(value), ReadField::Origin::File, ""});
        }
    }
    // A key the file leaves out and the model's config class fills in.
    void defaulted(const std::string& name, std::string why) { defaulted_[name] = std::move(why); }
    void mark_read(const Object& o, const std::string& key) { read_.insert(o.prefix + key); }
    void assume(std::string name, std::string value, ReadField::Origin origin, std::string why) {
        out_.used.push_back({std::move(name), std::move(value), origin, std::move(why)});
    }

    std::optional<double> number(const Object& o, const std::string& key, double lo, double hi) {
        if (!o.has(key)) return std::nullopt;
        const Json& v = o.at(key);
        const std::string name = o.prefix + key;
        if (!v.is_number()) fail(name, fmt::format("must be a number (got {})", json_excerpt(v)));
        const double x = v.get<double>();
        if (!std::isfinite(x) || x < lo || x > hi) {
            fail(name, fmt::format("= {} is out of range ({} .. {})", json_excerpt(v), shown(lo), shown(hi)));
        }
        use(o, key, shown(x));
        return x;
    }

    // An exact integer in [lo, hi]: 4294967424 is refused, never wrapped to 128.
    std::optional<std::int64_t> integer(const Object& o, const std::string& key, std::int64_t lo, std::int64_t hi) {
        if (!o.has(key)) return std::nullopt;
        const Json& v = o.at(key);
        const std::string name = o.prefix + key;
        const std::string range = fmt::format("{} .. {}", lo, hi);
        if (!v.is_number()) fail(name, fmt::format("must be a whole number in {} (got {})", range, json_excerpt(v)));
        bool in_range = false;
        std::int64_t x = 0;
        if (v.is_number_unsigned()) {
            const std::uint64_t u = v.get<std::uint64_t>();
            in_range = u <= static_cast<std::uint64_t>(hi) && static_cast<std::int64_t>(u) >= lo;
            x = static_cast<std::int64_t>(u);
        } else if (v.is_number_integer()) {
            x = v.get<std::int64_t>();
            in_range = x >= lo && x <= hi;
        } else {
            const double d = v.get<double>();
            if (d != std::floor(d)) fail(name, fmt::format("= {} is not a whole number ({})", json_excerpt(v), range));
            in_range = d >= static_cast<double>(lo) && d <= static_cast<double>(hi);
            if (in_range) x = static_cast<std::int64_t>(d);
        }
        if (!in_range) fail(name, fmt::format("= {} is out of range ({})", json_excerpt(v), range));
        use(o, key, std::to_string(x));
        return x;
    }

    std::optional<std::string> text(const Object& o, const std::string& key) {
        if (!o.has(key)) return std::nullopt;
        const Json& v = o.at(key);
        if (!v.is_string()) fail(o.prefix + key, fmt::format("must be a string (got {})", json_excerpt(v)));
        use(o, key, v.get<std::string>());
        return v.get<std::string>();
    }

    std::optional<bool> boolean(const Object& o, const std::string& key) {
        if (!o.has(key)) return std::nullopt;
        const Json& v = o.at(key);
        if (!v.is_boolean()) fail(o.prefix + key, fmt::format("must be true or false (got {})", json_excerpt(v)));
        use(o, key, v.get<bool>() ? "true" : "false");
        return v.get<bool>();
    }

    std::vector<double> numbers(const Object& o, const std::string& key, double lo, double hi) {
        if (!o.has(key)) return {};
        const Json& v = o.at(key);
        const std::string name = o.prefix + key;
        if (!v.is_array()) fail(name, fmt::format("must be a list of numbers (got {})", json_excerpt(v)));
        std::vector<double> list;
        for (std::size_t i = 0; i < v.size(); ++i) {
            const Json& item = v[i];
            if (!item.is_number() || !std::isfinite(item.get<double>()) || item.get<double>() < lo || item.get<double>() > hi) {
                fail(fmt::format("{}[{}]", name, i),
                     fmt::format("= {} is not a number in {} .. {}", json_excerpt(item), shown(lo), shown(hi)));
            }
            list.push_back(item.get<double>());
        }
        use(o, key, fmt::format("{} values", list.size()));
        return list;
    }

    std::optional<Object> object(const Object& o, const std::string& key) {
        if (!o.has(key)) return std::nullopt;
        const Json& v = o.at(key);
        if (!v.is_object()) fail(o.prefix + key, fmt::format("must be an object (got {})", json_excerpt(v)));
        mark_read(o, key);
        return Object{&v, o.prefix + key + "."};
    }

    // Every key of `o` nothing read, listed as ignored with `why`.
    void list_unread(const Object& o, const std::string& why) {
        if (!o.json) return;
        for (auto it = o.json->begin(); it != o.json->end(); ++it) {
            const std::string name = o.prefix + it.key();
            if (!read_.count(name)) out_.ignored.push_back({name, why});
        }
    }

    const std::string& source() const { return source_; }

private:
    LoadedConfig& out_;
    std::string source_;
    std::set<std::string> read_;
    std::map<std::string, std::string> defaulted_;
};

// Values HF's config classes fill in when a file leaves them out, for the models whose published
// files rely on them (Gemma 3 4B's text_config gives neither heads, head_dim nor either base).
struct ClassDefaults {
    std::string_view model_type;
    std::string_view config_class;
    std::string_view json;
};
constexpr ClassDefaults kClassDefaults[] = {
    {"gemma3", "Gemma3TextConfig",
     R"({"head_dim": 256, "num_attention_heads": 8, "hidden_size": 2304, "rope_theta": 1000000.0,
         "rope_local_base_freq": 10000.0, "max_position_embeddings": 131072, "sliding_window_pattern": 6})"},
};

// ---- The model ----------------------------------------------------------------------------------


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

// The layout: _ropelab.layout, DeepSeek-V3's rope_interleave, else HF's modeling code for the type.
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

struct Setting {
    std::string name;
    double theta = 10000.0;
    RopeScaling scaling;
};

LoadedConfig read_config(const Json& root_json, const std::string& source, std::string_view wanted_layer,
                         std::vector<std::string> duplicate_notes) {
    if (!root_json.is_object()) throw InputError(fmt::format("{}: the top level must be a JSON object", source));
    LoadedConfig out;
    out.notes = std::move(duplicate_notes);
    Reader r(out, source);
    const Reader::Object root{&root_json, ""};
    ModelConfig& c = out.config;

    // _ropelab: a preset's own metadata.
    std::optional<std::string> ropelab_layout;
    if (auto note = r.object(root, "_ropelab")) {
        out.note.name = r.text(*note, "name").value_or("");
        out.note.title = r.text(*note, "title").value_or("");
        out.note.source = r.text(*note, "source").value_or("");
        ropelab_layout = r.text(*note, "layout");
        r.list_unread(*note, "not a ropelab preset field");
    }

    // Multimodal models keep the language model's settings in text_config.
    Reader::Object t = root;
    bool nested = false;
    if (auto text = r.object(root, "text_config")) {
        t = *text;
        nested = true;
        out.notes.push_back("multimodal config: the text model's fields were read from text_config");
    }
    const std::optional<std::string> type = read_model_type(r, t, root, nested);
    Json with_defaults;  // outlives t, which may point at it
    for (const ClassDefaults& d : kClassDefaults) {
        if (!type || base_model_type(*type) != d.model_type) continue;
        with_defaults = *t.json;
        const Json defaults = Json::parse(d.json);
        for (const auto& [key, value] : defaults.items()) {
            if (with_defaults.contains(key) && !with_defaults[key].is_null()) continue;
            with_defaults[key] = value;
            r.defaulted(t.prefix + key, std::string(d.config_class) + "'s default (the file leaves it out)");
        }
        t.json = &with_defaults;
    }

    read_head(r, t, c, out);
    read_layout(r, t, c, out, type, ropelab_layout);

    const auto top_theta = r.number(t, "rope_theta", kMinTheta, kMaxTheta);
    const auto neox_base = top_theta ? std::nullopt : r.number(t, "rotary_emb_base", kMinTheta, kMaxTheta);
    const double base_theta = top_theta.value_or(neox_base.value_or(10000.0));
    if (!top_theta && !neox_base) r.assume("rope_theta", "10000", ReadField::Origin::Default, "HF's default base");
    const auto max_pos = r.integer(t, "max_position_embeddings", 1, kMaxContext);
    const auto n_positions = max_pos ? std::nullopt : r.integer(t, "n_positions", 1, kMaxContext);
    c.max_position_embeddings = max_pos.value_or(n_positions.value_or(2048));
    if (!max_pos && !n_positions) r.assume("max_position_embeddings", "2048", ReadField::Origin::Default, "HF's default");
    c.original_max_position_embeddings = r.integer(t, "original_max_position_embeddings", 1, kMaxContext);

    // The settings: v5 rope_parameters (flat or per layer type), v4 rope_scaling, Gemma 3's
    // rope_local_base_freq for its sliding layers.
    std::vector<Setting> settings;
    const auto parameters = r.object(t, "rope_parameters");
    const bool per_layer = parameters && std::all_of(parameters->json->begin(), parameters->json->end(),
                                                     [](const Json& v) { return v.is_object(); }) &&
                           !parameters->json->empty();
    if (per_layer) {
        for (auto it = parameters->json->begin(); it != parameters->json->end(); ++it) {
            const auto o = r.object(*parameters, it.key());
            Setting s{it.key(), r.number(*o, "rope_theta", kMinTheta, kMaxTheta).value_or(base_theta), {}};
            read_scaling(r, *o, s.scaling, out);
            r.list_unread(*o, "not a RoPE parameter ropelab knows");
            settings.push_back(std::move(s));
        }
    } else if (parameters) {
        Setting s{"", r.number(*parameters, "rope_theta", kMinTheta, kMaxTheta).value_or(base_theta), {}};
        read_scaling(r, *parameters, s.scaling, out);
        r.list_unread(*parameters, "not a RoPE parameter ropelab knows");
        settings.push_back(std::move(s));
    } else {
        Setting s{"", base_theta, {}};
        if (auto scaling = r.object(t, "rope_scaling")) {
            read_scaling(r, *scaling, s.scaling, out);
            r.list_unread(*scaling, "not a RoPE parameter ropelab knows");
        }
        if (auto local = r.number(t, "rope_local_base_freq", kMinTheta, kMaxTheta)) {
            // Gemma 3 (modeling_gemma3.py): sliding-window layers use this base, unscaled.
            s.name = "full_attention";
            settings.push_back(s);
            settings.push_back(Setting{"sliding_attention", *local, {}});
        } else {
            settings.push_back(std::move(s));
        }
    }
    if (parameters && t.has("rope_scaling")) {
        r.mark_read(t, "rope_scaling");
        out.ignored.push_back({t.prefix + "rope_scaling", "rope_parameters (transformers v5) is read instead"});
    }

    // The setting shown: the one asked for, else full attention, else the first.
    const Setting* chosen = &settings.front();
    if (settings.size() > 1) {
        for (const Setting& s : settings) out.layer_types.push_back(s.name);
        const std::string want = wanted_layer.empty() ? "full_attention" : std::string(wanted_layer);
        const auto it = std::find_if(settings.begin(), settings.end(), [&](const Setting& s) { return s.name == want; });
        if (it == settings.end() && !wanted_layer.empty()) {
            std::string names;
            for (const Setting& s : settings) names += (names.empty() ? "" : ", ") + s.name;
            throw InputError(fmt::format("{}: no layer type \"{}\" (this model has {})", source, wanted_layer, names));
        }
        chosen = it == settings.end() ? &settings.front() : &*it;
        out.layer_type = chosen->name;
        std::string counts;
        if (const auto types = t.has("layer_types") && t.at("layer_types").is_array() ? &t.at("layer_types") : nullptr) {
            r.mark_read(t, "layer_types");
            std::map<std::string, int> n;
            for (const Json& v : *types) {
                if (v.is_string()) ++n[v.get<std::string>()];
            }
            for (const auto& [name, k] : n) counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", k, name);
            counts = " (" + std::to_string(types->size()) + " layers: " + counts + ")";
        } else if (t.has("sliding_window_pattern") && t.has("num_hidden_layers") && t.at("sliding_window_pattern").is_number_integer() &&
                   t.at("num_hidden_layers").is_number_integer()) {
            // Gemma 3 before layer_types (modeling_gemma3.py): layer i is global when (i + 1) % pattern == 0.
            const std::int64_t pattern = t.at("sliding_window_pattern").get<std::int64_t>();
            const std::int64_t layers = t.at("num_hidden_layers").get<std::int64_t>();
            if (pattern >= 1 && layers >= 1 && layers <= 100000) {
                r.mark_read(t, "num_hidden_layers");
                const std::int64_t global = layers / pattern;
                counts = fmt::format(" ({} layers: {} full_attention, {} sliding_attention, every {}th global)", layers, global,
                                     layers - global, pattern);
            }
        }
        out.notes.push_back(fmt::format("the model's layers use {} RoPE settings{}; showing {} (--layer-type or the "
                                        "panel picks another)",
                                        settings.size(), counts, chosen->name));
    } else if (!wanted_layer.empty()) {
        throw InputError(fmt::format("{}: --layer-type {}: this model has one RoPE setting for every layer", source, wanted_layer));
    }
    c.rope_theta = chosen->theta;
    c.rope_scaling = chosen->scaling;
    if (t.has("sliding_window_pattern")) r.mark_read(t, "sliding_window_pattern");

    // What is left: not about RoPE.
    r.list_unread(t, "not about RoPE");
    if (nested) r.list_unread(root, "not about the text model's RoPE");
    try {
        validate(c);
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}", source, e.what()));
    }
    return out;
}

const char* origin_name(ReadField::Origin o) {
    switch (o) {
        case ReadField::Origin::File: return "file";
        case ReadField::Origin::Default: return "default";
        case ReadField::Origin::Derived: return "derived";
    }
    return "file";
}

}  // namespace

bool hf_pair_layout(std::string_view model_type, PairLayout& layout, std::string& rule) {
    const std::string_view type = base_model_type(model_type);
    for (const LayoutRule& r : kLayoutRules) {
        if (r.model_type == type) {
            layout = r.layout;
            rule = std::string(r.source);
            return true;
        }
    }
    return false;
}

LoadedConfig parse_config_json(std::string_view text, std::string_view source, std::string_view layer_type) {
    std::vector<std::string> duplicates;
    const Json root = parse_json_input(text, source, &duplicates);
    return read_config(root, std::string(source), layer_type, std::move(duplicates));
}

LoadedConfig load_config_json(const std::string& path, std::string_view layer_type) {
    return parse_config_json(read_input_file(path, "config"), path, layer_type);
}

std::vector<std::string> explain_lines(const LoadedConfig& loaded) {
    std::vector<std::string> lines;
    for (const ReadField& f : loaded.used) {
        lines.push_back(fmt::format("used: {} = {} ({}{})", f.name, f.value, origin_name(f.origin), f.why.empty() ? "" : ": " + f.why));
    }
    for (const IgnoredField& f : loaded.ignored) lines.push_back(fmt::format("ignored: {} ({})", f.name, f.why));
    return lines;
}

std::string explain_config(const LoadedConfig& loaded) {
    std::string s = "used:\n";
    for (const ReadField& f : loaded.used) {
        s += fmt::format("  {:<44} {:<22} {}{}\n", f.name, f.value, origin_name(f.origin), f.why.empty() ? "" : ": " + f.why);
    }
    if (!loaded.layer_types.empty()) {
        std::string names;
        for (const std::string& n : loaded.layer_types) names += (names.empty() ? "" : ", ") + n;
        s += fmt::format("layer types: {} (showing {})\n", names, loaded.layer_type);
    }
    s += "ignored:\n";
    for (const IgnoredField& f : loaded.ignored) s += fmt::format("  {:<44} {}\n", f.name, f.why);
    if (loaded.ignored.empty()) s += "  (nothing)\n";
    s += "notes:\n";
    for (const std::string& n : loaded.notes) s += "  " + n + "\n";
    if (loaded.notes.empty()) s += "  (none)\n";
    return s;
}

}  // namespace ropelab
