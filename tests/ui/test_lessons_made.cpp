// tests/ui: presenting from the current scene, the pen, "predict, then reveal", and a lesson made
// in the lab — recorded, reordered, saved, and played back by `gui --lesson` to the same states —
// each through the real window with the script driver.
#include <algorithm>
#include <array>
#include <cmath>

#include "script.h"

namespace ropelab::ui_script {
namespace {

std::string scene_label(const fs::path& widgets) {
    std::string scene;
    for (const Json& w : read_json(widgets)) {
        if (w["label"].get<std::string>().starts_with("scene ")) scene = w["label"];
    }
    return scene;
}

bool has_widget(const fs::path& widgets, const std::string& label) {
    for (const Json& w : read_json(widgets)) {
        if (w["label"] == label) return true;
    }
    return false;
}

std::array<int, 4> box_of(const fs::path& widgets, const std::string& label) {
    for (const Json& w : read_json(widgets)) {
        if (w["label"] == label) return {w["x"].get<int>(), w["y"].get<int>(), w["w"].get<int>(), w["h"].get<int>()};
    }
    ADD_FAILURE() << "no widget " << label;
    return {0, 0, 1, 1};
}

// Pixels inside box `b` within `tolerance` of colour (r, g, b) in every channel.
int count_colour(const std::vector<unsigned char>& img, int w, int h, std::array<int, 4> b, std::array<int, 3> c, int tolerance) {
    int n = 0;
    for (int y = std::max(0, b[1]); y < std::min(h, b[1] + b[3]); ++y) {
        for (int x = std::max(0, b[0]); x < std::min(w, b[0] + b[2]); ++x) {
            const std::size_t i = (static_cast<std::size_t>(y) * w + x) * 4;
            n += std::abs(img[i] - c[0]) <= tolerance && std::abs(img[i + 1] - c[1]) <= tolerance && std::abs(img[i + 2] - c[2]) <= tolerance;
        }
    }
    return n;
}

// The built-in lesson opened in the lab, three scenes on, then Present: the room sees scene 4,
// not scene 1.
TEST(PresentFromHere, PresentStartsAtTheCurrentScene) {
    const fs::path dir = fresh_dir("present_here");
    const Json script = {
        {{"wait", 3}},        {{"click", "Lesson"}},     {{"click", "Open lesson"}}, {{"wait", 3}},
        {{"click", "Next scene"}}, {{"wait", 2}},        {{"click", "Next scene"}},  {{"wait", 2}},
        {{"click", "Next scene"}}, {{"wait", 2}},        {{"widgets", "before.json"}}, {{"click", "Present"}},
        {{"wait", 4}},        {{"widgets", "after.json"}}, {{"state", "presenting.json"}},
    };
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(scene_label(dir / "before.json"), "scene 4/15");
    EXPECT_EQ(scene_label(dir / "after.json"), "scene 4/15");
    EXPECT_FALSE(read_json(dir / "presenting.json")["layout"]["show_controls"].get<bool>()) << "presenting hides the controls";
}

constexpr std::array<int, 3> kPenInk = {255, 0, 170};

// The pen: switched on in the lesson bar, a drag over the views leaves the pen's ink along the
// path; C wipes it; another scene wipes it; holding D draws at the pointer without a button.
TEST(Pen, DrawsAlongTheDragAndClearsWithCOrAnotherScene) {
    const fs::path dir = fresh_dir("pen");
    const Json script = {
        {{"wait", 3}},          {{"click", "Lesson"}},       {{"click", "Open lesson"}},  {{"wait", 3}},
        {{"screenshot", "plain.png"}}, {{"click", "Pen"}},   {{"wait", 2}},               {{"widgets", "w.json"}},
        {{"drag", "Pen canvas"}, {"dx", 200}, {"dy", 80}},   {{"wait", 2}},               {{"screenshot", "drawn.png"}},
        {{"key", "C"}},         {{"wait", 2}},               {{"screenshot", "cleared.png"}},
        {{"drag", "Pen canvas"}, {"dx", 200}, {"dy", 80}},   {{"wait", 2}},               {{"screenshot", "again.png"}},
        {{"click", "Next scene"}}, {{"wait", 3}},            {{"screenshot", "next.png"}},
        {{"click", "Pen"}},     {{"wait", 2}},               {{"key", "D"}},              {{"wait", 2}},
        {{"screenshot", "key_d.png"}}, {{"key", "C"}},      {{"click", "Present"}},      {{"wait", 4}},
        {{"screenshot", "presenting.png"}}, {{"key", "D"}},  {{"wait", 2}},               {{"screenshot", "presenting_d.png"}},
    };
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto canvas = box_of(dir / "w.json", "Pen canvas");
    // The drag went from the canvas's centre by (200, 80): the box around that path.
    const int cx = canvas[0] + canvas[2] / 2, cy = canvas[1] + canvas[3] / 2;
    const std::array<int, 4> path = {cx - 10, cy - 10, 220, 100};
    const std::array<int, 4> middle = {cx + 90, cy + 26, 20, 28};  // around (cx + 100, cy + 40)
    int w = 0, h = 0;
    const auto plain = pixels(dir / "plain.png", w, h), drawn = pixels(dir / "drawn.png", w, h),
               cleared = pixels(dir / "cleared.png", w, h), again = pixels(dir / "again.png", w, h),
               next = pixels(dir / "next.png", w, h), key_d = pixels(dir / "key_d.png", w, h);
    ASSERT_FALSE(plain.empty());
    const std::array<int, 4> screen = {0, 0, w, h};
    EXPECT_EQ(count_colour(plain, w, h, screen, kPenInk, 12), 0) << "no view draws in the pen's ink";
    EXPECT_GT(count_colour(drawn, w, h, path, kPenInk, 12), 300) << "ink along the drag";
    EXPECT_GT(count_colour(drawn, w, h, middle, kPenInk, 12), 10) << "ink halfway along the drag";
    EXPECT_EQ(count_colour(cleared, w, h, screen, kPenInk, 12), 0) << "C clears";
    EXPECT_GT(count_colour(again, w, h, path, kPenInk, 12), 300);
    EXPECT_EQ(count_colour(next, w, h, screen, kPenInk, 12), 0) << "another scene clears";
    // D held for a frame with the pointer where the last click left it (the Pen box): a dot.
    const auto pen_box = box_of(dir / "w.json", "Pen");
    EXPECT_GT(count_colour(key_d, w, h, {pen_box[0] - 20, pen_box[1] - 20, pen_box[2] + 40, pen_box[3] + 40}, kPenInk, 12), 5)
        << "holding D draws at the pointer";
    // Presenting (from the same scene, so nothing to clear but C's): D draws on the slide too.
    const auto presenting = pixels(dir / "presenting.png", w, h), presenting_d = pixels(dir / "presenting_d.png", w, h);
    const std::array<int, 4> slide = {0, 0, w, h};  // fullscreen: the screen's size
    EXPECT_EQ(count_colour(presenting, w, h, slide, kPenInk, 12), 0);
    EXPECT_GT(count_colour(presenting_d, w, h, slide, kPenInk, 12), 5) << "D draws while presenting";
}

// Scene 8 of the built-in lesson hides the score's curves behind a hint; R reveals them for the
// rest of the scene. Presented (light theme): the RoPE curve's red is absent, then present.
TEST(Reveal, ASceneHidesTheCurveUntilR) {
    const fs::path dir = fresh_dir("reveal");
    const Json script = {
        {{"wait", 3}},         {{"key", "PageDown"}, {"repeat", 7}}, {{"wait", 30}},
        {{"widgets", "hidden_w.json"}}, {{"screenshot", "hidden.png"}},
        {{"key", "R"}},        {{"wait", 30}},
        {{"widgets", "shown_w.json"}},   {{"screenshot", "shown.png"}},
    };
    const test::Result r = gui(dir, script, "--lesson builtin --present");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(scene_label(dir / "hidden_w.json"), "scene 8/15");
    // On the slide the room is asked to predict; the key to press is the lecturer's, not theirs.
    const std::string hint = "Predict the curve";
    EXPECT_TRUE(has_widget(dir / "hidden_w.json", hint));
    EXPECT_FALSE(has_widget(dir / "hidden_w.json", "Predict the curve — press R to reveal"));
    EXPECT_FALSE(has_widget(dir / "shown_w.json", hint));
    const auto plot = box_of(dir / "hidden_w.json", "scores");
    int w = 0, h = 0;
    const auto hidden = pixels(dir / "hidden.png", w, h), shown = pixels(dir / "shown.png", w, h);
    ASSERT_FALSE(hidden.empty());
    const std::array<int, 3> rope = {200, 40, 40};  // the light theme's RoPE curve
    EXPECT_LT(count_colour(hidden, w, h, plot, rope, 30), 20) << "no curve before R";
    EXPECT_GT(count_colour(shown, w, h, plot, rope, 30), 500) << "the curve after R";
}

// In the lab (not presenting) too, and in the planes view: a scene hiding view 1 shows its
// planes without the arrows of q and k; R brings them back.
TEST(Reveal, ThePlanesViewHidesItsArrowsUntilRInTheLab) {
    const fs::path dir = fresh_dir("reveal_planes");
    std::ofstream(dir / "l.json") << R"({"scenes": [{"title": "Guess", "caption": "Where will q point?", "views": [1], "hide": [1],
                                         "set": {"position": 5}}]})";
    const Json script = {
        {{"wait", 10}}, {{"widgets", "hidden_w.json"}}, {{"screenshot", "hidden.png"}},
        {{"key", "R"}}, {{"wait", 10}}, {{"widgets", "shown_w.json"}}, {{"screenshot", "shown.png"}},
    };
    const test::Result r = gui(dir, script, "--lesson l.json");
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string hint = "Predict the curve — press R to reveal";
    EXPECT_TRUE(has_widget(dir / "hidden_w.json", hint));
    EXPECT_FALSE(has_widget(dir / "shown_w.json", hint));
    int w = 0, h = 0;
    const auto hidden = pixels(dir / "hidden.png", w, h), shown = pixels(dir / "shown.png", w, h);
    ASSERT_FALSE(hidden.empty());
    const auto title = box_of(dir / "hidden_w.json", "1 Rotation planes");
    const std::array<int, 4> view = {title[0], title[1] + title[3] * 3, title[2], h - title[1] - title[3] * 3};
    const std::array<int, 3> q = {255, 110, 100}, k = {100, 170, 255};  // the dark theme's q and k
    EXPECT_LT(count_colour(hidden, w, h, view, q, 20) + count_colour(hidden, w, h, view, k, 20), 10) << "no arrows before R";
    EXPECT_GT(count_colour(shown, w, h, view, q, 20), 50) << "q's arrows after R";
    EXPECT_GT(count_colour(shown, w, h, view, k, 20), 50) << "k's arrows after R";
}

// The state dump's lesson-settable parts: the model, the curves, the focus, compare mode.
Json lesson_part(const fs::path& state) {
    const Json j = session_of(state);
    Json out;
    for (const char* key : {"preset", "model", "curves", "focus", "compare"}) {
        if (j.contains(key)) out[key] = j[key];
    }
    return out;
}

// A click into a field's text (left of centre, clear of its buttons) and the text typed there.
Json typed(const std::string& label, const std::string& text) {
    return Json::array({{{"click", label}, {"at", {0.1, 0.5}}}, {{"type", text}}});
}

void append(Json& script, const Json& steps) {
    for (const Json& s : steps) script.push_back(s);
}

// A lesson made in the lab: a setting changed and recorded, another changed and recorded with a
// 2 s animation, a third recorded, scenes reordered, one deleted, another recorded; Esc does not
// drop the unsaved lesson; the last scene's text, views and duration edited; a folder refused as
// the file, then saved beside a user's file (left untouched); then `gui --lesson` plays the saved
// file back to the same states, compared field by field.
TEST(LessonsMade, RecordReorderSaveAndPlayBack) {
    const fs::path dir = fresh_dir("lessons_made");
    fs::create_directories(dir / "saved");
    std::ofstream(dir / "saved" / "mine.json") << "{\"a user's\": \"file\"}\n";
    Json script = Json::array({{{"wait", 3}}, {{"click", "Lesson"}}});
    const auto add = [&](const Json& steps) { append(script, steps); };
    add(typed("Head dim d", "96"));
    add({{{"click", "Record scene"}}, {{"wait", 2}}, {{"state", "s1.json"}}});
    add({{{"drag", "key distance"}, {"dx", 40}}, {{"wait", 2}}, {{"click", "Animate"}}});
    add(typed("Over (s)", "2"));
    add({{{"click", "Record scene"}}, {{"wait", 2}}, {{"state", "s2.json"}}, {{"widgets", "rec2.json"}}});
    add({{{"click", "Animate"}}, {{"drag", "Focused pair"}, {"dx", 30}}, {{"wait", 2}}});
    add({{{"click", "Record scene"}}, {{"wait", 2}}, {{"state", "s3.json"}}});
    add({{{"click", "Move scene 3 up"}}, {{"wait", 2}}, {{"click", "Delete 1"}}, {{"wait", 2}}});  // [3, 2]
    add({{{"click", "Move scene 1 down"}}, {{"wait", 2}}, {{"widgets", "moved.json"}}});          // [2, 3]
    add({{{"click", "Move scene 2 up"}}, {{"wait", 2}}});                                         // [3, 2]
    add(typed("Head dim d", "32"));
    add({{{"click", "Record scene"}}, {{"wait", 2}}, {{"state", "s4.json"}}});  // [3, 2, 4]
    add({{{"key", "Escape"}}, {{"wait", 2}}, {{"widgets", "escape.json"}}});   // keeps unsaved scenes
    add(typed("Scene title", "The last word"));
    add(typed("Views", "13"));  // refused: views are 1-12
    add({{{"wait", 2}}, {{"widgets", "views_refused.json"}}});
    add(typed("Views", "3, 1"));
    add(typed("Caption", "Where we end"));
    add(typed("Speaker notes", "Ask the room first"));
    add(typed("Duration (s)", "6"));
    add(typed("Save to", "saved"));
    add({{{"click", "Save lesson"}}, {{"wait", 2}}, {{"widgets", "folder.json"}}});
    add(typed("Save to", "saved/lesson.json"));
    add({{{"click", "Save lesson"}}, {{"wait", 2}}, {{"widgets", "saved.json"}}});
    add({{{"click", "2. Scene 2"}}, {{"wait", 3}}, {{"widgets", "goto.json"}}});
    const test::Result r = gui(dir, script, "--workspace all");  // recorded from the grid of all eleven
    ASSERT_EQ(r.status, 0) << r.err;

    bool animated = false;
    for (const Json& w : read_json(dir / "rec2.json")) {
        animated |= w["label"].get<std::string>().find("recorded scene 2, 1 keyframes over 2 s") != std::string::npos;
    }
    EXPECT_TRUE(animated) << "the second scene animates key distance";
    bool refused = false, saved = false;
    for (const Json& w : read_json(dir / "folder.json")) refused |= w["label"].get<std::string>().find("saved is a folder") != std::string::npos;
    for (const Json& w : read_json(dir / "saved.json")) {
        saved |= w["label"].get<std::string>().find("saved lesson saved/lesson.json (3 scenes)") != std::string::npos;
    }
    EXPECT_TRUE(refused) << "a folder is refused, in words";
    bool views_refused = false;
    for (const Json& w : read_json(dir / "views_refused.json")) {
        views_refused |= w["label"].get<std::string>().find("Views lists 1 to 4 views, each 1-12") != std::string::npos;
    }
    EXPECT_TRUE(views_refused);
    bool kept = false;
    for (const Json& w : read_json(dir / "escape.json")) kept |= w["label"].get<std::string>().find("the lesson has unsaved scenes") != std::string::npos;
    EXPECT_TRUE(kept) << "Esc keeps a lesson with unsaved scenes open, saying why";
    EXPECT_TRUE(saved);
    std::ifstream mine(dir / "saved" / "mine.json");
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(mine), {}), "{\"a user's\": \"file\"}\n");

    const Json lesson = read_json(dir / "saved" / "lesson.json");
    ASSERT_EQ(lesson["scenes"].size(), 3u);
    EXPECT_EQ(lesson["title"], "Untitled lesson");
    EXPECT_EQ(lesson["scenes"][0]["title"], "Scene 3");
    EXPECT_EQ(lesson["scenes"][1]["title"], "Scene 2");
    EXPECT_EQ(lesson["scenes"][2]["title"], "The last word");
    EXPECT_EQ(lesson["scenes"][2]["views"], Json::array({3, 1}));
    EXPECT_EQ(lesson["scenes"][2]["caption"], "Where we end");
    EXPECT_EQ(lesson["scenes"][2]["notes"], "Ask the room first");
    EXPECT_EQ(lesson["scenes"][2]["duration"], 6);
    EXPECT_TRUE(has_widget(dir / "moved.json", "1. Scene 2")) << "moved down, scene 2 came first";
    EXPECT_EQ(scene_label(dir / "goto.json"), "scene 2/3") << "a scene's row shows it";
    // Recorded from the grid of all eleven: the workspace as shown, not two views picked for it.
    EXPECT_FALSE(lesson["scenes"][0].contains("views"));
    EXPECT_EQ(lesson["scenes"][0]["workspace"], "all");
    ASSERT_TRUE(lesson["scenes"][1].contains("keyframes"));
    EXPECT_EQ(lesson["scenes"][1]["keyframes"][0]["param"], "key_distance");
    EXPECT_EQ(lesson["scenes"][1]["keyframes"][0]["duration"], 2);

    // Played back: each scene's state (the animated one after its 2 s) equals the recorded one.
    const fs::path play = fresh_dir("lessons_made_play");
    fs::copy_file(dir / "saved" / "lesson.json", play / "lesson.json");
    const Json back = {
        {{"wait", 5}},  {{"state", "p1.json"}}, {{"click", "Next scene"}}, {{"wait", 1}}, {{"state", "p2_start.json"}},
        {{"wait", 59}}, {{"state", "p2_mid.json"}}, {{"wait", 90}}, {{"state", "p2.json"}}, {{"click", "Next scene"}}, {{"wait", 5}}, {{"state", "p3.json"}},
    };
    const test::Result p = gui(play, back, "--lesson lesson.json");
    ASSERT_EQ(p.status, 0) << p.err;
    EXPECT_EQ(lesson_part(play / "p1.json"), lesson_part(dir / "s3.json"));
    EXPECT_EQ(lesson_part(play / "p2.json"), lesson_part(dir / "s2.json"));
    EXPECT_EQ(lesson_part(play / "p3.json"), lesson_part(dir / "s4.json"));
    // The animation starts where scene 1 (as recorded first) left key distance and moves on
    // towards scene 2's: near the start after a frame, strictly between at about 1 s.
    const auto key_distance = [](const fs::path& f) { return session_of(f)["focus"]["key_distance"].get<double>(); };
    const double from = key_distance(dir / "s1.json"), to = key_distance(dir / "s2.json");
    ASSERT_NE(from, to);
    EXPECT_LE(std::abs(key_distance(play / "p2_start.json") - from), 0.02 * std::abs(to - from) + 1);
    const double mid = key_distance(play / "p2_mid.json");
    EXPECT_GT(std::abs(mid - from), 0.2 * std::abs(to - from));
    EXPECT_GT(std::abs(to - mid), 0.2 * std::abs(to - from));
}

// The theme chosen reaches the slides: `--present --theme projector` presents in the projector
// theme (it was forced to light), and leaving gives the user's own back.
TEST(LessonTheme, PresentHonoursTheThemeChosen) {
    const fs::path dir = fresh_dir("lesson_theme");
    const Json script = {{{"wait", 5}}, {{"state", "presenting.json"}}, {{"key", "Escape"}}, {{"wait", 3}}, {{"state", "left.json"}}};
    const test::Result r = gui(dir, script, "--lesson builtin --present --theme projector");
    ASSERT_EQ(r.status, 0) << r.err;
    const Json presenting = session_of(dir / "presenting.json");
    EXPECT_FALSE(presenting["layout"]["show_controls"].get<bool>()) << "presenting: the controls hidden";
    EXPECT_EQ(presenting["layout"]["theme"], "projector");
    EXPECT_EQ(session_of(dir / "left.json")["layout"]["theme"], "projector");
    const fs::path plain = fresh_dir("lesson_theme_plain");
    ASSERT_EQ(gui(plain, {{{"wait", 5}}, {{"state", "presenting.json"}}}, "--lesson builtin --present").status, 0);
    EXPECT_EQ(session_of(plain / "presenting.json")["layout"]["theme"], "light") << "no theme chosen: light, as before";
}

// A double-click on Record scene records two scenes: the button keeps its place as the lesson
// appears (Close lesson used to move under the pointer and drop the unsaved lesson).
TEST(LessonsMade, DoubleClickOnRecordSceneRecordsTwice) {
    const fs::path dir = fresh_dir("record_twice");
    const Json script = {{{"wait", 3}},
                         {{"click", "Lesson"}},
                         {{"click", "Animate"}},  // twice, off again: the panel scrolled to the Record scene row
                         {{"click", "Animate"}},
                         {{"wait", 2}},
                         {{"widgets", "before.json"}},
                         {{"click", "Record scene"}},
                         {{"widgets", "between.json"}},
                         {{"click", "Record scene"}},
                         {{"wait", 2}},
                         {{"widgets", "after.json"}}};
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::array<int, 4> before = box_of(dir / "before.json", "Record scene");
    EXPECT_EQ(box_of(dir / "between.json", "Record scene"), before) << "Record scene stays where the pointer is";
    const std::array<int, 4> close = box_of(dir / "between.json", "Close lesson");
    const bool overlaps = close[0] < before[0] + before[2] && before[0] < close[0] + close[2] && close[1] < before[1] + before[3] &&
                          before[1] < close[1] + close[3];
    EXPECT_FALSE(overlaps) << "Close lesson is not under Record scene";
    EXPECT_EQ(scene_label(dir / "after.json"), "scene 2/2") << "the lesson stays open with two scenes";
}

// A lesson recorded in the lab and saved, reopened after a Gemma 3 config was dropped on the
// window, plays its own model (it played Gemma's); the Lesson file field names the lesson opened.
TEST(LessonsMade, ARecordedLessonPlaysItsOwnModelAfterAnotherIsLoaded) {
    const fs::path dir = fresh_dir("own_model");
    Json script = Json::array({{{"wait", 3}}, {{"click", "Lesson"}}});
    const auto add = [&](const Json& steps) { append(script, steps); };
    add(typed("Head dim d", "96"));
    add({{{"click", "Record scene"}}, {{"wait", 2}}, {{"state", "recorded.json"}}});
    add(typed("Save to", "own.ropelesson"));
    add({{{"click", "Save lesson"}}, {{"wait", 2}}, {{"click", "Close lesson"}}, {{"wait", 2}}});
    add({{{"drop", std::string(ROPELAB_SOURCE_DIR) + "/assets/presets/gemma3-4b.json"}}, {{"wait", 3}}, {{"state", "gemma.json"}}});
    add(typed("Lesson file", "own.ropelesson"));
    add({{{"click", "Open lesson"}}, {{"wait", 3}}, {{"state", "reopened.json"}}, {{"widgets", "reopened_widgets.json"}}});
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    const Json recorded = session_of(dir / "recorded.json"), gemma = session_of(dir / "gemma.json");
    ASSERT_NE(gemma["model"], recorded["model"]) << "the dropped config changed the model";
    EXPECT_EQ(lesson_part(dir / "reopened.json"), lesson_part(dir / "recorded.json"));
    EXPECT_EQ(session_of(dir / "reopened.json")["model"]["head_dim"], 96);
}

// The Lesson file field names the lesson open: one picked from the Lessons menu, then one
// dropped on the window (it read "builtin" after either). And with a lesson open, → and ← step
// the scene, as the ▶ tooltip says, not the position.
TEST(LessonsMade, TheFileFieldFollowsAndArrowsStepScenes) {
    const fs::path dir = fresh_dir("file_follows");
    std::ofstream(dir / "mine.json") << R"({"title": "Mine", "scenes": [{"title": "One", "caption": "c", "views": [3]},
        {"title": "Two", "caption": "c", "views": [2]}, {"title": "Three", "caption": "c", "views": [1]}]})";
    const Json script = {{{"wait", 3}},
                         {{"click", "Lesson"}},
                         {{"click", "Lessons"}},
                         {{"click", "Context extension"}},
                         {{"wait", 3}},
                         {{"widgets", "menu.json"}},
                         {{"drop", (dir / "mine.json").string()}},
                         {{"wait", 3}},
                         {{"state", "before.json"}},
                         {{"widgets", "dropped.json"}},
                         {{"key", "Right"}},
                         {{"wait", 2}},
                         {{"key", "Right"}},
                         {{"wait", 2}},
                         {{"key", "Left"}},
                         {{"wait", 2}},
                         {{"widgets", "stepped.json"}},
                         {{"state", "after.json"}}};
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    const Json menu = read_json(dir / "menu.json"), dropped = read_json(dir / "dropped.json");
    const Json* field = widget(menu, "Lesson file", "input");
    ASSERT_NE(field, nullptr);
    EXPECT_EQ((*field)["value"], "context-extension");
    field = widget(dropped, "Lesson file", "input");
    ASSERT_NE(field, nullptr);
    EXPECT_EQ((*field)["value"], (dir / "mine.json").string());
    EXPECT_EQ(scene_label(dir / "dropped.json"), "scene 1/3");
    EXPECT_EQ(scene_label(dir / "stepped.json"), "scene 2/3") << "→ → ← from scene 1";
    EXPECT_EQ(session_of(dir / "after.json")["focus"], session_of(dir / "before.json")["focus"]) << "the position did not step";
    // Opened by --lesson: the field names that file, not builtin.
    ASSERT_EQ(gui(dir, {{{"wait", 3}}, {{"widgets", "cli.json"}}}, "--lesson mine.json").status, 0);
    const Json cli = read_json(dir / "cli.json");
    field = widget(cli, "Lesson file", "input");
    ASSERT_NE(field, nullptr);
    EXPECT_EQ((*field)["value"], "mine.json");
}

// Close lesson with unsaved scenes can be undone: Ctrl+Z opens the lesson again with its scenes.
TEST(LessonsMade, ClosingUnsavedScenesCanBeUndone) {
    const fs::path dir = fresh_dir("close_unsaved");
    const Json script = {{{"wait", 3}},
                         {{"click", "Lesson"}},
                         {{"click", "Record scene"}},
                         {{"wait", 2}},
                         {{"click", "Record scene"}},
                         {{"wait", 2}},
                         {{"click", "Close lesson"}},
                         {{"wait", 2}},
                         {{"widgets", "closed.json"}},
                         {{"key", "Z"}, {"mods", {"ctrl"}}},
                         {{"wait", 2}},
                         {{"widgets", "undone.json"}}};
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(scene_label(dir / "closed.json"), "") << "closed";
    EXPECT_TRUE(has_widget(dir / "closed.json", "closed the lesson and its 2 unsaved scenes: Ctrl+Z opens it again"));
    EXPECT_EQ(scene_label(dir / "undone.json"), "scene 2/2") << "Ctrl+Z opens it again with both scenes";
}

}  // namespace
}  // namespace ropelab::ui_script
