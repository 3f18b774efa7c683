#pragma once
#include <stdexcept>

namespace ropelab {

// Bad input from a user, a file or an option. The message names the field or option and the
// offending value, so callers can print it as-is and keep their previous state.
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace ropelab
