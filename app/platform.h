#pragma once
// The one file of operating-system calls (POSIX): a child process whose output is read without
// blocking and which can be asked to stop, and the path of this program.
#include <string>
#include <vector>

namespace ropelab::platform {

std::string this_executable();

// Resident memory of this process in KiB (0 where unknown).
long resident_kib();
// Bytes the program holds allocated right now, in KiB, where the allocator can say (builds with
// AddressSanitizer); −1 elsewhere. Unlike resident memory it ignores allocator caches,
// fragmentation and the sanitizer's quarantine: a leak shows here first.
long live_heap_kib();

class ChildProcess {
public:
    // Starts `program args…` with stdout and stderr piped back, as lines; false (and `error`) if
    // it cannot start.
    bool start(const std::string& program, const std::vector<std::string>& args, std::string& error);
    ~ChildProcess();

    // Whatever lines (stdout and stderr) arrived since the last call (never blocks).
    std::vector<std::string> read_lines();
    // True once the child has exited; `status` is its exit status (or 128 + signal).
    bool finished(int& status);
    // Asks the child to stop (SIGTERM): it cleans up and exits.
    void terminate();
    bool running() const { return pid_ > 0; }

private:
    int pid_ = -1, out_ = -1;
    std::string partial_line_;
};

}  // namespace ropelab::platform
