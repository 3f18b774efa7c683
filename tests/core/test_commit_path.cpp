// The one commit path (core/atomic_file.h) against the one registry of inputs (core/input_file.h),
// in process: what a write may replace is decided when it commits, by what the run has read by
// then, through any name; a document's save may replace that document and nothing else; an
// empty result replaces nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include "core/atomic_file.h"
#include "core/input_file.h"
#include "support/files.h"

namespace ropelab {
namespace {

namespace fs = std::filesystem;

class CommitPath : public test::TempDirTest {
protected:
    CommitPath() : TempDirTest("commit_path") {}
    std::string make(const std::string& name, const std::string& text) {
        test::write_file(at(name), text);
        return at(name);
    }
};

// A target claimed before its file was read is still refused at commit: the check is at the end.
TEST_F(CommitPath, AnInputReadAfterTheClaimIsRefusedAtCommit) {
    const std::string q = make("q.txt", "1 2 3 4\n");
    PartialFile out;
    std::string error;
    ASSERT_TRUE(out.claim(q, error)) << error;
    test::write_file(out.path(), "an export\n");
    EXPECT_EQ(read_input_file(q, "vector array"), "1 2 3 4\n");
    EXPECT_FALSE(out.commit(error));
    EXPECT_NE(error.find("it is the vector array file " + q + " this run read"), std::string::npos) << error;
    EXPECT_EQ(test::slurp(q), "1 2 3 4\n");
    EXPECT_FALSE(fs::exists(out.path())) << "the staging file is removed";
}

TEST_F(CommitPath, EveryNameOfAnInputIsRefused) {
    const std::string config = make("c.json", "{}");
    (void)read_input_file(config, "config");
    fs::create_hard_link(config, at("hard.json"));
    fs::create_symlink("c.json", at("link.json"));
    for (const std::string name : {"c.json", "hard.json", "link.json", "./c.json"}) {
        std::string error;
        EXPECT_FALSE(write_file_atomically(name == "./c.json" ? (dir_ / "." / "c.json").string() : at(name), "x", error)) << name;
        EXPECT_NE(error.find("config file"), std::string::npos) << error;
    }
    EXPECT_EQ(test::slurp(config), "{}");
}

// Saving the open document onto itself is the one replacement allowed, and only for its kind.
TEST_F(CommitPath, ADocumentSaveReplacesOnlyItsOwnKind) {
    const std::string session = make("s.ropelab", R"({"ropelab_session": 2})");
    const std::string lesson = make("l.ropelesson", R"({"scenes": []})");
    const std::string config = make("model.json", "{}");
    (void)read_input_file(session, "session");
    (void)read_input_file(lesson, "lesson");
    (void)read_input_file(config, "config");
    std::string error;
    EXPECT_TRUE(write_file_atomically(session, "saved session", error, "session")) << error;
    EXPECT_EQ(test::slurp(session), "saved session");
    EXPECT_TRUE(write_file_atomically(lesson, "saved lesson", error, "lesson")) << error;
    EXPECT_FALSE(write_file_atomically(lesson, "a session", error, "session"));
    EXPECT_FALSE(write_file_atomically(session, "an export", error));
    EXPECT_FALSE(write_file_atomically(config, "a session", error, "session"));
    EXPECT_EQ(test::slurp(config), "{}");
    EXPECT_EQ(test::slurp(lesson), "saved lesson");
}

// A dropped file is first read to tell what it is; the read that opens it says what it is.
TEST_F(CommitPath, TheLastReadNamesTheKind) {
    const std::string file = make("dropped.json", R"({"ropelab_session": 2})");
    (void)read_input_file(file, "session, lesson or config");
    std::string error;
    EXPECT_FALSE(write_file_atomically(file, "x", error, "session"));
    (void)read_input_file(file, "session");
    EXPECT_TRUE(write_file_atomically(file, "x", error, "session")) << error;
}

// A file named as an input but not read (a --q-file while the vectors are random) is kept too.
TEST_F(CommitPath, ANamedInputIsKeptThoughNeverRead) {
    const std::string q = make("named.npy", "not read");
    register_named_input(q, "vector array");
    register_named_input(at("missing.npy"), "vector array");  // nothing there: nothing registered
    std::string error;
    EXPECT_FALSE(write_file_atomically(q, "x", error));
    EXPECT_TRUE(write_file_atomically(at("missing.npy"), "x", error)) << error;
    EXPECT_EQ(test::slurp(q), "not read");
}

TEST_F(CommitPath, AnEmptyResultReplacesNothing) {
    const std::string mine = make("a.mp4", "the user's video");
    std::string error;
    EXPECT_FALSE(write_file_atomically(mine, "", error));
    EXPECT_NE(error.find("the result is empty (0 bytes), so the file there was kept"), std::string::npos) << error;
    EXPECT_EQ(test::slurp(mine), "the user's video");
    EXPECT_FALSE(write_file_atomically(at("new.mp4"), "", error));
    EXPECT_FALSE(fs::exists(at("new.mp4")));
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++entries;
    EXPECT_EQ(entries, 1u) << "no staging file is left";
}

// A file that could not be read whole (too large) was still named as an input: registered at open.
TEST_F(CommitPath, AFileRefusedAsTooLargeIsStillAnInput) {
    const std::string big = make("big.json", "x");
    fs::resize_file(big, kMaxInputFileBytes + 1);
    EXPECT_THROW((void)read_input_file(big, "config"), std::exception);
    std::string error;
    EXPECT_FALSE(write_file_atomically(big, "x", error));
    EXPECT_EQ(fs::file_size(big), kMaxInputFileBytes + 1);
}

// The README's one grep, as a test: outside the commit path (core/atomic_file.*) nothing in src/
// or app/ opens, creates or renames a file for writing. Two known lines write no user file: ffmpeg's
// log goes into a ScratchFile of the system's temporary folder, and F12 creates its own
// screenshots folder (whose PNGs then go through the commit path).
// Lines of src/ and app/ (outside the files `skip` starts) that match `pattern`, each as
// "file: line" — or as the entry of `known` whose file and text it has.
std::set<std::string> lines_matching(const std::regex& pattern, const std::string& skip, const std::set<std::string>& known) {
    std::set<std::string> found;
    const fs::path root = ROPELAB_SOURCE_DIR;
    for (const char* top : {"src", "app"}) {
        for (const auto& entry : fs::recursive_directory_iterator(root / top)) {
            const std::string rel = fs::relative(entry.path(), root).string();
            if (!entry.is_regular_file() || rel.starts_with(skip)) continue;
            std::ifstream in(entry.path());
            for (std::string line; std::getline(in, line);) {
                if (!std::regex_search(line, pattern)) continue;
                std::string key = rel + ": " + line;
                for (const std::string& k : known) {
                    if (key.starts_with(k.substr(0, k.find(':'))) && line.find(k.substr(k.find(':') + 2)) != std::string::npos) key = k;
                }
                found.insert(key);
            }
        }
    }
    return found;
}

TEST(OneWritePath, NothingElseOpensAFileForWriting) {
    const std::regex writes(R"(ofstream|fopen\(.*"[wa]|O_CREAT|O_WRONLY|O_RDWR|rename\(|renameat|mkstemp|mkdtemp|create_directories|filesystem::copy)");
    // The folders the lab makes for its own files: F12's, the default save folders' ropelab/
    // (documents, pictures), the recent files' ropelab/ in the config folder, and the web page's
    // /downloads in its own memory file system (whose files go through the commit path too).
    const std::set<std::string> known = {"src/export/video.cpp: log_->path()", "app/window.cpp: create_directories(folder",
                                         "app/web/downloads.cpp: fs::create_directories(kDownloads, ec);",
                                         "src/core/user_dirs.cpp: fs::create_directories(parent, ec);",
                                         "src/core/user_dirs.cpp: fs::create_directories(fs::path(file_).parent_path(), ec);"};
    EXPECT_EQ(lines_matching(writes, "src/core/atomic_file.", known), known);
}

// The same for reading: every file a user hands the lab is read by read_input_file, which
// registers it. The other reads are the lab's own files: its shaders, ffmpeg's log in a
// ScratchFile, /proc, and the commit path's own folder scan (and headroom's anonymous mmap,
// which maps memory, no file).
TEST(OneReadPath, NothingElseOpensAUsersFile) {
    const std::regex reads(R"(ifstream|fopen\(|O_RDONLY|O_PATH|stbi_load|mmap\()");
    const std::set<std::string> known = {"src/export/video.cpp: std::ifstream log(log_->path())",
                                         "src/gpu/program.cpp: std::ifstream in(std::string(dir)",
                                         "src/core/atomic_file.cpp: O_RDONLY | O_DIRECTORY",
                                         "src/core/atomic_file.cpp: fopen(\"/proc/self/status\"",
                                         "src/core/atomic_file.cpp: fopen(file.path().c_str(), \"wbe\")",
                                         "app/platform_posix.cpp: fopen(\"/proc/self/statm\"",
                                         "src/core/headroom.cpp: MAP_ANONYMOUS",
                                         // model files (GGUF, safetensors): mapped, not read whole, and
                                         // registered from the open descriptor as read_input_file does
                                         "src/models/mapped_file.cpp: O_RDONLY | O_CLOEXEC | O_NONBLOCK",
                                         "src/models/mapped_file.cpp: mmap(nullptr",
                                         // the lab's own settings: user-dirs.dirs and recent.json
                                         "src/core/user_dirs.cpp: std::ifstream in(path, std::ios::binary);"};
    EXPECT_EQ(lines_matching(reads, "src/core/input_file.", known), known);
}

}  // namespace
}  // namespace ropelab
