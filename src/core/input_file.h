#pragma once
// Reading the files users hand the lab (configs, sessions, lessons, scripts, vectors, q/k arrays,
// dropped files), and the one registry of them. Each is read whole, at once, by the one function
// below, which refuses what cannot be such a file (a folder, a device, a pipe that never ends, a
// huge file) with errors that name the file, and registers it by device and inode the moment it
// is open. Every write checks that registry when it commits (core/atomic_file.h), so no output
// can replace an input, whatever the kind of input, the order of the options or the name used
// (a link, a hard link, "./c.json").
#include <cstdint>
#include <optional>
#include <string>

namespace ropelab {

// Far above any real config, session or lesson (a few kB); a guard against /dev/zero and
// multi-gigabyte files dropped on the window by mistake.
inline constexpr std::uintmax_t kMaxInputFileBytes = 64ull << 20;

// The file's contents. Throws InputError "PATH: cannot open WHAT file (reason)" and the like.
// The file is registered as one this run read (below) as soon as it is open, even when reading
// it then fails: the user named it as an input.
std::string read_input_file(const std::string& path, const std::string& what);

// Registers a file the user named as an input which this run may never read (a --q-file while
// the token vectors are not read from files): it is theirs all the same, and no output of the
// run replaces it. Nothing happens when no regular file is there.
void register_named_input(const std::string& path, const std::string& what);

// Registers an input this run opened itself (a model file it maps rather than reads whole), from
// its open descriptor, so the file protected is the file opened.
void register_open_input(int fd, const std::string& path, const std::string& what);

// A file this run read: the name it was read by and what it was read as ("config", "session",
// "lesson", "script", "vector", "vector array", …). A later read of the same file under a more
// precise kind (a dropped file, first read to tell what it is) updates `what`.
struct ReadInput {
    std::string path, what;
};

// The input `target` is (through any name, link or hard link), if it is one.
std::optional<ReadInput> input_at(const std::string& target);

// "the config file c.json this run read" when `target` is a file this run has read, else "".
std::string read_by_this_run(const std::string& target);

}  // namespace ropelab
