#include "core/user_dirs.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "core/atomic_file.h"

namespace ropelab {

namespace fs = std::filesystem;

namespace {

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v && *v ? v : "";
}

// A small text file, or "" (missing, unreadable, or larger than any sane settings file).
// These are the lab's own settings (user-dirs.dirs, recent.json), not a user's input: not
// registered, so recent.json can be written again. Only a regular file is opened (a FIFO there
// would block the start).
std::string read_small_file(const std::string& path, std::size_t limit) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return {};
    std::ifstream in(path, std::ios::binary);
    if (!in) return {};
    std::string text;
    text.resize(limit + 1);
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    return text.size() > limit ? std::string() : text;
}

std::string absolute_text(const std::string& path) {
    std::error_code ec;
    const fs::path a = fs::absolute(path, ec);
    return (ec ? fs::path(path) : a).lexically_normal().string();
}

}  // namespace

std::string config_home() {
    if (std::string dir = env("XDG_CONFIG_HOME"); !dir.empty()) return dir;
    const std::string home = env("HOME");
    return home.empty() ? "" : (fs::path(home) / ".config").string();
}

std::string user_dirs_value(std::string_view text, std::string_view key, std::string_view home) {
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(at, end - at);
        at = end + 1;
        if (!line.starts_with(key) || line.size() <= key.size() || line[key.size()] != '=') continue;
        std::string_view value = line.substr(key.size() + 1);
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
        if (value.starts_with("$HOME")) return std::string(home) + std::string(value.substr(5));
        if (!value.starts_with('/')) return {};  // the spec allows only $HOME/… or an absolute path
        return std::string(value);
    }
    return {};
}

std::string user_folder(UserFolder folder) {
    const bool documents = folder == UserFolder::Documents;
    const char* key = documents ? "XDG_DOCUMENTS_DIR" : "XDG_PICTURES_DIR";
    if (std::string dir = env(key); !dir.empty()) return dir;
    const std::string home = env("HOME");
    if (const std::string config = config_home(); !config.empty()) {
        const std::string text = read_small_file((fs::path(config) / "user-dirs.dirs").string(), 1 << 16);
        // A desktop that set the folder to $HOME itself means "no such folder": ours then.
        if (std::string dir = user_dirs_value(text, key, home); !dir.empty() && fs::path(dir) != fs::path(home)) return dir;
    }
    if (home.empty()) return {};
    return (fs::path(home) / (documents ? "Documents" : "Pictures")).string();
}

std::string ropelab_folder(UserFolder folder) {
    const std::string base = user_folder(folder);
    return base.empty() ? "" : (fs::path(base) / "ropelab").string();
}

std::string default_save_path(UserFolder folder, std::string_view name) {
    const std::string dir = ropelab_folder(folder);
    return dir.empty() ? std::string(name) : (fs::path(dir) / name).string();
}

void make_default_folder_for(const std::string& path) {
    const fs::path parent = fs::path(path).parent_path().lexically_normal();
    for (UserFolder f : {UserFolder::Documents, UserFolder::Pictures}) {
        const std::string dir = ropelab_folder(f);
        if (dir.empty() || parent != fs::path(dir).lexically_normal()) continue;
        std::error_code ec;
        fs::create_directories(parent, ec);  // a failure shows as the save's own refusal
        return;
    }
}

std::string free_file_name(const std::string& path) {
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(path, ec))) return path;
    const fs::path p(path);
    const std::string stem = p.stem().string(), ext = p.extension().string();
    for (int n = 2;; ++n) {
        const fs::path candidate = p.parent_path() / (stem + "-" + std::to_string(n) + ext);
        if (!fs::exists(fs::symlink_status(candidate, ec))) return candidate.string();
    }
}

std::string RecentFiles::to_json(const std::vector<std::string>& files) {
    return nlohmann::json{{"recent", files}}.dump(2) + "\n";
}

std::vector<std::string> RecentFiles::from_json(std::string_view text) {
    std::vector<std::string> files;
    const nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (!j.is_object() || !j.contains("recent") || !j["recent"].is_array()) return files;
    for (const nlohmann::json& item : j["recent"]) {
        if (files.size() == kKeep) break;
        if (!item.is_string()) continue;
        const std::string& path = item.get_ref<const std::string&>();
        // Only absolute paths of sane length, without NULs or line breaks, each once.
        if (path.empty() || path.front() != '/' || path.size() > 4096 || path.find_first_of(std::string_view("\0\n\r", 3)) != std::string::npos) continue;
        if (std::find(files.begin(), files.end(), path) == files.end()) files.push_back(path);
    }
    return files;
}

void RecentFiles::keep_in(const std::string& file) {
    file_ = file;
    files_ = file.empty() ? std::vector<std::string>{} : from_json(read_small_file(file, 1 << 20));
}

bool RecentFiles::add(const std::string& path, std::string* error) {
    const std::string full = absolute_text(path);
    if (!added_this_run(full)) this_run_.push_back(full);
    files_.erase(std::remove(files_.begin(), files_.end(), full), files_.end());
    files_.insert(files_.begin(), full);
    if (files_.size() > kKeep) files_.resize(kKeep);
    if (file_.empty()) return true;
    std::error_code ec;
    fs::create_directories(fs::path(file_).parent_path(), ec);  // ropelab/ in the config folder is ours
    std::string why;
    const bool saved = write_file_atomically(file_, to_json(files_), why);
    if (!saved && error) *error = why;
    return saved;
}

bool RecentFiles::added_this_run(const std::string& path) const {
    return std::find(this_run_.begin(), this_run_.end(), absolute_text(path)) != this_run_.end();
}

std::string recent_files_path() {
    const std::string config = config_home();
    return config.empty() ? "" : (fs::path(config) / "ropelab" / "recent.json").string();
}

}  // namespace ropelab
