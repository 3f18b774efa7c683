#pragma once
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace ropelab {

// Bad input from a user, a file or an option. The message names the field or option and the
// offending value, so callers can print it as-is and keep their previous state.
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// An allocation failure that knows what could not be made ("out of memory: the attention
// matrix …"): the CLI prints its words (exit 2) where a plain std::bad_alloc gets the general ones.
class OutOfMemory : public std::bad_alloc {
public:
    explicit OutOfMemory(std::string message) : message_(std::move(message)) {}
    const char* what() const noexcept override { return message_.c_str(); }

private:
    std::string message_;
};

}  // namespace ropelab
