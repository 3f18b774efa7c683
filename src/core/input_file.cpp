#include "core/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"

namespace ropelab {

namespace {

// Every file read so far, held open: a descriptor keeps the file's inode alive, so a file deleted
// after it was read cannot hand its inode number to a new file that would then pass for it.
// (Without a descriptor to spare, the device and inode alone are kept.)
struct Registered {
    int fd;
    dev_t device;
    ino_t inode;
    ReadInput input;

    // Whether `st` is this file, still reachable under some name.
    bool is(const struct stat& st) const {
        struct stat now {};
        if (fd >= 0 && (fstat(fd, &now) != 0 || now.st_nlink == 0)) return false;
        return device == st.st_dev && inode == st.st_ino;
    }
};
std::mutex g_registry_mutex;
std::vector<Registered> g_registry;

// Registers the file open as `fd` (not taken over: a duplicate is kept).
void register_input(int fd, const struct stat& st, const std::string& path, const std::string& what) {
    const std::lock_guard lock(g_registry_mutex);
    for (Registered& r : g_registry) {
        if (r.is(st)) {
            r.input = {path, what};
            return;
        }
    }
    g_registry.push_back({fcntl(fd, F_DUPFD_CLOEXEC, 0), st.st_dev, st.st_ino, {path, what}});
}

// Closes the descriptor however the read ends.
struct Descriptor {
    int fd;
    ~Descriptor() {
        if (fd >= 0) close(fd);
    }
};

}  // namespace

void register_named_input(const std::string& path, const std::string& what) {
    if (path.empty()) return;
    const Descriptor file{open(path.c_str(), O_PATH | O_CLOEXEC)};
    struct stat st {};
    if (file.fd < 0 || fstat(file.fd, &st) != 0 || !S_ISREG(st.st_mode)) return;
    register_input(file.fd, st, path, what);
}

void register_open_input(int fd, const std::string& path, const std::string& what) {
    struct stat st {};
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) register_input(fd, st, path, what);
}

std::optional<ReadInput> input_at(const std::string& target) {
    struct stat st {};
    if (stat(target.c_str(), &st) != 0) return std::nullopt;
    const std::lock_guard lock(g_registry_mutex);
    for (const Registered& r : g_registry) {
        if (r.is(st)) return r.input;
    }
    return std::nullopt;
}

std::string read_by_this_run(const std::string& target) {
    const std::optional<ReadInput> input = input_at(target);
    return input ? fmt::format("the {} file {} this run read", input->what, input->path) : "";
}

std::string read_input_file(const std::string& path, const std::string& what) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) throw InputError(fmt::format("{}: cannot open {} file (it does not exist)", path, what));
    if (!fs::is_regular_file(status)) {
        throw InputError(fmt::format("{}: not a {} file ({})", path, what,
                                     fs::is_directory(status) ? "it is a folder" : "not a regular file"));
    }
    // O_NONBLOCK: a FIFO swapped in after the check above must not hang the open.
    const Descriptor file{open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
    if (file.fd < 0) {
        throw InputError(fmt::format("{}: cannot open {} file ({})", path, what,
                                     errno == EACCES ? "permission denied" : std::strerror(errno)));
    }
    struct stat st {};
    if (fstat(file.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        throw InputError(fmt::format("{}: not a {} file (not a regular file)", path, what));
    }
    // Registered from the open descriptor: the file read is the file protected.
    register_input(file.fd, st, path, what);
    if (static_cast<std::uintmax_t>(st.st_size) > kMaxInputFileBytes) {
        throw InputError(fmt::format("{}: {} bytes is too large for a {} file (the limit is {} MiB)", path,
                                     static_cast<std::uintmax_t>(st.st_size), what, kMaxInputFileBytes >> 20));
    }
    std::string bytes;
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = read(file.fd, buffer, sizeof buffer);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR) continue;
            throw InputError(fmt::format("{}: read error ({})", path, std::strerror(errno)));
        }
        // A file growing while it is read still stops at the limit.
        if (bytes.size() + static_cast<std::size_t>(n) > kMaxInputFileBytes) {
            throw InputError(fmt::format("{}: grew past the {} MiB limit for a {} file while it was read", path,
                                         kMaxInputFileBytes >> 20, what));
        }
        bytes.append(buffer, static_cast<std::size_t>(n));
    }
    return bytes;
}

}  // namespace ropelab
