// tests/ui through `gui --script`: where the lab's messages show.
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

}  // namespace
}  // namespace ropelab::ui_script
