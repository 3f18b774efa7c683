#pragma once
// Tier `binary`: runs build/ropelab (ROPELAB_BINARY, set by tests/CMakeLists.txt) with arguments
// and optional environment assignments through the shell, capturing stdout, stderr and the exit
// status; and any shell command's stdout.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "files.h"

namespace ropelab::test {

struct Result {
    int status = -1;
    std::string out;
    std::string err;
};

// Runs `command` through the shell: its stdout and exit status (-1 if it did not exit).
inline Result capture(const std::string& command) {
    Result r;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return r;
    char buffer[65536];
    std::size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) r.out.append(buffer, n);
    const int raw = pclose(pipe);
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return r;
}

// The shell's `ulimit -v KiB; ` where the ctest entry sets ROPELAB_TEST_ULIMIT_V (KiB of address
// space): a suite run once more with every binary it starts under that limit (issue 34).
inline std::string memory_limit_prefix() {
    const char* limit = std::getenv("ROPELAB_TEST_ULIMIT_V");
    if (!limit || !*limit) return "";
    for (const char* c = limit; *c; ++c) {
        if (*c < '0' || *c > '9') return "";
    }
    return "ulimit -v " + std::string(limit) + "; ";
}

#ifdef ROPELAB_BINARY
// Every run's user folders in the build tree (the recent files, default saves): never the real
// ~/.config or ~/Documents. A test's own `environment` may set them again.
inline std::string scratch_user_dirs() {
    const std::string home = (std::filesystem::path(ROPELAB_BINARY).parent_path() / "test-user-dirs").string();
    return "export XDG_CONFIG_HOME='" + home + "/config' XDG_DOCUMENTS_DIR='" + home + "/documents' XDG_PICTURES_DIR='" + home +
           "/pictures'; ";
}

inline Result run(const std::string& args, const std::string& environment = "") {
    // ctest runs tests in parallel processes: one stderr file per process.
    const std::string err_path = temp_path("cli_stderr").string() + ".txt";
    Result r = capture(memory_limit_prefix() + scratch_user_dirs() + environment + " " + std::string(ROPELAB_BINARY) + " " + args + " 2>" + err_path);
    r.err = slurp(err_path);
    std::remove(err_path.c_str());
    return r;
}

// `ropelab freqs --format json ARGS`, parsed (a failed run is a test failure and a discarded value).
inline nlohmann::json freqs_json(const std::string& args) {
    const Result r = run("freqs --format json " + args);
    EXPECT_EQ(r.status, 0) << r.err;
    return nlohmann::json::parse(r.out, nullptr, false);
}
#endif

}  // namespace ropelab::test
