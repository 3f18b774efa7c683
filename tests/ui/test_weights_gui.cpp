// tests/ui through `gui --script`: view 12 on a GGUF named by --config — W shows it large, the
// layer is picked by clicking the view's own "Weights layer" combo, and the screenshots hold the
// heatmap (each row's strongest pair in the colour map's yellow) for both layers, which differ.
#include <array>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "script.h"
#include "support/gguf_writer.h"

namespace ropelab::ui_script {
namespace {

constexpr int kWgHeads = 4, kWgKvHeads = 2, kWgHeadDim = 16, kWgCols = 32;

std::string wg_bytes(int layer, int matrix, int rows) {
    std::string out;
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < kWgCols; ++c) {
            out += gguf_test::le(static_cast<float>(std::sin(0.37 * r + 1.3 * c + 2.1 * layer + 0.5 * matrix) * (1.0 + 0.1 * r)));
        }
    }
    return out;
}

std::string wg_gguf() {
    gguf_test::Writer w;
    w.add_string("general.architecture", "llama");
    w.add_u32("llama.block_count", 2);
    w.add_u32("llama.context_length", 4096);
    w.add_u32("llama.embedding_length", kWgCols);
    w.add_u32("llama.attention.head_count", kWgHeads);
    w.add_u32("llama.attention.head_count_kv", kWgKvHeads);
    w.add_u32("llama.attention.key_length", kWgHeadDim);
    w.add_u32("llama.attention.value_length", kWgHeadDim);
    w.add_u32("llama.rope.dimension_count", kWgHeadDim);
    w.add_f32("llama.rope.freq_base", 10000.0f);
    for (int l = 0; l < 2; ++l) {
        w.add_tensor("blk." + std::to_string(l) + ".attn_q.weight", {kWgCols, kWgHeads * kWgHeadDim}, 0, wg_bytes(l, 0, kWgHeads * kWgHeadDim));
        w.add_tensor("blk." + std::to_string(l) + ".attn_k.weight", {kWgCols, kWgKvHeads * kWgHeadDim}, 0, wg_bytes(l, 1, kWgKvHeads * kWgHeadDim));
    }
    return w.bytes();
}

// Pixels of the colour map's top (core/colormap.h: viridis's yellow, 253 231 37).
int wg_yellow(const std::vector<unsigned char>& rgba) {
    int n = 0;
    for (std::size_t i = 0; i + 3 < rgba.size(); i += 4) n += rgba[i] >= 245 && rgba[i + 1] >= 222 && rgba[i + 1] <= 240 && rgba[i + 2] <= 50;
    return n;
}

TEST(WeightsWindow, ViewTwelveShowsAGgufsLayersPickedByClicking) {
    const fs::path dir = fresh_dir("weights_view");
    gguf_test::write_file((dir / "tiny.gguf").string(), wg_gguf());
    const Json script = {
        {{"wait", 2}},
        {{"key", "W"}},
        {{"wait", 3}},
        {{"state", "before.json"}},
        {{"screenshot", "layer0.png"}},
        {{"click", "Weights layer"}},
        {{"click", "layer 1"}},
        {{"wait", 3}},
        {{"state", "after.json"}},
        {{"screenshot", "layer1.png"}},
    };
    const test::Result r = gui(dir, script, "--config '" + (dir / "tiny.gguf").string() + "'");
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const Json before = session_of(dir / "before.json"), after = session_of(dir / "after.json");
    EXPECT_EQ(before["layout"]["focused_view"], 11);  // view 12, large
    EXPECT_EQ(before["weights"]["layer"], 0);
    EXPECT_EQ(after["weights"]["layer"], 1);
    int w0 = 0, h0 = 0, w1 = 0, h1 = 0;
    const std::vector<unsigned char> layer0 = pixels(dir / "layer0.png", w0, h0), layer1 = pixels(dir / "layer1.png", w1, h1);
    ASSERT_EQ(layer0.size(), layer1.size());
    ASSERT_FALSE(layer0.empty());
    // Four heads, each row's strongest pair a yellow cell: the heatmap fills most of 1280×720,
    // so a cell (an eighth of its width, a quarter of its height) is thousands of pixels.
    EXPECT_GT(wg_yellow(layer0), 4 * 2000);
    EXPECT_GT(wg_yellow(layer1), 4 * 2000);
    std::size_t differing = 0;
    for (std::size_t i = 0; i < layer0.size(); i += 4) differing += layer0[i] != layer1[i] || layer0[i + 1] != layer1[i + 1];
    EXPECT_GT(differing, 10000u) << "layer 1's heatmap is layer 0's";
}

}  // namespace
}  // namespace ropelab::ui_script
