#include "offscreen.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include <fmt/format.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "imgui_setup.h"
#include "plot/capture.h"

namespace ropelab {

RgbaImage read_framebuffer(int width, int height) {
    RgbaImage image{width, height, std::vector<unsigned char>(static_cast<std::size_t>(width) * height * 4)};
    std::vector<unsigned char> raw(image.pixels.size());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, raw.data());
    const std::size_t row = static_cast<std::size_t>(width) * 4;
    for (int y = 0; y < height; ++y) {
        std::copy_n(raw.data() + static_cast<std::size_t>(height - 1 - y) * row, row, image.pixels.data() + y * row);
    }
    return image;
}

namespace {

// A texture to render into (sampled by the YUV pass, never filtered: texelFetch).
GLuint make_target_texture(GLint format, int width, int height) {
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    const GLenum layout = format == GL_R8 ? GL_RED : format == GL_RG8 ? GL_RG : GL_RGBA;
    glTexImage2D(GL_TEXTURE_2D, 0, format, width, height, 0, layout, GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, 0);
    return texture;
}

// One triangle covering the target; the fragment shader does the work.
constexpr const char* kCoverVertexShader = R"(#version 330 core
void main() {
    vec2 corner = vec2(float((gl_VertexID & 1) << 2), float((gl_VertexID & 2) << 1)) - 1.0;
    gl_Position = vec4(corner, 0.0, 1.0);
}
)";

// RGBA frame → yuv420p (see Yuv420Frame): one fragment per 2×2 block of the padded frame reads
// its four pixels once and writes the block's six bytes to four targets of (W/2) × (H/2): the
// block's two Y bytes of its top row (RG8), of its bottom row (RG8), its Cb (R8) and its Cr
// (R8). read_yuv420_planes() lays them out as the stream. (A fragment per output byte fetched
// each pixel three times, and llvmpipe, which runs this on the CPU, paid for each fetch.)
// BT.709, limited range: Y' = Kr R + Kg G + Kb B with Kr = 0.2126, Kb = 0.0722; Y = 16 + 219 Y',
// Cb = 128 + 224 (B − Y')/(2 (1 − Kb)), Cr = 128 + 224 (R − Y')/(2 (1 − Kr)). HD video is BT.709
// and players assume it for HD sizes when untagged; the stream is tagged so that every size
// shows alike. Chroma is the block's mean colour converted (the mean of its four samples, the
// conversion being linear). The even-size padding is black.
constexpr const char* kYuv420FragmentShader = R"(#version 330 core
uniform sampler2D frame;  // the lab's frame, GL rows bottom-up
uniform ivec2 size;       // the frame's width and height
layout(location = 0) out vec2 luma_top;
layout(location = 1) out vec2 luma_bottom;
layout(location = 2) out float cb;
layout(location = 3) out float cr;

vec3 rgb_at(int x, int row_from_top) {
    if (x >= size.x || row_from_top >= size.y) return vec3(0.0);
    return texelFetch(frame, ivec2(x, size.y - 1 - row_from_top), 0).rgb;
}
float luma_bt709(vec3 rgb) { return dot(rgb, vec3(0.2126, 0.7152, 0.0722)); }
float cb_bt709(vec3 rgb) { return (rgb.b - luma_bt709(rgb)) / 1.8556; }
float cr_bt709(vec3 rgb) { return (rgb.r - luma_bt709(rgb)) / 1.5748; }
// A level 0 .. 255 as the unorm value that stores exactly that byte.
vec2 as_bytes(vec2 level) { return floor(level + 0.5) / 255.0; }
float as_byte(float level) { return floor(level + 0.5) / 255.0; }

void main() {
    int x = 2 * int(gl_FragCoord.x), y = 2 * int(gl_FragCoord.y);  // the block's top-left pixel
    vec3 a = rgb_at(x, y), b = rgb_at(x + 1, y), c = rgb_at(x, y + 1), d = rgb_at(x + 1, y + 1);
    luma_top = as_bytes(16.0 + 219.0 * vec2(luma_bt709(a), luma_bt709(b)));
    luma_bottom = as_bytes(16.0 + 219.0 * vec2(luma_bt709(c), luma_bt709(d)));
    vec3 mean = 0.25 * (a + b + c + d);
    cb = as_byte(128.0 + 224.0 * cb_bt709(mean));
    cr = as_byte(128.0 + 224.0 * cr_bt709(mean));
}
)";

GLuint compile_shader(GLenum stage, const char* source, std::string& why) {
    const GLuint shader = glCreateShader(stage);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = {};
        glGetShaderInfoLog(shader, sizeof log, nullptr, log);
        why = std::string("the YUV pass's shader does not compile: ") + log;
    }
    return shader;
}

GLuint link_yuv420_program(std::string& why) {
    const GLuint vertex = compile_shader(GL_VERTEX_SHADER, kCoverVertexShader, why);
    const GLuint fragment = compile_shader(GL_FRAGMENT_SHADER, kYuv420FragmentShader, why);
    const GLuint program = glCreateProgram();
    glAttachShader(program, vertex);
    glAttachShader(program, fragment);
    glLinkProgram(program);
    glDeleteShader(vertex);
    glDeleteShader(fragment);
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok || !why.empty()) {
        if (why.empty()) why = "the YUV pass's shaders do not link";
        glDeleteProgram(program);
        return 0;
    }
    return program;
}

}  // namespace

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
    r->color_ = make_target_texture(GL_RGBA8, width, height);
    glGenFramebuffers(1, &r->framebuffer_);
    glBindFramebuffer(GL_FRAMEBUFFER, r->framebuffer_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, r->color_, 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        why = fmt::format("cannot make a {}x{} framebuffer", width, height);
        return nullptr;
    }
    r->driver_ = FrameDriver(is_software_renderer(gpu::current_gl_info().renderer));
    r->device_ = gpu::ComputeDevice::open(gpu::DeviceRequest::Auto, false, r->notice_);

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
    if (yuv_framebuffer_) glDeleteFramebuffers(1, &yuv_framebuffer_);
    if (yuv_targets_[0]) glDeleteTextures(4, yuv_targets_);
    if (yuv_program_) glDeleteProgram(yuv_program_);
    if (yuv_vertex_array_) glDeleteVertexArrays(1, &yuv_vertex_array_);
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
    if (yuv && !convert_to_yuv420()) {
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        return -1;
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, pack_[slot]);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    // Queued, not waited for.
    if (yuv) {
        read_yuv420_planes(0);
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

bool OffscreenRenderer::convert_to_yuv420() {
    const int blocks_x = even_up(width_) / 2, blocks_y = even_up(height_) / 2;
    if (!yuv_program_) {
        std::string why;
        yuv_program_ = link_yuv420_program(why);
        if (!yuv_program_) {
            std::fprintf(stderr, "ropelab: error: %s\n", why.c_str());
            return false;
        }
        glGenFramebuffers(1, &yuv_framebuffer_);
        glBindFramebuffer(GL_FRAMEBUFFER, yuv_framebuffer_);
        const GLint formats[4] = {GL_RG8, GL_RG8, GL_R8, GL_R8};
        GLenum attachments[4];
        for (int i = 0; i < 4; ++i) {
            yuv_targets_[i] = make_target_texture(formats[i], blocks_x, blocks_y);
            attachments[i] = GL_COLOR_ATTACHMENT0 + static_cast<GLenum>(i);
            glFramebufferTexture2D(GL_FRAMEBUFFER, attachments[i], GL_TEXTURE_2D, yuv_targets_[i], 0);
        }
        glDrawBuffers(4, attachments);
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
            std::fprintf(stderr, "ropelab: error: cannot make the %dx%d targets of the YUV pass\n", blocks_x, blocks_y);
            glDeleteProgram(yuv_program_);
            yuv_program_ = 0;
            return false;
        }
        glGenVertexArrays(1, &yuv_vertex_array_);
        glUseProgram(yuv_program_);
        glUniform1i(glGetUniformLocation(yuv_program_, "frame"), 0);
        glUniform2i(glGetUniformLocation(yuv_program_, "size"), width_, height_);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, yuv_framebuffer_);
    glViewport(0, 0, blocks_x, blocks_y);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_DEPTH_TEST);
    glUseProgram(yuv_program_);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, color_);
    glBindVertexArray(yuv_vertex_array_);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glUseProgram(0);
    return true;
}

// The pass's four targets read into the stream's places at `base` (a pointer, or an offset
// into the bound pixel-pack buffer): the two Y targets interleave row by row (a stride of two
// Y rows), then the Cb plane, then the Cr plane. Target row 0 is the top block row.
void OffscreenRenderer::read_yuv420_planes(std::uintptr_t base) {
    const int width = even_up(width_), height = even_up(height_);
    const std::size_t luma = static_cast<std::size_t>(width) * height;
    const std::uintptr_t offsets[4] = {0, static_cast<std::uintptr_t>(width), luma, luma + luma / 4};
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    for (int i = 0; i < 4; ++i) {
        glPixelStorei(GL_PACK_ROW_LENGTH, i < 2 ? width : 0);  // in RG pixels: two Y rows
        glReadBuffer(GL_COLOR_ATTACHMENT0 + static_cast<GLenum>(i));
        glReadPixels(0, 0, width / 2, height / 2, i < 2 ? GL_RG : GL_RED, GL_UNSIGNED_BYTE,
                     reinterpret_cast<void*>(base + offsets[i]));
    }
    glPixelStorei(GL_PACK_ROW_LENGTH, 0);
    glReadBuffer(GL_COLOR_ATTACHMENT0);
}

std::vector<unsigned char> OffscreenRenderer::read_yuv420() {
    context_->make_current();
    if (!convert_to_yuv420()) return {};
    std::vector<unsigned char> bytes(yuv420_frame_bytes(even_up(width_), even_up(height_)));
    read_yuv420_planes(reinterpret_cast<std::uintptr_t>(bytes.data()));
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return bytes;
}

ImGuiContext* create_own_imgui() {
    ImGuiContext* previous = ImGui::GetCurrentContext();
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
