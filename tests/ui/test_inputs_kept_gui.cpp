// tests/ui: the window never replaces a file it read — a screenshot over the config it loaded,
// a script's output over the config or over the script itself, the Session panel saving onto a
// config — while saving the session the user opened onto itself still works. Driven through the
// real window (clicks and typing at the widgets' places).
#include "script.h"

namespace ropelab::ui_script {
namespace {

const std::string kConfig =
    R"({"model_type": "llama", "hidden_size": 512, "num_attention_heads": 8, "head_dim": 64, "rope_theta": 500000.0})";
const std::string kSession = R"({"ropelab_session": 2, "model": {"rope_theta": 5000}})";

bool message_has(const fs::path& widgets, const std::string& text) {
    for (const Json& w : read_json(widgets)) {
        if (w["kind"] == "message" && w["label"].get<std::string>().find(text) != std::string::npos) return true;
    }
    return false;
}

Json typed_into(const std::string& label, const std::string& text) {
    return Json::array({{{"click", label}, {"at", {0.1, 0.5}}}, {{"type", text}}});
}

TEST(InputsKeptGui, AScreenshotNeverReplacesAnInputOfTheWindow) {
    const fs::path dir = fresh_dir("kept_screenshot");
    std::string vector;
    for (int i = 0; i < 128; ++i) vector += std::to_string(i % 3) + " ";
    const std::string lesson = R"({"title": "t", "scenes": [{"title": "One", "caption": "c", "views": [3]}]})";
    struct Case {
        std::string option, name, text, what;
    };
    const Case cases[] = {{"--config", "c.png", kConfig, "config"},
                          {"--config", "c.json", kConfig, "config"},
                          {"--session", "s.png", kSession, "session"},
                          {"--lesson", "l.png", lesson, "lesson"},
                          {"--vectors custom --q @", "v.png", vector, "vector"}};
    for (const Case& c : cases) {
        test::write_file((dir / c.name).string(), c.text);
        const std::string space = c.option.ends_with("@") ? "" : " ";
        const test::Result r = test::run("gui --size 640x360 --frames 3 " + c.option + space + c.name + " --screenshot " + c.name,
                                         "cd '" + dir.string() + "' &&");
        EXPECT_EQ(r.status, 2) << c.option << ": " << r.err;
        EXPECT_NE(r.err.find("it is the " + c.what + " file " + c.name + " this run read"), std::string::npos) << r.err;
        EXPECT_EQ(test::slurp((dir / c.name).string()), c.text) << c.option;
    }
}

TEST(InputsKeptGui, AScriptNeverWritesOverTheConfigOrItself) {
    const fs::path dir = fresh_dir("kept_script");
    test::write_file((dir / "c.json").string(), kConfig);
    test::Result r = gui(dir, {{{"wait", 2}}, {{"state", "c.json"}}}, "--config c.json");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("it is the config file c.json this run read"), std::string::npos) << r.err;
    EXPECT_EQ(test::slurp((dir / "c.json").string()), kConfig);

    r = gui(dir, {{{"wait", 2}}, {{"state", "script.json"}}});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("it is the script file script.json this run read"), std::string::npos) << r.err;
    EXPECT_EQ(read_json(dir / "script.json"), Json::parse(R"([{"wait": 2}, {"state": "script.json"}])"));
}

// The one replacement allowed: the session the user opened, saved onto itself. A config of the
// same run typed as the session file is refused in the panel, and stays as it was.
TEST(InputsKeptGui, TheSessionPanelSavesTheOpenSessionButNeverTheConfig) {
    const fs::path dir = fresh_dir("kept_session");
    test::write_file((dir / "mine.ropelab").string(), kSession);
    test::write_file((dir / "c.json").string(), kConfig);
    Json script = Json::array({{{"wait", 2}}, {{"click", "Session"}}});
    for (const Json& s : typed_into("Session file", "mine.ropelab")) script.push_back(s);
    script.push_back({{"click", "Save session"}});
    script.push_back({{"wait", 2}});
    script.push_back({{"widgets", "saved.json"}});
    test::Result r = gui(dir, script, "--session mine.ropelab");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(message_has(dir / "saved.json", "saved mine.ropelab"));
    const Json saved = read_json(dir / "mine.ropelab");
    ASSERT_FALSE(saved.is_discarded());
    EXPECT_EQ(saved["model"]["rope_theta"], 5000.0) << "the session was saved whole, as opened";
    EXPECT_TRUE(saved.contains("ropelab_session"));

    script = Json::array({{{"wait", 2}}, {{"click", "Session"}}});
    for (const Json& s : typed_into("Session file", "c.json")) script.push_back(s);
    script.push_back({{"click", "Save session"}});
    script.push_back({{"wait", 2}});
    script.push_back({{"widgets", "refused.json"}});
    r = gui(dir, script, "--config c.json");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(message_has(dir / "refused.json", "it is the config file c.json this run read"));
    EXPECT_EQ(test::slurp((dir / "c.json").string()), kConfig);
}

}  // namespace
}  // namespace ropelab::ui_script
