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
        std::filesystem::remove_all(partial, ec);
        error = "cannot write " + path + ": " + ec.message();
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

bool write_text_file(const std::string& path, const std::string& text, std::string& error) {
    const std::string partial = partial_path(path);
    {
        std::ofstream out(partial, std::ios::binary);
        out << text;
        out.flush();
        if (!out) {
            out.close();
            std::remove(partial.c_str());
            error = "cannot write " + path + (folder_problem(path).empty() ? " (disk full?)" : ": " + folder_problem(path));
            return false;
        }
    }
    return commit_partial(partial, path, error);
}

}  // namespace ropelab
