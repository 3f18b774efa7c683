#pragma once
// tests/ui, as a person uses the app: `ropelab gui --script` drives the real window through
// GLFW's input callbacks at the places ImGui laid the widgets out, and xdotool clicks through
// the X server. Nothing here writes the lab's state directly. What the test_*.cpp files here
// share: a folder per test, running a script, reading what it dumped.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include "support/image.h"
#include "support/run_binary.h"

namespace ropelab::ui_script {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using test::read_json;

// A folder of this test's own, the app's working directory (it saves sessions and exports there).
inline fs::path fresh_dir(const std::string& name) { return test::fresh_dir("script_" + name); }

// `gui --paused --script` in `dir` (1280x720 unless args give a --size).
inline test::Result gui(const fs::path& dir, const Json& script, const std::string& args = "") {
    std::ofstream(dir / "script.json") << script.dump(1);
    const std::string size = args.find("--size") == std::string::npos ? "--size 1280x720 " : "";
    return test::run("gui " + size + "--paused " + args + " --script script.json",
                     "cd '" + dir.string() + "' && ROPELAB_SCREENSHOT_DIR='" + dir.string() + "'");
}

// A dumped state without its plots.
// The widget the log lists with this label and kind, or null.
inline const Json* widget(const Json& widgets, const std::string& label, const std::string& kind) {
    for (const Json& w : widgets) {
        if (w["label"] == label && w["kind"] == kind) return &w;
    }
    return nullptr;
}

inline Json session_of(const fs::path& file) {
    Json j = read_json(file);
    j.erase("plots");
    return j;
}

// A screenshot's RGBA pixels (empty if it cannot be read).
inline std::vector<unsigned char> pixels(const fs::path& png, int& w, int& h) {
    test::Image image = test::load_png(png.string());
    w = image.width;
    h = image.height;
    return std::move(image.rgba);
}

// The pen's ink (presenter_aids.cpp's magenta, exact where a stroke's middle is drawn) in a
// screenshot: the count, and the box around it.
struct Ink {
    std::size_t count = 0;
    int x0 = 1 << 30, y0 = 1 << 30, x1 = -1, y1 = -1;
};
inline Ink ink_in(const std::vector<unsigned char>& rgba, int w) {
    Ink ink;
    for (std::size_t i = 0; i + 3 < rgba.size(); i += 4) {
        if (rgba[i] != 255 || rgba[i + 1] != 0 || rgba[i + 2] != 170) continue;
        const int x = static_cast<int>(i / 4) % w, y = static_cast<int>(i / 4) / w;
        ++ink.count;
        ink.x0 = std::min(ink.x0, x), ink.y0 = std::min(ink.y0, y), ink.x1 = std::max(ink.x1, x), ink.y1 = std::max(ink.y1, y);
    }
    return ink;
}

// The laser's red core (and its glow's reddest part) within `radius` of (cx, cy).
inline std::size_t laser_red_near(const std::vector<unsigned char>& rgba, int w, double cx, double cy, double radius) {
    std::size_t n = 0;
    for (std::size_t i = 0; i + 3 < rgba.size(); i += 4) {
        const int x = static_cast<int>(i / 4) % w, y = static_cast<int>(i / 4) / w;
        if (std::hypot(x - cx, y - cy) <= radius && rgba[i] > 230 && rgba[i + 1] < 60 && rgba[i + 2] < 60) ++n;
    }
    return n;
}

// Presenting a lesson with notes, the aids in use, as a lecturer would: `gui --presenter --lesson
// LESSON --theme projector`, a pen stroke drawn with D held over the audience window, the laser
// held (L) over it, and the audience's screen saved as `shot` in `dir` (its lecturer's console
// as "console.png"). `scene_keys` → presses first reach a later scene. Both strokes keep to the
// audience's right half: under a 1920-wide Xvfb (no window manager) the 1280-wide audience window
// is placed at x 640, its left half under the lecturer's window, which keeps the focus and lies
// on top. The script, for a walk by hand (`ropelab gui --presenter --lesson NAME --theme
// projector --script F`):
//   {"wait": 5}, {"key": "Right"}…, {"hold": "D", "window": "audience"},
//   {"hover": "audience", "window": "audience", "at": [0.55, 0.6], "dx": 240, "dy": -60},
//   {"release": "D", "window": "audience"}, {"hover": "audience", "window": "audience",
//   "at": [0.85, 0.3]}, {"hold": "L", "window": "audience"}, {"wait": 2},
//   {"screenshot": "audience.png", "window": "audience"}, {"release": "L", "window": "audience"}
inline Json presenter_aids_script(const std::string& shot, int scene_keys = 0) {
    Json script = {{{"wait", 5}}};
    for (int i = 0; i < scene_keys; ++i) script.push_back({{"key", "Right"}});
    if (scene_keys > 0) script.push_back({{"wait", 3}});
    for (const Json& step : Json::array({
             {{"hold", "D"}, {"window", "audience"}},
             {{"hover", "audience"}, {"window", "audience"}, {"at", {0.55, 0.6}}, {"dx", 240}, {"dy", -60}},
             {{"release", "D"}, {"window", "audience"}},
             {{"hover", "audience"}, {"window", "audience"}, {"at", {0.85, 0.3}}},  // there, then L (its trail starts there)
             {{"hold", "L"}, {"window", "audience"}},
             {{"wait", 2}},
             {{"screenshot", shot}, {"window", "audience"}},
             {{"screenshot", "console.png"}},
             {{"release", "L"}, {"window", "audience"}},
         })) {
        script.push_back(step);
    }
    return script;
}

inline test::Result present_with_aids(const fs::path& dir, const std::string& lesson, const std::string& shot, int scene_keys = 0) {
    return gui(dir, presenter_aids_script(shot, scene_keys), "--presenter --lesson " + lesson + " --theme projector");
}

}  // namespace ropelab::ui_script
