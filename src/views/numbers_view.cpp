// View 7: the worked example, the way the seeds do it: for the focused position and pair,
// θ_i, m·θ_i, cos and sin, the 2×2 matrix, the complex product with values, and which vector
// components form pair i in each layout.
#include <algorithm>
#include <cmath>
#include <complex>

#include "core/rotation.h"
#include "views/views.h"

namespace ropelab::views {

namespace {
// A value as printed with `decimals` decimals, without the "−0.000000" that rounding a tiny
// negative number gives: a rounded zero is zero.
double shown(double v, int decimals) { return std::abs(v) < 0.5 * std::pow(10.0, -decimals) ? 0.0 : v; }
}  // namespace

void numbers_view(Context& ctx) {
    const LabParams& p = ctx.params;
    const LabData& d = ctx.compute.data();
    const int i = std::clamp(p.focused_pair, 0, d.freqs.pairs() - 1);
    const auto k = static_cast<std::size_t>(i);
    caption("One rotation, worked out with exact numbers.",
            "The numbers behind one rotation of the focused pair at the current position, as the "
            "posts work them out. The angle is reduced modulo 2π with integer arithmetic before "
            "cos and sin see it. Scalings with an attention factor (YaRN, LongRoPE) multiply cos and "
            "sin by it, so the rotated pair's length changes by that factor.");
    const double theta = d.freqs.inv_freq[k];
    const double angle = phase_radians(phase_at(d.freqs.phase_step[k], p.position));
    const double a = d.freqs.attention_factor;  // HF multiplies cos and sin by it
    const double c = a * std::cos(angle), s = a * std::sin(angle);
    const auto x = pair_value(d.q, i, d.freqs.rotary_dim, d.freqs.layout);
    const auto rotated = x * std::complex<double>(c, s);

    const double base_freq = std::pow(d.freqs.effective_theta, -2.0 * i / d.freqs.rotary_dim);
    ImGui::Text("θ_%d = %.6g^(−2·%d/%d) = %.10g rad per position", i, d.freqs.effective_theta, i,
                d.freqs.rotary_dim, base_freq);
    if (std::abs(theta - base_freq) > 1e-15 * base_freq) {
        ImGui::Text("      × %.6g (%s scaling) = %.10g rad per position", theta / base_freq,
                    std::string(to_string(p.model.rope_scaling.type)).c_str(), theta);
    }
    ImGui::Text("m·θ_%d = %lld × %.10g = %.10g rad", i, static_cast<long long>(p.position), theta,
                static_cast<double>(p.position) * theta);
    ImGui::Text("reduced: %.12f rad = %.8f°", shown(angle, 12), shown(angle * 180.0 / M_PI, 8));
    if (a != 1.0) {
        ImGui::Text("attention factor %.10g (%s): cos and sin are scaled by it", a,
                    std::string(to_string(p.model.rope_scaling.type)).c_str());
        ImGui::Text("%.6g·cos = %.10f     %.6g·sin = %.10f", a, shown(c, 10), a, shown(s, 10));
    } else {
        ImGui::Text("cos = %.10f     sin = %.10f", shown(c, 10), shown(s, 10));
    }
    ImGui::Separator();
    const char* matrix = a != 1.0 ? "a·R(m·θ) = " : "R(m·θ) = ";
    const char* indent = a != 1.0 ? "           " : "         ";
    ImGui::Text("%s| %+.6f  %+.6f |", matrix, shown(c, 6), shown(-s, 6));
    ImGui::Text("%s| %+.6f  %+.6f |", indent, shown(s, 6), shown(c, 6));
    ImGui::Separator();
    ImGui::Text("q pair as complex:  %.6f %+.6fi", shown(x.real(), 6), shown(x.imag(), 6));
    ImGui::Text("(%.4f %+.4fi)(%.6f %+.6fi) = %.6f %+.6fi", shown(x.real(), 4), shown(x.imag(), 4), shown(c, 6),
                shown(s, 6), shown(rotated.real(), 6), shown(rotated.imag(), 6));
    ImGui::Text("|before| = %.6f   |after| = %.6f%s", std::abs(x), std::abs(rotated),
                a != 1.0 ? "   (× the attention factor)" : "");
    ImGui::Separator();
    const auto [ia, ib] = pair_components(i, d.freqs.rotary_dim, PairLayout::Interleaved);
    const auto [ha, hb] = pair_components(i, d.freqs.rotary_dim, PairLayout::Half);
    ImGui::Text("pair %d is components (%d, %d) interleaved (RoFormer, GPT-J, DeepSeek, Llama 4)", i, ia, ib);
    ImGui::Text("        components (%d, %d) half-split (HF rotate_half: Llama, Qwen, Gemma, …)", ha, hb);
    ImGui::TextDisabled("this model uses the %s layout; %d of %d components rotate", 
                        std::string(to_string(d.freqs.layout)).c_str(), d.freqs.rotary_dim, d.freqs.head_dim);
}

}  // namespace ropelab::views
