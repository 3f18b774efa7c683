#pragma once
// Animations: frames streamed through a pipe into the ffmpeg program (no temporary frame files),
// or a folder of PNGs that needs no ffmpeg. A GIF's palette is made from all its frames before
// the first is written: frames that fit in kOneGifPassBytes are rendered once and ffmpeg holds
// them while it makes the palette; longer ones take two passes over the same deterministic
// frames, the first building the palette, the second using it (one pass would hold every frame
// in memory: ~1 GB for 300 frames at 1280×720).
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "export/image.h"

namespace ropelab {

enum class VideoFormat { Gif, Mp4, PngSequence };

// H.264 in 4:2:0 needs even sides: a frame is padded right and below (black), as ffmpeg's
// `pad=ceil(iw/2)*2:ceil(ih/2)*2` did, so no pixel of it is lost.
constexpr int even_up(int n) { return n + (n & 1); }
// One frame as ffmpeg's `-f rawvideo -pix_fmt yuv420p` reads it: the Y plane (width × height),
// then U, then V ((width/2) × (height/2) each), rows top-down; width and height even. BT.709
// limited ("tv") range, the colours the MP4 is tagged with.
struct Yuv420Frame {
    int width = 0, height = 0;
    std::span<const unsigned char> bytes;
};
constexpr std::size_t yuv420_frame_bytes(int width, int height) {
    return static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3 / 2;
}

// From the target: DIR/ (or an existing folder) → PNG sequence, .gif, .mp4; else false with
// the reason. Also checks the target by the rules of core/atomic_file.h.
bool video_format_for(const std::string& path, VideoFormat& format, std::string& error);

// Full path of `ffmpeg` on PATH, or empty.
std::string find_ffmpeg();

class VideoWriter {
public:
    // `frames`: how many will be written (0: not known; a GIF then takes two passes).
    VideoWriter(std::string path, VideoFormat format, int width, int height, int fps, int frames = 0);
    ~VideoWriter();  // cancels if not finished: nothing is left under the target name
    VideoWriter(const VideoWriter&) = delete;
    VideoWriter& operator=(const VideoWriter&) = delete;

    int passes() const;
    static constexpr std::size_t kOneGifPassBytes = std::size_t{256} << 20;  // RGBA frames ffmpeg may hold
    bool begin_pass(int pass, std::string& error);
    // GIF and MP4: the frame is queued (up to kQueuedFrames) and a writer thread feeds ffmpeg,
    // so the next frame is drawn while ffmpeg takes this one; a failure shows at a later write
    // or at end_pass. PNG sequence: written here.
    bool write(const RgbaImage& frame, std::string& error);
    // MP4 takes yuv420p frames (padded to even_up sides) instead of RGBA.
    bool takes_yuv420() const { return format_ == VideoFormat::Mp4; }
    bool write(const Yuv420Frame& frame, std::string& error);
    bool end_pass(std::string& error);   // the last pass moves the result into place
    void cancel();                        // removes whatever was written

    static constexpr std::size_t kQueuedFrames = 2;

private:
    void feed_ffmpeg();        // the writer thread
    // Copies the frame's bytes into a queued buffer (the only copy on our side) for the thread.
    bool queue_for_ffmpeg(std::span<const unsigned char> bytes, std::string& error);
    bool stop_feeding();       // joins it; false when a write to ffmpeg failed
    bool start_ffmpeg(const std::vector<std::string>& arguments, std::string& error);
    // Waits for ffmpeg to finish the file; with stop_now, kills it first (a cancel).
    bool close_ffmpeg(std::string& error, bool stop_now = false);

    std::string path_;
    PartialFile file_;                      // .gif, .mp4
    PartialFolder folder_;                  // PNG sequence
    std::unique_ptr<ScratchFile> palette_;  // GIF's first pass
    // ffmpeg's error output: it exits 0 even when writing the trailer hit a full disk, so any
    // line here (it runs with -loglevel error) fails the export.
    std::unique_ptr<ScratchFile> log_;
    VideoFormat format_;
    int width_, height_, fps_, frames_;
    int pass_ = 0, frame_ = 0;
    std::FILE* pipe_ = nullptr;
    int child_ = 0;  // ffmpeg's pid while it runs
    // Frames on their way to ffmpeg, and spent buffers to reuse (no 3.7 MB allocation a frame).
    std::thread feeder_;
    std::mutex queue_mutex_;
    std::condition_variable queue_changed_;
    std::deque<std::vector<unsigned char>> queued_, spare_;
    bool feeding_ = false, feed_failed_ = false;
    bool finished_ = false;
};

}  // namespace ropelab
