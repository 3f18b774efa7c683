#include "gpu/compute_device.h"

#include <epoxy/gl.h>
#include <fmt/format.h>

#include "core/colormap.h"

#include "core/error.h"
#include "gpu/kernel_config.h"

namespace ropelab::gpu {

DeviceRequest parse_device_request(std::string_view name) {
    if (name == "auto") return DeviceRequest::Auto;
    if (name == "gpu") return DeviceRequest::Gpu;
    if (name == "cpu") return DeviceRequest::Cpu;
    throw InputError(fmt::format("unknown device \"{}\" (expected auto, gpu or cpu)", name));
}

namespace {
// Fills `why` and returns false when the GPU core cannot run here.
bool try_gpu(std::unique_ptr<HeadlessContext>& context, std::unique_ptr<GpuRopeCore>& core,
             bool headless, std::string& why) {
    if (headless) {
        context = HeadlessContext::create(why);
        if (!context) return false;
    }
    const GlInfo info = current_gl_info();
    if (!info.has_compute) {
        why = fmt::format("OpenGL {} ({}) has no compute shaders", info.version, info.renderer);
        return false;
    }
    try {
        core = std::make_unique<GpuRopeCore>();
    } catch (const ShaderError& e) {
        why = std::string(e.what()) + "\n" + e.log();
        return false;
    }
    return true;
}
}  // namespace

std::unique_ptr<ComputeDevice> ComputeDevice::open(DeviceRequest request, bool headless,
                                                   std::string& notice) {
    std::unique_ptr<ComputeDevice> device(new ComputeDevice);
    if (request == DeviceRequest::Cpu) return device;
    std::string why;
    if (try_gpu(device->context_, device->core_, headless, why)) {
        device->name_ = current_gl_info().renderer;
        return device;
    }
    device->core_.reset();
    device->context_.reset();
    if (request == DeviceRequest::Gpu) throw DeviceError("GPU core unavailable: " + why);
    notice = "GPU core unavailable, computing on the CPU: " + why;
    device->fallback_reason_ = notice;
    return device;
}

ComputeDevice::~ComputeDevice() {
    if (cpu_heatmap_) glDeleteTextures(1, &cpu_heatmap_);
    if (difference_heatmap_) glDeleteTextures(1, &difference_heatmap_);
    core_.reset();  // GL objects go before their context
    context_.reset();
}

bool ComputeDevice::fits(std::size_t terms) const {
    // More terms than the kernels' uniform block holds (rotary dim > 512): same numbers from
    // the CPU path rather than none.
    return core_ && terms <= static_cast<std::size_t>(kMaxTerms);
}

void ComputeDevice::compute_series(Series slot, const PhasorSum& sum, std::int64_t count,
                                   AngleMode mode) {
    const int i = static_cast<int>(slot);
    on_cpu_[i] = !fits(sum.coefficient.size());
    if (on_cpu_[i]) {
        cpu_series_[i] = cpu_scores(sum, count, mode);
    } else {
        core_->compute_scores(sum, count, mode, slot);
    }
}

void ComputeDevice::compute_bound_series(const RopeFrequencies& freqs, std::int64_t count) {
    const int i = static_cast<int>(Series::Bound);
    on_cpu_[i] = !fits(freqs.phase_step.size());
    if (on_cpu_[i]) {
        cpu_series_[i] = cpu_decay_bound(freqs, count);
    } else {
        core_->compute_decay_bound(freqs, count);
    }
}

void ComputeDevice::compute_mode_error_series(const PhasorSum& sum, std::int64_t count, AngleMode mode) {
    const int i = static_cast<int>(Series::ModeError);
    on_cpu_[i] = !fits(sum.coefficient.size());
    if (on_cpu_[i]) {
        cpu_series_[i] = cpu_mode_error(sum, count, mode);
    } else {
        core_->compute_mode_error(sum, count, mode);
    }
}

std::int64_t ComputeDevice::series_size(Series slot) const {
    const int i = static_cast<int>(slot);
    return on_cpu_[i] ? static_cast<std::int64_t>(cpu_series_[i].size()) : core_->size(slot);
}

std::vector<M4Column> ComputeDevice::decimate(Series slot,
                                              std::span<const std::uint32_t> boundaries) {
    const int i = static_cast<int>(slot);
    return on_cpu_[i] ? m4_decimate(cpu_series_[i], boundaries) : core_->decimate(slot, boundaries);
}

float ComputeDevice::series_value(Series slot, std::int64_t index) {
    const int i = static_cast<int>(slot);
    if (index < 0 || index >= series_size(slot)) return 0.0f;
    return on_cpu_[i] ? cpu_series_[i][static_cast<std::size_t>(index)]
                      : core_->read_value(slot, index);
}

namespace {

// Angles (rows × pairs) through a colormap into an RGBA texture, made on first use.
void upload_heatmap(unsigned& texture, const std::vector<float>& angles, std::size_t pairs, int rows,
                    std::array<float, 3> (*colormap)(float)) {
    std::vector<std::uint8_t> rgba;
    rgba.reserve(angles.size() * 4);
    for (float a : angles) {
        for (float channel : colormap(a)) rgba.push_back(static_cast<std::uint8_t>(channel * 255.0f + 0.5f));
        rgba.push_back(255);
    }
    if (!texture) glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, static_cast<GLsizei>(pairs), rows, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    glBindTexture(GL_TEXTURE_2D, 0);
}

}  // namespace

unsigned ComputeDevice::heatmap_texture(std::span<const PhaseStep> steps, std::int64_t first,
                                        std::int64_t stride, int rows) {
    if (fits(steps.size())) return core_->compute_heatmap(steps, first, stride, rows);
    const std::vector<float> angles = cpu_angle_heatmap(steps, first, stride, rows);
    upload_heatmap(cpu_heatmap_, angles, steps.size(), rows, cyclic_color);
    return cpu_heatmap_;
}

unsigned ComputeDevice::difference_heatmap_texture(std::span<const PhaseStep> a, std::span<const PhaseStep> b,
                                                   std::int64_t first, std::int64_t stride, int rows) {
    const std::vector<float> angles = cpu_angle_difference_heatmap(a, b, first, stride, rows);
    upload_heatmap(difference_heatmap_, angles, std::min(a.size(), b.size()), rows, diverging_color);
    return difference_heatmap_;
}

std::vector<float> ComputeDevice::scores(const PhasorSum& sum, std::int64_t count,
                                         AngleMode mode) {
    if (!fits(sum.coefficient.size())) return cpu_scores(sum, count, mode);
    core_->compute_scores(sum, count, mode);
    return core_->read(Series::Scores);
}

std::vector<float> ComputeDevice::decay_bound(const RopeFrequencies& freqs, std::int64_t count) {
    if (!fits(freqs.phase_step.size())) return cpu_decay_bound(freqs, count);
    core_->compute_decay_bound(freqs, count);
    return core_->read(Series::Bound);
}

}  // namespace ropelab::gpu
