#include "gpu/program.h"

#include <epoxy/gl.h>

#include <atomic>
#include <new>
#include <cstdlib>
#include <utility>
#include <fstream>
#include <sstream>

#include "core/colormap.h"
#include "core/embedded.h"
#include "core/headroom.h"
#include "core/phasor_sum.h"
#include "gpu/kernel_config.h"

namespace ropelab::gpu {

std::string shader_defines() {
    std::ostringstream s;
    s << "#define WORKGROUP_SIZE " << kWorkgroupSize << "\n"
      << "#define SCORES_BLOCK " << kScoresBlock << "\n"
      << "#define BOUND_BLOCK " << kBoundBlock << "\n"
      << "#define TILED_GROUP " << kTiledGroup << "\n"
      << "#define TILED_RUN " << kTiledRun << "\n"
      << "#define HEATMAP_TILE " << kHeatmapTile << "\n"
      << "#define MAX_TERMS " << kMaxTerms << "\n"
      << "#define M4_MAX_COLUMN_SAMPLES " << kM4MaxColumnSamples << "u\n"
      << "#define MODE_EXACT " << static_cast<int>(AngleMode::Exact) << "\n"
      << "#define MODE_NAIVE_FP32 " << static_cast<int>(AngleMode::NaiveFp32) << "\n"
      << "#define MODE_BF16 " << static_cast<int>(AngleMode::Bf16) << "\n";
    // The colormap's coefficients, written as GLSL float literals.
    auto vec3 = [&](const char* name, const std::array<float, 3>& v) {
        s << "#define " << name << " " << std::showpoint << v[0] << ", " << v[1] << ", " << v[2]
          << std::noshowpoint << "\n";
    };
    vec3("CYCLIC_A", kCyclicA);
    vec3("CYCLIC_B", kCyclicB);
    vec3("CYCLIC_PHASE", kCyclicPhase);
    return s.str();
}

std::string shader_file(const std::string& name) {
    if (const char* dir = std::getenv("ROPELAB_SHADER_DIR"); dir && *dir) {
        std::ifstream in(std::string(dir) + "/" + name);
        if (!in) throw ShaderError("cannot read shader " + std::string(dir) + "/" + name, "");
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }
    for (const EmbeddedFile& f : embedded::shaders()) {
        if (f.name == name) return std::string(f.data);
    }
    throw ShaderError("no embedded shader named " + name, "");
}

namespace {
std::string shader_log(GLuint shader) {
    GLint length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::string log(static_cast<std::size_t>(std::max(length, 1)), '\0');
    glGetShaderInfoLog(shader, length, nullptr, log.data());
    return log.c_str();
}

std::string program_log(GLuint program) {
    GLint length = 0;
    glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
    std::string log(static_cast<std::size_t>(std::max(length, 1)), '\0');
    glGetProgramInfoLog(program, length, nullptr, log.data());
    return log.c_str();
}
}  // namespace

ComputeProgram::ComputeProgram(const std::string& file) {
    // common.glsl goes first; "#line 1 1" makes the driver's line numbers point into `file`.
    const std::string source = "#version 430 core\n" + shader_defines() +
                               shader_file("common.glsl") + "\n#line 1 1\n" + shader_file(file);
    const char* text = source.c_str();
    const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
    glShaderSource(shader, 1, &text, nullptr);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        std::string log = shader_log(shader);
        glDeleteShader(shader);
        throw ShaderError("shader " + file + " failed to compile", log);
    }
    id_ = glCreateProgram();
    glAttachShader(id_, shader);
    glLinkProgram(id_);
    glDeleteShader(shader);
    glGetProgramiv(id_, GL_LINK_STATUS, &ok);
    if (!ok) {
        std::string log = program_log(id_);
        glDeleteProgram(id_);
        id_ = 0;
        throw ShaderError("shader " + file + " failed to link", log);
    }
}

ComputeProgram::~ComputeProgram() {
    if (id_) glDeleteProgram(id_);
}

namespace {
std::atomic<std::uint64_t> host_bytes{0};
}  // namespace

std::uint64_t bytes_copied_to_host() { return host_bytes.load(std::memory_order_relaxed); }

StorageBuffer::StorageBuffer() { glGenBuffers(1, &id_); }

StorageBuffer::~StorageBuffer() { glDeleteBuffers(1, &id_); }

void StorageBuffer::reserve(std::size_t bytes) {
    if (bytes <= capacity_) return;
    require_headroom(bytes + kDriverHeadroomBytes);  // llvmpipe's buffers are the process's memory
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, id_);
    glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_DYNAMIC_COPY);
    capacity_ = bytes;
}

void StorageBuffer::upload(const void* data, std::size_t bytes) {
    reserve(bytes);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, id_);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(bytes), data);
}

void StorageBuffer::download(void* data, std::size_t bytes, std::size_t offset) const {
    host_bytes.fetch_add(bytes, std::memory_order_relaxed);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, id_);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, static_cast<GLintptr>(offset),
                       static_cast<GLsizeiptr>(bytes), data);
}

void StorageBuffer::swap(StorageBuffer& other) noexcept {
    std::swap(id_, other.id_);
    std::swap(capacity_, other.capacity_);
}

void StorageBuffer::copy_from(const StorageBuffer& from, std::size_t bytes) {
    if (bytes == 0) return;
    reserve(bytes);
    glBindBuffer(GL_COPY_READ_BUFFER, from.id_);
    glBindBuffer(GL_COPY_WRITE_BUFFER, id_);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, static_cast<GLsizeiptr>(bytes));
}

bool MappedReadBuffer::supported() {
    return epoxy_gl_version() >= 44 || epoxy_has_gl_extension("GL_ARB_buffer_storage");
}

MappedReadBuffer::~MappedReadBuffer() {
    if (id_) glDeleteBuffers(1, &id_);
}

const void* MappedReadBuffer::copy_from(const StorageBuffer& source, std::size_t bytes) {
    if (bytes > capacity_) {
        if (id_) glDeleteBuffers(1, &id_);  // immutable storage: a larger one is a new buffer
        id_ = 0;
        mapped_ = nullptr;
        capacity_ = 0;
        require_headroom(bytes + kDriverHeadroomBytes);
        glGenBuffers(1, &id_);
        glBindBuffer(GL_COPY_WRITE_BUFFER, id_);
        const GLbitfield flags = GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
        glBufferStorage(GL_COPY_WRITE_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, flags | GL_CLIENT_STORAGE_BIT);
        mapped_ = glMapBufferRange(GL_COPY_WRITE_BUFFER, 0, static_cast<GLsizeiptr>(bytes), flags);
        if (!mapped_) throw std::bad_alloc();  // the driver had no memory for it: never read through null
        capacity_ = bytes;
    }
    host_bytes.fetch_add(bytes, std::memory_order_relaxed);
    glBindBuffer(GL_COPY_READ_BUFFER, source.id());
    glBindBuffer(GL_COPY_WRITE_BUFFER, id_);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, static_cast<GLsizeiptr>(bytes));
    // Coherent mapping: the copy's writes are visible once its fence has signalled.
    GLsync fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    while (glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, 1'000'000'000) == GL_TIMEOUT_EXPIRED) {
    }
    glDeleteSync(fence);
    return mapped_;
}

void StorageBuffer::bind(unsigned binding) const {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, id_);
}

}  // namespace ropelab::gpu
