#include "core/input_file.h"

#include <sys/stat.h>

#include <filesystem>
#include <mutex>
#include <vector>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/error.h"

namespace ropelab {

namespace {

// Every file read so far, by device and inode (the same file under any name).
struct ReadFile {
    dev_t device;
    ino_t inode;
    std::string path, what;
};
std::mutex g_read_mutex;
std::vector<ReadFile> g_read_files;

void remember_read(const std::string& path, const std::string& what) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) return;
    const std::lock_guard lock(g_read_mutex);
    for (const ReadFile& f : g_read_files) {
        if (f.device == st.st_dev && f.inode == st.st_ino) return;
    }
    g_read_files.push_back({st.st_dev, st.st_ino, path, what});
}

}  // namespace

std::string read_by_this_run(const std::string& target) {
    struct stat st {};
    if (stat(target.c_str(), &st) != 0) return "";
    const std::lock_guard lock(g_read_mutex);
    for (const ReadFile& f : g_read_files) {
        if (f.device == st.st_dev && f.inode == st.st_ino) return fmt::format("the {} file {} this run read", f.what, f.path);
    }
    return "";
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
    const std::uintmax_t size = fs::file_size(path, ec);
    if (!ec && size > kMaxInputFileBytes) {
        throw InputError(fmt::format("{}: {} bytes is too large for a {} file (the limit is {} MiB)", path, size, what,
                                     kMaxInputFileBytes >> 20));
    }
    std::ifstream file(path, std::ios::binary);
    if (!file) throw InputError(fmt::format("{}: cannot open {} file (permission denied, or it just vanished)", path, what));
    std::stringstream buffer;
    buffer << file.rdbuf();
    if (file.bad()) throw InputError(fmt::format("{}: read error", path));
    remember_read(path, what);
    return buffer.str();
}

}  // namespace ropelab
