#include "gpu/gl_context.h"

#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include <atomic>
#include <mutex>
#include <utility>

#include "core/headroom.h"

namespace ropelab::gpu {


namespace {

EGLDisplay open_display() {
    // Mesa's surfaceless platform needs neither X nor a GPU device node.
    if (epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless")) {
        EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA,
                                                EGL_DEFAULT_DISPLAY, nullptr);
        if (d != EGL_NO_DISPLAY) return d;
    }
    return eglGetDisplay(EGL_DEFAULT_DISPLAY);
}

EGLConfig choose_config(EGLDisplay display) {
    const EGLint attributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint count = 0;
    if (eglChooseConfig(display, attributes, &config, 1, &count) && count > 0) return config;
    return nullptr;  // EGL_NO_CONFIG_KHR: fine where EGL_KHR_no_config_context exists
}

}  // namespace

std::unique_ptr<HeadlessContext> HeadlessContext::create(std::string& why) {
    EGLContext previous_context = eglGetCurrentContext();
    EGLDisplay previous_display = eglGetCurrentDisplay();
    // Under an address-space limit Mesa crashes where its own allocations fail (llvmpipe: about
    // 200 MB of mappings to initialise, 110 MB more per context with its threads), so the room is
    // asked for first and its lack said as "out of memory" (core/headroom.h).
    static bool initialised_once = false;
    if (!initialised_once) require_headroom(std::size_t{224} << 20);
    EGLDisplay display = open_display();
    EGLint major = 0, minor = 0;
    // The display is never terminated: EGL shares it per process, and terminating it would
    // also invalidate contexts that other code made on it.
    if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor)) {
        require_headroom();
        why = "no EGL display could be opened";
        return nullptr;
    }
    initialised_once = true;
    require_headroom((std::size_t{128} << 20) + kDriverHeadroomBytes);
    if (!eglBindAPI(EGL_OPENGL_API)) {
        why = "EGL cannot bind desktop OpenGL";
        return nullptr;
    }
    const EGLConfig config = choose_config(display);
    // Newest first; 4.3 is the first version with compute shaders. 3.3 core still draws (a
    // render then computes on the CPU): the floor macOS and old drivers share.
    EGLContext context = EGL_NO_CONTEXT;
    for (const auto& [wanted_major, wanted_minor] : {std::pair{4, 6}, {4, 5}, {4, 4}, {4, 3}, {3, 3}}) {
        const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, wanted_major,
                                     EGL_CONTEXT_MINOR_VERSION, wanted_minor,
                                     EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                     EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                     EGL_CONTEXT_OPENGL_DEBUG, EGL_TRUE,
                                     EGL_NONE};
        context = eglCreateContext(display, config, EGL_NO_CONTEXT, attributes);
        if (context != EGL_NO_CONTEXT) break;
    }
    if (context == EGL_NO_CONTEXT) {
        require_headroom();
        why = "EGL could not create an OpenGL >= 3.3 core context";
        return nullptr;
    }
    if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
        why = "EGL could not make a surfaceless context current";
        eglDestroyContext(display, context);
        return nullptr;
    }
    std::unique_ptr<HeadlessContext> out(new HeadlessContext);
    out->display_ = display;
    out->context_ = context;
    out->previous_display_ = previous_display;
    out->previous_context_ = previous_context;
    install_debug_counter();
    return out;
}

HeadlessContext::~HeadlessContext() {
    const bool was_current = eglGetCurrentContext() == context_;
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display_, context_);
    if (was_current && previous_context_ != EGL_NO_CONTEXT) {
        eglMakeCurrent(previous_display_, EGL_NO_SURFACE, EGL_NO_SURFACE, previous_context_);
    }
}

void HeadlessContext::make_current() const {
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_);
}

namespace {
std::atomic<int> g_error_count{0};
std::mutex g_last_error_mutex;
std::string g_last_error;

void GLAPIENTRY on_debug_message(GLenum, GLenum type, GLuint, GLenum, GLsizei length,
                                 const GLchar* message, const void*) {
    if (type != GL_DEBUG_TYPE_ERROR) return;
    ++g_error_count;
    std::lock_guard lock(g_last_error_mutex);
    g_last_error.assign(message, length > 0 ? static_cast<std::size_t>(length) : 0);
}
}  // namespace

void install_debug_counter() {
    if (!epoxy_has_gl_extension("GL_KHR_debug") && epoxy_gl_version() < 43) return;
    glEnable(GL_DEBUG_OUTPUT);
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);  // report inside the offending call
    glDebugMessageCallback(on_debug_message, nullptr);
}

int gl_error_count() { return g_error_count.load(); }

std::string last_gl_error() {
    std::lock_guard lock(g_last_error_mutex);
    return g_last_error;
}

}  // namespace ropelab::gpu
