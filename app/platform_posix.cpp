#include "platform.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

extern char** environ;

namespace ropelab::platform {

std::string this_executable() {
    std::error_code ec;
    const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("ropelab") : path.string();
}

long resident_kib() {
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) return 0;
    long pages_total = 0, pages_resident = 0;
    const int n = std::fscanf(f, "%ld %ld", &pages_total, &pages_resident);
    std::fclose(f);
    return n == 2 ? pages_resident * (sysconf(_SC_PAGESIZE) / 1024) : 0;
}

bool ChildProcess::start(const std::string& program, const std::vector<std::string>& args, std::string& error) {
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) {
        error = std::string("cannot create a pipe: ") + std::strerror(errno);
        return false;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(program.c_str()));
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const int rc = posix_spawn(&pid_, program.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(pipe_fds[1]);
    if (rc != 0) {
        close(pipe_fds[0]);
        pid_ = -1;
        error = std::string("cannot start ") + program + ": " + std::strerror(rc);
        return false;
    }
    out_ = pipe_fds[0];
    fcntl(out_, F_SETFL, fcntl(out_, F_GETFL) | O_NONBLOCK);
    return true;
}

ChildProcess::~ChildProcess() {
    if (pid_ > 0) {
        terminate();
        int status = 0;
        waitpid(pid_, &status, 0);
    }
    if (out_ >= 0) close(out_);
}

std::vector<std::string> ChildProcess::read_lines() {
    std::vector<std::string> lines;
    if (out_ < 0) return lines;
    char buffer[4096];
    ssize_t n;
    while ((n = read(out_, buffer, sizeof buffer)) > 0) partial_line_.append(buffer, static_cast<std::size_t>(n));
    std::size_t newline;
    while ((newline = partial_line_.find('\n')) != std::string::npos) {
        lines.push_back(partial_line_.substr(0, newline));
        partial_line_.erase(0, newline + 1);
    }
    return lines;
}

bool ChildProcess::finished(int& status) {
    if (pid_ <= 0) return true;
    int raw = 0;
    if (waitpid(pid_, &raw, WNOHANG) != pid_) return false;
    status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    pid_ = -1;
    return true;
}

void ChildProcess::terminate() {
    if (pid_ > 0) kill(pid_, SIGTERM);
}

}  // namespace ropelab::platform
