// The lab state's schema: one row per field, the same ranges and the same words at every door.
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"
#include "core/presets.h"
#include "state/schema.h"
#include "state/session.h"
#include "lesson/lesson.h"
#include "support/refusal.h"

namespace ropelab {
namespace {

std::string refusal(const std::function<void()>& f) { return test::refusal(f, "(accepted)"); }

TEST(Schema, EveryFieldRoundTripsThroughItsText) {
    LabParams p;
    p.model = preset_or_throw("phi3-mini-128k").config;  // LongRoPE lists and optional fields given
    for (const schema::Field& f : schema::fields()) {
        const schema::Value v = f.get(p);
        if (std::holds_alternative<std::monostate>(v)) continue;
        LabParams q;
        q.model = p.model;
        schema::assign(q, f, schema::parse(f, schema::value_text(f, v)));
        EXPECT_EQ(f.get(q), v) << f.path;
    }
}

TEST(Schema, RangesAreFiniteAndBoundTheWork) {
    for (const schema::Field& f : schema::fields()) {
        if (f.kind == schema::Kind::Int || f.kind == schema::Kind::Real || f.kind == schema::Kind::List) {
            EXPECT_TRUE(std::isfinite(f.min) && std::isfinite(f.max) && f.min <= f.max) << f.path;
        }
        if (f.kind == schema::Kind::List) {
            EXPECT_GT(f.count, 0u) << f.path;
        }
        // The defaults are valid values.
        EXPECT_NO_THROW(schema::check(f, f.get(LabParams{}))) << f.path;
    }
    EXPECT_EQ(schema::by_path("model.head_dim")->max, 512);
    EXPECT_EQ(schema::by_path("curves.samples")->max, 65536);
    EXPECT_EQ(schema::by_path("curves.max_distance")->max, 16777216);
    EXPECT_NO_THROW(schema::validate(LabParams{}));
}

// samples = 2e9 froze the app from a session; every door now says the same words.
TEST(Schema, AValueOutOfRangeIsRefusedInTheSameWordsEverywhere) {
    const std::string words = "curves.samples = 2000000000 is out of range (1 .. 65536)";
    std::vector<std::string> warnings;
    EXPECT_NE(refusal([&] { session_from_json(R"({"ropelab_session": 2, "curves": {"samples": 2e9}})", warnings); }).find(words),
              std::string::npos);
    EXPECT_NE(refusal([&] { schema::parse(*schema::by_flag("--samples"), "2e9"); }).find(words), std::string::npos);
    const std::string lesson = R"({"scenes": [{"title": "T", "caption": "C", "views": [3], "set": {"samples": 2e9}}]})";
    const std::string in_lesson = refusal([&] { parse_lesson(lesson, "my.json"); });
    EXPECT_NE(in_lesson.find(words), std::string::npos) << in_lesson;
    EXPECT_NE(in_lesson.find("scene 1"), std::string::npos) << in_lesson;
    LabParams p;
    p.samples = 2000000000;
    EXPECT_NE(refusal([&] { schema::validate(p); }).find(words), std::string::npos);
}

TEST(Schema, HostileNumbersAreRefusedWithoutUndefinedConversions) {
    std::vector<std::string> warnings;
    for (const char* json : {R"({"ropelab_session": 2, "model": {"head_dim": 2e7}})",
                             R"({"ropelab_session": 2, "curves": {"invariance_distance": 9223372036854775807}})",
                             R"({"ropelab_session": 2, "curves": {"seed": 1e300}})",
                             R"({"ropelab_session": 2, "focus": {"position": -1}})",
                             R"({"ropelab_session": 2, "model": {"rope_theta": 1e400}})",
                             R"({"ropelab_session": 2, "model": {"rope_scaling": {"long_factor": [1, 2, "x"]}}})"}) {
        EXPECT_NE(refusal([&] { session_from_json(json, warnings); }), "(accepted)") << json;
    }
}

TEST(Schema, ResetRestoresEveryModelCurveAndPlaybackFieldAndKeepsTheDisplay) {
    LabParams p;
    p.model = preset_or_throw("llama3.1-8b").config;
    p.preset = "llama3.1-8b";
    p.vectors = VectorChoice::Custom;
    p.seed = 9;
    p.samples = 3;
    p.custom_q = "ones";
    p.angle_mode = AngleMode::Bf16;
    p.show_bound = false;
    p.invariance_distance = 77;
    p.focused_pair = 12;
    p.position = 5;
    p.key_distance = 40;
    p.speed = 8;
    p.loop_from = 3;
    p.playing = false;
    p.ui_scale = 2;
    p.theme = Theme::Light;
    p.focused_view = 4;
    const LabParams r = schema::reset(p);
    const LabParams fresh;
    for (const schema::Field& f : schema::fields()) {
        EXPECT_EQ(f.get(r), f.get(f.reset ? fresh : p)) << f.path;
    }
    EXPECT_EQ(r.model, fresh.model);
    EXPECT_EQ(r.ui_scale, 2.0f);
    EXPECT_EQ(r.theme, Theme::Light);
}

TEST(Schema, KeysArePerProduct) {
    LabParams p;
    const std::string data = schema::key(p, schema::Affects::Data), focus = schema::key(p, schema::Affects::Focus);
    LabParams q = p;
    q.focused_pair = 9;
    q.position = 1000;
    q.theme = Theme::Light;
    EXPECT_EQ(schema::key(q, schema::Affects::Data), data);
    EXPECT_NE(schema::key(q, schema::Affects::Focus), focus);
    q.model.rope_theta = 500000;
    EXPECT_NE(schema::key(q, schema::Affects::Data), data);
    // With q = k = the focused pair, the curves follow the focus.
    q.vectors = VectorChoice::FocusedPair;
    const std::string pair_data = schema::key(q, schema::Affects::Data);
    q.focused_pair = 3;
    EXPECT_NE(schema::key(q, schema::Affects::Data), pair_data);
}

// A head_dim keyframe passes odd sizes (rotary dim must be even): refused when the lesson loads,
// naming the scene, not half-way through a presentation.
TEST(Schema, KeyframesAreCheckedAllThroughTheScene) {
    const std::string lesson = R"({"scenes": [
        {"title": "Fine", "caption": "C", "views": [3]},
        {"title": "Grows", "caption": "C", "views": [3], "duration": 4,
         "keyframes": [{"param": "head_dim", "from": 64, "to": 128, "easing": "linear"}]}]})";
    const std::string e = refusal([&] { parse_lesson(lesson, "grow.json"); });
    EXPECT_NE(e.find("scene 2 (\"Grows\")"), std::string::npos) << e;
    EXPECT_NE(e.find("rotary dim"), std::string::npos) << e;
}

TEST(Schema, VersionOneSessionsStillOpen) {
    std::vector<std::string> warnings;
    const Session s = session_from_json(
        R"({"ropelab_session": 1, "curves": {"encoding": 0, "vectors": 2}, "playback": {"loop": [10, 500]}})", warnings);
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    EXPECT_EQ(s.params.encoding, Encoding::Rope);
    EXPECT_EQ(s.params.vectors, VectorChoice::MeanOfRandom);
    EXPECT_EQ(s.params.loop_from, 10);
    EXPECT_EQ(s.params.loop_to, 500);
}

}  // namespace
}  // namespace ropelab
