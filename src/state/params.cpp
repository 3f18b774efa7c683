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

std::string_view view_title(View v) {
    switch (v) {
        case View::Planes: return "1 Rotation planes";
        case View::Contrast: return "2 Addition vs rotation";
        case View::Scores: return "3 Score vs distance";
        case View::Invariance: return "4 Translation invariance";
        case View::Heatmap: return "5 Angle heatmap";
        case View::Frequencies: return "6 Frequencies and scaling";
        case View::Numbers: return "7 Numbers";
        case View::Precision: return "8 Precision";
        case View::Phasors: return "9 Phasor sum";
        case View::Grid: return "10 Scores over an image";
        case View::Attention: return "11 Attention";
    }
    return "";
}

std::string_view view_short_title(View v) {
    switch (v) {
        case View::Planes: return "1 Planes";
        case View::Contrast: return "2 Add vs rotate";
        case View::Scores: return "3 Scores";
        case View::Invariance: return "4 Invariance";
        case View::Heatmap: return "5 Heatmap";
        case View::Frequencies: return "6 Frequencies";
        case View::Numbers: return "7 Numbers";
        case View::Precision: return "8 Precision";
        case View::Phasors: return "9 Phasors";
        case View::Grid: return "10 Image";
        case View::Attention: return "11 Attention";
    }
    return "";
}

}  // namespace ropelab
