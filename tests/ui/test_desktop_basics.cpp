// tests/ui: the desktop basics, as a person meets them in the real window — key taps shorter than
// a frame, Ctrl+Z and its redo, the file dialog, the recent files and where saves land by default.
// Every run has its own config folder (XDG_CONFIG_HOME) and documents folder (XDG_DOCUMENTS_DIR)
// inside the test's folder: nothing here touches the real ~/.config or ~/Documents.
#include "ui/script.h"

namespace ropelab::ui_script {
namespace {

// `gui --paused --script` in `dir`, with the user's folders inside it.
test::Result desktop_gui(const fs::path& dir, const Json& script, const std::string& args = "") {
    std::ofstream(dir / "script.json") << script.dump(1);
    const std::string env = "cd '" + dir.string() + "' && XDG_CONFIG_HOME='" + (dir / "config").string() + "' XDG_DOCUMENTS_DIR='" +
                            (dir / "docs").string() + "' XDG_PICTURES_DIR='" + (dir / "pictures").string() +
                            "' ROPELAB_SCREENSHOT_DIR='" + dir.string() + "'";
    return test::run("gui --size 1280x720 --paused " + args + " --script script.json", env);
}

const Json* labelled(const Json& widgets, const std::string& label) {
    for (const Json& w : widgets) {
        if (w["label"] == label) return &w;
    }
    return nullptr;
}

bool has_message(const fs::path& widgets, const std::string& part) {
    for (const Json& w : read_json(widgets)) {
        if (w["kind"] == "message" && w["label"].get<std::string>().find(part) != std::string::npos) return true;
    }
    return false;
}

Json tap(const std::string& key, std::vector<std::string> mods = {}) {
    Json step = {{"tap", key}};
    if (!mods.empty()) step["mods"] = mods;
    return step;
}

// Six taps of Space, each pressed and released inside one frame: ImGui 1.86 alone saw none of
// them; each must toggle playback.
TEST(KeyTaps, SixSpaceTapsWithinAFrameEachToggleplayback) {
    const fs::path dir = fresh_dir("taps_space");
    Json script = Json::array({{{"wait", 3}}, {{"state", "s0.json"}}});
    for (int i = 1; i <= 6; ++i) {
        script.push_back(tap("space"));
        script.push_back({{"wait", 2}});
        script.push_back({{"state", "s" + std::to_string(i) + ".json"}});
    }
    const test::Result r = desktop_gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    bool playing = read_json(dir / "s0.json")["playback"]["playing"];
    EXPECT_FALSE(playing) << "--paused starts paused";
    for (int i = 1; i <= 6; ++i) {
        playing = !playing;
        EXPECT_EQ(read_json(dir / ("s" + std::to_string(i) + ".json"))["playback"]["playing"].get<bool>(), playing) << "tap " << i;
    }
}

// Ctrl+A tapped inside one frame in a text field selects its text, and what is typed next
// replaces it; a tap of → steps the position by exactly one.
TEST(KeyTaps, CtrlATapSelectsAFieldsTextAndARightTapStepsOnce) {
    const fs::path dir = fresh_dir("taps_field");
    const Json script = {{{"wait", 3}},
                         {{"state", "before.json"}},
                         tap("Right"),
                         {{"wait", 2}},
                         {{"state", "stepped.json"}},
                         {{"click", "Session"}},
                         {{"click", "Share string"}, {"at", {0.1, 0.5}}},
                         tap("O"), tap("L"), tap("D"),
                         {{"wait", 1}},
                         tap("A", {"ctrl"}),
                         {{"wait", 1}},
                         tap("N"), tap("E"), tap("W"),
                         {{"wait", 2}},
                         {{"widgets", "typed.json"}}};
    const test::Result r = desktop_gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    const int before = read_json(dir / "before.json")["focus"]["position"];
    EXPECT_EQ(read_json(dir / "stepped.json")["focus"]["position"].get<int>(), before + 1);
    const Json typed = read_json(dir / "typed.json");
    const Json* field = widget(typed, "Share string", "input");
    ASSERT_TRUE(field);
    EXPECT_EQ((*field)["value"], "new") << "Ctrl+A should have selected \"old\" for the typing to replace";
}

// θ dragged on the panel, then Ctrl+Z, Ctrl+Shift+Z, and Ctrl+Z / Ctrl+Y; Ctrl+Z in a text field
// is the field's, not the lab's.
TEST(UndoKeys, CtrlZUndoesADragAndCtrlShiftZOrCtrlYRedoesIt) {
    const fs::path dir = fresh_dir("undo_keys");
    const Json script = {{{"wait", 3}},
                         {{"state", "before.json"}},
                         {{"drag", "θ (base)"}, {"dx", 60}},
                         {{"wait", 40}},
                         {{"state", "dragged.json"}},
                         tap("Z", {"ctrl"}),
                         {{"wait", 2}},
                         {{"state", "undone.json"}},
                         tap("Z", {"ctrl", "shift"}),
                         {{"wait", 2}},
                         {{"state", "redone.json"}},
                         tap("Z", {"ctrl"}),
                         {{"wait", 2}},
                         tap("Y", {"ctrl"}),
                         {{"wait", 2}},
                         {{"state", "redone_y.json"}},
                         {{"click", "Session"}},
                         {{"click", "Share string"}, {"at", {0.1, 0.5}}},
                         tap("Z", {"ctrl"}),
                         {{"wait", 2}},
                         {{"state", "in_field.json"}}};
    const test::Result r = desktop_gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    const double before = read_json(dir / "before.json")["model"]["rope_theta"];
    const double dragged = read_json(dir / "dragged.json")["model"]["rope_theta"];
    ASSERT_NE(dragged, before) << "the drag did not move θ";
    EXPECT_EQ(read_json(dir / "undone.json")["model"]["rope_theta"].get<double>(), before);
    EXPECT_EQ(read_json(dir / "redone.json")["model"]["rope_theta"].get<double>(), dragged);
    EXPECT_EQ(read_json(dir / "redone_y.json")["model"]["rope_theta"].get<double>(), dragged);
    EXPECT_EQ(read_json(dir / "in_field.json")["model"]["rope_theta"].get<double>(), dragged) << "Ctrl+Z in a field undid the lab";
}

// Save session with the default name: it lands in $XDG_DOCUMENTS_DIR/ropelab/ (made by the
// save); a user's session.ropelab already there is kept, and the lab's takes the next free name.
TEST(DefaultSavePaths, ASessionSavesInTheDocumentsFolderAndNeverReplacesTheUsersFile) {
    const fs::path dir = fresh_dir("default_session");
    const Json script = {{{"wait", 3}}, {{"click", "Session"}}, {{"click", "Save session"}}, {{"wait", 3}}, {{"widgets", "w.json"}}};
    test::Result r = desktop_gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    const fs::path saved = dir / "docs" / "ropelab" / "session.ropelab";
    ASSERT_TRUE(fs::exists(saved)) << r.err;
    EXPECT_TRUE(read_json(saved).contains("ropelab_session"));
    EXPECT_FALSE(fs::exists(dir / "session.ropelab")) << "the launch folder is not where a default save goes";

    const std::string users = "{\"mine\": \"not the lab's\"}\n";
    test::write_file(saved.string(), users);
    r = desktop_gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(test::slurp(saved.string()), users) << "the user's file was replaced";
    const fs::path renamed = dir / "docs" / "ropelab" / "session-2.ropelab";
    ASSERT_TRUE(fs::exists(renamed));
    EXPECT_TRUE(read_json(renamed).contains("ropelab_session"));
    EXPECT_TRUE(has_message(dir / "w.json", "session-2.ropelab"));
}

// A relative name typed in the field still means the launch folder.
TEST(DefaultSavePaths, ATypedRelativeNameSavesInTheLaunchFolder) {
    const fs::path dir = fresh_dir("relative_session");
    const Json script = {{{"wait", 3}},
                         {{"click", "Session"}},
                         {{"click", "Session file"}, {"at", {0.1, 0.5}}},
                         {{"type", "here.ropelab"}},
                         {{"click", "Save session"}},
                         {{"wait", 3}}};
    const test::Result r = desktop_gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir / "here.ropelab"));
}

// The dialog as a person uses it: the folder's entries (folders first, files of the asked kind),
// a save over a user's file asks first (Keep it keeps it), a typed name saves with the extension,
// and the file is then first among the recent files, kept in $XDG_CONFIG_HOME/ropelab/recent.json.
TEST(FileDialog, SaveSessionAsListsAsksBeforeReplacingAndRemembers) {
    const fs::path dir = fresh_dir("dialog_save");
    const fs::path folder = dir / "docs" / "ropelab";
    fs::create_directories(folder / "sub");
    const std::string users = "{\"mine\": 1}\n";
    test::write_file((folder / "old.ropelab").string(), users);
    test::write_file((folder / "notes.txt").string(), "not a session\n");
    const Json script = {{{"wait", 3}},
                         {{"click", "Session"}},
                         {{"click", "Save session as…"}},
                         {{"wait", 3}},
                         {{"widgets", "listed.json"}},
                         {{"click", "old.ropelab"}},
                         {{"click", "Save"}},
                         {{"wait", 2}},
                         {{"widgets", "asked.json"}},
                         {{"click", "Keep it"}},
                         {{"click", "File name"}, {"at", {0.1, 0.5}}},
                         {{"type", "fresh"}},  // Enter answers as Save does
                         {{"wait", 3}},
                         {{"widgets", "saved.json"}}};
    const test::Result r = desktop_gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    const Json listed = read_json(dir / "listed.json");
    const Json* sub = labelled(listed, "sub/");
    const Json* old = labelled(listed, "old.ropelab");
    ASSERT_TRUE(sub && old) << "the folder's entries are listed";
    EXPECT_LT((*sub)["y"].get<double>(), (*old)["y"].get<double>()) << "folders come first";
    EXPECT_FALSE(labelled(listed, "notes.txt")) << "only sessions are listed";
    EXPECT_TRUE(has_message(dir / "asked.json", "already exists. Replace it?"));
    EXPECT_EQ(test::slurp((folder / "old.ropelab").string()), users);
    ASSERT_TRUE(fs::exists(folder / "fresh.ropelab")) << r.err;
    EXPECT_TRUE(read_json(folder / "fresh.ropelab").contains("ropelab_session"));
    const Json recent = read_json(dir / "config" / "ropelab" / "recent.json");
    ASSERT_TRUE(recent.contains("recent"));
    ASSERT_FALSE(recent["recent"].empty());
    EXPECT_EQ(recent["recent"][0], fs::absolute(folder / "fresh.ropelab").lexically_normal().string());
}

// The dialog's Replace, and Open through a Browse button: the field fills and the session opens.
TEST(FileDialog, ReplaceSavesOverAndBrowseOpensTheChosenSession) {
    const fs::path dir = fresh_dir("dialog_open");
    const fs::path folder = dir / "docs" / "ropelab";
    fs::create_directories(folder);
    test::write_file((folder / "old.ropelab").string(), "{\"mine\": 1}\n");
    const Json script = {{{"wait", 3}},
                         {{"click", "Session"}},
                         {{"click", "Save session as…"}},
                         {{"wait", 2}},
                         {{"click", "old.ropelab"}},
                         {{"click", "Save"}},
                         {{"wait", 1}},
                         {{"click", "Replace"}},
                         {{"wait", 3}},
                         {{"drag", "θ (base)"}, {"dx", 60}},
                         {{"wait", 10}},
                         {{"click", "Browse sessions"}},
                         {{"wait", 2}},
                         {{"click", "old.ropelab"}},
                         {{"click", "Open"}},
                         {{"wait", 3}},
                         {{"state", "opened.json"}},
                         {{"widgets", "w.json"}}};
    const test::Result r = desktop_gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    const Json saved = read_json(folder / "old.ropelab");
    ASSERT_TRUE(saved.contains("ropelab_session")) << "Replace saves over the file";
    EXPECT_EQ(read_json(dir / "opened.json")["model"]["rope_theta"], saved["model"]["rope_theta"]) << "Open opens the chosen session";
    const Json widgets = read_json(dir / "w.json");
    const Json* field = widget(widgets, "Session file", "input");
    ASSERT_TRUE(field);
    EXPECT_EQ((*field)["value"], fs::absolute(folder / "old.ropelab").lexically_normal().string());
}

// Moving about: a folder picked and Enter enters it (the typed name stays), a parent folder's
// button goes up, a folder that cannot be read says so, and Esc closes the dialog leaving the lab
// as it was (no view shortcut, no lesson key).
TEST(FileDialog, EnterEntersAFolderParentsGoUpAndEscCloses) {
    const fs::path dir = fresh_dir("dialog_moves");
    const fs::path folder = dir / "docs" / "ropelab";
    fs::create_directories(folder / "sub");
    test::write_file((folder / "sub" / "inner.ropelab").string(), "{}\n");
    const Json script = {{{"wait", 3}},
                         {{"state", "before.json"}},
                         {{"click", "Session"}},
                         {{"click", "Save session as…"}},
                         {{"wait", 2}},
                         {{"click", "sub/"}},
                         tap("Enter"),
                         {{"wait", 2}},
                         {{"widgets", "inside.json"}},
                         {{"click", "docs"}},
                         {{"wait", 2}},
                         {{"widgets", "up.json"}},
                         tap("Escape"),
                         {{"wait", 3}},
                         {{"widgets", "closed.json"}},
                         {{"state", "after.json"}}};
    const test::Result r = desktop_gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    const Json inside = read_json(dir / "inside.json");
    EXPECT_TRUE(labelled(inside, "inner.ropelab")) << "Enter on a picked folder enters it";
    const Json* name = widget(inside, "File name", "input");
    ASSERT_TRUE(name);
    EXPECT_EQ((*name)["value"], "session.ropelab") << "the name stays";
    EXPECT_TRUE(labelled(read_json(dir / "up.json"), "ropelab/")) << "the parent's button lists the parent";
    EXPECT_FALSE(labelled(read_json(dir / "closed.json"), "File name")) << "Esc closes the dialog";
    EXPECT_EQ(session_of(dir / "after.json"), session_of(dir / "before.json")) << "Esc in the dialog is not the lab's";
    EXPECT_FALSE(fs::exists(folder / "session.ropelab")) << "nothing was saved";
}

// A hostile recent.json (not JSON, wrong types, relative paths) is ignored: the app runs, and
// the next save writes a clean list.
TEST(RecentFiles, AHostileRecentJsonIsIgnored) {
    for (const std::string bad : {"\x01\x02 not json", "{\"recent\": 7}", "{\"recent\": [1, \"relative/x\", {\"a\": 2}]}", "[]"}) {
        const fs::path dir = fresh_dir("recent_hostile");
        fs::create_directories(dir / "config" / "ropelab");
        test::write_file((dir / "config" / "ropelab" / "recent.json").string(), bad);
        const Json script = {{{"wait", 3}}, {{"click", "Session"}}, {{"click", "Save session"}}, {{"wait", 3}}};
        const test::Result r = desktop_gui(dir, script);
        ASSERT_EQ(r.status, 0) << bad << ": " << r.err;
        const Json recent = read_json(dir / "config" / "ropelab" / "recent.json");
        ASSERT_TRUE(recent.contains("recent")) << bad;
        ASSERT_EQ(recent["recent"].size(), 1u) << bad << ": " << recent.dump();
        EXPECT_EQ(recent["recent"][0], fs::absolute(dir / "docs" / "ropelab" / "session.ropelab").lexically_normal().string());
    }
}

}  // namespace
}  // namespace ropelab::ui_script
