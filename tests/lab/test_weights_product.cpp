// The weights view's product (lab/products/weights.h) on a fake ModelWeights holding F32
// matrices built here: energies, products and the key head of GQA against a float64
// computation of the rows' norms; the layer clamped, a cancel, the score curve against
// Σ c_i cos(Δ ω_i) in float64, and the product's worker reading a GGUF off the frame.
#include <atomic>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/frequencies.h"
#include "lab/products/weights.h"
#include "models/model_weights.h"
#include "support/gguf_writer.h"

namespace ropelab::lab::products {
namespace {

constexpr int kWpQHeads = 4, kWpKvHeads = 2, kWpHeadDim = 8, kWpCols = 16;

// Row-major floats and their F32 bytes (a WeightMatrix views the bytes).
struct WpMatrix {
    std::vector<float> values;
    std::int64_t rows = 0;
    std::string bytes;
    double at(std::int64_t r, int c) const { return values[static_cast<std::size_t>(r * kWpCols + c)]; }
};

WpMatrix wp_random(std::int64_t rows, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    WpMatrix m{std::vector<float>(static_cast<std::size_t>(rows * kWpCols)), rows, {}};
    for (float& v : m.values) v = normal(rng);
    m.bytes.resize(m.values.size() * sizeof(float));
    std::memcpy(m.bytes.data(), m.values.data(), m.bytes.size());
    return m;
}

models::WeightMatrix wp_view(const WpMatrix& m, const std::string& name) {
    models::WeightMatrix w;
    w.name = name;
    w.format = models::Format::F32;
    w.rows = m.rows;
    w.cols = kWpCols;
    w.bytes = std::as_bytes(std::span(m.bytes.data(), m.bytes.size()));
    return w;
}

// Two layers of interleaved pairs (rows 2i, 2i+1 of a head), 4 query heads reading 2 key heads.
class WpFakeWeights : public models::ModelWeights {
public:
    WpFakeWeights() {
        for (unsigned l = 0; l < 2; ++l) {
            q_.push_back(wp_random(kWpQHeads * kWpHeadDim, 10 + l));
            k_.push_back(wp_random(kWpKvHeads * kWpHeadDim, 20 + l));
        }
    }
    int layers() const override { return 2; }
    models::AttentionWeights attention(int layer) const override {
        models::AttentionWeights a;
        a.layer = layer;
        a.q = wp_view(q_[static_cast<std::size_t>(layer)], "q");
        a.k = wp_view(k_[static_cast<std::size_t>(layer)], "k");
        a.q_heads = kWpQHeads;
        a.kv_heads = kWpKvHeads;
        a.head_dim = kWpHeadDim;
        a.rotary_dim = kWpHeadDim;
        a.rows = PairLayout::Interleaved;
        a.notes = {"fake"};
        return a;
    }
    const std::string& source() const override { return source_; }
    std::vector<WpMatrix> q_, k_;

private:
    std::string source_ = "fake";
};

// The float64 norm of the two rows of pair i of head h.
double wp_pair_norm(const WpMatrix& m, int head, int i) {
    double sum = 0;
    for (int r : {2 * i, 2 * i + 1}) {
        for (int c = 0; c < kWpCols; ++c) sum += m.at(head * kWpHeadDim + r, c) * m.at(head * kWpHeadDim + r, c);
    }
    return std::sqrt(sum);
}

TEST(WeightsProduct, EnergiesAndProductsMatchFloat64Norms) {
    const WpFakeWeights weights;
    for (int layer = 0; layer < 2; ++layer) {
        const WeightsLayer l = compute_weights_layer(weights, layer);
        ASSERT_EQ(l.pairs, kWpHeadDim / 2);
        EXPECT_EQ(l.layer, layer);
        EXPECT_EQ(l.layers, 2);
        EXPECT_EQ(l.q_heads, kWpQHeads);
        EXPECT_EQ(l.kv_heads, kWpKvHeads);
        for (int h = 0; h < kWpQHeads; ++h) {
            const int g = h / 2;  // GQA: 4 query heads over 2 key heads
            EXPECT_EQ(l.kv_head_of(h), g);
            double top = 0;
            for (int i = 0; i < l.pairs; ++i) {
                const double q = wp_pair_norm(weights.q_[static_cast<std::size_t>(layer)], h, i);
                const double k = wp_pair_norm(weights.k_[static_cast<std::size_t>(layer)], g, i);
                EXPECT_NEAR(l.q_energy(h, i), q, 1e-12 * q);
                EXPECT_NEAR(l.k_energy(g, i), k, 1e-12 * k);
                EXPECT_NEAR(l.product(h, i), q * k, 1e-12 * q * k);
                top = std::max(top, q * k);
            }
            const std::vector<double> row = l.normalised_row(h);
            for (int i = 0; i < l.pairs; ++i) EXPECT_NEAR(row[static_cast<std::size_t>(i)], l.product(h, i) / top, 1e-12);
        }
    }
}

TEST(WeightsProduct, LayerIsClampedAndCancelLeavesItEmpty) {
    const WpFakeWeights weights;
    EXPECT_EQ(compute_weights_layer(weights, 7).layer, 1);
    EXPECT_EQ(compute_weights_layer(weights, -3).layer, 0);
    const std::atomic<bool> cancel{true};
    EXPECT_TRUE(compute_weights_layer(weights, 0, {}, &cancel).empty());
}

TEST(WeightsProduct, HeadCurveBracketsTheFloat64Score) {
    const WpFakeWeights weights;
    const WeightsLayer l = compute_weights_layer(weights, 0);
    ModelConfig m;
    m.head_dim = kWpHeadDim;
    m.rope_theta = 10000;
    const RopeFrequencies freqs = compute_frequencies(m);
    const WeightsCurve curve = head_score_curve(l, 3, freqs, 5000, 64);
    ASSERT_FALSE(curve.empty());
    EXPECT_EQ(curve.distance.front(), 1.0);
    // Σ c_i cos(Δ θ_i), c_i = product(3, i): the curve's first distance of each bin lies in its band,
    // and a bin of one distance is that score exactly.
    for (std::size_t b = 0; b < curve.distance.size(); ++b) {
        const double delta = curve.distance[b];
        double expected = 0;
        for (int i = 0; i < l.pairs; ++i) expected += l.product(3, i) * std::cos(delta * std::pow(10000.0, -2.0 * i / kWpHeadDim));
        EXPECT_LE(curve.low[b], expected + 1e-9 * std::abs(expected) + 1e-9) << "bin " << b;
        EXPECT_GE(curve.high[b], expected - 1e-9 * std::abs(expected) - 1e-9) << "bin " << b;
        if (b + 1 < curve.distance.size() && curve.distance[b + 1] == delta + 1) {
            EXPECT_NEAR(curve.low[b], expected, 1e-9 * (1 + std::abs(expected)));
        }
    }
    EXPECT_LT(curve.distance.back(), 5000.0 + 1);
    // Pairs the lab's model does not have: no curve rather than a wrong one.
    m.head_dim = 2 * kWpHeadDim;
    EXPECT_TRUE(head_score_curve(l, 3, compute_frequencies(m), 5000).empty());
}

TEST(WeightsProduct, WavelengthsAndTheContextsPair) {
    ModelConfig m;
    m.head_dim = 64;
    m.rope_theta = 10000;
    const std::vector<double> w = pair_wavelengths(compute_frequencies(m));
    ASSERT_EQ(w.size(), 32u);
    EXPECT_NEAR(w[0], 2 * M_PI, 1e-12);
    EXPECT_NEAR(w[31], 2 * M_PI * std::pow(10000.0, 62.0 / 64), 1e-6 * w[31]);
    // Wavelength λ_i = 2π·θ^(2i/d): log λ is linear in i, so the pair of λ = 4096 is exact.
    const double expected = std::log(4096 / (2 * M_PI)) / std::log(10000.0) * 32;
    EXPECT_NEAR(pair_at_wavelength(w, 4096), expected, 1e-9);
    EXPECT_EQ(pair_at_wavelength(w, 1.0), -1.0);  // faster than any pair
}

TEST(WeightsProduct, ReadsAGgufOffTheFrameAndSaysWhenThereAreNoWeights) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "ropelab_weights_product";
    std::filesystem::create_directories(dir);
    gguf_test::Writer w;
    w.add_string("general.architecture", "llama");
    w.add_u32("llama.block_count", 2);
    w.add_u32("llama.context_length", 4096);
    w.add_u32("llama.embedding_length", kWpCols);
    w.add_u32("llama.attention.head_count", kWpQHeads);
    w.add_u32("llama.attention.head_count_kv", kWpKvHeads);
    w.add_u32("llama.attention.key_length", kWpHeadDim);
    w.add_u32("llama.attention.value_length", kWpHeadDim);
    w.add_u32("llama.rope.dimension_count", kWpHeadDim);
    w.add_f32("llama.rope.freq_base", 10000.0f);
    const WpFakeWeights fake;
    for (int l = 0; l < 2; ++l) {
        w.add_tensor("blk." + std::to_string(l) + ".attn_q.weight", {kWpCols, kWpQHeads * kWpHeadDim}, 0, fake.q_[static_cast<std::size_t>(l)].bytes);
        w.add_tensor("blk." + std::to_string(l) + ".attn_k.weight", {kWpCols, kWpKvHeads * kWpHeadDim}, 0, fake.k_[static_cast<std::size_t>(l)].bytes);
    }
    const std::string path = (dir / "tiny.gguf").string();
    gguf_test::write_file(path, w.bytes());

    ModelConfig m;
    m.head_dim = kWpHeadDim;
    const RopeFrequencies freqs = compute_frequencies(m);
    LabParams p;
    WeightsProduct product;
    product.update(p, freqs, true);  // the textbook preset: no file
    EXPECT_EQ(product.shown().message, "open a GGUF or a safetensors checkpoint to see its weights");
    p.preset = path;
    p.weights_layer = 1;
    p.weights_head = 2;
    product.update(p, freqs, true);
    const Weights& shown = product.shown();
    ASSERT_TRUE(shown.message.empty()) << shown.message;
    ASSERT_TRUE(shown.current());
    EXPECT_EQ(shown.layers, 2);
    EXPECT_EQ(shown.layer.layer, 1);
    for (int h = 0; h < kWpQHeads; ++h) {
        for (int i = 0; i < kWpHeadDim / 2; ++i) {
            const double q = wp_pair_norm(fake.q_[1], h, i), k = wp_pair_norm(fake.k_[1], h / 2, i);
            EXPECT_NEAR(shown.layer.product(h, i), q * k, 1e-12 * q * k);
        }
    }
    EXPECT_EQ(shown.curve.head, 2);
    EXPECT_EQ(product.computations(), 1);
    product.update(p, freqs, true);  // nothing changed: nothing read again
    EXPECT_EQ(product.computations(), 1);
}

}  // namespace
}  // namespace ropelab::lab::products
