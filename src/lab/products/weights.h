#pragma once
// The weights view's product: for the model file the lab was given (a GGUF, or a safetensors
// checkpoint), one layer's per-pair energies of W_q and W_k (models/pair_energy.h) as plain data,
// and what the view and the exports draw from them: each pair's wavelength, the training context's
// pair, and the picked head's score curve with |c_i| = ‖W_q,i‖·‖W_k,i‖ through core/scores.h.
//
// A layer is computed off the frame on a worker thread, with its progress; a new path or layer
// cancels the running one, and the last whole layer stays shown (the preview) until the new one
// is whole. The file is opened once per path (the mapping is shared). `wait` (renders, exports)
// computes before returning.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/frequencies.h"
#include "core/model_config.h"
#include "state/params.h"

namespace ropelab::models {
class ModelWeights;
}

namespace ropelab::lab::products {

// One layer's energies, as models::PairEnergies holds them (q[h·pairs + i], k[g·pairs + i]).
struct WeightsLayer {
    int layer = 0, layers = 0;  // the layer shown, of how many the file has
    int q_heads = 0, kv_heads = 0, pairs = 0;
    std::vector<double> q, k;
    std::vector<std::string> notes;  // what the reader assumed (the rows' order, MLA's k_pe)
    bool empty() const { return pairs == 0; }
    int kv_head_of(int q_head) const { return q_head / (q_heads / kv_heads); }
    double q_energy(int h, int i) const { return q[static_cast<std::size_t>(h * pairs + i)]; }
    double k_energy(int g, int i) const { return k[static_cast<std::size_t>(g * pairs + i)]; }
    // ‖W_q,(h,i)‖·‖W_k,(g,i)‖: the bound on pair i's share of head h's q·k for unit inputs.
    double product(int h, int i) const { return q_energy(h, i) * k_energy(kv_head_of(h), i); }
    // Head h's products over its largest (the heatmap's row: 1 at its strongest pair).
    std::vector<double> normalised_row(int h) const;
};

// The weights a path names ("" when it names none: a preset, a config.json without safetensors).
std::string weights_source(const std::string& model_path);

// `layer` of `weights` (clamped to its layers) through models::pair_energies. Throws InputError
// (the reader's words: a missing tensor, MLA's compressed q). Cancelled: an empty layer.
WeightsLayer compute_weights_layer(const models::ModelWeights& weights, int layer,
                                   const std::function<void(double)>& progress = {}, const std::atomic<bool>* cancel = nullptr);

// 2π/ω_i in tokens for each pair (infinite where a pair does not turn).
std::vector<double> pair_wavelengths(const RopeFrequencies& freqs);
// The context the model was trained at: the scaling's original context, else max_position_embeddings.
std::int64_t training_context(const ModelConfig& m);
// The pair, fractional, whose wavelength is `tokens` (log-interpolated between neighbours); −1
// when no two neighbouring pairs bracket it.
double pair_at_wavelength(const std::vector<double>& wavelengths, double tokens);

// Head h's "typical" score: c_i = product(h, i) (real: the q and k of each pair aligned), fed to
// rope_score. Distances 1 … reach in `bins` log-spaced bins, each drawn as its lowest and highest
// score (as the score view's M4 columns): every distance of a bin is evaluated up to 64 of them,
// else 64 spread evenly, so the fast pairs' wiggles show as a band rather than as aliasing.
struct WeightsCurve {
    int head = -1;
    std::int64_t reach = 0;
    std::vector<double> distance, low, high;  // per bin: its first distance, its lowest and highest score
    bool empty() const { return distance.empty(); }
};
WeightsCurve head_score_curve(const WeightsLayer& layer, int head, const RopeFrequencies& freqs, std::int64_t reach, int bins = 384);
// How far the curve reaches: twice the training context (its mark in the middle of the log axis), at least 1024.
inline std::int64_t curve_reach(std::int64_t context) { return std::max<std::int64_t>(2 * context, 1024); }

// What the frame holds for the view and renders.
struct Weights {
    std::string source;   // the weights' path; "" when the model has none
    std::string message;  // why nothing is shown: no weights, or the reader's refusal
    int layers = 0;       // the file's layers (0: it could not be opened)
    WeightsLayer layer;   // the last whole layer (a preview while another computes)
    int wanted_layer = 0;
    bool computing = false;
    double progress = 0.0;  // of the layer computing, 0 … 1
    double last_ms = 0.0;   // the last whole layer's time
    WeightsCurve curve;     // of the layer shown and the picked head (empty: its pairs are not the lab's model's)
    bool current() const { return !computing && (!layer.empty() || !message.empty() || source.empty()); }
};

class WeightsProduct {
public:
    WeightsProduct() = default;
    WeightsProduct(const WeightsProduct&) = delete;
    WeightsProduct& operator=(const WeightsProduct&) = delete;
    ~WeightsProduct();

    // Starts the layer the state asks for (cancelling an older one) and takes a finished one.
    // `freqs`: the lab's model's frequencies (the curve's ω_i and the pairs' wavelengths).
    void update(const LabParams& p, const RopeFrequencies& freqs, bool wait);
    const Weights& shown() const { return shown_; }
    int computations() const { return computations_; }

private:
    struct Job;
    void open(const std::string& model_path);
    void take_finished();
    void update_layer(const LabParams& p, bool wait);
    void refresh_curve(const LabParams& p, const RopeFrequencies& freqs);

    std::string model_path_ = "\x01";  // never a path: the first update looks
    std::shared_ptr<const models::ModelWeights> weights_;
    std::shared_ptr<Job> job_;  // the layer wanted now
    std::vector<std::shared_ptr<Job>> running_;  // every thread not yet finished (cancelled ones too)
    Weights shown_;
    int computations_ = 0;
    std::vector<double> curve_freqs_;  // the inv_freq the curve was made with
    int curve_serial_ = -1;            // computations_ when it was made
};

}  // namespace ropelab::lab::products
