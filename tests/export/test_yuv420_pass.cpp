// The offscreen renderer's RGBA → yuv420p pass (what MP4 exports stream to ffmpeg), in this
// process: its bytes for a rendered lab frame against a float64 BT.709 limited-range conversion
// of the RGBA that the same frame reads back as, at an odd size (padding) and at 1280×720.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "lab/lab.h"
#include "offscreen.h"
#include "views/lab_view.h"

namespace ropelab {
namespace {

// BT.709: Kr = 0.2126, Kb = 0.0722; limited range Y in 16..235, Cb/Cr in 16..240.
struct Ycbcr {
    double y, cb, cr;
};
Ycbcr ycbcr_bt709_limited(double r, double g, double b) {
    const double luma = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    return {16.0 + 219.0 * luma, 128.0 + 224.0 * (b - luma) / (2.0 * (1.0 - 0.0722)),
            128.0 + 224.0 * (r - luma) / (2.0 * (1.0 - 0.2126))};
}

// The expected byte stream: Y plane, then U, then V, each chroma sample from its 2×2 block's
// mean colour; pixels beyond the frame (the even-size padding) are black.
std::vector<double> expected_yuv420(const RgbaImage& frame) {
    const int width = frame.width + (frame.width & 1), height = frame.height + (frame.height & 1);
    auto channel = [&](int x, int y, int c) {
        if (x >= frame.width || y >= frame.height) return 0.0;
        return frame.pixels[(static_cast<std::size_t>(y) * frame.width + x) * 4 + c] / 255.0;
    };
    std::vector<double> out;
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) out.push_back(ycbcr_bt709_limited(channel(x, y, 0), channel(x, y, 1), channel(x, y, 2)).y);
    }
    for (int plane = 0; plane < 2; ++plane) {
        for (int y = 0; y < height; y += 2) {
            for (int x = 0; x < width; x += 2) {
                double mean[3] = {0, 0, 0};
                for (int c = 0; c < 3; ++c) {
                    mean[c] = (channel(x, y, c) + channel(x + 1, y, c) + channel(x, y + 1, c) + channel(x + 1, y + 1, c)) / 4;
                }
                const Ycbcr v = ycbcr_bt709_limited(mean[0], mean[1], mean[2]);
                out.push_back(plane == 0 ? v.cb : v.cr);
            }
        }
    }
    return out;
}

void expect_pass_matches(int width, int height) {
    std::string why;
    std::unique_ptr<OffscreenRenderer> renderer = OffscreenRenderer::create(width, height, why);
    if (!renderer) GTEST_SKIP() << "no offscreen GL: " << why;
    LabParams p;
    p.show_controls = true;  // the whole window: text, plots, colours of every theme element
    p.focused_view = -1;
    auto lab = std::make_unique<Lab>(renderer->device(), p, Pace::AllAtOnce);
    auto view = std::make_unique<views::LabView>(*lab);
    const RgbaImage frame = renderer->render(*view, false, 0.0, 3);
    const std::vector<unsigned char> yuv = renderer->read_yuv420();
    const std::vector<double> want = expected_yuv420(frame);
    ASSERT_EQ(yuv.size(), want.size());
    const std::size_t luma = static_cast<std::size_t>(width + (width & 1)) * (height + (height & 1));
    ASSERT_EQ(want.size(), luma * 3 / 2);
    int worst = 0;
    std::size_t worst_at = 0, off_by_one = 0;
    int lowest = 255, highest = 0;
    for (std::size_t i = 0; i < yuv.size(); ++i) {
        const int d = std::abs(static_cast<int>(yuv[i]) - static_cast<int>(std::lround(want[i])));
        if (d > worst) worst = d, worst_at = i;
        off_by_one += d == 1;
        if (i < luma) lowest = std::min<int>(lowest, yuv[i]), highest = std::max<int>(highest, yuv[i]);
    }
    EXPECT_LE(worst, 1) << "byte " << worst_at << " of " << yuv.size() << ": " << int(yuv[worst_at]) << " vs " << want[worst_at];
    EXPECT_LT(off_by_one, yuv.size() / 100) << "float32 rounding at x.5 is rare, not the rule";
    // A real frame (text and plots), inside limited range.
    EXPECT_GE(lowest, 16);
    EXPECT_LE(highest, 235);
    EXPECT_GT(highest - lowest, 100);
    // Odd sides: the padding column and row are black (Y 16).
    if (width & 1) {
        EXPECT_EQ(yuv[static_cast<std::size_t>(width)], 16);
    }
    if (height & 1) {
        EXPECT_EQ(yuv[luma - 1], 16);
    }
}

TEST(Yuv420Pass, OddSizeEqualsFloat64Bt709) { expect_pass_matches(321, 181); }

TEST(Yuv420Pass, HdFrameEqualsFloat64Bt709) { expect_pass_matches(1280, 720); }

}  // namespace
}  // namespace ropelab
