#pragma once
// The GPU RoPE core: compute shaders for scores vs distance, the RoFormer decay bound, the angle
// heatmap and M4 decimation, in whatever GL ≥ 4.3 context is current. Results stay on the GPU
// (the plot decimates them in place); read_* copies them back when the caller needs numbers.
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "core/compute_device.h"
#include "core/frequencies.h"
#include "core/m4.h"
#include "core/multi_axis.h"
#include "core/scores.h"
#include "core/phasor_sum.h"
#include "core/recurrence.h"
#include "gpu/program.h"

namespace ropelab::gpu {

// Series, SeriesKind and SeriesJob (the slots and jobs) are core's (core/compute_device.h):
// the lab names them without linking GL.

// Which exact scores kernel runs. Serial (scores.comp): 64 consecutive distances per
// invocation, terms from a uniform block — what software rasterisers (llvmpipe) run fastest, as
// each invocation is a SIMD lane of a CPU thread. Tiled (scores_tiled.comp): 16 distances per
// invocation, 256 per workgroup, terms staged in shared memory, coalesced writes — enough
// invocations to fill a real GPU. Same exact anchors, same tolerance.
enum class KernelShape { Serial, Tiled };
// Software rasterisers keep the serial kernel; everything else gets the tiled one.
KernelShape kernel_shape_for(std::string_view renderer);
std::string_view to_string(KernelShape shape);

class GpuRopeCore {
public:
    // Compiles every kernel; throws ShaderError with the driver's log.
    explicit GpuRopeCore(KernelShape shape = KernelShape::Serial);
    ~GpuRopeCore();
    GpuRopeCore(const GpuRopeCore&) = delete;
    GpuRopeCore& operator=(const GpuRopeCore&) = delete;

    KernelShape shape() const { return shape_; }

    // A series in slices: begin() readies the slot's back buffers, advance() computes the
    // distances [from, to) into them (from a multiple of slice_unit(job)), commit() puts them in
    // front. Until then the slot shows what it held before; a new begin() drops a half-done job.
    // count ≤ 2^24 distances (the CLI and the app validate this).
    std::int64_t slice_unit(const SeriesJob& job) const;
    void begin(const SeriesJob& job);
    void advance(const SeriesJob& job, std::int64_t from, std::int64_t to);
    void commit(Series series);
    // With pairing on, commit() also grows the slot's other buffer to the committed one's size,
    // so a later begin() never allocates (64 MiB at 2^24 is ~50 ms on llvmpipe) and memory stops
    // growing once the largest curve has been computed. Off in the window (three such
    // allocations at one commit would be one long frame; each begin() makes its own, one per
    // frame), on when everything is computed at once (exports, the soak's tour).
    void pair_buffers(bool on) { pair_buffers_ = on; }
    void run(const SeriesJob& job);  // all three at once

    void compute_scores(const PhasorSum& sum, std::int64_t count, AngleMode mode,
                        Series into = Series::Scores);
    // naive(Δ) − exact(Δ) of a naive mode, summed term by term, into Series::ModeError.
    void compute_mode_error(const PhasorSum& sum, std::int64_t count, AngleMode mode);
    void compute_decay_bound(const RopeFrequencies& freqs, std::int64_t count);
    std::vector<float> read(Series series) const;
    // The whole series through a persistently mapped buffer (one GPU-side copy, no driver
    // staging); valid until the next read_mapped. Falls back to read() without ARB_buffer_storage.
    std::span<const float> read_mapped(Series series);
    float read_value(Series series, std::int64_t index) const;
    std::int64_t size(Series series) const;

    // GPU time of the dispatches since the last call, from GL timer queries (CLI --repeat).
    void set_timing(bool on) { timing_ = on; }
    double take_kernel_ms();

    // M4 columns of a series without copying it back.
    std::vector<M4Column> decimate(Series series, std::span<const std::uint32_t> boundaries);

    // Angles of every pair at positions first + r·stride into an r32f texture (pairs × rows),
    // and the same through a cyclic colormap into an rgba8 texture for display. Returns the
    // colour texture's GL name, owned by this object.
    unsigned compute_heatmap(std::span<const PhaseStep> steps, std::int64_t first,
                             std::int64_t stride, int rows);
    std::vector<float> read_heatmap() const;  // angles, row-major rows × pairs

    // Scores over an image (core/grid_scores.h) at Δt = dt for every (Δh, Δw) of an H×W image,
    // row-major over Δh then Δw, (2H−1)·(2W−1) floats: coefficients in float, angles as exact
    // phase words, within 1e-5·l1 of the core's grid_slice.
    std::vector<float> compute_grid(const ScoreCoefficients& c, std::span<const AxisVector> omega, std::int64_t height,
                                    std::int64_t width, std::int64_t dt);

    // Waits for the GPU (for timing: dispatch + this = the real cost).
    static void finish();

private:
    struct Slot {
        StorageBuffer values;
        StorageBuffer extremes;  // (min, max) per kernel block, for M4
        std::int64_t count = 0;
        int block = 1;
    };
    // The block of distances one kernel invocation (or workgroup) owns and summarises for M4.
    int block_of(const SeriesJob& job) const;
    void dispatch_scores(const SeriesJob& job, Slot& out, std::int64_t from, std::int64_t to);
    void dispatch_bound(const SeriesJob& job, Slot& out, std::int64_t from, std::int64_t to);
    void upload_terms(const std::vector<ReinschTerm>& terms);

    KernelShape shape_;
    ComputeProgram scores_program_{"scores.comp"};
    ComputeProgram tiled_program_{"scores_tiled.comp"};
    ComputeProgram bound_program_{"decay_bound.comp"};
    ComputeProgram heatmap_program_{"heatmap.comp"};
    ComputeProgram m4_program_{"m4.comp"};
    ComputeProgram grid_program_{"grid_scores.comp"};
    Slot& slot(Series s) { return slots_[static_cast<int>(s)]; }
    const Slot& slot(Series s) const { return slots_[static_cast<int>(s)]; }

    StorageBuffer terms_, boundaries_, columns_, heatmap_phases_, grid_pairs_, grid_values_;
    Slot slots_[kSeriesCount], back_[kSeriesCount];
    // commit() copies a series into the front buffer, leaving the back buffer where it is, when
    // the series takes at most this fraction of the back's capacity (a preview); else it swaps.
    static constexpr std::size_t kCopyRatio = 8;
    MappedReadBuffer readback_;
    std::vector<float> fallback_read_;
    bool timing_ = false, pair_buffers_ = false;
    unsigned timer_query_ = 0;
    double kernel_ms_ = 0.0;
    unsigned heatmap_texture_ = 0, heatmap_colors_ = 0;
    int heatmap_pairs_ = 0, heatmap_rows_ = 0;
};

}  // namespace ropelab::gpu
