// gpu/gl_context.h in the browser: the page's WebGL2 context is the only one there is, so no
// headless contexts; WebGL has no KHR_debug, so errors are counted by polling glGetError where
// the window asks (install_debug_counter is a no-op and gl_error_count reads the queue).
#include "gpu/gl_context.h"

#include <GLES3/gl3.h>

#include <fmt/format.h>

namespace ropelab::gpu {


std::unique_ptr<HeadlessContext> HeadlessContext::create(std::string& why) {
    why = "a browser page has only its canvas's WebGL2 context";
    return nullptr;
}

HeadlessContext::~HeadlessContext() = default;
void HeadlessContext::make_current() const {}

namespace {
int g_error_count = 0;
std::string g_last_error;
}  // namespace

void install_debug_counter() {}

int gl_error_count() {
    for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) {
        ++g_error_count;
        g_last_error = fmt::format("glGetError 0x{:04x}", e);
    }
    return g_error_count;
}

std::string last_gl_error() { return g_last_error; }

}  // namespace ropelab::gpu
