#pragma once
// Images, written by the rule every export follows (core/atomic_file.h): a failure never
// leaves a partial file under the target name.
#include <string>
#include <vector>

#include "core/atomic_file.h"

namespace ropelab {

struct RgbaImage {
    int width = 0, height = 0;
    std::vector<unsigned char> pixels;  // RGBA, rows top-down
};

bool write_png(const std::string& path, const RgbaImage& image, std::string& error);

}  // namespace ropelab
