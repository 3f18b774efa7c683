// Every lesson in assets/lessons speaks to the room: each scene has speaker notes for the
// lecturer, and no caption or title tells the audience to press, click, drag or hover, to show
// a view large or make room, or to load something — a slide cannot be operated by the people
// looking at it, so such words belong in the scene's notes. A property of the files (pure: it
// reads the JSON, runs nothing), checked on whatever lessons the folder holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/files.h"

namespace ropelab {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// Words that ask a person at the controls to act: keys, the mouse, the lab's own layout. Whole
// words only, so "expressed", "compressed" or "overhovering" prose does not count.
const std::vector<std::pair<std::string, std::regex>>& instructions() {
    static const auto flags = std::regex::icase | std::regex::ECMAScript;
    static const std::vector<std::pair<std::string, std::regex>> list = {
        {"press", std::regex(R"(\bpress(es|ing)?\b)", flags)},
        {"click", std::regex(R"(\b(double-)?click(s|ing)?\b)", flags)},
        {"drag", std::regex(R"(\bdrag(s|ging)?\b)", flags)},
        {"hover", std::regex(R"(\bhover(s|ing)?\b)", flags)},
        {"scroll", std::regex(R"(\bscroll(s|ing)?\b)", flags)},
        {"show this view", std::regex(R"(\bshow this view\b)", flags)},
        {"make room", std::regex(R"(\bmake room\b)", flags)},
        {"large view", std::regex(R"(\blarge view\b)", flags)},
        {"load …", std::regex(R"(\bload (the|a|an|your)\b)", flags)},
        {"a modifier key", std::regex(R"(\b(ctrl|shift|alt)\s*\+)", flags)},
        {"the panel", std::regex(R"(\b(in|from|open) the panel\b)", flags)},
    };
    return list;
}

// The instructions `text` gives, by name ("" when none).
std::string instructions_in(const std::string& text) {
    std::string found;
    for (const auto& [name, pattern] : instructions()) {
        if (std::regex_search(text, pattern)) found += (found.empty() ? "" : ", ") + name;
    }
    return found;
}

bool blank(const std::string& s) { return s.find_first_not_of(" \t\n") == std::string::npos; }

// The detector is the test: it must catch the slides' old instructions and pass plain prose.
TEST(LessonWords, TheDetectorKnowsAnInstructionFromProse) {
    for (const char* said : {"Sketch it, then press R.", "The rotation's numbers: show this view large (7) or make room.",
                             "Click a plane to focus it.", "Drag the linked Δ line back to 0.", "hover a cell for its numbers",
                             "Then load the llama4-scout preset.", "Ctrl+wheel zooms", "θ_i per pair: large view (6)",
                             "pairs kept, blended, interpolated: hover", "Pressing Space pauses."}) {
        EXPECT_NE(instructions_in(said), "") << said;
    }
    for (const char* prose : {"Content and position are expressed in one vector.", "A compressed context: 8K stretched to 128K.",
                              "The pressure on long-context models.", "Averaged over contents the score falls with distance.",
                              "Llama 4 loads no RoPE in its NoPE layers.", "The load of the cache grows with the context.",
                              "Qwen2-VL's contiguous sections (left) leave width the slowest pairs."}) {
        EXPECT_EQ(instructions_in(prose), "") << prose;
    }
}

TEST(LessonWords, EverySceneHasNotesAndSpeaksToTheRoom) {
    const std::vector<fs::path> files = test::lesson_files();
    ASSERT_FALSE(files.empty()) << "no lessons in assets/lessons";
    for (const fs::path& file : files) {
        const Json lesson = Json::parse(test::slurp(file.string()));
        const std::string name = file.filename().string();
        ASSERT_TRUE(lesson.contains("scenes") && lesson["scenes"].is_array() && !lesson["scenes"].empty()) << name;
        int number = 0;
        for (const Json& scene : lesson["scenes"]) {
            ++number;
            const std::string where = name + " scene " + std::to_string(number);
            const std::string notes = scene.value("notes", "");
            EXPECT_FALSE(blank(notes)) << where << " has no notes for the lecturer";
            for (const char* field : {"title", "caption"}) {
                const std::string text = scene.value(field, "");
                EXPECT_EQ(instructions_in(text), "") << where << "'s " << field << " tells the room to act: " << text;
            }
        }
    }
}

}  // namespace
}  // namespace ropelab
