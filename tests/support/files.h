#pragma once
// Files and folders for tests of every tier (no GL, no binary): reading a file whole, a fresh
// folder of this process's own under gtest's temporary directory, and a fixture that makes one
// for each test and removes it after.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace ropelab::test {

// The whole file, or "" if it cannot be read.
inline std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The file parsed as JSON; a discarded value if it is missing or malformed.
inline nlohmann::json read_json(const std::filesystem::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in, nullptr, false);
}

#ifdef ROPELAB_SOURCE_DIR
// A config of the corpus in tests/data/configs, by name without ".json".
inline std::string corpus(const std::string& name) { return std::string(ROPELAB_SOURCE_DIR) + "/tests/data/configs/" + name + ".json"; }

// Every lesson file in assets/lessons (the library's sources), sorted by name.
inline std::vector<std::filesystem::path> lesson_files() {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(ROPELAB_SOURCE_DIR) / "assets/lessons")) {
        if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}
#endif

inline void write_file(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// TempDir()/ropelab_<name>_<pid>: ctest runs tests in parallel processes, one path per process.
inline std::filesystem::path temp_path(const std::string& name) {
    return std::filesystem::path(::testing::TempDir()) / ("ropelab_" + name + "_" + std::to_string(getpid()));
}

// temp_path(name), emptied and created.
inline std::filesystem::path fresh_dir(const std::string& name) {
    const std::filesystem::path dir = temp_path(name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

// A fresh folder for each test (dir_), removed after it.
class TempDirTest : public ::testing::Test {
protected:
    explicit TempDirTest(std::string name) : name_(std::move(name)) {}
    void SetUp() override { dir_ = fresh_dir(name_); }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::string at(const std::string& name) const { return (dir_ / name).string(); }

    std::filesystem::path dir_;

private:
    std::string name_;
};

}  // namespace ropelab::test
