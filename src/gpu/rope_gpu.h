#pragma once
// The GPU RoPE core: compute shaders for scores vs distance, the RoFormer decay bound, the angle
// heatmap and M4 decimation, in whatever GL ≥ 4.3 context is current. Results stay on the GPU
// (the plot decimates them in place); read_* copies them back when the caller needs numbers.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/frequencies.h"
#include "core/m4.h"
#include "core/phasor_sum.h"
#include "gpu/program.h"

namespace ropelab::gpu {

// Result slots that stay on the GPU: two score curves (RoPE and sinusoidal side by side), the
// decay bound, and for a naive angle mode its curve and its difference from the exact one.
// Compared1..3: the exact RoPE curves of compare mode's settings beside the base (Scores).
enum class Series { Scores, SecondScores, Bound, ModeScores, ModeError, Compared1, Compared2, Compared3 };
inline constexpr int kSeriesCount = 8;
// Setting 0 is the base's curve; 1..3 the compared settings'.
inline Series setting_series(int setting) {
    return setting == 0 ? Series::Scores : static_cast<Series>(static_cast<int>(Series::Compared1) + setting - 1);
}

class GpuRopeCore {
public:
    // Compiles every kernel; throws ShaderError with the driver's log.
    GpuRopeCore();
    ~GpuRopeCore();
    GpuRopeCore(const GpuRopeCore&) = delete;
    GpuRopeCore& operator=(const GpuRopeCore&) = delete;

    // count ≤ 2^24 distances (the CLI and the app validate this).
    void compute_scores(const PhasorSum& sum, std::int64_t count, AngleMode mode,
                        Series into = Series::Scores);
    // naive(Δ) − exact(Δ) of a naive mode, summed term by term, into Series::ModeError.
    void compute_mode_error(const PhasorSum& sum, std::int64_t count, AngleMode mode);
    void compute_decay_bound(const RopeFrequencies& freqs, std::int64_t count);
    std::vector<float> read(Series series) const;
    float read_value(Series series, std::int64_t index) const;
    std::int64_t size(Series series) const;

    // M4 columns of a series without copying it back.
    std::vector<M4Column> decimate(Series series, std::span<const std::uint32_t> boundaries);

    // Angles of every pair at positions first + r·stride into an r32f texture (pairs × rows),
    // and the same through a cyclic colormap into an rgba8 texture for display. Returns the
    // colour texture's GL name, owned by this object.
    unsigned compute_heatmap(std::span<const PhaseStep> steps, std::int64_t first,
                             std::int64_t stride, int rows);
    std::vector<float> read_heatmap() const;  // angles, row-major rows × pairs

    // Waits for the GPU (for timing: dispatch + this = the real cost).
    static void finish();

private:
    void dispatch_scores(const PhasorSum& sum, std::int64_t count, AngleMode mode, Series into,
                         bool minus_exact);
    ComputeProgram scores_program_{"scores.comp"};
    ComputeProgram bound_program_{"decay_bound.comp"};
    ComputeProgram heatmap_program_{"heatmap.comp"};
    ComputeProgram m4_program_{"m4.comp"};
    struct Slot {
        StorageBuffer values;
        StorageBuffer extremes;  // (min, max) per kernel block, for M4
        std::int64_t count = 0;
        int block = 1;
    };
    Slot& slot(Series s) { return slots_[static_cast<int>(s)]; }
    const Slot& slot(Series s) const { return slots_[static_cast<int>(s)]; }

    StorageBuffer terms_, boundaries_, columns_, heatmap_phases_;
    Slot slots_[kSeriesCount];
    unsigned heatmap_texture_ = 0, heatmap_colors_ = 0;
    int heatmap_pairs_ = 0, heatmap_rows_ = 0;
};

}  // namespace ropelab::gpu
