#include "gpu/gl_device.h"

#include <epoxy/gl.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "core/colormap.h"
#include "core/cpu_kernels.h"

#include "core/error.h"
#include "core/headroom.h"
#include "gpu/kernel_config.h"

namespace ropelab::gpu {

DeviceRequest parse_device_request(std::string_view name) {
    if (name == "auto") return DeviceRequest::Auto;
    if (name == "gpu") return DeviceRequest::Gpu;
    if (name == "cpu") return DeviceRequest::Cpu;
    throw InputError(fmt::format("unknown device \"{}\" (expected auto, gpu or cpu)", name));
}

KernelRequest parse_kernel_request(std::string_view name) {
    if (name == "auto") return KernelRequest::Auto;
    if (name == "serial") return KernelRequest::Serial;
    if (name == "tiled") return KernelRequest::Tiled;
    throw InputError(fmt::format("unknown kernel \"{}\" (expected auto, serial or tiled)", name));
}

KernelRequest kernel_request_from_environment() {
    const char* name = std::getenv("ROPELAB_KERNEL");
    if (!name || !*name) return KernelRequest::Auto;
    try {
        return parse_kernel_request(name);
    } catch (const InputError& e) {
        throw InputError(fmt::format("$ROPELAB_KERNEL: {}", e.what()));
    }
}

namespace {
// Fills `why` and returns false when the GPU core cannot run here.
bool try_gpu(std::unique_ptr<HeadlessContext>& context, std::unique_ptr<GpuRopeCore>& core,
             bool headless, KernelRequest kernel, std::string& why) {
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
        const KernelShape shape = kernel == KernelRequest::Serial ? KernelShape::Serial
                                  : kernel == KernelRequest::Tiled ? KernelShape::Tiled
                                                                   : kernel_shape_for(info.renderer);
        core = std::make_unique<GpuRopeCore>(shape);
    } catch (const ShaderError& e) {
        why = std::string(e.what()) + "\n" + e.log();
        return false;
    }
    return true;
}
}  // namespace

std::unique_ptr<GlDevice> GlDevice::open(DeviceRequest request, bool headless, std::string& notice,
                                         KernelRequest kernel) {
    std::unique_ptr<GlDevice> device(new GlDevice);
    if (request == DeviceRequest::Cpu) return device;
    std::string why;
    if (try_gpu(device->context_, device->core_, headless, kernel, why)) {
        device->name_ = current_gl_info().renderer;
        return device;
    }
    device->core_.reset();
    device->context_.reset();
    if (request == DeviceRequest::Gpu) throw DeviceError("GPU core unavailable: " + why);
    notice = "GPU core unavailable, computing on the CPU: " + why;
    device->cpu_ = CpuDevice(notice);
    return device;
}

GlDevice::~GlDevice() {
    if (cpu_heatmap_) glDeleteTextures(1, &cpu_heatmap_);
    if (difference_heatmap_) glDeleteTextures(1, &difference_heatmap_);
    for (unsigned& t : images_) {
        if (t) glDeleteTextures(1, &t);
    }
    core_.reset();  // GL objects go before their context
    context_.reset();
}

bool GlDevice::fits(std::size_t terms) const {
    // More terms than the kernels' uniform block holds (rotary dim > 512): same numbers from
    // the CPU path rather than none.
    return core_ && terms <= static_cast<std::size_t>(kMaxTerms);
}

std::string_view GlDevice::kernel_name() const { return core_ ? to_string(core_->shape()) : "cpu"; }

bool GlDevice::on_gpu(const SeriesJob& job) const {
    return fits(job.kind == SeriesKind::Bound ? job.freqs.phase_step.size() : job.sum.coefficient.size());
}

std::int64_t GlDevice::slice_unit(const SeriesJob& job) const {
    return on_gpu(job) ? core_->slice_unit(job) : cpu_.slice_unit(job);
}

void GlDevice::begin(const SeriesJob& job) {
    const int i = static_cast<int>(job.into);
    back_on_cpu_[i] = !on_gpu(job);
    if (back_on_cpu_[i]) {
        cpu_.begin(job);
    } else {
        core_->begin(job);
    }
}

void GlDevice::advance(const SeriesJob& job, std::int64_t from, std::int64_t to) {
    if (back_on_cpu_[static_cast<int>(job.into)]) {
        cpu_.advance(job, from, to);
    } else {
        core_->advance(job, from, to);
    }
}

void GlDevice::commit(Series slot) {
    const int i = static_cast<int>(slot);
    on_cpu_[i] = back_on_cpu_[i];
    if (on_cpu_[i]) {
        cpu_.commit(slot);
    } else {
        core_->commit(slot);
    }
}

void GlDevice::finish() {
    if (core_) GpuRopeCore::finish();
}

std::int64_t GlDevice::series_size(Series slot) const {
    return on_cpu_[static_cast<int>(slot)] ? cpu_.series_size(slot) : core_->size(slot);
}

std::vector<M4Column> GlDevice::decimate(Series slot, std::span<const std::uint32_t> boundaries) {
    return on_cpu_[static_cast<int>(slot)] ? cpu_.decimate(slot, boundaries) : core_->decimate(slot, boundaries);
}

float GlDevice::series_value(Series slot, std::int64_t index) {
    if (on_cpu_[static_cast<int>(slot)]) return cpu_.series_value(slot, index);
    if (index < 0 || index >= series_size(slot)) return 0.0f;
    return core_->read_value(slot, index);
}

std::vector<float> GlDevice::read_series(Series slot) const {
    return on_cpu_[static_cast<int>(slot)] ? cpu_.read_series(slot) : core_->read(slot);
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

unsigned GlDevice::image_texture(int slot, int width, int height, std::span<const std::uint8_t> rgba) {
    unsigned& texture = images_[std::clamp(slot, 0, kImageSlots - 1)];
    require_headroom(rgba.size() + kDriverHeadroomBytes);
    if (!texture) glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    glBindTexture(GL_TEXTURE_2D, 0);
    return texture;
}

unsigned GlDevice::heatmap_texture(std::span<const PhaseStep> steps, std::int64_t first,
                                        std::int64_t stride, int rows) {
    if (fits(steps.size())) return core_->compute_heatmap(steps, first, stride, rows);
    const std::vector<float> angles = cpu_angle_heatmap(steps, first, stride, rows);
    upload_heatmap(cpu_heatmap_, angles, steps.size(), rows, cyclic_color);
    return cpu_heatmap_;
}

unsigned GlDevice::difference_heatmap_texture(std::span<const PhaseStep> a, std::span<const PhaseStep> b,
                                                   std::int64_t first, std::int64_t stride, int rows) {
    const std::vector<float> angles = cpu_angle_difference_heatmap(a, b, first, stride, rows);
    upload_heatmap(difference_heatmap_, angles, std::min(a.size(), b.size()), rows, diverging_color);
    return difference_heatmap_;
}

void GlDevice::set_timing(bool on) {
    timing_on_ = on;
    if (core_) core_->set_timing(on);
}

namespace {
double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

std::span<const float> GlDevice::computed(const SeriesJob& job) {
    timing_ = {};
    if (!on_gpu(job)) return job.kind == SeriesKind::Bound ? cpu_.decay_bound(job.freqs, job.count)
                                                           : cpu_.scores(job.sum, job.count, job.mode);
    core_->run(job);
    if (timing_on_) timing_.kernel_ms = core_->take_kernel_ms();
    const auto start = std::chrono::steady_clock::now();
    const std::span<const float> out = core_->read_mapped(job.into);
    timing_.transfer_ms = ms_since(start);
    return out;
}

std::span<const float> GlDevice::scores(const PhasorSum& sum, std::int64_t count, AngleMode mode) {
    return computed({Series::Scores, SeriesKind::Scores, sum, {}, count, mode});
}

std::span<const float> GlDevice::decay_bound(const RopeFrequencies& freqs, std::int64_t count) {
    return computed({Series::Bound, SeriesKind::Bound, {}, freqs, count, AngleMode::Exact});
}

}  // namespace ropelab::gpu
