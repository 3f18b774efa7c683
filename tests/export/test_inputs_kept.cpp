// One registry of the files a run reads, one commit path for what it writes: whatever kind of
// input a run took (a q/k array, a lesson, an @FILE vector, a script) and under whatever name
// (the same, a hard link, a symbolic link), no output replaces it; a q file named but not read
// (no --token-vectors file) is the user's all the same; and an encoder that exits 0 without
// writing never turns the user's file into an empty one. Every case runs among a user's other
// files, and every one of them is byte-identical afterwards.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "support/files.h"
#include "support/gl.h"
#include "support/run_binary.h"

namespace ropelab {
namespace {

namespace fs = std::filesystem;
using test::Result;
using test::run;

// Path → bytes of every regular file under `root` (links read through).
std::map<std::string, std::string> contents(const fs::path& root) {
    std::map<std::string, std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        if (entry.is_regular_file()) files[fs::relative(entry.path(), root).string()] = test::slurp(entry.path().string());
    }
    return files;
}

// A T × d array of distinct numbers, as a JSON text (T rows of d).
std::string q_array(int tokens, int dim) {
    std::string out = "[";
    for (int t = 0; t < tokens; ++t) {
        out += t ? ",[" : "[";
        for (int i = 0; i < dim; ++i) out += (i ? "," : "") + std::to_string(0.25 * t + 0.01 * i);
        out += "]";
    }
    return out + "]\n";
}

class InputsKept : public test::TempDirTest {
protected:
    InputsKept() : TempDirTest("inputs_kept") {}
    void SetUp() override {
        ROPELAB_SKIP_WITHOUT_GL();
        TempDirTest::SetUp();
        test::write_file(at("notes.txt"), "my notes\n");
        test::write_file(at("q.json"), q_array(16, 128));
        test::write_file(at("q2.json"), q_array(16, 128));
        std::string vector;
        for (int i = 0; i < 128; ++i) vector += std::to_string(i % 7 - 3) + " ";
        test::write_file(at("v.png"), vector + "\n");  // an @FILE vector under an image's name
        fs::create_hard_link(at("q.json"), at("hard.json"));
        fs::create_symlink("q.json", at("link.json"));
    }

    // `args` (with DIR standing for the folder) must exit 2 naming the input, and change no file.
    void expect_refused(const std::string& args, const std::string& input_named) {
        const auto before = contents(dir_);
        std::string command = args;
        for (std::size_t at = command.find("DIR"); at != std::string::npos; at = command.find("DIR", at)) {
            command.replace(at, 3, dir_.string());
        }
        const Result r = run(command);
        EXPECT_EQ(r.status, 2) << command << "\n" << r.err;
        EXPECT_NE(r.err.find("this run read"), std::string::npos) << command << "\n" << r.err;
        EXPECT_NE(r.err.find(input_named), std::string::npos) << command << "\n" << r.err;
        EXPECT_EQ(contents(dir_), before) << command << " changed a file";
    }
};

const std::string kFileVectors = "--view attention --token-vectors file --tokens text:16 ";

TEST_F(InputsKept, AQArrayIsNeverReplaced) {
    for (const std::string out : {"q.json", "hard.json", "link.json"}) {
        SCOPED_TRACE(out);
        expect_refused("export-data " + kFileVectors + "--q-file DIR/q.json --out DIR/" + out, "vector array file");
        expect_refused("export-data " + kFileVectors + "--q-file DIR/q2.json --k-file DIR/q.json --out DIR/" + out,
                       "vector array file");
    }
}

// The issue's case: --q-file without --token-vectors file is not read, yet it is the user's.
TEST_F(InputsKept, AQFileNamedButNotReadIsNeverReplaced) {
    expect_refused("export-data --view attention --q-file DIR/q.json --out DIR/q.json", "q.json");
    expect_refused("export-data --view attention --k-file DIR/q.json --out DIR/hard.json", "q.json");
}

TEST_F(InputsKept, RenderNeverReplacesItsInputs) {
    const std::string lesson = R"({"title": "t", "scenes": [{"title": "One", "caption": "c", "views": [3]}]})";
    test::write_file(at("l.svg"), lesson);
    expect_refused("render --lesson DIR/l.svg --scene 1 --out DIR/l.svg", "lesson file");
    expect_refused("render --view scores --size 160x90 --vectors custom --q @DIR/v.png --out DIR/v.png", "vector file");
    test::write_file(at("q.png"), q_array(16, 128));
    expect_refused("render " + kFileVectors + "--size 320x180 --q-file DIR/q.png --out DIR/q.png", "vector array file");
}

// What a normal run makes still lands, beside the inputs it keeps.
TEST_F(InputsKept, OtherNamesAreStillWritten) {
    const Result r = run("export-data " + kFileVectors + "--q-file " + at("q.json") + " --out " + at("out.json"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_FALSE(test::read_json(at("out.json")).is_discarded());
    EXPECT_EQ(test::slurp(at("q.json")), q_array(16, 128));
}

// Red team, round 4: every kind of input × every other name for it × both exporting commands.
// Each row must exit 2 naming the input as "this run read" and leave every file as it was.
struct InputKind {
    const char* name;     // for messages
    const char* option;   // IN stands for the input's path
    const char* what;     // the kind the refusal names
    bool render_only;
};
const InputKind kKinds[] = {
    {"config", "--config IN", "config file", false},
    {"session", "--session IN", "session file", false},
    {"@FILE q", "--vectors custom --q @IN", "vector file", false},
    {"@FILE k", "--vectors custom --k @IN", "vector file", false},
    {"q array", "--view attention --token-vectors file --tokens text:16 --q-file IN", "vector array file", false},
    {"k array", "--view attention --token-vectors file --tokens text:16 --q-file Q2 --k-file IN", "vector array file", false},
    {"q array, not read", "--view attention --q-file IN", "vector array file", false},
    {"lesson", "--lesson IN --scene 1", "lesson file", true},
};

std::string input_text(const std::string& kind) {
    if (kind == "config") return R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 500000.0})";
    if (kind == "session") return R"({"ropelab_session": 2, "model": {"rope_theta": 5000}})";
    if (kind == "lesson") return R"({"title": "t", "scenes": [{"title": "One", "caption": "c", "views": [3]}]})";
    if (kind.starts_with("@FILE")) {
        std::string v;
        for (int i = 0; i < 128; ++i) v += std::to_string(i % 5) + " ";
        return v;
    }
    return q_array(16, 128);
}

TEST_F(InputsKept, NoOtherNameOfAnyInputIsReplaced) {
    fs::create_directory_symlink(dir_, dir_.parent_path() / (dir_.filename().string() + "_link"));
    const std::string folder_link = (dir_.parent_path() / (dir_.filename().string() + "_link")).string();
    int rows = 0;
    for (const std::string command : {"export-data", "render"}) {
        const std::string ext = command == "render" ? ".png" : ".csv";
        const std::string size = command == "render" ? " --size 320x180" : "";
        for (const InputKind& kind : kKinds) {
            if (kind.render_only && command != "render") continue;
            const std::string input = at("in" + ext);
            test::write_file(input, input_text(kind.name));
            fs::remove(at("hard" + ext));
            fs::remove(at("sym" + ext));
            fs::remove(at("sym2" + ext));
            fs::create_hard_link(input, at("hard" + ext));
            fs::create_symlink("in" + ext, at("sym" + ext));
            fs::create_symlink("sym" + ext, at("sym2" + ext));
            std::string option = kind.option;
            option.replace(option.find("IN"), 2, input);
            if (option.find("Q2") != std::string::npos) option.replace(option.find("Q2"), 2, at("q2.json"));
            const std::string outs[] = {input, (dir_ / "." / ("in" + ext)).string(), dir_.string() + "//in" + ext,
                                        (dir_ / "sub" / ".." / ("in" + ext)).string(), at("hard" + ext), at("sym" + ext),
                                        at("sym2" + ext), folder_link + "/in" + ext};
            fs::create_directories(dir_ / "sub");
            for (const std::string& out : outs) {
                SCOPED_TRACE(command + " " + kind.name + " → " + out);
                expect_refused(command + size + " " + option + " --out " + out, kind.what);
                ++rows;
            }
        }
    }
    fs::remove(folder_link);
    EXPECT_EQ(rows, 8 * (7 + 8));
}

// A stand-in ffmpeg that reads every frame and exits 0 without writing its output.
class SilentEncoder : public InputsKept {
protected:
    void SetUp() override {
        InputsKept::SetUp();
        if (IsSkipped()) return;
        bin_ = dir_.parent_path() / ("silent_ffmpeg_" + dir_.filename().string());
        fs::create_directories(bin_);
        test::write_file((bin_ / "ffmpeg").string(), "#!/bin/sh\ncat >/dev/null\nexit 0\n");
        fs::permissions(bin_ / "ffmpeg", fs::perms::owner_all);
    }
    void TearDown() override {
        fs::remove_all(bin_);
        InputsKept::TearDown();
    }
    Result render_with_it(const std::string& out) {
        return run("render --view scores --size 160x90 --frames 6 --out " + at(out), "PATH='" + bin_.string() + ":'\"$PATH\"");
    }
    fs::path bin_;
};

TEST_F(SilentEncoder, TheUsersVideoIsKept) {
    for (const std::string out : {"a.mp4", "a.gif"}) {
        test::write_file(at(out), "the user's video\n");
        const auto before = contents(dir_);
        const Result r = render_with_it(out);
        EXPECT_EQ(r.status, 2) << out << ": " << r.err;
        EXPECT_NE(r.err.find("the result is empty"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(out), std::string::npos) << r.err;
        EXPECT_EQ(contents(dir_), before) << out;
    }
}

TEST_F(SilentEncoder, NoEmptyFileIsMade) {
    const auto before = contents(dir_);
    const Result r = render_with_it("new.mp4");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_FALSE(fs::exists(at("new.mp4")));
    EXPECT_EQ(contents(dir_), before) << "a staging file was left";
}

}  // namespace
}  // namespace ropelab
