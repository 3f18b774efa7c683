#include "gpu/compute_device.h"

#include <fmt/format.h>

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
    return device;
}

ComputeDevice::~ComputeDevice() {
    core_.reset();  // GL objects go before their context
    context_.reset();
}

std::vector<float> ComputeDevice::scores(const PhasorSum& sum, std::int64_t count,
                                         AngleMode mode) {
    // More terms than the kernels' uniform block holds (rotary dim > 512): same numbers from
    // the CPU path rather than none.
    const bool fits = sum.coefficient.size() <= static_cast<std::size_t>(kMaxTerms);
    if (!core_ || !fits) return cpu_scores(sum, count, mode);
    core_->compute_scores(sum, count, mode);
    return core_->read(Series::Scores);
}

std::vector<float> ComputeDevice::decay_bound(const RopeFrequencies& freqs, std::int64_t count) {
    if (!core_ || freqs.pairs() > kMaxTerms) return cpu_decay_bound(freqs, count);
    core_->compute_decay_bound(freqs, count);
    return core_->read(Series::Bound);
}

}  // namespace ropelab::gpu
