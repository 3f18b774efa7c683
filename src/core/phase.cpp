#include "core/phase.h"

#include <cmath>

namespace ropelab {

namespace {
// 1/(2π) as an unevaluated sum hi + lo (about 107 significant bits).
constexpr double kInvTwoPiHi = 0.15915494309189535;
constexpr double kInvTwoPiLo = -9.839338337591243e-18;

// The phase as a signed fraction of a turn in [-1/2, 1/2).
double signed_turns(Phase phase) {
    return std::ldexp(static_cast<double>(static_cast<std::int64_t>(phase)), -64);
}
}  // namespace

PhaseStep phase_step(double radians_per_position) {
    const double w = radians_per_position;
    // turns = hi + lo exactly enough: fma recovers the rounding error of w·hi.
    double hi = w * kInvTwoPiHi;
    const double lo = std::fma(w, kInvTwoPiHi, -hi) + w * kInvTwoPiLo;
    hi -= std::floor(hi);  // whole turns vanish modulo one turn; exact for doubles

    const double scaled = std::ldexp(hi, 64);  // < 2^64 because hi < 1
    const double whole = std::floor(scaled);
    // For small hi, scaled keeps bits below 2^0 that, with lo, decide the last bit.
    const double rest = (scaled - whole) + std::ldexp(lo, 64);
    return static_cast<std::uint64_t>(whole) +
           static_cast<std::uint64_t>(static_cast<std::int64_t>(std::llround(rest)));
}

double phase_radians(Phase phase) { return signed_turns(phase) * kTwoPi; }

double phase_degrees(Phase phase) {
    const double degrees = signed_turns(phase) * 360.0;
    // -180 and 180 are the same direction; the convention here is (-180, 180].
    return degrees <= -180.0 ? degrees + 360.0 : degrees;
}

}  // namespace ropelab
