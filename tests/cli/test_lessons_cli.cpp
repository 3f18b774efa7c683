// The lesson library through the binary: `ropelab lessons` lists every lesson file in
// assets/lessons with the title and scene count that file states; `--lesson NAME` opens one
// wherever --lesson is taken (render here; gui in tests/ui/test_lessons_menu.cpp); an unknown name
// is refused naming it and listing the library; a path still opens a file.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "support/files.h"
#include "support/run_binary.h"

namespace ropelab {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// The lessons the source tree ships, by name (the file's base name): what the binary embeds.
std::map<std::string, Json> lesson_files() {
    std::map<std::string, Json> out;
    for (const auto& entry : fs::directory_iterator(fs::path(ROPELAB_SOURCE_DIR) / "assets" / "lessons")) {
        if (entry.path().extension() == ".json") out[entry.path().stem().string()] = test::read_json(entry.path());
    }
    return out;
}

TEST(LessonsCli, ListsEveryLessonFileWithItsTitleAndSceneCount) {
    const test::Result r = test::run("lessons --format json");
    ASSERT_EQ(r.status, 0) << r.err;
    const Json listed = Json::parse(r.out);
    ASSERT_TRUE(listed.is_array());
    const auto files = lesson_files();
    std::set<std::string> names;
    for (const Json& l : listed) {
        const std::string name = l["name"];
        names.insert(name);
        ASSERT_TRUE(files.contains(name)) << name << " is listed but assets/lessons has no " << name << ".json";
        const Json& file = files.at(name);
        EXPECT_EQ(l["title"], file["title"]) << name;
        EXPECT_EQ(l["scenes"], file["scenes"].size()) << name;
        EXPECT_FALSE(l["summary"].get<std::string>().empty()) << name;
    }
    for (const auto& [name, file] : files) EXPECT_TRUE(names.contains(name)) << name << ".json is not in the library's table";
    // The first is the lesson `builtin` names; the context-extension lesson is in the library.
    EXPECT_EQ(listed.front()["name"], "rope-from-first-principles");
    EXPECT_TRUE(names.contains("context-extension"));
    // The library lessons besides the first teach one topic in 8–15 scenes.
    for (const Json& l : listed) {
        if (l["name"] == "rope-from-first-principles") continue;
        EXPECT_GE(l["scenes"].get<int>(), 8) << l["name"];
        EXPECT_LE(l["scenes"].get<int>(), 15) << l["name"];
    }
}

TEST(LessonsCli, TextListingHasOneLinePerLesson) {
    const test::Result text = test::run("lessons");
    ASSERT_EQ(text.status, 0) << text.err;
    for (const auto& [name, file] : lesson_files()) {
        // The name, then its scene count and title on the same line.
        std::istringstream lines(text.out);
        std::string line;
        bool found = false;
        while (std::getline(lines, line)) {
            if (line.rfind(name + " ", 0) != 0) continue;
            found = true;
            EXPECT_NE(line.find(" " + std::to_string(file["scenes"].size()) + " "), std::string::npos) << line;
            EXPECT_NE(line.find(file["title"].get<std::string>()), std::string::npos) << line;
        }
        EXPECT_TRUE(found) << name << " missing from:\n" << text.out;
    }
}

TEST(LessonsCli, EveryLibraryLessonRendersByName) {
    const std::string dir = test::fresh_dir("lessons_by_name").string();
    for (const auto& [name, file] : lesson_files()) {
        const std::string out = dir + "/" + name + ".png";
        const test::Result r = test::run("render --lesson " + name + " --scene 1 --size 640x360 --out " + out);
        EXPECT_EQ(r.status, 0) << name << ": " << r.err;
        EXPECT_GT(fs::exists(out) ? fs::file_size(out) : 0, 1000u) << name;
    }
}

TEST(LessonsCli, ContextExtensionSceneOneAndTheBuiltinAlias) {
    const std::string dir = test::fresh_dir("lessons_context").string();
    test::Result r = test::run("render --lesson context-extension --scene 1 --out " + dir + "/ce.png");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir + "/ce.png"));
    // `builtin` stays the first lesson's name: the same slide, pixel for pixel.
    r = test::run("render --lesson builtin --scene 2 --size 640x360 --out " + dir + "/alias.png");
    ASSERT_EQ(r.status, 0) << r.err;
    r = test::run("render --lesson rope-from-first-principles --scene 2 --size 640x360 --out " + dir + "/named.png");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(test::slurp(dir + "/alias.png"), test::slurp(dir + "/named.png"));
}

TEST(LessonsCli, UnknownNameIsRefusedListingTheLibrary) {
    const std::string dir = test::fresh_dir("lessons_unknown").string();
    const test::Result r = test::run("render --lesson context-extensoin --scene 1 --out " + dir + "/x.png");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("\"context-extensoin\""), std::string::npos) << r.err;
    for (const auto& [name, file] : lesson_files()) EXPECT_NE(r.err.find(name), std::string::npos) << name << " not listed: " << r.err;
    EXPECT_NE(r.err.find("builtin"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir + "/x.png"));
    // The same refusal before the lab's window would open.
    const test::Result gui = test::run("gui --lesson no-such-lesson --size 320x240");
    EXPECT_EQ(gui.status, 2);
    EXPECT_NE(gui.err.find("\"no-such-lesson\""), std::string::npos) << gui.err;
}

TEST(LessonsCli, APathIsAFileEvenWithALessonsName) {
    // A file named like a library lesson opens as a file when given as a path: the working
    // directory's copy, with its own title, not the embedded lesson.
    const fs::path dir = test::fresh_dir("lessons_path");
    Json lesson = test::read_json(fs::path(ROPELAB_SOURCE_DIR) / "assets" / "lessons" / "context-extension.json");
    lesson["scenes"] = Json::array({lesson["scenes"][0]});
    lesson["scenes"][0]["title"] = "A local copy";
    test::write_file((dir / "context-extension.json").string(), lesson.dump());
    const std::string run_in = "cd '" + dir.string() + "' && ";
    test::Result r = test::run("render --lesson ./context-extension.json --scene 1 --out local.png", run_in);
    EXPECT_EQ(r.status, 0) << r.err;
    r = test::run("render --lesson context-extension.json --scene 2 --out local2.png", run_in);
    EXPECT_EQ(r.status, 2) << "the local copy has one scene: " << r.err;
    // A bare name is the library's, even beside a file of that very name.
    test::write_file((dir / "context-extension").string(), lesson.dump());
    r = test::run("render --lesson context-extension --scene 2 --out library.png", run_in);
    EXPECT_EQ(r.status, 0) << r.err;
    r = test::run("render --lesson ./context-extension --scene 2 --out local3.png", run_in);
    EXPECT_EQ(r.status, 2) << "./NAME is the file: " << r.err;
    // A bare word that is no library lesson opens the file of that name (a lesson saved without
    // an extension, `ropelab talk`).
    test::write_file((dir / "talk").string(), lesson.dump());
    r = test::run("render --lesson talk --scene 1 --out talk.png", run_in);
    EXPECT_EQ(r.status, 0) << r.err;
    // A missing file is a file's refusal, not the library's.
    r = test::run("render --lesson ./nothing-here.json --scene 1 --out x.png", run_in);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.find("the library"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ropelab
