// tests/ui: every lesson's slides, presented (`gui --lesson FILE --present`, fullscreen on this
// display: ctest runs it on a 1920×1080 screen and, as its own entry, on a 1280×720 one), have
// no text on text and no text cut: each scene's frame captured as a display list ({"overlaps"})
// and read by plot/layout_check. A lecturer cannot fix a slide in front of the room, so every
// scene of every lesson in assets/lessons is checked as the room would see it.
#include <fmt/format.h>

#include <algorithm>

#include "script.h"

namespace ropelab::ui_script {
namespace {

std::string box_text(const Json& b) {
    return fmt::format("[{:.0f},{:.0f} .. {:.0f},{:.0f}]", b[0].get<double>(), b[1].get<double>(), b[2].get<double>(),
                       b[3].get<double>());
}

std::string finding_line(const std::string& where, const Json& f) {
    const std::string kind = f["kind"];
    const std::string other = kind == "overlap" ? "\"" + f["other"].get<std::string>() + "\"" : kind == "cut" ? "its clip" : "a patch";
    return fmt::format("{}: \"{}\" {} {} {} {}", where, f["text"].get<std::string>(), box_text(f["box"]),
                       kind == "overlap" ? "overlaps" : kind == "cut" ? "cut by" : "covered by", other, box_text(f["other_box"]));
}

// One presented run of `lesson`: each scene's findings, one line each, and how many scenes
// were checked (PageDown steps to the next scene while presenting).
std::vector<std::string> slide_findings(const fs::path& lesson, int& checked) {
    const int scenes = static_cast<int>(read_json(lesson)["scenes"].size());
    const fs::path dir = fresh_dir("slides_" + lesson.stem().string());
    Json script = Json::array();
    for (int s = 0; s < scenes; ++s) {
        if (s > 0) script.push_back({{"key", "PageDown"}});
        script.push_back({{"wait", 3}});
        script.push_back({{"overlaps", fmt::format("o{}.json", s)}});
    }
    const test::Result r = gui(dir, script, "--lesson '" + lesson.string() + "' --present");
    EXPECT_EQ(r.status, 0) << lesson << ": " << r.err;
    std::vector<std::string> found;
    checked = 0;
    for (int s = 0; s < scenes; ++s) {
        const fs::path file = dir / fmt::format("o{}.json", s);
        if (!fs::exists(file)) continue;
        const Json findings = read_json(file);
        if (!findings.is_array()) continue;
        ++checked;
        for (const Json& f : findings) found.push_back(finding_line(fmt::format("{} scene {}/{}", lesson.filename().string(), s + 1, scenes), f));
    }
    return found;
}

TEST(LessonSlides, NoTextOnTextOrCutInAnySceneOfAnyLessonPresented) {
    const std::vector<fs::path> lessons = test::lesson_files();
    ASSERT_FALSE(lessons.empty());
    std::string listed;
    for (const fs::path& lesson : lessons) {
        int checked = 0;
        for (const std::string& line : slide_findings(lesson, checked)) listed += line + "\n";
        EXPECT_EQ(checked, static_cast<int>(read_json(lesson)["scenes"].size())) << lesson << ": every scene captured";
    }
    EXPECT_EQ(listed, "");
}

}  // namespace
}  // namespace ropelab::ui_script
