#pragma once
// The export's RGBA → yuv420p conversion on the GPU: a fragment pass over the frame the offscreen
// renderer drew, whose targets read back as exactly the bytes ffmpeg's rawvideo yuv420p takes
// (export/video.h: Yuv420Frame). Every call needs the GL context it was first used in current.
#include <cstdint>

namespace ropelab {

// A texture to render into (GL_RGBA8, GL_RG8 or GL_R8), nearest-sampled: the offscreen frame and
// the pass's targets.
unsigned make_target_texture(int format, int width, int height);

class Yuv420Pass {
public:
    // For frames of width × height (odd sides are padded to even with black).
    Yuv420Pass(int width, int height) : width_(width), height_(height) {}
    ~Yuv420Pass();
    Yuv420Pass(const Yuv420Pass&) = delete;
    Yuv420Pass& operator=(const Yuv420Pass&) = delete;

    // Converts the RGBA texture `frame` (made on first use: program, framebuffer, four targets)
    // and leaves the pass's framebuffer bound for reading. False, the reason on stderr, when the
    // pass cannot be made.
    bool convert(unsigned frame);
    // The converted frame laid out as yuv420p at `base`: a pointer, or an offset into the bound
    // pixel-pack buffer.
    void read(std::uintptr_t base) const;

private:
    int width_, height_;
    unsigned framebuffer_ = 0, program_ = 0, vertex_array_ = 0;
    unsigned targets_[4] = {0, 0, 0, 0};  // Y of the blocks' top rows, bottom rows, Cb, Cr
};

}  // namespace ropelab
