#pragma once
// Tier tests/gpu: needs an OpenGL ≥ 4.3 context with compute shaders (Mesa llvmpipe in CI,
// through EGL without any display). Skipped, with the reason, only when no context can be made.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "gpu/gl_context.h"
#include "gpu/rope_gpu.h"

namespace ropelab::test {

class GlTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (context_) return;
        context_ = gpu::HeadlessContext::create(why_);
        if (context_ && !gpu::current_gl_info().has_compute) {
            why_ = "OpenGL " + gpu::current_gl_info().version + " has no compute shaders";
            context_.reset();
        }
        if (context_) core_ = std::make_unique<gpu::GpuRopeCore>();
    }

    void SetUp() override {
        if (!context_) GTEST_SKIP() << "no OpenGL >= 4.3 context: " << why_;
        errors_before_ = gpu::gl_error_count();
    }

    // Every GPU test ends with zero GL errors reported through KHR_debug.
    void TearDown() override {
        if (!context_) return;
        EXPECT_EQ(gpu::gl_error_count(), errors_before_) << gpu::last_gl_error();
    }

    static gpu::GpuRopeCore& core() { return *core_; }

private:
    static inline std::unique_ptr<gpu::HeadlessContext> context_;
    static inline std::unique_ptr<gpu::GpuRopeCore> core_;
    static inline std::string why_;
    int errors_before_ = 0;
};

}  // namespace ropelab::test
