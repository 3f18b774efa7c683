#pragma once
// What the lesson reader (lesson.cpp) and writer (lesson_writer.cpp) share: the file's limits,
// the easing names, and how compare mode's settings travel in a scene's `set`.
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "state/schema.h"

namespace ropelab::lesson_format {

// Bounds on a lesson, so that checking it stays quick (a lesson is read before a window opens):
// far beyond the built-in lesson's scenes and keyframes.
inline constexpr std::size_t kMaxScenes = 256, kMaxKeyframes = 32, kMaxAnnotations = 32;
// A scene's texts, in characters (UTF-8 code points, core/utf8.h): the loader refuses more, and
// the Lesson panel's fields hold as many, so that a lesson saved onto itself keeps every text
// whole. A title is one line; a caption a paragraph the room reads; notes a page read aloud.
inline constexpr std::size_t kMaxTitleChars = 512, kMaxCaptionChars = 8192, kMaxNotesChars = 8192;
// The names of Easing's values, in its order.
inline constexpr std::array<std::string_view, 4> kEasingNames = {"linear", "ease-in", "ease-out", "ease-in-out"};

// `set.compare`'s text: one SPEC per line.
std::vector<std::string> compare_specs(const std::string& text);
bool is_number_field(const schema::Field& f);

}  // namespace ropelab::lesson_format
