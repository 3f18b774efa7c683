#pragma once
// Animations: frames streamed through a pipe into the ffmpeg program (no temporary frame files),
// or a folder of PNGs that needs no ffmpeg. GIF takes two passes over the same deterministic
// frames: the first builds the palette, the second uses it (one pass would hold every frame in
// memory: ~1 GB at 1280×720).
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "export/image.h"

namespace ropelab {

enum class VideoFormat { Gif, Mp4, PngSequence };

// From the target: DIR/ (or an existing folder) → PNG sequence, .gif, .mp4; else false with
// the reason. Also checks the target by the rules of core/atomic_file.h.
bool video_format_for(const std::string& path, VideoFormat& format, std::string& error);

// Full path of `ffmpeg` on PATH, or empty.
std::string find_ffmpeg();

class VideoWriter {
public:
    VideoWriter(std::string path, VideoFormat format, int width, int height, int fps);
    ~VideoWriter();  // cancels if not finished: nothing is left under the target name
    VideoWriter(const VideoWriter&) = delete;
    VideoWriter& operator=(const VideoWriter&) = delete;

    int passes() const { return format_ == VideoFormat::Gif ? 2 : 1; }
    bool begin_pass(int pass, std::string& error);
    // GIF and MP4: the frame is queued (up to kQueuedFrames) and a writer thread feeds ffmpeg,
    // so the next frame is drawn while ffmpeg takes this one; a failure shows at a later write
    // or at end_pass. PNG sequence: written here.
    bool write(const RgbaImage& frame, std::string& error);
    bool end_pass(std::string& error);   // the last pass moves the result into place
    void cancel();                        // removes whatever was written

    static constexpr std::size_t kQueuedFrames = 2;

private:
    void feed_ffmpeg();        // the writer thread
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
    int width_, height_, fps_;
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
