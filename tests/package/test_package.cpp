// tests/package: the Debian package that ./package writes. CPack builds it from this build's
// configuration into a temporary folder, once for the whole run; it is unpacked (dpkg -x) into
// a scratch root and everything below runs from there, as an installed copy would: the
// validators, --version, render, the window, the desktop entry opening a session, the MIME types.
// The run has a virtual X server of its own (tests/support/xvfb). Nothing is written outside the
// temporary folders these tests make.
#include <signal.h>
#include <sys/types.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/files.h"
#include "support/run_binary.h"

namespace ropelab {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// Single quotes for the shell.
std::string q(const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// stdout and stderr of a shell command, together, and its exit status.
test::Result both(const std::string& command) { return test::capture("(" + command + ") 2>&1"); }

bool have(const std::string& program) { return test::capture("command -v " + q(program) + " >/dev/null").status == 0; }

// The .deb and its unpacked tree, made once for every test here.
struct Package {
    fs::path dir;   // the temporary folder holding all of it
    fs::path deb;   // dir/ropelab_VERSION_amd64.deb
    fs::path root;  // dir/root: dpkg -x of the .deb
    std::string cpack_log;
    std::vector<fs::path> debs;
};

Package& package() {
    static Package p = [] {
        Package made;
        made.dir = test::fresh_dir("package");
        const fs::path out = made.dir / "cpack";
        // CPack's install step writes the build folder's install_manifest.txt: put it back as it was.
        const fs::path manifest = fs::path(ROPELAB_BUILD_DIR) / "install_manifest.txt";
        const bool had_manifest = fs::exists(manifest);
        const std::string old_manifest = had_manifest ? test::slurp(manifest.string()) : "";
        const test::Result r = both("cd " + q(ROPELAB_BUILD_DIR) + " && cpack -G DEB --config CPackConfig.cmake -B " + q(out.string()));
        made.cpack_log = r.out;
        if (had_manifest) {
            test::write_file(manifest.string(), old_manifest);
        } else {
            fs::remove(manifest);
        }
        for (const auto& entry : fs::directory_iterator(out)) {
            if (entry.path().extension() == ".deb") made.debs.push_back(entry.path());
        }
        if (made.debs.size() == 1) {
            made.deb = made.debs.front();
            made.root = made.dir / "root";
            both("dpkg -x " + q(made.deb.string()) + " " + q(made.root.string()));
        }
        return made;
    }();
    return p;
}

class PackageTest : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(package().debs.size(), 1u) << "cpack made no single .deb:\n" << package().cpack_log;
        ASSERT_TRUE(fs::exists(bin())) << "dpkg -x left no usr/bin/ropelab";
        dir_ = test::fresh_dir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    }
    void TearDown() override { fs::remove_all(dir_); }

    static fs::path root() { return package().root; }
    static std::string bin() { return (package().root / "usr/bin/ropelab").string(); }
    std::string at(const std::string& name) const { return (dir_ / name).string(); }
    void expect_window_then_end(const std::string& command, const std::string& title);

    fs::path dir_;
};

// The files the package must hold, below /usr.
const std::vector<std::string> kInstalled = {
    "./usr/bin/ropelab",
    "./usr/share/applications/ropelab.desktop",
    "./usr/share/mime/packages/ropelab.xml",
    "./usr/share/metainfo/io.github.ropelab.ropelab.metainfo.xml",
    "./usr/share/icons/hicolor/scalable/apps/ropelab.svg",
    "./usr/share/man/man1/ropelab.1.gz",
    "./usr/share/bash-completion/completions/ropelab",
    "./usr/share/doc/ropelab/copyright",
    "./usr/share/doc/ropelab/changelog.gz",
};

// A control field of the .deb.
std::string field(const std::string& name) {
    const test::Result r = test::capture("dpkg-deb -f " + q(package().deb.string()) + " " + name);
    std::string value = r.out;
    while (!value.empty() && (value.back() == '\n' || value.back() == ' ')) value.pop_back();
    return value;
}

TEST_F(PackageTest, BuildsOneDebWithShlibDependsAndEveryFile) {
    EXPECT_EQ(package().deb.filename().string(), "ropelab_" ROPELAB_PACKAGE_VERSION "_amd64.deb");
    EXPECT_EQ(field("Package"), "ropelab");
    EXPECT_EQ(field("Version"), ROPELAB_PACKAGE_VERSION);
    EXPECT_EQ(field("Architecture"), "amd64");
    EXPECT_EQ(field("Section"), "science");
    EXPECT_NE(field("Maintainer").find('@'), std::string::npos);
    const std::string depends = field("Depends");
    // dpkg-shlibdeps read the binary's libraries; libepoxy's run-time GL libraries are added by hand.
    for (const char* lib : {"libc6", "libstdc++6", "libglfw3", "libepoxy0", "libcairo2", "libegl1", "libgl1"}) {
        EXPECT_NE(depends.find(lib), std::string::npos) << lib << " missing from Depends: " << depends;
    }
    EXPECT_NE(field("Recommends").find("ffmpeg"), std::string::npos);
    const std::string description = field("Description");
    EXPECT_NE(description.find("Rotary Position Embeddings"), std::string::npos) << description;
    EXPECT_GT(std::count(description.begin(), description.end(), '\n'), 3) << "a long description, not only a synopsis";

    const std::string listing = test::capture("dpkg-deb -c " + q(package().deb.string())).out;
    for (const std::string& file : kInstalled) {
        EXPECT_TRUE(std::regex_search(listing, std::regex(" " + std::regex_replace(file, std::regex(R"([.+])"), R"(\$&)") + "\n")))
            << file << " is not in the package:\n" << listing;
    }
    // Installed as root's, the binary stripped of its debug information.
    EXPECT_NE(listing.find("root/root"), std::string::npos) << listing;
    EXPECT_EQ(test::capture("file -b " + q(bin())).out.find("not stripped"), std::string::npos);
    EXPECT_EQ(test::capture("gzip -t " + q((root() / "usr/share/man/man1/ropelab.1.gz").string())).status, 0);
}

TEST_F(PackageTest, ValidatorsShowNoErrors) {
    for (const char* tool : {"desktop-file-validate", "appstreamcli", "lintian"}) {
        if (!have(tool)) GTEST_SKIP() << tool << " is missing (scripts/bootstrap.sh installs it)";
    }
    const std::string desktop = (root() / "usr/share/applications/ropelab.desktop").string();
    test::Result r = both("desktop-file-validate " + q(desktop));
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out.find("error:"), std::string::npos) << r.out;

    const std::string metainfo = (root() / "usr/share/metainfo/io.github.ropelab.ropelab.metainfo.xml").string();
    r = both("appstreamcli validate --no-net --no-color " + q(metainfo));
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_FALSE(std::regex_search(r.out, std::regex(R"((^|\n)E: )"))) << r.out;

    r = both("lintian --tag-display-limit 0 " + q(package().deb.string()));
    EXPECT_FALSE(std::regex_search(r.out, std::regex(R"((^|\n)E: )"))) << r.out;
    EXPECT_EQ(r.status, 0) << r.out;

    // The MIME package is valid shared-mime-info XML (update-mime-database refuses it otherwise).
    const fs::path mime = dir_ / "share/mime";
    fs::create_directories(mime / "packages");
    fs::copy_file(root() / "usr/share/mime/packages/ropelab.xml", mime / "packages/ropelab.xml");
    r = both("XDG_DATA_HOME=" + q((dir_ / "share").string()) + " update-mime-database " + q(mime.string()));
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "") << r.out;

    // The icon renders at the smallest size a menu uses, with ink in it.
    if (have("rsvg-convert")) {
        r = both("rsvg-convert -w 16 -h 16 " + q((root() / "usr/share/icons/hicolor/scalable/apps/ropelab.svg").string()) + " -o " + q(at("16.png")));
        EXPECT_EQ(r.status, 0) << r.out;
        EXPECT_GT(fs::file_size(at("16.png")), 200u);
    }
}

// PNG's IHDR: width and height, big-endian, at bytes 16 and 20.
std::pair<int, int> png_size(const std::string& path) {
    const std::string bytes = test::slurp(path);
    if (bytes.size() < 24 || bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) return {0, 0};
    const auto be32 = [&](std::size_t at) {
        return (static_cast<unsigned char>(bytes[at]) << 24) | (static_cast<unsigned char>(bytes[at + 1]) << 16) |
               (static_cast<unsigned char>(bytes[at + 2]) << 8) | static_cast<unsigned char>(bytes[at + 3]);
    };
    return {be32(16), be32(20)};
}

TEST_F(PackageTest, RunsFromAScratchRoot) {
    // --version names the commit this tree was built from.
    test::Result r = both(q(bin()) + " --version");
    EXPECT_EQ(r.status, 0) << r.out;
    const test::Result head = test::capture("git -C " + q(ROPELAB_SOURCE_DIR) + " rev-parse --short HEAD 2>/dev/null");
    if (head.status == 0) {
        const std::string hash = head.out.substr(0, head.out.find('\n'));
        EXPECT_TRUE(std::regex_match(r.out, std::regex("ropelab " ROPELAB_PACKAGE_VERSION R"( \(commit )" + hash + R"((-dirty)?\)\n)")))
            << r.out << " (HEAD is " << hash << ")";
    } else {
        EXPECT_EQ(r.out, "ropelab " ROPELAB_PACKAGE_VERSION " (commit unknown)\n");
    }

    r = both(q(bin()) + " render --size 320x200 --out " + q(at("x.png")));
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(png_size(at("x.png")), std::make_pair(320, 200));
    EXPECT_GT(fs::file_size(at("x.png")), 2000u) << "a picture, not an empty frame";

    r = both(q(bin()) + " gui --frames 2 --size 640x400");
    EXPECT_EQ(r.status, 0) << r.out;

    // The manual renders without a warning and has its sections.
    const std::string man = (root() / "usr/share/man/man1/ropelab.1.gz").string();
    r = both("zcat " + q(man) + " | groff -man -Tutf8 -ww -z");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "") << "groff warned:\n" << r.out;
    const std::string text = test::capture("zcat " + q(man) + " | groff -man -Tascii -P-c -P-b -P-u 2>/dev/null").out;
    for (const char* section : {"NAME", "SYNOPSIS", "DESCRIPTION", "SUBCOMMANDS", "FILES", "EXIT STATUS", "EXAMPLES"}) {
        EXPECT_NE(text.find(std::string("\n") + section + "\n"), std::string::npos) << section << " missing:\n" << text;
    }
    EXPECT_NE(text.find("ropelab " ROPELAB_PACKAGE_VERSION), std::string::npos);
    // Every subcommand the binary lists is in the manual.
    const std::string help = test::capture(q(bin()) + " --help").out;
    const std::string subcommands = help.substr(help.find("Subcommands:"));
    std::smatch m;
    int seen = 0;
    for (auto it = subcommands.cbegin(); std::regex_search(it, subcommands.cend(), m, std::regex(R"(\n  ([a-z][a-z-]*) )")); it = m.suffix().first) {
        ++seen;
        // A .TP entry: the name at the paragraph's indent, its text beside it or on the next line.
        EXPECT_TRUE(std::regex_search(text, std::regex("\n       " + m[1].str() + "( |\n)"))) << "the manual lacks the subcommand " << m[1];
    }
    EXPECT_GE(seen, 10);
}

// The Exec= line of a group of the installed desktop entry ("Desktop Entry", or "Desktop Action
// NAME" for a right-click action), with %f replaced, as a file manager or a menu runs it: the
// package's bin first on PATH.
std::string desktop_command(const std::string& file, const std::string& group = "Desktop Entry") {
    std::ifstream in(package().root / "usr/share/applications/ropelab.desktop");
    std::string line, exec, current;
    while (std::getline(in, line)) {
        if (line.starts_with("[")) current = line.substr(1, line.find(']') - 1);
        if (current == group && line.starts_with("Exec=")) exec = line.substr(5);
    }
    EXPECT_FALSE(exec.empty()) << "no Exec= in [" << group << "]";
    const auto f = exec.find("%f");
    EXPECT_EQ(f != std::string::npos, !file.empty()) << exec;  // the entry takes a file, the action none
    if (f != std::string::npos) exec.replace(f, 2, q(file));
    return "PATH=" + q((package().root / "usr/bin").string()) + ":\"$PATH\" " + exec;
}

// Runs `command` in the background as a desktop does, waits for its window named by the regex
// `title`, checks the window is the package's binary's, then ends it with SIGTERM.
void PackageTest::expect_window_then_end(const std::string& command, const std::string& title) {
    const std::string pid_file = at("pid"), log = at("app.log");
    both("cd " + q(dir_.string()) + " && (" + command + " > " + q(log) + " 2>&1 & echo $! > " + q(pid_file) + ")");
    const int pid = std::stoi(test::slurp(pid_file));
    const test::Result found = both("timeout 60 xdotool search --sync --name " + q(title));
    EXPECT_EQ(found.status, 0) << "no window titled " << title << ":\n" << test::slurp(log);
    if (found.status == 0) {
        const std::string window = found.out.substr(0, found.out.find('\n'));
        EXPECT_EQ(test::capture("xdotool getwindowpid " + window).out, std::to_string(pid) + "\n");
        // The window belongs to the package's binary, not to one on the machine's PATH.
        EXPECT_EQ(fs::read_symlink("/proc/" + std::to_string(pid) + "/exe"), fs::canonical(bin()));
    }
    kill(pid, SIGTERM);
    bool ended = false;
    for (int i = 0; i < 200 && !ended; ++i) {
        ended = test::capture("kill -0 " + std::to_string(pid) + " 2>/dev/null").status != 0;
        if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    EXPECT_TRUE(ended) << "the app did not end on SIGTERM";
}

// The menu entry's right-click action for the lecture hall: the built-in lesson, presented.
TEST_F(PackageTest, TheDesktopActionPresentsTheBuiltInLesson) {
    if (!have("xdotool")) GTEST_SKIP() << "xdotool is missing (scripts/bootstrap.sh installs it)";
    const std::string command = desktop_command("", "Desktop Action present");
    EXPECT_NE(command.find("--lesson builtin --present"), std::string::npos) << command;
    expect_window_then_end(command, "^ropelab");
}

TEST_F(PackageTest, TheDesktopEntryOpensASessionFile) {
    if (!have("xdotool")) GTEST_SKIP() << "xdotool is missing (scripts/bootstrap.sh installs it)";
    const std::string session = at("lecture.ropelab");
    test::write_file(session, R"({"ropelab_session": 2, "model": {"rope_theta": 5000}, "layout": {"focused_view": 2}})" "\n");

    // Started as a file manager starts it: in the background, the file as its one argument; its
    // window titled by the file.
    expect_window_then_end(desktop_command(session), "^ropelab — lecture\\.ropelab$");

    // What that window opened: the same binary, the same positional file, its state dumped.
    test::write_file(at("script.json"), R"([{"wait": 2}, {"state": "state.json"}])");
    test::Result r = both("cd " + q(dir_.string()) + " && " + q(bin()) + " gui --paused --size 800x600 --script script.json " + q(session));
    ASSERT_EQ(r.status, 0) << r.out;
    const Json state = test::read_json(dir_ / "state.json");
    EXPECT_EQ(state["model"]["rope_theta"], 5000.0) << state.dump();
    EXPECT_EQ(state["layout"]["focused_view"], 2) << state.dump();

    // A lesson saved as plain .json is told apart by its content and opened as a lesson.
    test::write_file(at("talk.json"), R"({"title": "A talk", "scenes": [{"title": "Scene from a double-click", "caption": "Opened by content.", "views": [3]}]})");
    test::write_file(at("script.json"), R"([{"wait": 2}, {"widgets": "widgets.json"}])");
    r = both("cd " + q(dir_.string()) + " && " + q(bin()) + " gui --paused --size 1280x720 --script script.json talk.json");
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_NE(test::slurp(at("widgets.json")).find("Scene from a double-click"), std::string::npos);

    // A broken session: exit 2 before any window, naming the file and the field.
    const std::string broken = at("broken.ropelab");
    test::write_file(broken, R"({"ropelab_session": 2, "model": {"rope_theta": -1}})");
    r = both(desktop_command(broken));
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_NE(r.out.find(broken), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("rope_theta"), std::string::npos) << r.out;
    // Not JSON at all: refused the same way.
    test::write_file(at("notes.ropelesson"), "these are my notes");
    r = both(desktop_command(at("notes.ropelesson")));
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_NE(r.out.find(at("notes.ropelesson")), std::string::npos) << r.out;
}

TEST_F(PackageTest, SessionAndLessonFilesGetTheirMimeTypes) {
    if (!have("update-mime-database") || !have("xdg-mime")) GTEST_SKIP() << "shared-mime-info or xdg-utils is missing";
    // The package's MIME types in a scratch XDG_DATA_HOME, the system's beside them.
    const fs::path data = dir_ / "share";
    fs::create_directories(data / "mime/packages");
    fs::copy_file(root() / "usr/share/mime/packages/ropelab.xml", data / "mime/packages/ropelab.xml");
    ASSERT_EQ(both("XDG_DATA_HOME=" + q(data.string()) + " update-mime-database " + q((data / "mime").string())).status, 0);
    const std::string session = R"({"ropelab_session": 2, "model": {"rope_theta": 5000}})" "\n";
    test::write_file(at("lecture.ropelab"), session);
    test::write_file(at("talk.ropelesson"), R"({"title": "A talk", "scenes": []})");
    test::write_file(at("saved.json"), session);
    test::write_file(at("config.json"), R"({"model_type": "llama", "rope_theta": 500000.0})" "\n");
    const auto type_of = [&](const std::string& name) {
        const test::Result r = test::capture("XDG_DATA_HOME=" + q(data.string()) + " XDG_DATA_DIRS=/usr/share xdg-mime query filetype " + q(at(name)) + " 2>&1");
        return r.out.substr(0, r.out.find('\n'));
    };
    EXPECT_EQ(type_of("lecture.ropelab"), "application/x-ropelab-session");
    EXPECT_EQ(type_of("talk.ropelesson"), "application/x-ropelab-lesson");
    // A session saved as .json: the "ropelab_session" magic near its start, a subclass of JSON.
    if (have("gio")) {
        const test::Result r = test::capture("XDG_DATA_HOME=" + q(data.string()) + " XDG_DATA_DIRS=/usr/share gio info -a standard::content-type " + q(at("saved.json")) + " 2>&1");
        EXPECT_NE(r.out.find("application/x-ropelab-session"), std::string::npos) << r.out;
    }
    EXPECT_EQ(type_of("saved.json"), "application/x-ropelab-session");
    // Any other JSON stays JSON: the magic is the session's key, not JSON as such.
    EXPECT_EQ(type_of("config.json"), "application/json");
}

// What bash completes, from the installed completion file: `line` as typed, the cursor at its end.
std::string completions(const fs::path& dir, const std::string& line) {
    const std::string driver = R"(source /usr/share/bash-completion/bash_completion
source "$ROOT/usr/share/bash-completion/completions/ropelab"
export PATH="$ROOT/usr/bin:$PATH"
COMP_LINE=$1
COMP_POINT=${#COMP_LINE}
read -ra COMP_WORDS <<< "$COMP_LINE"
[[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
COMPREPLY=()
_ropelab ropelab "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
)";
    const fs::path script = dir.parent_path() / "complete.sh";  // beside the folder, not in its listing
    test::write_file(script.string(), driver);
    std::string out = test::capture("cd " + q(dir.string()) + " && ROOT=" + q(package().root.string()) + " bash " + q(script.string()) + " " + q(line) + " 2>&1").out;
    return out == " " ? "" : out;  // printf's one empty line when nothing completes
}

TEST_F(PackageTest, BashCompletesSubcommandsFlagsAndFiles) {
    if (!fs::exists("/usr/share/bash-completion/bash_completion")) GTEST_SKIP() << "bash-completion is missing";
    fs::create_directories(dir_ / "files");
    for (const char* name : {"lab.png", "talk.ropelesson", "lecture.ropelab"}) test::write_file((dir_ / "files" / name).string(), "");
    const fs::path files = dir_ / "files";
    EXPECT_EQ(completions(files, "ropelab sc"), "scores ");
    EXPECT_EQ(completions(files, "ropelab export-d"), "export-data ");
    // Flags come from the binary's own --help, per subcommand.
    EXPECT_EQ(completions(files, "ropelab scores --max-d"), "--max-distance ");
    EXPECT_EQ(completions(files, "ropelab render --tra"), "--transparent ");
    EXPECT_EQ(completions(files, "ropelab scores --tra"), "");
    EXPECT_EQ(completions(files, "ropelab --ver"), "--version ");
    // Files after the options that take one; session and lesson files where FILE opens one.
    EXPECT_EQ(completions(files, "ropelab render --out "), "lab.png lecture.ropelab talk.ropelesson ");
    EXPECT_EQ(completions(files, "ropelab gui "), "lecture.ropelab talk.ropelesson ");
    const std::string top = completions(files, "ropelab ");
    for (const char* word : {"gui ", "render ", "freqs ", "lecture.ropelab ", "talk.ropelesson "}) {
        EXPECT_NE(top.find(word), std::string::npos) << word << " in " << top;
    }
    EXPECT_EQ(top.find("lab.png"), std::string::npos) << top;
}

}  // namespace
}  // namespace ropelab
