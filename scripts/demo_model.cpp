// Writes a small GGUF for the README's pictures and for trying view 12 without a model at hand:
// Llama 3.1 8B's RoPE exactly as convert_hf_to_gguf.py writes it (llama, θ 500000, 128-dim heads,
// the rope_freqs tensor of llama3 scaling, NORM row order), with small synthetic weights in Q8_0
// (4 layers, 16 query heads reading 4 key heads, d_model 512). The weights are random with a
// per-head profile over the pairs built in — some heads weighted to the fastest pairs, some to the
// slowest, some flat, after the pattern Barbero et al. 2024 measured in Gemma — so the picture
// shows what the view reads; it is no trained model.
//   build/ropelab_demo_model OUT.gguf
#include <cmath>
#include <cstdint>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "support/gguf_writer.h"

namespace {

constexpr int kLayers = 4, kQHeads = 16, kKvHeads = 4, kHeadDim = 128, kModel = 512, kPairs = kHeadDim / 2;
constexpr double kTwoPi = 6.283185307179586476925286766559;

// llama3's per-pair divisors (convert_hf_to_gguf.py, LlamaModel.generate_extra_tensors).
std::vector<float> llama3_divisors() {
    const double base = 500000.0, factor = 8.0, low = 1.0, high = 4.0, context = 8192.0;
    std::vector<float> out;
    for (int i = 0; i < kPairs; ++i) {
        const double wavelen = kTwoPi * std::pow(base, 2.0 * i / kHeadDim);
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

// How strongly query head `h` of layer `layer` weights pair i: positional heads lean on the
// fastest pairs, semantic ones on the slowest, some on both or neither; the mix shifts by layer.
double pair_profile(int layer, int h, int i) {
    const int kind = (h + layer) % 4;
    const double fast = std::exp(-i / 5.0), slow = std::exp(-(kPairs - 1 - i) / 8.0);
    switch (kind) {
        case 0: return 0.3 + 3.0 * fast;
        case 1: return 0.3 + 3.0 * slow;
        case 2: return 0.3 + 1.5 * fast + 1.5 * slow;
        default: return 1.0;
    }
}

std::uint16_t to_half(float value) {
    // Scales here are small positive normals: no subnormal, infinity or NaN to handle.
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, 4);
    const std::uint32_t sign = (bits >> 16) & 0x8000u, exponent = ((bits >> 23) & 0xffu) - 127 + 15;
    const std::uint32_t mantissa = (bits >> 13) & 0x3ffu;
    return static_cast<std::uint16_t>(sign | (exponent << 10) | mantissa);
}

// One row in Q8_0: blocks of 32 values, an f16 scale (max |x| / 127) then 32 int8 (ggml-common.h).
std::string q8_0_row(const std::vector<float>& row) {
    std::string out;
    for (std::size_t b = 0; b < row.size(); b += 32) {
        float amax = 0;
        for (std::size_t j = 0; j < 32; ++j) amax = std::max(amax, std::abs(row[b + j]));
        const float scale = amax / 127.0f;
        const std::uint16_t half = to_half(scale);
        out += static_cast<char>(half & 0xff);
        out += static_cast<char>(half >> 8);
        for (std::size_t j = 0; j < 32; ++j) out += static_cast<char>(static_cast<std::int8_t>(std::lround(row[b + j] / scale)));
    }
    return out;
}

// W_q or W_k of one layer: heads × 128 rows of d_model, NORM order (pair i = rows 2i, 2i+1).
std::string projection(int layer, int heads, std::mt19937& random) {
    std::normal_distribution<float> gaussian(0.0f, 0.02f);
    std::string bytes;
    std::vector<float> row(kModel);
    for (int h = 0; h < heads; ++h) {
        for (int r = 0; r < kHeadDim; ++r) {
            // The key heads reach both ends of the ladder; each query head picks its end.
            const double amplitude = heads == kQHeads ? pair_profile(layer, h, r / 2) : pair_profile(0, 2, r / 2);
            for (float& x : row) x = static_cast<float>(amplitude) * gaussian(random);
            bytes += q8_0_row(row);
        }
    }
    return bytes;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: ropelab_demo_model OUT.gguf\n");
        return 2;
    }
    gguf_test::Writer w;
    w.add_string("general.architecture", "llama");
    w.add_string("general.name", "ropelab demo (Llama 3.1 8B's RoPE, synthetic weights)");
    w.add_u32("llama.block_count", kLayers);
    w.add_u32("llama.context_length", 131072);
    w.add_u32("llama.embedding_length", kModel);
    w.add_u32("llama.attention.head_count", kQHeads);
    w.add_u32("llama.attention.head_count_kv", kKvHeads);
    w.add_u32("llama.attention.key_length", kHeadDim);
    w.add_u32("llama.attention.value_length", kHeadDim);
    w.add_u32("llama.rope.dimension_count", kHeadDim);
    w.add_f32("llama.rope.freq_base", 500000.0f);
    std::string divisors;
    for (float d : llama3_divisors()) divisors += gguf_test::le(d);
    w.add_tensor("rope_freqs.weight", {kPairs}, 0, divisors);
    std::mt19937 random(2024);
    for (int layer = 0; layer < kLayers; ++layer) {
        const std::string blk = "blk." + std::to_string(layer) + ".";
        w.add_tensor(blk + "attn_q.weight", {kModel, kQHeads * kHeadDim}, 8, projection(layer, kQHeads, random));
        w.add_tensor(blk + "attn_k.weight", {kModel, kKvHeads * kHeadDim}, 8, projection(layer, kKvHeads, random));
    }
    gguf_test::write_file(argv[1], w.bytes());
    return 0;
}
