#include "export/image.h"

#include "core/atomic_file.h"

#include <cstdio>
#include <filesystem>

#include <stb/stb_image_write.h>

namespace ropelab {

bool write_png(const std::string& path, const RgbaImage& image, std::string& error) {
    // Encoded in memory first: stb's own file writer does not check fwrite, so a full disk
    // would leave a truncated PNG that looks written.
    std::string encoded;
    const auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
    };
    if (!stbi_write_png_to_func(append, &encoded, image.width, image.height, 4, image.pixels.data(), image.width * 4)) {
        error = "cannot encode a " + std::to_string(image.width) + "x" + std::to_string(image.height) + " PNG for " + path;
        return false;
    }
    return write_file_atomically(path, encoded, error);
}

}  // namespace ropelab
