// The Lessons menu, clicked in the real window: it lists every library lesson by the title its
// file states, and clicking one opens it at its first scene, with its own scene count and model.
// And the context-extension lesson presented: no text cut, none on other text.
#include <filesystem>
#include <map>
#include <vector>

#include <fmt/format.h>
#include <string>

#include "ui/script.h"

namespace ropelab::ui_script {
namespace {

// assets/lessons: name → the lesson file.
std::map<std::string, Json> lesson_files() {
    std::map<std::string, Json> out;
    for (const auto& entry : fs::directory_iterator(fs::path(ROPELAB_SOURCE_DIR) / "assets" / "lessons")) {
        if (entry.path().extension() == ".json") out[entry.path().stem().string()] = read_json(entry.path());
    }
    return out;
}

TEST(LessonsMenu, ListsTheLibraryAndOpensContextExtension) {
    const fs::path dir = fresh_dir("lessons_menu");
    const Json lesson = read_json(fs::path(ROPELAB_SOURCE_DIR) / "assets" / "lessons" / "context-extension.json");
    const std::string title = lesson["title"];
    const Json script = Json::array({
        {{"wait", 3}},
        {{"click", "Lessons"}},
        {{"wait", 2}},
        {{"widgets", "menu.json"}},
        {{"click", title}},
        {{"wait", 5}},
        {{"widgets", "opened.json"}},
        {{"state", "state.json"}},
    });
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;

    // Every library lesson is an item of the Lessons menu, by its file's title.
    const Json menu = read_json(dir / "menu.json");
    for (const auto& [name, file] : lesson_files()) {
        const Json* item = widget(menu, file["title"], "menu item");
        ASSERT_NE(item, nullptr) << name << " (\"" << file["title"] << "\") is not in the Lessons menu";
        EXPECT_EQ((*item)["item_of"], "Lessons");
    }

    // Opened at its first scene: the scene line counts the file's scenes and shows scene 1's title.
    const Json opened = read_json(dir / "opened.json");
    const std::string scene_line = "scene 1/" + std::to_string(lesson["scenes"].size());
    const Json* scene = widget(opened, scene_line, "message");
    ASSERT_NE(scene, nullptr) << "no \"" << scene_line << "\" after clicking " << title;
    EXPECT_EQ((*scene)["value"], lesson["scenes"][0]["title"]);
    // The lab plays scene 1's own settings.
    EXPECT_EQ(read_json(dir / "state.json")["preset"], lesson["scenes"][0]["set"]["preset"]);
}

// Every slide presented on a 1280×720 and a 1920×1080 window, in the light and the projector
// theme: the {"clipped"} and {"overlaps"} dumps after each.
TEST(LessonsMenu, ContextExtensionSlidesFit) {
    const int scenes = static_cast<int>(lesson_files().at("context-extension")["scenes"].size());
    std::vector<std::string> found;
    for (const char* args : {"", "--size 1920x1080", "--theme projector"}) {
        const fs::path dir = fresh_dir("lessons_context_slides");
        Json script = Json::array();
        for (int scene = 1; scene <= scenes; ++scene) {
            script.push_back({{"wait", 3}});
            script.push_back({{"clipped", fmt::format("c{}.json", scene)}});
            script.push_back({{"overlaps", fmt::format("o{}.json", scene)}});
            script.push_back({{"key", "PageDown"}});
        }
        const test::Result r = gui(dir, script, fmt::format("--lesson context-extension --present {}", args));
        ASSERT_EQ(r.status, 0) << r.err;
        for (int scene = 1; scene <= scenes; ++scene) {
            for (const Json& c : read_json(dir / fmt::format("c{}.json", scene))) {
                found.push_back(fmt::format("{} scene {}: \"{}\" cut", args, scene, c["text"].get<std::string>()));
            }
            for (const Json& o : read_json(dir / fmt::format("o{}.json", scene))) {
                found.push_back(fmt::format("{} scene {}: \"{}\" {}", args, scene, o["text"].get<std::string>(), o["kind"].get<std::string>()));
            }
        }
    }
    std::string listed;
    for (const std::string& line : found) listed += line + "\n";
    EXPECT_EQ(listed, "");
}

}  // namespace
}  // namespace ropelab::ui_script
