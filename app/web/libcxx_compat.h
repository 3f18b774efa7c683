#pragma once
// Force-included into every web translation unit (app/web/CMakeLists.txt: -include): Debian 12's
// emscripten 3.1.6 ships the libc++ of LLVM 14, which lacks two C++20/17 library pieces the lab
// uses — std::bit_cast, and std::from_chars and std::to_chars for floating point. They are supplied here with the
// standard's meaning, only where that libc++ lacks them, so the desktop code stays as written.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>
#include <type_traits>

#if defined(__EMSCRIPTEN__) && defined(_LIBCPP_VERSION) && _LIBCPP_VERSION < 15000
namespace std {

#if !defined(__cpp_lib_bit_cast)
template <class To, class From>
    requires(sizeof(To) == sizeof(From) && is_trivially_copyable_v<To> && is_trivially_copyable_v<From>)
constexpr To bit_cast(const From& from) noexcept {
    return __builtin_bit_cast(To, from);
}
#endif

// from_chars for double and float (chars_format::general): no leading space or '+', no "0x";
// strtod on a NUL-terminated copy, the C locale being the only one a page has.
template <class F>
    requires is_floating_point_v<F>
from_chars_result from_chars(const char* first, const char* last, F& value) {
    const char* p = first;
    if (p != last && *p == '-') ++p;
    if (p == last || *p == ' ' || *p == '\t' || *p == '\n' || *p == '+') return {first, errc::invalid_argument};
    std::string text(first, last);
    // strtod reads "0x1p3" as hex; from_chars reads the "0" and stops at the 'x'.
    const std::size_t digits = static_cast<std::size_t>(p - first);
    if (text.size() > digits + 1 && text[digits] == '0' && (text[digits + 1] == 'x' || text[digits + 1] == 'X')) {
        text.resize(digits + 1);
    }
    char* end = nullptr;
    errno = 0;
    const double parsed = std::strtod(text.c_str(), &end);
    if (end == text.c_str()) return {first, errc::invalid_argument};
    const char* stop = first + (end - text.c_str());
    // strtod says ERANGE for subnormal results too; only overflow and underflow to 0 are out of range.
    if (errno == ERANGE && (parsed == 0.0 || parsed == HUGE_VAL || parsed == -HUGE_VAL)) return {stop, errc::result_out_of_range};
    value = static_cast<F>(parsed);
    return {stop, errc{}};
}

// to_chars for double and float, plain form: the shortest digits that read back as the same
// value (the first precision that round-trips through strtod), written fixed or scientific,
// whichever is shorter (fixed on a tie), as the standard's shortest form is.
template <class F>
    requires is_floating_point_v<F>
to_chars_result to_chars(char* first, char* last, F value) {
    std::string out;
    if (value != value) {
        out = "nan";
    } else if (value == F(1) / F(0) || value == -F(1) / F(0)) {
        out = value < 0 ? "-inf" : "inf";
    } else if (value == 0) {
        out = __builtin_signbit(value) ? "-0" : "0";
    } else {
        char buffer[64];
        int precision = 1;
        for (; precision < 17; ++precision) {  // precision counts digits after the first
            std::snprintf(buffer, sizeof buffer, "%.*e", precision - 1, static_cast<double>(value));
            if (static_cast<F>(std::strtod(buffer, nullptr)) == value) break;
        }
        std::snprintf(buffer, sizeof buffer, "%.*e", precision - 1, static_cast<double>(value));
        std::string text = buffer;
        const bool negative = text[0] == '-';
        if (negative) text.erase(0, 1);
        const std::size_t e = text.find('e');
        const int exponent = std::atoi(text.c_str() + e + 1);
        std::string digits;
        for (std::size_t i = 0; i < e; ++i) {
            if (text[i] != '.') digits += text[i];
        }
        while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
        const int n = static_cast<int>(digits.size());
        std::string scientific = digits.substr(0, 1) + (n > 1 ? "." + digits.substr(1) : "") + "e" +
                                 (exponent < 0 ? "-" : "+") + (std::abs(exponent) < 10 ? "0" : "") +
                                 std::to_string(std::abs(exponent));
        std::string fixed;
        if (exponent >= 0) {
            fixed = n <= exponent + 1 ? digits + std::string(static_cast<std::size_t>(exponent + 1 - n), '0')
                                      : digits.substr(0, static_cast<std::size_t>(exponent + 1)) + "." +
                                            digits.substr(static_cast<std::size_t>(exponent + 1));
        } else {
            fixed = "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
        }
        out = (negative ? "-" : "") + (fixed.size() <= scientific.size() ? fixed : scientific);
    }
    if (static_cast<std::ptrdiff_t>(out.size()) > last - first) return {last, errc::value_too_large};
    std::memcpy(first, out.data(), out.size());
    return {first + out.size(), errc{}};
}

}  // namespace std
#endif
