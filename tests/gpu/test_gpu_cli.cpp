// The command line's device choice, fallbacks and GPU numbers, through the real binary.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "support/run_binary.h"
#include "support/gl.h"

namespace ropelab {
namespace {

using test::Result;
using test::run;

class GpuCli : public ::testing::Test {
protected:
    void SetUp() override { ROPELAB_SKIP_WITHOUT_GL_COMPUTE(); }
};

TEST_F(GpuCli, AutoUsesTheGpuAndAgreesWithTheReference) {
    const std::string args = "scores --max-distance 70000 --q random:5 --k random:6 --format json";
    const Result gpu = run(args);
    const Result reference = run(args + " --device reference");
    ASSERT_EQ(gpu.status, 0) << gpu.err;
    ASSERT_EQ(reference.status, 0) << reference.err;
    const auto g = nlohmann::json::parse(gpu.out), r = nlohmann::json::parse(reference.out);
    EXPECT_NE(g["device"], "cpu");  // the GL renderer string, llvmpipe in CI
    EXPECT_EQ(r["device"], "reference");
    for (int d : {0, 1, 4095, 65536, 69999}) {
        EXPECT_NEAR(g["score"][d].get<double>(), r["score"][d].get<double>(), 1e-3) << d;
    }
}

// The largest head the schema allows fills the kernel's term block exactly (256 pairs); a larger
// one is refused at the door, in the schema's words, before any work.
TEST_F(GpuCli, TheLargestHeadComputesExactlyAndLargerIsRefused) {
    const std::string args = "scores --head-dim 512 --max-distance 300 --q random:1 --k random:2 --format json";
    const auto fast = nlohmann::json::parse(run(args).out);
    const auto reference = nlohmann::json::parse(run(args + " --device reference").out);
    for (int d : {0, 7, 299}) {
        EXPECT_NEAR(fast["score"][d].get<double>(), reference["score"][d].get<double>(), 1e-3) << d;
    }
    const Result big = run("scores --head-dim 1024 --max-distance 300");
    EXPECT_EQ(big.status, 2);
    EXPECT_NE(big.err.find("--head-dim: model.head_dim = 1024 is out of range (2 .. 512)"), std::string::npos) << big.err;
}

TEST_F(GpuCli, DecayBoundOnTheGpu) {
    const Result r = run("decay-bound --max-distance 16 --device gpu --format json");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_NEAR(j["bound"][0].get<double>(), 32.5, 1e-5);
    EXPECT_NEAR(j["bound"][10].get<double>(), 17.954, 5e-4);
}

// A context without compute shaders (GL 3.3, as on macOS): auto falls back with a notice.
TEST_F(GpuCli, NoComputeContextFallsBackToCpu) {
    const Result r = run("scores --max-distance 16 --format json", "MESA_GL_VERSION_OVERRIDE=3.3");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["device"], "cpu");
    EXPECT_NE(r.err.find("notice: GPU core unavailable"), std::string::npos) << r.err;

    const Result forced = run("scores --max-distance 16 --device gpu", "MESA_GL_VERSION_OVERRIDE=3.3");
    EXPECT_EQ(forced.status, 2);
    EXPECT_TRUE(forced.out.empty());
    EXPECT_NE(forced.err.find("GPU core unavailable"), std::string::npos) << forced.err;
}

// A shader with a syntax error: the CPU path, a one-line notice and the compiler's log.
TEST_F(GpuCli, BrokenShaderFallsBackWithTheLog) {
    const std::filesystem::path dir = test::temp_path("broken_shaders");
    std::filesystem::remove_all(dir);
    std::filesystem::copy(ROPELAB_SOURCE_DIR "/shaders", dir);
    std::ofstream(dir / "scores.comp", std::ios::app) << "\nthis is not glsl;\n";
    const Result r = run("scores --max-distance 16 --format json", "ROPELAB_SHADER_DIR=" + dir.string());
    std::filesystem::remove_all(dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["device"], "cpu");
    EXPECT_NE(r.err.find("scores.comp failed to compile"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("error"), std::string::npos) << r.err;  // the driver's log follows
}

}  // namespace
}  // namespace ropelab

namespace ropelab {
namespace {

// --repeat reports where the time went: the kernel (GL timer queries) and the copy back through
// the mapped buffer; --kernel forces either GPU kernel, both agreeing with the reference.
TEST_F(GpuCli, RepeatReportsKernelAndTransferTimesForEitherKernel) {
    const std::string args = "scores --max-distance 9000 --q random:3 --k random:4 --format json";
    const auto reference = nlohmann::json::parse(run(args + " --device reference").out);
    for (const char* kernel : {"serial", "tiled"}) {
        const Result r = run(args + " --device gpu --repeat 3 --kernel " + kernel);
        ASSERT_EQ(r.status, 0) << r.err;
        const auto j = nlohmann::json::parse(r.out);
        EXPECT_EQ(j["kernel"], kernel);
        for (const char* field : {"compute_ms", "kernel_ms", "transfer_ms"}) {
            ASSERT_TRUE(j.contains(field)) << field;
            EXPECT_GE(j[field].get<double>(), 0.0) << field;
        }
        EXPECT_LE(j["transfer_ms"].get<double>(), j["compute_ms"].get<double>());
        for (int d : {0, 4095, 4096, 8999}) EXPECT_NEAR(j["score"][d].get<double>(), reference["score"][d].get<double>(), 1e-3) << kernel << " " << d;
    }
    const Result cpu = run(args + " --device cpu --repeat 2");
    ASSERT_EQ(cpu.status, 0) << cpu.err;
    const auto c = nlohmann::json::parse(cpu.out);
    EXPECT_EQ(c["kernel"], "cpu");
    EXPECT_FALSE(c.contains("kernel_ms"));  // nothing to time apart on the CPU
    const Result bad = run(args + " --kernel warp");
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("--kernel"), std::string::npos) << bad.err;
    const Result env = run(args, "ROPELAB_KERNEL=warp");
    EXPECT_EQ(env.status, 0) << "the CLI's --kernel, not the environment, decides here: " << env.err;
}

}  // namespace
}  // namespace ropelab
