#include "models/dequantize.h"

#include <array>
#include <bit>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/error.h"

namespace ropelab::models {

namespace {

// Every stored value is little-endian whatever the host is: bytes are assembled, never cast.
std::uint16_t load_u16(const std::byte* p) {
    return static_cast<std::uint16_t>(std::to_integer<unsigned>(p[0]) | (std::to_integer<unsigned>(p[1]) << 8));
}

std::uint32_t load_u32(const std::byte* p) {
    return static_cast<std::uint32_t>(load_u16(p)) | (static_cast<std::uint32_t>(load_u16(p + 2)) << 16);
}

std::uint8_t load_u8(const std::byte* p) { return std::to_integer<std::uint8_t>(*p); }
std::int8_t load_i8(const std::byte* p) { return static_cast<std::int8_t>(load_u8(p)); }

// A small float of 1 sign bit, `exponent_bits`, `mantissa_bits`, from its definition: a zero
// exponent field is subnormal (m · 2^(1−bias−mantissa_bits)), the others (1 + m/2^mantissa_bits)
// · 2^(e−bias). What the all-ones exponent means differs per format, so callers decide it first.
float small_float(unsigned bits, int exponent_bits, int mantissa_bits, int bias) {
    const unsigned mantissa = bits & ((1u << mantissa_bits) - 1);
    const unsigned exponent = (bits >> mantissa_bits) & ((1u << exponent_bits) - 1);
    const bool negative = (bits >> (mantissa_bits + exponent_bits)) & 1u;
    const float magnitude = exponent == 0 ? std::ldexp(static_cast<float>(mantissa), 1 - bias - mantissa_bits)
                                          : std::ldexp(static_cast<float>(mantissa + (1u << mantissa_bits)), static_cast<int>(exponent) - bias - mantissa_bits);
    return negative ? -magnitude : magnitude;
}

// PyTorch's float8_e4m3fn (safetensors "F8_E4M3"): bias 7, no infinities; only S.1111.111 is NaN,
// so the top exponent still holds numbers up to 1.75 · 2^8 = 448.
float e4m3fn_to_float(unsigned bits) {
    if ((bits & 0x7f) == 0x7f) return std::numeric_limits<float>::quiet_NaN();
    return small_float(bits, 4, 3, 7);
}

// float8_e5m2 ("F8_E5M2"): IEEE-like, bias 15; the all-ones exponent is ±inf (mantissa 0) or NaN.
float e5m2_to_float(unsigned bits) {
    if ((bits & 0x7c) == 0x7c) {
        if (bits & 0x03) return std::numeric_limits<float>::quiet_NaN();
        return (bits & 0x80) ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
    }
    return small_float(bits, 5, 2, 15);
}

// All 256 values of an 8-bit format, computed once: checkpoints hold billions of them.
using ByteTable = std::array<float, 256>;
template <float (*decode)(unsigned)>
const ByteTable& table_of() {
    static const ByteTable table = [] {
        ByteTable out{};
        for (unsigned bits = 0; bits < 256; ++bits) out[bits] = decode(bits);
        return out;
    }();
    return table;
}

void decode_bytes(const ByteTable& table, const std::byte* in, std::span<float> out) {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = table[load_u8(in + i)];
}

// Q8_0 (ggml-common.h block_q8_0; ggml-quants.c dequantize_row_q8_0): an f16 scale d, then 32
// int8 q; value = d · q.
constexpr int q8_0_bytes = 2 + 32;
void dequantize_q8_0(const std::byte* block, float* out) {
    const float d = half_to_float(load_u16(block));
    for (int i = 0; i < 32; ++i) out[i] = d * static_cast<float>(load_i8(block + 2 + i));
}

// The 6-bit scale and min of sub-block j (0…7) from Q4_K's 12 packed bytes (ggml-quants.c
// get_scale_min_k4): bytes 0–3 hold the scales of sub-blocks 0–3 in their low 6 bits, bytes
// 4–7 the mins of 0–3; sub-blocks 4–7 keep their low 4 bits in bytes 8–11 (scale low nibble,
// min high nibble) and their top 2 bits in the spare top bits of bytes 0–3 (scales) and 4–7 (mins).
struct ScaleMin {
    unsigned scale, min;
};
ScaleMin q4_k_scale_min(const std::byte* packed, int j) {
    if (j < 4) return {load_u8(packed + j) & 63u, load_u8(packed + j + 4) & 63u};
    const unsigned low = load_u8(packed + j + 4);
    return {(low & 0x0fu) | ((load_u8(packed + j - 4) >> 6) << 4), (low >> 4) | ((load_u8(packed + j) >> 6) << 4)};
}

// Q4_K (block_q4_K, dequantize_row_q4_K): f16 d, f16 dmin, 12 bytes of scales/mins, 128 bytes of
// nibbles. Each 64 values share 32 bytes: the low nibbles are sub-block 2k, the high ones 2k+1;
// value = d · scale · q − dmin · min.
constexpr int q4_k_bytes = 2 + 2 + 12 + 128;
void dequantize_q4_k(const std::byte* block, float* out) {
    const float d = half_to_float(load_u16(block));
    const float dmin = half_to_float(load_u16(block + 2));
    const std::byte* packed = block + 4;
    const std::byte* nibbles = block + 16;
    for (int chunk = 0; chunk < 4; ++chunk) {
        const ScaleMin low = q4_k_scale_min(packed, 2 * chunk), high = q4_k_scale_min(packed, 2 * chunk + 1);
        const float low_scale = d * static_cast<float>(low.scale), low_min = dmin * static_cast<float>(low.min);
        const float high_scale = d * static_cast<float>(high.scale), high_min = dmin * static_cast<float>(high.min);
        for (int l = 0; l < 32; ++l) {
            const unsigned q = load_u8(nibbles + 32 * chunk + l);
            out[64 * chunk + l] = low_scale * static_cast<float>(q & 0x0fu) - low_min;
            out[64 * chunk + 32 + l] = high_scale * static_cast<float>(q >> 4) - high_min;
        }
    }
}

// Q6_K (block_q6_K, dequantize_row_q6_K): 128 bytes ql (low 4 bits), 64 bytes qh (high 2 bits),
// 16 int8 scales, f16 d. Each half of 128 values uses 64 bytes of ql and 32 of qh: value
// 32·quarter + l takes ql[l + 32·(quarter & 1)]'s low (quarters 0, 1) or high (2, 3) nibble and
// bits 2·quarter of qh[l]; every 16 values share a scale; value = d · scale · (q − 32).
constexpr int q6_k_bytes = 128 + 64 + 16 + 2;
void dequantize_q6_k(const std::byte* block, float* out) {
    const std::byte* ql = block;
    const std::byte* qh = block + 128;
    const std::byte* scales = block + 192;
    const float d = half_to_float(load_u16(block + 208));
    for (int half = 0; half < 2; ++half) {
        for (int quarter = 0; quarter < 4; ++quarter) {
            for (int l = 0; l < 32; ++l) {
                const unsigned low_byte = load_u8(ql + 64 * half + 32 * (quarter & 1) + l);
                const unsigned low = quarter < 2 ? (low_byte & 0x0fu) : (low_byte >> 4);
                const unsigned high = (load_u8(qh + 32 * half + l) >> (2 * quarter)) & 3u;
                const int q = static_cast<int>(low | (high << 4)) - 32;
                const int value = 128 * half + 32 * quarter + l;
                out[value] = d * static_cast<float>(load_i8(scales + value / 16)) * static_cast<float>(q);
            }
        }
    }
}

template <int bytes_per_block, int values_per_block>
void dequantize_blocks(void (*decode)(const std::byte*, float*), const std::byte* in, std::span<float> out) {
    for (std::size_t block = 0; block < out.size() / values_per_block; ++block) decode(in + block * bytes_per_block, out.data() + block * values_per_block);
}

}  // namespace

std::string_view to_string(Format format) {
    switch (format) {
        case Format::F32: return "F32";
        case Format::F16: return "F16";
        case Format::BF16: return "BF16";
        case Format::F8_E4M3: return "F8_E4M3";
        case Format::F8_E5M2: return "F8_E5M2";
        case Format::Q8_0: return "Q8_0";
        case Format::Q4_K: return "Q4_K";
        case Format::Q6_K: return "Q6_K";
    }
    return "?";
}

// The codes of ggml.h's enum ggml_type.
std::optional<Format> format_of_gguf(std::uint32_t type) {
    switch (type) {
        case 0: return Format::F32;
        case 1: return Format::F16;
        case 8: return Format::Q8_0;
        case 12: return Format::Q4_K;
        case 14: return Format::Q6_K;
        case 30: return Format::BF16;
        default: return std::nullopt;
    }
}

// safetensors' Dtype names (safetensors/src/tensor.rs); "F8_E4M3" is PyTorch's float8_e4m3fn.
std::optional<Format> format_of_dtype(std::string_view dtype) {
    if (dtype == "F32") return Format::F32;
    if (dtype == "F16") return Format::F16;
    if (dtype == "BF16") return Format::BF16;
    if (dtype == "F8_E4M3") return Format::F8_E4M3;
    if (dtype == "F8_E5M2") return Format::F8_E5M2;
    return std::nullopt;
}

int block_values(Format format) {
    switch (format) {
        case Format::Q8_0: return 32;
        case Format::Q4_K:
        case Format::Q6_K: return 256;
        default: return 1;
    }
}

int block_bytes(Format format) {
    switch (format) {
        case Format::F32: return 4;
        case Format::F16:
        case Format::BF16: return 2;
        case Format::F8_E4M3:
        case Format::F8_E5M2: return 1;
        case Format::Q8_0: return q8_0_bytes;
        case Format::Q4_K: return q4_k_bytes;
        case Format::Q6_K: return q6_k_bytes;
    }
    return 1;
}

std::size_t bytes_of(Format format, std::uint64_t values) {
    const auto per_block = static_cast<std::uint64_t>(block_values(format));
    if (values % per_block != 0) {
        throw InputError(fmt::format("{} values of {} are not whole blocks of {}", values, to_string(format), per_block));
    }
    const std::uint64_t blocks = values / per_block;
    const auto size = static_cast<std::uint64_t>(block_bytes(format));
    if (blocks > std::numeric_limits<std::size_t>::max() / size) {
        throw InputError(fmt::format("{} values of {} are more bytes than this machine can address", values, to_string(format)));
    }
    return static_cast<std::size_t>(blocks * size);
}

void dequantize(Format format, std::span<const std::byte> bytes, std::span<float> out) {
    const std::size_t needed = bytes_of(format, out.size());
    if (bytes.size() < needed) {
        throw InputError(fmt::format("{} values of {} need {} bytes, only {} are there", out.size(), to_string(format), needed, bytes.size()));
    }
    const std::byte* in = bytes.data();
    switch (format) {
        case Format::F32:
            for (std::size_t i = 0; i < out.size(); ++i) out[i] = std::bit_cast<float>(load_u32(in + 4 * i));
            return;
        case Format::F16:
            for (std::size_t i = 0; i < out.size(); ++i) out[i] = half_to_float(load_u16(in + 2 * i));
            return;
        case Format::BF16:
            for (std::size_t i = 0; i < out.size(); ++i) out[i] = bf16_to_float(load_u16(in + 2 * i));
            return;
        case Format::F8_E4M3: return decode_bytes(table_of<e4m3fn_to_float>(), in, out);
        case Format::F8_E5M2: return decode_bytes(table_of<e5m2_to_float>(), in, out);
        case Format::Q8_0: return dequantize_blocks<q8_0_bytes, 32>(dequantize_q8_0, in, out);
        case Format::Q4_K: return dequantize_blocks<q4_k_bytes, 256>(dequantize_q4_k, in, out);
        case Format::Q6_K: return dequantize_blocks<q6_k_bytes, 256>(dequantize_q6_k, in, out);
    }
}

// IEEE binary16: bias 15; every half is exactly a float, so the bits are moved, not computed:
// a normal half's exponent is rebiased to float's (+112), a subnormal m is m · 2^−24 (exact).
float half_to_float(std::uint16_t bits) {
    const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
    const std::uint32_t exponent = (bits >> 10) & 0x1fu;
    const std::uint32_t mantissa = bits & 0x3ffu;
    if (exponent == 0) {
        const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
        return sign ? -magnitude : magnitude;
    }
    if (exponent == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

// bfloat16 is the top half of a float32.
float bf16_to_float(std::uint16_t bits) { return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16); }

}  // namespace ropelab::models
