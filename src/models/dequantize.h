#pragma once
// Weights to float, from each format's definition: IEEE F32/F16, BF16, the FP8 formats of
// safetensors (E4M3 "fn": no infinities, S.1111.111 is NaN; E5M2), and ggml's block formats
// (ggml-common.h, ggml-quants.c): Q8_0 (an f16 scale, 32 int8 — 34 bytes per 32), Q4_K (an f16
// d and dmin, 12 bytes of 6-bit scales and mins, 128 bytes of nibbles — 144 per 256), Q6_K (128
// bytes of low nibbles, 64 of high bits, 16 int8 scales, f16 d — 210 per 256).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace ropelab::models {

enum class Format { F32, F16, BF16, F8_E4M3, F8_E5M2, Q8_0, Q4_K, Q6_K };
std::string_view to_string(Format format);

// The format of a GGUF tensor type code or a safetensors dtype; nullopt for one ropelab cannot read.
std::optional<Format> format_of_gguf(std::uint32_t type);
std::optional<Format> format_of_dtype(std::string_view dtype);

// Values per block (1 for the plain types, 32 or 256) and bytes per block.
int block_values(Format format);
int block_bytes(Format format);
// The bytes of `values` values; throws InputError when `values` is not whole blocks.
std::size_t bytes_of(Format format, std::uint64_t values);

// Decodes out.size() values (whole blocks) from `bytes` (at least bytes_of(format, out.size())).
void dequantize(Format format, std::span<const std::byte> bytes, std::span<float> out);

float half_to_float(std::uint16_t bits);
float bf16_to_float(std::uint16_t bits);

}  // namespace ropelab::models
