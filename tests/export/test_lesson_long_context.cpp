// The library lesson "Attention and long context" says only what its slides hold: each caption's
// numbers, masks and layer lists are read off what the binary exports for that scene's settings
// (the attention, score and frequency views draw the same products), against float64 sums worked
// out here, the softmax redone from the exported logits, and the models' own layer rules
// (gemma3-4b: every sixth layer global; llama4-scout: every fourth layer NoPE, the rest chunked).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "export/lesson_scene.h"

namespace ropelab {
namespace {

using test::LessonJson;

const LessonJson& long_context_lesson() {
    static const LessonJson l = test::library_lesson("attention-and-long-context");
    return l;
}
const LessonJson& long_context_scene(const std::string& title) { return test::scene_titled(long_context_lesson(), title); }

struct Cell {
    int n;
    double logit, weight;
};
using Rows = std::map<int, std::vector<Cell>>;  // query m → its visible keys, in file order

// An attention export's cells by row; every kept key is causal.
Rows rows_of(const test::Csv& csv) {
    EXPECT_EQ(csv.header, "m,n,logit,weight");
    Rows rows;
    for (const auto& r : csv.rows) {
        const int m = static_cast<int>(r[0]), n = static_cast<int>(r[1]);
        EXPECT_LE(n, m) << "a key after its query";
        rows[m].push_back({n, r[2], r[3]});
    }
    return rows;
}

// Softmax redone in float64 from the row's exported logits: the weights must be exactly it.
void expect_softmax(const Rows& rows) {
    for (const auto& [m, cells] : rows) {
        double top = -INFINITY, sum = 0, weights = 0;
        for (const Cell& c : cells) top = std::max(top, c.logit);
        for (const Cell& c : cells) sum += std::exp(c.logit - top);
        for (const Cell& c : cells) {
            EXPECT_NEAR(c.weight, std::exp(c.logit - top) / sum, 1e-9) << m << ", " << c.n;
            weights += c.weight;
        }
        EXPECT_NEAR(weights, 1.0, 1e-9) << "row " << m;
    }
}

// The keys each row keeps are exactly first(m) … m.
template <class First>
void expect_keys(const Rows& rows, int tokens, First first) {
    ASSERT_EQ(static_cast<int>(rows.size()), tokens);
    for (const auto& [m, cells] : rows) {
        std::vector<int> keys;
        for (const Cell& c : cells) keys.push_back(c.n);
        std::sort(keys.begin(), keys.end());
        std::vector<int> want;
        for (int n = first(m); n <= m; ++n) want.push_back(n);
        EXPECT_EQ(keys, want) << "row " << m;
    }
}

// One layer's rules as the binary reads them from the preset's config.
std::map<std::string, std::string> layer_meta(const std::string& preset, int layer) {
    return test::export_flags("--view attention --tokens text:2 --preset " + preset + " --layer " + std::to_string(layer)).meta;
}

TEST(LessonAttentionAndLongContext, IsALibraryLesson) { test::expect_library_lesson(long_context_lesson()); }

TEST(LessonAttentionAndLongContext, LogitsAreAToeplitzMatrix) {
    const LessonJson& s = long_context_scene("Logits are a Toeplitz matrix");
    test::expect_claims(s, {"depends only on m − n", "every diagonal of the matrix holds one value", "the score curve read backwards",
                            "The main diagonal is the largest, 128/√128 ≈ 11.31"});
    ASSERT_EQ(s["set"]["preset"], "textbook");
    ASSERT_EQ(s["set"]["vectors"], "ones");
    ASSERT_EQ(s["set"]["token_vectors"], "same");
    const Rows rows = rows_of(test::export_scene(s, "attention"));
    const auto score = test::column(test::export_scene(s, "scores"), "rope");
    ASSERT_EQ(rows.size(), 32u);
    // textbook: d = 128, θ = 10^4; q = k = ones make each pair 2·cos(Δ·ω_j).
    const auto logit = [](int delta) {
        double sum = 0;
        for (int j = 0; j < 64; ++j) sum += 2 * std::cos(delta * std::pow(1e4, -2.0 * j / 128));
        return sum / std::sqrt(128.0);
    };
    EXPECT_NEAR(logit(0), 11.31, 0.005);
    for (const auto& [m, cells] : rows) {
        double top = -INFINITY;
        int top_at = -1;
        for (const Cell& c : cells) {
            // The score column is float32 (the GPU core's): a part in 10^6.
            EXPECT_NEAR(c.logit, logit(m - c.n), 1e-5) << m << ", " << c.n;
            EXPECT_NEAR(c.logit, score[static_cast<std::size_t>(m - c.n)] / std::sqrt(128.0), 1e-5) << m << ", " << c.n;
            if (c.logit > top) top = c.logit, top_at = c.n;
        }
        EXPECT_EQ(top_at, m) << "row " << m << "'s largest logit is on the diagonal";
    }
}

TEST(LessonAttentionAndLongContext, CausalSoftmax) {
    const LessonJson& s = long_context_scene("Causal softmax");
    test::expect_claims(s, {"only keys n ≤ m", "weights that sum to 1", "Row 0 has a single key, so its weight is 1",
                            "spread their weight unevenly"});
    ASSERT_EQ(s["set"]["token_vectors"], "random");
    const Rows rows = rows_of(test::export_scene(s, "attention"));
    expect_keys(rows, 32, [](int) { return 0; });
    expect_softmax(rows);
    ASSERT_EQ(rows.at(0).size(), 1u);
    EXPECT_DOUBLE_EQ(rows.at(0)[0].weight, 1.0);
    double most_uneven = 0;
    for (const auto& [m, cells] : rows) {
        double lo = INFINITY, hi = 0;
        for (const Cell& c : cells) lo = std::min(lo, c.weight), hi = std::max(hi, c.weight);
        most_uneven = std::max(most_uneven, hi / lo);
    }
    EXPECT_GT(most_uneven, 2.0);
}

TEST(LessonAttentionAndLongContext, ANeedleFarBackStillWins) {
    const LessonJson& s = long_context_scene("A needle far back");
    test::expect_claims(s, {"Independent random tokens", "key 3 points along the last query",
                            "The last row, 44 tokens later, puts 0.83 of its weight on it"});
    ASSERT_EQ(s["set"]["token_vectors"], "needle");
    ASSERT_EQ(s["set"]["needle"], 3);
    ASSERT_EQ(s["set"]["shared_part"], 0);  // "independent": the tokens share no part
    ASSERT_EQ(s["set"]["tokens"], "text:48");
    const Rows rows = rows_of(test::export_scene(s, "attention"));
    expect_keys(rows, 48, [](int) { return 0; });
    expect_softmax(rows);
    const auto& last = rows.at(47);
    const auto top = std::max_element(last.begin(), last.end(), [](const Cell& a, const Cell& b) { return a.weight < b.weight; });
    EXPECT_EQ(top->n, 3);
    EXPECT_EQ(47 - top->n, 44);
    EXPECT_GE(top->weight, 0.825);  // "0.83"
    EXPECT_LT(top->weight, 0.835);
}

TEST(LessonAttentionAndLongContext, SlidingWindowKeepsABand) {
    const LessonJson& s = long_context_scene("Sliding-window layers");
    test::expect_claims(s, {"Gemma 3's local layers attend only to the last 1024 keys (m − n < 1024)", "a window of 8",
                            "every row keeps at most 8 keys"});
    ASSERT_EQ(s["set"]["preset"], "gemma3-4b");
    ASSERT_EQ(s["set"]["sliding_window"], 8);
    const test::Csv csv = test::export_scene(s, "attention");
    const Rows rows = rows_of(csv);
    expect_keys(rows, 32, [](int m) { return std::max(0, m - 7); });
    expect_softmax(rows);
    // The scene plays a local layer's own RoPE: θ = 10^4, unscaled, as the config's layer 0.
    const auto local = layer_meta("gemma3-4b", 0);
    EXPECT_EQ(local.at("sliding_window"), "1024");
    EXPECT_EQ(local.at("rope_theta"), csv.meta.at("rope_theta"));
    EXPECT_EQ(csv.meta.at("rope_type"), "default");
}

TEST(LessonAttentionAndLongContext, OneLayerInSixIsGlobal) {
    const LessonJson& s = long_context_scene("Global layers: every earlier key");
    test::expect_claims(s, {"One layer in six of Gemma 3 4B is global (layers 5, 11, 17, 23 and 29 of 34)", "every key n ≤ m",
                            "θ = 10^6 stretched ×8", "row 31 spreads its weight over all 32 keys"});
    const std::vector<int> global = {5, 11, 17, 23, 29};
    for (int layer = 0; layer < 34; ++layer) {
        const auto meta = layer_meta("gemma3-4b", layer);
        const bool is_global = std::find(global.begin(), global.end(), layer) != global.end();
        EXPECT_EQ(meta.at("sliding_window"), is_global ? "0" : "1024") << "layer " << layer;
        EXPECT_EQ(meta.at("rope_theta"), is_global ? "1000000" : "10000") << "layer " << layer;
    }
    EXPECT_NE(test::run("export-data --view attention --tokens text:2 --preset gemma3-4b --layer 34 --out /dev/null").status, 0)
        << "layer 33 is the last of 34";
    const test::Csv csv = test::export_scene(s, "attention");
    EXPECT_EQ(csv.meta.at("sliding_window"), "0");
    EXPECT_EQ(csv.meta.at("rope_theta"), "1000000");
    EXPECT_EQ(csv.meta.at("rope_type"), "linear");
    EXPECT_EQ(csv.meta.at("factor"), "8");
    const Rows rows = rows_of(csv);
    expect_keys(rows, 32, [](int) { return 0; });
    expect_softmax(rows);
    ASSERT_EQ(rows.at(31).size(), 32u);
    for (const Cell& c : rows.at(31)) EXPECT_GT(c.weight, 0.0);
}

TEST(LessonAttentionAndLongContext, LocalAndGlobalLayersDecayDifferently) {
    const LessonJson& s = long_context_scene("Local and global layers turn differently");
    test::expect_claims(s, {"global layers turn with θ = 10^6 stretched ×8", "local layers with θ = 10^4",
                            "at Δ = 1024 (the end of a local window) the local layers' score has fallen below a quarter of its start",
                            "the global layers' is still above half"});
    ASSERT_EQ(s["set"]["comparison"], "gemma3-layers");
    const test::Csv csv = test::export_scene(s, "scores");
    EXPECT_EQ(csv.meta.at("global_layers.rope_theta"), "1000000");
    EXPECT_EQ(csv.meta.at("global_layers.rope_type"), "linear");
    EXPECT_EQ(csv.meta.at("global_layers.factor"), "8");
    EXPECT_EQ(csv.meta.at("local_layers.rope_theta"), "10000");
    EXPECT_EQ(csv.meta.at("local_layers.rope_type"), "default");
    const auto distance = test::column(csv, "distance");
    const auto global = test::column(csv, "global_layers.rope"), local = test::column(csv, "local_layers.rope");
    ASSERT_GT(distance.size(), 1024u);
    ASSERT_EQ(distance[1024], 1024.0);
    EXPECT_LT(local[1024], 0.25 * local[0]);
    EXPECT_GT(global[1024], 0.5 * global[0]);
}

TEST(LessonAttentionAndLongContext, ChunkedAttentionStaysInItsBlock) {
    const LessonJson& s = long_context_scene("Chunked attention");
    test::expect_claims(s, {"Llama 4 Scout's RoPE layers attend within blocks of 8192 tokens", "Blocks of 8 here",
                            "row 8 sees only itself, row 15 sees 8 keys", "no row looks into an earlier block"});
    ASSERT_EQ(s["set"]["preset"], "llama4-scout");
    ASSERT_EQ(s["set"]["attention_chunk"], 8);
    for (int layer : {0, 1, 2, 4}) EXPECT_EQ(layer_meta("llama4-scout", layer).at("attention_chunk"), "8192") << layer;
    const Rows rows = rows_of(test::export_scene(s, "attention"));
    expect_keys(rows, 32, [](int m) { return m / 8 * 8; });
    expect_softmax(rows);
    EXPECT_EQ(rows.at(8).size(), 1u);
    EXPECT_EQ(rows.at(15).size(), 8u);
}

TEST(LessonAttentionAndLongContext, NoPELayersSpreadEvenly) {
    const LessonJson& s = long_context_scene("NoPE layers");
    test::expect_claims(s, {"Every fourth layer of Llama 4 Scout (3, 7, 11, …) uses no position encoding",
                            "all logits of a row are then equal", "1/(m + 1) on every key"});
    for (int layer = 0; layer < 48; ++layer) {
        const auto meta = layer_meta("llama4-scout", layer);
        const bool nope = layer % 4 == 3;
        EXPECT_EQ(meta.at("layer_rope").starts_with("false"), nope) << "layer " << layer;
        EXPECT_EQ(meta.at("attention_chunk"), nope ? "0" : "8192") << "layer " << layer;
    }
    const Rows rows = rows_of(test::export_scene(s, "attention"));
    expect_keys(rows, 32, [](int) { return 0; });
    expect_softmax(rows);
    for (const auto& [m, cells] : rows) {
        for (const Cell& c : cells) {
            EXPECT_NEAR(c.logit, cells[0].logit, 1e-12) << m << ", " << c.n;
            EXPECT_NEAR(c.weight, 1.0 / (m + 1), 1e-12) << m << ", " << c.n;
        }
    }
}

TEST(LessonAttentionAndLongContext, PRoPELeavesTheSlowestPairsStill) {
    const LessonJson& s = long_context_scene("p-RoPE: stop turning the slowest pairs");
    test::expect_claims(s, {"with p = 0.25, pairs 48–63 of Llama 3's 64 keep ω = 0", "Over an 8192-token context",
                            "the mean score moves by less than 1 (of 126)"});
    ASSERT_EQ(s["set"]["comparison"], "p-rope");
    const test::Csv freqs = test::export_scene(s, "frequencies");
    const auto rope = test::column(freqs, "rope.inv_freq"), p = test::column(freqs, "p_rope_0_25.inv_freq");
    ASSERT_EQ(rope.size(), 64u);
    for (int j = 0; j < 64; ++j) {
        EXPECT_NEAR(rope[j], std::pow(5e5, -2.0 * j / 128), 1e-12) << "Llama 3: θ = 500000, d = 128; pair " << j;
        EXPECT_EQ(p[j], j < 48 ? rope[j] : 0.0) << j;
    }
    const test::Csv scores = test::export_scene(s, "scores");
    const auto a = test::column(scores, "rope.rope"), b = test::column(scores, "p_rope_0_25.rope");
    ASSERT_EQ(a.size(), 8192u);
    EXPECT_NEAR(a[0], 126.0, 0.5);
    double most = 0;
    for (std::size_t i = 0; i < a.size(); ++i) most = std::max(most, std::abs(a[i] - b[i]));
    EXPECT_LT(most, 1.0);
}

TEST(LessonAttentionAndLongContext, PartialRotaryIsNotPRoPE) {
    const LessonJson& s = long_context_scene("Partial rotary is not p-RoPE");
    test::expect_claims(s, {"GPT-NeoX 20B rotates 24 of its 96 components (rotary_pct 0.25)",
                            "a whole ladder in 12 pairs: ω = 1 down to wavelengths near 29,000 tokens",
                            "p-RoPE keeps the first 48 rungs of Llama 3's ladder (blue), stilling the 16 slowest"});
    const test::Csv csv = test::export_scene(s, "frequencies");
    EXPECT_EQ(csv.meta.at("gpt_neox_20b_partial_rotary.head_dim"), "96");
    EXPECT_EQ(csv.meta.at("gpt_neox_20b_partial_rotary.rotary_dim"), "24");
    // GPT-NeoX: inv_freq over the 24 rotated components, θ = 10^4 (rotary_emb_base).
    std::vector<double> neox;
    for (double w : test::column(csv, "gpt_neox_20b_partial_rotary.inv_freq")) {
        if (!std::isnan(w)) neox.push_back(w);
    }
    ASSERT_EQ(neox.size(), 12u);
    for (int j = 0; j < 12; ++j) EXPECT_NEAR(neox[j], std::pow(1e4, -2.0 * j / 24), 1e-12) << j;
    EXPECT_EQ(neox[0], 1.0);
    const double slowest = 2 * std::acos(-1.0) / neox[11];
    EXPECT_GT(slowest, 28500.0);  // "near 29,000"
    EXPECT_LT(slowest, 29500.0);
    const auto llama = test::column(csv, "llama_3_8b_with_p_rope_0_25.inv_freq");
    ASSERT_EQ(llama.size(), 64u);
    for (int j = 0; j < 64; ++j) EXPECT_NEAR(llama[j], j < 48 ? std::pow(5e5, -2.0 * j / 128) : 0.0, 1e-12) << j;
}

}  // namespace
}  // namespace ropelab
