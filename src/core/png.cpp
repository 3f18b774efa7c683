#include "core/png.h"

#include <array>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <zlib.h>

namespace ropelab {

namespace {

constexpr int kChannels = 4;
constexpr std::size_t kMaxChunk = std::size_t{1} << 20;  // IDAT chunks of at most 1 MiB

void put_u32(std::string& out, std::uint32_t v) {
    const char bytes[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
    out.append(bytes, 4);
}

// Length, type, data and the CRC-32 of type and data.
void put_chunk(std::string& out, const char type[4], const unsigned char* data, std::size_t size) {
    put_u32(out, static_cast<std::uint32_t>(size));
    const std::size_t type_at = out.size();
    out.append(type, 4);
    if (size > 0) out.append(reinterpret_cast<const char*>(data), size);
    const auto* crc_from = reinterpret_cast<const Bytef*>(out.data() + type_at);
    put_u32(out, static_cast<std::uint32_t>(crc32(0L, crc_from, static_cast<uInt>(size + 4))));
}

unsigned char paeth(int a, int b, int c) {
    const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
    return static_cast<unsigned char>(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

// Row `x` filtered by filter Type (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth) against the row
// above, `up` (zeros above the first), into `out`; returns the sum of the bytes taken as signed.
// A template, so each filter's loop is its own straight line.
template <int Type>
std::uint64_t filter_row(const unsigned char* x, const unsigned char* up, std::size_t n, unsigned char* out) {
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const int a = i >= kChannels ? x[i - kChannels] : 0, b = up[i];
        int predicted = 0;
        if constexpr (Type == 1) predicted = a;
        if constexpr (Type == 2) predicted = b;
        if constexpr (Type == 3) predicted = (a + b) / 2;
        if constexpr (Type == 4) predicted = paeth(a, b, i >= kChannels ? up[i - kChannels] : 0);
        out[i] = static_cast<unsigned char>(x[i] - predicted);
        sum += static_cast<std::uint64_t>(std::abs(static_cast<int>(static_cast<signed char>(out[i]))));
    }
    return sum;
}

using RowFilter = std::uint64_t (*)(const unsigned char*, const unsigned char*, std::size_t, unsigned char*);
constexpr RowFilter kFilters[5] = {filter_row<0>, filter_row<1>, filter_row<2>, filter_row<3>, filter_row<4>};

}  // namespace

std::string encode_png(const unsigned char* rgba, int width, int height) {
    if (width < 1 || height < 1) return {};
    const std::size_t row = static_cast<std::size_t>(width) * kChannels;

    z_stream z{};
    if (deflateInit(&z, Z_DEFAULT_COMPRESSION) != Z_OK) return {};
    std::string idat;
    std::vector<unsigned char> deflated(kMaxChunk);
    std::string out("\x89PNG\r\n\x1a\n", 8);
    const auto flush = [&](std::size_t produced) {
        if (produced > 0) put_chunk(idat, "IDAT", deflated.data(), produced);
    };
    // Feeds `input` to deflate, writing an IDAT chunk each time the buffer fills.
    const auto feed = [&](const unsigned char* input, std::size_t size, int mode) {
        z.next_in = const_cast<Bytef*>(input);
        z.avail_in = static_cast<uInt>(size);
        for (;;) {
            z.next_out = deflated.data();
            z.avail_out = static_cast<uInt>(deflated.size());
            const int status = deflate(&z, mode);
            if (status == Z_STREAM_ERROR) return false;
            flush(deflated.size() - z.avail_out);
            // Finishing ends with the stream's end; otherwise room left over means every input
            // byte was taken and nothing waits to come out.
            if (mode == Z_FINISH ? status == Z_STREAM_END : z.avail_out != 0) return true;
        }
    };

    std::vector<unsigned char> zeros(row, 0), best(row + 1), trial(row);
    bool ok = true;
    for (int y = 0; y < height && ok; ++y) {
        const unsigned char* x = rgba + static_cast<std::size_t>(y) * row;
        const unsigned char* up = y > 0 ? x - row : zeros.data();
        std::uint64_t best_sum = UINT64_MAX;
        for (int type = 0; type < 5; ++type) {
            const std::uint64_t sum = kFilters[type](x, up, row, trial.data());
            if (sum < best_sum) {
                best_sum = sum;
                best[0] = static_cast<unsigned char>(type);
                std::memcpy(best.data() + 1, trial.data(), row);
            }
        }
        ok = feed(best.data(), best.size(), Z_NO_FLUSH);
    }
    ok = ok && feed(nullptr, 0, Z_FINISH);
    deflateEnd(&z);
    if (!ok) return {};

    std::array<unsigned char, 13> header{};
    for (int i = 0; i < 4; ++i) {
        header[i] = static_cast<unsigned char>(static_cast<std::uint32_t>(width) >> (24 - 8 * i));
        header[4 + i] = static_cast<unsigned char>(static_cast<std::uint32_t>(height) >> (24 - 8 * i));
    }
    header[8] = 8;  // bits per channel
    header[9] = 6;  // colour type: RGBA
    // compression 0 (deflate), filter method 0 (the five filters), interlace 0 (none)
    put_chunk(out, "IHDR", header.data(), header.size());
    out += idat;
    put_chunk(out, "IEND", nullptr, 0);
    return out;
}

}  // namespace ropelab
