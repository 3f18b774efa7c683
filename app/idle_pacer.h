#pragma once
// When the interactive window draws its next frame. Two rules, both about not drawing frames
// nobody can see:
// - At most one frame per refresh of the screen. Vsync already holds a hardware-drawn window to
//   that, but a software rasteriser or a virtual display ignores it, and the loop would spin as
//   fast as it can draw (a hundred frames a second and more), using every core.
// - A lab left alone sleeps. Once nothing has moved for kSettleFrames frames (no input, the same
//   picture, no work in progress: playback, the exact pass, averaging, an export, presenting),
//   the window waits for the next input event, at most kIdleWaitSeconds, so anything finishing
//   on its own (a background product, a listed folder) still shows within a tenth of a second.
#include <cstdint>

struct ImDrawData;

namespace ropelab {

class IdlePacer {
public:
    static constexpr double kIdleWaitSeconds = 0.1;
    // Frames drawn after the last change before sleeping: ImGui settles a click's layout (a
    // section opening, a scrollbar appearing) within two.
    static constexpr int kSettleFrames = 3;

    // `refresh_hz`: the screen's refresh rate (60 where the display does not say).
    explicit IdlePacer(double refresh_hz = 60.0) : frame_period_(1.0 / (refresh_hz > 0.0 ? refresh_hz : 60.0)) {}

    struct Frame {
        double started = 0.0;            // seconds, on any steady clock
        std::uint64_t input_events = 0;  // the window's running count of input events
        bool busy = false;               // work in progress that advances per frame
        std::uint64_t picture = 0;       // draw_fingerprint of the frame drawn
    };
    // Records the frame just drawn.
    void after_frame(const Frame& f);
    // How long to wait for input (which ends the wait) before the next frame, at time `now`.
    double wait_before_next(double now) const;
    bool idle() const { return quiet_frames_ >= kSettleFrames; }

private:
    double frame_period_;
    int quiet_frames_ = 0;
    Frame last_;
    bool first_ = true;
};

// A 64-bit fingerprint of what a frame draws: every vertex, index and command (clip rectangle,
// texture, callback). Equal fingerprints: the same picture, barring a texture's contents.
std::uint64_t draw_fingerprint(const ImDrawData* data);

}  // namespace ropelab
