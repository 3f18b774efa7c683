// tests/lab/test_attention_product: the attention view's decimated matrix against the float64
// reference (core/attention.h: attention_reference, every entry from vectors rotated one by one).
// One cell per bin: every bin is its cell exactly; sampled rows: each bin the largest of its
// cells in the bin row's query row (its last row); the readouts recomputed from the reference
// weights; the masked cells exactly those the layer's definition hides; the panels' pixels.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/attention.h"
#include "lab/attention_input.h"
#include "lab/attention_product.h"

namespace ropelab {
namespace {

LabParams params(std::int64_t tokens, TokenVectors vectors) {
    LabParams p;
    p.tokens = "text:" + std::to_string(tokens);
    p.token_vectors = vectors;
    p.seed = 3;
    p.shared_part = 0.4;
    p.readout_distance = 5;
    p.model.head_dim = 32;
    return p;
}

lab::AttentionImage computed(const LabParams& p, const ModelConfig& model, lab::AttentionWindow w) {
    lab::AttentionProduct product;
    product.update(p, model, w, true);
    EXPECT_TRUE(product.current());
    EXPECT_TRUE(product.image().error.empty()) << product.image().error;
    return product.image();
}

TEST(AttentionProduct, OneCellPerBinIsTheReferenceMatrix) {
    for (const auto& [window, chunk] : {std::pair<std::int64_t, std::int64_t>{0, 0}, {7, 0}, {0, 10}}) {
        const LabParams p = params(40, TokenVectors::Random);
        ModelConfig model = p.model;
        model.attention.sliding_window = window;
        model.attention.attention_chunk = chunk;
        const lab::AttentionImage im = computed(p, model, {0, 40, 0, 40, 64});
        const AttentionMatrix ref = attention_reference(lab::attention_input(p, model));
        ASSERT_EQ(im.rows, 40);
        ASSERT_EQ(im.cols, 40);
        ASSERT_TRUE(im.complete());
        for (int m = 0; m < 40; ++m) {
            ASSERT_EQ(im.row_m[static_cast<std::size_t>(m)], m);
            double mass = 0, distance = 0, entropy = 0;
            for (int n = 0; n < 40; ++n) {
                const auto at = static_cast<std::size_t>(m * 40 + n);
                const double logit = ref.logits[at], weight = ref.weights[at];
                EXPECT_NEAR(im.logit_max[at], logit, 1e-6 * std::abs(logit) + 1e-6) << m << "," << n;
                EXPECT_NEAR(im.logit(m, n), logit, 1e-12 * std::abs(logit) + 1e-12) << "the hover's exact logit";
                EXPECT_NEAR(im.weight(m, n), weight, 1e-12) << "the hover's exact weight";
                if (!ref.visible[at]) {
                    EXPECT_TRUE(std::isnan(im.visible_max[at])) << "masked " << m << "," << n << " w " << window << " c " << chunk;
                    EXPECT_TRUE(std::isnan(im.weight_max[at]));
                    continue;
                }
                EXPECT_NEAR(im.visible_max[at], logit, 1e-6 * std::abs(logit) + 1e-6);
                EXPECT_NEAR(im.weight_max[at], weight, 1e-6 * weight + 1e-9);
                if (m - n < p.readout_distance) mass += weight;
                distance += weight * (m - n);
                if (weight > 0) entropy -= weight * std::log(weight);
            }
            const RowReadout& o = im.readouts[static_cast<std::size_t>(m)];
            EXPECT_NEAR(o.mass_within, mass, 1e-12);
            EXPECT_NEAR(o.mean_distance, distance, 1e-10);
            EXPECT_NEAR(o.entropy, entropy, 1e-10);
        }
    }
}

TEST(AttentionProduct, SampledRowsShowTheirLastRowAndEachBinItsLargestCell) {
    const LabParams p = params(300, TokenVectors::Needle);
    ModelConfig model = p.model;
    model.attention.sliding_window = 50;
    // A zoomed window, 120 rows × 120 keys in 16 bins: bins of 7 or 8 cells.
    const lab::AttentionImage im = computed(p, model, {150, 270, 100, 220, 16});
    const AttentionMatrix ref = attention_reference(lab::attention_input(p, model));
    ASSERT_EQ(im.rows, 16);
    ASSERT_EQ(im.cols, 16);
    for (int r = 0; r < 16; ++r) {
        const std::int64_t m = 150 + 120 * (r + 1) / 16 - 1;
        ASSERT_EQ(im.row_m[static_cast<std::size_t>(r)], m) << "the bin row's last row";
        for (int c = 0; c < 16; ++c) {
            const std::int64_t from = 100 + 120 * c / 16, to = 100 + 120 * (c + 1) / 16;
            double top = -std::numeric_limits<double>::infinity(), visible = top, weight = top;
            for (std::int64_t n = from; n < to; ++n) {
                const auto at = static_cast<std::size_t>(m * 300 + n);
                top = std::max(top, ref.logits[at]);
                if (ref.visible[at]) {
                    visible = std::max(visible, ref.logits[at]);
                    weight = std::max(weight, ref.weights[at]);
                }
            }
            const auto at = static_cast<std::size_t>(r * 16 + c);
            EXPECT_NEAR(im.logit_max[at], top, 1e-6 * std::abs(top) + 1e-6);
            if (std::isinf(visible)) {
                EXPECT_TRUE(std::isnan(im.visible_max[at])) << r << "," << c << ": every key of the bin masked";
            } else {
                EXPECT_NEAR(im.visible_max[at], visible, 1e-6 * std::abs(visible) + 1e-6);
                EXPECT_NEAR(im.weight_max[at], weight, 1e-6 * weight + 1e-9);
            }
        }
    }
    // The last bin row is the last token's: the needle's query. Zoomed onto it, the needle's key
    // (token 16) is out of the 50-token window: masked.
    const lab::AttentionImage last = computed(p, model, {292, 300, 10, 18, 16});
    EXPECT_EQ(last.row_m.back(), 299);
    EXPECT_TRUE(std::isnan(last.visible_max[7 * 8 + 6]));
}

// On a NoPE layer the last row finds the needle: k_needle = q_last gives |q|²/√d, far above a
// random key's logit. (With RoPE the key is turned by the distance and need not win.)
TEST(AttentionProduct, OnANoPELayerTheLastRowFindsTheNeedle) {
    const LabParams p = params(200, TokenVectors::Needle);
    ModelConfig model = p.model;
    model.attention.rope = false;
    const lab::AttentionImage im = computed(p, model, {0, 200, 0, 200, 256});
    const std::size_t last = static_cast<std::size_t>(199 * 200);
    std::int64_t best = 0;
    for (std::int64_t n = 1; n < 200; ++n) {
        if (im.weight_max[last + static_cast<std::size_t>(n)] > im.weight_max[last + static_cast<std::size_t>(best)]) best = n;
    }
    EXPECT_EQ(best, p.needle);
    EXPECT_FALSE(im.toeplitz);
}

TEST(AttentionProduct, SameVectorsAreTheScoreCurveAsAToeplitzMatrix) {
    LabParams p = params(64, TokenVectors::Same);
    p.vectors = VectorChoice::Random;
    const lab::AttentionImage im = computed(p, p.model, {0, 64, 0, 64, 64});
    EXPECT_TRUE(im.toeplitz);
    // Constant along every diagonal m − n = Δ.
    for (int delta = -20; delta <= 20; delta += 5) {
        for (int m = std::max(0, delta); m < 64 && m - delta < 64; ++m) {
            const auto at = static_cast<std::size_t>(m * 64 + (m - delta));
            EXPECT_FLOAT_EQ(im.logit_max[at], im.logit_max[static_cast<std::size_t>(std::max(0, delta) * 64 + std::max(0, delta) - delta)]);
        }
    }
}

TEST(AttentionProduct, TheNewestInputsWin) {
    lab::AttentionProduct product;
    const LabParams a = params(3000, TokenVectors::Random), b = params(77, TokenVectors::Random);
    product.update(a, a.model, {0, 3000, 0, 3000, 128}, false);
    product.update(b, b.model, {0, 77, 0, 77, 128}, true);
    EXPECT_TRUE(product.current());
    EXPECT_EQ(product.image().tokens, 77);
    EXPECT_EQ(product.image().rows, 77);
    // A bad input is said, not thrown at the frame.
    LabParams bad = b;
    bad.token_vectors = TokenVectors::File;
    product.update(bad, bad.model, {0, 77, 0, 77, 128}, true);
    EXPECT_NE(product.image().error.find("attention."), std::string::npos) << "names the field: " << product.image().error;
}

TEST(AttentionProduct, PanelPixelsFillUncomputedRowsFromAboveAndMaskGrey) {
    lab::AttentionImage im;
    im.rows = 4;
    im.cols = 2;
    im.row_done = {0, 1, 0, 1};
    const float nan = std::numeric_limits<float>::quiet_NaN();
    im.logit_max = {0, 0, -2, 2, 9, 9, 1, 0};
    im.visible_max = {0, 0, -2, nan, 9, 9, 1, nan};
    im.weight_max = {0, 0, 0.5f, nan, 9, 9, 1, nan};
    const lab::AttentionColours c = lab::fitted_colours(im);
    EXPECT_EQ(c.logit, 2.0) << "rows not computed do not count";
    EXPECT_EQ(c.weight, 1.0);
    const std::vector<std::uint8_t> masked = lab::panel_rgba(im, c, lab::AttentionPanel::Masked);
    ASSERT_EQ(masked.size(), 32u);
    EXPECT_EQ(masked[3], 0) << "nothing above row 0 computed yet: transparent";
    const auto pixel = [&](const std::vector<std::uint8_t>& px, int r, int k) {
        const auto at = static_cast<std::size_t>((r * 2 + k) * 4);
        return std::array<std::uint8_t, 4>{px[at], px[at + 1], px[at + 2], px[at + 3]};
    };
    EXPECT_EQ(pixel(masked, 1, 1), (std::array<std::uint8_t, 4>{128, 128, 128, 255}));
    EXPECT_EQ(pixel(masked, 2, 0), pixel(masked, 1, 0)) << "row 2 shows row 1 until computed";
    const auto low = lab::logit_rgb(c, -2.0), high = lab::logit_rgb(c, 2.0), zero = lab::logit_rgb(c, 0.0);
    EXPECT_GT(low[2], low[0]) << "below 0: blue";
    EXPECT_GT(high[0], high[2]) << "above 0: red";
    EXPECT_GT(zero[0], 230) << "0: near white";
    EXPECT_EQ(pixel(masked, 1, 0), (std::array<std::uint8_t, 4>{low[0], low[1], low[2], 255}));
    const std::vector<std::uint8_t> weights = lab::panel_rgba(im, c, lab::AttentionPanel::Weights);
    const auto top = lab::weight_rgb(c, 1.0);
    EXPECT_EQ(pixel(weights, 3, 0), (std::array<std::uint8_t, 4>{top[0], top[1], top[2], 255}));
}

}  // namespace
}  // namespace ropelab
