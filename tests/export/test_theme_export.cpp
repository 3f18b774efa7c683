// Exports honour the theme: `render --theme projector` draws on the projector's white, light on
// ImGui's light grey, dark on its near-black (the frame is cleared to the window background).
#include <gtest/gtest.h>

#include "support/files.h"
#include "support/image.h"
#include "support/run_binary.h"

namespace ropelab {
namespace {

TEST(ThemeExport, RenderDrawsOnEachThemesBackground) {
    const std::string dir = test::fresh_dir("theme_export").string();
    // ImGui's WindowBg: light 0.94 → 240, dark 0.06 → 15; the projector's is white.
    const std::pair<const char*, int> themes[] = {{"projector", 255}, {"light", 240}, {"dark", 15}};
    for (const auto& [theme, grey] : themes) {
        const std::string out = dir + "/" + theme + ".png";
        const test::Result r = test::run(std::string("render --view scores --size 640x360 --theme ") + theme + " --out " + out);
        ASSERT_EQ(r.status, 0) << r.err;
        const test::Image image = test::load_png(out);
        ASSERT_EQ(image.width, 640);
        // The bottom-right corner lies outside the view's frame and plot: the background.
        for (int c = 0; c < 3; ++c) EXPECT_NEAR(image.channel(638, 358, c), grey, 1.0) << theme;
    }
}

// The background at the bottom-right corner, as RenderDrawsOnEachThemesBackground reads it.
double corner_grey(const std::string& png) {
    const test::Image image = test::load_png(png);
    return image.rgba.empty() ? -1.0 : image.channel(image.width - 2, image.height - 2, 0);
}

bool same_pixels(const std::string& a, const std::string& b) { return test::load_png(a).rgba == test::load_png(b).rgba; }

// A slide of a lesson is drawn in the theme the user chose: before issue 37 presenting forced
// light, so --theme projector and --theme dark gave light's pixels.
TEST(ThemeExport, RenderLessonSlideUsesTheChosenTheme) {
    const std::string dir = test::fresh_dir("theme_lesson").string();
    const std::pair<const char*, int> themes[] = {{"projector", 255}, {"light", 240}, {"dark", 15}};
    for (const auto& [theme, grey] : themes) {
        const std::string out = dir + "/" + theme + ".png";
        const test::Result r =
            test::run(std::string("render --lesson builtin --scene 3 --size 640x360 --theme ") + theme + " --out " + out);
        ASSERT_EQ(r.status, 0) << r.err;
        EXPECT_NEAR(corner_grey(out), grey, 1.0) << theme;
    }
    EXPECT_FALSE(same_pixels(dir + "/projector.png", dir + "/light.png"));
    EXPECT_FALSE(same_pixels(dir + "/projector.png", dir + "/dark.png"));
    // No theme chosen: presenting's light, as before.
    const test::Result plain = test::run("render --lesson builtin --scene 3 --size 640x360 --out " + dir + "/plain.png");
    ASSERT_EQ(plain.status, 0) << plain.err;
    EXPECT_TRUE(same_pixels(dir + "/plain.png", dir + "/light.png"));
}

// A lesson's own "theme" is used when the user chose none; a chosen one wins over it.
TEST(ThemeExport, RenderLessonUsesTheLessonsOwnThemeUnlessOneIsChosen) {
    const std::string dir = test::fresh_dir("theme_lesson_own").string();
    const std::string lesson = dir + "/projected.json";
    test::write_file(lesson, R"({"title": "Projected", "theme": "projector",
        "scenes": [{"title": "Scores", "caption": "The score", "views": [3]}]})");
    const test::Result own = test::run("render --lesson " + lesson + " --scene 1 --size 640x360 --out " + dir + "/own.png");
    ASSERT_EQ(own.status, 0) << own.err;
    EXPECT_NEAR(corner_grey(dir + "/own.png"), 255, 1.0);
    const test::Result chosen =
        test::run("render --lesson " + lesson + " --scene 1 --size 640x360 --theme dark --out " + dir + "/chosen.png");
    ASSERT_EQ(chosen.status, 0) << chosen.err;
    EXPECT_NEAR(corner_grey(dir + "/chosen.png"), 15, 1.0);
}

}  // namespace
}  // namespace ropelab
