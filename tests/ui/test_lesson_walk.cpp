// tests/ui: the lecturer's path through every lesson of the library. Each lesson listed by
// `ropelab lessons` is presented with notes (`gui --presenter --lesson NAME --theme projector`)
// and walked scene by scene with → in the lecturer's window; on every scene a pen stroke is drawn
// (D held) and the laser held (L) over the audience window, and the audience's screen is saved.
// Each picture must show that scene's stroke (and no earlier one: a scene change wipes the ink),
// the laser's dot at the pointer, and the projector theme's white page.
#include <fmt/format.h>

#include <map>

#include "script.h"

namespace ropelab::ui_script {
namespace {

struct LibraryEntry {
    std::string name;
    int scenes = 0;
};

std::vector<LibraryEntry> library() {
    const test::Result r = test::run("lessons --format json");
    EXPECT_EQ(r.status, 0) << r.err;
    std::vector<LibraryEntry> lessons;
    for (const Json& row : Json::parse(r.out)) lessons.push_back({row["name"], row["scenes"]});
    return lessons;
}

// Where scene k's stroke begins, as a fraction of the audience window: in its right half (the
// lecturer's window lies over the left half on one 1920-wide screen), a little lower each scene,
// so a stroke left over from the scene before would show as ink outside this scene's box.
constexpr double kStrokeX = 0.55, kStrokeDx = 200;
double stroke_y(int k) { return 0.42 + 0.05 * (k % 6); }
constexpr double kLaserX = 0.88, kLaserY = 0.22;

Json walk_script(int scenes) {
    Json script = {{{"wait", 5}}};
    for (int k = 0; k < scenes; ++k) {
        if (k > 0) {
            script.push_back({{"key", "Right"}});
            script.push_back({{"wait", 3}});
        }
        // The pointer goes to the stroke's start before D is held: the pen follows it from there.
        script.push_back({{"hover", "audience"}, {"window", "audience"}, {"at", {kStrokeX, stroke_y(k)}}});
        script.push_back({{"hold", "D"}, {"window", "audience"}});
        script.push_back({{"hover", "audience"}, {"window", "audience"}, {"at", {kStrokeX, stroke_y(k)}}, {"dx", kStrokeDx}, {"dy", 0}});
        script.push_back({{"release", "D"}, {"window", "audience"}});
        script.push_back({{"hover", "audience"}, {"window", "audience"}, {"at", {kLaserX, kLaserY}}});
        script.push_back({{"hold", "L"}, {"window", "audience"}});
        script.push_back({{"wait", 2}});
        script.push_back({{"screenshot", fmt::format("scene{}.png", k + 1)}, {"window", "audience"}});
        script.push_back({{"release", "L"}, {"window", "audience"}});
    }
    script.push_back({{"state", "end.json"}});
    return script;
}

// The most common colour of a picture, as 0xRRGGBB.
unsigned page_colour(const std::vector<unsigned char>& rgba) {
    std::map<unsigned, std::size_t> count;
    for (std::size_t i = 0; i + 3 < rgba.size(); i += 4) ++count[rgba[i] << 16 | rgba[i + 1] << 8 | rgba[i + 2]];
    return std::max_element(count.begin(), count.end(), [](const auto& a, const auto& b) { return a.second < b.second; })->first;
}

class LessonWalk : public ::testing::TestWithParam<int> {};

TEST(LessonWalk, TheLibraryHasTheFourLessons) {
    const std::vector<LibraryEntry> lessons = library();
    ASSERT_GE(lessons.size(), 4u) << "the built-in lesson and at least three more";
    for (const LibraryEntry& l : lessons) {
        EXPECT_GE(l.scenes, 8) << l.name;
        EXPECT_LE(l.scenes, 15) << l.name;
    }
}

TEST_P(LessonWalk, EverySceneTakesThePenAndTheLaserInTheProjectorTheme) {
    const std::vector<LibraryEntry> lessons = library();
    const int index = GetParam();
    ASSERT_LT(index, static_cast<int>(lessons.size())) << "the library has " << lessons.size() << " lessons";
    const LibraryEntry& lesson = lessons[static_cast<std::size_t>(index)];
    const fs::path dir = fresh_dir("walk_" + lesson.name);
    const test::Result r = gui(dir, walk_script(lesson.scenes), "--presenter --lesson " + lesson.name + " --theme projector");
    ASSERT_EQ(r.status, 0) << lesson.name << ": " << r.err;

    const Json end = session_of(dir / "end.json");
    EXPECT_EQ(end["layout"]["theme"], "projector") << lesson.name;
    for (int k = 0; k < lesson.scenes; ++k) {
        const std::string where = fmt::format("{} scene {}/{}", lesson.name, k + 1, lesson.scenes);
        int w = 0, h = 0;
        const std::vector<unsigned char> shot = pixels(dir / fmt::format("scene{}.png", k + 1), w, h);
        ASSERT_FALSE(shot.empty()) << where << ": no audience screenshot";
        EXPECT_EQ(page_colour(shot), 0xFFFFFFu) << where << ": the projector's white page (light is 0xF0F0F0)";
        const Ink ink = ink_in(shot, w);
        EXPECT_GT(ink.count, 300u) << where << ": the pen's stroke";
        // This scene's stroke only: from its start to its end, at its own height.
        EXPECT_NEAR(ink.x0, kStrokeX * w, 12) << where;
        EXPECT_NEAR(ink.x1, kStrokeX * w + kStrokeDx, 12) << where;
        EXPECT_NEAR(ink.y0, stroke_y(k) * h, 12) << where << ": ink from another scene";
        EXPECT_NEAR(ink.y1, stroke_y(k) * h, 12) << where << ": ink from another scene";
        EXPECT_GT(laser_red_near(shot, w, kLaserX * w, kLaserY * h, 20), 30u) << where << ": the laser's dot";
    }
}

// One ctest entry per lesson (the library's order): they run side by side.
INSTANTIATE_TEST_SUITE_P(Library, LessonWalk, ::testing::Values(0, 1, 2, 3));

}  // namespace
}  // namespace ropelab::ui_script
