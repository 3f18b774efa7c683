#pragma once
// The lab's workspaces, one row each: a named layout of views that tells one part of the story
// with room to read it (1280×720 holds three views well, not eleven). Its key (Ctrl+1 …), its
// name on the command line, in sessions and lessons, its title on the tab bar and in the View
// menu, and its views in order (the first gets the largest cell) are read from here alone.
// Plain data below the views, beside the view table.
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "state/view_table.h"

namespace ropelab {

enum class Workspace { Overview, Rotation, Distance, Frequencies, Attention, Images, All };

struct WorkspaceRow {
    Workspace id;
    char key;                    // Ctrl + this shows it
    std::string_view name;       // --workspace NAME, a session's layout.workspace, a scene's "workspace"
    std::string_view title;      // its tab and its Window menu item (unlike any panel section's: scripts click it)
    std::span<const View> views;  // in order; the first is drawn largest
    std::string_view story;      // what it shows, for its tooltip
};

namespace workspace_views {
using enum View;
inline constexpr View kOverview[] = {Scores, Planes, Phasors};
inline constexpr View kRotation[] = {Planes, Contrast, Numbers};
inline constexpr View kDistance[] = {Scores, Phasors, Invariance};
inline constexpr View kFrequencies[] = {Frequencies, Heatmap, Precision};
inline constexpr View kAttention[] = {Attention, Scores, Weights};
inline constexpr View kImages[] = {Grid, Attention};
// Every view of the RoPE lab; view 12 reads a model file's weights and lives in Attention map
// (the grid of eleven keeps a third of the width for the first six, which their legends need).
inline constexpr View kAll[] = {Planes, Contrast, Scores, Invariance, Heatmap, Frequencies, Numbers, Precision, Phasors, Grid, Attention};
}  // namespace workspace_views

inline constexpr WorkspaceRow kWorkspaceTable[] = {
    {Workspace::Overview, '1', "overview", "Overview", workspace_views::kOverview,
     "The pairs turn, the score falls with distance, and the phasor sum says why"},
    {Workspace::Rotation, '2', "rotation", "Rotation", workspace_views::kRotation,
     "Each pair turns by its own angle; rotating is not adding; the numbers behind it"},
    {Workspace::Distance, '3', "distance", "Distance", workspace_views::kDistance,
     "The score against distance, the phasor sum behind it, and the same score at every position"},
    {Workspace::Frequencies, '4', "frequencies", "Frequencies", workspace_views::kFrequencies,
     "Each pair's frequency and its scaling, the angles over positions, where float angles stop being exact"},
    {Workspace::Attention, '5', "attention", "Attention map", workspace_views::kAttention,
     "Scores through the mask and softmax into attention, beside the score curve and a model file's pairs per head"},
    {Workspace::Images, '6', "images", "Image grid", workspace_views::kImages,
     "Multi-axis RoPE over an image's tokens, and attention over the whole layout"},
    {Workspace::All, '7', "all", "All", workspace_views::kAll, "Every view of the lab at once (tabs where they do not fit); a model file's weights (12) are in Attention map"},
};
inline constexpr int kWorkspaceCount = static_cast<int>(std::size(kWorkspaceTable));

// The table is in Workspace's order: a workspace's row is kWorkspaceTable[index].
constexpr bool workspaces_in_order() {
    for (int i = 0; i < kWorkspaceCount; ++i) {
        if (static_cast<int>(kWorkspaceTable[i].id) != i) return false;
    }
    return true;
}
static_assert(workspaces_in_order(), "kWorkspaceTable's rows are in Workspace's order");

// The names, in order: the schema's and the lesson schema's names for the field.
inline constexpr std::array<std::string_view, kWorkspaceCount> kWorkspaceNames = [] {
    std::array<std::string_view, kWorkspaceCount> names{};
    for (int i = 0; i < kWorkspaceCount; ++i) names[static_cast<std::size_t>(i)] = kWorkspaceTable[i].name;
    return names;
}();

inline const WorkspaceRow& workspace_row(Workspace w) { return kWorkspaceTable[static_cast<int>(w)]; }
inline std::span<const WorkspaceRow> workspace_table() { return kWorkspaceTable; }
inline std::span<const View> workspace_views_of(Workspace w) { return workspace_row(w).views; }

// A workspace by its name ("distance"), or nullopt.
std::optional<Workspace> find_workspace(std::string_view name);
// "overview, rotation, …, all" (help texts and refusals).
std::string workspace_names_list();

}  // namespace ropelab
