#pragma once
// The message of the InputError that f() throws, or `accepted` if it throws none: how tests of
// every tier check that bad input is refused, naming the problem.
#include <string>
#include <utility>

#include "core/error.h"

namespace ropelab::test {

template <class F>
std::string refusal(F&& f, std::string accepted = "") {
    try {
        std::forward<F>(f)();
    } catch (const InputError& e) {
        return e.what();
    }
    return accepted;
}

}  // namespace ropelab::test
