#include "lesson/lesson_schema.h"

#include <fmt/format.h>

#include "core/utf8.h"

namespace ropelab::lesson_schema {

namespace {

constexpr const Field* kRows[] = {
    &lesson::title,      &lesson::theme,    &lesson::scenes,   &scene::title,        &scene::caption,  &scene::notes,
    &scene::duration,    &scene::views,     &scene::workspace, &scene::hide,         &scene::set,      &scene::keyframes,
    &scene::annotations, &keyframe::param,  &keyframe::from,      &keyframe::to,    &keyframe::start,
    &keyframe::duration, &keyframe::easing, &keyframe::log,       &annotation::text, &annotation::view,
    &annotation::at,     &annotation::x,    &annotation::y,
};

}  // namespace

std::span<const Field* const> fields() { return kRows; }

Range coordinate_range(std::string_view at, const Field& axis) {
    constexpr double kLastPair = kMaxHeadDim / 2 - 1;
    if (at == "label") return {0.0, 1.0, false};
    if (at == "distance") return {0.0, static_cast<double>(kMaxDistances - 1), false};
    if (at == "pair" || (at == "cell" && &axis == &annotation::x)) return {0.0, kLastPair, true};
    return {0.0, static_cast<double>(kMaxPosition), true};  // a cell's y: a position
}

std::size_t characters(std::string_view text) { return utf8_characters(text); }

std::size_t input_chars(const Field& f) {
    // A list of views is typed as "1, 3": room for each number with any spacing around it.
    constexpr std::size_t kCharsPerView = 16;
    return f.type == Type::Views ? f.limit * kCharsPerView : f.limit;
}

std::string range_text(const Field& f) {
    return fmt::format("{}{}, {}]", f.min_open ? "(" : "[", f.min, f.max);
}

bool in_range(const Field& f, double x) { return (f.min_open ? x > f.min : x >= f.min) && x <= f.max; }

std::string json_path(const Field& f, std::size_t scene, std::size_t item) {
    switch (f.level) {
        case Level::Lesson: return std::string(f.key);
        case Level::Scene: return fmt::format("{}[{}].{}", lesson::scenes.key, scene, f.key);
        case Level::Keyframe: return fmt::format("{}[{}].{}[{}].{}", lesson::scenes.key, scene, scene::keyframes.key, item, f.key);
        case Level::Annotation:
            return fmt::format("{}[{}].{}[{}].{}", lesson::scenes.key, scene, scene::annotations.key, item, f.key);
    }
    return std::string(f.key);
}

}  // namespace ropelab::lesson_schema
