#pragma once
// Files compiled into the binary by cmake/Embed.cmake (presets, shaders, lessons, the UI font).
#include <span>
#include <string_view>

namespace ropelab {

struct EmbeddedFile {
    std::string_view name;  // base name, e.g. "llama3.1-8b.json"
    std::string_view data;
};

namespace embedded {
std::span<const EmbeddedFile> presets();
std::span<const EmbeddedFile> shaders();  // defined by the ropelab_gpu library
std::span<const EmbeddedFile> lessons();  // defined by the ropelab_lesson library
std::span<const EmbeddedFile> fonts();    // defined by the ropelab_app library (DejaVuSans.ttf)
}  // namespace embedded

}  // namespace ropelab
