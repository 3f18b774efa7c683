#pragma once
// Where the user keeps files: the documents and pictures folders (XDG user dirs), the config
// folder, and the recent files the lab remembers there. Pure C++; no GL, no ImGui.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ropelab {

enum class UserFolder { Documents, Pictures };

// $XDG_CONFIG_HOME, else ~/.config ("" with neither set).
std::string config_home();
// The folder as the user's desktop names it: $XDG_DOCUMENTS_DIR / $XDG_PICTURES_DIR, else that
// line of $XDG_CONFIG_HOME/user-dirs.dirs, else ~/Documents / ~/Pictures; "" without a home.
std::string user_folder(UserFolder folder);
// Its ropelab subfolder, where the lab saves by default ("" without a home).
std::string ropelab_folder(UserFolder folder);
// `name` in the ropelab subfolder of `folder` (just `name` without a home: the launch folder).
std::string default_save_path(UserFolder folder, std::string_view name);
// Before a save to `path`: when its folder is one of the lab's default folders
// (<documents>/ropelab, <pictures>/ropelab) and missing, it is made (the first save makes it).
// Other folders are the user's to make; nothing happens for them.
void make_default_folder_for(const std::string& path);

// `path` when nothing is there, else the first of NAME-2.EXT, NAME-3.EXT, … that is free.
std::string free_file_name(const std::string& path);

// The value of KEY in the text of a user-dirs.dirs file ("$HOME/Documents" expanded with `home`);
// "" when absent. Lines look like XDG_DOCUMENTS_DIR="$HOME/Documents".
std::string user_dirs_value(std::string_view text, std::string_view key, std::string_view home);

// The files the lab opened or saved, newest first: at most `kKeep`, each once, absolute.
class RecentFiles {
public:
    static constexpr std::size_t kKeep = 10;
    // Reads the list kept in `file` (a missing, unreadable or malformed file is an empty list;
    // entries that are not paths are skipped) and keeps it there from now on.
    void keep_in(const std::string& file);
    // `path` is the newest; written back to the file kept in, when there is one (false, with
    // the reason, if that write failed: the list in memory stays right).
    bool add(const std::string& path, std::string* error = nullptr);
    const std::vector<std::string>& list() const { return files_; }
    // Whether `path` was added since this list was made (opened or saved in this run).
    bool added_this_run(const std::string& path) const;

    // The list as recent.json holds it, and read back (never throws; junk is skipped).
    static std::string to_json(const std::vector<std::string>& files);
    static std::vector<std::string> from_json(std::string_view text);

private:
    std::vector<std::string> files_;
    std::vector<std::string> this_run_;
    std::string file_;
};

// $XDG_CONFIG_HOME/ropelab/recent.json (or ~/.config/…); "" without a home.
std::string recent_files_path();

}  // namespace ropelab
