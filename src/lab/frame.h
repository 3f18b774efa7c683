#pragma once
// The one door out of the lab: the committed state and one product per view, read through a
// const Frame&. Each product is computed on first read after the parts of the state and data it
// reads change (lab/products/lazy.h), and kept otherwise; the views draw from it and exports
// write the same products (export/data.cpp), so a number is worked out in one place.
// The score, invariance and precision views read LabCompute's series, the grid and attention
// views the lab's worker-thread products (lab.h); the rest read the products here.
#include <array>

#include "lab/lab_compute.h"
#include "lab/products/contrast.h"
#include "lab/products/frequencies.h"
#include "lab/products/heatmap.h"
#include "lab/products/lazy.h"
#include "lab/products/numbers.h"
#include "lab/products/pairing_strip.h"
#include "lab/products/phasors.h"
#include "lab/products/planes.h"
#include "lab/products/weights.h"
#include "state/params.h"

namespace ropelab::lab {

class Frame {
public:
    Frame(const LabParams& params, const LabCompute& compute) : params_(params), compute_(compute) {}
    Frame(const Frame&) = delete;  // it reads its owner's state: never a copy
    Frame& operator=(const Frame&) = delete;

    const LabParams& params() const { return params_; }
    const LabCompute& compute() const { return compute_; }

    // Per compare-mode setting (0: the base; clamped to the settings computed).
    const products::Planes& planes(int setting = 0) const;
    const products::Contrast& contrast(int setting = 0) const;
    const products::Numbers& numbers(int setting = 0) const;
    const products::Phasors& phasors(int setting = 0) const;
    const products::Frequencies& frequencies(int setting = 0) const;
    // The base's angles at m, or with `difference` K > 0 the base's minus setting K's.
    const products::Heatmap& heatmap(int difference = 0) const;
    const products::PairingStrip& pairing_strip() const;
    // The weights view's layer of the model file, computed off the frame on a worker thread
    // (products/weights.h): the lab starts it while the view is drawn, the view reads it here.
    const products::Weights& weights() const { return weights_.shown(); }
    products::WeightsProduct& weights_product() { return weights_; }

    // How many times each product of setting 0 was computed (the tests' counters).
    struct Computed {
        int planes, contrast, numbers, phasors, frequencies, heatmap, pairing_strip;
    };
    Computed computed() const;

private:
    static constexpr int kSettings = kMaxCompared + 1;
    int setting_index(int setting) const;
    const LabParams& params_;
    const LabCompute& compute_;
    std::array<products::Lazy<products::PlanesInputs, products::Planes>, kSettings> planes_;
    std::array<products::Lazy<products::ContrastInputs, products::Contrast>, kSettings> contrast_;
    std::array<products::Lazy<products::NumbersInputs, products::Numbers>, kSettings> numbers_;
    std::array<products::Lazy<products::PhasorsInputs, products::Phasors>, kSettings> phasors_;
    std::array<products::Lazy<products::FrequenciesInputs, products::Frequencies>, kSettings> frequencies_;
    products::Lazy<products::HeatmapInputs, products::Heatmap> heatmap_;
    products::Lazy<products::PairingStripInputs, products::PairingStrip> pairing_strip_;
    products::WeightsProduct weights_;
};

}  // namespace ropelab::lab
