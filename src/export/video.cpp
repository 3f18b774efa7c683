#include "export/video.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <cstdlib>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <new>
#include <system_error>

#include <fmt/format.h>

namespace ropelab {


bool video_format_for(const std::string& path, VideoFormat& format, std::string& error) {
    std::error_code ec;
    // The name's extension decides first: a folder that happens to be called x.mp4 is refused
    // as a folder, never filled with frames.
    if (path.ends_with(".gif")) {
        format = VideoFormat::Gif;
    } else if (path.ends_with(".mp4")) {
        format = VideoFormat::Mp4;
    } else if (path.ends_with("/") || std::filesystem::is_directory(path, ec)) {
        format = VideoFormat::PngSequence;
    } else {
        error = fmt::format("--out: unknown animation format \"{}\" (expected .gif, .mp4, a folder DIR/, or .png for one image)", path);
        return false;
    }
    const std::string problem =
        format == VideoFormat::PngSequence ? folder_target_problem(path) : export_target_problem(path);
    if (!problem.empty()) {
        error = "--out " + path + ": " + problem;
        return false;
    }
    return true;
}

std::string find_ffmpeg() {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        const std::string candidate = (dir.empty() ? "." : dir) + "/ffmpeg";
        if (access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return "";
}

VideoWriter::VideoWriter(std::string path, VideoFormat format, int width, int height, int fps, int frames)
    : path_(std::move(path)), format_(format), width_(width), height_(height), fps_(fps), frames_(frames) {
    // Beside the system's temporary files, not the target: the target's disk may be the full one.
    // A dying ffmpeg must turn into an error from fwrite, not a SIGPIPE that kills us.
    std::signal(SIGPIPE, SIG_IGN);
}

int VideoWriter::passes() const {
    if (format_ != VideoFormat::Gif) return 1;
    const std::size_t bytes = static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_) * 4 * static_cast<std::size_t>(frames_);
    return frames_ > 0 && bytes <= kOneGifPassBytes ? 1 : 2;
}

VideoWriter::~VideoWriter() {
    if (!finished_) cancel();
}

bool VideoWriter::start_ffmpeg(const std::vector<std::string>& arguments, std::string& error) {
    const std::string ffmpeg = find_ffmpeg();
    if (ffmpeg.empty()) {
        error = "ffmpeg is not on PATH: install the Debian package ffmpeg (apt-get install ffmpeg), "
                "or export a PNG sequence instead (--out DIR/)";
        return false;
    }
    log_ = std::make_unique<ScratchFile>(".log");
    if (log_->path().empty()) {
        error = "cannot create a temporary file for ffmpeg's messages";
        return false;
    }
    const bool yuv = takes_yuv420();
    std::vector<std::string> args = {ffmpeg, "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt",
                                     yuv ? "yuv420p" : "rgba", "-s",
                                     yuv ? fmt::format("{}x{}", even_up(width_), even_up(height_)) : fmt::format("{}x{}", width_, height_),
                                     "-r", std::to_string(fps_)};
    if (yuv) {
        // What the frames are (the GPU pass's BT.709 limited range), said before -i so that
        // ffmpeg neither guesses nor converts, and the same tags on the stream, so that players
        // show the colours the lab drew.
        for (const char* tag : {"-colorspace", "-color_primaries", "-color_trc"}) args.insert(args.end(), {tag, "bt709"});
        args.insert(args.end(), {"-color_range", "tv"});
    }
    args.insert(args.end(), {"-i", "-"});
    args.insert(args.end(), arguments.begin(), arguments.end());
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);

    // Spawned directly (no shell): its pid lets a cancel stop it at once instead of waiting
    // for it to finish a file that is about to be removed.
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        error = "cannot start ffmpeg: no pipe";
        return false;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log_->path().c_str(), O_WRONLY | O_TRUNC, 0600);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, ffmpeg.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[0]);
    if (spawned != 0) {
        close(fds[1]);
        error = std::string("cannot start ffmpeg: ") + std::strerror(spawned);
        return false;
    }
    child_ = pid;
    hold_child_process(child_);
    // A pipe as large as the system allows (default 64 KiB): a frame goes over in a few writes
    // instead of sixty wake-ups of each process.
#ifdef F_SETPIPE_SZ
    fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
#endif
    pipe_ = fdopen(fds[1], "w");
    if (!pipe_) return false;
    feed_failed_ = false;
    feeding_ = true;
    try {
        feeder_ = std::thread([this] { feed_ffmpeg(); });
    } catch (const std::system_error&) {  // no memory for the thread's stack, or a thread limit
        feeding_ = false;
        error = "out of memory: no thread could be started to feed ffmpeg";
        return false;
    }
    return true;
}

void VideoWriter::feed_ffmpeg() {
    for (;;) {
        std::vector<unsigned char> frame;
        {
            std::unique_lock lock(queue_mutex_);
            queue_changed_.wait(lock, [&] { return !queued_.empty() || !feeding_; });
            if (queued_.empty()) return;  // stopped and drained
            frame = std::move(queued_.front());
            queued_.pop_front();
        }
        queue_changed_.notify_all();
        const bool ok = std::fwrite(frame.data(), 1, frame.size(), pipe_) == frame.size() && std::fflush(pipe_) == 0;
        {
            std::lock_guard lock(queue_mutex_);
            try {
                spare_.push_back(std::move(frame));  // kept for reuse: without memory for it, dropped
            } catch (const std::bad_alloc&) {
            }
            if (!ok) {
                feed_failed_ = true;
                queued_.clear();
            }
        }
        queue_changed_.notify_all();
        if (!ok) return;
    }
}

bool VideoWriter::stop_feeding() {
    if (!feeder_.joinable()) return !feed_failed_;
    {
        std::lock_guard lock(queue_mutex_);
        feeding_ = false;
    }
    queue_changed_.notify_all();
    feeder_.join();
    return !feed_failed_;
}

bool VideoWriter::close_ffmpeg(std::string& error, bool stop_now) {
    if (!child_) return true;
    if (stop_now) kill(child_, SIGKILL);  // a feeder blocked in fwrite gets EPIPE and ends
    const bool fed = stop_feeding();
    if (pipe_) std::fclose(pipe_);  // end of input: ffmpeg finishes the file
    pipe_ = nullptr;
    int status = 0;
    while (waitpid(child_, &status, 0) < 0 && errno == EINTR) {
    }
    release_child_process(child_);
    child_ = 0;
    std::string complaint;
    {
        std::ifstream log(log_->path());
        std::getline(log, complaint);
    }
    log_.reset();
    if (stop_now) return false;
    if (!fed && status == 0 && complaint.empty()) complaint = "it stopped reading frames (the disk may be full)";
    if (status != 0 || !complaint.empty()) {
        error = WIFSIGNALED(status) ? "ffmpeg was killed while encoding"
                : status != 0       ? fmt::format("ffmpeg failed (exit status {})", WEXITSTATUS(status))
                                    : "ffmpeg failed";
        if (!complaint.empty()) error += ": " + complaint;
        return false;
    }
    return true;
}

// A GIF's palette filters, the same in one pass and in two: the palette from every frame's
// changed pixels, then error diffusion onto it.
constexpr const char* kPaletteGen = "palettegen=stats_mode=diff";
constexpr const char* kPaletteUse = "paletteuse=dither=sierra2_4a";

bool VideoWriter::begin_pass(int pass, std::string& error) {
    pass_ = pass;
    frame_ = 0;
    switch (format_) {
        case VideoFormat::PngSequence:
            return folder_.claim(path_, error);
        case VideoFormat::Mp4:
            if (!file_.claim(path_, error)) return false;
            // The frames come padded to even sides and in yuv420p already (write(Yuv420Frame)): ffmpeg only encodes.
            return start_ffmpeg({"-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-colorspace", "bt709",
                                 "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv", "-movflags",
                                 "+faststart", "-f", "mp4", file_.path()},
                                error);
        case VideoFormat::Gif:
            if (passes() == 1) {
                // Rendered once: ffmpeg keeps the frames while palettegen reads them all, then
                // paletteuse maps them; the same filters as the two passes.
                if (!file_.claim(path_, error)) return false;
                return start_ffmpeg({"-filter_complex",
                                     fmt::format("split[frames][stats];[stats]{}[palette];[frames][palette]{}", kPaletteGen, kPaletteUse),
                                     "-f", "gif", file_.path()},
                                    error);
            }
            if (pass == 0) {
                // The palette lives in the system's temporary folder: it is no file of the user's.
                palette_ = std::make_unique<ScratchFile>(".png");
                if (palette_->path().empty()) {
                    error = "cannot create a temporary file for the GIF palette";
                    return false;
                }
                return start_ffmpeg({"-vf", kPaletteGen, "-f", "image2", palette_->path()}, error);
            }
            if (!file_.claim(path_, error)) return false;
            return start_ffmpeg({"-i", palette_->path(), "-lavfi", kPaletteUse, "-f", "gif", file_.path()},
                                error);
    }
    return false;
}

bool VideoWriter::write(const RgbaImage& frame, std::string& error) {
    if (format_ == VideoFormat::PngSequence) {
        return write_png(folder_.add(fmt::format("frame_{:05d}.png", frame_++)), frame, error);
    }
    return queue_for_ffmpeg(frame.pixels, error);
}

bool VideoWriter::write(const Yuv420Frame& frame, std::string& error) {
    if (!takes_yuv420() || frame.width != even_up(width_) || frame.height != even_up(height_) ||
        frame.bytes.size() != yuv420_frame_bytes(frame.width, frame.height)) {
        error = fmt::format("a {}x{} yuv420p frame of {} bytes for a {}x{} video", frame.width, frame.height,
                            frame.bytes.size(), width_, height_);
        return false;
    }
    return queue_for_ffmpeg(frame.bytes, error);
}

bool VideoWriter::queue_for_ffmpeg(std::span<const unsigned char> bytes, std::string& error) {
    ++frame_;
    // ffmpeg keeps writing into a file whose folder was deleted and fails only at the end; one
    // check per frame stops the run at once and says why.
    if (std::string gone = folder_problem(path_); !gone.empty()) {
        std::string ignored;
        close_ffmpeg(ignored, true);
        error = "cannot write " + path_ + ": " + gone;
        return false;
    }
    std::vector<unsigned char> buffer;
    bool failed = false;
    {
        std::unique_lock lock(queue_mutex_);
        queue_changed_.wait(lock, [&] { return queued_.size() < kQueuedFrames || feed_failed_; });
        failed = feed_failed_;
        if (!failed && !spare_.empty()) {
            buffer = std::move(spare_.back());
            spare_.pop_back();
        }
    }
    if (!failed) {
        buffer.assign(bytes.begin(), bytes.end());
        std::lock_guard lock(queue_mutex_);
        queued_.push_back(std::move(buffer));
    }
    queue_changed_.notify_all();
    if (failed) {
        std::string why;
        close_ffmpeg(why);
        error = "ffmpeg stopped reading frames (it died or the disk is full)" + (why.empty() ? "" : ": " + why);
        return false;
    }
    return true;
}

bool VideoWriter::end_pass(std::string& error) {
    if (!close_ffmpeg(error)) return false;
    if (pass_ + 1 < passes()) return true;
    palette_.reset();
    finished_ = format_ == VideoFormat::PngSequence ? folder_.commit(error) : file_.commit(error);
    return finished_;
}

void VideoWriter::cancel() {
    std::string ignored;
    close_ffmpeg(ignored, true);
    file_.abandon();
    folder_.abandon();
    palette_.reset();
    finished_ = true;
}

}  // namespace ropelab
