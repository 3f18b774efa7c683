// Per-pair energies of W_q / W_k rows (models/pair_energy.h) on matrices the tests build as F32
// bytes: an independent float64 reference, a hand-worked head, GQA's key head, cancelling, and
// the Cauchy–Schwarz bound the energies promise.
#include <atomic>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.h"
#include "models/pair_energy.h"

namespace ropelab::models {
namespace {

// A matrix of floats and the F32 bytes a WeightMatrix views (kept alive together).
struct PeMatrix {
    std::vector<float> values;  // row-major
    std::int64_t rows = 0, cols = 0;
    std::string bytes;

    WeightMatrix view(const std::string& name, std::int64_t first_row = 0, std::int64_t view_rows = -1) const {
        WeightMatrix m;
        m.name = name;
        m.format = Format::F32;
        m.rows = view_rows < 0 ? rows : view_rows;
        m.cols = cols;
        m.first_row = first_row;
        m.bytes = std::as_bytes(std::span(bytes.data(), bytes.size()));
        return m;
    }
    double at(std::int64_t r, std::int64_t c) const { return values[static_cast<std::size_t>(r * cols + c)]; }
};

PeMatrix pe_matrix(std::int64_t rows, std::int64_t cols, std::vector<float> values) {
    PeMatrix m{std::move(values), rows, cols, {}};
    m.bytes.resize(m.values.size() * sizeof(float));
    std::memcpy(m.bytes.data(), m.values.data(), m.bytes.size());
    return m;
}

PeMatrix pe_random(std::int64_t rows, std::int64_t cols, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> values(static_cast<std::size_t>(rows * cols));
    for (float& v : values) v = normal(rng);
    return pe_matrix(rows, cols, std::move(values));
}

AttentionWeights pe_weights(const PeMatrix& q, const PeMatrix& k, int q_heads, int kv_heads, int head_dim, int rotary_dim,
                            int rotary_offset, PairLayout layout) {
    AttentionWeights w;
    w.layer = 3;
    w.q = q.view("blk.3.attn_q.weight");
    w.k = k.view("blk.3.attn_k.weight");
    w.q_heads = q_heads;
    w.kv_heads = kv_heads;
    w.head_dim = head_dim;
    w.rotary_dim = rotary_dim;
    w.rotary_offset = rotary_offset;
    w.rows = layout;
    return w;
}

// The matrix rows of pair i of head h, written out from the layouts' definitions.
std::pair<std::int64_t, std::int64_t> pe_reference_rows(const AttentionWeights& w, int h, int i) {
    const std::int64_t start = static_cast<std::int64_t>(h) * w.head_dim + w.rotary_offset;
    if (w.rows == PairLayout::Interleaved) return {start + 2 * i, start + 2 * i + 1};
    return {start + i, start + w.rotary_dim / 2 + i};
}

double pe_reference_energy(const PeMatrix& m, std::pair<std::int64_t, std::int64_t> rows) {
    double sum = 0.0;
    for (std::int64_t c = 0; c < m.cols; ++c) sum += m.at(rows.first, c) * m.at(rows.first, c) + m.at(rows.second, c) * m.at(rows.second, c);
    return std::sqrt(sum);
}

void pe_expect_reference(const PeMatrix& q, const PeMatrix& k, const AttentionWeights& w) {
    const PairEnergies e = pair_energies(w);
    ASSERT_EQ(e.pairs, w.rotary_dim / 2);
    ASSERT_EQ(e.q_heads, w.q_heads);
    ASSERT_EQ(e.kv_heads, w.kv_heads);
    EXPECT_EQ(e.layer, w.layer);
    for (int h = 0; h < w.q_heads; ++h) {
        for (int i = 0; i < e.pairs; ++i) {
            EXPECT_NEAR(e.q_energy(h, i), pe_reference_energy(q, pe_reference_rows(w, h, i)), 1e-9) << "q head " << h << " pair " << i;
        }
    }
    for (int g = 0; g < w.kv_heads; ++g) {
        for (int i = 0; i < e.pairs; ++i) {
            EXPECT_NEAR(e.k_energy(g, i), pe_reference_energy(k, pe_reference_rows(w, g, i)), 1e-9) << "k head " << g << " pair " << i;
        }
    }
}

TEST(PairEnergy, HandWorkedHeadOfOnePair) {
    // One head of two components and one column: rows (3) and (4) form the pair, √(9 + 16) = 5.
    const PeMatrix q = pe_matrix(2, 1, {3.0f, 4.0f});
    const PeMatrix k = pe_matrix(2, 1, {1.0f, 0.0f});
    for (PairLayout layout : {PairLayout::Half, PairLayout::Interleaved}) {
        const PairEnergies e = pair_energies(pe_weights(q, k, 1, 1, 2, 2, 0, layout));
        ASSERT_EQ(e.pairs, 1);
        EXPECT_DOUBLE_EQ(e.q_energy(0, 0), 5.0);
        EXPECT_DOUBLE_EQ(e.k_energy(0, 0), 1.0);
        EXPECT_DOUBLE_EQ(e.product(0, 0), 5.0);
    }
}

TEST(PairEnergy, HandWorkedLayoutsPickDifferentRows) {
    // One head of 4 components, one column, rows 1, 2, 3, 4. Half pairs (0, 2), (1, 3):
    // √(1 + 9) and √(4 + 16); interleaved pairs (0, 1), (2, 3): √(1 + 4) and √(9 + 16).
    const PeMatrix m = pe_matrix(4, 1, {1.0f, 2.0f, 3.0f, 4.0f});
    const PairEnergies half = pair_energies(pe_weights(m, m, 1, 1, 4, 4, 0, PairLayout::Half));
    EXPECT_DOUBLE_EQ(half.q_energy(0, 0), std::sqrt(10.0));
    EXPECT_DOUBLE_EQ(half.q_energy(0, 1), std::sqrt(20.0));
    const PairEnergies interleaved = pair_energies(pe_weights(m, m, 1, 1, 4, 4, 0, PairLayout::Interleaved));
    EXPECT_DOUBLE_EQ(interleaved.q_energy(0, 0), std::sqrt(5.0));
    EXPECT_DOUBLE_EQ(interleaved.q_energy(0, 1), 5.0);
}

TEST(PairEnergy, MatchesFloat64ReferenceForBothLayouts) {
    // Partial rotary at an offset (a DeepSeek-like [nope | rope] head): 4 query heads of 12, the
    // rotary 8 components from component 2, 37 columns.
    const PeMatrix q = pe_random(4 * 12, 37, 11);
    const PeMatrix k = pe_random(2 * 12, 37, 12);
    for (PairLayout layout : {PairLayout::Half, PairLayout::Interleaved}) {
        SCOPED_TRACE(std::string(to_string(layout)));
        pe_expect_reference(q, k, pe_weights(q, k, 4, 2, 12, 8, 2, layout));
    }
    pe_expect_reference(q, k, pe_weights(q, k, 4, 2, 12, 12, 0, PairLayout::Half));
}

TEST(PairEnergy, ManyRowsMatchTheReference) {
    // More rows than one batch of the reader, so several batches (and threads) contribute.
    const PeMatrix q = pe_random(16 * 64, 24, 21);
    const PeMatrix k = pe_random(4 * 64, 24, 22);
    pe_expect_reference(q, k, pe_weights(q, k, 16, 4, 64, 64, 0, PairLayout::Half));
}

TEST(PairEnergy, GroupedQueryHeadsReadTheirKeyHead) {
    // 8 query heads, 2 key heads: heads 0-3 read key head 0, heads 4-7 key head 1.
    const PeMatrix q = pe_random(8 * 8, 16, 31);
    const PeMatrix k = pe_random(2 * 8, 16, 32);
    const AttentionWeights w = pe_weights(q, k, 8, 2, 8, 8, 0, PairLayout::Half);
    pe_expect_reference(q, k, w);
    const PairEnergies e = pair_energies(w);
    for (int h = 0; h < 8; ++h) {
        EXPECT_EQ(e.kv_head_of(h), h / 4);
        for (int i = 0; i < e.pairs; ++i) {
            const double expected = pe_reference_energy(q, pe_reference_rows(w, h, i)) * pe_reference_energy(k, pe_reference_rows(w, h / 4, i));
            EXPECT_NEAR(e.product(h, i), expected, 1e-9 * expected) << "head " << h << " pair " << i;
        }
    }
}

TEST(PairEnergy, FusedRowsStartWhereTheMatrixSays) {
    // One tensor [q | k] (GGUF's attn_qkv): k's view starts at row 2·8.
    const PeMatrix fused = pe_random(2 * 8 + 8, 10, 41);
    const PeMatrix k_alone = pe_matrix(8, 10, std::vector<float>(fused.values.begin() + 16 * 10, fused.values.end()));
    AttentionWeights w = pe_weights(fused, k_alone, 2, 1, 8, 8, 0, PairLayout::Interleaved);
    w.q = fused.view("blk.0.attn_qkv.weight", 0, 16);
    w.k = fused.view("blk.0.attn_qkv.weight", 16, 8);
    const PairEnergies e = pair_energies(w);
    for (int i = 0; i < 4; ++i) {
        EXPECT_NEAR(e.k_energy(0, i), pe_reference_energy(k_alone, pe_reference_rows(w, 0, i)), 1e-9);
        EXPECT_NEAR(e.q_energy(1, i), pe_reference_energy(fused, pe_reference_rows(w, 1, i)), 1e-9);
    }
}

TEST(PairEnergy, BoundsEveryPairsShareOfTheScoreForUnitInputs) {
    // |Σ over pair i of (W_q x)_pair · (W_k y)_pair| ≤ product(h, i) for unit x, y (Cauchy–Schwarz).
    const int q_heads = 8, kv_heads = 2, head_dim = 16, cols = 32;
    const PeMatrix q = pe_random(q_heads * head_dim, cols, 51);
    const PeMatrix k = pe_random(kv_heads * head_dim, cols, 52);
    for (PairLayout layout : {PairLayout::Half, PairLayout::Interleaved}) {
        const AttentionWeights w = pe_weights(q, k, q_heads, kv_heads, head_dim, 12, 4, layout);
        const PairEnergies e = pair_energies(w);
        std::mt19937 rng(53);
        std::normal_distribution<double> normal(0.0, 1.0);
        for (int trial = 0; trial < 200; ++trial) {
            std::vector<double> x(cols), y(cols);
            double nx = 0, ny = 0;
            for (int c = 0; c < cols; ++c) {
                x[c] = normal(rng);
                y[c] = normal(rng);
                nx += x[c] * x[c];
                ny += y[c] * y[c];
            }
            for (int c = 0; c < cols; ++c) {
                x[c] /= std::sqrt(nx);
                y[c] /= std::sqrt(ny);
            }
            const auto times = [&](const PeMatrix& m, std::int64_t r, const std::vector<double>& v) {
                double s = 0;
                for (int c = 0; c < cols; ++c) s += m.at(r, c) * v[c];
                return s;
            };
            for (int h = 0; h < q_heads; ++h) {
                for (int i = 0; i < e.pairs; ++i) {
                    const auto [qa, qb] = pe_reference_rows(w, h, i);
                    const auto [ka, kb] = pe_reference_rows(w, h / (q_heads / kv_heads), i);
                    const double share = times(q, qa, x) * times(k, ka, y) + times(q, qb, x) * times(k, kb, y);
                    ASSERT_LE(std::abs(share), e.product(h, i) * (1 + 1e-12)) << "head " << h << " pair " << i;
                }
            }
        }
    }
}

TEST(PairEnergy, ReportsProgressUpToOne) {
    const PeMatrix q = pe_random(8 * 32, 8, 61);
    const PeMatrix k = pe_random(8 * 32, 8, 62);
    std::vector<double> seen;
    pair_energies(pe_weights(q, k, 8, 8, 32, 32, 0, PairLayout::Half), [&](double f) { seen.push_back(f); });
    ASSERT_FALSE(seen.empty());
    for (std::size_t j = 1; j < seen.size(); ++j) EXPECT_GT(seen[j], seen[j - 1]);
    EXPECT_GT(seen.front(), 0.0);
    EXPECT_DOUBLE_EQ(seen.back(), 1.0);
}

TEST(PairEnergy, CancelLeavesAnEmptyResult) {
    const PeMatrix q = pe_random(8 * 32, 8, 71);
    const PeMatrix k = pe_random(8 * 32, 8, 72);
    const AttentionWeights w = pe_weights(q, k, 8, 8, 32, 32, 0, PairLayout::Half);
    std::atomic<bool> cancel{true};
    const PairEnergies before = pair_energies(w, {}, &cancel);
    EXPECT_EQ(before.pairs, 0);
    EXPECT_TRUE(before.q.empty());
    EXPECT_TRUE(before.k.empty());

    // Cancelled after the first report: the rest is not read, nothing comes back.
    cancel = false;
    int reports = 0;
    const PairEnergies midway = pair_energies(w, [&](double) { ++reports; cancel = true; }, &cancel);
    EXPECT_EQ(midway.pairs, 0);
    EXPECT_TRUE(midway.q.empty());
    EXPECT_EQ(reports, 1);
}

void pe_expect_refused(const AttentionWeights& w, const std::string& named, const std::string& words) {
    try {
        pair_energies(w);
        ADD_FAILURE() << "accepted; expected a refusal naming " << named;
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(named), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
}

TEST(PairEnergy, RefusesShapesThatDoNotFit) {
    const PeMatrix q = pe_random(4 * 8, 6, 81);
    const PeMatrix k = pe_random(2 * 8, 6, 82);
    // Rows that are not heads × head_dim.
    pe_expect_refused(pe_weights(q, k, 3, 1, 8, 8, 0, PairLayout::Half), "blk.3.attn_q.weight", "32 rows");
    pe_expect_refused(pe_weights(q, k, 4, 1, 8, 8, 0, PairLayout::Half), "blk.3.attn_k.weight", "16 rows");
    // Query heads that are no multiple of the key heads.
    const PeMatrix k3 = pe_random(3 * 8, 6, 83);
    pe_expect_refused(pe_weights(q, k3, 4, 3, 8, 8, 0, PairLayout::Half), "blk.3.attn_k.weight", "not a multiple");
    // A rotary part longer than the head, or past its end, or of odd size.
    pe_expect_refused(pe_weights(q, k, 4, 2, 8, 10, 0, PairLayout::Half), "blk.3.attn_q.weight", "rotary dim 10");
    pe_expect_refused(pe_weights(q, k, 4, 2, 8, 8, 2, PairLayout::Half), "blk.3.attn_q.weight", "offset 2");
    pe_expect_refused(pe_weights(q, k, 4, 2, 8, 5, 0, PairLayout::Half), "blk.3.attn_q.weight", "rotary dim = 5");
    pe_expect_refused(pe_weights(q, k, 4, 0, 8, 8, 0, PairLayout::Half), "blk.3.attn_k.weight", "key heads");
}

TEST(PairEnergy, RefusesBytesShorterThanTheRows) {
    // The view claims more rows than its bytes hold: refused naming the tensor, no read past the end.
    PeMatrix q = pe_random(4 * 8, 6, 91);
    const PeMatrix k = pe_random(2 * 8, 6, 92);
    q.bytes.resize(q.bytes.size() - sizeof(float));
    pe_expect_refused(pe_weights(q, k, 4, 2, 8, 8, 0, PairLayout::Half), "blk.3.attn_q.weight", "past the tensor");
}

}  // namespace
}  // namespace ropelab::models
