#pragma once
// Picks where the RoPE kernels run: the GPU core when a GL ≥ 4.3 context with compute shaders
// can be had (llvmpipe included), else the CPU fast path. Same calls, same answers within the
// tolerances tests/gpu states.
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/cpu_kernels.h"
#include "gpu/gl_context.h"
#include "gpu/rope_gpu.h"

namespace ropelab::gpu {

enum class DeviceRequest { Auto, Gpu, Cpu };
DeviceRequest parse_device_request(std::string_view name);  // auto|gpu|cpu; throws InputError

// `--device gpu` asked for a GPU that cannot be had.
class DeviceError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class ComputeDevice {
public:
    // headless: make an EGL surfaceless context; otherwise use the caller's current context.
    // Auto falls back to the CPU and sets `notice` to one line saying why (plus any shader
    // compile log on the following lines). Gpu throws DeviceError instead. Cpu never touches GL.
    static std::unique_ptr<ComputeDevice> open(DeviceRequest request, bool headless,
                                               std::string& notice);
    ~ComputeDevice();

    bool is_gpu() const { return core_ != nullptr; }
    // The GL renderer string, or "cpu".
    const std::string& name() const { return name_; }
    GpuRopeCore* gpu() { return core_.get(); }
    // Why `auto` fell back to the CPU (the notice open() gave), for the UI to keep showing;
    // empty when the GPU core runs or the CPU was asked for.
    const std::string& fallback_reason() const { return fallback_reason_; }

    // Computed and read back (the GPU version includes the readback in its cost).
    std::vector<float> scores(const PhasorSum& sum, std::int64_t count, AngleMode mode);
    std::vector<float> decay_bound(const RopeFrequencies& freqs, std::int64_t count);

    // Series kept where they were computed (GPU buffers or CPU vectors), for plotting: only
    // their M4 columns, and single values for hover read-outs, come back.
    void compute_series(Series slot, const PhasorSum& sum, std::int64_t count, AngleMode mode);
    void compute_bound_series(const RopeFrequencies& freqs, std::int64_t count);
    void compute_mode_error_series(const PhasorSum& sum, std::int64_t count, AngleMode mode);
    std::int64_t series_size(Series slot) const;
    std::vector<M4Column> decimate(Series slot, std::span<const std::uint32_t> boundaries);
    float series_value(Series slot, std::int64_t index);

    // The angle heatmap as an RGBA texture for display (cyclic colormap), in the current GL
    // context: the compute kernel, or CPU angles uploaded. Returns the GL texture name.
    unsigned heatmap_texture(std::span<const PhaseStep> steps, std::int64_t first,
                             std::int64_t stride, int rows);

    // Compare mode: the angle difference of two settings (same pair count) through the diverging
    // colormap, computed on the CPU (exact fixed-point phases) and uploaded. Its own texture.
    unsigned difference_heatmap_texture(std::span<const PhaseStep> a, std::span<const PhaseStep> b, std::int64_t first,
                                        std::int64_t stride, int rows);

private:
    ComputeDevice() = default;
    bool fits(std::size_t terms) const;
    std::unique_ptr<HeadlessContext> context_;
    std::unique_ptr<GpuRopeCore> core_;
    std::string name_ = "cpu";
    std::string fallback_reason_;
    std::vector<float> cpu_series_[kSeriesCount];
    bool on_cpu_[kSeriesCount] = {};  // series computed on the CPU (no GPU, or too many terms)
    unsigned cpu_heatmap_ = 0, difference_heatmap_ = 0;
};

}  // namespace ropelab::gpu
