// Lessons: the built-in lesson, validation errors, keyframes and easing.
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"
#include "state/compare.h"
#include "state/schema.h"
#include "lesson/lesson.h"
#include "lesson/lesson_schema.h"
#include "support/refusal.h"

namespace ropelab {
namespace {

TEST(Lesson, BuiltinLessonFollowsTheSeeds) {
    const Lesson lesson = load_lesson("builtin");
    EXPECT_EQ(lesson.title, "RoPE from first principles");
    ASSERT_GE(lesson.scenes.size(), 10u);
    for (std::size_t i = 0; i < lesson.scenes.size(); ++i) {
        const Scene& s = lesson.scenes[i];
        EXPECT_FALSE(s.caption.empty()) << i;
        EXPECT_NO_THROW(lesson_state(lesson, static_cast<int>(i), s.duration / 2, LabParams{})) << s.title;
    }
    // Scene 14 sweeps the YaRN factor on a log scale from 1 to 32.
    const LabParams end = lesson_state(lesson, 13, 100.0, LabParams{});
    EXPECT_EQ(end.model.rope_scaling.type, RopeType::Yarn);
    EXPECT_EQ(*end.model.rope_scaling.factor, 32.0);
    // Scene 9 explains the decay: the phasor sum (view 9) beside the score (view 3), the linked Δ
    // swept from 0 to 400 so the chain curls as the score's cursor moves.
    const Scene& why = lesson.scenes[8];
    EXPECT_EQ(why.views, (std::vector<int>{2, 8}));
    EXPECT_FALSE(why.notes.empty());
    EXPECT_EQ(lesson_state(lesson, 8, 0.0, LabParams{}).key_distance, 0);
    EXPECT_EQ(lesson_state(lesson, 8, why.duration, LabParams{}).key_distance, 400);
    EXPECT_TRUE(lesson_state(lesson, 8, 1.0, LabParams{}).link_distance);
    // Scene 11, images have two directions: Qwen2-VL's chunked sections beside the same pairs
    // interleaved, on one 16×16 image (view 10); the query walks its row.
    const Scene& images = lesson.scenes[10];
    EXPECT_EQ(images.views, (std::vector<int>{9}));
    const LabParams start = lesson_state(lesson, 10, 0.0, LabParams{});
    EXPECT_EQ(start.model.multi_axis.rule, AxisRule::Sections);
    ASSERT_EQ(start.compared_count, 1);
    EXPECT_EQ(start.compared[0].model.multi_axis.rule, AxisRule::Interleaved);
    EXPECT_EQ(start.compared[0].model.rope_theta, start.model.rope_theta);
    EXPECT_EQ(start.grid_height, 16);
    // Scene 12, from scores to attention: the score curve (view 3) beside the attention view (11)
    // for 48 text tokens with the same q and k everywhere, so the matrix is the curve's Toeplitz.
    const Scene& attention = lesson.scenes[11];
    EXPECT_EQ(attention.title, "From scores to attention");
    EXPECT_EQ(attention.views, (std::vector<int>{2, 10}));
    const LabParams matrix = lesson_state(lesson, 11, 1.0, LabParams{});
    EXPECT_EQ(matrix.tokens, "text:48");
    EXPECT_EQ(matrix.token_vectors, TokenVectors::Same);
    EXPECT_EQ(start.query_column, 0);
    EXPECT_EQ(lesson_state(lesson, 10, images.duration, LabParams{}).query_column, 15);
}

TEST(Lesson, EasingIsExactAtTheEndsAndMonotone) {
    for (Easing e : {Easing::Linear, Easing::EaseIn, Easing::EaseOut, Easing::EaseInOut}) {
        EXPECT_EQ(ease(e, 0.0), 0.0);
        EXPECT_EQ(ease(e, 1.0), 1.0);
        double previous = 0.0;
        for (int k = 1; k <= 1000; ++k) {
            const double v = ease(e, k / 1000.0);
            EXPECT_GE(v, previous) << k;
            previous = v;
        }
    }
}

// A head_dim keyframe passes odd sizes on its way, even one too short for any time sample to
// land on them: refused when the lesson is read, naming the scene, keyframe, time and field.
TEST(Lesson, EveryWholeValueOfAKeyframeIsChecked) {
    const std::string text = R"({"scenes": [{"title": "grow", "caption": "c", "views": [3], "duration": 10,
        "keyframes": [{"param": "position", "from": 0, "to": 1000, "duration": 3},
                      {"param": "head_dim", "from": 64, "to": 66, "start": 5, "duration": 0.01}]}]})";
    try {
        parse_lesson(text, "l.json");
        FAIL() << "accepted";
    } catch (const InputError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("l.json: scene 1 (\"grow\"): keyframes[1] (head_dim 64 -> 66) at t = 5.005 s"), std::string::npos) << m;
        EXPECT_NE(m.find("head_dim 65"), std::string::npos) << m;
    }
    // Half a head rotating does not save it: 66 × 0.5 = 33 pairs' worth of odd components.
    const std::string even = R"({"scenes": [{"title": "g", "caption": "c", "views": [3], "duration": 2,
        "set": {"partial_rotary_factor": 0.5}, "keyframes": [{"param": "head_dim", "from": 64, "to": 68}]}]})";
    EXPECT_THROW(parse_lesson(even, "l.json"), InputError);
}

// A lesson is checked before a window opens: its size is bounded so that stays quick.
TEST(Lesson, SizeIsBoundedSoCheckingStaysQuick) {
    std::string scenes;
    for (int i = 0; i < 257; ++i) scenes += std::string(i ? "," : "") + R"({"title": "t", "caption": "c", "views": [3]})";
    const auto error_of = [](const std::string& text) { return test::refusal([&] { parse_lesson(text, "l.json"); }); };
    EXPECT_NE(error_of(R"({"scenes": [)" + scenes + "]}").find("257 scenes; a lesson has at most 256"), std::string::npos);
    std::string keyframes;
    for (int i = 0; i < 33; ++i) keyframes += std::string(i ? "," : "") + R"({"param": "position", "from": 0, "to": 9})";
    EXPECT_NE(error_of(R"({"scenes": [{"title": "t", "caption": "c", "views": [3], "keyframes": [)" + keyframes + "]}]}")
                  .find("33 keyframes; a scene has at most 32"),
              std::string::npos);
    // 256 scenes of 32 keyframes sweeping 1,025 context lengths each: refused by its cost, quickly.
    std::string big;
    std::string sweep;
    for (int k = 0; k < 32; ++k) sweep += std::string(k ? "," : "") + R"({"param": "max_position_embeddings", "from": 1000, "to": 2024})";
    for (int i = 0; i < 256; ++i) big += std::string(i ? "," : "") + R"({"title": "t", "caption": "c", "views": [3], "keyframes": [)" + sweep + "]}";
    EXPECT_NE(error_of(R"({"scenes": [)" + big + "]}").find("split the lesson"), std::string::npos);
}

TEST(Lesson, DuplicateKeysAreNamed) {
    const Lesson l = parse_lesson(R"({"title": "a", "title": "b", "scenes": [{"title": "t", "caption": "c", "views": [3]}]})", "l.json");
    EXPECT_EQ(l.title, "b");
    ASSERT_EQ(l.warnings.size(), 1u);
    EXPECT_EQ(l.warnings[0], "l.json: duplicate key title (the last value is used)");
}

TEST(Lesson, DeepNestingIsRefusedNotACrash) {
    const std::string deep = R"({"scenes": [{"title": "t", "caption": )" + std::string(60000, '[') + std::string(60000, ']') + "}]}";
    try {
        parse_lesson(deep, "deep.json");
        FAIL() << "accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("nested deeper than 256"), std::string::npos);
    }
}

Lesson one_scene(const std::string& keyframe) {
    return parse_lesson(R"({"scenes": [{"title": "t", "caption": "c", "views": [3], "duration": 4,
                            "keyframes": [)" + keyframe + "]}]}",
                        "test");
}

TEST(Lesson, KeyframesHitTheirValuesExactly) {
    const Lesson log = one_scene(R"({"param": "theta", "from": 1000, "to": 500000, "start": 1, "duration": 2})");
    EXPECT_EQ(lesson_state(log, 0, 0.0, {}).model.rope_theta, 1000.0);   // before the keyframe
    EXPECT_EQ(lesson_state(log, 0, 1.0, {}).model.rope_theta, 1000.0);   // its start
    EXPECT_EQ(lesson_state(log, 0, 3.0, {}).model.rope_theta, 500000.0); // its end
    EXPECT_EQ(lesson_state(log, 0, 4.0, {}).model.rope_theta, 500000.0); // held after
    // Log interpolation: the geometric midpoint at the middle (ease-in-out is 0.5 there).
    EXPECT_NEAR(lesson_state(log, 0, 2.0, {}).model.rope_theta, std::sqrt(1000.0 * 500000.0), 1e-6);
    double previous = 0;
    for (int k = 0; k <= 40; ++k) {
        const double v = lesson_state(log, 0, k / 10.0, {}).model.rope_theta;
        EXPECT_GE(v, previous);
        previous = v;
    }
    const Lesson linear = one_scene(R"({"param": "position", "from": 0, "to": 100, "easing": "linear"})");
    EXPECT_EQ(lesson_state(linear, 0, 1.0, {}).position, 25);
}

std::string error_of(const std::string& scene) {
    return test::refusal([&] { parse_lesson(R"({"scenes": [{"title": "Fine", "caption": "c", "views": [1]}, )" + scene + "]}", "my.json"); });
}

TEST(Lesson, ErrorsNameTheSceneAndTheField) {
    std::string e = error_of(R"({"title": "Broken", "caption": "c", "views": [13]})");
    EXPECT_NE(e.find("my.json"), std::string::npos) << e;
    EXPECT_NE(e.find("scene 2 (\"Broken\")"), std::string::npos) << e;
    EXPECT_NE(e.find("views"), std::string::npos) << e;
    e = error_of(R"({"title": "B", "views": [1]})");
    EXPECT_NE(e.find("\"caption\" is required"), std::string::npos) << e;
    e = error_of(R"({"title": "B", "caption": "c", "views": [1], "set": {"warp": 3}})");
    EXPECT_NE(e.find("set.warp"), std::string::npos) << e;
    e = error_of(R"({"title": "B", "caption": "c", "views": [1], "keyframes": [{"param": "theta", "from": 1, "to": 2, "easing": "bounce"}]})");
    EXPECT_NE(e.find("keyframes[0]"), std::string::npos) << e;
    EXPECT_NE(e.find("bounce"), std::string::npos) << e;
    e = error_of(R"({"title": "B", "caption": "c", "views": [1], "set": {"theta": 0.5}})");
    EXPECT_NE(e.find("rope_theta"), std::string::npos) << e;
    EXPECT_NE(e.find("scene 2"), std::string::npos) << e;
    e = error_of(R"({"title": "B", "caption": "c", "views": [1], "set": {"preset": "gpt-7"}})");
    EXPECT_NE(e.find("gpt-7"), std::string::npos) << e;
    EXPECT_THROW(load_lesson("/no/such/lesson.json"), InputError);
    // Found by fuzz_lesson: a field of the wrong type read with a default used to escape as a
    // JSON type_error; now it is refused like any other mistake, naming the scene and field.
    e = error_of(R"({"title": "B", "caption": "c", "views": [1], "annotations": [{"text": "t", "at": 5}]})");
    EXPECT_NE(e.find("scene 2"), std::string::npos) << e;
    EXPECT_NE(e.find("\"at\" must be one of label, distance, pair, cell (got 5)"), std::string::npos) << e;
    e = error_of(R"({"title": "B", "caption": "c", "views": [1], "keyframes": [{"param": "theta", "from": 1, "to": 2, "easing": 3}]})");
    EXPECT_NE(e.find("keyframes"), std::string::npos) << e;
}


// Speaker notes: optional text, kept as written (the presenter window shows them); refused when
// not text or longer than a page, naming the scene.
TEST(Lesson, SpeakerNotesAreReadAndChecked) {
    const Lesson lesson = parse_lesson(
        R"({"scenes": [{"title": "A", "caption": "c", "views": [3], "notes": "Ask: what happens at Δ = 4096?"},
                       {"title": "B", "caption": "c", "views": [3]}]})",
        "n.json");
    EXPECT_EQ(lesson.scenes[0].notes, "Ask: what happens at Δ = 4096?");
    EXPECT_EQ(lesson.scenes[1].notes, "");
    std::string e = error_of(R"({"title": "B", "caption": "c", "views": [1], "notes": 7})");
    EXPECT_NE(e.find("scene 2 (\"B\"): \"notes\" must be text"), std::string::npos) << e;
    e = error_of(R"({"title": "B", "caption": "c", "views": [1], "notes": ")" + std::string(9000, 'x') + R"("})");
    EXPECT_NE(e.find("\"notes\" has 9000 characters (at most 8192)"), std::string::npos) << e;
}

// Titles, captions and notes are limited in characters (UTF-8 code points), as the message says
// and as the Lesson panel's fields hold them (lesson_schema.h): 8192 two-byte characters are a
// caption, one more is refused, naming the scene, the field and the count.
TEST(Lesson, TextLimitsCountCharactersNotBytes) {
    std::string e_acute;
    for (std::size_t i = 0; i < lesson_schema::scene::caption.limit; ++i) e_acute += "\u00e9";
    const Lesson lesson = parse_lesson(R"({"scenes": [{"title": "A", "caption": ")" + e_acute + R"(", "views": [3]}]})", "c.json");
    EXPECT_EQ(lesson.scenes[0].caption, e_acute);
    std::string e = error_of(R"({"title": "B", "caption": ")" + e_acute + "x" + R"(", "views": [1]})");
    EXPECT_NE(e.find("my.json: scene 2 (\"B\"): \"caption\" has 8193 characters (at most 8192)"), std::string::npos) << e;
    e = error_of(R"({"title": ")" + std::string(17000, 't') + R"(", "caption": "c", "views": [1]})");
    EXPECT_NE(e.find("\"title\" has 17000 characters (at most 512)"), std::string::npos) << e;
    EXPECT_LT(e.size(), 400u) << "the scene's name in the message is an excerpt of its title";
    std::string notes;
    for (int i = 0; i < 8192; ++i) notes += "\u65e5";  // three bytes each
    EXPECT_EQ(parse_lesson(R"({"scenes": [{"title": "A", "caption": "c", "views": [3], "notes": ")" + notes + R"("}]})", "n.json")
                  .scenes[0].notes, notes);
}

// A scene lists each view once: [3, 3] opened a window that then exited 3 (issue 34); "hide" too.
TEST(Lesson, AViewListedTwiceIsRefused) {
    std::string e = error_of(R"({"title": "B", "caption": "c", "views": [3, 3]})");
    EXPECT_NE(e.find("my.json: scene 2 (\"B\"): \"views\" lists view 3 twice"), std::string::npos) << e;
    e = error_of(R"({"title": "B", "caption": "c", "views": [1, 2, 1, 4]})");
    EXPECT_NE(e.find("\"views\" lists view 1 twice"), std::string::npos) << e;
    e = error_of(R"({"title": "B", "caption": "c", "views": [3, 5], "hide": [3, 3]})");
    EXPECT_NE(e.find("\"hide\" lists view 3 twice"), std::string::npos) << e;
}

// Every state of a scene is checked against its token layout, as the attention view and export
// read it: a needle set, or moved by a keyframe, past the layout's tokens is refused naming the
// file, the scene, the keyframe, the field and the value; a layout the attention view cannot
// take is refused in a scene that shows it.
TEST(Lesson, NeedlesAndLayoutsAreCheckedOverTheWholeTimeline) {
    std::string e = error_of(
        R"({"title": "N", "caption": "c", "views": [11], "set": {"tokens": "text:8", "token_vectors": "needle", "needle": 100}})");
    EXPECT_NE(e.find("my.json: scene 2 (\"N\"): at t = 0 s: attention.needle: token 100 is past the layout's 8 tokens "
                     "(images.tokens \"text:8\")"),
              std::string::npos)
        << e;
    e = error_of(R"({"title": "K", "caption": "c", "views": [3], "set": {"tokens": "text:8", "token_vectors": "needle", "needle": 0},
                    "keyframes": [{"param": "needle", "from": 0, "to": 20}]})");
    EXPECT_NE(e.find("my.json: scene 2 (\"K\"): keyframes[0] (needle 0 -> 20) at t = 4 s: attention.needle: token 20 is past the "
                     "layout's 8 tokens"),
              std::string::npos)
        << e;
    // The default layout (text:4,image:1x8x12,text:3, merged 2 × 2) has 33 tokens: needle 32 is its last.
    EXPECT_NO_THROW(parse_lesson(R"({"scenes": [{"title": "A", "caption": "c", "views": [11], "set": {"token_vectors": "needle",
                                   "needle": 32}}]})", "ok.json"));
    e = error_of(R"({"title": "D", "caption": "c", "views": [11], "set": {"token_vectors": "needle", "needle": 33}})");
    EXPECT_NE(e.find("token 33 is past the layout's 33 tokens"), std::string::npos) << e;
    e = error_of(R"({"title": "L", "caption": "c", "views": [11], "set": {"tokens": "text:70000"}})");
    EXPECT_NE(e.find("scene 2 (\"L\"): at t = 0 s: images.tokens: \"text:70000\" has 70000 tokens; the attention view takes at most "
                     "65536"),
              std::string::npos)
        << e;
    // Not shown, the attention view's limit does not apply; the layout's own (2^20 tokens) does.
    EXPECT_NO_THROW(parse_lesson(R"({"scenes": [{"title": "A", "caption": "c", "views": [3], "set": {"tokens": "text:70000"}}]})",
                                 "ok.json"));
}


// A scene without `set` is checked as it plays: over the lesson's first state (scene 1's set on
// the defaults), so scene 1's 70,000-token layout reaches scene 2's attention view and is refused
// there; a scene with its own `set` is read over the defaults.
TEST(Lesson, ASceneWithoutSetIsCheckedAgainstTheFirstState) {
    const std::string first = R"({"title": "Long", "caption": "c", "views": [3], "set": {"tokens": "text:70000", "theta": 500}})";
    std::string e;
    try {
        parse_lesson(R"({"scenes": [)" + first + R"(, {"title": "Attend", "caption": "c", "views": [11]}]})", "first.json");
    } catch (const InputError& error) {
        e = error.what();
    }
    EXPECT_NE(e.find("first.json: scene 2 (\"Attend\"): at t = 0 s: images.tokens: \"text:70000\" has 70000 tokens"), std::string::npos)
        << e;
    const Lesson lesson = parse_lesson(R"({"scenes": [)" + first + R"(, {"title": "Same", "caption": "c", "views": [2]},
        {"title": "Own", "caption": "c", "views": [2], "set": {"position": 7}}]})", "first.json");
    const LabParams state = lesson_first_state(lesson);
    EXPECT_EQ(state.model.rope_theta, 500.0);
    EXPECT_EQ(state.tokens, "text:70000");
    EXPECT_EQ(&scene_base(lesson, 1, state), &state) << "no set: the first state";
    EXPECT_EQ(scene_base(lesson, 2, state), LabParams{}) << "its own set: the defaults";
    EXPECT_EQ(lesson_state(lesson, 1, 0.0, scene_base(lesson, 1, state)).model.rope_theta, 500.0);
    EXPECT_EQ(lesson_state(lesson, 2, 0.0, scene_base(lesson, 2, state)).model.rope_theta, LabParams{}.model.rope_theta);
}

// "hide": views among the scene's own whose curves wait for R; refused otherwise, naming the scene.
TEST(Lesson, HiddenViewsAreReadAndChecked) {
    const Lesson lesson = parse_lesson(R"({"scenes": [{"title": "A", "caption": "c", "views": [1, 3], "hide": [3]}]})", "h.json");
    EXPECT_EQ(lesson.scenes[0].hide, std::vector<int>{2});
    EXPECT_EQ(lesson_state(lesson, 0, 0.0, LabParams{}).hidden_views, std::vector<int>{});  // the lab sets it, not the state
    std::string e = error_of(R"({"title": "B", "caption": "c", "views": [1], "hide": [3]})");
    EXPECT_NE(e.find("scene 2 (\"B\"): \"hide\" has 3, a view the scene does not show"), std::string::npos) << e;
    e = error_of(R"({"title": "B", "caption": "c", "views": [1], "hide": [13]})");
    EXPECT_NE(e.find("\"hide\" has 13 (views are 1-12)"), std::string::npos) << e;
    e = error_of(R"({"title": "B", "caption": "c", "views": [2, 3], "hide": [2]})");
    EXPECT_NE(e.find("\"hide\" has 2: that view cannot hide its curves (views 1, 3, 9 can)"), std::string::npos) << e;
    EXPECT_EQ(parse_lesson(R"({"scenes": [{"title": "A", "caption": "c", "views": [9], "hide": [9]}]})", "h.json").scenes[0].hide,
              std::vector<int>{8});
    e = error_of(R"({"title": "B", "caption": "c", "views": [1], "hide": 1})");
    EXPECT_NE(e.find("\"hide\" must list"), std::string::npos) << e;
    // The built-in lesson asks once: scene 8 hides the score until R.
    const Lesson builtin = load_lesson("builtin");
    int hiding = 0;
    for (const Scene& scene : builtin.scenes) hiding += scene.hide.empty() ? 0 : 1;
    EXPECT_EQ(hiding, 1);
    EXPECT_EQ(builtin.scenes[7].hide, std::vector<int>{2});
    EXPECT_EQ(builtin.scenes[7].views, std::vector<int>{2});
}

// The writer is the parser's inverse: the built-in lesson, written and read back, is the same
// lesson in every field of every scene, and plays the same states.
TEST(LessonWriter, BuiltinLessonRoundTrips) {
    const Lesson original = load_lesson("builtin");
    const std::string json = lesson_to_json(original);
    const Lesson back = parse_lesson(json, "written.json");
    EXPECT_EQ(back.title, original.title);
    ASSERT_EQ(back.scenes.size(), original.scenes.size());
    for (std::size_t i = 0; i < original.scenes.size(); ++i) {
        EXPECT_TRUE(back.scenes[i] == original.scenes[i]) << "scene " << i + 1 << ": " << original.scenes[i].title;
        for (double t : {0.0, 0.37 * original.scenes[i].duration, 100.0}) {
            EXPECT_TRUE(lesson_state(back, static_cast<int>(i), t, LabParams{}) == lesson_state(original, static_cast<int>(i), t, LabParams{}))
                << "scene " << i + 1 << " at t = " << t;
        }
    }
    // Written again, byte for byte the same text.
    EXPECT_EQ(lesson_to_json(back), json);
}

// A scene recorded from a state plays that state back over the defaults, field by field, also
// where a preset was loaded and a field then set back to the default value.
TEST(LessonWriter, RecordedSceneReplaysTheState) {
    LabParams state;
    schema::assign_text(state, *schema::by_lesson_name("preset"), "llama3-8b");
    state.model.rope_theta = 10000.0;  // the default's value, not the preset's 500000
    state.position = 77;
    state.key_distance = 9;
    state.encoding = Encoding::Rope;
    state.vectors = VectorChoice::Random;
    state.seed = 42;
    state.log_distance = true;
    state.show_bound = false;
    state.max_distance = 8192;
    state.focused_pair = 5;
    state.spotlight = 3;
    Lesson lesson{.title = "t", .scenes = {scene_of_state(state)}, .warnings = {}};
    const Lesson back = parse_lesson(lesson_to_json(lesson), "r.json");
    const LabParams played = lesson_state(back, 0, back.scenes[0].duration, LabParams{});
    EXPECT_EQ(lesson_differences(played, state), std::vector<std::string>{});
    EXPECT_EQ(played.model.rope_theta, 10000.0);
    EXPECT_EQ(played.preset, "llama3-8b");
    EXPECT_EQ(played.position, 77);
    // A state equal to the defaults needs no settings at all.
    EXPECT_TRUE(scene_of_state(LabParams{}).set.empty());
}

// Recorded with an animation: keyframes from the previous state to this one over T seconds;
// θ moves on a log scale, so halfway (smoothstep(0.5) = 0.5) it is the geometric mean.
TEST(LessonWriter, AnimatedSceneMovesFromThePreviousState) {
    LabParams from, to;
    to.model.rope_theta = 1e6;
    to.position = 40;
    to.key_distance = 3;
    from.position = 10;
    Scene s = scene_of_state(to, &from, 2.0);
    ASSERT_EQ(s.keyframes.size(), 2u);
    Lesson lesson{.title = "t", .scenes = {s}, .warnings = {}};
    const Lesson back = parse_lesson(lesson_to_json(lesson), "a.json");
    EXPECT_EQ(back.scenes[0].keyframes, s.keyframes);
    const LabParams start = lesson_state(back, 0, 0.0, LabParams{});
    EXPECT_EQ(start.model.rope_theta, 10000.0);
    EXPECT_EQ(start.position, 10);
    EXPECT_NEAR(lesson_state(back, 0, 1.0, LabParams{}).model.rope_theta, 1e5, 1e-6);
    EXPECT_EQ(lesson_state(back, 0, 1.0, LabParams{}).position, 25);
    EXPECT_EQ(lesson_differences(lesson_state(back, 0, 2.0, LabParams{}), to), std::vector<std::string>{});
}

// Compare mode is recorded as the compared settings' SPECs: a preset and an override of the base
// play back to the same compared models.
TEST(LessonWriter, ComparedSettingsReplay) {
    const LabParams state = with_compared(LabParams{}, {"llama3-8b", "theta=500000,name=wide"});
    const Scene s = scene_of_state(state);
    Lesson lesson{.title = "t", .scenes = {s}, .warnings = {}};
    const Lesson back = parse_lesson(lesson_to_json(lesson), "c.json");
    const LabParams played = lesson_state(back, 0, back.scenes[0].duration, LabParams{});
    EXPECT_EQ(played.compared_count, 2);
    EXPECT_EQ(lesson_differences(played, state), std::vector<std::string>{});
    EXPECT_TRUE(played.compared == state.compared);
}

// An annotation's coordinates are refused outside what they mean (a cell's y = 1e300 used to
// reach the heatmap's drawing and crash the render); the message names the file, field and value.
TEST(Lesson, AnnotationCoordinatesOutOfRangeAreRefused) {
    struct Case {
        std::string annotation, words;
    };
    const Case cases[] = {
        {R"({"text": "t", "view": 5, "at": "cell", "x": 3, "y": 1e300})", "\"y\" = 1e+300 is out of range for at = \"cell\""},
        {R"({"text": "t", "view": 5, "at": "cell", "x": 3, "y": -1})", "\"y\" = -1 is out of range"},
        {R"({"text": "t", "view": 5, "at": "cell", "x": 3, "y": 2147483648})", "\"y\" = 2147483648 is out of range"},
        {R"({"text": "t", "view": 5, "at": "cell", "x": 256, "y": 0})", "\"x\" = 256 is out of range"},
        {R"({"text": "t", "view": 5, "at": "cell", "x": 0.5, "y": 0})", "\"x\" = 0.5 is out of range"},
        {R"({"text": "t", "view": 1, "at": "pair", "x": -3})", "\"x\" = -3 is out of range for at = \"pair\""},
        {R"({"text": "t", "view": 3, "at": "distance", "x": 1e20})", "\"x\" = 1e+20 is out of range"},
        {R"({"text": "t", "view": 3, "at": "label", "x": 0.5, "y": 7})", "\"y\" = 7 is out of range for at = \"label\""},
        {R"({"text": "t", "view": 2.5})", "\"view\" = 2.5 must be a whole number 1-12"},
        {R"("just text")", "annotations[0]: must be an object"},
    };
    for (const Case& c : cases) {
        const std::string e = error_of(R"({"title": "B", "caption": "c", "views": [1], "annotations": [)" + c.annotation + "]}");
        EXPECT_NE(e.find("my.json: scene 2 (\"B\"): annotations[0]"), std::string::npos) << e;
        EXPECT_NE(e.find(c.words), std::string::npos) << c.annotation << ": " << e;
    }
    // The edges are accepted.
    EXPECT_EQ(error_of(R"({"title": "B", "caption": "c", "views": [5], "annotations": [{"text": "t", "view": 5, "at": "cell", "x": 255, "y": 2147483647}]})"), "");
}

}  // namespace
}  // namespace ropelab

namespace ropelab {
namespace {

// The tenth view (scores over an image) is a view a scene may show, annotate and spotlight.
TEST(Lesson, SceneMayShowTheTenthView) {
    const Lesson l = parse_lesson(R"({"scenes": [{"title": "Image", "caption": "c", "views": [3, 10],
        "annotations": [{"text": "t", "view": 10}]}]})", "ten.json");
    ASSERT_EQ(l.scenes.size(), 1u);
    EXPECT_EQ(l.scenes[0].views, (std::vector<int>{2, 9}));
    ASSERT_EQ(l.scenes[0].annotations.size(), 1u);
    EXPECT_EQ(l.scenes[0].annotations[0].view, 9);
}

}  // namespace
}  // namespace ropelab
