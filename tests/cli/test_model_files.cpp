// Model files through the real binary: a GGUF and a safetensors checkpoint open wherever a
// config.json does (--config, --compare), give the same fields as the config.json of the same
// model, and hostile or RoPE-less files end in exit 2 with the file and the key named. The files
// are written here (support/gguf_writer.h, support/safetensors_writer.h), shaped as llama.cpp's
// converter and transformers write them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "support/gguf_writer.h"
#include "support/run_binary.h"
#include "support/safetensors_writer.h"

namespace {

namespace fs = std::filesystem;
using ropelab::test::Result;
using ropelab::test::run;

constexpr double kModelFilesTwoPi = 6.283185307179586476925286766559;

// Llama 3.1 8B's RoPE as published (config.json) …
const std::string kLlama31Config = R"({"architectures": ["LlamaForCausalLM"], "hidden_size": 4096, "head_dim": 128,
  "max_position_embeddings": 131072, "model_type": "llama", "num_attention_heads": 32, "num_hidden_layers": 32,
  "num_key_value_heads": 8, "rope_scaling": {"factor": 8.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
  "original_max_position_embeddings": 8192, "rope_type": "llama3"}, "rope_theta": 500000.0, "vocab_size": 128256})";

// … and the rope_freqs tensor convert_hf_to_gguf.py writes for it (LlamaModel.generate_extra_tensors):
// per pair, the divisor 1 / ((1 − smooth)/factor + smooth) of Meta's llama3 rule, in float64 here.
std::vector<float> llama3_divisors() {
    const double base = 500000.0, factor = 8.0, low = 1.0, high = 4.0, context = 8192.0;
    std::vector<float> out;
    for (int i = 0; i < 64; ++i) {
        const double wavelen = kModelFilesTwoPi * std::pow(base, 2.0 * i / 128.0);
        double divisor = 1.0;
        if (wavelen > context / low) {
            divisor = factor;
        } else if (wavelen >= context / high) {
            const double smooth = (context / wavelen - low) / (high - low);
            divisor = 1.0 / ((1.0 - smooth) / factor + smooth);
        }
        out.push_back(static_cast<float>(divisor));
    }
    return out;
}

std::string f32_tensor_bytes(const std::vector<float>& values) {
    std::string out;
    for (float v : values) out += gguf_test::le(v);
    return out;
}

gguf_test::Writer llama31_gguf() {
    gguf_test::Writer w;
    w.add_string("general.architecture", "llama");
    w.add_string("general.name", "Meta Llama 3.1 8B Instruct");
    w.add_u32("llama.block_count", 32);
    w.add_u32("llama.context_length", 131072);
    w.add_u32("llama.embedding_length", 4096);
    w.add_u32("llama.attention.head_count", 32);
    w.add_u32("llama.attention.head_count_kv", 8);
    w.add_f32("llama.rope.freq_base", 500000.0f);
    w.add_u32("llama.rope.dimension_count", 128);
    const std::vector<float> divisors = llama3_divisors();
    w.add_tensor("rope_freqs.weight", {64}, 0, f32_tensor_bytes(divisors));
    return w;
}

fs::path model_dir(const std::string& name) { return ropelab::test::fresh_dir("model_files_" + name); }

std::vector<double> inv_freq_of(const nlohmann::json& j) { return j.at("inv_freq").get<std::vector<double>>(); }

TEST(ModelFiles, AGgufGivesTheFrequenciesOfItsConfigJson) {
    const fs::path dir = model_dir("llama31");
    gguf_test::write_file((dir / "llama.gguf").string(), llama31_gguf().bytes());
    ropelab::test::write_file((dir / "config.json").string(), kLlama31Config);
    const nlohmann::json from_gguf = ropelab::test::freqs_json("--config " + (dir / "llama.gguf").string());
    const nlohmann::json from_json = ropelab::test::freqs_json("--config " + (dir / "config.json").string());
    ASSERT_TRUE(from_gguf.is_object() && from_json.is_object());
    // The same fields, so a script reads either alike.
    for (const auto& [key, value] : from_json.items()) EXPECT_TRUE(from_gguf.contains(key)) << key;
    EXPECT_EQ(from_gguf.at("rotary_dim"), 128);
    const std::vector<double> a = inv_freq_of(from_gguf), b = inv_freq_of(from_json);
    ASSERT_EQ(a.size(), 64u);
    ASSERT_EQ(b.size(), 64u);
    // The divisors are stored as f32: agreement to float precision, pair by pair.
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i] / b[i], 1.0, 2e-7) << "pair " << i;
    // Scaled: the slowest pair is 8× slower than plain θ^(−2i/d) would make it.
    EXPECT_NEAR(a[63] * 8.0, std::pow(500000.0, -126.0 / 128.0), 1e-12);
}

TEST(ModelFiles, ACheckpointFolderReadsItsConfigJson) {
    const fs::path dir = model_dir("checkpoint");
    ropelab::test::write_file((dir / "config.json").string(), kLlama31Config);
    safetensors_test::File shard;
    shard.add("model.layers.0.self_attn.q_proj.weight", "F32", {2, 2}, safetensors_test::f32_bytes({1, 0, 0, 1}));
    ropelab::test::write_file((dir / "model.safetensors").string(), shard.bytes());
    const nlohmann::json folder = ropelab::test::freqs_json("--config " + dir.string());
    const nlohmann::json file = ropelab::test::freqs_json("--config " + (dir / "model.safetensors").string());
    const nlohmann::json config = ropelab::test::freqs_json("--config " + (dir / "config.json").string());
    EXPECT_EQ(folder.at("inv_freq"), config.at("inv_freq"));
    EXPECT_EQ(file.at("inv_freq"), config.at("inv_freq"));
}

TEST(ModelFiles, AGgufComparesBesideAPreset) {
    const fs::path dir = model_dir("compare");
    gguf_test::write_file((dir / "llama.gguf").string(), llama31_gguf().bytes());
    const Result r = run("freqs --preset textbook --compare " + (dir / "llama.gguf").string());
    EXPECT_EQ(r.status, 0) << r.err;
    // The compared setting is named by the file's stem, its column beside the preset's.
    EXPECT_NE(r.out.find("textbook.inv_freq,textbook.wavelength,llama.inv_freq"), std::string::npos) << r.out;
}

TEST(ModelFiles, ExplainSaysWhichRowOrderTheFileHolds) {
    const fs::path dir = model_dir("explain");
    gguf_test::write_file((dir / "llama.gguf").string(), llama31_gguf().bytes());
    const Result r = run("freqs --explain --config " + (dir / "llama.gguf").string());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("rope_freqs"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("convert_hf_to_gguf.py"), std::string::npos) << r.out;
}

// One row of `ropelab families --gguf --format markdown`: the architecture and its pair order.
struct GgufArchitectureRow {
    std::string name, order;
};

std::vector<GgufArchitectureRow> gguf_architecture_rows(const std::string& markdown) {
    std::vector<GgufArchitectureRow> rows;
    std::istringstream lines(markdown);
    std::string line;
    while (std::getline(lines, line)) {
        const auto tick = line.find('`'), end = line.find('`', line.find('`') + 1);
        if (!line.starts_with("| `") || end == std::string::npos) continue;
        const auto cell = line.find('|', end) + 1;
        const auto next = line.find('|', cell);
        std::istringstream order(line.substr(cell, next - cell));
        GgufArchitectureRow row{line.substr(tick + 1, end - tick - 1), ""};
        order >> row.order;
        rows.push_back(row);
    }
    return rows;
}

// A GGUF as llama.cpp's converter writes the keys every architecture shares: θ 50000 and a
// 64-dim rotary part of 128-dim heads, M-RoPE sections (in pairs) where the order needs them.
std::string generic_gguf(const GgufArchitectureRow& row) {
    gguf_test::Writer w;
    const std::string& a = row.name;
    w.add_string("general.architecture", a);
    w.add_u32(a + ".context_length", 4096);
    w.add_u32(a + ".embedding_length", 2048);
    w.add_u32(a + ".block_count", 4);
    w.add_u32(a + ".attention.head_count", 16);
    w.add_u32(a + ".attention.head_count_kv", 4);
    w.add_u32(a + ".attention.key_length", 128);
    w.add_u32(a + ".attention.value_length", 128);
    w.add_u32(a + ".rope.dimension_count", 64);
    w.add_f32(a + ".rope.freq_base", 50000.0f);
    if (row.order == "MROPE" || row.order == "IMROPE") w.add_array_i32(a + ".rope.dimension_sections", {12, 10, 10, 0});
    return w.bytes();
}

// The README's table is `families --gguf --format markdown`, and for every architecture in it
// `freqs --config FILE.gguf` gives llama.cpp's rotary dim and ladder θ^(−2i/n_rot) — or, for an
// architecture llama.cpp runs without RoPE, exit 2 saying so.
TEST(ModelFiles, EveryArchitectureInTheReadmesTableGivesItsRope) {
    const Result table = run("families --gguf --format markdown");
    ASSERT_EQ(table.status, 0) << table.err;
    const std::string readme = ropelab::test::slurp(std::string(ROPELAB_SOURCE_DIR) + "/README.md");
    const std::string begin = "<!-- gguf-architectures:begin -->\n", end = "<!-- gguf-architectures:end -->";
    const auto a = readme.find(begin), b = readme.find(end);
    ASSERT_NE(a, std::string::npos);
    ASSERT_NE(b, std::string::npos);
    EXPECT_EQ(readme.substr(a + begin.size(), b - a - begin.size()), table.out);

    const std::vector<GgufArchitectureRow> rows = gguf_architecture_rows(table.out);
    ASSERT_GT(rows.size(), 100u);
    const fs::path dir = model_dir("architectures");
    int with_rope = 0;
    for (const GgufArchitectureRow& row : rows) {
        const std::string path = (dir / (row.name + ".gguf")).string();
        gguf_test::write_file(path, generic_gguf(row));
        const Result r = run("freqs --format json --config " + path);
        if (row.order == "none") {
            EXPECT_EQ(r.status, 2) << row.name;
            EXPECT_NE(r.err.find("no RoPE"), std::string::npos) << row.name << ": " << r.err;
            continue;
        }
        ++with_rope;
        ASSERT_EQ(r.status, 0) << row.name << ": " << r.err;
        const nlohmann::json j = nlohmann::json::parse(r.out);
        EXPECT_EQ(j.at("rotary_dim"), 64) << row.name;
        const std::vector<double> inv_freq = inv_freq_of(j);
        ASSERT_EQ(inv_freq.size(), 32u) << row.name;
        // The file's base, or where the default layer slides (Gemma 3n), llama-hparams.h's
        // rope_freq_base_train_swa default of 10000.
        const double theta = std::abs(inv_freq[1] - std::pow(50000.0, -2.0 / 64.0)) < 1e-12 ? 50000.0 : 10000.0;
        for (int i = 0; i < 32; ++i) EXPECT_NEAR(inv_freq[i], std::pow(theta, -2.0 * i / 64.0), 1e-12) << row.name << " pair " << i;
    }
    EXPECT_GT(with_rope, 100);
}

// View 12 on a safetensors checkpoint folder (HF llama: rotate_half, so pair i of a head is rows
// i and i + 2 of its 4): export-data's energies against float64 row norms of the F32 weights.
TEST(ModelFiles, ACheckpointsWeightsExportAgainstFloat64) {
    const fs::path dir = model_dir("checkpoint_weights");
    ropelab::test::write_file((dir / "config.json").string(), R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama",
        "hidden_size": 8, "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 4, "num_hidden_layers": 1,
        "max_position_embeddings": 4096, "rope_theta": 10000.0})");
    // W_q: 8 rows (2 heads × 4) of 8; W_k: 4 rows (1 head) of 8. Row r holds r + 1 and r − 3 alternately.
    std::vector<float> q(64), k(32);
    for (std::size_t i = 0; i < q.size(); ++i) q[i] = static_cast<float>(i % 2 ? (i / 8) + 1.0 : (i / 8) - 3.0);
    for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<float>(0.5 * (i % 8) - (i / 8));
    std::string q_bytes, k_bytes;
    for (float v : q) q_bytes += gguf_test::le(v);
    for (float v : k) k_bytes += gguf_test::le(v);
    safetensors_test::File shard;
    shard.add("model.layers.0.self_attn.q_proj.weight", "F32", {8, 8}, q_bytes);
    shard.add("model.layers.0.self_attn.k_proj.weight", "F32", {4, 8}, k_bytes);
    ropelab::test::write_file((dir / "model.safetensors").string(), shard.bytes());

    const std::string csv = (dir / "weights.csv").string();
    const Result r = run("export-data --view weights --config " + dir.string() + " --out " + csv);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto row_norm2 = [](const std::vector<float>& w, int row) {
        double sum = 0;
        for (int c = 0; c < 8; ++c) sum += static_cast<double>(w[static_cast<std::size_t>(row * 8 + c)]) * w[static_cast<std::size_t>(row * 8 + c)];
        return sum;
    };
    std::istringstream lines(ropelab::test::slurp(csv));
    std::string line;
    int rows = 0;
    while (std::getline(lines, line)) {
        if (line.empty() || line[0] == '#' || line.starts_with("layer")) continue;
        int layer = 0, head = 0, kv_head = 0, pair = 0;
        double q_energy = 0, k_energy = 0, product = 0;
        ASSERT_EQ(std::sscanf(line.c_str(), "%d,%d,%d,%d,%lf,%lf,%lf", &layer, &head, &kv_head, &pair, &q_energy, &k_energy, &product), 7) << line;
        const double q_expected = std::sqrt(row_norm2(q, head * 4 + pair) + row_norm2(q, head * 4 + pair + 2));
        const double k_expected = std::sqrt(row_norm2(k, pair) + row_norm2(k, pair + 2));
        EXPECT_EQ(kv_head, 0);
        EXPECT_NEAR(q_energy, q_expected, 1e-12 * q_expected) << line;
        EXPECT_NEAR(k_energy, k_expected, 1e-12 * k_expected) << line;
        EXPECT_NEAR(product, q_expected * k_expected, 1e-12 * q_expected * k_expected) << line;
        ++rows;
    }
    EXPECT_EQ(rows, 4);  // 2 heads × 2 pairs
}

struct ModelFileRefusal {
    const char* name;
    std::string bytes;
    std::string message;  // in the error line
};

std::vector<ModelFileRefusal> model_file_refusals() {
    std::vector<ModelFileRefusal> rows;
    {
        gguf_test::Writer w;
        w.add_string("general.architecture", "gpt2");
        w.add_u32("gpt2.context_length", 1024);
        rows.push_back({"gpt2", w.bytes(), "gpt2 applies no RoPE"});
    }
    {
        gguf_test::Writer w = llama31_gguf();
        // An array of 2^60 u8: refused from its count, before anything is reserved.
        w.add_raw("tokenizer.ggml.scores", 9, gguf_test::le_u32(0) + gguf_test::le_u64(1ull << 60));
        rows.push_back({"huge_array", w.bytes(), "tokenizer.ggml.scores"});
    }
    {
        gguf_test::Writer w;
        w.add_string("general.architecture", "llama");
        w.add_u32("llama.embedding_length", 4096);
        w.add_u32("llama.attention.head_count", 32);
        w.add_string("llama.rope.freq_base", "ten thousand");
        rows.push_back({"string_base", w.bytes(), "llama.rope.freq_base"});
    }
    {
        const std::string whole = llama31_gguf().bytes();
        rows.push_back({"truncated", whole.substr(0, whole.size() / 2), ""});
    }
    return rows;
}

TEST(ModelFiles, HostileAndRopelessFilesEndInExit2NamingTheKey) {
    const fs::path dir = model_dir("refusal");
    for (const ModelFileRefusal& row : model_file_refusals()) {
        const std::string path = (dir / (std::string(row.name) + ".gguf")).string();
        gguf_test::write_file(path, row.bytes);
        // Under a small address-space limit too: nothing sized from the file's counts is reserved.
        for (const std::string limit : {"", "ulimit -v 1000000; "}) {
            const Result r = ropelab::test::capture(limit + std::string(ROPELAB_BINARY) + " freqs --config " + path + " 2>&1");
            EXPECT_EQ(r.status, 2) << row.name << ": " << r.out;
            EXPECT_NE(r.out.find(path), std::string::npos) << row.name << ": " << r.out;
            EXPECT_NE(r.out.find(row.message), std::string::npos) << row.name << ": " << r.out;
        }
    }
}

}  // namespace
