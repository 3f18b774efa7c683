#include "offscreen.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include <fmt/format.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "core/headroom.h"
#include "imgui_setup.h"
#include "yuv420_pass.h"
#include "plot/capture.h"

namespace ropelab {



std::unique_ptr<OffscreenRenderer> OffscreenRenderer::create(int width, int height, std::string& why) {
    std::unique_ptr<OffscreenRenderer> r(new OffscreenRenderer);
    r->context_ = gpu::HeadlessContext::create(why);
    if (!r->context_) return nullptr;
    GLint max_size = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
    if (width > max_size || height > max_size) {
        why = fmt::format("{}x{} exceeds this GL's largest framebuffer ({}x{})", width, height, max_size, max_size);
        return nullptr;
    }
    r->width_ = width;
    r->height_ = height;
    // The target, its YUV pass and read-backs, and a frame's room for the driver.
    require_headroom(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 8 + kDriverHeadroomBytes);
    r->color_ = make_target_texture(GL_RGBA8, width, height);
    r->yuv_pass_ = std::make_unique<Yuv420Pass>(width, height);
    glGenFramebuffers(1, &r->framebuffer_);
    glBindFramebuffer(GL_FRAMEBUFFER, r->framebuffer_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, r->color_, 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        require_headroom();  // a driver out of memory: said as such (exit 2), not as a GL failure
        why = fmt::format("cannot make a {}x{} framebuffer", width, height);
        return nullptr;
    }
    r->driver_ = FrameDriver(is_software_renderer(gpu::current_gl_info().renderer));
    r->device_ = gpu::GlDevice::open(gpu::DeviceRequest::Auto, false, r->notice_);

    IMGUI_CHECKVERSION();
    r->imgui_ = create_own_imgui();
    ImGuiContext* previous = ImGui::GetCurrentContext();
    ImGui::SetCurrentContext(r->imgui_);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);  // nobody is pointing: no hover
    ImGui::SetCurrentContext(previous);
    return r;
}

OffscreenRenderer::~OffscreenRenderer() {
    if (context_) context_->make_current();
    destroy_own_imgui(imgui_);
    device_.reset();
    unmap_yuv420();
    if (pack_[0]) glDeleteBuffers(2, pack_);
    if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
    if (color_) glDeleteTextures(1, &color_);
    yuv_pass_.reset();
}

void OffscreenRenderer::draw(views::LabView& lab, bool transparent, double seconds_per_frame, int settle) {
    ImGuiIO& io = ImGui::GetIO();
    io.DeltaTime = static_cast<float>(std::max(seconds_per_frame, 1e-4));
    // One frame more when a view asked for device columns the lab had not computed yet (they
    // come the update after the request): what is read back is exactly the lab's state.
    for (int f = 0; f < settle || (f == settle && !lab.lab().products_current()); ++f) {
        driver_.present(lab.lab().params(), io.DisplaySize.x, io.DisplaySize.y);
        driver_.build({}, [&] { lab.frame(f == 0 ? seconds_per_frame : 0.0, {}); });
        glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
        driver_.render(width_, height_, transparent ? 0.0f : 1.0f);
    }
}

RgbaImage OffscreenRenderer::render(views::LabView& lab, bool transparent, double seconds_per_frame, int settle) {
    context_->make_current();
    ImGuiContext* previous = ImGui::GetCurrentContext();
    ImGui::SetCurrentContext(imgui_);
    draw(lab, transparent, seconds_per_frame, settle);
    RgbaImage image = read_framebuffer(width_, height_);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (!transparent) {
        for (std::size_t i = 3; i < image.pixels.size(); i += 4) image.pixels[i] = 255;
    }
    ImGui::SetCurrentContext(previous);
    return image;
}

namespace {

// An RGBA8 texture's pixels, top row first as ImGui's UVs count them (the heatmap's).
draw::TexturePixels read_texture(ImTextureID id) {
    draw::TexturePixels out;
    const auto name = static_cast<GLuint>(reinterpret_cast<std::intptr_t>(id));
    if (name == 0 || !glIsTexture(name)) return out;
    glBindTexture(GL_TEXTURE_2D, name);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &out.width);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &out.height);
    if (out.width <= 0 || out.height <= 0 || out.width > 16384 || out.height > 16384) return {};
    out.rgba.resize(static_cast<std::size_t>(out.width) * out.height * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, out.rgba.data());
    glBindTexture(GL_TEXTURE_2D, 0);
    return out;
}

}  // namespace

draw::Figure OffscreenRenderer::render_figure(views::LabView& lab, int settle) {
    context_->make_current();
    ImGuiContext* previous = ImGui::GetCurrentContext();
    ImGui::SetCurrentContext(imgui_);
    // Fonts and style settle first, so the captured frame is the one render() would read back.
    if (settle > 1) draw(lab, false, 0.0, settle - 1);
    draw::Figure figure;
    {
        const draw::FrameCapture capture;
        draw(lab, false, 0.0, 1);
        const ImU32 background = ImGui::GetColorU32(ImGuiCol_WindowBg, 1.0f) | IM_COL32_A_MASK;
        figure = capture.finish(*ImGui::GetDrawData(), read_texture, background);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    ImGui::SetCurrentContext(previous);
    return figure;
}

int OffscreenRenderer::draw_and_queue(views::LabView& lab, double seconds_per_frame, int settle, bool yuv) {
    context_->make_current();
    unmap_yuv420();  // the buffer handed out last time is done with
    ImGuiContext* previous = ImGui::GetCurrentContext();
    ImGui::SetCurrentContext(imgui_);
    draw(lab, false, seconds_per_frame, settle);
    ImGui::SetCurrentContext(previous);
    // Sized for RGBA, so that either kind of frame fits the same two buffers.
    const std::size_t bytes = static_cast<std::size_t>(width_) * height_ * 4;
    if (!pack_[0]) {
        glGenBuffers(2, pack_);
        for (unsigned buffer : pack_) {
            glBindBuffer(GL_PIXEL_PACK_BUFFER, buffer);
            glBufferData(GL_PIXEL_PACK_BUFFER, static_cast<GLsizeiptr>(std::max(bytes, yuv420_frame_bytes(even_up(width_), even_up(height_)))),
                         nullptr, GL_STREAM_READ);
        }
    }
    const int slot = next_pack_;
    if (yuv && !yuv_pass_->convert(color_)) {
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        return -1;
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, pack_[slot]);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    // Queued, not waited for.
    if (yuv) {
        yuv_pass_->read(0);
    } else {
        glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    packed_[slot] = true;
    next_pack_ = 1 - slot;
    return packed_[next_pack_] ? next_pack_ : -1;
}

const RgbaImage* OffscreenRenderer::render_next(views::LabView& lab, double seconds_per_frame, int settle) {
    const int before = draw_and_queue(lab, seconds_per_frame, settle, false);
    return before >= 0 ? take(before) : nullptr;
}

const RgbaImage* OffscreenRenderer::flush() {
    const int last = 1 - next_pack_;
    if (!packed_[last]) return nullptr;
    context_->make_current();
    return take(last);
}

const Yuv420Frame* OffscreenRenderer::render_next_yuv420(views::LabView& lab, double seconds_per_frame, int settle) {
    const int before = draw_and_queue(lab, seconds_per_frame, settle, true);
    return before >= 0 ? take_yuv420(before) : nullptr;
}

const Yuv420Frame* OffscreenRenderer::flush_yuv420() {
    context_->make_current();
    unmap_yuv420();
    const int last = 1 - next_pack_;
    if (!packed_[last]) return nullptr;
    return take_yuv420(last);
}

const RgbaImage* OffscreenRenderer::take(int slot) {
    frame_.width = width_;
    frame_.height = height_;
    const std::size_t row = static_cast<std::size_t>(width_) * 4;
    frame_.pixels.resize(row * static_cast<std::size_t>(height_));
    glBindBuffer(GL_PIXEL_PACK_BUFFER, pack_[slot]);
    const auto* mapped = static_cast<const unsigned char*>(
        glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, static_cast<GLsizeiptr>(frame_.pixels.size()), GL_MAP_READ_BIT));
    if (mapped) {
        for (int y = 0; y < height_; ++y) {  // GL rows run bottom-up
            unsigned char* out = frame_.pixels.data() + static_cast<std::size_t>(y) * row;
            std::copy_n(mapped + static_cast<std::size_t>(height_ - 1 - y) * row, row, out);
            for (std::size_t i = 3; i < row; i += 4) out[i] = 255;
        }
        glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    packed_[slot] = false;
    return mapped ? &frame_ : nullptr;
}

// The read-back laid the planes out in stream order, so the mapped bytes go to the writer as
// they are: no flip, no copy here.
const Yuv420Frame* OffscreenRenderer::take_yuv420(int slot) {
    const std::size_t size = yuv420_frame_bytes(even_up(width_), even_up(height_));
    glBindBuffer(GL_PIXEL_PACK_BUFFER, pack_[slot]);
    const auto* mapped = static_cast<const unsigned char*>(
        glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, static_cast<GLsizeiptr>(size), GL_MAP_READ_BIT));
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    packed_[slot] = false;
    if (!mapped) return nullptr;
    mapped_slot_ = slot;
    yuv_ = Yuv420Frame{even_up(width_), even_up(height_), std::span<const unsigned char>(mapped, size)};
    return &yuv_;
}

void OffscreenRenderer::unmap_yuv420() {
    if (mapped_slot_ < 0) return;
    glBindBuffer(GL_PIXEL_PACK_BUFFER, pack_[mapped_slot_]);
    glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    mapped_slot_ = -1;
    yuv_ = {};
}

std::vector<unsigned char> OffscreenRenderer::read_yuv420() {
    context_->make_current();
    if (!yuv_pass_->convert(color_)) return {};
    std::vector<unsigned char> bytes(yuv420_frame_bytes(even_up(width_), even_up(height_)));
    yuv_pass_->read(reinterpret_cast<std::uintptr_t>(bytes.data()));
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return bytes;
}

ImGuiContext* create_own_imgui() {
    ImGuiContext* previous = ImGui::GetCurrentContext();
    install_imgui_allocator();
    ImGuiContext* own = ImGui::CreateContext();
    ImGui::SetCurrentContext(own);
    ImGui::GetIO().IniFilename = nullptr;
    ImGui_ImplOpenGL3_Init("#version 330 core");
    ImGui::SetCurrentContext(previous);
    return own;
}

void destroy_own_imgui(ImGuiContext* context) {
    if (!context) return;
    ImGuiContext* previous = ImGui::GetCurrentContext();
    ImGui::SetCurrentContext(context);
    ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext(context);
    ImGui::SetCurrentContext(previous == context ? nullptr : previous);
}

}  // namespace ropelab
