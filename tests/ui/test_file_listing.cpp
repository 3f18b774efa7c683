// The file dialog's one disk access (ui::list_folder), the user's folders (core/user_dirs.h) and
// the recent-files list, without a window: orders, filters, refusals and a folder of 10^5 files.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/user_dirs.h"
#include "support/files.h"
#include "ui/file_dialog.h"

namespace ropelab {
namespace {

namespace fs = std::filesystem;

void touch(const fs::path& p, const std::string& bytes = "") { std::ofstream(p) << bytes; }

std::vector<std::string> names(const ui::FolderListing& l) {
    std::vector<std::string> out;
    for (const ui::FolderEntry& e : l.entries) out.push_back(e.name + (e.folder ? "/" : ""));
    return out;
}

TEST(FolderListing, FoldersFirstThenMatchingFilesByNameAnyCase) {
    const fs::path dir = test::fresh_dir("listing_order");
    fs::create_directories(dir / "zeta");
    fs::create_directories(dir / "Alpha");
    touch(dir / "b.ropelab", "12345");
    touch(dir / "A.ROPELAB");
    touch(dir / "c.json");
    touch(dir / "notes.txt");
    touch(dir / ".hidden.ropelab");
    const std::vector<std::string> kinds = {".ropelab", ".json"};
    const ui::FolderListing l = ui::list_folder(dir.string(), kinds);
    EXPECT_EQ(l.error, "");
    EXPECT_EQ(names(l), (std::vector<std::string>{"Alpha/", "zeta/", "A.ROPELAB", "b.ropelab", "c.json"}));
    EXPECT_EQ(l.entries[3].bytes, 5u);
    EXPECT_FALSE(l.entries[3].modified.empty());
    const ui::FolderListing hidden = ui::list_folder(dir.string(), kinds, true);
    EXPECT_EQ(hidden.entries.size(), 6u) << "hidden files only when asked";
}

TEST(FolderListing, AnUnreadableOrMissingFolderSaysWhyAndNeverThrows) {
    const fs::path dir = test::fresh_dir("listing_refused");
    const ui::FolderListing missing = ui::list_folder((dir / "nowhere").string(), {});
    EXPECT_TRUE(missing.entries.empty());
    EXPECT_FALSE(missing.error.empty());
    touch(dir / "file");
    EXPECT_FALSE(ui::list_folder((dir / "file").string(), {}).error.empty()) << "a file is not a folder";
    if (geteuid() != 0) {  // root reads every folder
        fs::create_directories(dir / "locked");
        fs::permissions(dir / "locked", fs::perms::none);
        const ui::FolderListing locked = ui::list_folder((dir / "locked").string(), {});
        EXPECT_NE(locked.error.find("ermission"), std::string::npos) << locked.error;
        fs::permissions(dir / "locked", fs::perms::owner_all);
    }
}

// A folder of 10^5 files is listed once per folder change (the dialog draws only the rows in
// view): the listing itself must take well under a second.
TEST(FolderListing, AHundredThousandFilesListInUnderASecond) {
    const fs::path dir = test::fresh_dir("listing_huge");
    constexpr int kFiles = 100000;
    for (int i = 0; i < kFiles; ++i) touch(dir / ("f" + std::to_string(kFiles - i) + (i % 2 ? ".ropelab" : ".txt")));
    const std::vector<std::string> kinds = {".ropelab"};
    const auto start = std::chrono::steady_clock::now();
    const ui::FolderListing l = ui::list_folder(dir.string(), kinds);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(l.entries.size(), static_cast<std::size_t>(kFiles / 2));
    EXPECT_TRUE(std::is_sorted(l.entries.begin(), l.entries.end(),
                               [](const ui::FolderEntry& a, const ui::FolderEntry& b) { return a.name < b.name; }));
    EXPECT_LT(seconds, 1.0);
    std::printf("listed %d files (%zu shown) in %.0f ms\n", kFiles, l.entries.size(), seconds * 1e3);
    fs::remove_all(dir);
}

TEST(UserDirs, TheUserDirsFileIsReadAsXdgWritesIt) {
    const std::string text = "# written by xdg-user-dirs-update\nXDG_DESKTOP_DIR=\"$HOME/Desktop\"\n"
                             "XDG_DOCUMENTS_DIR=\"$HOME/Dokumente\"\nXDG_PICTURES_DIR=\"/srv/pics\"\nXDG_MUSIC_DIR=\"relative\"\n";
    EXPECT_EQ(user_dirs_value(text, "XDG_DOCUMENTS_DIR", "/home/ada"), "/home/ada/Dokumente");
    EXPECT_EQ(user_dirs_value(text, "XDG_PICTURES_DIR", "/home/ada"), "/srv/pics");
    EXPECT_EQ(user_dirs_value(text, "XDG_MUSIC_DIR", "/home/ada"), "") << "neither $HOME/… nor absolute";
    EXPECT_EQ(user_dirs_value(text, "XDG_VIDEOS_DIR", "/home/ada"), "");
}

TEST(UserDirs, EnvironmentThenUserDirsFileThenHome) {
    const fs::path dir = test::fresh_dir("user_dirs");
    fs::create_directories(dir / "config");
    touch(dir / "config" / "user-dirs.dirs", "XDG_DOCUMENTS_DIR=\"$HOME/Docs\"\n");
    setenv("HOME", dir.c_str(), 1);
    setenv("XDG_CONFIG_HOME", (dir / "config").c_str(), 1);
    unsetenv("XDG_DOCUMENTS_DIR");
    unsetenv("XDG_PICTURES_DIR");
    EXPECT_EQ(user_folder(UserFolder::Documents), (dir / "Docs").string());
    EXPECT_EQ(user_folder(UserFolder::Pictures), (dir / "Pictures").string());
    EXPECT_EQ(default_save_path(UserFolder::Documents, "session.ropelab"), (dir / "Docs" / "ropelab" / "session.ropelab").string());
    EXPECT_EQ(recent_files_path(), (dir / "config" / "ropelab" / "recent.json").string());
    setenv("XDG_DOCUMENTS_DIR", (dir / "env").c_str(), 1);
    EXPECT_EQ(user_folder(UserFolder::Documents), (dir / "env").string());
    // The first save makes the lab's own folder, and no other.
    make_default_folder_for((dir / "env" / "ropelab" / "a.ropelab").string());
    EXPECT_TRUE(fs::is_directory(dir / "env" / "ropelab"));
    make_default_folder_for((dir / "elsewhere" / "a.ropelab").string());
    EXPECT_FALSE(fs::exists(dir / "elsewhere"));
}

TEST(UserDirs, AFreeNameNeverReplacesAFile) {
    const fs::path dir = test::fresh_dir("free_name");
    EXPECT_EQ(free_file_name((dir / "session.ropelab").string()), (dir / "session.ropelab").string());
    touch(dir / "session.ropelab");
    touch(dir / "session-2.ropelab");
    EXPECT_EQ(free_file_name((dir / "session.ropelab").string()), (dir / "session-3.ropelab").string());
}

TEST(RecentFilesList, NewestFirstTenAtMostEachOnceAndKeptInItsFile) {
    const fs::path dir = test::fresh_dir("recent_list");
    const std::string file = (dir / "ropelab" / "recent.json").string();
    RecentFiles recent;
    recent.keep_in(file);
    EXPECT_TRUE(recent.list().empty()) << "a missing file is an empty list";
    for (int i = 0; i < 12; ++i) ASSERT_TRUE(recent.add((dir / ("f" + std::to_string(i))).string()));
    ASSERT_TRUE(recent.add((dir / "f5").string()));
    ASSERT_EQ(recent.list().size(), RecentFiles::kKeep);
    EXPECT_EQ(recent.list()[0], (dir / "f5").string());
    EXPECT_EQ(recent.list()[1], (dir / "f11").string());
    EXPECT_EQ(std::count(recent.list().begin(), recent.list().end(), (dir / "f5").string()), 1);
    RecentFiles again;
    again.keep_in(file);
    EXPECT_EQ(again.list(), recent.list()) << "read back from recent.json";
}

TEST(RecentFilesList, JunkIsSkipped) {
    EXPECT_TRUE(RecentFiles::from_json("\x01 not json").empty());
    EXPECT_TRUE(RecentFiles::from_json("[\"/a\"]").empty());
    EXPECT_TRUE(RecentFiles::from_json("{\"recent\": \"/a\"}").empty());
    EXPECT_EQ(RecentFiles::from_json("{\"recent\": [1, \"rel/x\", \"/a\", {\"b\": 1}, \"/a\", \"/c\"]}"),
              (std::vector<std::string>{"/a", "/c"}));
    std::string many = "{\"recent\": [";
    for (int i = 0; i < 50; ++i) many += (i ? ",\"/f" : "\"/f") + std::to_string(i) + "\"";
    EXPECT_EQ(RecentFiles::from_json(many + "]}").size(), RecentFiles::kKeep);
}

}  // namespace
}  // namespace ropelab
