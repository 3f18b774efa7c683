// Video through the real binary. MP4 colours: the frames the app encodes (yuv420p from its GPU
// pass, BT.709 limited range, tagged so) decode back by ffmpeg, which reads those tags, to the
// colours of the PNGs that `render` writes for the same frames. GIF: rendered once when ffmpeg
// may hold its frames, and then the very file ffmpeg's two passes make from those PNGs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "support/gl.h"
#include "support/image.h"
#include "support/run_binary.h"

namespace ropelab {
namespace {

using test::Result;
using test::run;

class VideoColour : public test::TempDirTest {
protected:
    VideoColour() : TempDirTest("video_colour") {}

    static std::string probe(const std::string& file) {
        return test::capture("ffprobe -v error -select_streams v:0 -show_entries "
                             "stream=width,height,pix_fmt,color_space,color_primaries,color_transfer,color_range -of "
                             "default=noprint_wrappers=1 '" + file + "'").out;
    }
    // Frame `k` of the MP4 as rgb24, ffmpeg converting by the stream's own colour tags (no
    // matrix or range named here: a stream tagged wrong decodes wrong).
    static std::vector<unsigned char> decoded_frame(const std::string& file, int k) {
        return bytes_of(test::capture("ffmpeg -v error -i '" + file + "' -vf 'select=eq(n\\," + std::to_string(k) +
                                      ")' -frames:v 1 -f rawvideo -pix_fmt rgb24 -").out);
    }
    static std::vector<unsigned char> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }
};

struct Difference {
    double mean = 0;           // mean |Δ| over every channel of every pixel
    double beyond_16 = 0;      // the share of channels off by more than 16 levels
};

// The decoded frame (`width` wide, padded) against the PNG over the PNG's pixels.
Difference difference(const std::vector<unsigned char>& rgb, int width, const test::Image& png) {
    Difference d;
    double n = 0;
    for (int y = 0; y < png.height; ++y) {
        for (int x = 0; x < png.width; ++x) {
            for (int c = 0; c < 3; ++c) {
                const double delta = std::abs(rgb[(static_cast<std::size_t>(y) * width + x) * 3 + c] - png.channel(x, y, c));
                d.mean += delta;
                d.beyond_16 += delta > 16;
                ++n;
            }
        }
    }
    d.mean /= n;
    d.beyond_16 /= n;
    return d;
}

// Tolerances: 4:2:0 keeps one colour per 2×2 block, so a coloured line a pixel wide (the plots'
// curves, coloured text) decodes blended with its neighbours; H.264 at CRF 18 adds a level or
// two. Measured on this whole-lab frame: mean 1.2 levels, 0.9 % of channels off by more than 16;
// the same file decoded as full range (its tag ignored) is off by a mean of 13. (The matrix
// itself is held to float64 BT.709 within a level by Yuv420Pass; on the lab's greys BT.601 and
// BT.709 agree, so this frame could not tell them apart.)
constexpr double kMeanLevels = 3.0;
constexpr double kShareBeyond16 = 0.03;

TEST_F(VideoColour, Mp4DecodesToThePngsOfTheSameFrames) {
    ROPELAB_SKIP_WITHOUT_GL();
    if (test::capture("command -v ffmpeg && command -v ffprobe").status != 0) GTEST_SKIP() << "no ffmpeg/ffprobe";
    const std::string frames = "--size 321x181 --frames 3 --fps 10 --animate position";
    Result r = run("render " + frames + " --out " + at("lab.mp4"));
    ASSERT_EQ(r.status, 0) << r.err;
    r = run("render " + frames + " --out " + at("png") + "/");
    ASSERT_EQ(r.status, 0) << r.err;

    // Odd sides padded to even, the pixel format and the colour tags.
    const std::string p = probe(at("lab.mp4"));
    for (const char* want : {"width=322", "height=182", "pix_fmt=yuv420p", "color_space=bt709", "color_primaries=bt709",
                             "color_transfer=bt709", "color_range=tv"}) {
        EXPECT_NE(p.find(want), std::string::npos) << want << " in\n" << p;
    }
    for (int k = 0; k < 3; ++k) {
        char name[32];
        std::snprintf(name, sizeof name, "png/frame_%05d.png", k);
        const test::Image png = test::load_png(at(name));
        ASSERT_EQ(png.width, 321);
        ASSERT_EQ(png.height, 181);
        const std::vector<unsigned char> rgb = decoded_frame(at("lab.mp4"), k);
        ASSERT_EQ(rgb.size(), 322u * 182u * 3u) << "frame " << k;
        const Difference d = difference(rgb, 322, png);
        EXPECT_LT(d.mean, kMeanLevels) << "frame " << k;
        EXPECT_LT(d.beyond_16, kShareBeyond16) << "frame " << k;
        // The padding is black.
        for (int y = 0; y < 181; y += 20) {
            const std::size_t pad = (static_cast<std::size_t>(y) * 322 + 321) * 3;
            EXPECT_LE(rgb[pad] + rgb[pad + 1] + rgb[pad + 2], 3 * 6) << "row " << y;
        }
    }
}

// The last "progress DONE TOTAL …" line's TOTAL (frames times passes), or -1.
int progress_total(const std::string& out) {
    std::istringstream lines(out);
    std::string line;
    int total = -1;
    while (std::getline(lines, line)) {
        int done = 0, t = 0;
        if (std::sscanf(line.c_str(), "progress %d %d", &done, &t) == 2) total = t;
    }
    return total;
}

TEST_F(VideoColour, ShortGifIsRenderedOnceAndEqualsFfmpegsTwoPasses) {
    ROPELAB_SKIP_WITHOUT_GL();
    if (test::capture("command -v ffmpeg").status != 0) GTEST_SKIP() << "no ffmpeg";
    const std::string frames = "--view heatmap --size 200x120 --frames 8 --fps 10 --animate theta";
    Result r = run("render --progress " + frames + " --out " + at("a.gif"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(progress_total(r.out), 8) << r.out;  // one pass
    ASSERT_EQ(run("render " + frames + " --out " + at("seq") + "/").status, 0);
    const std::string png = "-framerate 10 -i '" + at("seq") + "/frame_%05d.png'";
    ASSERT_EQ(test::capture("ffmpeg -v error " + png + " -vf palettegen=stats_mode=diff '" + at("palette.png") + "' && ffmpeg -v error " +
                            png + " -i '" + at("palette.png") + "' -lavfi paletteuse=dither=sierra2_4a -f gif '" + at("b.gif") + "'")
                  .status,
              0);
    const std::string mine = test::slurp(at("a.gif")), theirs = test::slurp(at("b.gif"));
    EXPECT_GT(mine.size(), 1000u);
    EXPECT_TRUE(mine == theirs) << mine.size() << " bytes vs " << theirs.size();
}

// Frames beyond what ffmpeg may hold (65 × 1024² RGBA = 260 MiB > 256 MiB) take two passes.
TEST_F(VideoColour, LongGifTakesTwoPasses) {
    ROPELAB_SKIP_WITHOUT_GL();
    if (test::capture("command -v ffmpeg && command -v ffprobe").status != 0) GTEST_SKIP() << "no ffmpeg/ffprobe";
    const Result r = run("render --progress --view planes --size 1024x1024 --frames 65 --fps 10 --out " + at("long.gif"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(progress_total(r.out), 130) << r.out;
    const std::string p = test::capture("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                                        "stream=nb_read_frames -of csv=p=0 '" + at("long.gif") + "'").out;
    EXPECT_EQ(p, "65\n");
}

}  // namespace
}  // namespace ropelab
