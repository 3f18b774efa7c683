#pragma once
// A library lesson's scene, exported as the lab would show it: the scene's `set` turned into the
// binary's flags (each lesson name's flag read from `ropelab fields`, so a renamed flag cannot
// drift from the lesson names), then `ropelab export-data` for one view. The lesson tests read the
// caption's claims off these exports. Also the checks every library lesson owes the room: 8–15
// scenes, notes on each, and captions that do not instruct the lecturer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/files.h"
#include "support/run_binary.h"

namespace ropelab::test {

using LessonJson = nlohmann::json;

inline LessonJson library_lesson(const std::string& name) {
    return LessonJson::parse(slurp(std::string(ROPELAB_SOURCE_DIR) + "/assets/lessons/" + name + ".json"));
}

// The scene with this title (titles are the scenes' stable names; numbers move as a lesson grows).
inline const LessonJson& scene_titled(const LessonJson& lesson, const std::string& title) {
    for (const LessonJson& s : lesson["scenes"]) {
        if (s["title"] == title) return s;
    }
    throw std::runtime_error("no scene titled \"" + title + "\"");
}

// "lesson name" → "--flag", from the fields table's columns (path, flag, lesson, range).
inline std::map<std::string, std::string> lesson_flags() {
    const Result r = run("fields");
    EXPECT_EQ(r.status, 0) << r.err;
    std::map<std::string, std::string> flags;
    std::istringstream lines(r.out);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::string path, flag, lesson;
        words >> path >> flag >> lesson;
        if (flag.starts_with("--") && lesson != "-") flags[lesson] = flag;
    }
    return flags;
}

inline std::string quoted(const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// The scene's settings as the binary's flags.
inline std::string flags_of(const LessonJson& set) {
    static const std::map<std::string, std::string> flags = lesson_flags();
    std::string out;
    for (const auto& [name, value] : set.items()) {
        if (name == "compare") {
            for (const LessonJson& spec : value) out += " --compare " + quoted(spec.get<std::string>());
            continue;
        }
        const auto it = flags.find(name);
        const std::string flag = name == "preset" || name == "comparison" ? "--" + name : it == flags.end() ? "" : it->second;
        EXPECT_FALSE(flag.empty()) << name << " has no flag";
        if (value.is_boolean()) out += " " + flag + (value.get<bool>() ? "=true" : "=false");
        else if (value.is_string()) out += " " + flag + " " + quoted(value.get<std::string>());
        else out += " " + flag + " " + value.dump();
    }
    return out;
}

// A CSV export: its header, its rows as numbers ("null", and the empty cells of a compared setting
// with fewer rows, as NaN) and its "# key: value" lines.
struct Csv {
    std::string header;
    std::vector<std::vector<double>> rows;
    std::map<std::string, std::string> meta;
};

inline Csv read_csv(const std::string& path) {
    std::ifstream in(path);
    Csv csv;
    std::string line;
    while (std::getline(in, line)) {
        if (line.starts_with("#")) {
            if (const auto colon = line.find(": "); line.starts_with("# ") && colon != std::string::npos) {
                csv.meta[line.substr(2, colon - 2)] = line.substr(colon + 2);
            }
            continue;
        }
        if (csv.header.empty()) {
            csv.header = line;
            continue;
        }
        std::vector<double> row;
        std::istringstream fields(line);
        std::string field;
        while (std::getline(fields, field, ',')) row.push_back(field.empty() || field == "null" ? NAN : std::stod(field));
        csv.rows.push_back(row);
    }
    return csv;
}

// The column of that name, top to bottom (a failed test and nothing when there is none).
inline std::vector<double> column(const Csv& csv, const std::string& name) {
    std::vector<std::string> names;
    std::istringstream header(csv.header);
    for (std::string n; std::getline(header, n, ',');) names.push_back(n);
    const auto it = std::find(names.begin(), names.end(), name);
    EXPECT_NE(it, names.end()) << name << " not in " << csv.header;
    if (it == names.end()) return {};
    const auto at = static_cast<std::size_t>(it - names.begin());
    std::vector<double> out;
    for (const auto& row : csv.rows) out.push_back(at < row.size() ? row[at] : NAN);
    return out;
}

// export-data --view VIEW for the scene's settings (plus `extra` flags), read back.
inline Csv export_scene(const LessonJson& scene, const std::string& view, const std::string& extra = "") {
    static int count = 0;
    const std::string out = temp_path("lesson_scene_" + std::to_string(++count)).string() + ".csv";
    const Result r = run("export-data --view " + view + flags_of(scene.value("set", LessonJson::object())) + " " + extra + " --out " + out);
    EXPECT_EQ(r.status, 0) << r.err;
    Csv csv = read_csv(out);
    std::remove(out.c_str());
    return csv;
}

// Any export of explicit flags, read back (a model's other layers, which a scene cannot pick).
inline Csv export_flags(const std::string& flags) {
    static int count = 0;
    const std::string out = temp_path("lesson_flags_" + std::to_string(++count)).string() + ".csv";
    const Result r = run("export-data " + flags + " --out " + out);
    EXPECT_EQ(r.status, 0) << r.err;
    Csv csv = read_csv(out);
    std::remove(out.c_str());
    return csv;
}

inline void expect_claims(const LessonJson& scene, std::initializer_list<const char*> claims) {
    const std::string caption = scene["caption"];
    for (const char* claim : claims) EXPECT_NE(caption.find(claim), std::string::npos) << "\"" << claim << "\" in " << caption;
}

inline std::string lower(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

// What every library lesson owes the room: 8–15 scenes, each with a title, a caption and notes;
// no caption tells the lecturer which key to press or what to drag (that is the notes' job).
inline void expect_library_lesson(const LessonJson& lesson) {
    ASSERT_TRUE(lesson.contains("scenes"));
    const auto& scenes = lesson["scenes"];
    EXPECT_GE(scenes.size(), 8u);
    EXPECT_LE(scenes.size(), 15u);
    for (const LessonJson& s : scenes) {
        const std::string title = s.value("title", "");
        EXPECT_FALSE(title.empty());
        EXPECT_FALSE(s.value("caption", "").empty()) << title;
        EXPECT_FALSE(s.value("notes", "").empty()) << title << " has no notes";
        const std::string caption = " " + lower(s.value("caption", "")) + " ";
        for (const char* word : {" press", " drag", " hover", " click", " slider", "ctrl+"}) {
            EXPECT_EQ(caption.find(word), std::string::npos) << title << "'s caption instructs: \"" << word << "\"";
        }
        EXPECT_TRUE(s.contains("set")) << title << " plays whatever the lab holds";
    }
}

}  // namespace ropelab::test
