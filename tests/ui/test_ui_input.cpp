// tests/ui: input as the window receives it (keys, drags, clicks between GLFW and ImGui) and
// what it does to the lab's state; bad values refused; minimised and restored.
#include "lab_test.h"

#include <complex>
#include <fstream>

#include "idle_pacer.h"
#include "core/presets.h"
#include "core/rotation.h"

namespace ropelab {
namespace {

TEST_F(LabTest, ArrowKeysStepTheFocusedPairByTheta) {
    set([&](LabParams& p) { p.focused_pair = 5; });
    frames(2);
    press_key(ImGuiKey_RightArrow, 10);
    EXPECT_EQ(lab_->params().position, 10);
    const RopeFrequencies& f = lab_->compute().data().freqs;
    const double theta = std::pow(10000.0, -10.0 / 128);  // pair 5 of d = 128
    const double drawn = std::arg(pair_rotor(f, 5, lab_->params().position));
    EXPECT_NEAR(drawn, std::remainder(10 * theta, 2 * M_PI), 1e-12);
    press_key(ImGuiKey_LeftArrow, 3);
    EXPECT_EQ(lab_->params().position, 7);
}

TEST_F(LabTest, SpaceTogglesPlaybackAndPlaybackAdvances) {
    frames(2);
    press_key(ImGuiKey_Space, 1);
    EXPECT_TRUE(lab_->params().playing);
    const std::int64_t before = lab_->params().position;
    frames(60);  // one second at the default 4 positions per second
    EXPECT_EQ(lab_->params().position - before, 4);
}

TEST_F(LabTest, ChoosingAPresetChangesTheFrequencies) {
    frames(2);
    const std::vector<double> textbook = lab_->compute().data().freqs.inv_freq;
    ASSERT_TRUE(preset("llama3.1-8b"));
    frames(2);
    const auto& now = lab_->compute().data().freqs.inv_freq;
    const auto expected = compute_frequencies(preset_or_throw("llama3.1-8b").config).inv_freq;
    EXPECT_EQ(now, expected);
    EXPECT_NE(now, textbook);
}

TEST_F(LabTest, DraggingThetaChangesTheScoreCurve) {
    frames(3);
    const double theta_before = lab_->params().model.rope_theta;
    const float score_before = device_->series_value(Series::Scores, 100);
    const int version_before = lab_->compute().series_version();
    const ImVec2 start = center_of("θ (base)");
    frames(12, [&](int k) {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = ImVec2(start.x + (k >= 2 ? 4.0f * (k - 1) : 0.0f), start.y);
        io.MouseDown[0] = k >= 1 && k < 11;
    });
    frames(3);
    EXPECT_GT(lab_->params().model.rope_theta, theta_before);
    EXPECT_GT(lab_->compute().series_version(), version_before);
    EXPECT_NE(device_->series_value(Series::Scores, 100), score_before);
}

TEST_F(LabTest, LayoutToggleRepairsTheComponents) {
    set([&](LabParams& p) { p.vectors = VectorChoice::Random; });
    frames(3);
    click(center_of("half"));
    frames(2);
    ASSERT_EQ(lab_->params().model.layout, PairLayout::Half);
    const LabData& d = lab_->compute().data();
    // Half layout: pair i is (q_i, q_{i+64}); checked against the coefficients the curves use.
    for (int i : {0, 1, 17, 63}) {
        const std::complex<double> q(d.q[i], d.q[i + 64]), k(d.k[i], d.k[i + 64]);
        EXPECT_NEAR(std::abs(d.coefficients.pair[i] - q * std::conj(k)), 0.0, 1e-12) << i;
    }
    click(center_of("interleaved"));
    frames(2);
    EXPECT_EQ(lab_->params().model.layout, PairLayout::Interleaved);
    const std::complex<double> q(d.q[2], d.q[3]), k(d.k[2], d.k[3]);
    EXPECT_NEAR(std::abs(lab_->compute().data().coefficients.pair[1] - q * std::conj(k)), 0.0, 1e-12);
}

TEST_F(LabTest, BadValuesAreRefusedAndThePreviousValueStays) {
    frames(2);
    ModelConfig odd = lab_->params().model;
    odd.head_dim = 127;
    command(lab::cmd::SetModel{odd});
    EXPECT_EQ(lab_->params().model.head_dim, 128);
    EXPECT_NE(lab_->status().error.find("127"), std::string::npos);
    const std::string broken = ::testing::TempDir() + "/ropelab_ui_broken.json";
    std::ofstream(broken) << "{\"head_dim\": 64, \"rope_theta\": \"x\"}";
    command(lab::cmd::LoadConfig{.path = broken, .layer_type = "", .given = {}, .layer = -1});
    EXPECT_EQ(lab_->params().model.head_dim, 128);
    EXPECT_NE(lab_->status().error.find("rope_theta"), std::string::npos);
    std::remove(broken.c_str());
}

// Minimised for 1,000 frames: nothing drawn, no GL error, no playback running on behind the
// user's back, and the same picture when it comes back.
TEST_F(LabTest, MinimisedForAThousandFramesThenRestored) {
    set([&](LabParams& p) { p.position = 100; });
    const Image before = capture();
    set([&](LabParams& p) { p.playing = true; });
    window_->simulate_minimised(true);
    int drawn = 0;
    for (int k = 0; k < 1000; ++k) {
        drawn += window_->frame(lab_->params(), [&](const lab::Input& c) { view_->frame(1.0 / 60, c); }) ? 1 : 0;
    }
    window_->simulate_minimised(false);
    EXPECT_EQ(drawn, 0);
    EXPECT_EQ(lab_->params().position, 100) << "playback ran while minimised";
    set([&](LabParams& p) { p.playing = false; });
    const Image after = capture();
    EXPECT_LT(difference(before, after), 0.5);
    EXPECT_GT(spread(after), 10.0);
}

// ---- pacing the interactive window (app/idle_pacer.h) -------------------------------------

// At 60 Hz the next frame starts 1/60 s after the last one began, never sooner; once three frames
// changed nothing the window waits for input, at most 0.1 s; input, a new picture or work in
// progress brings back the full rate at once.
TEST(IdlePacer, CapsAtTheRefreshRateAndSleepsOnlyWhenNothingMoves) {
    IdlePacer pacer(60.0);
    const double period = 1.0 / 60.0;
    EXPECT_EQ(pacer.wait_before_next(0.0), 0.0);  // the first frame at once
    double t = 0.0;
    pacer.after_frame({.started = t, .input_events = 0, .busy = false, .picture = 1});
    EXPECT_NEAR(pacer.wait_before_next(t + 0.004), period - 0.004, 1e-12);  // drawn in 4 ms: wait out the refresh
    EXPECT_EQ(pacer.wait_before_next(t + 0.02), 0.0);                       // a slow frame: no wait
    for (int quiet = 1; quiet <= IdlePacer::kSettleFrames; ++quiet) {
        t += period;
        pacer.after_frame({.started = t, .input_events = 0, .busy = false, .picture = 1});
        EXPECT_EQ(pacer.idle(), quiet == IdlePacer::kSettleFrames) << quiet;
    }
    EXPECT_EQ(pacer.wait_before_next(t + 0.001), IdlePacer::kIdleWaitSeconds);
    // Each kind of change wakes it for kSettleFrames more frames.
    const IdlePacer::Frame changes[] = {{.started = 0, .input_events = 1, .busy = false, .picture = 1},
                                        {.started = 0, .input_events = 1, .busy = false, .picture = 2},
                                        {.started = 0, .input_events = 1, .busy = true, .picture = 2}};
    for (IdlePacer::Frame f : changes) {
        f.started = t += period;
        pacer.after_frame(f);
        EXPECT_FALSE(pacer.idle());
        EXPECT_LT(pacer.wait_before_next(t + 0.001), period);
        for (int quiet = 1; quiet <= IdlePacer::kSettleFrames; ++quiet) {
            f.started = t += period;
            f.busy = false;
            pacer.after_frame(f);
        }
        EXPECT_TRUE(pacer.idle());
    }
    // A screen that does not say its rate is taken as 60 Hz; a 144 Hz one gets 144 frames.
    IdlePacer unknown(0.0), fast(144.0);
    unknown.after_frame({.started = 0.0, .input_events = 0, .busy = false, .picture = 0});
    fast.after_frame({.started = 0.0, .input_events = 0, .busy = false, .picture = 0});
    EXPECT_NEAR(unknown.wait_before_next(0.0), period, 1e-12);
    EXPECT_NEAR(fast.wait_before_next(0.0), 1.0 / 144.0, 1e-12);
}

// The fingerprint is of the picture: the same frame twice gives the same value, a moved position
// (one rotor drawn elsewhere) another.
TEST_F(LabTest, TheDrawFingerprintFollowsThePicture) {
    set([&](LabParams& p) { p.position = 3; p.playing = false; });
    frames(4);
    const std::uint64_t a = draw_fingerprint(ImGui::GetDrawData());
    frames(1);
    EXPECT_EQ(draw_fingerprint(ImGui::GetDrawData()), a);
    set([&](LabParams& p) { p.position = 4; });
    frames(2);
    EXPECT_NE(draw_fingerprint(ImGui::GetDrawData()), a);
    EXPECT_NE(draw_fingerprint(nullptr), a);
}

}  // namespace
}  // namespace ropelab
