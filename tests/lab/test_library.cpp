// The lesson library (lesson/library.h): every library lesson loads by its name with the title and
// scene count the table lists; `builtin` is the first; what is a file and what a name; and a
// library lesson opened in the lab is no file, so it joins no recent files.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "core/cpu_device.h"
#include "core/error.h"
#include "lab/lab.h"
#include "lesson/lesson.h"
#include "lesson/library.h"
#include "support/files.h"

namespace ropelab {
namespace {

namespace fs = std::filesystem;

TEST(LessonLibrary, EveryLessonLoadsByNameAsListed) {
    const auto& library = lesson_library();
    ASSERT_GE(library.size(), 2u);
    EXPECT_EQ(library.front().name, "rope-from-first-principles");
    for (const LibraryLesson& l : library) {
        const Lesson lesson = load_lesson(std::string(l.name));  // the full check of every scene
        EXPECT_EQ(lesson.title, l.title) << l.name;
        EXPECT_EQ(static_cast<int>(lesson.scenes.size()), l.scenes) << l.name;
        EXPECT_EQ(find_library_lesson(l.name), &l);
    }
    EXPECT_EQ(find_library_lesson("builtin"), &library.front());
    EXPECT_EQ(load_lesson("builtin").scenes, load_lesson("rope-from-first-principles").scenes);
    EXPECT_EQ(find_library_lesson("no-such-lesson"), nullptr);
}

TEST(LessonLibrary, APathIsAFileABareWordAName) {
    EXPECT_TRUE(names_lesson_file("talks/context-extension"));
    EXPECT_TRUE(names_lesson_file("context-extension.json"));
    EXPECT_TRUE(names_lesson_file("mine.ropelesson"));
    EXPECT_FALSE(names_lesson_file("context-extension"));
    EXPECT_FALSE(names_lesson_file("builtin"));
    EXPECT_FALSE(names_lesson_file("no-such-lesson-here"));  // neither: load_lesson lists the library
    try {
        load_lesson("no-such-lesson-here");
        ADD_FAILURE() << "an unknown name opened";
    } catch (const InputError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("\"no-such-lesson-here\""), std::string::npos) << message;
        for (const LibraryLesson& l : lesson_library()) EXPECT_NE(message.find(std::string(l.name)), std::string::npos) << message;
    }
}

TEST(LessonLibrary, ALibraryLessonOpenedInTheLabIsNoRecentFile) {
    CpuDevice device;
    LabParams p;
    p.playing = false;
    p.max_distance = 256;
    Lab lab(device, p);
    const auto step = [&](lab::Commands commands) { lab.update(1.0, {}, commands); };
    step({lab::cmd::OpenLesson{"context-extension"}});
    ASSERT_TRUE(lab.status().error.empty()) << lab.status().error;
    ASSERT_TRUE(lab.has_lesson());
    EXPECT_TRUE(lab.recent_files().empty()) << lab.recent_files().front();
    // A lesson file opened by its path is remembered.
    const fs::path dir = test::fresh_dir("library_recent");
    test::write_file((dir / "talk.json").string(), std::string(find_library_lesson("context-extension")->json));
    step({lab::cmd::OpenLesson{(dir / "talk.json").string()}});
    ASSERT_TRUE(lab.status().error.empty()) << lab.status().error;
    EXPECT_EQ(lab.recent_files().size(), 1u);
}

}  // namespace
}  // namespace ropelab
