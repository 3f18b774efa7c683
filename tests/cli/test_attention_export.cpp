// export-data --view attention through the real binary, with q and k given as .npy files written
// here, for the three kinds of layer Llama 4 and Gemma use: a NoPE layer with Llama 4's query
// temperature, a chunked RoPE layer and a sliding-window RoPE layer. Every row's weights must sum
// to 1 and every entry must match a float64 evaluation written here from the definitions:
//   logit(m, n) = τ_m · Σ_j Re(q̃_j conj(k̃_j) e^{i(m−n)ω_j}) / √d,   τ_m = 1 + 0.1·log1p(floor((m + 1)/4))
//   weight(m, n) = exp(logit − max) / Σ over the visible keys (masking_utils.py's masks).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/run_binary.h"

namespace {

using ropelab::test::Result;
using ropelab::test::run;

constexpr int kHead = 8;
constexpr std::int64_t kTokens = 40;

// A float64 .npy of shape (rows, cols), header and data written byte by byte.
std::string npy_f8(const std::vector<double>& values, std::int64_t rows, std::int64_t cols) {
    std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + std::to_string(rows) + ", " + std::to_string(cols) + "), }";
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::string out = "\x93NUMPY\x01";
    out += '\0';
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    out += header;
    for (double v : values) {
        const auto bits = std::bit_cast<std::uint64_t>(v);
        for (int i = 0; i < 8; ++i) out += static_cast<char>((bits >> (8 * i)) & 0xff);
    }
    return out;
}

// Reproducible components in (−1, 1): a linear congruential walk, enough for test vectors.
std::vector<double> test_values(std::uint64_t seed, std::size_t count) {
    std::vector<double> v;
    std::uint64_t s = seed;
    for (std::size_t i = 0; i < count; ++i) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        v.push_back(static_cast<double>(s >> 11) * 0x1.0p-52 - 1.0);
    }
    return v;
}

struct Entry {
    std::int64_t m = 0, n = 0;
    double logit = 0, weight = 0;
};

// The data rows of a CSV export (after the "# …" metadata and the header line).
std::vector<Entry> read_csv(const std::string& path, std::map<std::string, std::string>& metadata) {
    std::ifstream in(path);
    std::string line;
    std::vector<Entry> rows;
    bool header = true;
    while (std::getline(in, line)) {
        if (line.starts_with("# ")) {
            const auto colon = line.find(": ");
            if (colon != std::string::npos) metadata[line.substr(2, colon - 2)] = line.substr(colon + 2);
            continue;
        }
        if (header) {
            EXPECT_EQ(line, "m,n,logit,weight");
            header = false;
            continue;
        }
        std::replace(line.begin(), line.end(), ',', ' ');
        std::istringstream fields(line);
        Entry e;
        fields >> e.m >> e.n >> e.logit >> e.weight;
        rows.push_back(e);
    }
    return rows;
}

using Visible = std::function<bool(std::int64_t, std::int64_t)>;

struct Layer {
    const char* name;
    std::string flags;
    bool rope;
    std::function<double(std::int64_t)> tau;
    Visible visible;
};

std::vector<Layer> layers() {
    return {
        {"nope_tuned", "--layer-rope=false --attn-temperature-tuning --floor-scale 4", false,
         [](std::int64_t m) { return 1.0 + 0.1 * std::log1p(std::floor((static_cast<double>(m) + 1.0) / 4.0)); },
         [](std::int64_t m, std::int64_t n) { return n <= m; }},
        {"chunked", "--attention-chunk 8", true, [](std::int64_t) { return 1.0; },
         [](std::int64_t m, std::int64_t n) { return n <= m && n / 8 == m / 8; }},
        {"sliding", "--sliding-window 6", true, [](std::int64_t) { return 1.0; },
         [](std::int64_t m, std::int64_t n) { return n <= m && n > m - 6; }},
    };
}

class AttentionExport : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = ropelab::test::fresh_dir("attention_export");
        q_ = test_values(1, kTokens * kHead);
        k_ = test_values(2, kTokens * kHead);
        ropelab::test::write_file(at("q.npy"), npy_f8(q_, kTokens, kHead));
        ropelab::test::write_file(at("k.npy"), npy_f8(k_, kTokens, kHead));
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::string at(const std::string& name) const { return (dir_ / name).string(); }
    std::string args(const Layer& layer, const std::string& out) const {
        return "export-data --view attention --head-dim 8 --rope-theta 10000 --layout interleaved --tokens text:40 "
               "--token-vectors file --q-file " + at("q.npy") + " --k-file " + at("k.npy") + " " + layer.flags + " --out " + out;
    }

    // The float64 logit of (m, n): interleaved pairs (2j, 2j + 1), ω_j = 10000^(−2j/8).
    double logit(const Layer& layer, std::int64_t m, std::int64_t n) const {
        std::complex<double> sum = 0.0;
        for (int j = 0; j < kHead / 2; ++j) {
            const auto qi = static_cast<std::size_t>(m * kHead + 2 * j), ki = static_cast<std::size_t>(n * kHead + 2 * j);
            const std::complex<double> zq(q_[qi], q_[qi + 1]), zk(k_[ki], k_[ki + 1]);
            const double omega = std::pow(10000.0, -2.0 * j / kHead);
            sum += zq * std::conj(zk) * std::polar(1.0, layer.rope ? static_cast<double>(m - n) * omega : 0.0);
        }
        return layer.tau(m) * sum.real() / std::sqrt(static_cast<double>(kHead));
    }

    std::filesystem::path dir_;
    std::vector<double> q_, k_;
};

TEST_F(AttentionExport, EveryEntryMatchesTheLayersDefinition) {
    for (const Layer& layer : layers()) {
        const std::string out = at(std::string(layer.name) + ".csv");
        const Result r = run(args(layer, out));
        ASSERT_EQ(r.status, 0) << layer.name << ": " << r.err;
        std::map<std::string, std::string> metadata;
        const std::vector<Entry> rows = read_csv(out, metadata);
        EXPECT_EQ(metadata["tokens"], "40");
        EXPECT_NE(metadata["masked"].find("left out"), std::string::npos) << metadata["masked"];
        // Exactly the visible entries, row by row.
        std::size_t at_row = 0;
        for (std::int64_t m = 0; m < kTokens; ++m) {
            std::vector<double> logits;
            std::vector<std::int64_t> keys;
            for (std::int64_t n = 0; n < kTokens; ++n) {
                if (layer.visible(m, n)) {
                    keys.push_back(n);
                    logits.push_back(logit(layer, m, n));
                }
            }
            double top = -INFINITY, sum = 0.0, written = 0.0;
            for (double x : logits) top = std::max(top, x);
            for (double x : logits) sum += std::exp(x - top);
            for (std::size_t i = 0; i < keys.size(); ++i, ++at_row) {
                ASSERT_LT(at_row, rows.size()) << layer.name;
                const Entry& e = rows[at_row];
                ASSERT_EQ(e.m, m) << layer.name;
                ASSERT_EQ(e.n, keys[i]) << layer.name << " m " << m;
                EXPECT_NEAR(e.logit, logits[i], 1e-12) << layer.name << " " << m << ", " << e.n;
                EXPECT_NEAR(e.weight, std::exp(logits[i] - top) / sum, 1e-12) << layer.name << " " << m << ", " << e.n;
                written += e.weight;
            }
            EXPECT_NEAR(written, 1.0, 1e-6) << layer.name << " row " << m;
        }
        EXPECT_EQ(at_row, rows.size()) << layer.name;
    }
}

// The temperature changes inside the sequence: row 3 is plain (τ = 1), row 7 has τ = 1 + 0.1·ln 3.
TEST_F(AttentionExport, TheQueryTemperatureStepsInsideTheSequence) {
    const Layer tuned = layers()[0];
    Layer plain = tuned;
    plain.flags = "--layer-rope=false";
    std::map<std::string, std::string> metadata;
    ASSERT_EQ(run(args(tuned, at("a.csv"))).status, 0);
    ASSERT_EQ(run(args(plain, at("b.csv"))).status, 0);
    const std::vector<Entry> a = read_csv(at("a.csv"), metadata), b = read_csv(at("b.csv"), metadata);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double factor = a[i].m < 3 ? 1.0 : a[i].m < 7 ? 1.0 + 0.1 * std::log(2.0) : a[i].m < 11 ? 1.0 + 0.1 * std::log(3.0) : 0.0;
        if (factor > 0) { EXPECT_NEAR(a[i].logit, factor * b[i].logit, 1e-14) << a[i].m << ", " << a[i].n; }
    }
}

// The JSON form holds the same rows, column by column, and the same metadata.
TEST_F(AttentionExport, JsonHoldsTheSameRowsAsCsv) {
    const Layer layer = layers()[2];
    ASSERT_EQ(run(args(layer, at("s.csv"))).status, 0);
    ASSERT_EQ(run(args(layer, at("s.json"))).status, 0);
    std::map<std::string, std::string> metadata;
    const std::vector<Entry> rows = read_csv(at("s.csv"), metadata);
    const nlohmann::json j = ropelab::test::read_json(at("s.json"));
    ASSERT_FALSE(j.is_discarded());
    EXPECT_EQ(j["view"], "attention");
    EXPECT_EQ(j["parameters"]["masked"], metadata["masked"]);
    EXPECT_EQ(j["parameters"]["sliding_window"], "6");
    const auto& c = j["columns"];
    ASSERT_EQ(c["m"].size(), rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        EXPECT_EQ(c["m"][i].get<std::int64_t>(), rows[i].m);
        EXPECT_EQ(c["n"][i].get<std::int64_t>(), rows[i].n);
        EXPECT_EQ(c["logit"][i].get<double>(), rows[i].logit);
        EXPECT_EQ(c["weight"][i].get<double>(), rows[i].weight);
    }
}

TEST_F(AttentionExport, RefusesMoreThan2048TokensNamingTheLayout) {
    const Result r = run("export-data --view attention --tokens text:2049 --token-vectors random --out " + at("x.csv"));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("images.tokens"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("2049"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("2048"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(at("x.csv")));
}

}  // namespace

namespace {

// Compare mode: each setting's rows one after another under a setting column, so settings whose
// masks differ (here a window of 3 beside the plain causal layer) each keep whole rows.
TEST_F(AttentionExport, CompareModeStacksEachSettingsRows) {
    const Result r = run("export-data --view attention --head-dim 8 --tokens text:12 --token-vectors random --compare "
                         "sliding_window=3 --out " + at("c.csv"));
    ASSERT_EQ(r.status, 0) << r.err;
    std::ifstream in(at("c.csv"));
    std::string line;
    std::getline(in, line);
    while (line.starts_with("#")) std::getline(in, line);
    EXPECT_EQ(line, "setting,m,n,logit,weight");
    std::map<std::pair<int, std::int64_t>, std::pair<int, double>> rows;  // (setting, m) → keys, weight sum
    std::map<std::pair<std::int64_t, std::int64_t>, double> plain;        // (m, n) → setting 0's logit
    while (std::getline(in, line)) {
        std::replace(line.begin(), line.end(), ',', ' ');
        std::istringstream fields(line);
        int setting = 0;
        Entry e;
        fields >> setting >> e.m >> e.n >> e.logit >> e.weight;
        auto& row = rows[{setting, e.m}];
        ++row.first;
        row.second += e.weight;
        if (setting == 0) plain[{e.m, e.n}] = e.logit;
        if (setting == 1) {
            EXPECT_GT(e.n, e.m - 3) << e.m << ", " << e.n;
            EXPECT_EQ(e.logit, plain.at({e.m, e.n})) << "the window changes the mask, not the logits";
        }
    }
    ASSERT_EQ(rows.size(), 24u);
    for (const auto& [key, row] : rows) {
        const auto [setting, m] = key;
        EXPECT_EQ(row.first, setting == 0 ? m + 1 : std::min<std::int64_t>(m + 1, 3)) << setting << " " << m;
        EXPECT_NEAR(row.second, 1.0, 1e-6) << setting << " " << m;
    }
}

}  // namespace
