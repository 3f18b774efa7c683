#include "core/input_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/error.h"

namespace ropelab {

std::string read_input_file(const std::string& path, const std::string& what) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) throw InputError(fmt::format("{}: cannot open {} file (it does not exist)", path, what));
    if (!fs::is_regular_file(status)) {
        throw InputError(fmt::format("{}: not a {} file ({})", path, what,
                                     fs::is_directory(status) ? "it is a folder" : "not a regular file"));
    }
    const std::uintmax_t size = fs::file_size(path, ec);
    if (!ec && size > kMaxInputFileBytes) {
        throw InputError(fmt::format("{}: {} bytes is too large for a {} file (the limit is {} MiB)", path, size, what,
                                     kMaxInputFileBytes >> 20));
    }
    std::ifstream file(path, std::ios::binary);
    if (!file) throw InputError(fmt::format("{}: cannot open {} file (permission denied, or it just vanished)", path, what));
    std::stringstream buffer;
    buffer << file.rdbuf();
    if (file.bad()) throw InputError(fmt::format("{}: read error", path));
    return buffer.str();
}

}  // namespace ropelab
