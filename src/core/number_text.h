#pragma once
// Numbers as every export writes them: %.17g, enough digits to read back the same double, and
// null for NaN or Inf (JSON has neither; null shows a non-finite value instead of corrupting
// the file).
#include <cmath>
#include <string>

#include <fmt/format.h>

namespace ropelab {

inline std::string exact_number(double value) {
    return std::isfinite(value) ? fmt::format("{:.17g}", value) : "null";
}

}  // namespace ropelab
