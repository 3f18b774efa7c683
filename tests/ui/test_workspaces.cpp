// Workspaces in the real window (gui --script): each tab, each Ctrl+N and the View menu show
// exactly the workspace's views; --workspace and sessions open in theirs (an old session, with no
// workspace, in Overview); the menu's Edit › Undo takes a θ drag back; render's whole lab says
// nothing about the device that drew it.
#include <set>
#include <string>

#include "script.h"
#include "state/view_table.h"
#include "state/workspaces.h"

namespace ropelab::ui_script {
namespace {

// The views drawn in a dumped frame: their title bars (LabView::view's selectables).
std::set<std::string> views_shown(const Json& widgets) {
    std::set<std::string> shown;
    for (const Json& w : widgets) {
        for (const ViewRow& row : view_table()) {
            if (w["label"] == row.title && w["kind"] == "button") shown.insert(std::string(row.title));
        }
    }
    return shown;
}

std::set<std::string> titles_of(Workspace w) {
    std::set<std::string> titles;
    for (View v : workspace_views_of(w)) titles.insert(std::string(view_row(v).title));
    return titles;
}

std::string workspace_in(const fs::path& state) { return read_json(state)["layout"]["workspace"].get<std::string>(); }

// 1920×1080: every workspace lays its views out (at 1280×720 All falls back to tabs).
constexpr const char* kLarge = "--size 1920x1080";

TEST(Workspaces, EachTabShowsExactlyItsViews) {
    const fs::path dir = fresh_dir("workspace_tabs");
    Json script = Json::array({{{"wait", 3}}, {{"widgets", "start.json"}}});
    for (const WorkspaceRow& w : workspace_table()) {
        script.push_back({{"click", std::string(w.title)}});
        script.push_back({{"wait", 2}});
        script.push_back({{"widgets", std::string(w.name) + ".json"}});
        script.push_back({{"state", std::string(w.name) + ".state.json"}});
    }
    const test::Result r = gui(dir, script, kLarge);
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_EQ(views_shown(read_json(dir / "start.json")), titles_of(Workspace::Overview)) << "the first look is Overview";
    for (const WorkspaceRow& w : workspace_table()) {
        EXPECT_EQ(views_shown(read_json(dir / (std::string(w.name) + ".json"))), titles_of(w.id)) << w.name;
        EXPECT_EQ(workspace_in(dir / (std::string(w.name) + ".state.json")), w.name);
        const Json* tab = widget(read_json(dir / (std::string(w.name) + ".json")), std::string(w.title), "tab");
        ASSERT_NE(tab, nullptr) << w.name;
    }
}

TEST(Workspaces, CtrlAndADigitShowsEachWorkspace) {
    const fs::path dir = fresh_dir("workspace_keys");
    Json script = Json::array({{{"wait", 3}}});
    // From the last to the first, so each press changes something.
    for (int i = kWorkspaceCount - 1; i >= 0; --i) {
        const WorkspaceRow& w = kWorkspaceTable[i];
        script.push_back({{"key", std::string(1, w.key)}, {"mods", {"ctrl"}}});
        script.push_back({{"wait", 2}});
        script.push_back({{"widgets", std::string(w.name) + ".json"}});
        script.push_back({{"state", std::string(w.name) + ".state.json"}});
    }
    const test::Result r = gui(dir, script, kLarge);
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    for (const WorkspaceRow& w : workspace_table()) {
        EXPECT_EQ(views_shown(read_json(dir / (std::string(w.name) + ".json"))), titles_of(w.id)) << "Ctrl+" << w.key;
        const Json state = read_json(dir / (std::string(w.name) + ".state.json"));
        EXPECT_EQ(state["layout"]["workspace"], w.name) << "Ctrl+" << w.key;
        EXPECT_EQ(state["layout"]["focused_view"], -1) << "Ctrl+" << w.key << " typed a view key too";
    }
}

TEST(Workspaces, ViewMenuPicksAWorkspace) {
    const fs::path dir = fresh_dir("workspace_menu");
    // A view shown large first (key 1): the workspace tabs are gone, so "Distance" is the menu's.
    const Json script = Json::array({{{"wait", 3}},
                                     {{"key", "1"}},
                                     {{"wait", 2}},
                                     {{"click", "Window"}},
                                     {{"wait", 2}},
                                     {{"widgets", "menu.json"}},
                                     {{"click", "Distance"}},
                                     {{"wait", 2}},
                                     {{"widgets", "after.json"}},
                                     {{"state", "state.json"}}});
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const Json menu = read_json(dir / "menu.json");
    const Json* item = widget(menu, "Distance", "menu item");
    ASSERT_NE(item, nullptr) << "Window opened no menu with Distance in it";
    EXPECT_EQ((*item)["item_of"], "Window");
    const Json* overview = widget(menu, "Overview", "menu item");
    ASSERT_NE(overview, nullptr);
    EXPECT_EQ((*overview)["value"], "checked") << "the current workspace is ticked";
    EXPECT_NE(r.out.find("click \"Distance\" (menu item)"), std::string::npos) << r.out;
    EXPECT_EQ(workspace_in(dir / "state.json"), "distance");
    EXPECT_EQ(read_json(dir / "state.json")["layout"]["focused_view"], -1) << "a workspace picked shows its views, none large";
    const Json after = read_json(dir / "after.json");
    EXPECT_EQ(widget(after, "Distance", "menu item"), nullptr) << "the menu closed";
    EXPECT_EQ(views_shown(after), titles_of(Workspace::Distance));
}

TEST(Workspaces, EditUndoInTheMenuTakesBackAThetaDrag) {
    const fs::path dir = fresh_dir("workspace_undo");
    const Json script = Json::array({{{"wait", 3}},
                                     {{"state", "before.json"}},
                                     {{"drag", "θ (base)"}, {"dx", 80}},
                                     {{"wait", 40}},
                                     {{"state", "dragged.json"}},
                                     {{"click", "Edit"}},
                                     {{"wait", 2}},
                                     {{"widgets", "menu.json"}},
                                     {{"click", "Undo"}},
                                     {{"wait", 2}},
                                     {{"state", "undone.json"}}});
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const double before = read_json(dir / "before.json")["model"]["rope_theta"].get<double>();
    const double dragged = read_json(dir / "dragged.json")["model"]["rope_theta"].get<double>();
    ASSERT_NE(before, dragged) << "the drag moved θ";
    const Json* undo = widget(read_json(dir / "menu.json"), "Undo", "menu item");
    ASSERT_NE(undo, nullptr);
    EXPECT_EQ(read_json(dir / "undone.json")["model"]["rope_theta"].get<double>(), before);
}

TEST(Workspaces, CommandLineAndSessionsOpenInTheirWorkspace) {
    const fs::path dir = fresh_dir("workspace_open");
    {  // --workspace frequencies
        const test::Result r = gui(dir, Json::array({{{"wait", 3}}, {{"widgets", "flag.json"}}, {{"state", "flag.state.json"}}}),
                                   std::string(kLarge) + " --workspace frequencies");
        ASSERT_EQ(r.status, 0) << r.out << r.err;
        EXPECT_EQ(workspace_in(dir / "flag.state.json"), "frequencies");
        EXPECT_EQ(views_shown(read_json(dir / "flag.json")), titles_of(Workspace::Frequencies));
    }
    {  // saved in Rotation (Ctrl+2), opened again
        const test::Result r = gui(dir, Json::array({{{"wait", 3}}, {{"key", "2"}, {"mods", {"ctrl"}}}, {{"wait", 2}},
                                                     {{"state", "rotation.json"}}}));
        ASSERT_EQ(r.status, 0) << r.out << r.err;
        ASSERT_EQ(workspace_in(dir / "rotation.json"), "rotation");
        const test::Result again = gui(dir, Json::array({{{"wait", 3}}, {{"widgets", "reopened.json"}}, {{"state", "reopened.state.json"}}}),
                                       std::string(kLarge) + " --session rotation.json");
        ASSERT_EQ(again.status, 0) << again.out << again.err;
        EXPECT_EQ(workspace_in(dir / "reopened.state.json"), "rotation");
        EXPECT_EQ(views_shown(read_json(dir / "reopened.json")), titles_of(Workspace::Rotation));
    }
    {  // a session from before workspaces: no layout.workspace
        Json old = read_json(dir / "rotation.json");
        old["layout"].erase("workspace");
        std::ofstream(dir / "old.json") << old.dump(1);
        const test::Result r = gui(dir, Json::array({{{"wait", 3}}, {{"widgets", "old.widgets.json"}}, {{"state", "old.state.json"}}}),
                                   std::string(kLarge) + " --session old.json");
        ASSERT_EQ(r.status, 0) << r.out << r.err;
        EXPECT_EQ(workspace_in(dir / "old.state.json"), "overview");
        EXPECT_EQ(views_shown(read_json(dir / "old.widgets.json")), titles_of(Workspace::Overview));
    }
}

// The whole lab as a figure: no device line ("Compute: llvmpipe …") and no menu bar; the window
// itself still shows the device line.
TEST(Workspaces, RenderOfTheLabNamesNoDevice) {
    const fs::path dir = fresh_dir("workspace_render");
    const test::Result r = test::run("render --out '" + (dir / "lab.svg").string() + "' --size 1280x720");
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    std::ifstream in(dir / "lab.svg");
    const std::string svg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_NE(svg.find("<text"), std::string::npos) << "the figure has its text as text";
    EXPECT_EQ(svg.find("Compute:"), std::string::npos);
    EXPECT_EQ(svg.find("llvmpipe"), std::string::npos);
    EXPECT_EQ(svg.find(">File<"), std::string::npos) << "no menu bar in a figure";
    EXPECT_NE(svg.find(std::string(view_row(View::Scores).title)), std::string::npos) << "Overview's scores are drawn";
    const test::Result window = gui(dir, Json::array({{{"wait", 3}}, {{"widgets", "window.json"}}}));
    ASSERT_EQ(window.status, 0) << window.out << window.err;
    bool device_line = false, menu = false;
    for (const Json& w : read_json(dir / "window.json")) {
        device_line = device_line || w["label"].get<std::string>().starts_with("Compute:");
        menu = menu || (w["label"] == "File" && w["kind"] == "menu");
    }
    EXPECT_TRUE(device_line) << "the window keeps its device line";
    EXPECT_TRUE(menu) << "the window has its menu bar";
}

}  // namespace
}  // namespace ropelab::ui_script
