// View 12 through the binary: export-data --view weights on a GGUF written here
// (support/gguf_writer.h) — a llama file of 2 layers, 4 query heads reading 2 key heads, F32
// weights — checked row by row against the rows' norms in float64; --weights-layer picks the
// layer; a path without weights and a layer the file lacks are refused by name; render draws it.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/files.h"
#include "support/gguf_writer.h"
#include "support/run_binary.h"

namespace {

using ropelab::test::Result;
using ropelab::test::run;

constexpr int kWeHeads = 4, kWeKvHeads = 2, kWeHeadDim = 16, kWeCols = 32;

// A deterministic value per (layer, matrix, row, column): no two pairs alike.
float we_value(int layer, int matrix, int row, int col) {
    return static_cast<float>(std::sin(0.37 * row + 1.3 * col + 2.1 * layer + 0.5 * matrix) * (1.0 + 0.1 * row));
}

std::string we_bytes(int layer, int matrix, int rows) {
    std::string out;
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < kWeCols; ++c) out += gguf_test::le(we_value(layer, matrix, r, c));
    }
    return out;
}

// llama (NORM): pair i of a head is its rows (2i, 2i+1).
double we_pair_norm(int layer, int matrix, int head, int i) {
    double sum = 0;
    for (int r : {head * kWeHeadDim + 2 * i, head * kWeHeadDim + 2 * i + 1}) {
        for (int c = 0; c < kWeCols; ++c) sum += static_cast<double>(we_value(layer, matrix, r, c)) * we_value(layer, matrix, r, c);
    }
    return std::sqrt(sum);
}

std::string we_gguf() {
    gguf_test::Writer w;
    w.add_string("general.architecture", "llama");
    w.add_u32("llama.block_count", 2);
    w.add_u32("llama.context_length", 4096);
    w.add_u32("llama.embedding_length", kWeCols);
    w.add_u32("llama.attention.head_count", kWeHeads);
    w.add_u32("llama.attention.head_count_kv", kWeKvHeads);
    w.add_u32("llama.attention.key_length", kWeHeadDim);
    w.add_u32("llama.attention.value_length", kWeHeadDim);
    w.add_u32("llama.rope.dimension_count", kWeHeadDim);
    w.add_f32("llama.rope.freq_base", 10000.0f);
    for (int l = 0; l < 2; ++l) {
        w.add_tensor("blk." + std::to_string(l) + ".attn_q.weight", {kWeCols, kWeHeads * kWeHeadDim}, 0, we_bytes(l, 0, kWeHeads * kWeHeadDim));
        w.add_tensor("blk." + std::to_string(l) + ".attn_k.weight", {kWeCols, kWeKvHeads * kWeHeadDim}, 0, we_bytes(l, 1, kWeKvHeads * kWeHeadDim));
    }
    return w.bytes();
}

// The CSV's data rows (after the "# …" metadata and the header), as numbers.
std::vector<std::vector<double>> we_rows(const std::string& path, std::string& header) {
    std::ifstream in(path);
    std::vector<std::vector<double>> rows;
    std::string line;
    while (std::getline(in, line)) {
        if (line.starts_with("#")) continue;
        if (header.empty()) {
            header = line;
            continue;
        }
        std::vector<double> row;
        std::stringstream cells(line);
        std::string cell;
        while (std::getline(cells, cell, ',')) row.push_back(std::stod(cell));
        rows.push_back(row);
    }
    return rows;
}

class WeightsExport : public ropelab::test::TempDirTest {
protected:
    WeightsExport() : TempDirTest("weights_export") {}
};

TEST_F(WeightsExport, CsvRowsAreTheLayersPairNormsInFloat64) {
    const std::string model = at("tiny.gguf");
    gguf_test::write_file(model, we_gguf());
    for (int layer = 0; layer < 2; ++layer) {
        const std::string out = at("layer" + std::to_string(layer) + ".csv");
        const Result r = run("export-data --view weights --config '" + model + "' --weights-layer " + std::to_string(layer) + " --out '" + out + "'");
        ASSERT_EQ(r.status, 0) << r.err;
        std::string header;
        const auto rows = we_rows(out, header);
        EXPECT_EQ(header, "layer,head,kv_head,pair,q_energy,k_energy,product,wavelength");
        ASSERT_EQ(rows.size(), static_cast<std::size_t>(kWeHeads * kWeHeadDim / 2));
        for (const auto& row : rows) {
            ASSERT_EQ(row.size(), 8u);
            const int head = static_cast<int>(row[1]), kv = static_cast<int>(row[2]), pair = static_cast<int>(row[3]);
            EXPECT_EQ(row[0], layer);
            EXPECT_EQ(kv, head / 2);  // GQA: 4 query heads read 2 key heads
            const double q = we_pair_norm(layer, 0, head, pair), k = we_pair_norm(layer, 1, kv, pair);
            EXPECT_NEAR(row[4], q, 1e-12 * q);
            EXPECT_NEAR(row[5], k, 1e-12 * k);
            EXPECT_NEAR(row[6], q * k, 1e-12 * q * k);
            // 2π / θ^(−2i/d), θ = 10000, d = 16.
            const double wavelength = 2 * M_PI * std::pow(10000.0, 2.0 * pair / kWeHeadDim);
            EXPECT_NEAR(row[7], wavelength, 1e-12 * wavelength);
        }
    }
    const std::string json = at("layer1.json");
    const Result r = run("export-data --view weights --config '" + model + "' --weights-layer 1 --out '" + json + "'");
    ASSERT_EQ(r.status, 0) << r.err;
    std::ifstream in(json);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("\"q_energy\""), std::string::npos);
    EXPECT_NE(text.find("\"kv_heads\": \"2\""), std::string::npos) << text.substr(0, 400);
}

TEST_F(WeightsExport, RefusesAPathWithoutWeightsAndALayerTheFileLacks) {
    const std::string model = at("tiny.gguf");
    gguf_test::write_file(model, we_gguf());
    Result r = run("export-data --view weights --preset llama3-8b --out '" + at("none.csv") + "'");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("has no weights"), std::string::npos) << r.err;
    r = run("export-data --view weights --config '" + model + "' --weights-layer 2 --out '" + at("past.csv") + "'");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("weights.layer = 2"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("2 layers"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(at("past.csv")));
}

}  // namespace
