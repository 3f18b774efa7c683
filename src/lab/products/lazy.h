#pragma once
// A product computed on first read after its inputs change, and kept while they stay the same:
// the inputs are copied into a key (the parts of LabParams and LabData the product reads), so an
// unrelated edit — the theme, another view's field — costs one comparison, never a recompute.
#include <optional>
#include <utility>

namespace ropelab::lab::products {

template <class Inputs, class Value>
class Lazy {
public:
    // The value for these inputs: the kept one when they equal the last, else compute(inputs).
    template <class Compute>
    const Value& get(Inputs inputs, Compute compute) const {
        if (!value_ || !(*inputs_ == inputs)) {
            value_ = compute(inputs);
            inputs_ = std::move(inputs);
            ++computed_;
        }
        return *value_;
    }
    // How many times it was computed (the tests' counter).
    int computed() const { return computed_; }

private:
    mutable std::optional<Inputs> inputs_;
    mutable std::optional<Value> value_;
    mutable int computed_ = 0;
};

}  // namespace ropelab::lab::products
