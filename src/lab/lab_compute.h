#pragma once
// Keeps the derived data in step with LabParams: the CPU part (LabData) and the series the
// compute device holds (score curves, decay bound, heatmap texture). Work happens only when the
// parameters it depends on change. A parameter change (and the start) first shows a coarse curve
// (every k-th distance, exact values); the full curves are then computed a slice at a time on
// quiet frames, kFrameBudgetMs of work per frame, and shown once complete. A change meanwhile
// drops the half-done work; what is on screen stays.
#include <algorithm>
#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "token_positions.h"
#include "core/math_notes.h"
#include "core/compute_device.h"
#include "lab/frame_costs.h"
#include "lab/lab_data.h"
#include "lab/mean_coefficients.h"
#include "state/params.h"

namespace ropelab {

// The coarse preview: up to kCoarseSamples distances, fewer for long heads, so that its term
// evaluations (distances × terms, all settings together) stay near kCoarseWork.
inline constexpr std::int64_t kCoarseSamples = 65536;
inline constexpr std::int64_t kCoarseWork = kCoarseSamples * 64;
// Work on the exact curves per frame, and the most one indivisible slice may take.
inline constexpr double kFrameBudgetMs = 8.0;
inline constexpr double kSliceLimitMs = 100.0;
// LabData of new settings per frame: compare mode's four 512-dim settings take several frames.
inline constexpr double kDataBudgetMs = 10.0;
inline constexpr int kHeatmapRows = 512;

// Positions between the heatmap's rows: its rows span the plotted distances 0 .. N.
inline std::int64_t heatmap_stride_for(std::int64_t max_distance) {
    return std::max<std::int64_t>(1, max_distance / kHeatmapRows);
}

// The heatmap's first row: the page of kHeatmapRows rows (stride apart) that holds position m.
inline std::int64_t heatmap_first_for(std::int64_t position, std::int64_t stride) {
    const std::int64_t span = kHeatmapRows * stride;
    return position < 0 ? 0 : position / span * span;
}

// Where these settings make the math degenerate (core/math_notes.h), for the panel and exports.
inline std::vector<MathNote> lab_math_notes(const LabParams& p, const LabData& d) {
    return math_notes(d.freqs, {p.max_distance, p.position, p.angle_mode, heatmap_stride_for(p.max_distance)});
}

class LabCompute {
public:
    explicit LabCompute(ComputeDevice& device);

    // Recomputes what `p` changed. Bad settings (custom vectors that do not parse, an invalid
    // config) leave the previous data in place and set error().
    void update(const LabParams& p);

    const LabData& data() const { return data_; }
    // The token layout's position ids under both rules (recomputed when the layout, rule or model changes).
    const lab::TokenPositions& token_positions() const { return positions_.get(); }
    int token_position_computations() const { return positions_.computations(); }
    // Compare mode: setting 0 is the base (data()), 1 .. compared_count the compared settings,
    // each computed as its own single state (setting_params); their curves are setting_series(i).
    int settings() const { return 1 + static_cast<int>(compared_.size()); }
    const LabData& setting_data(int setting) const { return setting == 0 ? data_ : compared_[static_cast<std::size_t>(setting - 1)]; }
    // lab_math_notes for the data shown, kept until the data or (naive modes) the position change.
    const std::vector<MathNote>& notes() const { return notes_; }
    const std::string& error() const { return error_; }
    ComputeDevice& device() { return device_; }
    const ComputeDevice& device() const { return device_; }
    // What the views say about the device (they never call it).
    const std::string& device_name() const { return device_.name(); }
    const std::string& fallback_reason() const { return device_.fallback_reason(); }
    bool ready() const { return ready_; }

    // Distance between consecutive samples of the score series (1 once exact): the base's
    // series, and each setting's curve (compare mode refines one setting per quiet frame).
    std::int64_t series_stride() const { return stride_; }
    std::int64_t setting_stride(int setting) const { return setting == 0 ? stride_ : compared_strides_[static_cast<std::size_t>(setting - 1)]; }
    std::int64_t largest_stride() const;
    bool has_rope() const { return has_rope_; }
    bool has_sinusoidal() const { return has_sinusoidal_; }
    // A naive angle mode's curve (Series::ModeScores) and its error (Series::ModeError) are
    // held: full curves only, as a strided sum cannot place a naive mode's fp32 angles.
    bool has_mode_scores() const { return has_mode_scores_; }
    bool has_mode_error() const { return has_mode_error_; }

    unsigned heatmap_texture() const { return heatmap_texture_; }
    // Compare mode: base − setting K's angles on the heatmap's rows (diverging colours), when
    // heatmap_difference names a compared setting with as many pairs as the base; 0 otherwise.
    int difference_setting() const { return difference_setting_; }
    unsigned difference_texture() const { return difference_texture_; }
    std::int64_t heatmap_stride() const { return heatmap_stride_; }
    // The heatmap's first row's position: the page of kHeatmapRows·stride positions holding the
    // current position, so the window follows m (recomputed only when m leaves it).
    std::int64_t heatmap_first() const { return heatmap_first_; }

    // The exact pass in progress: which setting, how far (0 .. 1), how many settings are left
    // after it; nullopt when every curve is exact (or the pass was refused: refusal()).
    struct Progress {
        int setting = 0;
        double fraction = 0.0;
        int settings_left = 0;
        bool naive = false;  // the naive angle mode's curve alone, over an exact curve kept as it was
    };
    std::optional<Progress> progress() const;
    // Vectors = mean with many samples: "averaging …" while a worker computes them (the previous
    // curves, or at the start a mean of fewer samples, are shown meanwhile); "" otherwise.
    const std::string& averaging() const { return means_.working_on(); }
    // Why the exact pass stopped short (a slice over kSliceLimitMs on this device), or "".
    const std::string& refusal() const { return refusal_; }
    int slices_run() const { return slices_; }

    // Where the last update spent its time: model data, score preview, exact scores, heatmap, notes.
    const lab::FrameCosts& frame_costs() const { return costs_; }
    int recompute_count() const { return recomputes_; }
    int setting_computations() const { return setting_computations_; }  // LabData made, any setting
    int focus_refresh_count() const { return focus_refreshes_; }
    void set_previews(bool on) {
        previews_ = on;
        device_.pair_buffers(!on);
    }
    // Changes whenever the device's series change (for caching their decimations).
    int series_version() const { return series_version_; }

private:
    lab::TokenPositionsCache positions_;
    void update_data(const LabParams& p);
    // update_data's steps. The data unchanged: a new focus's series, the exact pass on quiet frames.
    void refresh_unchanged(const LabParams& p, const std::string& focus);
    // The LabData of the settings whose own keys changed (the others' kept); none when the
    // settings are refused while something is already shown.
    struct FreshData {
        LabData base;
        std::vector<LabData> compared;
    };
    std::optional<FreshData> compute_settings(const LabParams& p, const std::string& key, bool base_changed,
                                              const std::vector<std::string>& keys);
    void compute_previews(const LabParams& p, bool base_changed);  // coarse series of the settings just recomputed
    void refresh_notes(const LabParams& p);
    void compute_series(const LabParams& p, std::int64_t stride);
    void compute_compared_series(const LabParams& p, int setting, std::int64_t stride);
    // The exact pass: the jobs of the next setting still shown coarse, then slices of them within
    // the frame budget; false when every curve is exact.
    bool refine(const LabParams& p);
    std::vector<SeriesJob> exact_jobs(const LabParams& p, int setting) const;
    void finish_refinement(const LabParams& p);
    std::vector<SeriesJob> mode_jobs(const LabParams& p) const;
    // The same settings but for the angle mode (or its difference): the exact curves stay.
    static std::string exact_key(const LabParams& setting);
    std::int64_t coarse_stride(const LabParams& p, int stale_settings) const;
    void compute_heatmap(const LabParams& p);
    void refresh_difference(const LabParams& p);
    void refresh_focus_series(const LabParams& p, bool base);  // the compared settings', and the base's if asked
    bool means_ready(const LabParams& p);  // every setting's mean coefficients are at hand
    // One setting's LabData; a mean of random vectors comes from means_ (at the start, while the
    // worker averages, a mean of fewer samples stands in).
    LabData lab_data_for(const LabParams& setting);

    ComputeDevice& device_;
    LabData data_;
    std::vector<LabData> compared_;
    // Per setting: the data key its LabData was made for (so an edit of one setting recomputes
    // that one), and the key and stride of the curve its device series holds.
    std::string base_key_, base_exact_key_;
    bool mode_pending_ = false;  // the naive mode's series still to compute over exact curves
    std::vector<std::string> compared_keys_, compared_series_keys_;
    std::vector<std::int64_t> compared_strides_;
    std::string key_, focus_key_, error_, rejected_key_;
    bool ready_ = false, pending_exact_ = false, previews_ = true;
    bool has_rope_ = false, has_sinusoidal_ = false, has_mode_scores_ = false, has_mode_error_ = false;
    std::int64_t stride_ = 1, heatmap_stride_ = 1, heatmap_first_ = 0;
    unsigned heatmap_texture_ = 0, difference_texture_ = 0;
    int difference_setting_ = 0;
    std::string difference_key_;
    int recomputes_ = 0, focus_refreshes_ = 0, setting_computations_ = 0;
    int series_version_ = 0;
    struct Refinement {
        int setting = 0;
        std::vector<SeriesJob> jobs;
        std::size_t job = 0;      // the job in progress
        bool begun = false;       // its buffers are ready
        std::int64_t next = 0;    // its next distance
        double work_done = 0.0, work_total = 0.0;  // distances × terms
        bool naive = false;  // the naive mode's series only (mode_jobs)
    };
    std::optional<Refinement> refining_;
    MeanCoefficients means_;
    std::array<double, 4> ms_per_work_{};  // measured cost of one distance × term per cost class, 0 until measured
    std::string refusal_;
    lab::FrameCosts costs_;
    int slices_ = 0, quiet_updates_ = 0;
    std::vector<MathNote> notes_;
    std::string notes_key_ = "none";
    std::int64_t notes_position_ = -1;
};

}  // namespace ropelab
