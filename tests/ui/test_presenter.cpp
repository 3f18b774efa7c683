// tests/ui: presenting with notes (`gui --presenter`): the audience window shows the lesson, the
// lecturer's window (the one the script drives) its console: notes, the next scene, a scene list,
// the time, buttons for the presenter's keys.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
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

int run_shell(const std::string& command) { return std::system(command.c_str()); }

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
    ASSERT_EQ(run_shell("timeout 20 xdotool search --sync --onlyvisible --name 'ropelab — audience' > '" + window_file + "'"), 0);
    std::string window = test::slurp(window_file);
    window = window.substr(0, window.find('\n'));
    for (int i = 0; i < 200 && !fs::exists(dir / "w.json"); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_TRUE(fs::exists(dir / "w.json"));
    EXPECT_EQ(run_shell("xdotool key --window " + window + " Right Right"), 0);
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

// Ink that `after` has and `before` has not.
std::vector<unsigned char> added(const std::vector<unsigned char>& before, std::vector<unsigned char> after) {
    for (std::size_t i = 0; i + 3 < std::min(before.size(), after.size()); i += 4) {
        if (before[i] == 255 && before[i + 1] == 0 && before[i + 2] == 170) after[i] = after[i + 1] = after[i + 2] = 0;
    }
    return after;
}

const Json& widget_labelled(const Json& widgets, const std::string& label) {
    for (const Json& w : widgets) {
        if (w["label"] == label) return w;
    }
    static const Json none = Json::object();
    return none;
}

// The pen, D held, drawn across the console's picture of the audience and across the audience
// window itself: each stroke lands on the audience's screen where it was drawn (the console's
// picture scaled up to the audience's pixels); the laser, L held over the audience window, leaves
// its red dot at the pointer; the next scene wipes the ink.
TEST(Presenter, PenAndLaserDrawOnTheAudiencesScreen) {
    const fs::path dir = fresh_dir("presenter_pen");
    const Json script = {
        {{"wait", 5}},
        {{"widgets", "w.json"}},
        {{"screenshot", "before.png"}, {"window", "audience"}},
        {{"hold", "D"}},
        {{"hover", "audience"}, {"at", {0.3, 0.4}}, {"dx", 120}, {"dy", 50}},
        {{"release", "D"}},
        {{"wait", 1}},
        {{"screenshot", "console_pen.png"}, {"window", "audience"}},
        {{"hover", "audience"}, {"window", "audience"}, {"at", {0.6, 0.7}}},  // there first, then D
        {{"hold", "D"}, {"window", "audience"}},
        {{"hover", "audience"}, {"window", "audience"}, {"at", {0.6, 0.7}}, {"dx", 200}, {"dy", -50}},
        {{"release", "D"}, {"window", "audience"}},
        {{"wait", 1}},
        {{"screenshot", "audience_pen.png"}, {"window", "audience"}},
        {{"hover", "audience"}, {"window", "audience"}, {"at", {0.8, 0.25}}},  // there, then L: no trail across the ink
        {{"hold", "L"}, {"window", "audience"}},
        {{"wait", 2}},
        {{"screenshot", "laser.png"}, {"window", "audience"}},
        {{"release", "L"}, {"window", "audience"}},
        {{"key", "Right"}},
        {{"wait", 3}},
        {{"screenshot", "next.png"}, {"window", "audience"}},
    };
    const test::Result r = gui(dir, script, "--lesson builtin --presenter");
    ASSERT_EQ(r.status, 0) << r.err;
    int w = 0, h = 0;
    const auto before = pixels(dir / "before.png", w, h), console = pixels(dir / "console_pen.png", w, h),
               audience = pixels(dir / "audience_pen.png", w, h), laser = pixels(dir / "laser.png", w, h),
               next = pixels(dir / "next.png", w, h);
    ASSERT_EQ(w, 1280);
    ASSERT_EQ(h, 720);
    EXPECT_EQ(ink_in(before, w).count, 0u) << "no ink before the pen";

    // The console's stroke, from 0.3, 0.4 of the picture across 120, 50 of its pixels: on the
    // audience's screen, scaled by the audience's width over the picture's.
    const Json widgets = read_json(dir / "w.json");
    const Json& picture = widget_labelled(widgets, "audience");
    ASSERT_TRUE(picture.contains("w")) << "the console's picture of the audience, in the widget log";
    const double scale = w / picture["w"].get<double>();
    ASSERT_GT(scale, 1.0);
    const double margin = 12;  // the ink's half width and its round ends, at the default UI scale
    const Ink from_console = ink_in(console, w);
    EXPECT_GT(from_console.count, 300u) << "the stroke drawn on the console's picture reached the audience";
    EXPECT_NEAR(from_console.x0, 0.3 * w, margin);
    EXPECT_NEAR(from_console.y0, 0.4 * h, margin);
    EXPECT_NEAR(from_console.x1, 0.3 * w + 120 * scale, margin + scale);
    EXPECT_NEAR(from_console.y1, 0.4 * h + 50 * scale, margin + scale);

    // The audience window's stroke, from 0.6, 0.7 of it across 200, −50 of its own pixels.
    const Ink from_audience = ink_in(added(console, audience), w);
    EXPECT_GT(from_audience.count, 300u) << "the stroke drawn over the audience window";
    EXPECT_NEAR(from_audience.x0, 0.6 * w, margin);
    EXPECT_NEAR(from_audience.y1, 0.7 * h, margin);
    EXPECT_NEAR(from_audience.x1, 0.6 * w + 200, margin);
    EXPECT_NEAR(from_audience.y0, 0.7 * h - 50, margin);
    EXPECT_GE(ink_in(audience, w).count, from_console.count + from_audience.count) << "the first stroke stays";

    const double lx = 0.8 * w, ly = 0.25 * h;
    EXPECT_EQ(laser_red_near(audience, w, lx, ly, 20), 0u);
    EXPECT_GT(laser_red_near(laser, w, lx, ly, 20), 30u) << "the laser's dot at the pointer";
    EXPECT_EQ(ink_in(next, w).count, 0u) << "the next scene starts clean";
}

// The right button held over the audience window is the laser too: its dot follows a drag, and
// goes when the button is let go and its trail has faded.
TEST(Presenter, TheRightButtonIsTheLaser) {
    const fs::path dir = fresh_dir("presenter_right_button");
    const Json script = {
        {{"wait", 5}},
        {{"screenshot", "before.png"}, {"window", "audience"}},
        {{"drag", "audience"}, {"window", "audience"}, {"button", "right"}, {"at", {0.6, 0.3}}, {"dx", 150}, {"dy", 100}},
        {{"screenshot", "released.png"}, {"window", "audience"}},
        {{"wait", 60}},
        {{"screenshot", "faded.png"}, {"window", "audience"}},
    };
    const test::Result r = gui(dir, script, "--lesson builtin --presenter");
    ASSERT_EQ(r.status, 0) << r.err;
    int w = 0, h = 0;
    const auto before = pixels(dir / "before.png", w, h), released = pixels(dir / "released.png", w, h),
               faded = pixels(dir / "faded.png", w, h);
    const double x = 0.6 * w + 150, y = 0.3 * h + 100;  // where the drag ended
    EXPECT_EQ(laser_red_near(before, w, x, y, 20), 0u);
    EXPECT_GT(laser_red_near(released, w, x, y, 20), 30u) << "the dot where the right button was let go, its trail fading";
    EXPECT_EQ(laser_red_near(faded, w, x, y, 20), 0u) << "a second later the trail is gone";
    EXPECT_EQ(ink_in(released, w).count, 0u) << "the right button is not the pen";
}

// S over a view spotlights it, from the audience window and from the console's picture alike:
// the same point of the picture names the same view; S there again turns it off.
TEST(Presenter, SpotlightFromEitherWindow) {
    const fs::path dir = fresh_dir("presenter_spotlight");
    const Json script = {
        {{"wait", 5}},
        {{"state", "none.json"}},
        {{"hover", "audience"}, {"window", "audience"}, {"at", {0.5, 0.6}}},
        {{"hold", "S"}, {"window", "audience"}},
        {{"release", "S"}, {"window", "audience"}},
        {{"wait", 3}},
        {{"state", "audience.json"}},
        {{"hold", "S"}, {"window", "audience"}},
        {{"release", "S"}, {"window", "audience"}},
        {{"wait", 3}},
        {{"state", "off.json"}},
        {{"hover", "audience"}, {"at", {0.5, 0.6}}},
        {{"key", "S"}},
        {{"wait", 3}},
        {{"state", "console.json"}},
        {{"wait", 30}},
        {{"state", "later.json"}},
    };
    const test::Result r = gui(dir, script, "--lesson builtin --presenter");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto spotlight = [&](const char* f) { return read_json(dir / f)["layout"]["spotlight"].get<int>(); };
    EXPECT_EQ(spotlight("none.json"), 0);
    EXPECT_GT(spotlight("audience.json"), 0) << "S over the audience window";
    EXPECT_EQ(spotlight("off.json"), 0) << "S again";
    EXPECT_EQ(spotlight("console.json"), spotlight("audience.json")) << "S over the same point of the console's picture";
    EXPECT_EQ(spotlight("later.json"), spotlight("audience.json")) << "the playing scene keeps the presenter's spotlight";
}

// Leaving the presentation (Esc) wipes the ink, the laser and the spotlight: none of it lands on
// the lab in the lecturer's window, nor on the audience's screen when presenting again.
TEST(Presenter, LeavingWipesTheAids) {
    const fs::path dir = fresh_dir("presenter_leave");
    const Json script = {
        {{"wait", 5}},
        {{"hover", "audience"}, {"window", "audience"}, {"at", {0.5, 0.6}}},
        {{"key", "S"}},
        {{"hold", "D"}, {"window", "audience"}},
        {{"hover", "audience"}, {"window", "audience"}, {"at", {0.55, 0.5}}, {"dx", 200}, {"dy", 40}},
        {{"release", "D"}, {"window", "audience"}},
        {{"wait", 1}},
        {{"screenshot", "drawn.png"}, {"window", "audience"}},
        {{"state", "drawn.json"}},
        {{"key", "Escape"}},
        {{"wait", 4}},
        {{"screenshot", "lab.png"}},
        {{"state", "lab.json"}},
        {{"widgets", "lab_widgets.json"}},
        {{"click", "Present with notes"}},
        {{"wait", 4}},
        {{"widgets", "again.json"}},
        {{"screenshot", "again.png"}, {"window", "audience"}},
    };
    const test::Result r = gui(dir, script, "--lesson builtin --presenter");
    ASSERT_EQ(r.status, 0) << r.err;
    int w = 0, h = 0, lw = 0, lh = 0;
    const auto drawn = pixels(dir / "drawn.png", w, h), lab = pixels(dir / "lab.png", lw, lh), again = pixels(dir / "again.png", w, h);
    EXPECT_GT(ink_in(drawn, w).count, 300u);
    EXPECT_GT(read_json(dir / "drawn.json")["layout"]["spotlight"].get<int>(), 0);
    EXPECT_EQ(ink_in(lab, lw).count, 0u) << "the audience's ink on the lab's window";
    EXPECT_EQ(read_json(dir / "lab.json")["layout"]["spotlight"], 0);
    EXPECT_FALSE(has(read_json(dir / "lab_widgets.json"), "now 1/15")) << "the console closed";
    EXPECT_TRUE(has(read_json(dir / "again.json"), "now 1/15")) << "presenting again";
    EXPECT_EQ(ink_in(again, w).count, 0u) << "the last presentation's ink";
}

// Without a window manager (Xvfb) the audience window is placed wholly on the screen: beside a
// small lecturer window, inside the screen beside a large one, shrunk to a full-screen one.
TEST(Presenter, TheAudienceWindowLiesOnTheScreen) {
    for (const std::string size : {"800x600", "1280x720", "1920x1080"}) {
        const fs::path dir = fresh_dir("presenter_place");
        const test::Result r = gui(dir, {{{"wait", 3}}}, "--lesson builtin --presenter --size " + size);
        ASSERT_EQ(r.status, 0) << r.err;
        int x = 0, y = 0, w = 0, h = 0, wx = 0, wy = 0, ww = 0, wh = 0;
        const std::size_t at = r.out.find("ropelab: audience window at ");
        ASSERT_NE(at, std::string::npos) << r.out;
        ASSERT_EQ(std::sscanf(r.out.c_str() + at, "ropelab: audience window at %d,%d %dx%d; the monitor's work area %d,%d %dx%d", &x, &y,
                              &w, &h, &wx, &wy, &ww, &wh),
                  8)
            << r.out.substr(at, 120);
        EXPECT_GE(x, wx) << size;
        EXPECT_GE(y, wy) << size;
        EXPECT_LE(x + w, wx + ww) << size;
        EXPECT_LE(y + h, wy + wh) << size;
        const int lecturer_w = std::stoi(size.substr(0, size.find('x')));
        if (2 * lecturer_w <= ww) {
            EXPECT_EQ(x, lecturer_w) << "beside the lecturer's window when there is room";
            EXPECT_EQ(w, lecturer_w);
        }
        EXPECT_GT(w * h, 0);
    }
}

// The console's elapsed time stands still while paused and runs again when resumed (the widget
// log's value is its seconds, to the millisecond).
TEST(Presenter, TheElapsedTimePauses) {
    const fs::path dir = fresh_dir("presenter_clock");
    const Json script = {
        {{"wait", 5}},   {{"click", "Pause"}}, {{"wait", 2}},  {{"widgets", "p1.json"}}, {{"wait", 30}},
        {{"widgets", "p2.json"}}, {{"click", "Resume"}}, {{"wait", 30}}, {{"widgets", "p3.json"}},
    };
    const test::Result r = gui(dir, script, "--lesson builtin --presenter");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto elapsed = [&](const char* f, std::string& label) {
        for (const Json& wd : read_json(dir / f)) {
            if (wd["label"].get<std::string>().starts_with("Elapsed ")) {
                label = wd["label"];
                return std::stod(wd["value"].get<std::string>());
            }
        }
        ADD_FAILURE() << "no elapsed time in " << f;
        return -1.0;
    };
    std::string l1, l2, l3;
    const double t1 = elapsed("p1.json", l1), t2 = elapsed("p2.json", l2), t3 = elapsed("p3.json", l3);
    EXPECT_GT(t1, 0.0) << "the clock ran before the pause";
    EXPECT_LT(t1, 0.5) << "it started with the first scene, a few frames ago";
    EXPECT_EQ(t2, t1) << "30 frames paused";
    EXPECT_TRUE(l2.ends_with("(paused)")) << l2;
    // 30 frames of 1/60 s after the click's frames: at least half a second more.
    EXPECT_GE(t3 - t2, 30.0 / 60.0 - 1e-9);
    EXPECT_LT(t3 - t2, 40.0 / 60.0);
    EXPECT_FALSE(l3.ends_with("(paused)")) << l3;
}

// The recipe a walk through the lesson library uses (script.h's present_with_aids): on the
// projector theme, at scene 3, the stroke and the laser are on the audience's screen.
TEST(Presenter, TheAidsRecipe) {
    const fs::path dir = fresh_dir("presenter_recipe");
    const test::Result r = present_with_aids(dir, "builtin", "aids.png", 2);
    ASSERT_EQ(r.status, 0) << r.err;
    int w = 0, h = 0;
    const auto shot = pixels(dir / "aids.png", w, h);
    ASSERT_EQ(w, 1280);
    const Ink ink = ink_in(shot, w);
    EXPECT_GT(ink.count, 300u);
    EXPECT_NEAR(ink.x0, 0.55 * w, 12);
    EXPECT_NEAR(ink.x1, 0.55 * w + 240, 12);
    EXPECT_GT(laser_red_near(shot, w, 0.85 * w, 0.3 * h, 20), 30u);
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
    // In the audience window a step aims at the whole window, "audience".
    const test::Result aimed = gui(fresh_dir("presenter_bad_aim"), Json::array({Json{{"hover", "Next"}, {"window", "audience"}}}));
    EXPECT_EQ(aimed.status, 2);
    EXPECT_NE(aimed.err.find("aims at \"audience\""), std::string::npos) << aimed.err;
    // The right button is the audience window's only (the lecturer's window sends the left).
    const test::Result right = gui(fresh_dir("presenter_bad_button"), Json::array({Json{{"drag", "Play"}, {"dx", 5}, {"button", "right"}}}));
    EXPECT_EQ(right.status, 2);
    EXPECT_NE(right.err.find("\"button\""), std::string::npos) << right.err;
}

}  // namespace
}  // namespace ropelab::ui_script
