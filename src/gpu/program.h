#pragma once
// Compute programs built from the shader files in shaders/, embedded at build time.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace ropelab::gpu {

// A shader failed to compile or link; what() is one line, log() the driver's full log.
class ShaderError : public std::runtime_error {
public:
    ShaderError(const std::string& what, std::string log)
        : std::runtime_error(what), log_(std::move(log)) {}
    const std::string& log() const { return log_; }

private:
    std::string log_;
};

// The text of a shader file: embedded, or read from $ROPELAB_SHADER_DIR when that is set (so a
// shader can be edited without rebuilding, and a broken one can be tried on purpose).
std::string shader_file(const std::string& name);

// Bytes copied from GPU buffers into host memory by this process so far (downloads and mapped
// copies): what lets a test show that the window reads back M4 columns, never a whole curve.
std::uint64_t bytes_copied_to_host();

// A linked compute program: "#version 430 core", the shared #defines, common.glsl, then `file`.
class ComputeProgram {
public:
    explicit ComputeProgram(const std::string& file);  // throws ShaderError
    ~ComputeProgram();
    ComputeProgram(const ComputeProgram&) = delete;
    ComputeProgram& operator=(const ComputeProgram&) = delete;

    unsigned id() const { return id_; }

private:
    unsigned id_ = 0;
};

// A shader storage buffer; its contents live on the GPU until read back.
class StorageBuffer {
public:
    StorageBuffer();
    ~StorageBuffer();
    StorageBuffer(const StorageBuffer&) = delete;
    StorageBuffer& operator=(const StorageBuffer&) = delete;

    // Reallocates only when growing.
    void reserve(std::size_t bytes);
    void upload(const void* data, std::size_t bytes);
    void download(void* data, std::size_t bytes, std::size_t offset = 0) const;
    void bind(unsigned binding) const;
    unsigned id() const { return id_; }
    std::size_t capacity() const { return capacity_; }
    // Exchanges the GL buffers (a finished back buffer comes to the front).
    void swap(StorageBuffer& other) noexcept;
    // The first `bytes` of `from` copied into this buffer on the GPU (grown first if needed).
    void copy_from(const StorageBuffer& from, std::size_t bytes);

private:
    unsigned id_ = 0;
    std::size_t capacity_ = 0;
};

// A host-visible buffer mapped once for its lifetime (ARB_buffer_storage, GL 4.4): results are
// copied into it on the GPU and read in place, with no glGetBufferSubData staging copy.
class MappedReadBuffer {
public:
    MappedReadBuffer() = default;
    ~MappedReadBuffer();
    MappedReadBuffer(const MappedReadBuffer&) = delete;
    MappedReadBuffer& operator=(const MappedReadBuffer&) = delete;

    static bool supported();
    // Copies `bytes` of `source` in and waits for them; returns where they can be read.
    const void* copy_from(const StorageBuffer& source, std::size_t bytes);

private:
    unsigned id_ = 0;
    std::size_t capacity_ = 0;
    const void* mapped_ = nullptr;
};

}  // namespace ropelab::gpu
