#include "state/params.h"

#include <fmt/format.h>

namespace ropelab {

std::string position_key(const LabParams& p) {
    return fmt::format("{}|{}|{}", p.position, p.focused_pair, p.key_distance);
}

std::string_view to_string(Encoding e) {
    switch (e) {
        case Encoding::Rope: return "RoPE";
        case Encoding::Sinusoidal: return "Sinusoidal (additive)";
        case Encoding::Both: return "Both";
    }
    return "RoPE";
}

std::string_view to_string(VectorChoice v) {
    switch (v) {
        case VectorChoice::Ones: return "All ones";
        case VectorChoice::Random: return "Random (seed)";
        case VectorChoice::MeanOfRandom: return "Mean of S random (k = q)";
        case VectorChoice::FocusedPair: return "Focused pair alone";
        case VectorChoice::Custom: return "Custom vectors";
    }
    return "All ones";
}

std::string_view to_string(TokenVectors v) {
    switch (v) {
        case TokenVectors::Same: return "same";
        case TokenVectors::Random: return "random";
        case TokenVectors::Needle: return "needle";
        case TokenVectors::File: return "file";
    }
    return "same";
}

}  // namespace ropelab
