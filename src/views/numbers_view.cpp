// View 7: the worked example, the way the seeds do it: for the focused position and pair,
// θ_i, m·θ_i, cos and sin, the 2×2 matrix, the complex product with values, and which vector
// components form pair i in each layout.
#include <algorithm>
#include <cmath>
#include <complex>

#include "core/rotation.h"
#include "views/views.h"

namespace ropelab::views {

void numbers_view(Context& ctx) {
    const LabParams& p = ctx.params;
    const LabData& d = ctx.compute.data();
    const int i = std::clamp(p.focused_pair, 0, d.freqs.pairs() - 1);
    const auto k = static_cast<std::size_t>(i);
    caption("One rotation, worked out with exact numbers.",
            "The numbers behind one rotation of the focused pair at the current position, as the "
            "posts work them out. The angle is reduced modulo 2π with integer arithmetic before "
            "cos and sin see it.");
    const double theta = d.freqs.inv_freq[k];
    const double angle = phase_radians(phase_at(d.freqs.phase_step[k], p.position));
    const double c = std::cos(angle), s = std::sin(angle);
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
    ImGui::Text("reduced: %.12f rad = %.8f°", angle, angle * 180.0 / M_PI);
    ImGui::Text("cos = %.10f     sin = %.10f", c, s);
    ImGui::Separator();
    ImGui::Text("R(m·θ) = | %+.6f  %+.6f |", c, -s);
    ImGui::Text("         | %+.6f  %+.6f |", s, c);
    ImGui::Separator();
    ImGui::Text("q pair as complex:  %.6f %+.6fi", x.real(), x.imag());
    ImGui::Text("(%.4f %+.4fi)(%.6f %+.6fi) = %.6f %+.6fi", x.real(), x.imag(), c, s, rotated.real(), rotated.imag());
    ImGui::Text("|before| = %.6f   |after| = %.6f", std::abs(x), std::abs(rotated));
    ImGui::Separator();
    const auto [ia, ib] = pair_components(i, d.freqs.rotary_dim, PairLayout::Interleaved);
    const auto [ha, hb] = pair_components(i, d.freqs.rotary_dim, PairLayout::Half);
    ImGui::Text("pair %d is components (%d, %d) interleaved (Meta, GPT-J)", i, ia, ib);
    ImGui::Text("        components (%d, %d) half-split (GPT-NeoX, HF rotate_half)", ha, hb);
    ImGui::TextDisabled("this model uses the %s layout; %d of %d components rotate", 
                        std::string(to_string(d.freqs.layout)).c_str(), d.freqs.rotary_dim, d.freqs.head_dim);
}

}  // namespace ropelab::views
