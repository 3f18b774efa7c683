// tests/web: the lab built for the browser (./web), in Debian's chromium, headless, driven
// through the DevTools protocol by tests/web/browser.mjs. Clicks and keys go through the
// browser's input path onto the canvas. The page must have been built: CI runs `./web` first and
// sets ROPELAB_WEB_REQUIRED=1; elsewhere a missing page skips these tests, saying so.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "state/session.h"
#include "support/image.h"
#include "support/run_binary.h"

namespace ropelab {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

const fs::path kPage = fs::path(ROPELAB_SOURCE_DIR) / "build-web";

// Whether build-web/ holds the page. Where CI requires it (ROPELAB_WEB_REQUIRED=1) its absence
// is a failure; elsewhere the caller skips.
bool page_built() {
    if (fs::exists(kPage / "ropelab.wasm") && fs::exists(kPage / "index.html")) return true;
    const char* required = std::getenv("ROPELAB_WEB_REQUIRED");
    if (required && std::string(required) == "1") ADD_FAILURE() << "no page in " << kPage << ": CI runs ./web first";
    return false;
}

#define REQUIRE_PAGE()                                                                       \
    if (!page_built()) {                                                                     \
        if (!HasFailure()) GTEST_SKIP() << "build-web/ has no page: build it with ./web";     \
        return;                                                                              \
    }

// Runs the steps in chromium against build-web/; the browser's log on failure.
test::Result browse(const fs::path& dir, const Json& steps) {
    std::ofstream(dir / "steps.json") << steps.dump(1);
    const std::string command = "node --no-warnings --experimental-websocket '" + std::string(ROPELAB_SOURCE_DIR) +
                                "/tests/web/browser.mjs' '" + (dir / "steps.json").string() + "' '" + kPage.string() +
                                "' 2>&1";
    return test::capture(command);
}

Json read_json(const fs::path& path) {
    std::ifstream in(path);
    return Json::parse(in);
}

// The share string the desktop's Session panel gives for this session JSON.
std::string share_of(const Json& session) {
    std::vector<std::string> warnings;
    return share_string(session_from_json(session.dump(), warnings));
}

// Pixels of `a` and `b` (same size) in [x0, x1) × [y0, y1) whose channels differ by more than
// `tolerance` somewhere, as a fraction of the region.
double differing_fraction(const test::Image& a, const test::Image& b, int x0, int y0, int x1, int y1, int tolerance) {
    long differing = 0, total = 0;
    for (int y = y0; y < y1; ++y) {
        for (int x = x0; x < x1; ++x) {
            ++total;
            for (int c = 0; c < 3; ++c) {
                if (std::abs(a.channel(x, y, c) - b.channel(x, y, c)) > tolerance) {
                    ++differing;
                    break;
                }
            }
        }
    }
    return static_cast<double>(differing) / static_cast<double>(total);
}

// A lab set up on the desktop (a model, θ, a view large, paused) travels as a share link and
// opens in the browser as the same state and the same picture.
TEST(WebPage, AShareLinkMadeOnTheDesktopOpensTheSameLab) {
    REQUIRE_PAGE();
    const fs::path dir = test::fresh_dir("web_share");
    std::ofstream(dir / "desktop.json") << R"([{"wait": 4}, {"state": "desktop_state.json"}])";
    const test::Result desktop = test::run(
        "gui --size 1280x720 --paused --preset llama3-8b --rope-theta 50000 --view scores --position 300 --script desktop.json",
        "cd '" + dir.string() + "' &&");
    ASSERT_EQ(desktop.status, 0) << desktop.err;
    const Json desktop_state = read_json(dir / "desktop_state.json");
    const std::string share = share_of(desktop_state);
    // The desktop's picture of that link, computed on its CPU path as the page's is (a GL 3.3
    // context: the same status line and numbers), after its notices have faded (150 frames of
    // 1/60 s), the pointer parked off the window.
    const test::Result picture = test::run("gui --size 1280x720 --frames 150 --session " + share + " --screenshot desktop.png",
                                           "cd '" + dir.string() + "' && MESA_GL_VERSION_OVERRIDE=3.3");
    ASSERT_EQ(picture.status, 0) << picture.err;

    const test::Result web = browse(dir, Json::array({{{"open", "index.html#s=" + share}},
                                                      {{"sleep", 3}},
                                                      {{"frames", 3}},
                                                      {{"state", (dir / "web_state.json").string()}},
                                                      {{"screenshot", (dir / "web.png").string()}}}));
    ASSERT_EQ(web.status, 0) << web.out;

    // The state, field for field: the parameters and the plots' zoom as the desktop saved them.
    Json web_state = read_json(dir / "web_state.json");
    EXPECT_EQ(web_state["model"], desktop_state["model"]);
    EXPECT_EQ(web_state["focus"], desktop_state["focus"]);
    EXPECT_EQ(web_state["curves"], desktop_state["curves"]);
    EXPECT_EQ(web_state["layout"], desktop_state["layout"]);
    EXPECT_EQ(share_of(web_state), share) << "the page's state differs from the link's somewhere";

    // The picture: the view's area (right of the panel, above the status line) matches the
    // desktop's within a small tolerance — the rasterisers (SwiftShader in chromium, llvmpipe on
    // the desktop) antialias edges differently.
    const test::Image a = test::load_png((dir / "desktop.png").string()), b = test::load_png((dir / "web.png").string());
    ASSERT_EQ(a.width, 1280);
    ASSERT_EQ(a.height, 720);
    ASSERT_EQ(b.width, a.width);
    ASSERT_EQ(b.height, a.height);
    const double differing = differing_fraction(a, b, 340, 30, 1280, 690, 48);
    std::printf("view pixels differing by more than 48 levels: %.2f %%\n", 100.0 * differing);
    EXPECT_LT(differing, 0.02) << "of the view's pixels differ by more than 48 levels";
}

// Clicks reach the widget ImGui laid out at that place, keys reach the lab's shortcuts, and the
// address bar follows: a link copied from it opens the changed state.
TEST(WebPage, ClicksAndKeysReachTheLabAndTheAddressBarFollows) {
    REQUIRE_PAGE();
    const fs::path dir = test::fresh_dir("web_input");
    const test::Result web = browse(dir, Json::array({{{"open", "index.html"}},
                                                      {{"frames", 5}},
                                                      {{"state", (dir / "before.json").string()}},
                                                      {{"click", "log Δ axis"}},
                                                      {{"key", "Space"}},
                                                      {{"frames", 20}},
                                                      {{"state", (dir / "after.json").string()}},
                                                      {{"eval", "location.hash"}, {"save", (dir / "hash.txt").string()}}}));
    ASSERT_EQ(web.status, 0) << web.out;
    const Json before = read_json(dir / "before.json"), after = read_json(dir / "after.json");
    EXPECT_FALSE(before["curves"]["log_distance"].get<bool>());
    EXPECT_TRUE(after["curves"]["log_distance"].get<bool>()) << "the click missed the checkbox";
    EXPECT_TRUE(before["playback"]["playing"].get<bool>());
    EXPECT_FALSE(after["playback"]["playing"].get<bool>()) << "Space did not pause";

    std::ifstream in(dir / "hash.txt");
    std::string hash((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_EQ(hash.rfind("#s=", 0), 0u) << hash;
    std::vector<std::string> warnings;
    const Session linked = session_from_share_string(hash.substr(3), warnings);
    EXPECT_TRUE(linked.params.log_distance) << "the address bar has not caught up with the click";
    EXPECT_FALSE(linked.params.playing);
}

// A built-in lesson from the Lessons menu, presented in the page (the canvas is the screen):
// the arrow keys step the scenes, and the slide is drawn in the projector theme.
TEST(WebPage, ABuiltInLessonPresentsInThePage) {
    REQUIRE_PAGE();
    const fs::path dir = test::fresh_dir("web_lesson");
    const test::Result web = browse(dir, Json::array({{{"open", "index.html"}},
                                                      {{"frames", 3}},
                                                      {{"click", "Lessons"}},
                                                      {{"click", "RoPE from first principles"}},
                                                      {{"frames", 5}},
                                                      {{"click", "Lessons"}},
                                                      {{"click", "Present"}, {"kind", "menu item"}},
                                                      {{"frames", 5}},
                                                      {{"key", "ArrowRight"}},
                                                      {{"key", "ArrowRight"}},
                                                      {{"frames", 5}},
                                                      {{"widgets", (dir / "widgets.json").string()}},
                                                      {{"screenshot", (dir / "slide.png").string()}}}));
    ASSERT_EQ(web.status, 0) << web.out;
    const Json widgets = read_json(dir / "widgets.json");
    bool third_scene = false;
    for (const Json& w : widgets) third_scene = third_scene || w["label"] == "scene 3/15";
    EXPECT_TRUE(third_scene) << "the two arrows did not step to scene 3 of 15: " << widgets.dump().substr(0, 400);
    // The projector theme: a light slide (the lab's own theme is dark).
    const test::Image slide = test::load_png((dir / "slide.png").string());
    ASSERT_FALSE(slide.rgba.empty());
    double luminance = 0.0;
    for (std::size_t i = 0; i < slide.rgba.size(); i += 4) luminance += (slide.rgba[i] + slide.rgba[i + 1] + slide.rgba[i + 2]) / 3.0;
    EXPECT_GT(luminance / static_cast<double>(slide.rgba.size() / 4), 180.0);
}

// A link whose share string is not one (cut, or edited by hand) is refused in the lab's notice,
// the defaults stay and the page runs on: no console error, no exception.
TEST(WebPage, ABrokenShareLinkIsRefusedAndTheDefaultsStay) {
    REQUIRE_PAGE();
    const fs::path dir = test::fresh_dir("web_broken_link");
    const test::Result web = browse(dir, Json::array({{{"open", "index.html#s=eyJyb3BlbGFi!!"}},
                                                      {{"frames", 5}},
                                                      {{"state", (dir / "state.json").string()}},
                                                      {{"widgets", (dir / "widgets.json").string()}}}));
    ASSERT_EQ(web.status, 0) << web.out;
    EXPECT_EQ(read_json(dir / "state.json")["preset"], "textbook");
    bool refused = false;
    for (const Json& w : read_json(dir / "widgets.json")) {
        refused = refused || w["value"].get<std::string>().find("is not a base64url character") != std::string::npos ||
                  w["label"].get<std::string>().find("is not a base64url character") != std::string::npos;
    }
    EXPECT_TRUE(refused) << "the refusal is not on screen";
}

}  // namespace
}  // namespace ropelab
