// tests/ui: presenting with notes (`gui --presenter`): the audience window shows the lesson, the
// lecturer's window (the one the script drives) its console: notes, the next scene, a scene list,
// the time, buttons for the presenter's keys.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <set>
#include <thread>

#include "script.h"

namespace ropelab::ui_script {
namespace {

// The value of the first widget of that kind and label in a widget dump ("" when absent).
std::string value_of(const Json& widgets, const std::string& label) {
    for (const Json& w : widgets) {
        if (w["label"] == label) return w["value"];
    }
    return "";
}

bool has(const Json& widgets, const std::string& label) {
    return std::any_of(widgets.begin(), widgets.end(), [&](const Json& w) { return w["label"] == label; });
}

// Pixels that differ between two images of one size (by more than 8 in any channel).
std::size_t differing(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b) {
    std::size_t n = 0;
    for (std::size_t i = 0; i + 3 < std::min(a.size(), b.size()); i += 4) {
        for (int c = 0; c < 3; ++c) {
            if (std::abs(a[i + c] - b[i + c]) > 8) {
                ++n;
                break;
            }
        }
    }
    return n;
}

std::size_t colours(const std::vector<unsigned char>& rgba) {
    std::set<unsigned> seen;
    for (std::size_t i = 0; i + 3 < rgba.size(); i += 4) seen.insert(rgba[i] << 16 | rgba[i + 1] << 8 | rgba[i + 2]);
    return seen.size();
}

// → twice reaches scene 3, in the lab's state and in the console's words; a click in the scene
// list reaches scene 6; the audience's picture is drawn, differs between scenes, and B blanks it.
TEST(Presenter, KeysAndTheSceneListStepTheAudiencesLesson) {
    const fs::path dir = fresh_dir("presenter");
    const Json script = {
        {{"wait", 5}},
        {{"state", "s1.json"}},
        {{"key", "Right"}},
        {{"key", "Right"}},
        {{"wait", 3}},
        {{"state", "s3.json"}},
        {{"widgets", "w3.json"}},
        {{"screenshot", "a3.png"}, {"window", "audience"}},
        {{"click", "6. Only the distance matters"}},
        {{"wait", 3}},
        {{"widgets", "w6.json"}},
        {{"screenshot", "a6.png"}, {"window", "audience"}},
        {{"key", "B"}},
        {{"wait", 2}},
        {{"widgets", "wb.json"}},
        {{"screenshot", "blank.png"}, {"window", "audience"}},
        {{"screenshot", "lecturer.png"}},
    };
    const test::Result r = gui(dir, script, "--lesson builtin --presenter");
    ASSERT_EQ(r.status, 0) << r.err;

    const Json w3 = read_json(dir / "w3.json"), w6 = read_json(dir / "w6.json"), wb = read_json(dir / "wb.json");
    EXPECT_EQ(value_of(w3, "now 3/15"), "Adding changes lengths");
    EXPECT_TRUE(value_of(w3, "notes").starts_with("The classic fix adds a position vector")) << value_of(w3, "notes");
    EXPECT_EQ(value_of(w3, "next"), "Rotating one pair");
    EXPECT_EQ(value_of(w6, "now 6/15"), "Only the distance matters");
    EXPECT_EQ(value_of(w6, "next"), "Long-term decay");
    EXPECT_TRUE(has(wb, "audience: blank"));
    EXPECT_FALSE(has(w6, "audience: blank"));

    // The state is presenter mode's own at scene 3: the same keys in `--present` reach the same.
    const fs::path plain = fresh_dir("presenter_plain");
    const test::Result p = gui(plain, {{{"wait", 5}}, {{"key", "Right"}}, {{"key", "Right"}}, {{"wait", 3}}, {{"state", "s3.json"}}},
                               "--lesson builtin --present");
    ASSERT_EQ(p.status, 0) << p.err;
    EXPECT_EQ(session_of(dir / "s3.json"), session_of(plain / "s3.json"));
    EXPECT_NE(session_of(dir / "s3.json"), session_of(dir / "s1.json")) << "scene 3 sets the lab differently from scene 1";

    int w = 0, h = 0, w6px = 0, h6px = 0, wbpx = 0, hbpx = 0;
    const auto a3 = pixels(dir / "a3.png", w, h);
    const auto a6 = pixels(dir / "a6.png", w6px, h6px);
    const auto blank = pixels(dir / "blank.png", wbpx, hbpx);
    ASSERT_EQ(w, 1280);
    ASSERT_EQ(h, 720);
    ASSERT_EQ(a6.size(), a3.size());
    EXPECT_GT(colours(a3), 50u) << "the audience's scene 3 is drawn";
    EXPECT_GT(differing(a3, a6), static_cast<std::size_t>(w * h / 50)) << "scenes 3 and 6 look different";
    EXPECT_EQ(colours(blank), 1u) << "B leaves one colour on the audience's screen";

    int lw = 0, lh = 0;
    const auto lecturer = pixels(dir / "lecturer.png", lw, lh);
    EXPECT_EQ(lw, 1280);
    EXPECT_GT(colours(lecturer), 50u);
}

// The console's buttons, each clicked, each doing what its key does.
TEST(Presenter, TheConsolesButtons) {
    const fs::path dir = fresh_dir("presenter_buttons");
    const Json script = {
        {{"wait", 5}},
        {{"click", "Next →"}},
        {{"wait", 2}},
        {{"widgets", "next.json"}},
        {{"click", "← Previous"}},
        {{"wait", 2}},
        {{"widgets", "previous.json"}},
        {{"click", "Pause scene"}},
        {{"wait", 2}},
        {{"widgets", "paused.json"}},
        {{"click", "Resume scene"}},
        {{"click", "Blank"}},
        {{"wait", 2}},
        {{"widgets", "blank.json"}},
        {{"click", "Unblank"}},
        {{"wait", 2}},
        {{"widgets", "unblank.json"}},
        {{"wait", 120}},
        {{"widgets", "later.json"}},
        {{"click", "Reset"}},
        {{"wait", 1}},
        {{"widgets", "reset.json"}},
        {{"click", "End presenting"}},
        {{"wait", 3}},
        {{"widgets", "ended.json"}},
    };
    const test::Result r = gui(dir, script, "--lesson builtin --presenter");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(has(read_json(dir / "next.json"), "now 2/15"));
    EXPECT_TRUE(has(read_json(dir / "previous.json"), "now 1/15"));
    EXPECT_TRUE(has(read_json(dir / "paused.json"), "Resume scene"));
    EXPECT_TRUE(has(read_json(dir / "blank.json"), "audience: blank"));
    EXPECT_TRUE(has(read_json(dir / "blank.json"), "Unblank"));
    EXPECT_TRUE(has(read_json(dir / "unblank.json"), "audience"));
    // Fixed 1/60 s steps: 120 frames are two seconds on the presenting clock; Reset starts it at 0.
    bool two_seconds = false, zero = false;
    for (const Json& wd : read_json(dir / "later.json")) two_seconds |= wd["label"].get<std::string>().starts_with("Elapsed 00:0") && wd["value"] != "00:00";
    for (const Json& wd : read_json(dir / "reset.json")) zero |= wd["label"] == "Elapsed 00:00";
    EXPECT_TRUE(two_seconds);
    EXPECT_TRUE(zero);
    // Ended: the lab in this window again, the lesson still open (its bar's scene buttons).
    const Json ended = read_json(dir / "ended.json");
    EXPECT_FALSE(has(ended, "now 1/15"));
    EXPECT_TRUE(has(ended, "Next scene"));
    EXPECT_TRUE(has(ended, "scene 1/15"));
}

// The panel's Present with notes opens the console here.
TEST(Presenter, ThePanelsButtonPresentsWithNotes) {
    const fs::path dir = fresh_dir("presenter_panel");
    const test::Result r = gui(dir, {{{"wait", 3}}, {{"click", "Lesson"}}, {{"click", "Present with notes"}}, {{"wait", 4}}, {{"widgets", "w.json"}}});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(value_of(read_json(dir / "w.json"), "now 1/15"), "Attention alone ignores order");
}

// Every text in the console fits, at a laptop's and a projector's size and at UI scale 2.
TEST(Presenter, TextFitsTheLecturersWindow) {
    for (const std::string args : {"", "--size 1920x1080", "--ui-scale 2"}) {
        const fs::path dir = fresh_dir("presenter_fits");
        const Json script = {{{"wait", 5}}, {{"clipped", "c1.json"}}, {{"key", "End"}}, {{"wait", 3}}, {{"clipped", "c2.json"}}};
        const test::Result r = gui(dir, script, "--lesson builtin --presenter " + args);
        ASSERT_EQ(r.status, 0) << r.err;
        for (const char* f : {"c1.json", "c2.json"}) EXPECT_EQ(read_json(dir / f), Json::array()) << args << " " << f;
    }
}

int sh(const std::string& command) { return std::system(command.c_str()); }

// Keys pressed in the audience window, through the X server, reach the lab as the lecturer's do
// (a clicker may be paired with the projector's machine window).
TEST(Presenter, KeysInTheAudienceWindowStepScenes) {
    const fs::path dir = fresh_dir("presenter_audience_keys");
    const Json script = {{{"wait", 3}}, {{"widgets", "w.json"}}, {{"wait", 400}}, {{"widgets", "after.json"}}};
    std::ofstream(dir / "script.json") << script.dump(1);
    const pid_t pid = fork();
    if (pid == 0) {
        fs::current_path(dir);
        const int log = ::open((dir / "app.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(log, 1);
        dup2(log, 2);
        execl(ROPELAB_BINARY, ROPELAB_BINARY, "gui", "--size", "800x600", "--paused", "--lesson", "builtin", "--presenter",
              "--script", "script.json", static_cast<char*>(nullptr));
        _exit(127);
    }
    ASSERT_GT(pid, 0);
    const std::string window_file = (dir / "window.txt").string();
    ASSERT_EQ(sh("timeout 20 xdotool search --sync --onlyvisible --name 'ropelab — audience' > '" + window_file + "'"), 0);
    std::string window = test::slurp(window_file);
    window = window.substr(0, window.find('\n'));
    for (int i = 0; i < 200 && !fs::exists(dir / "w.json"); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_TRUE(fs::exists(dir / "w.json"));
    EXPECT_EQ(sh("xdotool key --window " + window + " Right Right"), 0);
    int status = 0;
    for (int i = 0; i < 3000 && waitpid(pid, &status, WNOHANG) == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (waitpid(pid, &status, WNOHANG) == 0) {
        kill(pid, SIGTERM);
        waitpid(pid, &status, 0);
        FAIL() << "the script did not finish";
    }
    ASSERT_TRUE(fs::exists(dir / "after.json")) << test::slurp((dir / "app.log").string());
    EXPECT_TRUE(has(read_json(dir / "w.json"), "now 1/15"));
    EXPECT_TRUE(has(read_json(dir / "after.json"), "now 3/15")) << "the audience window's keys were lost";
}

// --presenter without a lesson is refused before any window opens.
TEST(Presenter, NeedsALesson) {
    const test::Result r = test::run("gui --presenter --frames 2");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--presenter: needs --lesson"), std::string::npos) << r.err;
    const fs::path dir = fresh_dir("presenter_audience_shot");
    const test::Result shot = gui(dir, {{{"wait", 2}}, {{"screenshot", "a.png"}, {"window", "audience"}}});
    EXPECT_EQ(shot.status, 2) << "an audience screenshot without an audience window";
    EXPECT_NE(shot.err.find("no audience window"), std::string::npos) << shot.err;
    // "window" names which window a screenshot is of, and nothing else.
    for (const Json& step : {Json{{"key", "Right"}, {"window", "audience"}}, Json{{"screenshot", "a.png"}, {"window", "projector"}}}) {
        const test::Result bad = gui(fresh_dir("presenter_bad_window"), Json::array({step}));
        EXPECT_EQ(bad.status, 2) << step.dump();
        EXPECT_NE(bad.err.find("step 1"), std::string::npos) << bad.err;
        EXPECT_NE(bad.err.find("\"window\""), std::string::npos) << bad.err;
    }
}

}  // namespace
}  // namespace ropelab::ui_script
