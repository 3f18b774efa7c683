// The lab never freezes on long curves: one θ change at N = 2^24 with a 512-dim head, made by
// dragging the real slider through `gui --script`, is computed a slice per frame (the script
// reads the progress the window shows across frames), and the curve the window ends up with is
// the one-shot computation's, bit for bit, and within 1e-5·Σ|c| of float64.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include <nlohmann/json.hpp>

#include "support/run_binary.h"
#include "core/phasor_sum.h"
#include "gpu/gl_device.h"
#include "lab/lab_data.h"
#include "state/session.h"

namespace ropelab {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using test::read_json;

constexpr std::int64_t kDistances = std::int64_t{1} << 24;

std::vector<float> read_floats(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<float> out(bytes.size() / sizeof(float));
    std::memcpy(out.data(), bytes.data(), out.size() * sizeof(float));
    return out;
}

TEST(Progressive, AThetaChangeAt2To24WithA512Head) {
    const fs::path dir = test::fresh_dir("progressive");
    const Json script = {
        {{"wait", 2}}, {{"progress", "p0.json"}},
        {{"drag", "θ (base)", }, {"dx", 40}}, {{"wait", 3}}, {{"progress", "p1.json"}},
        {{"wait", 15}}, {{"progress", "p2.json"}}, {{"wait", 15}}, {{"progress", "p3.json"}},
        {{"until_exact", 20000}}, {{"progress", "p4.json"}}, {{"state", "state.json"}}, {{"curve", "curve.f32"}},
    };
    std::ofstream(dir / "script.json") << script.dump(1);
    const test::Result r = test::run(
        "gui --size 1280x720 --paused --max-distance 16777216 --head-dim 512 --vectors random --encoding rope "
        "--script script.json",
        "cd '" + dir.string() + "' &&");
    ASSERT_EQ(r.status, 0) << r.err;

    // At the start and after the change: a preview, the exact pass advancing frame by frame.
    const Json p0 = read_json(dir / "p0.json"), p1 = read_json(dir / "p1.json"), p2 = read_json(dir / "p2.json"),
               p3 = read_json(dir / "p3.json"), p4 = read_json(dir / "p4.json");
    EXPECT_FALSE(p0["exact"].get<bool>());
    EXPECT_GT(p0["stride"].get<int>(), 1);
    EXPECT_FALSE(p1["exact"].get<bool>());
    EXPECT_FALSE(p2["exact"].get<bool>());
    EXPECT_LT(p1["fraction"].get<double>(), p2["fraction"].get<double>());
    EXPECT_LT(p2["slices"].get<int>(), p3["slices"].get<int>());
    EXPECT_TRUE(p3["exact"].get<bool>() || p2["fraction"].get<double>() < p3["fraction"].get<double>());
    EXPECT_TRUE(p4["exact"].get<bool>());
    EXPECT_EQ(p4["stride"].get<int>(), 1);
    EXPECT_GT(p4["frame"].get<int>() - p1["frame"].get<int>(), 30) << "one frame's budget cannot hold 2^32 term evaluations";

    // The window's final curve against the one-shot computation of the same settings.
    std::vector<std::string> warnings;
    std::ifstream state(dir / "state.json");
    const Session session = session_from_json(std::string(std::istreambuf_iterator<char>(state), {}), warnings);
    EXPECT_NE(session.params.model.rope_theta, 10000.0) << "the drag changed θ";
    const LabData data = compute_lab_data(session.params);
    std::string notice;
    const auto device = gpu::GlDevice::open(gpu::DeviceRequest::Auto, true, notice);
    device->compute_series(Series::Scores, data.rope_sum, kDistances, AngleMode::Exact);
    const std::vector<float> one_shot = device->read_series(Series::Scores);
    const std::vector<float> shown = read_floats(dir / "curve.f32");
    ASSERT_EQ(shown.size(), static_cast<std::size_t>(kDistances));
    ASSERT_EQ(one_shot.size(), shown.size());
    std::size_t differing = 0;
    for (std::size_t i = 0; i < shown.size(); ++i) differing += shown[i] != one_shot[i];
    EXPECT_EQ(differing, 0u) << "slices anchor where the one-shot kernel does: the same floats";
    double l1 = std::abs(data.rope_sum.constant);
    for (auto c : data.rope_sum.coefficient) l1 += std::abs(c);
    std::mt19937_64 rng(7);
    for (int k = 0; k < 2000; ++k) {
        const std::int64_t delta = k == 0 ? kDistances - 1 : static_cast<std::int64_t>(rng() % kDistances);
        ASSERT_NEAR(shown[static_cast<std::size_t>(delta)], evaluate(data.rope_sum, delta), 1e-5 * l1) << "Δ = " << delta;
    }
    fs::remove_all(dir);
}

// A finished exact curve at N = 2^24, then the angle mode switched to naive fp32 in the panel:
// the exact curve stays as it was, bit for bit, with no preview, while the naive curve is
// computed over frames under its own progress line; then it is drawn over the exact one.
TEST(Progressive, SwitchingTheAngleModeKeepsTheExactCurve) {
    const fs::path dir = test::fresh_dir("progressive_mode");
    const Json script = {
        {{"until_exact", 20000}}, {{"progress", "q0.json"}}, {{"curve", "before.f32"}},
        {{"click", "Angles"}}, {{"click", "naive fp32"}}, {{"wait", 3}},
        {{"progress", "q1.json"}}, {{"curve", "during.f32"}}, {{"widgets", "during.json"}}, {{"screenshot", "during.png"}},
        {{"until_exact", 20000}}, {{"progress", "q2.json"}}, {{"curve", "after.f32"}}, {{"screenshot", "after.png"}},
    };
    std::ofstream(dir / "script.json") << script.dump(1);
    const test::Result r = test::run("gui --size 1280x720 --paused --max-distance 16777216 --head-dim 128 --vectors random "
                                     "--encoding rope --script script.json",
                                     "cd '" + dir.string() + "' &&");
    ASSERT_EQ(r.status, 0) << r.err;
    const Json q0 = read_json(dir / "q0.json"), q1 = read_json(dir / "q1.json"), q2 = read_json(dir / "q2.json");
    EXPECT_TRUE(q0["exact"].get<bool>());
    EXPECT_FALSE(q1["exact"].get<bool>()) << "the naive curve is computed over frames";
    EXPECT_TRUE(q1["naive"].get<bool>()) << "…and says so";
    EXPECT_EQ(q1["stride"], 1) << "the exact curve is not dropped to a preview";
    EXPECT_FALSE(q1["mode_scores"].get<bool>());
    EXPECT_TRUE(q2["exact"].get<bool>());
    EXPECT_TRUE(q2["mode_scores"].get<bool>()) << "the naive curve is drawn once computed";
    EXPECT_GT(q2["frame"].get<int>() - q1["frame"].get<int>(), 2) << "a slice per frame, not in one";
    bool line = false;
    for (const Json& w : read_json(dir / "during.json")) {
        line = line || (w["kind"] == "message" && w["label"].get<std::string>().find("naive-angle curve") != std::string::npos);
    }
    EXPECT_TRUE(line) << "its own progress line";
    const std::vector<float> before = read_floats(dir / "before.f32"), during = read_floats(dir / "during.f32"),
                             after = read_floats(dir / "after.f32");
    ASSERT_EQ(before.size(), static_cast<std::size_t>(kDistances));
    EXPECT_TRUE(before == during) << "the exact curve changed while the naive one was computed";
    EXPECT_TRUE(before == after);
}

}  // namespace
}  // namespace ropelab
