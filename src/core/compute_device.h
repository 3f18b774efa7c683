#pragma once
// The compute device the app hands the lab: where score curves, the decay bound and the heatmap
// are computed and kept. GL-free on purpose — the lab (src/lab) computes through this interface
// only, so it links no GL: the window and the offscreen renderer hand it the GL device
// (src/gpu/gl_device.h: GPU kernels, a CPU fallback, GL textures), the pure-tier tests the
// CPU device (core/cpu_device.h). Both give the same numbers within the tolerances tests/gpu states.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/frequencies.h"
#include "core/m4.h"
#include "core/phase.h"
#include "core/phasor_sum.h"

namespace ropelab {

// Result slots kept on the device: two score curves (RoPE and sinusoidal side by side), the
// decay bound, and for a naive angle mode its curve and its difference from the exact one.
// Compared1..3: the exact RoPE curves of compare mode's settings beside the base (Scores).
enum class Series { Scores, SecondScores, Bound, ModeScores, ModeError, Compared1, Compared2, Compared3 };
inline constexpr int kSeriesCount = 8;
// Setting 0 is the base's curve; 1..3 the compared settings'.
inline Series setting_series(int setting) {
    return setting == 0 ? Series::Scores : static_cast<Series>(static_cast<int>(Series::Compared1) + setting - 1);
}

// One series to compute, whole or a slice at a time (the lab spreads long curves over frames).
enum class SeriesKind { Scores, ModeError, Bound };
struct SeriesJob {
    Series into = Series::Scores;
    SeriesKind kind = SeriesKind::Scores;
    PhasorSum sum;          // Scores, ModeError
    RopeFrequencies freqs;  // Bound
    std::int64_t count = 0;
    AngleMode mode = AngleMode::Exact;
};

// Where the time of one computation went (CLI --repeat): kernel_ms from GL timer queries
// (0 on the CPU), transfer_ms the copy back into host memory the caller reads.
struct Timing {
    double kernel_ms = 0.0;
    double transfer_ms = 0.0;
};

class ComputeDevice {
public:
    virtual ~ComputeDevice() = default;

    virtual bool is_gpu() const = 0;
    // The GL renderer string, or "cpu".
    virtual const std::string& name() const = 0;
    // "serial" or "tiled" on the GPU, "cpu" otherwise.
    virtual std::string_view kernel_name() const = 0;
    // Why a GPU was asked for and the CPU computes instead, for the UI to keep showing; empty
    // when the GPU core runs or the CPU was asked for.
    virtual const std::string& fallback_reason() const = 0;

    // Computed and read back into host memory: valid until the next call of either.
    virtual std::span<const float> scores(const PhasorSum& sum, std::int64_t count, AngleMode mode) = 0;
    virtual std::span<const float> decay_bound(const RopeFrequencies& freqs, std::int64_t count) = 0;
    // With timing on, the split of the last scores() or decay_bound().
    virtual void set_timing(bool on) = 0;
    virtual const Timing& last_timing() const = 0;

    // Series kept where they were computed, for plotting: only their M4 columns, and single
    // values for hover read-outs, come back. A slice at a time: begin() readies the slot's back
    // buffers, advance() computes distances [from, to) (from a multiple of slice_unit(job)),
    // commit() puts them in front; until then the slot shows what it held.
    virtual std::int64_t slice_unit(const SeriesJob& job) const = 0;
    virtual void begin(const SeriesJob& job) = 0;
    virtual void advance(const SeriesJob& job, std::int64_t from, std::int64_t to) = 0;
    virtual void commit(Series slot) = 0;
    // Keep both buffers of a slot grown to the largest curve (exports, the soak): no allocation
    // at a later begin(). Off in the window, where one allocation per frame is cheaper.
    virtual void pair_buffers(bool on) = 0;
    // Waits until every slice handed over is done (the lab's frame budget counts real work).
    virtual void finish() = 0;

    // The whole series at once.
    void run(const SeriesJob& job) {
        begin(job);
        advance(job, 0, job.count);
        commit(job.into);
    }
    void compute_series(Series slot, const PhasorSum& sum, std::int64_t count, AngleMode mode) {
        run({slot, SeriesKind::Scores, sum, {}, count, mode});
    }
    void compute_bound_series(const RopeFrequencies& freqs, std::int64_t count) {
        run({Series::Bound, SeriesKind::Bound, {}, freqs, count, AngleMode::Exact});
    }
    void compute_mode_error_series(const PhasorSum& sum, std::int64_t count, AngleMode mode) {
        run({Series::ModeError, SeriesKind::ModeError, sum, {}, count, mode});
    }

    virtual std::int64_t series_size(Series slot) const = 0;
    virtual std::vector<M4Column> decimate(Series slot, std::span<const std::uint32_t> boundaries) = 0;
    // 0 outside the series.
    virtual float series_value(Series slot, std::int64_t index) = 0;
    // A whole series copied back (scripts and tests; the lab itself reads M4 columns only).
    virtual std::vector<float> read_series(Series slot) const = 0;

    // Pictures for the views, as texture names of the current GL context. A device without GL
    // (the CPU device) returns 0 = "no picture on this device": the views draw nothing there and
    // every number stays available. The angle heatmap (cyclic colormap), positions first +
    // r·stride for r < rows:
    virtual unsigned heatmap_texture(std::span<const PhaseStep> steps, std::int64_t first, std::int64_t stride,
                                     int rows) = 0;
    // Compare mode: the exact angle difference of two settings (same pair count), diverging colours.
    virtual unsigned difference_heatmap_texture(std::span<const PhaseStep> a, std::span<const PhaseStep> b,
                                                std::int64_t first, std::int64_t stride, int rows) = 0;
    // An RGBA8 image (top row first) in slot 0 … kImageSlots − 1, for pixels computed on the CPU
    // (the attention view's panels).
    static constexpr int kImageSlots = 4;
    virtual unsigned image_texture(int slot, int width, int height, std::span<const std::uint8_t> rgba) = 0;
};

}  // namespace ropelab
