// tests/ui through `gui --script`: the frequencies view (6) of a multi-axis model colours each
// pair by the axis that turns it and says how far each axis turns across the image; with
// Qwen2-VL's chunked sections the width's 24 pairs barely turn across 16 columns.
#include <array>
#include <cstdlib>
#include <string>
#include <vector>

#include "script.h"

namespace ropelab::ui_script {
namespace {

// The dark theme's axis colours (views/colors.cpp): t, h, w.
constexpr std::array<std::array<int, 3>, 3> kAxisColours = {{{230, 159, 0}, {86, 180, 233}, {40, 200, 150}}};

// Pixels within a few levels of `rgb`: the dots' centres, drawn in the flat colour.
int pixels_of(const std::vector<unsigned char>& rgba, const std::array<int, 3>& rgb) {
    int n = 0;
    for (std::size_t i = 0; i + 3 < rgba.size(); i += 4) {
        n += std::abs(rgba[i] - rgb[0]) <= 6 && std::abs(rgba[i + 1] - rgb[1]) <= 6 && std::abs(rgba[i + 2] - rgb[2]) <= 6;
    }
    return n;
}

std::vector<std::string> readouts_with(const Json& widgets, const std::string& part) {
    std::vector<std::string> out;
    for (const Json& w : widgets) {
        if (w["kind"] == "readout" && w["label"].get<std::string>().find(part) != std::string::npos) out.push_back(w["label"]);
    }
    return out;
}

// The view large (key 6), its readouts and a screenshot.
test::Result show_frequencies(const fs::path& dir, const std::string& args) {
    const Json script = {
        {{"wait", 3}}, {{"key", "6"}}, {{"wait", 3}}, {{"widgets", "w.json"}}, {{"screenshot", "f.png"}},
    };
    return gui(dir, script, args);
}

TEST(FrequencyAxesWindow, ChunkedSectionsColourEachAxisAndTheWidthBarelyTurns) {
    const fs::path dir = fresh_dir("freq_axes_sections");
    const test::Result r = show_frequencies(
        dir, "--multi-axis sections --mrope-section 16,24,24 --rope-theta 1e6 --layout half --grid-height 12 --grid-width 16");
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const Json widgets = read_json(dir / "w.json");
    // t: pairs 0..15, fastest 2π tokens: 1/2π turns across the one frame.
    const auto t = readouts_with(widgets, "t (frames): 16 pairs, ");
    ASSERT_EQ(t.size(), 1u) << widgets.dump(1);
    EXPECT_NE(t[0].find("turns across 1 frame"), std::string::npos) << t[0];
    const auto h = readouts_with(widgets, "h (height): 24 pairs, ");
    ASSERT_EQ(h.size(), 1u);
    EXPECT_NE(h[0].find("across 12 tokens"), std::string::npos) << h[0];
    // w: pairs 40..63, wavelengths 2π·10^(6·80/128) ≈ 3.5e4 … 5.1e6: 16 columns turn them by
    // 3.2e-06 … 0.00045 of a turn.
    const auto w = readouts_with(widgets, "w (width): 24 pairs, ");
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w[0], "w (width): 24 pairs, 3.2e-06–0.00045 turns across 16 tokens");
    int width = 0, height = 0;
    const auto rgba = pixels(dir / "f.png", width, height);
    ASSERT_FALSE(rgba.empty());
    for (std::size_t a = 0; a < kAxisColours.size(); ++a) {
        EXPECT_GT(pixels_of(rgba, kAxisColours[a]), 40) << "axis " << "thw"[a] << "'s colour on the screen";
    }
}

TEST(FrequencyAxesWindow, OneDimensionalModelHasNoAxisColours) {
    const fs::path dir = fresh_dir("freq_axes_1d");
    const test::Result r = show_frequencies(dir, "");
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    EXPECT_TRUE(readouts_with(read_json(dir / "w.json"), "pairs, ").empty());
    int width = 0, height = 0;
    const auto rgba = pixels(dir / "f.png", width, height);
    ASSERT_FALSE(rgba.empty());
    EXPECT_LT(pixels_of(rgba, kAxisColours[2]), 5) << "the width's colour belongs to multi-axis models";
}

TEST(FrequencyAxesWindow, CompareShowsEachSettingsPairsByAxis) {
    const fs::path dir = fresh_dir("freq_axes_compare");
    // Qwen3-VL's interleaving against the same sections chunked (Qwen2-VL's rule).
    const test::Result r = show_frequencies(dir, "--multi-axis interleaved --mrope-section 24,20,20 --rope-theta 5e6 "
                                                 "--compare \"multi_axis=sections,name=chunked\"");
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const Json widgets = read_json(dir / "w.json");
    EXPECT_EQ(readouts_with(widgets, ": t 24 h 20 w 20").size(), 2u) << widgets.dump(1);
    EXPECT_EQ(readouts_with(widgets, "chunked: t 24 h 20 w 20").size(), 1u);
    int width = 0, height = 0;
    const auto rgba = pixels(dir / "f.png", width, height);
    ASSERT_FALSE(rgba.empty());
    for (std::size_t a = 0; a < kAxisColours.size(); ++a) EXPECT_GT(pixels_of(rgba, kAxisColours[a]), 40) << "thw"[a];
}

// Every text of the view fits its box: all views, then the view large, alone and compared, at
// 1280×720, 1920×1080 and UI scale 2.
TEST(FrequencyAxesWindow, TextFitsAtEverySize) {
    const std::string model = "--multi-axis sections --mrope-section 16,24,24 --rope-theta 1e6 --layout half --grid-height 12 ";
    const std::string compared = "--multi-axis interleaved --mrope-section 24,20,20 --rope-theta 5e6 "
                                 "--compare \"multi_axis=sections,name=chunked\" ";
    int run = 0;
    for (const std::string size : {"--size 1280x720", "--size 1920x1080", "--size 1280x720 --ui-scale 2"}) {
        for (const std::string& args : {model, compared}) {
            const fs::path dir = fresh_dir("freq_axes_fits_" + std::to_string(run++));
            const Json script = {
                {{"wait", 3}}, {{"clipped", "all.json"}}, {{"key", "6"}}, {{"wait", 3}}, {{"clipped", "large.json"}},
            };
            const test::Result r = gui(dir, script, args + size);
            ASSERT_EQ(r.status, 0) << r.err << r.out;
            for (const char* dump : {"all.json", "large.json"}) {
                const Json clipped = read_json(dir / dump);
                ASSERT_TRUE(clipped.is_array()) << dump;
                EXPECT_TRUE(clipped.empty()) << args << size << " " << dump << ": " << clipped.dump(1);
            }
        }
    }
}

}  // namespace
}  // namespace ropelab::ui_script
