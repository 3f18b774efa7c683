#pragma once
// The lesson library: the lessons built into the binary (assets/lessons/, embedded at build time),
// one row each. `ropelab lessons`, `--lesson NAME` and the Lessons menu all read this one table,
// so adding a lesson is one JSON file and one row in library.cpp.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ropelab {

struct LibraryLesson {
    std::string_view name;     // --lesson NAME, the file's base name without .json
    std::string_view summary;  // one line: what the lesson teaches
    std::string title;         // the lesson file's own title
    int scenes = 0;            // read from the file
    std::string_view json;     // the embedded file
};

// The library's lessons in the table's order (the first is "builtin"'s); a row whose file is
// not in this build is left out.
const std::vector<LibraryLesson>& lesson_library();

// "builtin" is another name for the first lesson, "RoPE from first principles".
inline constexpr std::string_view kBuiltinAlias = "builtin";

// The library lesson NAME (or the alias) names; nullptr if none.
const LibraryLesson* find_library_lesson(std::string_view name);

// Whether --lesson's text names a file rather than a library lesson: it holds a '/' or ends in
// .json or .ropelesson, or it is no library lesson's name and a file of that name exists. A
// library name wins over a file of the same name in the working directory (open that as ./NAME).
bool names_lesson_file(std::string_view text);

// "rope-from-first-principles (or builtin), context-extension, …" for messages and help.
std::string library_names_text();

}  // namespace ropelab
