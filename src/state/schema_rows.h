#pragma once
// Private to src/state: what the files declaring the schema's rows share. A row's get and set are
// made here from the member it names, so each declaration stays one description and one member.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "state/schema.h"

namespace ropelab::schema::rows {

using Names = std::vector<std::string_view>;

template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};
template <class T> struct is_vector : std::false_type {};
template <class T> struct is_vector<std::vector<T>> : std::true_type {};

// A member of LabParams as a Value, and back. Enums travel as their names.
template <class T>
Value to_value(const T& x, const Names& names) {
    if constexpr (std::is_enum_v<T>) {
        return std::string(names.at(static_cast<std::size_t>(x)));
    } else if constexpr (is_optional<T>::value) {
        return x ? to_value(*x, names) : Value{};
    } else if constexpr (std::is_same_v<T, bool>) {
        return x;
    } else if constexpr (std::is_integral_v<T>) {
        return static_cast<std::int64_t>(x);
    } else if constexpr (std::is_floating_point_v<T>) {
        return static_cast<double>(x);
    } else if constexpr (std::is_same_v<T, std::string>) {
        return x;
    } else {
        static_assert(is_vector<T>::value);
        return std::vector<double>(x.begin(), x.end());
    }
}

template <class T>
void from_value(T& out, const Value& v, const Names& names) {
    if constexpr (std::is_enum_v<T>) {
        const auto it = std::find(names.begin(), names.end(), std::get<std::string>(v));
        out = static_cast<T>(it - names.begin());
    } else if constexpr (is_optional<T>::value) {
        if (std::holds_alternative<std::monostate>(v)) {
            out.reset();
        } else {
            typename T::value_type inner{};
            from_value(inner, v, names);
            out = inner;
        }
    } else if constexpr (std::is_same_v<T, bool>) {
        out = std::get<bool>(v);
    } else if constexpr (std::is_integral_v<T>) {
        out = static_cast<T>(std::get<std::int64_t>(v));
    } else if constexpr (std::is_floating_point_v<T>) {
        out = static_cast<T>(std::get<double>(v));
    } else if constexpr (std::is_same_v<T, std::string>) {
        out = std::get<std::string>(v);
    } else {
        const auto& list = std::get<std::vector<double>>(v);
        out.assign(list.size(), {});
        for (std::size_t i = 0; i < list.size(); ++i) out[i] = static_cast<typename T::value_type>(list[i]);
    }
}

// A row: the description plus the member it reads and writes.
template <class Member>
Field row(Field f, Member member) {
    const Names names = f.names;
    f.get = [member, names](const LabParams& p) { return to_value(member(const_cast<LabParams&>(p)), names); };
    f.set = [member, names](LabParams& p, const Value& v) { from_value(member(p), v, names); };
    return f;
}

#define MEMBER(expr) [](LabParams& p) -> auto& { return expr; }

// Every row, in session order: flags, `ropelab fields` and saved sessions follow this order.
std::vector<Field> make_fields();

// The model's rows for slot 0 (the base: "model.…", with flags) or compared setting 1..3
// ("compare.K.model.…"), and compare mode's rows with each slot's model (schema_model_rows.cpp).
void add_model_rows(std::vector<Field>& f, int slot);
void add_compare_rows(std::vector<Field>& f);

}  // namespace ropelab::schema::rows
