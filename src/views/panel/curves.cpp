#include "views/panel/panel.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "state/schema.h"
#include "views/views.h"

namespace ropelab::controls {

namespace {

constexpr const char* kEncodingNames[] = {"RoPE (rotation)", "Sinusoidal (addition)", "Both"};
constexpr const char* kVectorNames[] = {"All ones", "Random (seed)", "Mean of S random (k = q)", "Focused pair alone", "Custom"};

}  // namespace

void curve_section(LabParams& p) {
    enum_combo("Encoding", p.encoding, kEncodingNames);
    tip("RoPE: ⟨R_m q, R_n k⟩; sinusoidal: (q + p_m)·(k + p_n), Vaswani et al.");
    enum_combo("q, k", p.vectors, kVectorNames);
    tip("The query and key contents c_i = q_i·conj(k_i), pairs read as complex numbers, that the rotation acts on");
    if (p.vectors == VectorChoice::Random || p.vectors == VectorChoice::MeanOfRandom) {
        std::int64_t seed = static_cast<std::int64_t>(p.seed);
        if (ui::input_int64("seed", &seed)) p.seed = static_cast<std::uint64_t>(std::max<std::int64_t>(-1, seed));
        tip("q = random:seed, k = random:seed+1 (standard normal)");
    }
    if (p.vectors == VectorChoice::MeanOfRandom) {
        ui::slider_int("S samples", &p.samples, 1, schema::kMaxSamples, "%d", ImGuiSliderFlags_Logarithmic);
        tip("Average of c_i over S random vectors with k = q: the expected decay curve");
    }
    if (p.vectors == VectorChoice::Custom) {
        ui::input_text("q", &p.custom_q);
        tip("head_dim numbers, comma-separated (or ones, random:SEED, …)");
        ui::input_text("k", &p.custom_k);
        tip("head_dim numbers, comma-separated");
    }
    int exponent = static_cast<int>(std::lround(std::log2(static_cast<double>(p.max_distance))));
    if (ui::slider_int("N distances", &exponent, 4, 24, "2^%d")) {
        p.max_distance = std::int64_t{1} << exponent;
    }
    tip("Score computed for Δ = 0 .. N−1 by the GPU core (or CPU fast path)");
    ui::checkbox("log Δ axis", &p.log_distance);
    tip("Logarithmic distance axis: long-range decay becomes visible");
    ImGui::SameLine();
    ui::checkbox("bound", &p.show_bound);
    tip("RoFormer: |Σ c_i e^{iΔθ_i}| ≤ max|c_{i+1} − c_i| · Σ_j |S_j(Δ)|");
    ImGui::SameLine();
    ui::checkbox("no encoding", &p.show_unencoded);
    tip("q·k with no position encoding: the same at every distance, so attention alone cannot see order");
    enum_combo("Angles", p.angle_mode, views::kAngleModeLabels);
    tip("exact: integer phase reduction; naive fp32: sin/cos(float(m)·θ); bf16: those rounded to bfloat16. "
        "A naive mode is drawn over the exact score, with q at m = N − 1 and k at m − Δ");
    ui::checkbox("difference", &p.mode_difference);
    tip("With a naive angle mode: plot naive − exact under the scores (summed term by term, so it is not lost "
        "in rounding)");
    ui::slider_int64("invariance Δ", &p.invariance_distance, 0, 4096, true);
    tip("The fixed distance of the translation-invariance view (Ctrl+click to type up to 2^31 − 1)");
}

}  // namespace ropelab::controls
