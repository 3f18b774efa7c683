// tests/ui: files handed to the lab the ways a desktop hands them over — dropped on the window,
// or named on the command line by a double-click — open as what their content says they are.
#include "script.h"

namespace ropelab::ui_script {
namespace {

const std::string kFocusedSession = R"({"ropelab_session": 2, "model": {"rope_theta": 5000}, "layout": {"focused_view": 2}})";
const std::string kLesson =
    R"({"title": "A talk", "scenes": [{"title": "Dropped scene", "caption": "Opened by its content.", "views": [3]}]})";

bool any_label(const fs::path& widgets, const std::string& text) {
    for (const Json& w : read_json(widgets)) {
        if (w["label"].get<std::string>().find(text) != std::string::npos) return true;
    }
    return false;
}

TEST(OpenFiles, DroppedSessionConfigAndLessonOpenAsWhatTheyAre) {
    const fs::path dir = fresh_dir("open_files");
    test::write_file((dir / "lecture.ropelab").string(), kFocusedSession);
    test::write_file((dir / "talk.json").string(), kLesson);  // a lesson under a plain .json name
    const std::string config = std::string(ROPELAB_SOURCE_DIR) + "/tests/data/configs/qwen2.5-7b-instruct.json";
    const Json script = {
        {{"wait", 2}},
        {{"drop", (dir / "lecture.ropelab").string()}},
        {{"wait", 3}},
        {{"state", "session.json"}},
        {{"widgets", "session_widgets.json"}},
        {{"drop", config}},
        {{"wait", 3}},
        {{"state", "config.json"}},
        {{"drop", (dir / "talk.json").string()}},
        {{"wait", 3}},
        {{"widgets", "lesson_widgets.json"}},
    };
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    const Json session = session_of(dir / "session.json");
    EXPECT_EQ(session["model"]["rope_theta"], 5000.0) << session.dump();
    EXPECT_EQ(session["layout"]["focused_view"], 2);
    EXPECT_TRUE(any_label(dir / "session_widgets.json", "opened " + (dir / "lecture.ropelab").string()));
    const Json qwen = session_of(dir / "config.json");
    EXPECT_EQ(qwen["model"]["rope_theta"], 1e6);
    EXPECT_EQ(qwen["model"]["layout"], "half");
    EXPECT_TRUE(any_label(dir / "lesson_widgets.json", "Dropped scene"));
}

// `ropelab gui FILE` (what the desktop entry runs) with a model config: it opens as one; a file
// that is no JSON is refused naming it, exit 2, before any window.
TEST(OpenFiles, APositionalConfigOpensAsTheModel) {
    const fs::path dir = fresh_dir("open_config");
    const std::string config = std::string(ROPELAB_SOURCE_DIR) + "/tests/data/configs/qwen2.5-7b-instruct.json";
    test::Result r = gui(dir, Json::array({{{"wait", 2}}, {{"state", "state.json"}}}), "'" + config + "'");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(session_of(dir / "state.json")["model"]["rope_theta"], 1e6);
    test::write_file((dir / "notes.txt").string(), "my notes, not a lab file");
    r = gui(dir, Json::array({{{"wait", 2}}}), "'" + (dir / "notes.txt").string() + "'");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find((dir / "notes.txt").string()), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ropelab::ui_script
