#pragma once
// The GL compute device (the app opens it and hands it to the lab as core's ComputeDevice):
// picks where the RoPE kernels run — the GPU core when a GL ≥ 4.3 context with compute shaders
// can be had (llvmpipe included), else the CPU device (core/cpu_device.h). Same calls, same
// answers within the tolerances tests/gpu states.
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/compute_device.h"
#include "core/cpu_device.h"
#include "gpu/gl_context.h"
#include "gpu/rope_gpu.h"

namespace ropelab::gpu {

enum class DeviceRequest { Auto, Gpu, Cpu };
DeviceRequest parse_device_request(std::string_view name);  // auto|gpu|cpu; throws InputError

// Which exact GPU kernel: chosen from the renderer, or forced (tests run the tiled kernel on
// llvmpipe; `--kernel` and $ROPELAB_KERNEL say so).
enum class KernelRequest { Auto, Serial, Tiled };
KernelRequest parse_kernel_request(std::string_view name);  // auto|serial|tiled; throws InputError
// $ROPELAB_KERNEL when set (the GUI, the offscreen renderer), else Auto.
KernelRequest kernel_request_from_environment();

// `--device gpu` asked for a GPU that cannot be had.
class DeviceError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The compute device of the window, the offscreen renderer and the CLI: the GPU core where it
// runs, else (and for more terms than its kernels hold) the CPU device it keeps; its pictures are
// GL textures in the current context, made from CPU angles where the GPU core cannot run.
class GlDevice final : public ComputeDevice {
public:
    // headless: make an EGL surfaceless context; otherwise use the caller's current context.
    // Auto falls back to the CPU and sets `notice` to one line saying why (plus any shader
    // compile log on the following lines). Gpu throws DeviceError instead. Cpu never touches
    // GL for numbers (its pictures are still GL textures of the current context).
    static std::unique_ptr<GlDevice> open(DeviceRequest request, bool headless, std::string& notice,
                                          KernelRequest kernel = kernel_request_from_environment());
    ~GlDevice() override;

    bool is_gpu() const override { return core_ != nullptr; }
    const std::string& name() const override { return name_; }
    std::string_view kernel_name() const override;
    const std::string& fallback_reason() const override { return cpu_.fallback_reason(); }
    GpuRopeCore* gpu() { return core_.get(); }

    // The GPU's results come back through a persistently mapped buffer, its readback counted.
    std::span<const float> scores(const PhasorSum& sum, std::int64_t count, AngleMode mode) override;
    std::span<const float> decay_bound(const RopeFrequencies& freqs, std::int64_t count) override;
    void set_timing(bool on) override;
    const Timing& last_timing() const override { return timing_; }

    // Slices as GpuRopeCore::begin/advance/commit, or on the CPU device per job.
    std::int64_t slice_unit(const SeriesJob& job) const override;
    void begin(const SeriesJob& job) override;
    void advance(const SeriesJob& job, std::int64_t from, std::int64_t to) override;
    void commit(Series slot) override;
    void pair_buffers(bool on) override { if (core_) core_->pair_buffers(on); }  // GpuRopeCore::pair_buffers
    void finish() override;

    std::int64_t series_size(Series slot) const override;
    std::vector<M4Column> decimate(Series slot, std::span<const std::uint32_t> boundaries) override;
    float series_value(Series slot, std::int64_t index) override;
    std::vector<float> read_series(Series slot) const override;

    // The heatmap from the compute kernel, or CPU angles uploaded; the difference heatmap is
    // always computed on the CPU (exact fixed-point phases) and uploaded into its own texture;
    // images are nearest-neighbour textures made on first use.
    unsigned heatmap_texture(std::span<const PhaseStep> steps, std::int64_t first, std::int64_t stride,
                             int rows) override;
    unsigned difference_heatmap_texture(std::span<const PhaseStep> a, std::span<const PhaseStep> b, std::int64_t first,
                                        std::int64_t stride, int rows) override;
    unsigned image_texture(int slot, int width, int height, std::span<const std::uint8_t> rgba) override;

private:
    GlDevice() = default;
    bool fits(std::size_t terms) const;
    bool on_gpu(const SeriesJob& job) const;
    std::span<const float> computed(const SeriesJob& job);  // scores() and decay_bound()
    std::unique_ptr<HeadlessContext> context_;
    std::unique_ptr<GpuRopeCore> core_;
    std::string name_ = "cpu";
    CpuDevice cpu_;  // the fallback: no GPU core, or too many terms for its kernels
    bool on_cpu_[kSeriesCount] = {};       // series computed by cpu_
    bool back_on_cpu_[kSeriesCount] = {};  // the job begun in each slot runs on cpu_
    bool timing_on_ = false;
    Timing timing_;
    unsigned cpu_heatmap_ = 0, difference_heatmap_ = 0;
    unsigned images_[kImageSlots] = {};
};

}  // namespace ropelab::gpu
