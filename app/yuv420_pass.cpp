#include "yuv420_pass.h"

#include <epoxy/gl.h>

#include <cstdio>
#include <string>

#include "export/video.h"

namespace ropelab {

// A texture to render into (sampled by the YUV pass, never filtered: texelFetch).
unsigned make_target_texture(int format, int width, int height) {
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

namespace {

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
// (R8). read() lays them out as the stream. (A fragment per output byte fetched
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

Yuv420Pass::~Yuv420Pass() {
    if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
    if (targets_[0]) glDeleteTextures(4, targets_);
    if (program_) glDeleteProgram(program_);
    if (vertex_array_) glDeleteVertexArrays(1, &vertex_array_);
}

bool Yuv420Pass::convert(unsigned frame) {
    const int blocks_x = even_up(width_) / 2, blocks_y = even_up(height_) / 2;
    if (!program_) {
        std::string why;
        program_ = link_yuv420_program(why);
        if (!program_) {
            std::fprintf(stderr, "ropelab: error: %s\n", why.c_str());
            return false;
        }
        glGenFramebuffers(1, &framebuffer_);
        glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
        const GLint formats[4] = {GL_RG8, GL_RG8, GL_R8, GL_R8};
        GLenum attachments[4];
        for (int i = 0; i < 4; ++i) {
            targets_[i] = make_target_texture(formats[i], blocks_x, blocks_y);
            attachments[i] = GL_COLOR_ATTACHMENT0 + static_cast<GLenum>(i);
            glFramebufferTexture2D(GL_FRAMEBUFFER, attachments[i], GL_TEXTURE_2D, targets_[i], 0);
        }
        glDrawBuffers(4, attachments);
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
            std::fprintf(stderr, "ropelab: error: cannot make the %dx%d targets of the YUV pass\n", blocks_x, blocks_y);
            glDeleteProgram(program_);
            program_ = 0;
            return false;
        }
        glGenVertexArrays(1, &vertex_array_);
        glUseProgram(program_);
        glUniform1i(glGetUniformLocation(program_, "frame"), 0);
        glUniform2i(glGetUniformLocation(program_, "size"), width_, height_);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    glViewport(0, 0, blocks_x, blocks_y);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_DEPTH_TEST);
    glUseProgram(program_);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, frame);
    glBindVertexArray(vertex_array_);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glUseProgram(0);
    return true;
}

// The pass's four targets read into the stream's places at `base` (a pointer, or an offset
// into the bound pixel-pack buffer): the two Y targets interleave row by row (a stride of two
// Y rows), then the Cb plane, then the Cr plane. Target row 0 is the top block row.
void Yuv420Pass::read(std::uintptr_t base) const {
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

}  // namespace ropelab
