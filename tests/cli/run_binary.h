#pragma once
// Runs build/ropelab with arguments (and optional environment assignments) through the shell,
// capturing stdout, stderr and the exit status.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace ropelab::test {

struct Result {
    int status = -1;
    std::string out;
    std::string err;
};

inline std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

inline Result run(const std::string& args, const std::string& environment = "") {
    // ctest runs tests in parallel processes: one stderr file per process.
    const std::string err_path =
        ::testing::TempDir() + "/ropelab_cli_stderr_" + std::to_string(getpid()) + ".txt";
    const std::string command =
        environment + " " + std::string(ROPELAB_BINARY) + " " + args + " 2>" + err_path;
    Result r;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return r;
    char buffer[65536];
    std::size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) r.out.append(buffer, n);
    const int raw = pclose(pipe);
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.err = slurp(err_path);
    std::remove(err_path.c_str());
    return r;
}

}  // namespace ropelab::test
