#include "export/image.h"

#include "core/atomic_file.h"

#include <cstdio>
#include <filesystem>

#include <stb/stb_image_write.h>

namespace ropelab {

bool write_png(const std::string& path, const RgbaImage& image, std::string& error) {
    const std::string partial = partial_path(path);
    if (!stbi_write_png(partial.c_str(), image.width, image.height, 4, image.pixels.data(), image.width * 4)) {
        std::remove(partial.c_str());
        error = "cannot write " + path + (folder_problem(path).empty() ? "" : ": " + folder_problem(path));
        return false;
    }
    return commit_partial(partial, path, error);
}

}  // namespace ropelab
