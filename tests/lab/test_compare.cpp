// Compare mode's state: SPECs, the built-in comparisons, the slot edits, sessions, share strings
// and lessons carrying compared settings.
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"
#include "core/frequencies.h"
#include "core/presets.h"
#include "state/compare.h"
#include "state/schema.h"
#include "state/session.h"
#include "lesson/lesson.h"
#include "support/refusal.h"

namespace ropelab {
namespace {

using test::refusal;

TEST(Compare, OverridesChangeOnlyWhatTheyName) {
    LabParams base;
    const ComparedSetting s = parse_compare_spec("rope_type=yarn, factor=8", base);
    EXPECT_EQ(s.model.rope_scaling.type, RopeType::Yarn);
    EXPECT_EQ(s.model.rope_scaling.factor, 8.0);
    ModelConfig expected = base.model;
    expected.rope_scaling.type = RopeType::Yarn;
    expected.rope_scaling.factor = 8.0;
    EXPECT_EQ(s.model, expected);
    EXPECT_EQ(s.name, "rope_type=yarn,factor=8");
    EXPECT_EQ(s.source, "textbook + rope_type=yarn,factor=8");
    // HF names work as well as the lessons' short ones; a factor alone on an unscaled model is linear.
    const ComparedSetting t = parse_compare_spec("rope_theta=500000,factor=4,name=PI ×4,colour=green", base);
    EXPECT_EQ(t.model.rope_theta, 500000.0);
    EXPECT_EQ(t.model.rope_scaling.type, RopeType::Linear);
    EXPECT_EQ(t.name, "PI ×4");
    EXPECT_EQ(t.colour, SettingColour::Green);
}

TEST(Compare, PresetsConfigsAndLayerTypes) {
    LabParams base;
    EXPECT_EQ(parse_compare_spec("llama3-8b", base).model, preset_or_throw("llama3-8b").config);
    // Gemma 3's sliding layers: rope_local_base_freq, unscaled (modeling_gemma3.py).
    const ComparedSetting local = parse_compare_spec("gemma3-4b@sliding_attention", base);
    EXPECT_EQ(local.model.rope_theta, 10000.0);
    EXPECT_EQ(local.model.rope_scaling.type, RopeType::Default);
    EXPECT_EQ(local.layer_type, "sliding_attention");
    const ModelConfig global = preset_or_throw("gemma3-4b").config;
    EXPECT_EQ(global.rope_theta, 1e6);
    EXPECT_EQ(global.rope_scaling.type, RopeType::Linear);
    EXPECT_EQ(global.rope_scaling.factor, 8.0);
    // A real config file, with a layer type and an override after it.
    const std::string config = std::string(ROPELAB_SOURCE_DIR) + "/tests/data/configs/gemma-3-4b-it.json";
    const ComparedSetting file = parse_compare_spec(config + "@sliding_attention,theta=20000", base);
    EXPECT_EQ(file.model.rope_theta, 20000.0);
    EXPECT_EQ(file.model.head_dim, 256);
}

TEST(Compare, BadSpecsNameTheProblem) {
    const LabParams base;
    EXPECT_NE(refusal([&] { parse_compare_spec("nosuch", base); }).find("\"nosuch\" is not a preset"), std::string::npos);
    EXPECT_NE(refusal([&] { parse_compare_spec("rope_type=yarm", base); }).find("\"yarm\" is unknown"), std::string::npos);
    EXPECT_NE(refusal([&] { parse_compare_spec("theta=1e400", base); }).find("rope_theta"), std::string::npos);
    EXPECT_NE(refusal([&] { parse_compare_spec("factor=nan", base); }).find("factor"), std::string::npos);
    EXPECT_NE(refusal([&] { parse_compare_spec("speed=2", base); }).find("unknown key \"speed\""), std::string::npos);
    EXPECT_NE(refusal([&] { parse_compare_spec("llama3-8b,oops", base); }).find("not key=value"), std::string::npos);
    EXPECT_NE(refusal([&] { parse_compare_spec("gemma3-4b@nope", base); }).find("no layer type \"nope\""), std::string::npos);
    EXPECT_NE(refusal([&] { parse_compare_spec("", base); }).find("empty SPEC"), std::string::npos);
    EXPECT_NE(refusal([&] { parse_compare_spec(std::string(5000, 'a'), base); }).find("characters"), std::string::npos);
    EXPECT_NE(refusal([&] { parse_compare_spec("/no/such/config.json", base); }).find("/no/such/config.json"), std::string::npos);
    EXPECT_NE(refusal([&] { with_compared(base, {"llama3-8b", "llama2-7b", "textbook", "mistral-7b"}); }).find("at most 3"),
              std::string::npos);
}

TEST(Compare, BuiltInComparisonsAreWhatTheySay) {
    ASSERT_EQ(comparisons().size(), 6u);
    for (const Comparison& c : comparisons()) {
        const LabParams p = apply_comparison(LabParams{}, c.name);
        EXPECT_NO_THROW(schema::validate(p)) << c.name;
        EXPECT_EQ(setting_count(p), 1 + static_cast<int>(c.specs.size())) << c.name;
        for (int i = 1; i < setting_count(p); ++i) {
            EXPECT_NE(setting_model(p, i), p.model) << c.name << " " << i;
        }
    }
    const LabParams llama = apply_comparison(LabParams{}, "llama3.1-scaling");
    EXPECT_EQ(llama.model.rope_scaling.type, RopeType::Llama3);
    const RopeType types[] = {RopeType::Yarn, RopeType::Linear, RopeType::Ntk};
    for (int i = 1; i <= 3; ++i) {
        EXPECT_EQ(setting_model(llama, i).rope_scaling.type, types[i - 1]);
        EXPECT_EQ(setting_model(llama, i).rope_scaling.factor, 8.0);
        EXPECT_EQ(setting_model(llama, i).rope_theta, 500000.0);
    }
    const LabParams halves = apply_comparison(LabParams{}, "interleaved-vs-half");
    EXPECT_EQ(halves.model.layout, PairLayout::Interleaved);
    EXPECT_EQ(setting_model(halves, 1).layout, PairLayout::Half);
    EXPECT_EQ(halves.vectors, VectorChoice::Random);  // the same random q and k for both
    // One image, four rules: the same Qwen2-VL frequencies chunked and interleaved, then two vision towers.
    const LabParams images = apply_comparison(LabParams{}, "image-axes");
    EXPECT_EQ(images.model.multi_axis.rule, AxisRule::Sections);
    EXPECT_EQ(images.model.multi_axis.sections, (std::vector<double>{16, 24, 24}));
    EXPECT_EQ(setting_model(images, 1).multi_axis.rule, AxisRule::Interleaved);
    EXPECT_EQ(setting_model(images, 1).multi_axis.sections, (std::vector<double>{24, 20, 20}));
    EXPECT_EQ(setting_model(images, 1).rope_theta, images.model.rope_theta);
    EXPECT_EQ(setting_model(images, 2).multi_axis.rule, AxisRule::Axial);
    EXPECT_EQ(setting_model(images, 3).multi_axis.rule, AxisRule::EvenOdd);
    // p-RoPE beside RoPE: the same Llama 3 frequencies, the lowest quarter (pairs 48 … 63 of 64) unrotated.
    const LabParams prope = apply_comparison(LabParams{}, "p-rope");
    EXPECT_EQ(prope.model.p_rope, 0.0);
    EXPECT_EQ(setting_model(prope, 1).p_rope, 0.25);
    EXPECT_EQ(setting_model(prope, 1).rope_theta, prope.model.rope_theta);
    const RopeFrequencies rope = compute_frequencies(prope.model), dropped = compute_frequencies(setting_model(prope, 1));
    ASSERT_EQ(dropped.pairs(), 64);
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(dropped.rotates(i), i < 48) << i;
        EXPECT_EQ(dropped.inv_freq[static_cast<std::size_t>(i)], i < 48 ? rope.inv_freq[static_cast<std::size_t>(i)] : 0.0) << i;
    }
    EXPECT_NE(refusal([] { apply_comparison(LabParams{}, "nope"); }).find("built in: llama3.1-scaling"), std::string::npos);
}

TEST(Compare, EditsKeepTheSlotsPackedAndNamed) {
    LabParams p = with_compared(LabParams{}, {"llama2-7b", "llama3-8b", "mistral-7b"});
    EXPECT_EQ(setting_name(p, 2), "llama3-8b");
    EXPECT_EQ(setting_slug(p, 1), "llama2_7b");
    EXPECT_THROW(add_compared(p, duplicate_base(p)), InputError);
    remove_compared(p, 1);
    ASSERT_EQ(p.compared_count, 2);
    EXPECT_EQ(setting_name(p, 2), "mistral-7b");
    EXPECT_EQ(p.compared[2], ComparedSetting{});  // the freed slot is empty again
    move_compared(p, 1, -1);
    EXPECT_EQ(setting_name(p, 1), "mistral-7b");
    swap_with_base(p, 0);
    EXPECT_EQ(p.model, preset_or_throw("mistral-7b").config);
    EXPECT_EQ(setting_model(p, 1), preset_or_throw("textbook").config);
    EXPECT_EQ(setting_name(p, 1), "textbook");
    // Equal names still give distinct column prefixes.
    p.compared[1].name = "textbook";
    EXPECT_EQ(setting_slug(p, 2), "textbook_3");
}

TEST(Compare, CustomVectorsOnlyWhenHeadsAgree) {
    LabParams p = with_compared(LabParams{}, {"llama3-8b"});
    p.vectors = VectorChoice::Custom;
    EXPECT_NO_THROW(schema::validate(p));
    p = with_compared(p, {});
    EXPECT_EQ(p.compared_count, 0);
    EXPECT_NE(refusal([&] { with_compared(p, {"gemma3-4b"}); }).find("head_dim 256, the base 128"), std::string::npos);
}

TEST(Compare, SessionsAndShareStringsCarryTheSettings) {
    LabParams p = apply_comparison(LabParams{}, "llama3.1-scaling");
    p.compared[1].colour = SettingColour::Vermillion;
    p.base_name = "Meta's llama3";
    p.compared[2].model.rope_theta = 123456.5;
    Session s;
    s.params = p;
    std::vector<std::string> warnings;
    EXPECT_EQ(session_from_json(session_to_json(s), warnings).params, p);
    EXPECT_EQ(session_from_share_string(share_string(s), warnings).params, p);
    EXPECT_TRUE(warnings.empty());
    // Empty slots are not written.
    Session two;
    two.params = with_compared(LabParams{}, {"llama3-8b"});
    const std::string json = session_to_json(two);
    EXPECT_NE(json.find("\"1\""), std::string::npos);
    EXPECT_EQ(json.find("\"2\""), std::string::npos);
    EXPECT_EQ(session_from_json(json, warnings).params, two.params);
    // A compared model out of range is refused, naming its field.
    const std::string bad = std::string(json).replace(json.find("500000"), 6, "-5");
    EXPECT_NE(refusal([&] { session_from_json(bad, warnings); }).find("compare.1.model.rope_theta = -5"), std::string::npos);
}

TEST(Compare, LessonsAddRemoveAndMoveComparedSettings) {
    const Lesson lesson = parse_lesson(R"({"scenes": [
        {"title": "two", "caption": "c", "views": [3], "set": {"compare": ["rope_type=yarn,factor=8,name=YaRN"], "preset": "llama3-8b"},
         "keyframes": [{"param": "compare1.theta", "from": 10000, "to": 1000000, "duration": 2, "log": true}]},
        {"title": "built in", "caption": "c", "views": [6], "set": {"comparison": "gemma3-layers"}},
        {"title": "none", "caption": "c", "views": [3]}]})", "test");
    const LabParams start = lesson_state(lesson, 0, 0.0, LabParams{});
    ASSERT_EQ(start.compared_count, 1);
    // Overrides apply to the scene's base (llama3-8b), whatever the key order in the file.
    EXPECT_EQ(start.model, preset_or_throw("llama3-8b").config);
    EXPECT_EQ(start.compared[0].model.rope_scaling.type, RopeType::Yarn);
    EXPECT_NEAR(start.compared[0].model.rope_theta, 10000.0, 1e-9);
    EXPECT_NEAR(lesson_state(lesson, 0, 2.0, LabParams{}).compared[0].model.rope_theta, 1e6, 1e-6);
    EXPECT_NEAR(lesson_state(lesson, 0, 1.0, LabParams{}).compared[0].model.rope_theta, 1e5, 1e-6);
    EXPECT_EQ(lesson_state(lesson, 1, 0.0, LabParams{}).compared_count, 1);
    EXPECT_EQ(lesson_state(lesson, 2, 0.0, start).compared_count, 0);  // a scene shows only what it names
    EXPECT_NE(refusal([] { parse_lesson(R"({"scenes": [{"title": "x", "caption": "c", "views": [3], "set": {"compare": ["rope_type=bad"]}}]})", "l.json"); })
                  .find("set.compare"),
              std::string::npos);
    EXPECT_NE(refusal([] { parse_lesson(R"({"scenes": [{"title": "x", "caption": "c", "views": [3], "set": {"comparison": "nope"}}]})", "l.json"); })
                  .find("unknown comparison"),
              std::string::npos);
}

}  // namespace
}  // namespace ropelab
