// Lessons in the Lab, driven only through Lab::update and its commands (CPU compute device, no
// GL): a lesson plays the same wherever it is opened (its scenes read against its own first
// state, not the lab's), recording keeps what is on screen, presenting uses the theme chosen,
// ← → step the scene, and closing unsaved scenes can be undone.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/cpu_device.h"
#include "lab/lab.h"
#include "state/schema.h"

namespace ropelab {
namespace {

void step(Lab& lab, lab::Commands commands, lab::Input input = {}) { lab.update(1.0 / 60.0, input, commands); }

std::string temp_file(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / "ropelab_lab_lessons";
    std::filesystem::create_directories(dir);
    return (dir / name).string();
}

// The state the lab shows with a model loaded from a preset, as a user would pick it.
void pick_preset(Lab& lab, const std::string& name) {
    step(lab, {lab::cmd::SelectPreset{name}});
    ASSERT_EQ(lab.params().preset, name) << lab.status().error;
}

Lesson two_scenes_second_without_set() {
    return parse_lesson(R"({"title": "Own model", "scenes": [
        {"title": "One", "caption": "c", "views": [3], "set": {"preset": "llama2-7b", "position": 300}},
        {"title": "Two", "caption": "c", "views": [2]}]})",
                        "own.json");
}

// A scene without `set` shows scene 1's model, not whatever model the lab held when it opened.
TEST(LabLessons, ASceneWithoutSetIsReadAgainstTheLessonsFirstState) {
    CpuDevice device;
    Lab lab(device, LabParams{});
    pick_preset(lab, "gemma3-4b");
    const double gemma_theta = lab.params().model.rope_theta;
    step(lab, {lab::cmd::OpenReadLesson{.lesson = two_scenes_second_without_set(), .present = false, .source = ""}});
    step(lab, {lab::cmd::GoToScene{.scene = 1, .time = 0.0}});
    ASSERT_EQ(lab.scene(), 1);
    LabParams llama;
    schema::assign_text(llama, *schema::by_lesson_name("preset"), "llama2-7b");
    EXPECT_EQ(lab.params().preset, "llama2-7b");
    EXPECT_EQ(lab.params().model.rope_theta, llama.model.rope_theta);
    EXPECT_NE(lab.params().model.rope_theta, gemma_theta);
    EXPECT_EQ(lab.params().model.head_dim, llama.model.head_dim);
    EXPECT_EQ(lab.params().position, 300);
    // Closing returns the lab to the model it had.
    step(lab, {lab::cmd::CloseLesson{}});
    EXPECT_EQ(lab.params().preset, "gemma3-4b");
}

// A scene with its own `set` is read as written: over the defaults, not over scene 1's model.
TEST(LabLessons, ASceneWithSetIsReadOverTheDefaults) {
    CpuDevice device;
    Lab lab(device, LabParams{});
    pick_preset(lab, "gemma3-4b");
    Lesson lesson = two_scenes_second_without_set();
    lesson.scenes[1].set = {{"position", "5"}};
    step(lab, {lab::cmd::OpenReadLesson{.lesson = lesson, .present = false, .source = ""}});
    step(lab, {lab::cmd::GoToScene{.scene = 1, .time = 0.0}});
    EXPECT_EQ(lab.params().model, LabParams{}.model);
    EXPECT_EQ(lab.params().position, 5);
}

// Recorded in the lab (All workspace, a scaled model, a moved position), saved, and reopened in a
// lab that has loaded another model: each scene plays its own model and shows the workspace.
TEST(LabLessons, ARecordedLessonPlaysItsOwnModelWhereverOpened) {
    CpuDevice device;
    const std::string file = temp_file("recorded.ropelesson");
    LabParams recorded_first, recorded_second;
    {
        Lab lab(device, LabParams{});
        pick_preset(lab, "qwen2.5-7b");
        LabParams p = lab.params();
        p.workspace = Workspace::All;
        p.position = 777;
        step(lab, {lab::cmd::SetState{.state = p, .control = "", .notice = ""}});
        recorded_first = lab.params();
        step(lab, {lab::cmd::RecordScene{.animated = false, .seconds = 0}});
        ASSERT_TRUE(lab.status().error.empty()) << lab.status().error;
        // Scene 2: back to the textbook model, theta changed.
        pick_preset(lab, "textbook");
        p = lab.params();
        p.model.rope_theta = 500.0;
        step(lab, {lab::cmd::SetState{.state = p, .control = "", .notice = ""}});
        recorded_second = lab.params();
        step(lab, {lab::cmd::RecordScene{.animated = false, .seconds = 0}});
        ASSERT_EQ(lab.scene_count(), 2);
        const Scene& first = lab.lesson()->scenes[0];
        EXPECT_EQ(first.workspace, Workspace::All) << "the lab showed All's eleven views";
        EXPECT_TRUE(first.views.empty());
        step(lab, {lab::cmd::SaveLesson{file}});
        ASSERT_TRUE(lab.status().error.empty()) << lab.status().error;
    }
    Lab lab(device, LabParams{});
    pick_preset(lab, "gemma3-4b");
    step(lab, {lab::cmd::OpenLesson{file}});
    ASSERT_TRUE(lab.status().error.empty()) << lab.status().error;
    EXPECT_EQ(lab.params().preset, "qwen2.5-7b");
    EXPECT_EQ(lab.params().model, recorded_first.model);
    EXPECT_EQ(lab.params().position, 777);
    EXPECT_EQ(lab.params().workspace, Workspace::All);
    step(lab, {lab::cmd::GoToScene{.scene = 1, .time = 0.0}});
    EXPECT_EQ(lab.params().model, recorded_second.model) << "scene 2 is the textbook model at θ 500, not qwen's";
    EXPECT_EQ(lab.params().model.rope_theta, 500.0);
    EXPECT_EQ(lab.params().position, recorded_second.position);
}

// Moving scene 1 away keeps every scene showing what it showed.
TEST(LabLessons, MovingSceneOneKeepsEverySceneState) {
    CpuDevice device;
    Lab lab(device, LabParams{});
    step(lab, {lab::cmd::OpenReadLesson{.lesson = two_scenes_second_without_set(), .present = false, .source = ""}});
    step(lab, {lab::cmd::GoToScene{.scene = 1, .time = 0.0}});
    const LabParams second = lab.params();
    step(lab, {lab::cmd::MoveScene{.scene = 0, .by = +1}});
    ASSERT_TRUE(lab.status().error.empty()) << lab.status().error;
    ASSERT_EQ(lab.lesson()->scenes[0].title, "Two");
    step(lab, {lab::cmd::GoToScene{.scene = 0, .time = 0.0}});
    EXPECT_EQ(lab.params().model, second.model);
    EXPECT_EQ(lab.params().position, second.position);
}

// Presenting: the user's theme over the lesson's own, over light.
TEST(LabLessons, PresentingUsesTheThemeChosen) {
    CpuDevice device;
    Lesson projected = two_scenes_second_without_set();
    {
        Lab lab(device, LabParams{});
        step(lab, {lab::cmd::OpenReadLesson{.lesson = projected, .present = true, .source = ""}});
        EXPECT_EQ(lab.params().theme, Theme::Light) << "no theme anywhere: light";
        step(lab, {lab::cmd::Present{false}});
        EXPECT_EQ(lab.params().theme, Theme::Dark) << "the user's own again";
    }
    projected.theme = Theme::Projector;
    {
        Lab lab(device, LabParams{});
        step(lab, {lab::cmd::OpenReadLesson{.lesson = projected, .present = true, .source = ""}});
        EXPECT_EQ(lab.params().theme, Theme::Projector) << "the lesson's own";
    }
    {
        LabParams dark;
        dark.theme = Theme::Dark;
        Lab lab(device, dark);
        step(lab, {lab::cmd::OpenReadLesson{.lesson = projected, .present = true, .source = "", .chosen_theme = Theme::Dark}});
        EXPECT_EQ(lab.params().theme, Theme::Dark) << "--theme dark wins over the lesson's projector";
    }
    {
        Lab lab(device, LabParams{});
        step(lab, {lab::cmd::OpenReadLesson{.lesson = two_scenes_second_without_set(), .present = false, .source = ""}});
        LabParams p = lab.params();
        p.theme = Theme::Projector;  // the Display section's Theme
        step(lab, {lab::cmd::SetState{.state = p, .control = "Theme", .notice = ""}});
        step(lab, {lab::cmd::Present{true}});
        EXPECT_EQ(lab.params().theme, Theme::Projector);
        EXPECT_TRUE(lab.params().presenting);
    }
}

// With a lesson open, → and ← step the scene, not the position; without one, the position.
TEST(LabLessons, ArrowsStepTheSceneWhenALessonIsOpen) {
    CpuDevice device;
    Lab lab(device, LabParams{});
    step(lab, {lab::cmd::OpenReadLesson{.lesson = two_scenes_second_without_set(), .present = false, .source = ""}});
    const std::int64_t position = lab.params().position;
    lab::Input right;
    right.shortcuts = {lab::Shortcut::StepForward};
    step(lab, {}, right);
    EXPECT_EQ(lab.scene(), 1);
    EXPECT_EQ(lab.params().position, position);
    lab::Input left;
    left.shortcuts = {lab::Shortcut::StepBack};
    step(lab, {}, left);
    EXPECT_EQ(lab.scene(), 0);
    step(lab, {lab::cmd::CloseLesson{}});
    const std::int64_t before = lab.params().position;
    step(lab, {}, right);
    EXPECT_EQ(lab.params().position, before + 1);
}

// Close lesson with unsaved scenes: Ctrl+Z opens it again with its scenes; Save-then-close saves.
TEST(LabLessons, ClosingUnsavedScenesCanBeUndone) {
    CpuDevice device;
    Lab lab(device, LabParams{});
    step(lab, {lab::cmd::RecordScene{.animated = false, .seconds = 0}});
    step(lab, {lab::cmd::RecordScene{.animated = false, .seconds = 0}});
    ASSERT_EQ(lab.scene_count(), 2);
    EXPECT_TRUE(lab.lesson_unsaved());
    step(lab, {lab::cmd::CloseLesson{}});
    EXPECT_FALSE(lab.has_lesson());
    EXPECT_NE(lab.status().notice.find("Ctrl+Z"), std::string::npos) << lab.status().notice;
    lab::Input undo;
    undo.keys = {lab::Key::Undo};
    step(lab, {}, undo);
    ASSERT_TRUE(lab.has_lesson());
    EXPECT_EQ(lab.scene_count(), 2);
    EXPECT_TRUE(lab.lesson_unsaved());
    const std::string file = temp_file("closed.ropelesson");
    std::filesystem::remove(file);
    step(lab, {lab::cmd::CloseLesson{.save_first = file}});
    EXPECT_FALSE(lab.has_lesson());
    ASSERT_TRUE(std::filesystem::exists(file));
    EXPECT_EQ(load_lesson(file).scenes.size(), 2u);
    // A save that fails keeps the scenes open.
    step(lab, {}, undo);  // nothing unsaved was closed: Ctrl+Z is the lab's own
    EXPECT_FALSE(lab.has_lesson());
    step(lab, {lab::cmd::RecordScene{.animated = false, .seconds = 0}});
    step(lab, {lab::cmd::CloseLesson{.save_first = std::filesystem::temp_directory_path().string()}});
    EXPECT_TRUE(lab.has_lesson()) << "a folder is refused: the lesson stays";
}

}  // namespace
}  // namespace ropelab
