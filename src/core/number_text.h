#pragma once
// Numbers as every export writes them: std::to_chars' shortest text that reads back as the same
// double (a reader's from_chars or strtod gets the exact value, in the fewest digits), and null
// for NaN or Inf (JSON has neither; null shows a non-finite value instead of corrupting the file).
#include <charconv>
#include <cmath>
#include <string>

namespace ropelab {

// The longest text write_number writes: "-2.2250738585072014e-308" is 24 characters.
inline constexpr int kMaxNumberChars = 24;

// Writes value at `at` (room for kMaxNumberChars), returns the end.
inline char* write_number(char* at, double value) {
    if (!std::isfinite(value)) {
        for (const char c : {'n', 'u', 'l', 'l'}) *at++ = c;
        return at;
    }
    return std::to_chars(at, at + kMaxNumberChars, value).ptr;
}

inline std::string exact_number(double value) {
    char text[kMaxNumberChars];
    return std::string(text, write_number(text, value));
}

}  // namespace ropelab
