#pragma once
// T × d arrays of numbers from files: the attention view's q and k for users who dump real
// vectors from a model. Three forms, told apart by their first bytes:
//   .npy    NumPy's format (versions 1–3): dtype '<f2', '<f4' or '<f8', C order, shape (T, d) or
//           (1, T, d) (one batch or head)
//   JSON    an array of T arrays of d numbers
//   text    T lines of d numbers, separated by spaces, tabs or commas; blank lines and lines
//           starting with '#' are skipped
// Every number must be finite and within ±1e9. Errors are InputError "FIELD: PATH: what is wrong"
// (row 3 has 7 numbers, the first row 8; truncated data; big-endian; …).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ropelab {

// The largest magnitude a component may have: far past any real activation, and small enough
// that a dot product of 2^16-component vectors stays finite.
inline constexpr double kMaxArrayValue = 1e9;

struct NumberArray {
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    std::vector<double> values;  // row-major, rows × cols
    const double* row(std::int64_t r) const { return values.data() + r * cols; }
};

// The array in `path` (read with read_input_file: size-limited, remembered as read). `field`
// names the setting the path came from (attention.q_file) in every message.
NumberArray read_array_file(const std::string& path, std::string_view field);

// The same from bytes already read; `path` only names them in messages.
NumberArray parse_array(std::string_view bytes, std::string_view path, std::string_view field);

}  // namespace ropelab
