// gpu/gl_context.h's description of the current context, for both builds: desktop OpenGL
// through epoxy, and the page's WebGL2 (OpenGL ES 3.0).
#include "gpu/gl_api.h"
#include "gpu/gl_context.h"

namespace ropelab::gpu {

GlInfo current_gl_info() {
    GlInfo info;
    const auto text = [](GLenum name) {
        const auto* s = reinterpret_cast<const char*>(glGetString(name));
        return std::string(s ? s : "");
    };
    info.renderer = text(GL_RENDERER);
    info.version = text(GL_VERSION);
    glGetIntegerv(GL_MAJOR_VERSION, &info.major);
    glGetIntegerv(GL_MINOR_VERSION, &info.minor);
#ifdef __EMSCRIPTEN__
    info.has_compute = false;  // WebGL2 is ES 3.0: no compute shaders
#else
    // The kernels are GLSL 4.30 with SSBOs and images; a 3.x context that lists
    // ARB_compute_shader (Mesa does under MESA_GL_VERSION_OVERRIDE=3.3) would not compile them.
    info.has_compute = info.major > 4 || (info.major == 4 && info.minor >= 3);
#endif
    return info;
}

}  // namespace ropelab::gpu
