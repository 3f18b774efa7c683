#pragma once
// Rendering the lab without a window: an EGL surfaceless context (no X needed), a framebuffer
// object of any size up to 8192×8192, and Dear ImGui driven without a platform backend. What
// `render` and exports draw is the very same LabView the window shows.
#include <cstdint>
#include <memory>
#include <string>

#include "export/image.h"
#include "export/video.h"
#include "frame_driver.h"
#include "gpu/gl_device.h"
#include "gpu/gl_context.h"
#include "window.h"
#include "views/lab_view.h"
#include "plot/display_list.h"

struct ImGuiContext;

namespace ropelab {
class Yuv420Pass;
// A second ImGui context of our own (offscreen renders, the presenter's audience picture) with
// the OpenGL 3 backend in the GL context current now; ImGui's current context is left as it was.
ImGuiContext* create_own_imgui();
// Its end: the backend's GL objects go with the GL context current now (the one it was made
// in), and ImGui's current context is left as it was, unless it was this one.
void destroy_own_imgui(ImGuiContext* context);


class OffscreenRenderer {
public:
    // nullptr and a one-line reason when no context or framebuffer of that size can be made.
    static std::unique_ptr<OffscreenRenderer> create(int width, int height, std::string& why);
    ~OffscreenRenderer();

    // The device to build the Lab with (GPU core in this context, or the CPU path).
    gpu::GlDevice& device() { return *device_; }
    const std::string& device_notice() const { return notice_; }

    // Draws `settle` frames of the lab (layouts that size themselves need one extra) and reads
    // the last back. `transparent`: background alpha 0 where nothing is drawn. Makes its own GL
    // context current (a window must make its own current again) and leaves ImGui's current
    // context as it found it.
    RgbaImage render(views::LabView& lab, bool transparent, double seconds_per_frame, int settle = 1);
    // The same frame as a vector figure (plot/capture.h): what render() would show, laid out alike.
    draw::Figure render_figure(views::LabView& lab, int settle = 1);

    // Animations: draws the next frame and starts reading it back into one of two pixel-pack
    // buffers, then returns the frame drawn before it (nullptr on the first call), so that each
    // read-back overlaps drawing the next frame. flush() returns the last one. The image is
    // owned here and reused: valid until the next call.
    const RgbaImage* render_next(views::LabView& lab, double seconds_per_frame, int settle = 1);
    const RgbaImage* flush();
    // The same, each frame converted on the GPU to the yuv420p bytes ffmpeg reads (see
    // Yuv420Frame): 1.5 bytes a pixel cross the bus and the pipe instead of 4, and ffmpeg
    // converts nothing. The bytes are the mapped pixel-pack buffer itself, valid until the next
    // call; nullptr when the read-back failed or (render_next_yuv420) on the first call.
    const Yuv420Frame* render_next_yuv420(views::LabView& lab, double seconds_per_frame, int settle = 1);
    const Yuv420Frame* flush_yuv420();
    // The frame drawn last (by render()) converted by that pass and read back at once: what the
    // animations stream, for a test to hold against the RGBA that render() returned.
    std::vector<unsigned char> read_yuv420();

private:
    OffscreenRenderer() = default;
    // Draws `settle` frames into the framebuffer; the caller has made the contexts current.
    void draw(views::LabView& lab, bool transparent, double seconds_per_frame, int settle);
    // Draws the frame and queues its read-back (RGBA, or the YUV pass's bytes) into the next
    // pixel-pack buffer; returns the slot holding the frame before it, or -1.
    int draw_and_queue(views::LabView& lab, double seconds_per_frame, int settle, bool yuv);
    // Maps pixel-pack buffer `slot` and copies it top-down (opaque) into frame_.
    const RgbaImage* take(int slot);
    // Maps pixel-pack buffer `slot` and leaves it mapped (unmap_yuv420 ends that) as yuv_.
    const Yuv420Frame* take_yuv420(int slot);
    void unmap_yuv420();
    std::unique_ptr<gpu::HeadlessContext> context_;
    std::unique_ptr<gpu::GlDevice> device_;
    std::string notice_;
    struct ImGuiContext* imgui_ = nullptr;  // its own: the window's stays untouched
    unsigned framebuffer_ = 0, color_ = 0;  // color_: a texture, so the YUV pass can sample it
    std::unique_ptr<Yuv420Pass> yuv_pass_;  // MP4 frames' conversion (app/yuv420_pass.h)
    int mapped_slot_ = -1;  // the pack buffer yuv_ points into
    Yuv420Frame yuv_;
    unsigned pack_[2] = {0, 0};
    bool packed_[2] = {false, false};  // holds a frame not yet taken
    int next_pack_ = 0;
    RgbaImage frame_;
    int width_ = 0, height_ = 0;
    FrameDriver driver_;
};

}  // namespace ropelab
