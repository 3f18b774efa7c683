#pragma once
// Tier `gl`: an OpenGL >= 4.3 context with compute shaders (Mesa llvmpipe in CI, through EGL
// without any display). One context per process, made by the first test that asks: ctest runs
// each gl executable as a few processes (shards), not one process per test, so the shaders are
// compiled a few times, not once per case. Tests skip, with the reason, only when no context can
// be made.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "gpu/gl_context.h"
#include "gpu/rope_gpu.h"

namespace ropelab::test {

// Whether this process can make an OpenGL context (have_gl: the binary's renderer needs no more),
// and whether it has compute shaders (have_gl_compute: src/gpu needs OpenGL >= 4.3). Asked once;
// the context made to find out stays current for the tests. why() says what is missing.
class Gl {
public:
    static bool available() { return state().context != nullptr; }
    static bool compute() { return state().compute; }
    static const std::string& why() { return state().why; }

    // One GpuRopeCore for the process, made on first use (its shaders compiled once); destroyed
    // before the context it lives in.
    static gpu::GpuRopeCore& core() {
        State& s = state();
        if (!s.core) s.core = std::make_unique<gpu::GpuRopeCore>();
        return *s.core;
    }

private:
    struct State {
        std::unique_ptr<gpu::HeadlessContext> context;
        bool compute = false;
        std::string why;
        std::unique_ptr<gpu::GpuRopeCore> core;  // after `context`: destroyed first
    };
    static State& state() {
        static State s = [] {
            State made;
            made.context = gpu::HeadlessContext::create(made.why);
            made.compute = made.context && gpu::current_gl_info().has_compute;
            if (made.context && !made.compute) made.why = "OpenGL " + gpu::current_gl_info().version + " has no compute shaders";
            return made;
        }();
        return s;
    }
};

inline bool have_gl() { return Gl::available(); }
inline bool have_gl_compute() { return Gl::compute(); }

#define ROPELAB_SKIP_WITHOUT_GL() \
    if (!::ropelab::test::have_gl()) GTEST_SKIP() << "no OpenGL context: " << ::ropelab::test::Gl::why()
#define ROPELAB_SKIP_WITHOUT_GL_COMPUTE() \
    if (!::ropelab::test::have_gl_compute()) GTEST_SKIP() << "no OpenGL >= 4.3 context: " << ::ropelab::test::Gl::why()

// A fixture for tests that call src/gpu in this process: the shared context and one GpuRopeCore
// (its shaders compiled once per process); every test ends with zero GL errors.
class GlTest : public ::testing::Test {
protected:
    void SetUp() override {
        ROPELAB_SKIP_WITHOUT_GL_COMPUTE();
        Gl::core();  // made before the count starts, as a suite-wide setup would
        errors_before_ = gpu::gl_error_count();
    }

    // Every GPU test ends with zero GL errors reported through KHR_debug.
    void TearDown() override {
        if (!have_gl_compute()) return;
        EXPECT_EQ(gpu::gl_error_count(), errors_before_) << gpu::last_gl_error();
    }

    static gpu::GpuRopeCore& core() { return Gl::core(); }

private:
    int errors_before_ = 0;
};

}  // namespace ropelab::test
