// tests/ui: the views in the real window: drawn, following the position, the golden images;
// duplicate ImGui IDs named; what a change recomputes.
#include "lab_test.h"

#include <cstdlib>

#include "state/compare.h"

namespace ropelab {
namespace {

// Every view at 1280×720: not blank, and it changes where it should when the position moves.
TEST_F(LabTest, EveryViewRendersAndFollowsThePosition) {
    const bool follows_position[kViewCount] = {true, true, false, true, true, false, true, true, false};
    for (int v = 0; v < kViewCount; ++v) {
        set([&](LabParams& p) { p.focused_view = v; });
        set([&](LabParams& p) { p.position = 40; });
        const Image before = capture();
        ASSERT_EQ(before.width, 1280);
        ASSERT_EQ(before.height, 720);
        EXPECT_GT(spread(before), 10.0) << "view " << v + 1 << " looks blank";
        set([&](LabParams& p) { p.position = 300; });
        const Image after = capture();
        const double changed = difference(before, after, 420);  // the view area, right of the controls
        if (follows_position[v]) {
            EXPECT_GT(changed, 0.02) << "view " << v + 1 << " ignores the position";
        } else {
            EXPECT_LT(changed, 0.02) << "view " << v + 1 << " changed without reason";
        }
    }
}

// Golden images (made by this app's own --screenshot, looked at, committed): frequencies and
// numbers views of the Llama 3.1 preset. Tolerance: mean channel difference below 1.5.
TEST_F(LabTest, GoldenImages) {
    preset("llama3.1-8b");
    frames(100);  // the preset's notice read: the next change clears it, and the pictures hold no status line
    set([&](LabParams& p) { p.position = 1000; });
    set([&](LabParams& p) { p.focused_pair = 30; });
    for (int v : {6, 7}) {
        set([&](LabParams& p) { p.focused_view = v - 1; });
        const std::string golden = std::string(ROPELAB_SOURCE_DIR) + "/tests/ui/golden/view" + std::to_string(v) + ".png";
        if (std::getenv("ROPELAB_UPDATE_GOLDEN")) {  // regenerate, then look at them before committing
            frames(4, {}, golden);
            continue;
        }
        const Image image = capture(4);
        const Image expected = load_png(golden);
        ASSERT_GT(expected.width, 0) << "missing " << golden;
        EXPECT_LT(difference(image, expected), 1.5) << "view " << v << " differs from " << golden;
    }
}

// Two widgets with one ImGui ID within a frame are caught and named.
TEST_F(LabTest, DuplicateImGuiIdsAreNamed) {
    const std::size_t before = ui::log().duplicates().size();
    window_->set_input_hook({});
    window_->frame(lab_->params(), [&](const lab::Input&) {
        ui::log().begin_frame();
        ImGui::Begin("twins");
        ui::header("Export");
        ui::button("Export");
        ImGui::End();
    });
    ASSERT_EQ(ui::log().duplicates().size(), before + 1);
    const std::string clash = ui::log().duplicates().back();
    EXPECT_NE(clash.find("header \"Export\""), std::string::npos) << clash;
    EXPECT_NE(clash.find("button \"Export\""), std::string::npos) << clash;
}

// Derived data is keyed per product: focusing a pair recomputes its series only.
TEST_F(LabTest, FocusingAPairDoesNotRecomputeTheCurves) {
    frames(2);
    const int curves = lab_->compute().recompute_count();
    const int focus = lab_->compute().focus_refresh_count();
    set([&](LabParams& p) { p.focused_pair = 17; });
    frames(2);
    EXPECT_EQ(lab_->compute().recompute_count(), curves);
    EXPECT_EQ(lab_->compute().focus_refresh_count(), focus + 1);
    set([&](LabParams& p) { p.model.rope_theta = 20000; });
    frames(2);
    EXPECT_EQ(lab_->compute().recompute_count(), curves + 1);
}

// Compare mode: dragging the base's θ recomputes the base alone; the compared curves keep their
// data and series, and every curve ends exact (one refined per quiet frame) with the values of
// an independent float64 evaluation of that setting's own sum.
TEST_F(LabTest, CompareRecomputesOnlyTheSettingThatChanged) {
    set([&](LabParams& p) {
        p = with_compared(p, {"rope_type=yarn,factor=8", "llama3-8b", "layout=half"});
        p.max_distance = 1 << 20;
        p.vectors = VectorChoice::Random;
    });
    frames(2);
    EXPECT_GT(frames_until_exact(), 1);  // four curves of 2^20: over several frames
    EXPECT_EQ(lab_->compute().largest_stride(), 1);
    const int made = lab_->compute().setting_computations();
    set([&](LabParams& p) { p.model.rope_theta = 20000; });
    frames(1);
    EXPECT_EQ(lab_->compute().setting_computations(), made + 1);  // the base, not the three others
    EXPECT_EQ(lab_->compute().setting_stride(2), 1);               // their exact curves stay
    EXPECT_GE(frames_until_exact(), 1);
    EXPECT_EQ(lab_->compute().largest_stride(), 1);
    // Reading single values back (series_value binds the buffer, hence not const).
    auto& device = const_cast<ComputeDevice&>(lab_->compute().device());
    for (int s = 0; s < 4; ++s) {
        const LabData& d = lab_->compute().setting_data(s);
        for (std::int64_t delta : {0, 1, 777, 123456, (1 << 20) - 1}) {
            EXPECT_NEAR(device.series_value(setting_series(s), delta), evaluate(d.rope_sum, delta), 1e-5 * d.coefficients.l1())
                << s << " " << delta;
        }
    }
    // An edit of one compared setting recomputes that one.
    set([&](LabParams& p) { p.compared[1].model.rope_theta = 1e6; });
    frames(1);
    EXPECT_EQ(lab_->compute().setting_computations(), made + 2);
}

}  // namespace
}  // namespace ropelab
