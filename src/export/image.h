#pragma once
// Images and the rule every export follows: write to a temporary file beside the target and
// rename it into place only when complete, so a failure never leaves a partial file there.
#include <string>
#include <vector>

namespace ropelab {

struct RgbaImage {
    int width = 0, height = 0;
    std::vector<unsigned char> pixels;  // RGBA, rows top-down
};

bool write_png(const std::string& path, const RgbaImage& image, std::string& error);

// Writes `text` to `path` atomically (temporary file + rename).
bool write_text_file(const std::string& path, const std::string& text, std::string& error);

// The temporary name used beside `path` while writing it.
std::string partial_path(const std::string& path);

// Moves a finished temporary file (or folder) into place; on failure removes it.
bool commit_partial(const std::string& partial, const std::string& path, std::string& error);

// A readable reason when `path`'s folder does not exist or cannot be written.
std::string folder_problem(const std::string& path);

}  // namespace ropelab
