#include "platform.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__APPLE__)
#include <mach-o/dyld.h>
#include <mach/mach.h>
#endif

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>

extern char** environ;

namespace ropelab::platform {

// The only calls that differ between Linux and macOS: where this program is, and its memory.
#if defined(__APPLE__)
std::string this_executable() {
    char path[4096];
    std::uint32_t size = sizeof path;
    return _NSGetExecutablePath(path, &size) == 0 ? std::string(path) : std::string("ropelab");
}

long resident_kib() {
    mach_task_basic_info_data_t info{};
    mach_msg_type_number_t count = MACH_TASK_BASIC_INFO_COUNT;
    if (task_info(mach_task_self(), MACH_TASK_BASIC_INFO, reinterpret_cast<task_info_t>(&info), &count) != KERN_SUCCESS) {
        return 0;
    }
    return static_cast<long>(info.resident_size / 1024);
}
#else
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
#endif

// Defined by the sanitizer runtimes; null (weak) in ordinary builds.
extern "C" std::size_t __sanitizer_get_current_allocated_bytes() __attribute__((weak));

long live_heap_kib() {
    return __sanitizer_get_current_allocated_bytes ? static_cast<long>(__sanitizer_get_current_allocated_bytes() / 1024) : -1;
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
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);  // its refusals, to show why
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
