// Nothing lost: every export target sits in a tree of a user's files (text, nested folders, a
// symlink, files named like the target), and after each success, refusal, failure, cancel and
// kill, for every format, every one of those files is byte-identical. The only entries a run may
// add are its own result on success and, after a SIGKILL (which no program can clean up after),
// its NAME.partial.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "support/run_binary.h"
#include "support/gl.h"

namespace ropelab {
namespace {

namespace fs = std::filesystem;
using test::Result;
using test::run;

// Everything under `root`, not following links: path → "file:" + bytes, "link:" + target, "dir".
using Snapshot = std::map<std::string, std::string>;

Snapshot snapshot(const fs::path& root) {
    Snapshot s;
    for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
        const std::string rel = fs::relative(it->path(), root).string();
        if (it->is_symlink()) {
            s[rel] = "link:" + fs::read_symlink(it->path()).string();
        } else if (it->is_directory()) {
            s[rel] = "dir";
        } else {
            s[rel] = "file:" + test::slurp(it->path().string());
        }
    }
    return s;
}

void write_text(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

// What a user's documents folder looks like around a target called `name`.
void plant_user_files(const fs::path& root, const std::string& name) {
    const std::string bare = name.substr(0, name.find('/'));
    write_text(root / "notes.txt", "my notes\n");
    write_text(root / "thesis" / "chapter1" / "draft.tex", "\\section{RoPE}\n");
    write_text(root / "thesis" / bare, "a file in a subfolder with the target's name\n");
    write_text(root / (bare + ".bak"), "a backup named like the target\n");
    write_text(root / "frame_00000.png", "not a PNG, but the user's\n");
    fs::create_symlink("notes.txt", root / "link-to-notes");
    fs::create_directories(root / "empty-folder");
}

// Removes what a run legitimately adds, so the rest can be compared with the user's tree.
Snapshot without(Snapshot s, const std::string& name) {
    const std::string bare = name.substr(0, name.find('/'));
    for (auto it = s.begin(); it != s.end();) {
        const bool ours = it->first == bare || it->first.starts_with(bare + "/");
        it = ours ? s.erase(it) : std::next(it);
    }
    return s;
}

const char* const kUserTargets[] = {"still.png", "anim.mp4", "anim.gif", "frames/", "data.csv", "data.json"};

bool animated(const std::string& t) { return t.starts_with("anim") || t.ends_with("/"); }

std::string command_for(const std::string& target, const std::string& out, int frames = 12) {
    if (target.ends_with(".csv") || target.ends_with(".json")) return "export-data --view scores --out " + out;
    return "render --view planes --size 192x108" + (animated(target) ? " --frames " + std::to_string(frames) : "") +
           " --out " + out;
}

class UserFiles : public ::testing::Test {
protected:
    void SetUp() override {
        ROPELAB_SKIP_WITHOUT_GL();
        root_ = test::temp_path("user_files");
        fs::remove_all(root_);
    }
    void TearDown() override { fs::remove_all(root_); }

    // A fresh tree for one case.
    fs::path tree(const std::string& target) {
        fs::remove_all(root_);
        fs::create_directories(root_);
        plant_user_files(root_, target);
        return root_;
    }

    fs::path root_;
};

TEST_F(UserFiles, SuccessTouchesOnlyTheTarget) {
    for (const std::string target : kUserTargets) {
        const fs::path root = tree(target);
        const Snapshot before = snapshot(root);
        const Result r = run(command_for(target, (root / target).string()));
        ASSERT_EQ(r.status, 0) << target << ": " << r.err;
        EXPECT_EQ(without(snapshot(root), target), before) << target;
        EXPECT_TRUE(fs::exists(root / target)) << target;
        if (target.ends_with("/")) {
            EXPECT_EQ(std::distance(fs::directory_iterator(root / target), fs::directory_iterator()), 12);
        }
    }
}

// The one thing a run may replace: a regular file at the target's name, atomically. A symlink
// there is followed to its regular file, and stays a symlink.
TEST_F(UserFiles, ReplacesOnlyARegularFileAtTheTarget) {
    for (const std::string target : kUserTargets) {
        if (target.ends_with("/")) continue;
        const fs::path root = tree(target);
        write_text(root / target, "the user's old file\n");
        const Snapshot before = snapshot(root);
        const Result r = run(command_for(target, (root / target).string()));
        ASSERT_EQ(r.status, 0) << target << ": " << r.err;
        EXPECT_NE(test::slurp((root / target).string()), "the user's old file\n") << target;
        EXPECT_EQ(without(snapshot(root), target), without(before, target)) << target;

        fs::remove(root / target);
        write_text(root / "real" / target, "old\n");
        fs::create_symlink(fs::path("real") / target, root / target);
        const Result linked = run(command_for(target, (root / target).string()));
        ASSERT_EQ(linked.status, 0) << target << ": " << linked.err;
        EXPECT_TRUE(fs::is_symlink(root / target)) << target << ": the link was replaced";
        EXPECT_NE(test::slurp((root / "real" / target).string()), "old\n") << target;
    }
}

// Folders, links to folders, dangling links, leftovers and non-empty folders are refused
// (exit 2, naming the problem) and nothing at all changes.
TEST_F(UserFiles, RefusalsChangeNothing) {
    struct Case {
        std::string target, setup, expect;
    };
    const Case cases[] = {
        {"x.png", "folder", "is a folder"},           {"x.csv", "folder", "is a folder"},
        {"x.json", "folder", "is a folder"},          {"x.mp4", "folder", "is a folder"},
        {"x.gif", "folder", "is a folder"},           {"frames/", "full folder", "is not empty"},
        {"frames", "full folder", "is not empty"},    {"x.png", "link to folder", "link to a folder"},
        {"x.png", "dangling link", "link to nothing"}, {"frames/", "link to folder", "symbolic link"},
    };
    for (const Case& c : cases) {
        const fs::path root = tree(c.target);
        const std::string bare = c.target.substr(0, c.target.find('/'));
        if (c.setup == "folder" || c.setup == "full folder") write_text(root / bare / "inside.txt", "keep me\n");
        if (c.setup == "link to folder") fs::create_symlink("thesis", root / bare);
        if (c.setup == "dangling link") fs::create_symlink("nowhere", root / bare);
        const Snapshot before = snapshot(root);
        const Result r = run(command_for(c.target.starts_with("frames") ? "frames/" : c.target, (root / c.target).string()));
        EXPECT_EQ(r.status, 2) << c.target << " (" << c.setup << "): " << r.err;
        EXPECT_NE(r.err.find(c.expect), std::string::npos) << c.target << " (" << c.setup << "): " << r.err;
        EXPECT_EQ(snapshot(root), before) << c.target << " (" << c.setup << ")";
    }
}

// A NAME.partial beside the target is the user's file (runs stage under a name of their own,
// .ropelab-XXXXXX): the export succeeds and leaves it exactly as it was.
TEST_F(UserFiles, ANamePartialBesideTheTargetIsLeftAlone) {
    for (const std::string target : {"x.png", "x.mp4", "x.csv", "frames/"}) {
        const fs::path root = tree(target);
        const std::string bare = target.substr(0, target.find('/'));
        write_text(root / (bare + ".partial"), "someone's\n");
        const Snapshot before = snapshot(root);
        const Result r = run(command_for(target, (root / target).string()));
        EXPECT_EQ(r.status, 0) << target << ": " << r.err;
        EXPECT_EQ(without(snapshot(root), bare), without(before, bare)) << target;
        EXPECT_EQ(test::slurp((root / (bare + ".partial")).string()), "someone's\n") << target;
    }
}

// `--out .` in a folder full of the user's files: refused, nothing touched.
TEST_F(UserFiles, CurrentFolderIsRefused) {
    const fs::path root = tree("frames/");
    const Snapshot before = snapshot(root);
    const Result r = run(command_for("frames/", "."), "cd " + root.string() + " &&");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("is not empty"), std::string::npos) << r.err;
    EXPECT_EQ(snapshot(root), before);
}

// A PNG sequence into an existing empty folder fills it and adds nothing else anywhere.
TEST_F(UserFiles, EmptyFolderIsFilled) {
    const fs::path root = tree("frames/");
    const Snapshot before = snapshot(root);
    const Result r = run(command_for("frames/", (root / "empty-folder").string()));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(std::distance(fs::directory_iterator(root / "empty-folder"), fs::directory_iterator()), 12);
    EXPECT_EQ(without(snapshot(root), "empty-folder"), without(before, "empty-folder"));
}

// Writes failing part-way (a file-size limit of 4 blocks — 2 KiB in dash's 512-byte blocks, the
// shell the command runs in — SIGXFSZ ignored) leave the tree and a user's file at the target
// exactly as they were. Every output is larger than that: a 192×108 PNG alone is ~9 KB, and a
// 40-frame MP4 of a view whose text no longer changes per frame came to 6.3 KB, under the
// 8 KiB an earlier limit of 16 blocks allowed.
TEST_F(UserFiles, FailuresChangeNothing) {
    for (const std::string target : kUserTargets) {
        const fs::path root = tree(target);
        if (!target.ends_with("/")) write_text(root / target, "the user's file at the target\n");
        const Snapshot before = snapshot(root);
        const Result r = run(command_for(target, (root / target).string(), 40), "trap '' XFSZ; ulimit -f 4;");
        EXPECT_EQ(r.status, 2) << target << ": " << r.err;
        EXPECT_EQ(snapshot(root), before) << target;
    }
}

TEST_F(UserFiles, CancelAndKillChangeNothing) {
    for (const int sig : {SIGTERM, SIGINT, SIGKILL}) {
        for (const std::string target : {"anim.mp4", "anim.gif", "frames/"}) {
            const fs::path root = tree(target);
            if (!target.ends_with("/")) write_text(root / target, "the user's file at the target\n");
            const Snapshot before = snapshot(root);
            double seconds = 0;
            const int status = test::signal_after_frames(
                std::string(ROPELAB_BINARY) + " " + command_for(target, (root / target).string(), 5000), sig, seconds);
            Snapshot after = snapshot(root);
            if (sig == SIGKILL) {  // no cleanup is possible; only our own .ropelab-XXXXXX may remain
                const std::string bare = target.substr(0, target.find('/'));
                for (auto it = after.begin(); it != after.end();) {
                    it = it->first.find(".ropelab-") != std::string::npos ? after.erase(it) : std::next(it);
                }
            } else {
                EXPECT_TRUE(WIFEXITED(status) || WIFSIGNALED(status)) << target;
                // A second by design (the handler's alarm); slack for a loaded 2-core CI machine.
                EXPECT_LT(seconds, 3.0) << target << ": took too long to stop";
            }
            EXPECT_EQ(after, before) << target << " after signal " << sig;
        }
    }
}

// `gui --screenshot` obeys the same rules, before any window opens.
TEST_F(UserFiles, ScreenshotTargetsAreChecked) {
    const fs::path root = tree("shots/");
    write_text(root / "shots" / "mine.png", "keep\n");
    const Snapshot before = snapshot(root);
    for (const std::string target : {"shots/", "shots"}) {
        const Result r = run("gui --frames 1 --screenshot " + (root / target).string());
        EXPECT_EQ(r.status, 2) << r.err;
        EXPECT_NE(r.err.find("folder"), std::string::npos) << r.err;
    }
    EXPECT_EQ(snapshot(root), before);
}

}  // namespace
}  // namespace ropelab
