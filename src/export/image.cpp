#include "export/image.h"

#include "core/atomic_file.h"
#include "core/png.h"

#include <cstdio>
#include <filesystem>


namespace ropelab {

bool write_png(const std::string& path, const RgbaImage& image, std::string& error) {
    // Encoded in memory, then written through the commit path: a full disk never leaves a
    // truncated PNG that looks written.
    const std::string encoded = encode_png(image.pixels.data(), image.width, image.height);
    if (encoded.empty()) {
        error = "cannot encode a " + std::to_string(image.width) + "x" + std::to_string(image.height) + " PNG for " + path;
        return false;
    }
    return write_file_atomically(path, encoded, error);
}

}  // namespace ropelab
