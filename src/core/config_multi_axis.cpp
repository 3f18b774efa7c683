// Multi-axis RoPE in config.json files: M-RoPE's mrope_section (Qwen2-VL, Qwen2.5-VL, Qwen3-VL,
// GLM-4.1V), the vision towers' 2-D RoPE (--layer-type vision), FLUX's diffusers config, and a
// preset's own rule. Each rule follows the modeling file named beside it.
#include <cmath>
#include <optional>

#include "core/config_reader.h"

namespace ropelab::config_detail {

namespace {

std::string_view family_type(const ModelFamily* family) { return family ? family->model_type : std::string_view(); }

bool is_qwen2_vl(std::string_view t) { return t == "qwen2_vl" || t == "qwen2_5_vl"; }
// Qwen3.5 runs Qwen3-VL's text rotary (Qwen3_5TextRotaryEmbedding), get_rope_index and tower.
bool is_qwen3_5(std::string_view t) { return t == "qwen3_5" || t == "qwen3_5_moe"; }
bool is_qwen3_vl(std::string_view t) { return t == "qwen3_vl" || t == "qwen3_vl_moe" || is_qwen3_5(t); }
bool is_glm4v(std::string_view t) { return t == "glm4v" || t == "glm4v_moe"; }
bool is_ernie_vl(std::string_view t) { return t == "ernie4_5_vl_moe"; }

std::string list_text(const std::vector<double>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + shown(v[i]);
    return s + "]";
}

// The tower's keys nothing read: RoPE-named ones (Qwen3-VL's num_position_embeddings, a learned
// table) as RoPE fields not applied, the rest as `why`.
void list_vision_leftovers(Reader& r, const Reader::Object& v, const std::string& why) {
    for (auto it = v.json->begin(); it != v.json->end(); ++it) {
        if (!r.was_read(v, it.key()) && rope_named(it.key())) {
            r.not_applied(v, it.key(), "a vision tower setting ropelab does not apply (not its rotary embedding)");
        }
    }
    r.list_unread(v, why);
}

// mrope_section as the model's code needs it: three whole numbers of pairs that add up to the
// rotary pairs (its cos is split into them, twice over for rotate_half's two halves).
void check_sections(const Reader& r, const MropeRead& m, int pairs, int rotary, AxisRule rule) {
    const std::string value = list_text(m.section);
    if (m.section.size() != 3) {
        r.fail(m.field, fmt::format("= {} has {} entries; M-RoPE needs 3 (pairs for time, height, width)", value, m.section.size()));
    }
    double sum = 0;
    for (double s : m.section) {
        if (s < 0 || s != std::floor(s)) r.fail(m.field, fmt::format("= {}: {} is not a whole number of pairs >= 0", value, shown(s)));
        sum += s;
    }
    if (sum != pairs) {
        r.fail(m.field, fmt::format("= {} adds up to {} pairs; rotary dim {} has {}", value, shown(sum), rotary, pairs));
    }
    // Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope: height takes pairs 1, 4, …, 3·s_h − 2 and
    // width 2, 5, …, 3·s_w − 1 (slices of length 3·s); each must lie inside the pairs.
    const bool h_fits = m.section[1] == 0 || 3 * m.section[1] - 2 < pairs;
    const bool w_fits = m.section[2] == 0 || 3 * m.section[2] - 1 < pairs;
    if (rule == AxisRule::Interleaved && !(h_fits && w_fits)) {
        r.fail(m.field, fmt::format("= {}: interleaved, height takes pairs 1, 4, …, 3·s_h − 2 and width 2, 5, …, 3·s_w − 1, so "
                                    "each must be at most about a third of {} pairs",
                                    value, pairs));
    }
}

// The rule the model's modeling code applies; the file's mrope_interleaved does not decide it.
AxisRule multi_axis_rule(std::string_view type, std::string& why) {
    if (is_ernie_vl(type)) {
        why = "modeling_ernie4_5_vl_moe.py: Ernie4_5_VL_MoeTextRotaryEmbedding pre-rotates the fastest h + w pairs (evens, then "
              "odds) and recomposition_to_3d interleaves them back: even pairs turn with h, odd with w, the slowest t";
        return AxisRule::Alternating;
    }
    if (is_qwen3_5(type)) {
        why = fmt::format("modeling_{}.py: Qwen3_5TextRotaryEmbedding (Qwen3-VL's) apply_interleaved_mrope always interleaves, "
                          "over the rotary pairs only",
                          type);
        return AxisRule::Interleaved;
    }
    if (is_qwen3_vl(type)) {
        why = "modeling_qwen3_vl.py: Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope always interleaves";
        return AxisRule::Interleaved;
    }
    if (is_qwen2_vl(type)) {
        why = fmt::format("modeling_{}.py: apply_multimodal_rotary_pos_emb splits the frequencies into contiguous sections", type);
        return AxisRule::Sections;
    }
    if (is_glm4v(type)) {
        why = fmt::format("modeling_{}.py: apply_multimodal_rotary_pos_emb splits the frequencies into contiguous sections "
                          "(then pairs adjacent components)",
                          type);
        return AxisRule::Sections;
    }
    why = "assumed: contiguous sections as Qwen2-VL's apply_multimodal_rotary_pos_emb (the model type is not one ropelab "
          "knows multi-axis code for)";
    return AxisRule::Sections;
}

PositionIds position_ids_of(std::string_view type, std::string& why) {
    if (type == "qwen2_vl") return PositionIds::Qwen2VL;
    if (type == "qwen2_5_vl") return PositionIds::Qwen25VL;
    if (is_qwen3_vl(type)) return PositionIds::Qwen3VL;
    why = fmt::format("assumed: Qwen2-VL's get_rope_index ({} has its own; for an image's tokens it places (t, h, w) the same "
                      "way, after the text)",
                      type.empty() ? std::string("this model") : std::string(type));
    return PositionIds::Qwen2VL;
}

// vision_config's keys that place image and video tokens: the class defaults where the file
// leaves them out (configuration_qwen2_vl.py, configuration_qwen2_5_vl.py, configuration_qwen3_vl.py).
void read_vision_placement(Reader& r, const Reader::Object& root, std::string_view type, MultiAxis& a) {
    const auto vision = r.object(root, "vision_config");
    const auto merge = vision ? r.integer(*vision, "spatial_merge_size", 1, 16) : std::nullopt;
    a.spatial_merge_size = static_cast<int>(merge.value_or(2));
    if (!merge) {
        r.assume("vision_config.spatial_merge_size", "2", ReadField::Origin::Default,
                 "the vision config classes' default: 2×2 patches merge into one token");
    }
    const auto tps = vision ? r.number(*vision, "tokens_per_second", 0, 1000) : std::nullopt;
    if (type == "qwen2_5_vl") {
        a.tokens_per_second = tps.value_or(4);
        if (!tps) r.assume("vision_config.tokens_per_second", "4", ReadField::Origin::Default, "Qwen2_5_VLVisionConfig's default");
    } else {
        a.tokens_per_second = 0;
        if (tps) {
            r.not_applied(*vision, "tokens_per_second", "only Qwen2.5-VL's get_rope_index spaces video frames by seconds");
        } else {
            r.assume("multi_axis.tokens_per_second", "0", ReadField::Origin::Derived,
                     "this model's get_rope_index steps t once per frame group, not by seconds");
        }
    }
    if (vision) list_vision_leftovers(r, *vision, "the vision tower's other settings, not about the text model's RoPE");
}

}  // namespace

void read_multi_axis(Reader& r, const Reader::Object& root, const ModelFamily* family, const MropeRead& m, ModelConfig& c,
                     LoadedConfig& out) {
    if (!m.any()) return;
    if (m.section.empty()) {
        r.fail(m.type_field, "= \"mrope\" needs mrope_section beside it (pairs for time, height, width)");
    }
    const std::string_view type = family_type(family);
    std::string rule_why, ids_why;
    MultiAxis& a = c.multi_axis;
    a.rule = multi_axis_rule(type, rule_why);
    const int rotary = rotary_dim(c);
    check_sections(r, m, rotary / 2, rotary, a.rule);
    a.sections = m.section;
    if (a.rule == AxisRule::Alternating) {
        // The file's mrope_section is (h, w, t): split([*mrope_section]) gives h, w, then t.
        a.sections = {m.section[2], m.section[0], m.section[1]};
        if (m.section[0] != m.section[1]) {
            r.fail(m.field, fmt::format("= {}: h and w take turns over the fastest pairs (recomposition_to_3d stacks them), so "
                                        "the first two must be equal",
                                        list_text(m.section)));
        }
        r.assume("multi_axis.sections", fmt::format("{}, {}, {}", shown(a.sections[0]), shown(a.sections[1]), shown(a.sections[2])),
                 ReadField::Origin::Derived, "the file's mrope_section (h, w, t) in ropelab's order (t, h, w)");
    }
    a.position_ids = position_ids_of(type, ids_why);
    r.assume("multi_axis.rule", std::string(to_string(a.rule)), ReadField::Origin::Derived, rule_why);
    r.assume("multi_axis.position_ids", std::string(to_string(a.position_ids)), ReadField::Origin::Derived,
             ids_why.empty() ? fmt::format("model_type {}: its get_rope_index", type) : ids_why);
    if (m.interleaved) {
        const bool agrees = *m.interleaved == (a.rule == AxisRule::Interleaved);
        out.notes.push_back(fmt::format("{} = {} read, but not deciding: the rule is {} because {}{}", m.interleaved_field,
                                        *m.interleaved ? "true" : "false", to_string(a.rule), rule_why,
                                        agrees ? "" : " (the key disagrees; transformers does not read it either)"));
    }
    read_vision_placement(r, root, type, a);
    out.notes.push_back(fmt::format("multi-axis rule {}, sections {} pairs (t, h, w); position ids as {}'s get_rope_index",
                                    to_string(a.rule), list_text(a.sections), to_string(a.position_ids)));
}

bool has_vision_tower(const Reader::Object& root, const ModelFamily* family) {
    if (!root.has("vision_config") || !root.at("vision_config").is_object()) return false;
    const Json& v = root.at("vision_config");
    const std::string_view type = family_type(family);
    if (is_qwen2_vl(type) || is_qwen3_vl(type)) return true;
    return v.contains("model_type") && v.at("model_type").is_string() && v.at("model_type").get<std::string>() == "pixtral";
}

ModelConfig read_vision_tower(Reader& r, const Reader::Object& root, const ModelFamily* family, LoadedConfig& out) {
    const Reader::Object v = *r.object(root, "vision_config");
    const std::string_view type = family_type(family);
    ModelConfig c;
    c.layout = PairLayout::Half;  // both towers rotate with rotate_half
    c.partial_rotary_factor = 1.0;
    const bool pixtral = !(is_qwen2_vl(type) || is_qwen3_vl(type));
    if (pixtral) {
        // modeling_pixtral.py: PixtralRotaryEmbedding takes the 1-D ladder over head_dim with
        // rope_theta; even frequencies turn with the patch's row, odd ones with its column, and the
        // two halves are laid out for rotate_half. PixtralVisionConfig: head_dim defaults to
        // hidden_size / num_attention_heads, rope_theta to 10000.
        const auto head = r.integer(v, "head_dim", 2, kMaxHeadDim);
        if (head) {
            c.head_dim = static_cast<int>(*head);
        } else {
            const auto hidden = r.integer(v, "hidden_size", 1, 1 << 20).value_or(1024);
            const auto heads = r.integer(v, "num_attention_heads", 1, 4096).value_or(16);
            c.head_dim = static_cast<int>(hidden / heads);
            r.assume("vision_config.head_dim", std::to_string(c.head_dim), ReadField::Origin::Derived,
                     "hidden_size / num_attention_heads (PixtralVisionConfig)");
        }
        const auto theta = r.number(v, "rope_theta", kMinTheta, kMaxTheta);
        c.rope_theta = theta.value_or(10000.0);
        if (!theta) r.assume("vision_config.rope_theta", "10000", ReadField::Origin::Default, "PixtralVisionConfig's default");
        const auto image = r.integer(v, "image_size", 1, 1 << 20).value_or(1024);
        const auto patch = r.integer(v, "patch_size", 1, 1 << 20).value_or(16);
        c.max_position_embeddings = std::max<std::int64_t>(1, image / patch);
        r.assume("max_position_embeddings", std::to_string(c.max_position_embeddings), ReadField::Origin::Derived,
                 "vision_config.image_size / patch_size: patches per side (PixtralRotaryEmbedding's max_patches_per_side)");
        c.multi_axis.rule = AxisRule::EvenOdd;
        r.assume("multi_axis.rule", "even-odd", ReadField::Origin::Derived,
                 "modeling_pixtral.py: PixtralRotaryEmbedding, freqs[::2] with the row, freqs[1::2] with the column");
    } else {
        // modeling_qwen2_vl.py / modeling_qwen2_5_vl.py / modeling_qwen3_vl.py: the tower's head is
        // its width / num_heads; VisionRotaryEmbedding(head_dim / 2) with θ 10000 gives head_dim / 4
        // frequencies, used once for the patch's row and once for its column (rot_pos_emb), then
        // doubled for rotate_half. Qwen2-VL's width is embed_dim (its hidden_size is the merger's).
        const std::string width_key = type == "qwen2_vl" ? "embed_dim" : "hidden_size";
        const std::int64_t width_default = type == "qwen2_vl" ? 1280 : type == "qwen2_5_vl" ? 3584 : 1152;
        const auto width = r.integer(v, width_key, 1, 1 << 20);
        const auto heads = r.integer(v, "num_heads", 1, 4096);
        if (!width) r.assume("vision_config." + width_key, std::to_string(width_default), ReadField::Origin::Default, "the vision config class's default");
        if (!heads) r.assume("vision_config.num_heads", "16", ReadField::Origin::Default, "the vision config class's default");
        const std::int64_t w = width.value_or(width_default), h = heads.value_or(16);
        if (w % h != 0 || w / h < 4 || w / h > kMaxHeadDim || (w / h) % 4 != 0) {
            r.fail(v.prefix + width_key, fmt::format("= {} over num_heads {} gives head dim {}; the vision RoPE needs a multiple of 4 "
                                                     "in 4 .. {}",
                                                     w, h, shown(static_cast<double>(w) / static_cast<double>(h)), kMaxHeadDim));
        }
        c.head_dim = static_cast<int>(w / h);
        r.assume("head_dim", std::to_string(c.head_dim), ReadField::Origin::Derived, "vision_config." + width_key + " / num_heads");
        c.rope_theta = 10000.0;
        r.assume("rope_theta", "10000", ReadField::Origin::Default, "VisionRotaryEmbedding's theta (the config has no key for it)");
        const double quarter = c.head_dim / 4;
        c.multi_axis.rule = AxisRule::Axial;
        c.multi_axis.sections = {0, quarter, quarter};
        r.assume("multi_axis.sections", fmt::format("0, {}, {}", shown(quarter), shown(quarter)), ReadField::Origin::Derived,
                 "rot_pos_emb: head_dim / 4 frequencies for the row, the same for the column, none for time");
        c.max_position_embeddings = 2048;
        r.assume("max_position_embeddings", "2048", ReadField::Origin::Default,
                 "the tower takes any image size (its patches per side are not bounded by the config)");
    }
    c.multi_axis.position_ids = PositionIds::None;
    r.assume("vision tower layout", "half", ReadField::Origin::Derived,
             pixtral ? "modeling_pixtral.py: apply_rotary_pos_emb with rotate_half"
                     : "apply_rotary_pos_emb_vision with rotate_half");
    list_vision_leftovers(r, v, "the vision tower's other settings, not about its RoPE");
    out.notes.push_back(fmt::format("vision tower: head dim {}, θ {}, rule {}, layout half; positions are a patch's (row, column) "
                                    "in the image grid; the text model's fields listed are read but not shown",
                                    c.head_dim, shown(c.rope_theta), to_string(c.multi_axis.rule)));
    return c;
}

bool read_diffusers_config(Reader& r, const Reader::Object& root, ModelConfig& c, LoadedConfig& out) {
    const auto cls = r.text(root, "_class_name");
    if (!cls) return false;
    if (*cls != "FluxTransformer2DModel") {
        r.fail("_class_name", fmt::format("= \"{}\": of diffusers' transformers ropelab reads FluxTransformer2DModel only", *cls));
    }
    // diffusers transformer_flux.py: FluxPosEmbed(theta=10000, axes_dim=axes_dims_rope) gives each
    // id column its own ladder get_1d_rotary_pos_embed(axes_dim[i], θ) with repeat_interleave_real,
    // so pairs are adjacent components, axes one after another.
    const auto head = r.integer(root, "attention_head_dim", 2, kMaxHeadDim);
    c.head_dim = static_cast<int>(head.value_or(128));
    if (!head) r.assume("attention_head_dim", "128", ReadField::Origin::Default, "FluxTransformer2DModel's default");
    std::vector<double> axes = r.numbers(root, "axes_dims_rope", -1e9, 1e9);
    if (axes.empty()) {
        axes = {16, 56, 56};
        r.assume("axes_dims_rope", "16, 56, 56", ReadField::Origin::Default, "FluxTransformer2DModel's default");
    }
    const std::string value = list_text(axes);
    if (axes.size() != 3) r.fail("axes_dims_rope", fmt::format("= {} has {} entries; FLUX's ids have 3 columns", value, axes.size()));
    double sum = 0;
    for (double a : axes) {
        if (a < 0 || a != std::floor(a) || std::fmod(a, 2) != 0) {
            r.fail("axes_dims_rope", fmt::format("= {}: {} is not an even whole number of components", value, shown(a)));
        }
        sum += a;
    }
    if (sum != c.head_dim) r.fail("axes_dims_rope", fmt::format("= {} adds up to {}; attention_head_dim is {}", value, shown(sum), c.head_dim));
    c.rope_theta = 10000.0;
    r.assume("rope_theta", "10000", ReadField::Origin::Default, "FluxPosEmbed(theta=10000) in transformer_flux.py");
    c.layout = PairLayout::Interleaved;
    r.assume("layout", "interleaved", ReadField::Origin::Derived, "get_1d_rotary_pos_embed(repeat_interleave_real=True)");
    c.multi_axis.rule = AxisRule::Axial;
    c.multi_axis.sections = {axes[0] / 2, axes[1] / 2, axes[2] / 2};
    r.assume("multi_axis.rule", "axial", ReadField::Origin::Derived, "FluxPosEmbed: one ladder per id column, concatenated");
    r.assume("multi_axis.sections", fmt::format("{}, {}, {}", shown(axes[0] / 2), shown(axes[1] / 2), shown(axes[2] / 2)),
             ReadField::Origin::Derived, "axes_dims_rope / 2: pairs per id column");
    c.multi_axis.position_ids = PositionIds::None;
    c.max_position_embeddings = 4096;
    r.assume("max_position_embeddings", "4096", ReadField::Origin::Default, "FLUX sets no limit; 64×64 latent patches of a 1024² image");
    out.notes.push_back(fmt::format("diffusers {}: axial RoPE over the ids' three columns (axes_dims_rope {} components: the first "
                                    "column, then the latent row, then the column); text tokens have ids (0, 0, 0)",
                                    *cls, value));
    for (const char* key : {"_diffusers_version", "_name_or_path"}) {
        if (root.has(key)) r.mark_read(root, key);
    }
    r.list_unread(root, "not about RoPE");
    return true;
}

void read_preset_multi_axis(Reader& r, const Reader::Object& note, MultiAxis& a) {
    const auto m = r.object(note, "multi_axis");
    if (!m) return;
    if (const auto rule = r.text(*m, "rule")) {
        try {
            a.rule = parse_axis_rule(*rule);
        } catch (const InputError& e) {
            r.fail(m->prefix + "rule", e.what());
        }
    }
    a.mixed_angle = r.number(*m, "mixed_angle", -360, 360).value_or(0.0);
    a.sections = r.numbers(*m, "sections", 0, 1e6);
    r.list_unread(*m, "not a ropelab multi_axis field");
}

}  // namespace ropelab::config_detail
