#include "state/workspaces.h"

namespace ropelab {

std::optional<Workspace> find_workspace(std::string_view name) {
    for (const WorkspaceRow& row : kWorkspaceTable) {
        if (row.name == name) return row.id;
    }
    return std::nullopt;
}

std::string workspace_names_list() {
    std::string out;
    for (const WorkspaceRow& row : kWorkspaceTable) out += (out.empty() ? "" : ", ") + std::string(row.name);
    return out;
}

}  // namespace ropelab
