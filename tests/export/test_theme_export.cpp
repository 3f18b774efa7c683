// Exports honour the theme: `render --theme projector` draws on the projector's white, light on
// ImGui's light grey, dark on its near-black (the frame is cleared to the window background).
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace ropelab
