#pragma once
// What the lesson reader (lesson.cpp) and writer (lesson_writer.cpp) share besides the schema
// (lesson_schema.h: every key and limit): how compare mode's settings travel in a scene's `set`.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "state/schema.h"

namespace ropelab::lesson_format {

// `set.compare`'s text: one SPEC per line.
std::vector<std::string> compare_specs(const std::string& text);
bool is_number_field(const schema::Field& f);

}  // namespace ropelab::lesson_format
