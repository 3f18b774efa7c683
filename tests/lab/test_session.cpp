// Sessions: byte-identical round trips, share strings, unknown and invalid fields.
#include <gtest/gtest.h>

#include "core/error.h"
#include "core/presets.h"
#include "state/session.h"
#include "support/refusal.h"

namespace ropelab {
namespace {

Session sample() {
    Session s;
    s.params.model = preset_or_throw("llama3.1-8b").config;
    s.params.preset = "llama3.1-8b";
    s.params.position = 12345;
    s.params.focused_pair = 30;
    s.params.vectors = VectorChoice::MeanOfRandom;
    s.params.samples = 7;
    s.params.theme = Theme::Light;
    s.params.ui_scale = 2.0f;
    s.params.focused_view = 2;
    s.params.loop_from = 10;
    s.params.loop_to = 500;
    s.params.speed = 0.1;  // not exactly representable: must round-trip anyway
    s.plots["scores"] = plot::PlotState{{1.0, 2000.5}, {-3.25, 40.0}, true};
    return s;
}

TEST(Session, SaveLoadSaveIsByteIdentical) {
    const std::string first = session_to_json(sample());
    std::vector<std::string> warnings;
    const Session loaded = session_from_json(first, warnings);
    EXPECT_TRUE(warnings.empty());
    EXPECT_EQ(session_to_json(loaded), first);
    EXPECT_EQ(loaded.params.position, 12345);
    EXPECT_EQ(loaded.params.model.rope_scaling.type, RopeType::Llama3);
    EXPECT_EQ(*loaded.params.model.rope_scaling.original_max_position_embeddings, 8192);
    EXPECT_EQ(loaded.params.speed, 0.1);
    EXPECT_TRUE(loaded.plots.at("scores").user_view);
    EXPECT_EQ(loaded.plots.at("scores").x.max, 2000.5);
}

// A config's layer type, DeepSeek's rotary offset and YaRN's truncate travel with the session.
TEST(Session, ConfigReadingFieldsRoundTrip) {
    Session s = sample();
    s.params.preset = "tests/data/configs/gemma-3-4b-it-v5.json";
    s.params.layer_type = "sliding_attention";
    s.params.model.head_dim = 192;
    s.params.model.partial_rotary_factor = 64.0 / 192.0;
    s.params.model.rotary_offset = 128;
    s.params.model.rope_scaling = RopeScaling{};
    s.params.model.rope_scaling.type = RopeType::Yarn;
    s.params.model.rope_scaling.factor = 32.0;
    s.params.model.rope_scaling.truncate = false;
    s.params.focused_pair = 3;
    std::vector<std::string> warnings;
    const Session back = session_from_share_string(share_string(s), warnings);
    EXPECT_TRUE(warnings.empty());
    EXPECT_EQ(back.params.layer_type, "sliding_attention");
    EXPECT_EQ(back.params.model, s.params.model);
}

TEST(Session, DeepNestingAndDuplicatesAreNamed) {
    std::vector<std::string> warnings;
    const std::string deep = R"({"ropelab_session": 2, "view": )" + std::string(60000, '[') + std::string(60000, ']') + "}";
    EXPECT_THROW(session_from_json(deep, warnings), InputError);
    const Session dup = session_from_json(R"({"ropelab_session": 2, "ropelab_session": 2})", warnings);
    ASSERT_FALSE(warnings.empty());
    EXPECT_NE(warnings.front().find("duplicate key ropelab_session"), std::string::npos) << warnings.front();
}

TEST(Session, ShareStringRoundTrip) {
    const Session s = sample();
    const std::string share = share_string(s);
    EXPECT_EQ(share.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"), std::string::npos);
    std::vector<std::string> warnings;
    EXPECT_EQ(session_to_json(session_from_share_string(share, warnings)), session_to_json(s));
    EXPECT_EQ(base64url_decode(base64url_encode("θ = 10⁴ ✓")), "θ = 10⁴ ✓");
}

TEST(Session, UnknownFieldsAreNamedInWarnings) {
    std::string json = session_to_json(sample());
    json.insert(json.find("\"preset\""), "\"colour_scheme\": \"mauve\",\n  ");
    json.insert(json.find("\"pair\""), "\"zoom\": 3, ");
    std::vector<std::string> warnings;
    const Session s = session_from_json(json, warnings);
    ASSERT_EQ(warnings.size(), 2u);
    // In the order they appear in the file.
    EXPECT_EQ(warnings[0], "unknown field colour_scheme ignored");
    EXPECT_EQ(warnings[1], "unknown field focus.zoom ignored");
    EXPECT_EQ(s.params.position, 12345);
}

std::string error_of(const std::string& from, const std::string& to) {
    std::string json = session_to_json(sample());
    const auto at = json.find(from);
    if (at == std::string::npos) return "pattern not found: " + from;
    json.replace(at, from.size(), to);
    std::vector<std::string> warnings;
    return test::refusal([&] { session_from_json(json, warnings); });
}

TEST(Session, InvalidValuesAreRefusedWithTheField) {
    EXPECT_NE(error_of("\"pair\": 30", "\"pair\": 999").find("focus.pair"), std::string::npos);
    EXPECT_NE(error_of("\"ui_scale\": 2.0", "\"ui_scale\": 9.0").find("layout.ui_scale"), std::string::npos);
    EXPECT_NE(error_of("\"rope_theta\": 500000.0", "\"rope_theta\": 0.5").find("rope_theta"), std::string::npos);
    EXPECT_NE(error_of("\"theme\": \"light\"", "\"theme\": \"neon\"").find("neon"), std::string::npos);
    EXPECT_NE(error_of("\"position\": 12345", "\"position\": \"far\"").find("focus.position"), std::string::npos);
    EXPECT_NE(error_of("\"ropelab_session\": 1", "\"ropelab_session\": 99").find("ropelab_session"), std::string::npos);
    EXPECT_NE(error_of("{", "[").find("session"), std::string::npos);
    EXPECT_NE(error_of("\"position\": 12345", "\"position\": 1e99999").find("not valid JSON"), std::string::npos);
    // Found by fuzz_session: a huge number for an integer field was undefined behaviour.
    EXPECT_NE(error_of("\"pair\": 30", "\"pair\": 7.7e61").find("focus.pair"), std::string::npos);
    EXPECT_NE(error_of("\"pair\": 30", "\"pair\": 2.5").find("whole number"), std::string::npos);
    // Found by fuzz_session in an array: the playback loop's bounds.
    const std::string huge_loop = error_of("\"loop_to\": 500", "\"loop_to\": 4.09e73");
    EXPECT_NE(huge_loop.find("playback.loop_to = 4.09e+73 is out of range"), std::string::npos) << huge_loop;
    std::vector<std::string> warnings;
    EXPECT_THROW(session_from_share_string("not*base64", warnings), InputError);
}

// A session naming a preset but no model used to keep the textbook model under the preset's
// name (exports said llama3-8b over θ = 10000). It now carries the preset's model, or is refused
// when the name is no built-in preset.
TEST(Session, APresetWithoutAModelLoadsThePresetsModel) {
    std::vector<std::string> warnings;
    const Session s = session_from_json(R"({"ropelab_session": 2, "preset": "llama3-8b", "focus": {"pair": 70}})", warnings);
    const ModelConfig& expected = preset_or_throw("llama3-8b").config;
    EXPECT_EQ(s.params.preset, "llama3-8b");
    EXPECT_EQ(s.params.model.rope_theta, 500000.0);
    EXPECT_EQ(s.params.model.rope_theta, expected.rope_theta);
    EXPECT_EQ(s.params.model.head_dim, expected.head_dim);
    EXPECT_EQ(s.params.focused_pair, 63);  // kept inside the preset's 64 pairs
    // A model given beside the preset is the model used, as saved sessions have it.
    const Session own = session_from_json(R"({"ropelab_session": 2, "preset": "llama3-8b", "model": {"rope_theta": 1234}})", warnings);
    EXPECT_EQ(own.params.model.rope_theta, 1234.0);
    const std::string e = test::refusal([&] { session_from_json(R"({"ropelab_session": 2, "preset": "my-model.json"})", warnings); });
    EXPECT_NE(e.find("model"), std::string::npos) << e;
    EXPECT_NE(e.find("\"my-model.json\" is not a built-in preset"), std::string::npos) << e;
}

}  // namespace
}  // namespace ropelab
