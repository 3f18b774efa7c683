// Dequantisation checked against hand-worked numbers and float64 sums of each format's
// definition (ggml-common.h's block layouts, the IEEE / OCP 8-bit float layouts); the blocks are
// packed here by packers written from those descriptions, not by the code under test.
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.h"
#include "models/dequantize.h"

namespace ropelab::models {
namespace {

std::vector<std::byte> dq_bytes(std::initializer_list<unsigned> values) {
    std::vector<std::byte> out;
    for (unsigned v : values) out.push_back(static_cast<std::byte>(v));
    return out;
}

void dq_put_u16(std::vector<std::byte>& block, std::size_t at, std::uint16_t bits) {
    block[at] = static_cast<std::byte>(bits & 0xff);
    block[at + 1] = static_cast<std::byte>(bits >> 8);
}

std::vector<float> dq_decode(Format format, const std::vector<std::byte>& bytes, std::size_t values) {
    std::vector<float> out(values);
    dequantize(format, bytes, out);
    return out;
}

float dq_one(Format format, std::initializer_list<unsigned> bytes) { return dq_decode(format, dq_bytes(bytes), 1)[0]; }

// Tolerance of a float computation of a few roundings whose terms are this large.
double dq_tolerance(double magnitude) { return 4 * std::numeric_limits<float>::epsilon() * (magnitude + 1e-30); }

TEST(Dequantize, HalfSpecialValues) {
    EXPECT_EQ(half_to_float(0x3c00), 1.0f);
    EXPECT_EQ(half_to_float(0xc000), -2.0f);
    EXPECT_EQ(half_to_float(0x3555), 0.333251953125f);  // (1 + 341/1024) / 4
    EXPECT_EQ(half_to_float(0x7bff), 65504.0f);         // the largest half
    EXPECT_EQ(half_to_float(0x0400), 0x1p-14f);         // the smallest normal
    EXPECT_EQ(half_to_float(0x0001), 0x1p-24f);         // the smallest subnormal
    EXPECT_EQ(half_to_float(0x03ff), 1023 * 0x1p-24f);  // the largest subnormal
    EXPECT_EQ(half_to_float(0x8001), -0x1p-24f);
    EXPECT_EQ(half_to_float(0x0000), 0.0f);
    EXPECT_FALSE(std::signbit(half_to_float(0x0000)));
    EXPECT_TRUE(std::signbit(half_to_float(0x8000)));
    EXPECT_EQ(half_to_float(0x8000), 0.0f);
    EXPECT_EQ(half_to_float(0x7c00), std::numeric_limits<float>::infinity());
    EXPECT_EQ(half_to_float(0xfc00), -std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isnan(half_to_float(0x7e00)));
    EXPECT_TRUE(std::isnan(half_to_float(0x7c01)));
    EXPECT_TRUE(std::isnan(half_to_float(0xfe00)));
}

TEST(Dequantize, EveryHalfMatchesItsDefinition) {
    for (unsigned bits = 0; bits < 0x10000; ++bits) {
        const unsigned exponent = (bits >> 10) & 31, mantissa = bits & 1023;
        if (exponent == 31) continue;  // inf and NaN: checked above
        const double magnitude = exponent == 0 ? mantissa * std::pow(2.0, -24) : (1 + mantissa / 1024.0) * std::pow(2.0, int(exponent) - 15);
        const double expected = (bits & 0x8000) ? -magnitude : magnitude;
        ASSERT_EQ(static_cast<double>(half_to_float(static_cast<std::uint16_t>(bits))), expected) << std::hex << bits;
    }
}

TEST(Dequantize, Bf16IsTheTopHalfOfAFloat) {
    EXPECT_EQ(bf16_to_float(0x3f80), 1.0f);
    EXPECT_EQ(bf16_to_float(0xc049), -3.140625f);                  // −2 · (1 + 73/128)
    EXPECT_EQ(bf16_to_float(0x7f7f), 3.3895313892515355e38f);      // (2 − 2^−7) · 2^127
    EXPECT_EQ(bf16_to_float(0x0001), 0x1p-133f);                   // the smallest subnormal
    EXPECT_TRUE(std::signbit(bf16_to_float(0x8000)));
    EXPECT_EQ(bf16_to_float(0x7f80), std::numeric_limits<float>::infinity());
    EXPECT_EQ(bf16_to_float(0xff80), -std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isnan(bf16_to_float(0x7fc0)));
    // Through dequantize: little-endian pairs.
    EXPECT_EQ(dq_one(Format::BF16, {0x80, 0x3f}), 1.0f);
    EXPECT_EQ(dq_one(Format::F16, {0x00, 0x3c}), 1.0f);
    EXPECT_EQ(dq_one(Format::F16, {0x01, 0x00}), 0x1p-24f);
}

TEST(Dequantize, F32IsReadLittleEndian) {
    const auto out = dq_decode(Format::F32, dq_bytes({0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x20, 0xc1, 0x01, 0x00, 0x00, 0x00}), 3);
    EXPECT_EQ(out[0], 1.0f);
    EXPECT_EQ(out[1], -10.0f);
    EXPECT_EQ(out[2], 0x1p-149f);
}

TEST(Dequantize, E4M3fnHasNoInfinities) {
    EXPECT_EQ(dq_one(Format::F8_E4M3, {0x38}), 1.0f);          // exponent 7 = bias
    EXPECT_EQ(dq_one(Format::F8_E4M3, {0xc0}), -2.0f);
    EXPECT_EQ(dq_one(Format::F8_E4M3, {0x7e}), 448.0f);        // 1.75 · 2^8, the largest
    EXPECT_EQ(dq_one(Format::F8_E4M3, {0x78}), 256.0f);        // the top exponent is a number
    EXPECT_EQ(dq_one(Format::F8_E4M3, {0xfe}), -448.0f);
    EXPECT_EQ(dq_one(Format::F8_E4M3, {0x08}), 0.015625f);     // 2^−6, the smallest normal
    EXPECT_EQ(dq_one(Format::F8_E4M3, {0x01}), 0.001953125f);  // 1/8 · 2^−6
    EXPECT_EQ(dq_one(Format::F8_E4M3, {0x07}), 7 * 0.001953125f);
    EXPECT_TRUE(std::isnan(dq_one(Format::F8_E4M3, {0x7f})));
    EXPECT_TRUE(std::isnan(dq_one(Format::F8_E4M3, {0xff})));
    EXPECT_TRUE(std::signbit(dq_one(Format::F8_E4M3, {0x80})));
    EXPECT_EQ(dq_one(Format::F8_E4M3, {0x80}), 0.0f);
    int nans = 0;
    for (unsigned bits = 0; bits < 256; ++bits) {
        const float v = dq_one(Format::F8_E4M3, {bits});
        EXPECT_FALSE(std::isinf(v)) << bits;
        nans += std::isnan(v);
    }
    EXPECT_EQ(nans, 2);
}

TEST(Dequantize, E5M2IsIeeeLike) {
    EXPECT_EQ(dq_one(Format::F8_E5M2, {0x3c}), 1.0f);            // exponent 15 = bias
    EXPECT_EQ(dq_one(Format::F8_E5M2, {0x7b}), 57344.0f);        // 1.75 · 2^15, the largest
    EXPECT_EQ(dq_one(Format::F8_E5M2, {0x01}), 1.52587890625e-05f);  // 1/4 · 2^−14
    EXPECT_EQ(dq_one(Format::F8_E5M2, {0x04}), 0x1p-14f);
    EXPECT_EQ(dq_one(Format::F8_E5M2, {0x7c}), std::numeric_limits<float>::infinity());
    EXPECT_EQ(dq_one(Format::F8_E5M2, {0xfc}), -std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isnan(dq_one(Format::F8_E5M2, {0x7d})));
    EXPECT_TRUE(std::isnan(dq_one(Format::F8_E5M2, {0xff})));
    EXPECT_TRUE(std::signbit(dq_one(Format::F8_E5M2, {0x80})));
}

TEST(Dequantize, Q8_0IsScaleTimesInt) {
    std::vector<std::byte> block(34);
    dq_put_u16(block, 0, 0x3800);  // 0.5
    const std::array<int, 32> ints = {-128, -1, 0, 1, 127, 3, -7, 100, 5, 6, 7, 8, 9, 10, 11, 12,
                                      -13, -14, -15, -16, 17, 18, 19, 20, 21, 22, 23, 24, -25, -26, -27, 64};
    for (int i = 0; i < 32; ++i) block[2 + i] = static_cast<std::byte>(static_cast<std::uint8_t>(ints[i]));
    // A second block with another scale: blocks are decoded one after another.
    std::vector<std::byte> two = block;
    two.insert(two.end(), block.begin(), block.end());
    dq_put_u16(two, 34, 0xc000);  // −2
    const auto out = dq_decode(Format::Q8_0, two, 64);
    for (int i = 0; i < 32; ++i) {
        EXPECT_EQ(out[i], 0.5f * ints[i]) << i;
        EXPECT_EQ(out[32 + i], -2.0f * ints[i]) << i;
    }
    EXPECT_EQ(out[0], -64.0f);
    EXPECT_EQ(out[4], 63.5f);
}

// Q4_K's 12 scale bytes from the description in ggml-common.h: sub-blocks 0–3 keep their 6-bit
// scale in bytes 0–3 and min in bytes 4–7; sub-blocks 4–7 put their low 4 bits in bytes 8–11
// (scale in the low nibble, min in the high) and their top 2 bits in the top bits of bytes 0–3
// (scale) and 4–7 (min).
std::array<std::uint8_t, 12> dq_pack_q4_k_scales(const std::array<int, 8>& scales, const std::array<int, 8>& mins) {
    std::array<std::uint8_t, 12> out{};
    for (int j = 0; j < 4; ++j) {
        out[j] = static_cast<std::uint8_t>(scales[j] | ((scales[j + 4] >> 4) << 6));
        out[j + 4] = static_cast<std::uint8_t>(mins[j] | ((mins[j + 4] >> 4) << 6));
        out[j + 8] = static_cast<std::uint8_t>((scales[j + 4] & 15) | ((mins[j + 4] & 15) << 4));
    }
    return out;
}

TEST(Dequantize, Q4KHandWorkedScaleBits) {
    // d = dmin = 1. Byte 1's top bits 2 and byte 9's low nibble 3 make sub-block 5's scale
    // 2·16 + 3 = 35; byte 5's top bits 1 and byte 9's high nibble 5 its min 16 + 5 = 21.
    std::vector<std::byte> block(144);
    dq_put_u16(block, 0, 0x3c00);
    dq_put_u16(block, 2, 0x3c00);
    block[4 + 1] = std::byte{0x80};
    block[4 + 5] = std::byte{0x40};
    block[4 + 9] = std::byte{0x53};
    block[16 + 64] = std::byte{0x70};  // value 160 (sub-block 5: high nibbles of bytes 64…95) is 7
    const auto out = dq_decode(Format::Q4_K, block, 256);
    EXPECT_EQ(out[160], 35.0f * 7 - 21);
    EXPECT_EQ(out[161], -21.0f);  // nibble 0
    EXPECT_EQ(out[128], 0.0f);    // sub-block 4: scale and min 0, nibble 0
    EXPECT_EQ(out[32], 0.0f);     // sub-block 1: the low 6 bits of bytes 1 and 5 are 0
}

TEST(Dequantize, Q4KEveryValueAgainstFloat64) {
    std::mt19937 random(39);
    const std::uint16_t d_bits = 0x2e66, dmin_bits = 0x2a00;
    const double d = (1 + 614 / 1024.0) / 16;  // 0x2e66: exponent 11, mantissa 614
    const double dmin = 1.5 / 32;              // 0x2a00: exponent 10, mantissa 512
    std::array<int, 8> scales{}, mins{};
    for (int j = 0; j < 8; ++j) {
        scales[j] = static_cast<int>(random() % 64);
        mins[j] = static_cast<int>(random() % 64);
    }
    scales[7] = 63;  // the extremes of 6 bits
    mins[6] = 63;
    scales[4] = 0;
    std::array<int, 256> q{};
    for (int& v : q) v = static_cast<int>(random() % 16);

    std::vector<std::byte> block(144);
    dq_put_u16(block, 0, d_bits);
    dq_put_u16(block, 2, dmin_bits);
    const auto packed = dq_pack_q4_k_scales(scales, mins);
    for (int i = 0; i < 12; ++i) block[4 + i] = static_cast<std::byte>(packed[i]);
    // 32 bytes per 64 values: the first 32 values in the low nibbles, the next 32 in the high.
    for (int v = 0; v < 256; ++v) {
        const int byte = 16 + 32 * (v / 64) + v % 32;
        const int shift = (v % 64) < 32 ? 0 : 4;
        block[byte] |= static_cast<std::byte>(q[v] << shift);
    }
    const auto out = dq_decode(Format::Q4_K, block, 256);
    for (int v = 0; v < 256; ++v) {
        const int sub = v / 32;
        const double scaled = d * scales[sub] * q[v], shift = dmin * mins[sub];
        EXPECT_NEAR(out[v], scaled - shift, dq_tolerance(std::abs(scaled) + shift)) << "value " << v;
    }
}

TEST(Dequantize, Q6KHandWorkedBits) {
    // ql[0] = 0x21: value 0's low bits 1, value 64's 2; qh[0] = 0b11'10'01'00: values 0, 32, 64,
    // 96 get high bits 0, 1, 2, 3; scales 1, −2, 3, 4 for their 16-value groups; d = 0.5.
    std::vector<std::byte> block(210);
    block[0] = std::byte{0x21};
    block[128] = std::byte{0xe4};
    block[192 + 0] = std::byte{1};
    block[192 + 2] = static_cast<std::byte>(static_cast<std::uint8_t>(-2));
    block[192 + 4] = std::byte{3};
    block[192 + 6] = std::byte{4};
    dq_put_u16(block, 208, 0x3800);
    const auto out = dq_decode(Format::Q6_K, block, 256);
    EXPECT_EQ(out[0], 0.5f * 1 * (1 - 32));
    EXPECT_EQ(out[32], 0.5f * -2 * (16 - 32));
    EXPECT_EQ(out[64], 0.5f * 3 * (2 + 32 - 32));
    EXPECT_EQ(out[96], 0.5f * 4 * (48 - 32));
    EXPECT_EQ(out[1], 0.5f * 1 * -32);  // all bits 0: q − 32
}

TEST(Dequantize, Q6KEveryValueAgainstFloat64) {
    std::mt19937 random(6);
    std::array<int, 16> scales{};
    for (int& s : scales) s = static_cast<int>(random() % 256) - 128;
    scales[0] = -128;
    scales[15] = 127;
    std::array<int, 256> q{};
    for (int& v : q) v = static_cast<int>(random() % 64);
    q[0] = 63;
    q[255] = 0;

    // Each 128 values take 64 bytes of ql and 32 of qh: value 32·k + l (k = 0…3) puts its low 4
    // bits in ql[l + 32·(k mod 2)] (low nibble for k < 2, high for k ≥ 2) and its top 2 bits in
    // qh[l] at bit 2k.
    std::vector<std::byte> block(210);
    for (int v = 0; v < 256; ++v) {
        const int half = v / 128, k = (v % 128) / 32, l = v % 32;
        block[64 * half + 32 * (k % 2) + l] |= static_cast<std::byte>((q[v] & 15) << (k < 2 ? 0 : 4));
        block[128 + 32 * half + l] |= static_cast<std::byte>((q[v] >> 4) << (2 * k));
    }
    for (int i = 0; i < 16; ++i) block[192 + i] = static_cast<std::byte>(static_cast<std::uint8_t>(scales[i]));
    dq_put_u16(block, 208, 0x1e00);  // 1.5 · 2^−8
    const double d = 1.5 / 256;
    const auto out = dq_decode(Format::Q6_K, block, 256);
    for (int v = 0; v < 256; ++v) {
        const double expected = d * scales[v / 16] * (q[v] - 32);
        EXPECT_NEAR(out[v], expected, dq_tolerance(std::abs(expected))) << "value " << v;
    }
}

TEST(Dequantize, BytesOfWholeBlocksOnly) {
    EXPECT_EQ(bytes_of(Format::F32, 3), 12u);
    EXPECT_EQ(bytes_of(Format::BF16, 5), 10u);
    EXPECT_EQ(bytes_of(Format::F8_E4M3, 7), 7u);
    EXPECT_EQ(bytes_of(Format::Q8_0, 64), 68u);
    EXPECT_EQ(bytes_of(Format::Q4_K, 512), 288u);
    EXPECT_EQ(bytes_of(Format::Q6_K, 256), 210u);
    EXPECT_EQ(bytes_of(Format::Q8_0, 0), 0u);
    EXPECT_THROW(bytes_of(Format::Q8_0, 33), InputError);
    EXPECT_THROW(bytes_of(Format::Q4_K, 255), InputError);
    EXPECT_THROW(bytes_of(Format::Q6_K, 257), InputError);
    EXPECT_THROW(bytes_of(Format::F32, std::uint64_t{1} << 63), InputError);  // past any address space
    try {
        bytes_of(Format::Q4_K, 100);
        FAIL() << "100 values of Q4_K were accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("Q4_K"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("100"), std::string::npos) << e.what();
    }
    // Too few bytes, or values that are not whole blocks, are refused before any is read.
    std::vector<float> out(32);
    EXPECT_THROW(dequantize(Format::Q8_0, std::vector<std::byte>(33), out), InputError);
    std::vector<float> odd(31);
    EXPECT_THROW(dequantize(Format::Q8_0, std::vector<std::byte>(34), odd), InputError);
}

TEST(Dequantize, FormatCodesAndNames) {
    EXPECT_EQ(format_of_gguf(0), Format::F32);
    EXPECT_EQ(format_of_gguf(1), Format::F16);
    EXPECT_EQ(format_of_gguf(8), Format::Q8_0);
    EXPECT_EQ(format_of_gguf(12), Format::Q4_K);
    EXPECT_EQ(format_of_gguf(14), Format::Q6_K);
    EXPECT_EQ(format_of_gguf(30), Format::BF16);
    EXPECT_EQ(format_of_gguf(2), std::nullopt);  // Q4_0: not read
    EXPECT_EQ(format_of_gguf(0xffffffffu), std::nullopt);
    EXPECT_EQ(format_of_dtype("F32"), Format::F32);
    EXPECT_EQ(format_of_dtype("BF16"), Format::BF16);
    EXPECT_EQ(format_of_dtype("F8_E4M3"), Format::F8_E4M3);
    EXPECT_EQ(format_of_dtype("F8_E5M2"), Format::F8_E5M2);
    EXPECT_EQ(format_of_dtype("I8"), std::nullopt);
    EXPECT_EQ(format_of_dtype("f32"), std::nullopt);
    EXPECT_EQ(to_string(Format::Q6_K), "Q6_K");
    EXPECT_EQ(block_values(Format::Q4_K), 256);
    EXPECT_EQ(block_bytes(Format::Q4_K), 144);
}

}  // namespace
}  // namespace ropelab::models
