#include "core/sinusoidal.h"

#include <cmath>


namespace ropelab {

SinusoidalEncoding sinusoidal_encoding(int dim, double theta) {
    SinusoidalEncoding enc;
    enc.dim = dim;
    // The same geometric ladder RoPE borrowed; an odd dim ends on a lone sine.
    for (int t = 0; 2 * t < dim; ++t) {
        enc.omega.push_back(std::pow(theta, -2.0 * t / dim));
        enc.phase_step.push_back(phase_step(enc.omega.back()));
    }
    return enc;
}

std::vector<double> sinusoidal_vector(const SinusoidalEncoding& enc, std::int64_t position) {
    std::vector<double> p(static_cast<std::size_t>(enc.dim));
    for (std::size_t t = 0; t < enc.phase_step.size(); ++t) {
        const double angle = phase_radians(phase_at(enc.phase_step[t], position));
        p[2 * t] = std::sin(angle);
        if (2 * t + 1 < p.size()) p[2 * t + 1] = std::cos(angle);
    }
    return p;
}

}  // namespace ropelab
