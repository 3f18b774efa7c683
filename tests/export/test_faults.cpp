// Fault injection on exports: a full disk (a 64 KiB tmpfs), a file-size limit (EFBIG, where
// mounting is not allowed), and the target folder deleted mid-export. Every case ends with exit
// status 2, an error naming the target, and nothing left behind — no file, no .partial.
#include <gtest/gtest.h>

#include <sys/mount.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/files.h"
#include "support/gl.h"
#include "support/run_binary.h"

namespace ropelab {
namespace {

namespace fs = std::filesystem;
using test::Result;
using test::run;

constexpr const char* kFiller = "filler";

// Every export kind: a still, two videos, a PNG sequence, two data files.
const char* const kTargets[] = {"still.png", "anim.mp4", "anim.gif", "frames/", "data.csv", "data.json"};

std::string export_command(const std::string& target, const std::string& out) {
    if (target.starts_with("data")) return "export-data --view scores --max-distance 200000 --out " + out;
    const std::string frames = target.ends_with(".png") ? "" : " --frames 40";
    return "render --view scores --size 640x360" + frames + " --out " + out;
}

// Removes a folder the app is still writing into: a file created between listing and rmdir makes
// one pass fail with ENOTEMPTY, so it tries again (bounded).
bool remove_while_written(const fs::path& folder) {
    for (int attempt = 0; attempt < 200; ++attempt) {
        std::error_code ec;
        fs::remove_all(folder, ec);
        if (!ec && !fs::exists(folder)) return true;
        usleep(5000);
    }
    return false;
}

class ExportFaults : public ::testing::Test {
protected:
    void SetUp() override {
        ROPELAB_SKIP_WITHOUT_GL();
        dir_ = test::fresh_dir("faults");
    }
    void TearDown() override {
        if (mounted_) umount(dir_.c_str());
        fs::remove_all(dir_);
    }

    void expect_clean_failure(const Result& r, const std::string& target, const std::string& folder) {
        EXPECT_EQ(r.status, 2) << target << ": " << r.err;
        EXPECT_NE(r.err.find(target.substr(0, target.find('/'))), std::string::npos) << r.err;
        std::string left;
        for (const auto& entry : fs::directory_iterator(folder)) {
            if (entry.path().filename() != kFiller) left += entry.path().filename().string() + " ";
        }
        EXPECT_EQ(left, "") << target << " left files behind";
    }

    fs::path dir_;
    bool mounted_ = false;
};

TEST_F(ExportFaults, FullDiskLeavesNothing) {
    if (geteuid() != 0 || mount("tmpfs", dir_.c_str(), "tmpfs", 0, "size=64k") != 0) {
        GTEST_SKIP() << "cannot mount a small tmpfs here (needs root); FileSizeLimit covers the same path";
    }
    mounted_ = true;
    {  // fill it: every byte an export writes now fails with ENOSPC
        std::ofstream filler(dir_ / kFiller, std::ios::binary);
        const std::string block(4096, 'x');
        for (int i = 0; i < 64 && filler; ++i) filler.write(block.data(), static_cast<std::streamsize>(block.size()));
    }
    for (const std::string target : kTargets) {
        const Result r = run(export_command(target, (dir_ / target).string()));
        expect_clean_failure(r, target, dir_.string());
        EXPECT_TRUE(r.err.find("disk full") != std::string::npos || r.err.find("ffmpeg") != std::string::npos ||
                    r.err.find("No space") != std::string::npos)
            << r.err;
    }
}

// RLIMIT_FSIZE with SIGXFSZ ignored: every write past 16 KiB fails with EFBIG, in ropelab and in
// the ffmpeg it starts — a full disk as far as the writers can tell.
TEST_F(ExportFaults, FileSizeLimitLeavesNothing) {
    for (const std::string target : kTargets) {
        const Result r = run(export_command(target, (dir_ / target).string()), "trap '' XFSZ; ulimit -f 32;");
        expect_clean_failure(r, target, dir_.string());
    }
}

// The target's folder is deleted while frames are being written. The run is long (20000 frames,
// a 400-frame MP4 takes 0.4 s) so that it cannot finish before the folder goes, however fast the
// machine; the app notices the loss at the next frame and stops, so the test stays short.
TEST_F(ExportFaults, FolderDeletedMidExport) {
    for (const std::string target : {"anim.mp4", "frames/", "anim.gif"}) {
        const fs::path folder = dir_ / "vanishing";
        fs::create_directories(folder);
        const std::string err_path = (dir_ / "stderr.txt").string();
        const std::string command = std::string(ROPELAB_BINARY) + " render --view scores --size 320x180 --frames 20000 --progress --out " +
                                    (folder / target).string() + " 2>" + err_path;
        FILE* pipe = popen(command.c_str(), "r");
        ASSERT_NE(pipe, nullptr);
        char line[256];
        bool removed = false;
        while (fgets(line, sizeof line, pipe)) {
            int done = 0, total = 0;
            if (!removed && std::sscanf(line, "progress %d %d", &done, &total) == 2 && done >= 20) {
                removed = remove_while_written(folder);
            }
        }
        const int raw = pclose(pipe);
        const std::string err = test::slurp(err_path);
        ASSERT_TRUE(removed) << target << ": the export ended before 20 frames";
        EXPECT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == 2) << target << ": " << err;
        EXPECT_NE(err.find("nothing was written"), std::string::npos) << err;
        EXPECT_FALSE(fs::exists(folder)) << target << ": the folder came back";
    }
}

// The same limit without the shell ignoring SIGXFSZ (a plain `ulimit -f`): the signal would end
// the process mid-write and leave NAME.partial, which blocks every later run to that name; the
// app ignores it, so the write fails and the run cleans up.
TEST_F(ExportFaults, FileSizeLimitWithoutTheTrapLeavesNothing) {
    for (const std::string target : kTargets) {
        const Result r = run(export_command(target, (dir_ / target).string()), "ulimit -f 32;");
        expect_clean_failure(r, target, dir_.string());
    }
}

// A closed terminal (SIGHUP) in the middle of an export: the run's files go, as on Ctrl-C.
TEST_F(ExportFaults, HangupLeavesNothing) {
    for (const std::string target : {"anim.mp4", "anim.gif"}) {
        const std::string out = (dir_ / target).string();
        const std::string command = "render --view scores --size 640x360 --frames 2000 --out " + out;
        double seconds = 0;
        const int status = test::signal_after_frames(std::string(ROPELAB_BINARY) + " " + command, SIGHUP, seconds);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2) << target << ": wait status " << status;  // cancelled, not finished
        std::string left;
        for (const auto& entry : fs::directory_iterator(dir_)) left += entry.path().filename().string() + " ";
        EXPECT_EQ(left, "") << target << ": SIGHUP left files behind";
    }
}

// An export never replaces a file the same run read: the config, the session, a link to either.
TEST_F(ExportFaults, AnExportNeverReplacesItsOwnInput) {
    const fs::path config = dir_ / "c.json";
    const std::string original = R"({"model_type": "llama", "head_dim": 64, "rope_theta": 500000.0})";
    { std::ofstream(config) << original; }
    fs::create_symlink(config, dir_ / "link.json");
    for (const std::string out : {"c.json", "link.json"}) {
        const Result r = run("export-data --view frequencies --config " + config.string() + " --out " + (dir_ / out).string());
        EXPECT_EQ(r.status, 2) << out << ": " << r.err;
        EXPECT_NE(r.err.find("this run read"), std::string::npos) << r.err;
        EXPECT_EQ(test::slurp(config.string()), original) << out << " replaced the user's config";
    }
    const fs::path session = dir_ / "s.json";
    ASSERT_EQ(run("export-data --view scores --out " + (dir_ / "x.csv").string()).status, 0);
    { std::ofstream(session) << R"({"ropelab_session": 2})"; }
    const std::string before = test::slurp(session.string());
    const Result r = run("export-data --view scores --session " + session.string() + " --out " + session.string());
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(test::slurp(session.string()), before);
    EXPECT_FALSE(fs::exists(session.string() + ".partial"));
}

// "--frames 010" is ten frames, as written (CLI11 alone would read octal and write 8).
TEST_F(ExportFaults, LeadingZerosCountInDecimal) {
    const Result r = run("render --view scores --size 320x180 --frames 010 --out " + (dir_ / "frames").string() + "/");
    ASSERT_EQ(r.status, 0) << r.err;
    int files = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir_ / "frames")) ++files;
    EXPECT_EQ(files, 10);
}

// A target swapped while a long render runs is the user's now: the run refuses at commit time
// (exit 2, saying so) and leaves whatever is there as it is. Swaps: the file for a link to
// another of the user's files, the file for another file, a new name created meanwhile.
TEST_F(ExportFaults, ATargetSwappedDuringTheRunIsKept) {
    struct Case {
        std::string name, before, swap;
    };
    const Case cases[] = {
        {"link", "file", "rm -f out.mp4 && ln -s secret.txt out.mp4"},
        {"other file", "file", "echo other > o.tmp && mv o.tmp out.mp4"},
        {"created", "", "echo appeared > out.mp4"},
        {"link created", "", "ln -s secret.txt out.mp4"},
    };
    for (const Case& c : cases) {
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        test::write_file((dir_ / "secret.txt").string(), "the user's secret\n");
        if (c.before == "file") test::write_file((dir_ / "out.mp4").string(), "the user's old video\n");
        // Started in the background; the swap once the run's staging file exists, about 0.1 s in.
        // 600 frames take over a second more here (2 cores, llvmpipe), ten times the swap's time.
        const std::string command = std::string(ROPELAB_BINARY) + " render --view scores --size 320x180 --frames 600 --out out.mp4";
        const Result r = test::capture("cd '" + dir_.string() + "' && { " + command + " 2>err.txt; echo status $? > status.txt; } & " +
                                       "cd '" + dir_.string() + "' && for i in $(seq 400); do ls -A | grep -q '^.ropelab-' && break; "
                                       "sleep 0.05; done; " + c.swap + "; wait");
        const std::string status = test::slurp((dir_ / "status.txt").string());
        const std::string err = test::slurp((dir_ / "err.txt").string());
        EXPECT_EQ(status, "status 2\n") << c.name << ": " << err;
        EXPECT_NE(err.find("changed while the file was written"), std::string::npos) << c.name << ": " << err;
        EXPECT_EQ(test::slurp((dir_ / "secret.txt").string()), "the user's secret\n") << c.name;
        if (c.swap.find("ln -s") != std::string::npos) {
            EXPECT_TRUE(fs::is_symlink(dir_ / "out.mp4")) << c.name;
        }
        if (c.name == "other file") {
            EXPECT_EQ(test::slurp((dir_ / "out.mp4").string()), "other\n");
        }
        if (c.name == "created") {
            EXPECT_EQ(test::slurp((dir_ / "out.mp4").string()), "appeared\n");
        }
        for (const auto& entry : fs::directory_iterator(dir_)) {
            EXPECT_FALSE(entry.path().filename().string().starts_with(".ropelab-")) << c.name << ": staging file left";
        }
    }
}

// Any legal name works: 255 bytes leave no room for a suffix, so the staging name is short and
// of its own (it used to be NAME.partial, refused as too long).
TEST_F(ExportFaults, A255ByteNameIsWritten) {
    const std::string png = std::string(251, 'p') + ".png", csv = std::string(251, 'c') + ".csv", folder = std::string(255, 'f');
    ASSERT_EQ(png.size(), 255u);
    Result r = run("render --view scores --size 64x64 --out " + (dir_ / png).string());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(fs::is_regular_file(dir_ / png));
    r = run("export-data --view frequencies --out " + (dir_ / csv).string());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(test::slurp((dir_ / csv).string()).find("inv_freq"), std::string::npos);
    r = run("render --view scores --size 64x64 --frames 3 --out " + (dir_ / folder).string() + "/");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(fs::is_directory(dir_ / folder));
    // Replacing a 255-byte name keeps working too, and its permissions.
    fs::permissions(dir_ / png, fs::perms::owner_read | fs::perms::owner_write);
    r = run("render --view planes --size 64x64 --out " + (dir_ / png).string());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(fs::status(dir_ / png).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++entries;
    EXPECT_EQ(entries, 3u);  // nothing else left beside them
}

}  // namespace
}  // namespace ropelab
