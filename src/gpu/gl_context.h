#pragma once
// OpenGL contexts for the GPU RoPE core: a headless one through EGL (Mesa's surfaceless
// platform: no X, no window — the CLI and the tests), or whatever context is current (the app's
// window). All GL in ropelab lives in src/gpu and the window code.
#include <memory>
#include <string>

namespace ropelab::gpu {

struct GlInfo {
    std::string renderer;  // GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"
    std::string version;   // GL_VERSION
    int major = 0, minor = 0;
    bool has_compute = false;  // GL >= 4.3, what the kernels need
};

// Reads the current context's strings and version.
GlInfo current_gl_info();

// A GL core debug context without any surface (the newest of 4.6 .. 4.3, else 3.3: check
// current_gl_info().has_compute), current after creation. Creation never
// throws: it returns nullptr and fills `why` (a one-line reason) when no such context can be made.
class HeadlessContext {
public:
    static std::unique_ptr<HeadlessContext> create(std::string& why);
    ~HeadlessContext();
    HeadlessContext(const HeadlessContext&) = delete;
    HeadlessContext& operator=(const HeadlessContext&) = delete;

    void make_current() const;

private:
    HeadlessContext() = default;
    void* display_ = nullptr;  // EGLDisplay
    void* context_ = nullptr;  // EGLContext
    // What was current before, restored on destruction so that a short-lived context (a probe)
    // does not leave the caller's context unbound.
    void* previous_display_ = nullptr;
    void* previous_context_ = nullptr;
};

// KHR_debug: counts GL errors reported by the driver in the current context (tests assert zero).
void install_debug_counter();
int gl_error_count();
std::string last_gl_error();  // the last error message, empty if none

}  // namespace ropelab::gpu
