// The workspace table (state/workspaces.h): every view has a workspace besides All, names and keys
// are unique; the field's schema row, sessions with and without it, and lesson scenes naming one.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "core/error.h"
#include "lesson/lesson.h"
#include "state/schema.h"
#include "state/session.h"
#include "state/workspaces.h"

namespace ropelab {
namespace {

TEST(Workspaces, EveryViewIsInAWorkspaceBesidesAll) {
    for (const ViewRow& view : view_table()) {
        int homes = 0;
        for (const WorkspaceRow& w : workspace_table()) {
            if (w.id == Workspace::All) continue;
            homes += static_cast<int>(std::count(w.views.begin(), w.views.end(), view.id));
        }
        EXPECT_GE(homes, 1) << view.name << " is in no workspace but All";
    }
}

// Every view of the lab, once, in the table's order; the last row, 12 (a model file's weights),
// lives in Attention map (the grid of eleven keeps its cells wide enough for their legends).
TEST(Workspaces, AllHoldsEveryViewOnceInTableOrder) {
    const auto all = workspace_views_of(Workspace::All);
    ASSERT_EQ(static_cast<int>(all.size()), kViewCount - 1);
    for (int i = 0; i + 1 < kViewCount; ++i) EXPECT_EQ(static_cast<int>(all[static_cast<std::size_t>(i)]), i);
    EXPECT_EQ(std::count(all.begin(), all.end(), View::Weights), 0);
}

TEST(Workspaces, NamesTitlesAndKeysAreUnique) {
    std::set<std::string_view> names, titles;
    std::set<char> keys;
    for (const WorkspaceRow& w : workspace_table()) {
        EXPECT_TRUE(names.insert(w.name).second) << w.name;
        EXPECT_TRUE(titles.insert(w.title).second) << w.title;
        EXPECT_TRUE(keys.insert(w.key).second) << w.key;
        EXPECT_TRUE(w.key >= '1' && w.key <= '9') << w.name << ": Ctrl + a digit";
        EXPECT_EQ(find_workspace(w.name), w.id);
        // A workspace shows each of its views once, and at most four besides All (a scene's limit).
        std::set<View> seen(w.views.begin(), w.views.end());
        EXPECT_EQ(seen.size(), w.views.size()) << w.name;
        if (w.id != Workspace::All) {
            EXPECT_LE(w.views.size(), 4u) << w.name;
        }
    }
    EXPECT_FALSE(find_workspace("Overview"));  // names are the lower-case ones
    EXPECT_FALSE(find_workspace(""));
}

TEST(Workspaces, OverviewOpensFirstWithTheScoresLargest) {
    const LabParams p;
    EXPECT_EQ(p.workspace, Workspace::Overview);
    EXPECT_EQ(workspace_views_of(Workspace::Overview).front(), View::Scores);
}

TEST(Workspaces, SchemaRowTakesEveryNameAndRefusesOthers) {
    const schema::Field* f = schema::by_flag("--workspace");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->path, "layout.workspace");
    EXPECT_FALSE(f->reset) << "Reset keeps the layout, as it keeps the theme";
    for (const WorkspaceRow& w : workspace_table()) {
        LabParams p;
        schema::assign_text(p, *f, std::string(w.name));
        EXPECT_EQ(p.workspace, w.id);
    }
    LabParams p;
    EXPECT_THROW(schema::assign_text(p, *f, "everything"), InputError);
}

TEST(Workspaces, SessionsKeepTheWorkspaceAndAnOldOneOpensInOverview) {
    Session s;
    s.params.workspace = Workspace::Rotation;
    const std::string json = session_to_json(s);
    EXPECT_NE(json.find("\"workspace\": \"rotation\""), std::string::npos) << json;
    std::vector<std::string> warnings;
    EXPECT_EQ(session_from_json(json, warnings).params.workspace, Workspace::Rotation);
    // Saved before workspaces: no layout.workspace at all.
    const Session old = session_from_json(R"({"ropelab_session": 2, "layout": {"theme": "light", "focused_view": -1}})", warnings);
    EXPECT_EQ(old.params.workspace, Workspace::Overview);
    EXPECT_EQ(old.params.theme, Theme::Light);
}

constexpr const char* kScene = R"({"title": "t", "caption": "c", %s})";

Lesson lesson_with(const std::string& scene_fields) {
    char buffer[512];
    std::snprintf(buffer, sizeof buffer, kScene, scene_fields.c_str());
    return parse_lesson(std::string(R"({"scenes": [)") + buffer + "]}", "test.json");
}

TEST(Workspaces, AScenesWorkspaceShowsItsViewsAndRoundTrips) {
    const Lesson lesson = lesson_with(R"("workspace": "distance", "hide": [3])");
    const Scene& s = lesson.scenes[0];
    ASSERT_TRUE(s.workspace);
    EXPECT_EQ(*s.workspace, Workspace::Distance);
    EXPECT_TRUE(s.views.empty());
    const std::vector<int> shown = scene_shown_views(s);
    ASSERT_EQ(shown.size(), 3u);
    EXPECT_EQ(shown[0], static_cast<int>(View::Scores));  // "hide": [3] is among them
    EXPECT_EQ(s.hide, std::vector<int>{static_cast<int>(View::Scores)});
    const Lesson again = parse_lesson(lesson_to_json(lesson), "again.json");
    EXPECT_TRUE(again.scenes == lesson.scenes);
    // Neither views nor a workspace: the lab's own workspace, nothing to hide.
    EXPECT_TRUE(scene_shown_views(lesson_with(R"("duration": 2)").scenes[0]).empty());
}

TEST(Workspaces, AScenesUnknownWorkspaceOrHiddenViewOutsideItIsRefused) {
    try {
        lesson_with(R"("workspace": "everything")");
        ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("overview, rotation"), std::string::npos) << e.what();
    }
    EXPECT_THROW(lesson_with(R"("workspace": "rotation", "hide": [3])"), InputError);  // the scores are not in Rotation
    EXPECT_THROW(lesson_with(R"("hide": [3])"), InputError);
}

}  // namespace
}  // namespace ropelab
