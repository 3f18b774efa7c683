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

// Writes value at `at` (room for kMaxNumberChars), returns the end. A whole number below 2^53
// is written as one (1000000, not the equally short "1e+06" that to_chars prefers): the same
// double read back, and a distance or position column that reads as counts.
inline char* write_number(char* at, double value) {
    if (!std::isfinite(value)) {
        for (const char c : {'n', 'u', 'l', 'l'}) *at++ = c;
        return at;
    }
    if (std::abs(value) < 9007199254740992.0 && value == std::trunc(value) && !(value == 0 && std::signbit(value))) {
        return std::to_chars(at, at + kMaxNumberChars, static_cast<long long>(value)).ptr;
    }
    return std::to_chars(at, at + kMaxNumberChars, value).ptr;
}

inline std::string exact_number(double value) {
    char text[kMaxNumberChars];
    return std::string(text, write_number(text, value));
}

}  // namespace ropelab
