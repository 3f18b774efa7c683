#include "core/recurrence.h"

#include <array>
#include <cmath>

namespace ropelab {

ReinschTerm reinsch_term(std::complex<double> coefficient, PhaseStep step,
                         double radians_per_step, std::int64_t stride) {
    constexpr double kPi = kTwoPi / 2;
    const double theta = phase_radians(phase_at(step, stride));  // [−π, π)
    const bool folded = std::abs(theta) > kPi / 2;
    const double folded_theta = !folded ? theta : theta > 0 ? theta - kPi : theta + kPi;
    const double half = 0.5 * folded_theta;
    ReinschTerm t;
    t.coefficient_re = static_cast<float>(coefficient.real());
    t.coefficient_im = static_cast<float>(coefficient.imag());
    t.step_lo = static_cast<std::uint32_t>(step);
    t.step_hi = static_cast<std::uint32_t>(step >> 32);
    t.alternate = folded ? -1.0f : 1.0f;
    t.lambda = static_cast<float>(-4.0 * std::sin(half) * std::sin(half));
    t.sin_theta = static_cast<float>(std::sin(folded_theta));
    t.radians_per_step = static_cast<float>(radians_per_step);
    return t;
}

namespace {
constexpr int kTableBits = 12;

const std::array<std::complex<double>, 1 << kTableBits>& rotor_table() {
    static const auto table = [] {
        std::array<std::complex<double>, 1 << kTableBits> t{};
        for (std::size_t j = 0; j < t.size(); ++j) {
            t[j] = std::polar(1.0, kTwoPi * static_cast<double>(j) / t.size());
        }
        return t;
    }();
    return table;
}
}  // namespace

std::complex<double> rotor(Phase phase) {
    const std::uint64_t index = phase >> (64 - kTableBits);
    const std::uint64_t rest = phase & ((std::uint64_t{1} << (64 - kTableBits)) - 1);
    const double x = std::ldexp(static_cast<double>(rest), -64) * kTwoPi;
    const double x2 = x * x;
    const double c = 1.0 - x2 * (0.5 - x2 * (1.0 / 24 - x2 / 720));
    const double s = x * (1.0 - x2 * (1.0 / 6 - x2 * (1.0 / 120 - x2 / 5040)));
    return rotor_table()[index] * std::complex<double>(c, s);
}

}  // namespace ropelab
