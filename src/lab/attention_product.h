#pragma once
// The attention view's product: the T × T matrix of one layer (core/attention.h) decimated for
// display. For the visible window [row0, row1) × [col0, col1) it keeps bins × bins bins (one
// per cell where the window is narrower, so single cells are exact); each bin row shows one
// query row m whose whole row of logits and softmax is computed, and per bin the largest logit
// (the logits panel), the largest visible logit or "masked" (the masked panel) and the largest
// weight (the weights panel), with the row's readouts for the plots against m.
//
// Rows are computed off the frame on worker threads, every 8th bin row first and then the rest
// (as the score curve refines: coarse at once, exact soon); the newest inputs win, and a frame
// never waits for a worker. `wait` (renders, exports) computes every row before returning.
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/attention.h"
#include "lab/attention_input.h"
#include "state/params.h"

namespace ropelab::lab {

// The most bins per side: a 2^16-token matrix shows as at most 256 × 256 bins.
inline constexpr int kMaxAttentionBins = 256;

// Which part of the matrix is shown, and in how many bins per side (at most one per cell).
struct AttentionWindow {
    std::int64_t row0 = 0, row1 = 0, col0 = 0, col1 = 0;
    int bins = 128;
    std::int64_t tokens = 0;  // T as the view knows it (0: unknown): small matrices are made at once
    bool operator==(const AttentionWindow&) const = default;
};

// The window's bins along one side: [lo, lo + span) in `count` bins, bin b from bin_start(b).
inline int bin_count(std::int64_t span, int bins) { return static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(span, bins))); }
inline std::int64_t bin_start(std::int64_t lo, std::int64_t span, int count, int b) { return lo + span * b / count; }
// The row a bin row shows: its last, so the matrix's last row (a needle's query) is always one.
inline std::int64_t bin_row(std::int64_t lo, std::int64_t span, int count, int b) { return bin_start(lo, span, count, b + 1) - 1; }

struct AttentionImage {
    std::int64_t tokens = 0;
    AttentionWindow window;
    int rows = 0, cols = 0;
    std::vector<std::int64_t> row_m;          // the query row each bin row shows
    std::vector<unsigned char> row_done;      // computed yet
    int rows_done = 0;
    // rows × cols, row-major. visible_max and weight_max are NaN where every key of the bin is
    // masked for the bin's row.
    std::vector<float> logit_max, visible_max, weight_max;
    std::vector<RowReadout> readouts;         // per bin row (once computed)
    std::vector<double> row_top, row_sum;     // the row's softmax: weight = exp(logit − top) / sum
    std::shared_ptr<const AttentionRows> source;  // exact logits for the hover
    LayerAttention layer;
    bool toeplitz = false;
    std::string error;  // the inputs could not be made (e.g. a vector file): said in the view
    bool out_of_memory = false;  // the error is an allocation failure (renders and exports exit 2)
    bool complete() const { return rows > 0 && rows_done == rows; }
    // Row r's bin row computed, or the nearest computed one above it (what a coarse pass shows).
    int shown_row(int r) const;
    // Exact values of cell (m, n) for a computed bin row r (m = row_m[r]).
    double logit(int r, std::int64_t n) const;
    double weight(int r, std::int64_t n) const;
};

class AttentionProduct {
public:
    AttentionProduct() = default;
    AttentionProduct(const AttentionProduct&) = delete;
    AttentionProduct& operator=(const AttentionProduct&) = delete;
    ~AttentionProduct();

    // Starts the work the inputs need and takes what the workers have done since the last call.
    // `model`: the setting drawn (the base). The window is clamped into the matrix.
    void update(const LabParams& p, const ModelConfig& model, AttentionWindow window, bool wait);
    const AttentionImage& image() const { return shown_; }
    // The image shown is of the latest inputs and whole.
    bool current() const { return shown_current_ && (shown_.complete() || !shown_.error.empty()); }
    // Milliseconds from the inputs to the last whole image (0 while none).
    double last_ms() const { return last_ms_; }
    int computations() const { return computations_; }
    // Counts the images shown: a new value means new pixels to draw.
    int serial() const { return serial_; }

private:
    // What the image depends on: the rows' input and the readout's width.
    struct Inputs {
        AttentionInputKey rows;
        std::int64_t readout_distance = 0;
        bool operator==(const Inputs&) const = default;
    };
    struct Job;
    struct Prepared;
    static void run(const std::shared_ptr<Job>& job, const LabParams& p, int threads);  // never throws
    static void compute(const std::shared_ptr<Job>& job, const LabParams& p, int threads);
    void retire_finished();

    Inputs wanted_;
    AttentionWindow wanted_window_;
    std::shared_ptr<Job> job_;  // the newest
    std::vector<std::shared_ptr<Job>> running_;  // not yet finished (their threads are detached); the newest last
    std::shared_ptr<Prepared> prepared_;  // the newest inputs' rows, made once for every window
    AttentionImage shown_;
    int shown_version_ = -1;
    bool shown_current_ = false;
    double last_ms_ = 0.0;
    int computations_ = 0;
    int serial_ = 0;
    const Job* counted_ = nullptr;  // the job whose whole image was counted
};

// The panels' colours: the logits on one diverging scale around 0 over ±the largest |logit| the
// image holds (the masked panel on the same scale), the weights sequential from 0 to the largest
// weight it holds, masked cells a neutral grey that is in neither map.
enum class AttentionPanel { Logits, Masked, Weights };
struct AttentionColours {
    double logit = 0, weight = 0;
};
inline constexpr std::array<std::uint8_t, 3> kMaskedGrey = {128, 128, 128};
AttentionColours fitted_colours(const AttentionImage& image);
std::array<std::uint8_t, 3> logit_rgb(const AttentionColours& c, double logit);
std::array<std::uint8_t, 3> weight_rgb(const AttentionColours& c, double weight);
// The panel as RGBA pixels, one per bin (rows × cols, top row first); a bin row not computed yet
// shows the computed one above it, or nothing (alpha 0).
std::vector<std::uint8_t> panel_rgba(const AttentionImage& image, const AttentionColours& colours, AttentionPanel panel);

// The setting whose attention is computed: compare mode's single setting (the one views 2, 4 and
// 11 show), clamped to the settings there are; the base otherwise.
int attention_setting(const LabParams& p);

// The window clamped into a T × T matrix (an empty one: the whole matrix).
AttentionWindow clamp_window(AttentionWindow w, std::int64_t tokens);

}  // namespace ropelab::lab
