#include "core/atomic_file.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace ropelab {

std::string partial_path(const std::string& path) {
    // Keep the temporary inside the target's folder so the final rename never crosses devices.
    std::string trimmed = path;
    while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
    return trimmed + ".partial";
}

bool commit_partial(const std::string& partial, const std::string& path, std::string& error) {
    std::string target = path;
    while (target.size() > 1 && target.back() == '/') target.pop_back();
    std::error_code ec;
    if (std::filesystem::is_directory(target, ec)) std::filesystem::remove_all(target, ec);
    std::filesystem::rename(partial, target, ec);
    if (ec) {
        // The folder may have vanished while the file was written: say so rather than errno's words.
        const std::string problem = folder_problem(target);
        error = "cannot write " + path + ": " + (problem.empty() ? ec.message() : problem);
        std::filesystem::remove_all(partial, ec);
        return false;
    }
    return true;
}

std::string folder_problem(const std::string& path) {
    std::string trimmed = path;
    while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
    std::filesystem::path folder = std::filesystem::path(trimmed).parent_path();
    if (folder.empty()) folder = ".";
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec)) return "folder " + folder.string() + " does not exist";
    if (access(folder.c_str(), W_OK) != 0) return "folder " + folder.string() + " is not writable";
    return "";
}

bool write_file_atomically(const std::string& path, std::string_view bytes, std::string& error) {
    const std::string partial = partial_path(path);
    std::ofstream out(partial, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
        std::remove(partial.c_str());
        const std::string problem = folder_problem(path);
        error = "cannot write " + path + (problem.empty() ? " (disk full?)" : ": " + problem);
        return false;
    }
    return commit_partial(partial, path, error);
}

}  // namespace ropelab
