// libFuzzer target: lesson files, and the state of every scene at a few times.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/error.h"
#include "lesson/lesson.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const ropelab::Lesson lesson = ropelab::parse_lesson(text, "fuzz.json");
        for (int s = 0; s < static_cast<int>(lesson.scenes.size()); ++s) {
            for (double t : {0.0, 0.37, 1e9}) ropelab::lesson_state(lesson, s, t, ropelab::LabParams{});
        }
    } catch (const ropelab::InputError&) {
    }
    return 0;
}
