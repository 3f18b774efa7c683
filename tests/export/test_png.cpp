// core/png: every image written decodes, through stb_image's own inflater and unfilterer, to
// exactly its pixels, and every chunk is as the PNG specification lays it out (CRC-32 checked
// by a bitwise implementation written here, not zlib's table).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <stb_image.h>

#include "core/png.h"

namespace ropelab {
namespace {

std::uint32_t crc32_bitwise(const unsigned char* data, std::size_t size) {
    std::uint32_t crc = 0xFFFFFFFFu;
    for (std::size_t i = 0; i < size; ++i) {
        crc ^= data[i];
        for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return crc ^ 0xFFFFFFFFu;
}

std::uint32_t be32(const std::string& s, std::size_t at) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(s[at])) << 24 | static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 1])) << 16 |
           static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 2])) << 8 | static_cast<unsigned char>(s[at + 3]);
}

struct Chunk {
    std::string type;
    std::size_t size;
};

// The chunks in order, each one's CRC checked; the 8-byte signature first.
std::vector<Chunk> chunks_of(const std::string& png) {
    std::vector<Chunk> out;
    EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    for (std::size_t at = 8; at + 12 <= png.size();) {
        const std::size_t size = be32(png, at);
        if (at + 12 + size > png.size()) {
            ADD_FAILURE() << "a chunk runs past the end";
            break;
        }
        const auto* typed = reinterpret_cast<const unsigned char*>(png.data() + at + 4);
        EXPECT_EQ(be32(png, at + 8 + size), crc32_bitwise(typed, size + 4)) << "CRC of chunk " << out.size();
        out.push_back({png.substr(at + 4, 4), size});
        at += 12 + size;
    }
    return out;
}

// Encodes, checks the layout and decodes with stb_image: the same pixels, RGBA.
void expect_round_trip(const std::vector<unsigned char>& rgba, int width, int height, const std::string& what) {
    const std::string png = encode_png(rgba.data(), width, height);
    ASSERT_FALSE(png.empty()) << what;
    const std::vector<Chunk> chunks = chunks_of(png);
    ASSERT_GE(chunks.size(), 3u) << what;
    EXPECT_EQ(chunks.front().type, "IHDR");
    EXPECT_EQ(chunks.front().size, 13u);
    EXPECT_EQ(be32(png, 16), static_cast<std::uint32_t>(width)) << what;
    EXPECT_EQ(be32(png, 20), static_cast<std::uint32_t>(height)) << what;
    EXPECT_EQ(png.substr(24, 5), std::string("\x08\x06\x00\x00\x00", 5)) << what << ": 8-bit RGBA, deflate, five filters, no interlace";
    EXPECT_EQ(chunks.back().type, "IEND");
    EXPECT_EQ(chunks.back().size, 0u);
    for (std::size_t i = 1; i + 1 < chunks.size(); ++i) {
        EXPECT_EQ(chunks[i].type, "IDAT") << what;
        EXPECT_LE(chunks[i].size, std::size_t{1} << 20) << what;
    }
    int w = 0, h = 0, channels = 0;
    unsigned char* decoded = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(png.data()), static_cast<int>(png.size()), &w, &h, &channels, 4);
    ASSERT_NE(decoded, nullptr) << what << ": " << stbi_failure_reason();
    EXPECT_EQ(w, width);
    EXPECT_EQ(h, height);
    EXPECT_EQ(channels, 4);
    EXPECT_TRUE(std::equal(rgba.begin(), rgba.end(), decoded)) << what << ": the pixels differ";
    stbi_image_free(decoded);
}

TEST(Png, NoiseGradientsAndEdgesDecodeToTheirPixels) {
    std::mt19937 rng(7);
    const std::pair<int, int> sizes[] = {{1, 1}, {1, 9}, {9, 1}, {7, 3}, {64, 64}, {333, 17}, {640, 360}};
    for (const auto& [w, h] : sizes) {
        const std::size_t n = static_cast<std::size_t>(w) * h * 4;
        std::vector<unsigned char> noise(n), gradient(n), flat(n, 200), bands(n);
        for (std::size_t i = 0; i < n; ++i) noise[i] = static_cast<unsigned char>(rng());
        for (int y = 0; y < h; ++y) {
            for (int x = 0; x < w; ++x) {
                unsigned char* g = &gradient[(static_cast<std::size_t>(y) * w + x) * 4];
                g[0] = static_cast<unsigned char>(x * 255 / w);
                g[1] = static_cast<unsigned char>(y * 255 / h);
                g[2] = static_cast<unsigned char>((x + y) & 255);
                g[3] = static_cast<unsigned char>(255 - (x ^ y));
                unsigned char* b = &bands[(static_cast<std::size_t>(y) * w + x) * 4];
                b[0] = b[1] = b[2] = (y / 4) % 2 ? 30 : 230;  // a UI's rows of text and background
                b[3] = 255;
            }
        }
        const std::string size = std::to_string(w) + "x" + std::to_string(h);
        expect_round_trip(noise, w, h, "noise " + size);
        expect_round_trip(gradient, w, h, "gradient " + size);
        expect_round_trip(flat, w, h, "flat " + size);
        expect_round_trip(bands, w, h, "bands " + size);
    }
}

// Noise does not compress: 1.7 MB of it fills two IDAT chunks.
TEST(Png, LargeImagesSpanSeveralDataChunks) {
    const int w = 700, h = 600;
    std::vector<unsigned char> noise(static_cast<std::size_t>(w) * h * 4);
    std::mt19937 rng(11);
    for (unsigned char& c : noise) c = static_cast<unsigned char>(rng());
    const std::string png = encode_png(noise.data(), w, h);
    EXPECT_GE(chunks_of(png).size(), 4u);
    expect_round_trip(noise, w, h, "700x600 noise");
}

TEST(Png, EmptySizesGiveNothing) {
    const unsigned char pixel[4] = {1, 2, 3, 4};
    EXPECT_TRUE(encode_png(pixel, 0, 1).empty());
    EXPECT_TRUE(encode_png(pixel, 1, 0).empty());
    EXPECT_TRUE(encode_png(pixel, -1, 1).empty());
}

}  // namespace
}  // namespace ropelab
