#pragma once
// Writing files without ever leaving a partial one: write to a temporary name beside the
// target, rename into place only when complete, remove it on failure.
#include <string>
#include <string_view>

namespace ropelab {

// Writes `bytes` to `path` atomically, checking every write and the close (a full disk shows
// up there). On failure returns false with the reason in `error` and leaves nothing behind.
bool write_file_atomically(const std::string& path, std::string_view bytes, std::string& error);

// The temporary name used beside `path` while writing it.
std::string partial_path(const std::string& path);

// Moves a finished temporary file (or folder) into place; on failure removes it.
bool commit_partial(const std::string& partial, const std::string& path, std::string& error);

// A readable reason when `path`'s folder does not exist or cannot be written, else "".
std::string folder_problem(const std::string& path);

}  // namespace ropelab
