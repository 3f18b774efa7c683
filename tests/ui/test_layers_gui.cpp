// tests/ui through `gui --script`: a config's layer picked from the panel's Layer combo (Llama 4
// Scout: layer 3 is NoPE, and the frequencies view says so), and the p-RoPE slider dragged in
// the panel (the frequencies view then counts and marks the unrotated pairs).
#include <array>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "script.h"

namespace ropelab::ui_script {
namespace {

bool has_readout(const Json& widgets, const std::string& label) {
    for (const Json& w : widgets) {
        if (w["kind"] == "readout" && w["label"] == label) return true;
    }
    return false;
}

std::string readout_with(const Json& widgets, const std::string& part) {
    for (const Json& w : widgets) {
        if (w["kind"] == "readout" && w["label"].get<std::string>().find(part) != std::string::npos) return w["label"];
    }
    return "";
}

// Pixels within a few levels of `rgb`.
int pixels_coloured(const std::vector<unsigned char>& rgba, const std::array<int, 3>& rgb) {
    int n = 0;
    for (std::size_t i = 0; i + 3 < rgba.size(); i += 4) {
        n += std::abs(rgba[i] - rgb[0]) <= 6 && std::abs(rgba[i + 1] - rgb[1]) <= 6 && std::abs(rgba[i + 2] - rgb[2]) <= 6;
    }
    return n;
}

// The dark theme's colour of unrotated pairs (views/colors.cpp: the palette's bf16 purple).
constexpr std::array<int, 3> kUnrotated = {210, 120, 255};

TEST(LayersWindow, PickingLlama4Layer3ShowsNoPE) {
    const fs::path dir = fresh_dir("layers_llama4");
    const std::string config = std::string(ROPELAB_SOURCE_DIR) + "/tests/data/configs/llama-4-scout-17b-16e.json";
    const Json script = {
        {{"wait", 2}},
        {{"state", "before.json"}},
        {{"click", "Layer"}},
        {{"click", "3: full_attention (NoPE, temperature)"}},
        {{"wait", 2}},
        {{"key", "6"}},
        {{"wait", 3}},
        {{"state", "after.json"}},
        {{"widgets", "w.json"}},
        {{"screenshot", "llama4-layer3-nope.png"}},
    };
    const test::Result r = gui(dir, script, "--config " + config);
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const Json before = session_of(dir / "before.json"), after = session_of(dir / "after.json");
    // No layer picked: the first RoPE layer's rules (layer 0, chunks of 8192).
    EXPECT_EQ(before["layer"], -1);
    EXPECT_EQ(before["model"]["attention"]["rope"], true);
    EXPECT_EQ(before["model"]["attention"]["attention_chunk"], 8192);
    EXPECT_EQ(after["layer"], 3);
    EXPECT_EQ(after["model"]["attention"]["rope"], false);
    EXPECT_EQ(after["model"]["attention"]["attention_chunk"], 0);
    EXPECT_EQ(after["model"]["attention"]["temperature_tuning"], true);
    EXPECT_EQ(after["model"]["rope_theta"], before["model"]["rope_theta"]);
    const Json widgets = read_json(dir / "w.json");
    EXPECT_TRUE(has_readout(widgets, "this layer applies no RoPE (NoPE)")) << widgets.dump(1);
}

TEST(LayersWindow, DraggingPRopeMarksUnrotatedPairs) {
    const fs::path dir = fresh_dir("layers_prope");
    const Json script = {
        {{"wait", 2}},
        {{"drag", "p-RoPE"}, {"at", {0.02, 0.5}}, {"dx", 80}},
        {{"wait", 2}},
        {{"key", "6"}},
        {{"wait", 3}},
        {{"state", "after.json"}},
        {{"widgets", "w.json"}},
        {{"screenshot", "p-rope-frequencies.png"}},
    };
    const test::Result r = gui(dir, script);  // the textbook head: 64 pairs
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const double p = session_of(dir / "after.json")["model"]["p_rope"].get<double>();
    const double pairs = p * 64;
    EXPECT_GT(pairs, 0.5) << "the drag moved the slider";
    EXPECT_LT(pairs, 63.5);
    EXPECT_NEAR(pairs, std::round(pairs), 1e-9) << "the slider snaps to whole pairs";
    const int unrotated = static_cast<int>(std::lround(pairs));
    const Json widgets = read_json(dir / "w.json");
    EXPECT_EQ(readout_with(widgets, "not rotated (p-RoPE)"), std::to_string(unrotated) + " not rotated (p-RoPE)") << widgets.dump(1);
    int width = 0, height = 0;
    const auto rgba = pixels(dir / "p-rope-frequencies.png", width, height);
    ASSERT_FALSE(rgba.empty());
    EXPECT_GT(pixels_coloured(rgba, kUnrotated), 40) << "the unrotated pairs' markers on the screen";
}

}  // namespace
}  // namespace ropelab::ui_script
