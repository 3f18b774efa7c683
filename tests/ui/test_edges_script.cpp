// tests/ui through `gui --script` and xdotool: where the lab's messages show, views 2 and 4 picking
// their setting in compare mode, and the presenter's S tapped faster than a frame.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "script.h"

namespace ropelab::ui_script {
namespace {

const Json* find(const Json& widgets, const std::string& label, const std::string& kind = "") {
    for (const Json& w : widgets) {
        if (w["label"] == label && (kind.empty() || w["kind"] == kind)) return &w;
    }
    return nullptr;
}

// The widgets of `kind` whose label holds `part`.
std::vector<Json> with_text(const Json& widgets, const std::string& part, const std::string& kind) {
    std::vector<Json> out;
    for (const Json& w : widgets) {
        if (w["kind"] == kind && w["label"].get<std::string>().find(part) != std::string::npos) out.push_back(w);
    }
    return out;
}

double bottom(const Json& w) { return w["y"].get<double>() + w["h"].get<double>(); }

// A share string that is not JSON, opened from the Session section: the refusal shows right under
// its button and in the status line at the window's bottom, in the app's words (no library tag),
// and goes at the next change made after it was read. A lesson opened twice says it opened, never "closed".
TEST(Messages, ShowBesideTheirControlAndAtTheBottomInTheLabsWords) {
    const fs::path dir = fresh_dir("messages");
    const Json script = {
        {{"wait", 3}},
        {{"click", "Session"}},
        {{"click", "Share string"}},
        {{"type", "{x"}},
        {{"click", "Open share string"}},
        {{"wait", 3}},
        {{"widgets", "refused.json"}},
        {{"screenshot", "refused.png"}},
        {{"wait", 120}},  // two seconds of reading
        {{"click", "log Δ axis"}},
        {{"wait", 3}},
        {{"widgets", "changed.json"}},
        {{"click", "Lesson"}},
        {{"click", "Open lesson"}},
        {{"wait", 3}},
        {{"click", "Open lesson"}},
        {{"wait", 3}},
        {{"widgets", "lesson.json"}},
        {{"screenshot", "lesson.png"}},
    };
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err << r.out;

    const Json refused = read_json(dir / "refused.json");
    const Json* button = find(refused, "Open share string", "button");
    ASSERT_NE(button, nullptr);
    const auto messages = with_text(refused, "Refused", "message");
    ASSERT_EQ(messages.size(), 1u) << "one refusal, beside its button";
    const Json& message = messages[0];
    EXPECT_TRUE(message["visible"].get<bool>()) << "the panel scrolls to a new message";
    EXPECT_GE(message["y"].get<double>(), bottom(*button)) << "the refusal should follow its button";
    EXPECT_LT(message["y"].get<double>() - bottom(*button), 2 * button->at("h").get<double>()) << "…right under it";
    const std::string text = message["label"];
    EXPECT_NE(text.find("line 1, column 2"), std::string::npos) << text;
    EXPECT_EQ(text.find("json.exception"), std::string::npos) << text;
    EXPECT_EQ(text.find("parse_error"), std::string::npos) << text;
    const auto status = with_text(refused, "Refused", "status");
    ASSERT_EQ(status.size(), 1u) << "the status line";
    EXPECT_GT(status[0]["y"].get<double>(), 720 - 2.5 * button->at("h").get<double>()) << "at the window's bottom";
    EXPECT_NE(status[0]["value"].get<std::string>().find("line 1, column 2"), std::string::npos);

    const Json changed = read_json(dir / "changed.json");
    EXPECT_TRUE(with_text(changed, "Refused", "message").empty()) << "a stale refusal stays after a change";
    EXPECT_TRUE(with_text(changed, "", "status").empty()) << "a stale status line";

    const Json lesson = read_json(dir / "lesson.json");
    const Json* open = find(lesson, "Open lesson", "button");
    ASSERT_NE(open, nullptr);
    const auto opened = with_text(lesson, "opened lesson builtin", "message");
    ASSERT_EQ(opened.size(), 1u);
    EXPECT_GT(opened[0]["y"].get<double>(), open->at("y").get<double>()) << "beside the lesson's buttons";
    EXPECT_TRUE(opened[0]["visible"].get<bool>());
    EXPECT_TRUE(with_text(lesson, "closed the lesson", "message").empty()) << "a lesson is open";
    EXPECT_TRUE(with_text(lesson, "closed the lesson", "status").empty()) << "a lesson is open";
}

// Compare mode: views 2 and 4 draw one setting each; a combo in their header says which and picks
// another. Clicked in view 2 (shown large), PI ×8: the state says so, both views' combos name it,
// and view 2 draws PI's rotation (pair 0 at m = 1000 turns 8 times slower than the base's).
TEST(CompareMode, ViewsTwoAndFourPickTheirSetting) {
    const fs::path dir = fresh_dir("single_setting");
    const Json script = {
        {{"wait", 5}},
        {{"key", "2"}},
        {{"wait", 3}},
        {{"widgets", "base.json"}},
        {{"screenshot", "base.png"}},
        {{"click", "setting shown"}},
        {{"wait", 2}},
        {{"widgets", "open.json"}},
        {{"click", "PI ×8"}},
        {{"wait", 5}},
        {{"state", "picked_state.json"}},
        {{"widgets", "picked.json"}},
        {{"screenshot", "picked.png"}},
        {{"key", "Escape"}},
        {{"key", "4"}},
        {{"wait", 3}},
        {{"widgets", "view4.json"}},
        {{"screenshot", "view4.png"}},
    };
    const test::Result r = gui(dir, script, "--comparison llama3.1-scaling --position 1000");
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const auto combo_value = [&](const std::string& file) {
        const Json widgets = read_json(dir / file);
        const Json* combo = find(widgets, "setting shown", "combo");
        return combo ? combo->at("value").get<std::string>() : std::string("(no combo)");
    };
    EXPECT_EQ(combo_value("base.json"), "llama3 ×8") << "the base until another is picked";
    int items = 0;
    for (const Json& w : read_json(dir / "open.json")) items += w.value("item_of", "") == "setting shown";
    EXPECT_EQ(items, 4) << "every setting to pick from";
    EXPECT_EQ(read_json(dir / "picked_state.json")["compare"]["single_setting"], 2);
    EXPECT_EQ(combo_value("picked.json"), "PI ×8");
    EXPECT_EQ(combo_value("view4.json"), "PI ×8");

    int w = 0, h = 0;
    const auto base = pixels(dir / "base.png", w, h), picked = pixels(dir / "picked.png", w, h);
    ASSERT_FALSE(base.empty());
    ASSERT_EQ(base.size(), picked.size());
    std::size_t differing = 0;
    for (int y = h / 3; y < h; ++y) {  // below the header: the planes
        for (int x = w / 2; x < w; ++x) differing += base[(static_cast<std::size_t>(y) * w + x) * 4] != picked[(static_cast<std::size_t>(y) * w + x) * 4];
    }
    EXPECT_GT(differing, 200u) << "view 2 should draw PI's rotation";
}

int shell(const std::string& command) { return std::system(command.c_str()); }

// S pressed and released within one frame, through the X server: the spotlight goes on.
TEST(PresenterKeys, ATapOfSFasterThanAFrameActs) {
    const fs::path dir = fresh_dir("tap_s");
    // Widgets early; then a long wait while the test taps S, then the state.
    const Json script = {{{"wait", 3}}, {{"widgets", "w.json"}}, {{"wait", 400}}, {{"state", "after.json"}}};
    std::ofstream(dir / "script.json") << script.dump(1);
    const pid_t pid = fork();
    if (pid == 0) {
        fs::current_path(dir);
        const int log = ::open((dir / "app.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(log, 1);
        dup2(log, 2);
        execl(ROPELAB_BINARY, ROPELAB_BINARY, "gui", "--size", "1280x720", "--paused", "--script", "script.json",
              static_cast<char*>(nullptr));
        _exit(127);
    }
    ASSERT_GT(pid, 0);
    const std::string window_file = (dir / "window.txt").string();
    ASSERT_EQ(shell("timeout 20 xdotool search --sync --onlyvisible --pid " + std::to_string(pid) + " > '" + window_file + "'"), 0);
    std::string window = test::slurp(window_file);
    window = window.substr(0, window.find('\n'));
    for (int i = 0; i < 200 && !fs::exists(dir / "w.json"); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_TRUE(fs::exists(dir / "w.json"));
    const Json widgets = read_json(dir / "w.json");
    const Json* plot = find(widgets, "scores", "plot");
    ASSERT_NE(plot, nullptr);
    const int x = static_cast<int>(plot->at("x").get<double>() + plot->at("w").get<double>() / 2);
    const int y = static_cast<int>(plot->at("y").get<double>() + plot->at("h").get<double>() / 2);
    EXPECT_EQ(shell("xdotool mousemove --window " + window + " " + std::to_string(x) + " " + std::to_string(y) + " sleep 0.3"), 0);
    // The app stopped while the X server queues the press and the release: its next event poll
    // takes both, within one frame.
    kill(pid, SIGSTOP);
    EXPECT_EQ(shell("xdotool keydown --window " + window + " s keyup --window " + window + " s"), 0);
    kill(pid, SIGCONT);
    int status = 0;
    for (int i = 0; i < 3000 && waitpid(pid, &status, WNOHANG) == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (waitpid(pid, &status, WNOHANG) == 0) {
        kill(pid, SIGTERM);
        waitpid(pid, &status, 0);
        FAIL() << "the script did not finish";
    }
    ASSERT_TRUE(fs::exists(dir / "after.json")) << test::slurp((dir / "app.log").string());
    EXPECT_EQ(read_json(dir / "after.json")["layout"]["spotlight"], 3) << "the tap was lost";
}

}  // namespace
}  // namespace ropelab::ui_script
