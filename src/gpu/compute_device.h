#pragma once
// Picks where the RoPE kernels run: the GPU core when a GL ≥ 4.3 context with compute shaders
// can be had (llvmpipe included), else the CPU fast path. Same calls, same answers within the
// tolerances tests/gpu states.
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/cpu_kernels.h"
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

// Where the time of one computation went (CLI --repeat): kernel_ms from GL timer queries
// (0 on the CPU), transfer_ms the copy back into host memory the caller reads.
struct Timing {
    double kernel_ms = 0.0;
    double transfer_ms = 0.0;
};

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
                                               std::string& notice,
                                               KernelRequest kernel = kernel_request_from_environment());
    ~ComputeDevice();

    bool is_gpu() const { return core_ != nullptr; }
    // The GL renderer string, or "cpu".
    const std::string& name() const { return name_; }
    GpuRopeCore* gpu() { return core_.get(); }
    // Why `auto` fell back to the CPU (the notice open() gave), for the UI to keep showing;
    // empty when the GPU core runs or the CPU was asked for.
    const std::string& fallback_reason() const { return fallback_reason_; }

    // "serial" or "tiled" on the GPU, "cpu" otherwise.
    std::string_view kernel_name() const;

    // Computed and read back into host memory (the GPU's through a persistently mapped buffer):
    // valid until the next call of either. The GPU version includes the readback in its cost.
    std::span<const float> scores(const PhasorSum& sum, std::int64_t count, AngleMode mode);
    std::span<const float> decay_bound(const RopeFrequencies& freqs, std::int64_t count);
    // With timing on, the split of the last scores() or decay_bound().
    void set_timing(bool on);
    const Timing& last_timing() const { return timing_; }

    // Series kept where they were computed (GPU buffers or CPU vectors), for plotting: only
    // their M4 columns, and single values for hover read-outs, come back.
    void compute_series(Series slot, const PhasorSum& sum, std::int64_t count, AngleMode mode);
    void compute_bound_series(const RopeFrequencies& freqs, std::int64_t count);
    void compute_mode_error_series(const PhasorSum& sum, std::int64_t count, AngleMode mode);
    // A series a slice at a time (GpuRopeCore::begin/advance/commit): the slot keeps showing
    // what it held until commit. Slices start at multiples of slice_unit(job).
    std::int64_t slice_unit(const SeriesJob& job) const;
    void begin(const SeriesJob& job);
    void advance(const SeriesJob& job, std::int64_t from, std::int64_t to);
    void commit(Series slot);
    void pair_buffers(bool on) { if (core_) core_->pair_buffers(on); }  // GpuRopeCore::pair_buffers
    // Waits until every slice handed over is done (the lab's frame budget counts real work).
    void finish();

    std::int64_t series_size(Series slot) const;
    std::vector<M4Column> decimate(Series slot, std::span<const std::uint32_t> boundaries);
    float series_value(Series slot, std::int64_t index);
    // A whole series copied back (scripts and tests; the lab itself reads M4 columns only).
    std::vector<float> read_series(Series slot) const;

    // The angle heatmap as an RGBA texture for display (cyclic colormap), in the current GL
    // context: the compute kernel, or CPU angles uploaded. Returns the GL texture name.
    unsigned heatmap_texture(std::span<const PhaseStep> steps, std::int64_t first,
                             std::int64_t stride, int rows);

    // Compare mode: the angle difference of two settings (same pair count) through the diverging
    // colormap, computed on the CPU (exact fixed-point phases) and uploaded. Its own texture.
    unsigned difference_heatmap_texture(std::span<const PhaseStep> a, std::span<const PhaseStep> b, std::int64_t first,
                                        std::int64_t stride, int rows);

    // An RGBA8 image (top row first) in texture `slot` (0 … kImageSlots − 1, made on first use,
    // nearest-neighbour sampling), for views that draw pixels computed on the CPU (the attention
    // view's panels). Returns the GL texture name.
    static constexpr int kImageSlots = 4;
    unsigned image_texture(int slot, int width, int height, std::span<const std::uint8_t> rgba);

private:
    ComputeDevice() = default;
    bool fits(std::size_t terms) const;
    bool on_gpu(const SeriesJob& job) const;
    void run(const SeriesJob& job);
    void compute_on_cpu(const SeriesJob& job, std::int64_t first, std::span<float> out);
    std::span<const float> computed(const SeriesJob& job);  // scores() and decay_bound()
    std::unique_ptr<HeadlessContext> context_;
    std::unique_ptr<GpuRopeCore> core_;
    std::string name_ = "cpu";
    std::string fallback_reason_;
    std::vector<float> cpu_series_[kSeriesCount];
    bool on_cpu_[kSeriesCount] = {};  // series computed on the CPU (no GPU, or too many terms)
    std::vector<float> cpu_back_[kSeriesCount];  // a job's slices before commit
    bool back_on_cpu_[kSeriesCount] = {};
    std::int64_t back_count_[kSeriesCount] = {};
    std::vector<float> cpu_result_;  // scores() and decay_bound() on the CPU, reused
    bool timing_on_ = false;
    Timing timing_;
    unsigned cpu_heatmap_ = 0, difference_heatmap_ = 0;
    unsigned images_[kImageSlots] = {};
};

}  // namespace ropelab::gpu
