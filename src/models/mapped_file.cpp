#include "models/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "core/error.h"
#include "core/input_file.h"

namespace ropelab::models {

// Either a read-only private mapping of a file or bytes held in memory. A file truncated by
// another program while it is mapped would fault on access (SIGBUS); the readers only touch
// bytes inside the size seen at open, which is all a mapping can promise.
struct MappedFile::Mapping {
    void* address = nullptr;
    std::size_t size = 0;
    std::string held;
    Mapping() = default;
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    ~Mapping() {
        if (address) munmap(address, size);
    }
    std::span<const std::byte> bytes() const {
        if (address) return {static_cast<const std::byte*>(address), size};
        return {reinterpret_cast<const std::byte*>(held.data()), held.size()};
    }
};

namespace {

struct Descriptor {
    int fd = -1;
    ~Descriptor() {
        if (fd >= 0) close(fd);
    }
};

}  // namespace

MappedFile MappedFile::open(const std::string& path, const std::string& what) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) throw InputError(fmt::format("{}: cannot open {} file (it does not exist)", path, what));
    if (!fs::is_regular_file(status)) {
        throw InputError(fmt::format("{}: not a {} file ({})", path, what, fs::is_directory(status) ? "it is a folder" : "not a regular file"));
    }
    // O_NONBLOCK: a FIFO swapped in after the check above must not hang the open.
    const Descriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
    if (file.fd < 0) {
        throw InputError(fmt::format("{}: cannot open {} file ({})", path, what, errno == EACCES ? "permission denied" : std::strerror(errno)));
    }
    struct stat st {};
    if (fstat(file.fd, &st) != 0 || !S_ISREG(st.st_mode)) throw InputError(fmt::format("{}: not a {} file (not a regular file)", path, what));
    register_open_input(file.fd, path, what);

    auto mapping = std::make_shared<Mapping>();
    if (st.st_size > 0) {
        void* address = mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, file.fd, 0);
        if (address == MAP_FAILED) throw InputError(fmt::format("{}: cannot map {} file ({})", path, what, std::strerror(errno)));
        mapping->address = address;
        mapping->size = static_cast<std::size_t>(st.st_size);
    }
    MappedFile out;
    out.mapping_ = std::move(mapping);
    out.path_ = path;
    return out;
}

MappedFile MappedFile::hold(std::string bytes, std::string name) {
    auto mapping = std::make_shared<Mapping>();
    mapping->held = std::move(bytes);
    MappedFile out;
    out.mapping_ = std::move(mapping);
    out.path_ = std::move(name);
    return out;
}

std::span<const std::byte> MappedFile::bytes() const { return mapping_ ? mapping_->bytes() : std::span<const std::byte>{}; }

}  // namespace ropelab::models
