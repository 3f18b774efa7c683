// tests/ui: hostile sessions refused at the door, and random clicking through the X server.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "script.h"

namespace ropelab::ui_script {
namespace {

// ---- hostile sessions are refused at the door ----------------------------------------------

std::string base64url(const std::string& bytes) {
    static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string out;
    unsigned buffer = 0;
    int bits = 0;
    for (unsigned char c : bytes) {
        buffer = (buffer << 8) | c;
        bits += 8;
        while (bits >= 6) out += alphabet[(buffer >> (bits -= 6)) & 63];
    }
    if (bits > 0) out += alphabet[(buffer << (6 - bits)) & 63];
    return out;
}

TEST(HostileSession, HugeValuesAreRefusedNamingTheFieldWithinASecond) {
    const std::vector<std::pair<Json, std::string>> cases = {
        {{{"ropelab_session", 2}, {"curves", {{"samples", 2e9}}}}, "curves.samples = 2000000000 is out of range (1 .. 65536)"},
        {{{"ropelab_session", 2}, {"model", {{"head_dim", 2e7}}}}, "model.head_dim = 20000000 is out of range (2 .. 512)"},
        {{{"ropelab_session", 2}, {"curves", {{"invariance_distance", 9223372036854775807LL}}}},
         "curves.invariance_distance = 9223372036854775807 is out of range (0 .. 2147483647)"},
    };
    for (const auto& [session, words] : cases) {
        const auto start = std::chrono::steady_clock::now();
        const test::Result r = test::run("gui --frames 1 --session " + base64url(session.dump()));
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        EXPECT_EQ(r.status, 2) << session.dump();
        EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
        EXPECT_LT(seconds, 1.0) << session.dump();
    }
    // The same refusal when the string is pasted into the panel; the lab keeps its state.
    const fs::path dir = fresh_dir("hostile");
    const Json script = {{{"state", "before.json"}},
                         {{"click", "Session"}},
                         {{"click", "Share string"}},
                         {{"type", base64url(cases[0].first.dump())}},
                         {{"click", "Open share string"}},
                         {{"wait", 2}},
                         {{"widgets", "w.json"}},
                         {{"state", "after.json"}}};
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    bool named = false;
    for (const Json& w : read_json(dir / "w.json")) {
        if (w["kind"] == "message" && w["label"].get<std::string>().find(cases[0].second) != std::string::npos) named = true;
    }
    EXPECT_TRUE(named) << "the panel should show: " << cases[0].second;
    EXPECT_EQ(session_of(dir / "before.json"), session_of(dir / "after.json"));
}

// A share string of non-ASCII text typed through `gui --script` used to end the app with an
// "internal error" (the refusal quoted one byte of 'é', and the widget log could not be saved as
// JSON). Each is now refused in the panel, naming the character, and the lab keeps its state.
TEST(HostileSession, NonAsciiShareStringsAreRefusedNamingTheCharacter) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"h\u00e9llo", "U+00E9 (at byte 2) is not a base64url character"},
        {"\u65e5\u672c", "U+65E5 (at byte 1) is not a base64url character"},
        {"eyJ\u20ac", "U+20AC (at byte 4) is not a base64url character"},
        {base64url("\xff{}"), "not valid JSON"},  // valid base64url of bytes that are not UTF-8
    };
    for (const auto& [text, words] : cases) {
        const fs::path dir = fresh_dir("nonascii");
        const Json script = {{{"state", "before.json"}},  {{"click", "Session"}}, {{"click", "Share string"}},
                             {{"type", text}},            {{"click", "Open share string"}},
                             {{"wait", 2}},               {{"widgets", "w.json"}}, {{"state", "after.json"}}};
        const test::Result r = gui(dir, script);
        ASSERT_EQ(r.status, 0) << words << ": " << r.err;
        bool named = false;
        for (const Json& w : read_json(dir / "w.json")) {
            if (w["kind"] == "message" && w["label"].get<std::string>().find(words) != std::string::npos) named = true;
        }
        EXPECT_TRUE(named) << "the panel should show: " << words;
        EXPECT_EQ(session_of(dir / "before.json"), session_of(dir / "after.json")) << words;
    }
}

// A 17,000-character path typed into a path field, then used: the refusal quoting it, drawn
// wrapped, overflowed ImGui's 16-bit vertex indices and aborted the app. Path fields now hold at
// most 4096 characters (PATH_MAX), saying so, and long text on screen shows its start and length.
TEST(HostileSession, AHugePathTypedIntoAFieldIsCutAndRefused) {
    const std::string path = "/tmp/" + std::string(17000, 'a');
    const std::vector<std::pair<std::string, std::string>> fields = {
        {"Config file", "Load config"}, {"Export file", "Start export"}, {"Session file", "Open session"}};
    for (const auto& [field, action] : fields) {
        const fs::path dir = fresh_dir("hugepath");
        Json script = {{{"click", field}}, {{"type", path}}, {{"click", action}}, {{"wait", 3}}, {{"widgets", "w.json"}}};
        if (field != "Config file") script.insert(script.begin(), Json{{"click", field.substr(0, field.find(' '))}});  // its section
        const test::Result r = gui(dir, script);
        ASSERT_EQ(r.status, 0) << field << ": " << r.err.substr(0, 400);
        bool limit_named = false;
        std::size_t typed = 0;
        for (const Json& w : read_json(dir / "w.json")) {
            const std::string label = w["label"].get<std::string>();
            if (w["kind"] == "message" && label == field + ": at most 4096 characters; the rest was cut") limit_named = true;
            if (w["kind"] == "input" && label == field) typed = w["value"].get<std::string>().size();
        }
        EXPECT_TRUE(limit_named) << field;
        EXPECT_EQ(typed, 4096u) << field;
    }
}

// An export the renderer refuses used to say only "not saved (stopped or refused)": the panel
// and the log now give the renderer's reason.
TEST(HostileSession, TheExportPanelSaysWhyAnExportWasRefused) {
    const fs::path dir = fresh_dir("exportwhy");
    const Json script = {{{"click", "Export"}}, {{"click", "Export file"}}, {{"type", "anim.gif"}}, {{"click", "Frames"}},
                         {{"type", "0"}},      {{"click", "Start export"}}, {{"wait", 120}},         {{"widgets", "w.json"}}};
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string why = "not saved: --frames: must be in [1, 100000] (got 0)";
    bool shown = false;
    for (const Json& w : read_json(dir / "w.json")) {
        if (w["kind"] == "message" && w["label"] == why) shown = true;
    }
    EXPECT_TRUE(shown) << "the panel should show: " << why;
    EXPECT_NE(r.err.find("export to anim.gif: " + why), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "anim.gif"));
}

// A long caption while presenting leaves the views no room; their windows then submit no items,
// and the widget log took the title bar's ID for the plot's, a "duplicate ImGui ID" (exit 3).
// Presented full screen here (1920x1080, and 320x480 in its own ctest entry).
TEST(HostileLesson, ALongCaptionWhilePresentingIsNoDuplicateId) {
    const fs::path dir = fresh_dir("caption");
    std::string caption;
    for (int i = 0; i < 420; ++i) caption += (i ? " caption" : "caption") + std::to_string(i);
    const Json lesson = {{"title", "t"}, {"scenes", {{{"title", "A long one"}, {"caption", caption}, {"views", {3, 5}}}}}};
    std::ofstream(dir / "lesson.json") << lesson.dump();
    const test::Result r = test::run("gui --lesson lesson.json --present --frames 10", "cd '" + dir.string() + "' &&");
    EXPECT_EQ(r.status, 0) << r.err.substr(0, 600);
    EXPECT_EQ(r.err.find("duplicate"), std::string::npos) << r.err.substr(0, 600);
}

// Issue 34: editing a scene's title in the Lesson panel and saving cut that scene's caption,
// which the user never touched, to 4096 bytes (the field's limit counted bytes, and the field cut
// the text it showed every frame). The panel and the loader now share one limit, in characters,
// and a field not edited is written back byte for byte: a caption of 3,000 two-byte and 300
// three-byte characters (6,900 bytes, within the loader's 8,192 characters) comes back whole.
TEST(HostileLesson, EditingATitleKeepsTheCaptionAndNotesByteForByte) {
    const fs::path dir = fresh_dir("caption_kept");
    std::string caption, notes;
    for (int i = 0; i < 3000; ++i) caption += "\u00e9";
    for (int i = 0; i < 300; ++i) caption += "\u65e5";
    caption += " \\ \"quoted\" <end>";
    for (int i = 0; i < 2700; ++i) notes += "\u00e9";  // 5,400 bytes: within the old byte limit too
    const Json lesson = {{"title", "t"},
                         {"scenes", {{{"title", "Old title"}, {"caption", caption}, {"notes", notes}, {"views", {3}}},
                                     {{"title", "Second"}, {"caption", "c"}, {"views", {3, 5}}}}}};
    std::ofstream(dir / "lesson.json") << lesson.dump();
    const Json script = {{{"wait", 3}},
                         {{"click", "Lesson"}},
                         {{"click", "Lesson file"}, {"at", {0.1, 0.5}}},
                         {{"type", "lesson.json"}},
                         {{"click", "Open lesson"}},
                         {{"wait", 3}},
                         {{"click", "Scene title"}, {"at", {0.1, 0.5}}},
                         {{"type", "New title \u2713"}},
                         {{"wait", 2}},
                         {{"click", "Save to"}, {"at", {0.1, 0.5}}},
                         {{"type", "saved.json"}},
                         {{"click", "Save lesson"}},
                         {{"wait", 2}},
                         {{"widgets", "w.json"}}};
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err.substr(0, 600);
    ASSERT_TRUE(fs::exists(dir / "saved.json")) << r.err.substr(0, 600);
    const Json saved = read_json(dir / "saved.json");
    ASSERT_EQ(saved["scenes"].size(), 2u);
    EXPECT_EQ(saved["scenes"][0]["title"], "New title \u2713");
    EXPECT_EQ(saved["scenes"][0]["caption"].get<std::string>(), caption) << "the caption's bytes: "
                                                                         << saved["scenes"][0]["caption"].get<std::string>().size();
    EXPECT_EQ(saved["scenes"][0]["notes"].get<std::string>(), notes);
    EXPECT_EQ(saved["scenes"][1]["caption"], "c");
    // No field says it cut anything: none is at its limit in characters.
    for (const Json& w : read_json(dir / "w.json")) {
        EXPECT_EQ(w["label"].get<std::string>().find("the rest was cut"), std::string::npos) << w["label"];
    }
}

// Issue 34: `gui --presenter` with a scene title of ~17,000 characters aborted on ImGui's 16-bit
// index assertion (the presenter's scene list drew the whole title unclipped). A title is at
// most 512 characters, refused at the door naming the file, the scene and the count; a title at
// that limit (wide characters) is presented, with the presenter window, without an abort.
TEST(HostileLesson, AHugeTitleIsRefusedAndTheLongestIsPresented) {
    const fs::path dir = fresh_dir("huge_title");
    const auto write_lesson = [&](const std::string& title) {
        const Json lesson = {{"title", "t"}, {"scenes", {{{"title", title}, {"caption", "c"}, {"views", {3}}},
                                                         {{"title", title}, {"caption", "c"}, {"views", {3, 5}}}}}};
        std::ofstream(dir / "lesson.json") << lesson.dump();
    };
    write_lesson(std::string(17000, 'T'));
    test::Result r = test::run("gui --lesson lesson.json --presenter --frames 5", "cd '" + dir.string() + "' &&");
    EXPECT_EQ(r.status, 2) << r.err.substr(0, 600);
    EXPECT_NE(r.err.find("lesson.json: scene 1 (\"" + std::string(77, 'T') + "...\"): \"title\" has 17000 characters (at most 512)"),
              std::string::npos)
        << r.err.substr(0, 600);
    std::string longest;
    for (int i = 0; i < 512; ++i) longest += "\u00e9";
    write_lesson(longest);
    r = test::run("gui --lesson lesson.json --presenter --frames 10", "cd '" + dir.string() + "' &&");
    EXPECT_EQ(r.status, 0) << r.err.substr(0, 600);
}

// A config whose model type the family table does not know, dropped onto the window: refused,
// the model kept, and a "Read with these" button offered; picking the layout in the panel and
// pressing it reads the file with that layout (the window's --layout), the rest from the file.
TEST(UnknownFamily, ReadInTheWindowWithThePanelsLayout) {
    const fs::path dir = fresh_dir("unknown_family");
    const fs::path config = dir / "mystery.json";
    std::ofstream(config) << R"({"model_type": "mystery_lm", "head_dim": 64, "rope_theta": 50000.0,
        "max_position_embeddings": 4096, "num_hidden_layers": 2})";
    const Json script = {{{"state", "before.json"}},   {{"drop", config.string()}},     {{"wait", 2}},
                         {{"widgets", "refused.json"}}, {{"state", "refused_state.json"}}, {{"click", "half"}},
                         {{"click", "Read with these"}}, {{"wait", 2}},                   {{"state", "read.json"}},
                         {{"widgets", "read_widgets.json"}}};
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err.substr(0, 600);
    bool refused = false, offered = false;
    for (const Json& w : read_json(dir / "refused.json")) {
        const std::string label = w["label"].get<std::string>();
        if (w["kind"] == "message" && label.find("model_type \"mystery_lm\" is not in ropelab's family table") != std::string::npos &&
            label.find("press \"Read with these\"") != std::string::npos) {
            refused = true;
        }
        if (label == "Read with these") offered = true;
    }
    EXPECT_TRUE(refused) << "the panel should name the model type and the way out";
    EXPECT_TRUE(offered);
    EXPECT_EQ(session_of(dir / "before.json")["model"], session_of(dir / "refused_state.json")["model"]);
    const Json model = read_json(dir / "read.json")["model"];
    EXPECT_EQ(model["layout"], "half");
    EXPECT_EQ(model["head_dim"], 64);
    EXPECT_EQ(model["rope_theta"], 50000.0);
    EXPECT_EQ(model["max_position_embeddings"], 4096);
    EXPECT_EQ(model["partial_rotary_factor"], 1.0);
    bool button_gone = true;
    for (const Json& w : read_json(dir / "read_widgets.json")) {
        if (w["label"] == "Read with these") button_gone = false;
    }
    EXPECT_TRUE(button_gone) << "read: the offer goes";
}

// Files dropped onto the window (each read as a config): every hostile one is refused in the
// panel naming the file and the problem, the model stays, and the app lives on.
TEST(HostileDrop, DroppedHostileFilesAreRefusedNamingTheProblem) {
    const fs::path dir = fresh_dir("drops");
    const auto write = [&](const std::string& name, const std::string& bytes) {
        test::write_file((dir / name).string(), bytes);
        return (dir / name).string();
    };
    std::string many = "[", keys = "{";
    for (int i = 0; i < 600000; ++i) many += i ? ",{}" : "{}";
    for (int i = 0; i < 200000; ++i) keys += (i ? ",\"k" : "\"k") + std::to_string(i) + "\": 0";
    fs::create_directories(dir / "folder");
    const std::vector<std::pair<std::string, std::string>> drops = {
        {write("text.json", "not json"), "text.json: not valid JSON"},
        {write("empty.json", ""), "empty.json: not valid JSON"},
        {write("deep.json", std::string(300, '[') + std::string(300, ']')), "deep.json: nested deeper than 256 levels"},
        {write("many.json", many + "]"), "many.json: more than 200000 values"},
        {write("keys.json", keys + "}"), "keys.json: an object has more than 20000 keys"},
        {write("binary.bin", std::string("\x89PNG\r\n\x1a\n\0\0\0", 11)), "binary.bin: not valid JSON"},
        {write("utf8.json", "{\"model_type\": \"\xff\"}"), "utf8.json: not valid JSON"},
        {write("theta.json", R"({"head_dim": 64, "rope_theta": -1})"), "theta.json: rope_theta = -1 is out of range"},
        {write("head.json", R"({"head_dim": 1e300})"), "head.json: head_dim = 1e+300 is out of range"},
        {write("array.json", "[1, 2]"), "array.json: the top level must be a JSON object"},
        {(dir / "folder").string(), "folder: no config.json in this folder"},
        {(dir / "missing.json").string(), "missing.json: cannot open config file (it does not exist)"},
        {"/dev/zero", "/dev/zero: not a config file (not a regular file)"},
    };
    Json script = {{{"state", "before.json"}}};
    for (std::size_t i = 0; i < drops.size(); ++i) {
        script.push_back({{"drop", drops[i].first}});
        script.push_back({{"wait", 2}});
        script.push_back({{"widgets", "w" + std::to_string(i) + ".json"}});
    }
    script.push_back({{"state", "after.json"}});
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err.substr(0, 600);
    for (std::size_t i = 0; i < drops.size(); ++i) {
        bool named = false;
        for (const Json& w : read_json(dir / ("w" + std::to_string(i) + ".json"))) {
            if (w["kind"] == "message" && w["label"].get<std::string>().find(drops[i].second) != std::string::npos) named = true;
        }
        EXPECT_TRUE(named) << "drop " << drops[i].first.substr(0, 80) << ": the panel should show " << drops[i].second;
    }
    EXPECT_EQ(session_of(dir / "before.json")["model"], session_of(dir / "after.json")["model"]);
}

// ---- random clicking through the X server ----------------------------------------------------

int sh(const std::string& command) { return std::system(command.c_str()); }

bool alive(pid_t pid) {
    int status = 0;
    return waitpid(pid, &status, WNOHANG) == 0;
}

// `args` after `gui --size 1280x720 --ui-scale 1`: a lesson presented in two windows, say. With
// two windows the actions go to the first xdotool finds.
void random_session(unsigned seed, int actions, std::vector<std::string> args = {}) {
    const fs::path dir = fresh_dir("random" + std::to_string(seed));
    const pid_t pid = fork();
    if (pid == 0) {
        fs::current_path(dir);
        setenv("ROPELAB_SCREENSHOT_DIR", dir.c_str(), 1);
        const int log = ::open((dir / "app.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(log, 1);
        dup2(log, 2);
        std::vector<std::string> argv = {ROPELAB_BINARY, "gui", "--size", "1280x720", "--ui-scale", "1"};
        argv.insert(argv.end(), args.begin(), args.end());
        std::vector<char*> c_argv;
        for (std::string& a : argv) c_argv.push_back(a.data());
        c_argv.push_back(nullptr);
        execv(ROPELAB_BINARY, c_argv.data());
        _exit(127);
    }
    ASSERT_GT(pid, 0);
    const std::string window_file = (dir / "window.txt").string();
    ASSERT_EQ(sh("timeout 20 xdotool search --sync --onlyvisible --pid " + std::to_string(pid) + " > '" + window_file + "'"), 0);
    std::string window = test::slurp(window_file);
    window = window.substr(0, window.find('\n'));
    ASSERT_FALSE(window.empty());
    std::mt19937 rng(seed);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    static const char* keys[] = {"Escape", "Tab", "space", "Right", "Left", "Up", "Down", "Next", "Prior", "Home", "End",
                                 "F1", "b", "0", "1", "3", "5", "8", "9", "plus", "minus", "Return", "BackSpace", "a", "ctrl+a",
                                 "d", "c", "r", "s"};
    const std::string w = " --window " + window + " ";
    // xdotool waits 100 ms after every click and 12 ms per typed character by default; the
    // window's input queue hands ImGui one change per frame however quickly they come, so a
    // short delay keeps every press, release and double click while the run spends its time in
    // the app rather than in xdotool's sleeps.
    const std::string xclick = " click --delay 20 ";
    for (int i = 0; i < actions && alive(pid); ++i) {
        const int x = pick(1280), y = pick(720);
        switch (pick(10)) {
            case 0:
            case 1:
            case 2:
            case 3: sh("xdotool mousemove" + w + std::to_string(x) + " " + std::to_string(y) + xclick + "1"); break;
            case 4:
                sh("xdotool mousemove" + w + std::to_string(x) + " " + std::to_string(y) + " mousedown 1 mousemove_relative -- " +
                   std::to_string(pick(200) - 100) + " " + std::to_string(pick(100) - 50) + " mouseup 1");
                break;
            case 5: sh("xdotool mousemove" + w + std::to_string(x) + " " + std::to_string(y) + xclick + "--repeat 2 1"); break;
            case 6: {  // the wheel, alone (x zoom), with Ctrl (y zoom), or a Shift+drag (box zoom)
                const std::string at = "xdotool mousemove" + w + std::to_string(x) + " " + std::to_string(y);
                const int how = pick(3);
                if (how == 0) sh(at + xclick + std::to_string(4 + pick(2)));
                if (how == 1) sh(at + " keydown ctrl" + xclick + std::to_string(4 + pick(2)) + " keyup ctrl");
                if (how == 2) {
                    sh(at + " keydown shift mousedown 1 mousemove_relative -- " + std::to_string(pick(200) - 100) + " " +
                       std::to_string(pick(100) - 50) + " mouseup 1 keyup shift");
                }
                break;
            }
            case 7:
            case 8: sh("xdotool key" + w + keys[pick(static_cast<int>(std::size(keys)))]); break;
            case 9: sh("xdotool type --delay 5" + w + "-- " + std::to_string(pick(100000))); break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(15));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const bool survived = alive(pid);
    kill(pid, SIGTERM);
    int status = 0;
    waitpid(pid, &status, 0);
    const std::string log = test::slurp((dir / "app.log").string());
    EXPECT_TRUE(survived) << "seed " << seed << ": the app died\n" << log.substr(0, 4000);
    EXPECT_EQ(log.find("Assertion"), std::string::npos) << log;
    EXPECT_EQ(log.find("duplicate"), std::string::npos) << log;
}

TEST(RandomClicks, ThreeSeedsOfThreeHundredActionsLeaveTheAppAlive) {
    for (unsigned seed : {1u, 2u, 3u}) random_session(seed, 300);
}

// The same over a lesson open beside the lab (its scene list, record, reorder, delete and save
// controls in reach) and over the presenter's two windows (keys, pen, reveal, the console).
TEST(RandomClicks, LessonsAndThePresenterWindowSurviveThreeHundredActions) {
    random_session(4, 300, {"--lesson", "builtin"});
    random_session(5, 300, {"--lesson", "builtin", "--presenter"});
}

// Images: four multi-axis rules side by side with the grid view large (clicks move the query,
// the Images section's layout field takes random typing), on a 64×64 image and a video layout.
TEST(RandomClicks, ImagesAndTheGridSurviveThreeHundredActions) {
    random_session(6, 300, {"--comparison", "image-axes", "--view", "10", "--grid-height", "64", "--grid-width", "64",
                            "--tokens", "text:3,video:4x8x8@1.5,text:2", "--rule", "5.x"});
}

}  // namespace
}  // namespace ropelab::ui_script
