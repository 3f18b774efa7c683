#pragma once
// PNGs the app wrote, read back as RGBA (tests that link PkgConfig::stb).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <stb/stb_image.h>

namespace ropelab::test {

struct Image {
    int width = 0, height = 0;
    std::vector<unsigned char> rgba;  // empty if the file could not be read
    double channel(int x, int y, int c) const { return rgba[(static_cast<std::size_t>(y) * width + x) * 4 + c]; }
};

inline Image load_png(const std::string& path) {
    Image image;
    int channels = 0;
    if (unsigned char* data = stbi_load(path.c_str(), &image.width, &image.height, &channels, 4)) {
        image.rgba.assign(data, data + static_cast<std::size_t>(image.width) * image.height * 4);
        stbi_image_free(data);
    }
    return image;
}

// Standard deviation of the luminance: 0 for a blank image.
inline double spread(const Image& img) {
    double sum = 0, sq = 0;
    const double n = static_cast<double>(img.rgba.size() / 4);
    for (std::size_t i = 0; i < img.rgba.size(); i += 4) {
        const double l = (img.rgba[i] + img.rgba[i + 1] + img.rgba[i + 2]) / 3.0;
        sum += l;
        sq += l * l;
    }
    return std::sqrt(std::max(0.0, sq / n - (sum / n) * (sum / n)));
}

}  // namespace ropelab::test
