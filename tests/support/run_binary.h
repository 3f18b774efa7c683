#pragma once
// Tier `binary`: runs build/ropelab (ROPELAB_BINARY, set by tests/CMakeLists.txt) with arguments
// and optional environment assignments through the shell, capturing stdout, stderr and the exit
// status; any shell command's stdout; and an export stopped by a signal part-way through.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
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

// Runs `command` (an export, given --progress) and sends `sig` once it has written three frames
// (its --progress lines on stdout say so); its wait status, and in `seconds` the time from the
// signal to its end.
inline int signal_after_frames(const std::string& command, int sig, double& seconds) {
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) return -1;
    const pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        dup2(pipe_fds[1], 1);
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        execl("/bin/sh", "sh", "-c", ("exec " + command + " --progress 2>/dev/null").c_str(), nullptr);
        _exit(127);
    }
    close(pipe_fds[1]);
    FILE* progress = fdopen(pipe_fds[0], "r");
    char line[256];
    int done = 0;
    while (done < 3 && std::fgets(line, sizeof line, progress)) std::sscanf(line, "progress %d", &done);
    const auto sent = std::chrono::steady_clock::now();
    kill(pid, sig);
    // Read to the end: a full pipe must not stall the run's clean-up, nor a closed one end it.
    while (std::fgets(line, sizeof line, progress)) {
    }
    std::fclose(progress);
    int status = 0;
    waitpid(pid, &status, 0);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
    usleep(200 * 1000);  // a killed run's ffmpeg notices its closed input
    return status;
}

}  // namespace ropelab::test
