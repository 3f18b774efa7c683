// Speed of the model-file readers: parsing a GGUF's metadata the size of a real vocabulary, and
// one layer's per-pair energies (view 12) from Llama-3-8B-shaped W_q (4096 × 4096) and W_k
// (1024 × 4096) in each weight format. Run: build/ropelab_bench_models (numbers in the README).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "models/dequantize.h"
#include "models/gguf.h"
#include "models/pair_energy.h"
#include "support/gguf_writer.h"

namespace {

using namespace ropelab;

// A GGUF holding what a Qwen2.5 tokenizer holds: 152k tokens, their scores and types, 1.5 M merges.
std::string vocabulary_gguf() {
    gguf_test::Writer w;
    w.add_string("general.architecture", "qwen2");
    std::vector<std::string> tokens(152'064), merges(1'500'000);
    for (std::size_t i = 0; i < tokens.size(); ++i) tokens[i] = "tok" + std::to_string(i);
    for (std::size_t i = 0; i < merges.size(); ++i) merges[i] = "a" + std::to_string(i) + " b";
    w.add_array_string("tokenizer.ggml.tokens", tokens);
    w.add_array_f32("tokenizer.ggml.scores", std::vector<float>(tokens.size(), 0.5f));
    w.add_array_i32("tokenizer.ggml.token_type", std::vector<std::int32_t>(tokens.size(), 1));
    w.add_array_string("tokenizer.ggml.merges", merges);
    return w.bytes();
}

void BM_ParseVocabularyGguf(benchmark::State& state) {
    const std::string bytes = vocabulary_gguf();
    for (auto _ : state) {
        const gguf::File file = gguf::File::parse(models::MappedFile::hold(bytes, "vocabulary.gguf"));
        benchmark::DoNotOptimize(file.entries().size());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(bytes.size()));
}
BENCHMARK(BM_ParseVocabularyGguf)->Unit(benchmark::kMillisecond);

// Random blocks whose scales are sane halves (1/16), so every value is finite as in a real file.
std::string random_blocks(models::Format format, std::int64_t values, std::uint32_t seed) {
    std::string bytes(models::bytes_of(format, static_cast<std::uint64_t>(values)), '\0');
    std::mt19937 random(seed);
    for (char& b : bytes) b = static_cast<char>(random() & 0x3f);  // small halves, small ints
    return bytes;
}

models::WeightMatrix matrix(models::Format format, std::int64_t rows, std::int64_t cols, const std::string& bytes) {
    models::WeightMatrix m;
    m.name = "bench";
    m.format = format;
    m.rows = rows;
    m.cols = cols;
    m.bytes = std::as_bytes(std::span(bytes.data(), bytes.size()));
    return m;
}

void BM_PairEnergiesOfALayer(benchmark::State& state) {
    const auto format = static_cast<models::Format>(state.range(0));
    const std::int64_t d_model = 4096;
    const std::string q = random_blocks(format, 4096 * d_model, 1), k = random_blocks(format, 1024 * d_model, 2);
    models::AttentionWeights w;
    w.q = matrix(format, 4096, d_model, q);
    w.k = matrix(format, 1024, d_model, k);
    w.q_heads = 32;
    w.kv_heads = 8;
    w.head_dim = 128;
    w.rotary_dim = 128;
    for (auto _ : state) benchmark::DoNotOptimize(models::pair_energies(w).q.size());
    state.SetLabel(std::string(models::to_string(format)));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(q.size() + k.size()));
}
BENCHMARK(BM_PairEnergiesOfALayer)
    ->Arg(static_cast<int>(models::Format::F16))
    ->Arg(static_cast<int>(models::Format::BF16))
    ->Arg(static_cast<int>(models::Format::Q8_0))
    ->Arg(static_cast<int>(models::Format::Q4_K))
    ->Arg(static_cast<int>(models::Format::Q6_K))
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
