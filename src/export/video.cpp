#include "export/video.h"

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace ropelab {

namespace {
std::string shell_quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}
}  // namespace

bool video_format_for(const std::string& path, VideoFormat& format, std::string& error) {
    std::error_code ec;
    if (path.ends_with("/") || std::filesystem::is_directory(path, ec)) {
        format = VideoFormat::PngSequence;
    } else if (path.ends_with(".gif")) {
        format = VideoFormat::Gif;
    } else if (path.ends_with(".mp4")) {
        format = VideoFormat::Mp4;
    } else {
        error = fmt::format("--out: unknown animation format \"{}\" (expected .gif, .mp4 or a folder DIR/)", path);
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

VideoWriter::VideoWriter(std::string path, VideoFormat format, int width, int height, int fps)
    : path_(std::move(path)), format_(format), width_(width), height_(height), fps_(fps) {
    partial_ = partial_path(path_);
    palette_ = partial_ + ".palette.png";
    // Beside the system's temporary files, not the target: the target's disk may be the full one.
    log_ = (std::filesystem::temp_directory_path() /
            fmt::format("ropelab-ffmpeg-{}-{}.log", getpid(), reinterpret_cast<std::uintptr_t>(this)))
               .string();
    // A dying ffmpeg must turn into an error from fwrite, not a SIGPIPE that kills us.
    std::signal(SIGPIPE, SIG_IGN);
}

VideoWriter::~VideoWriter() {
    if (!finished_) cancel();
}

bool VideoWriter::start_ffmpeg(const std::string& arguments, std::string& error) {
    const std::string ffmpeg = find_ffmpeg();
    if (ffmpeg.empty()) {
        error = "ffmpeg is not on PATH: install the Debian package ffmpeg (apt-get install ffmpeg), "
                "or export a PNG sequence instead (--out DIR/)";
        return false;
    }
    // Even sizes: H.264 in yuv420p needs them; padding keeps every pixel of the frame.
    const std::string command = fmt::format(
        "{} -hide_banner -loglevel error -y -f rawvideo -pix_fmt rgba -s {}x{} -r {} -i - {} 2>{}", shell_quote(ffmpeg),
        width_, height_, fps_, arguments, shell_quote(log_));
    pipe_ = popen(command.c_str(), "w");
    if (!pipe_) {
        error = "cannot start ffmpeg";
        return false;
    }
    return true;
}

bool VideoWriter::close_ffmpeg(std::string& error) {
    if (!pipe_) return true;
    const int status = pclose(pipe_);
    pipe_ = nullptr;
    std::string complaint;
    {
        std::ifstream log(log_);
        std::getline(log, complaint);
    }
    std::error_code ec;
    std::filesystem::remove(log_, ec);
    if (status != 0 || !complaint.empty()) {
        error = WIFSIGNALED(status) ? "ffmpeg was killed while encoding"
                : status != 0       ? fmt::format("ffmpeg failed (exit status {})", WEXITSTATUS(status))
                                    : "ffmpeg failed";
        if (!complaint.empty()) error += ": " + complaint;
        return false;
    }
    return true;
}

bool VideoWriter::begin_pass(int pass, std::string& error) {
    pass_ = pass;
    frame_ = 0;
    switch (format_) {
        case VideoFormat::PngSequence: {
            std::error_code ec;
            std::filesystem::remove_all(partial_, ec);
            if (!std::filesystem::create_directories(partial_, ec) || ec) {
                error = "cannot create " + path_ + (folder_problem(path_).empty() ? "" : ": " + folder_problem(path_));
                return false;
            }
            return true;
        }
        case VideoFormat::Mp4:
            return start_ffmpeg(fmt::format("-vf 'pad=ceil(iw/2)*2:ceil(ih/2)*2' -c:v libx264 -preset veryfast -crf 18 "
                                            "-pix_fmt yuv420p -movflags +faststart -f mp4 {}",
                                            shell_quote(partial_)),
                                error);
        case VideoFormat::Gif:
            if (pass == 0) {
                return start_ffmpeg(fmt::format("-vf palettegen=stats_mode=diff -f image2 {}", shell_quote(palette_)), error);
            }
            return start_ffmpeg(fmt::format("-i {} -lavfi paletteuse=dither=sierra2_4a -f gif {}", shell_quote(palette_),
                                            shell_quote(partial_)),
                                error);
    }
    return false;
}

bool VideoWriter::write(const RgbaImage& frame, std::string& error) {
    if (format_ == VideoFormat::PngSequence) {
        return write_png(fmt::format("{}/frame_{:05d}.png", partial_, frame_++), frame, error);
    }
    ++frame_;
    const std::size_t bytes = frame.pixels.size();
    if (std::fwrite(frame.pixels.data(), 1, bytes, pipe_) != bytes || std::fflush(pipe_) != 0) {
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
    std::error_code ec;
    std::filesystem::remove(palette_, ec);
    finished_ = commit_partial(partial_, path_, error);
    return finished_;
}

void VideoWriter::cancel() {
    if (pipe_) {
        std::string ignored;
        close_ffmpeg(ignored);
    }
    std::error_code ec;
    std::filesystem::remove_all(partial_, ec);
    std::filesystem::remove(palette_, ec);
    finished_ = true;
}

}  // namespace ropelab
