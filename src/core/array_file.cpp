#include "core/array_file.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "core/error.h"
#include "core/input_file.h"
#include "core/json_input.h"

namespace ropelab {

namespace {

// ---- checks shared by the three forms ----------------------------------------------------

void check_value(double v, std::int64_t row, std::int64_t col, std::string_view path) {
    if (!std::isfinite(v)) throw InputError(fmt::format("{}: row {} column {} is {}, not a finite number", path, row, col, v));
    if (std::abs(v) > kMaxArrayValue) {
        throw InputError(fmt::format("{}: row {} column {} is {}, beyond ±{:g}", path, row, col, v, kMaxArrayValue));
    }
}

// Row `row` has `count` numbers: the first row sets the width, every later one must match it.
void check_width(NumberArray& a, std::int64_t count, std::string_view path, std::string_view where) {
    if (count == 0) throw InputError(fmt::format("{}: {} is empty", path, where));
    if (a.rows == 0) {
        a.cols = count;
    } else if (count != a.cols) {
        throw InputError(fmt::format("{}: {} has {} numbers, expected {} (as in the first row)", path, where, count, a.cols));
    }
    ++a.rows;
}

void check_not_empty(const NumberArray& a, std::string_view path) {
    if (a.rows == 0) throw InputError(fmt::format("{}: no rows of numbers", path));
}

// ---- .npy ---------------------------------------------------------------------------------
// numpy/lib/format.py: the magic "\x93NUMPY", a major and minor version byte, the header's length
// (2 bytes little-endian in version 1, 4 bytes in versions 2 and 3), then the header: a Python dict
// literal {'descr': '<f4', 'fortran_order': False, 'shape': (T, d), } padded with spaces to a
// multiple of 64 bytes and ended by '\n'. The data follows.

constexpr std::string_view kNpyMagic = "\x93NUMPY";

struct NpyHeader {
    std::optional<std::string> descr;
    std::optional<bool> fortran_order;
    std::optional<std::vector<std::int64_t>> shape;
};

// A reader of the header's dict literal; it knows only what NumPy writes.
class DictReader {
public:
    DictReader(std::string_view text, std::string_view path) : text_(text), path_(path) {}

    NpyHeader read() {
        NpyHeader h;
        expect('{');
        while (true) {
            skip_space();
            if (peek() == '}') break;
            const std::string key = quoted();
            expect(':');
            if (key == "descr") {
                h.descr = quoted();
            } else if (key == "fortran_order") {
                h.fortran_order = boolean();
            } else if (key == "shape") {
                h.shape = tuple();
            } else {
                fail(fmt::format("unknown key '{}'", text_excerpt(key, 40)));
            }
            after_item('}');
        }
        ++at_;
        // numpy reads the header with ast.literal_eval: after the dict only padding may follow
        // (numpy writes spaces, then '\n').
        for (; at_ < text_.size(); ++at_) {
            if (!python_space(text_[at_])) {
                fail(fmt::format("\"{}\" follows the dict at byte {}; numpy allows only padding there (spaces, then '\\n')",
                                 text_excerpt(junk(), 40), at_));
            }
        }
        if (!h.descr || !h.fortran_order || !h.shape) fail("missing one of 'descr', 'fortran_order' and 'shape'");
        return h;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw InputError(fmt::format("{}: .npy header: {} (it reads {})", path_, what, text_excerpt(text_, 120)));
    }
    char peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }
    // What follows the dict from at_, without the padding after it.
    std::string_view junk() const {
        std::string_view rest = text_.substr(at_);
        while (!rest.empty() && python_space(rest.back())) rest.remove_suffix(1);
        return rest;
    }
    static bool python_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
    void skip_space() {
        while (at_ < text_.size() && python_space(text_[at_])) ++at_;
    }
    // After an entry of a dict or a tuple: a ',' (then maybe the closing bracket) or the closing
    // bracket itself, as in Python: {'a': 1 'b': 2} and (2 4) are syntax errors numpy refuses.
    bool after_item(char close) {
        skip_space();
        if (peek() == ',') {
            ++at_;
            return true;
        }
        if (peek() != close) fail(fmt::format("expected ',' or '{}' at byte {}", close, at_));
        return false;
    }
    void expect(char c) {
        skip_space();
        if (peek() != c) fail(fmt::format("expected '{}' at byte {}", c, at_));
        ++at_;
    }
    std::string quoted() {
        skip_space();
        const char q = peek();
        if (q != '\'' && q != '"') fail(fmt::format("expected a quoted name at byte {}", at_));
        const std::size_t end = text_.find(q, at_ + 1);
        if (end == std::string_view::npos) fail("an unterminated string");
        std::string s(text_.substr(at_ + 1, end - at_ - 1));
        at_ = end + 1;
        return s;
    }
    bool boolean() {
        skip_space();
        for (const auto& [word, value] : {std::pair{std::string_view("True"), true}, std::pair{std::string_view("False"), false}}) {
            if (text_.substr(at_, word.size()) == word) {
                at_ += word.size();
                return value;
            }
        }
        fail(fmt::format("expected True or False at byte {}", at_));
    }
    std::vector<std::int64_t> tuple() {
        expect('(');
        std::vector<std::int64_t> dims;
        bool comma = false;
        while (true) {
            skip_space();
            if (peek() == ')') break;
            if (dims.size() >= 32) fail("more than 32 dimensions");
            std::int64_t v = 0;
            const char* first = text_.data() + at_;
            const auto [end, ec] = std::from_chars(first, text_.data() + text_.size(), v);
            if (ec != std::errc() || v < 0) fail(fmt::format("a shape entry that is not a size at byte {}", at_));
            at_ += static_cast<std::size_t>(end - first);
            dims.push_back(v);
            comma = after_item(')');
        }
        // (2) is the number 2, not a tuple: numpy refuses it as a shape.
        if (dims.size() == 1 && !comma) fail(fmt::format("the shape ({}) is a number, not a tuple (write ({},))", dims[0], dims[0]));
        ++at_;
        return dims;
    }

    std::string_view text_, path_;
    std::size_t at_ = 0;
};

std::uint64_t little_endian(const unsigned char* p, int bytes) {
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

// IEEE binary16 to double: (1024 + mantissa)·2^(e − 25) for normal numbers, mantissa·2^−24 below.
double half_to_double(std::uint16_t h) {
    const int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    double v = 0.0;
    if (exponent == 0) {
        v = std::ldexp(mantissa, -24);
    } else if (exponent == 31) {
        v = mantissa ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    } else {
        v = std::ldexp(1024 + mantissa, exponent - 25);
    }
    return (h & 0x8000) ? -v : v;
}

double read_element(const unsigned char* p, int size) {
    switch (size) {
        case 2: return half_to_double(static_cast<std::uint16_t>(little_endian(p, 2)));
        case 4: return std::bit_cast<float>(static_cast<std::uint32_t>(little_endian(p, 4)));
        default: return std::bit_cast<double>(little_endian(p, 8));
    }
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", shape[i]);
    return s + (shape.size() == 1 ? ",)" : ")");
}

NumberArray parse_npy(std::string_view bytes, std::string_view path) {
    const auto* u = reinterpret_cast<const unsigned char*>(bytes.data());
    if (bytes.size() < 10) throw InputError(fmt::format("{}: a .npy file cut short in its preamble ({} bytes)", path, bytes.size()));
    const int major = u[6];
    if (major < 1 || major > 3) throw InputError(fmt::format("{}: .npy format version {}.{}; versions 1 to 3 are read", path, major, u[7]));
    const std::size_t length_bytes = major == 1 ? 2 : 4;
    if (bytes.size() < 8 + length_bytes) throw InputError(fmt::format("{}: a .npy file cut short in its preamble", path));
    const std::uint64_t header_length = little_endian(u + 8, static_cast<int>(length_bytes));
    const std::uint64_t data_start = 8 + length_bytes + header_length;
    if (data_start > bytes.size()) {
        throw InputError(fmt::format("{}: the .npy header says it is {} bytes long; the file ends before that ({} bytes)", path,
                                     header_length, bytes.size()));
    }
    const NpyHeader h = DictReader(bytes.substr(8 + length_bytes, header_length), path).read();

    const std::string& descr = *h.descr;
    int size = 0;
    if (descr == "<f2") size = 2;
    if (descr == "<f4") size = 4;
    if (descr == "<f8") size = 8;
    if (size == 0) {
        const bool big = !descr.empty() && descr[0] == '>';
        throw InputError(fmt::format("{}: dtype '{}'{}; the .npy reader takes little-endian floats '<f2', '<f4' or '<f8' "
                                     "(numpy: a.astype('<f4'))",
                                     path, text_excerpt(descr, 40), big ? " is big-endian" : " is not a float type read here"));
    }
    if (*h.fortran_order) {
        throw InputError(fmt::format("{}: fortran_order is True (column-major); save the array in C order "
                                     "(numpy: np.ascontiguousarray(a))",
                                     path));
    }
    const std::vector<std::int64_t>& shape = *h.shape;
    const bool two = shape.size() == 2, three = shape.size() == 3 && shape[0] == 1;
    if (!two && !three) {
        throw InputError(fmt::format("{}: shape {}; a T × d array is needed: shape (T, d), or (1, T, d)", path, shape_text(shape)));
    }
    const std::int64_t rows = shape[shape.size() - 2], cols = shape[shape.size() - 1];
    if (rows == 0 || cols == 0) throw InputError(fmt::format("{}: shape {} holds no numbers", path, shape_text(shape)));
    // rows·cols·size without overflow: the data must be exactly what the header says.
    const auto have = static_cast<std::uint64_t>(bytes.size()) - data_start;
    const auto wanted_per_row = static_cast<std::uint64_t>(cols) * static_cast<std::uint64_t>(size);
    const bool fits = static_cast<std::uint64_t>(cols) <= have && static_cast<std::uint64_t>(rows) <= have / wanted_per_row;
    const std::uint64_t wanted = fits ? static_cast<std::uint64_t>(rows) * wanted_per_row : 0;
    if (!fits || wanted != have) {
        throw InputError(fmt::format("{}: shape {} of '{}' needs {} × {} × {} bytes of data; the file has {} after its header{}", path,
                                     shape_text(shape), descr, rows, cols, size, have,
                                     fits && have > wanted ? " (more than the shape holds)" : " (truncated)"));
    }
    NumberArray a;
    a.rows = rows;
    a.cols = cols;
    a.values.resize(static_cast<std::size_t>(rows * cols));
    const unsigned char* data = u + data_start;
    for (std::int64_t r = 0; r < rows; ++r) {
        for (std::int64_t c = 0; c < cols; ++c) {
            const auto i = static_cast<std::size_t>(r * cols + c);
            const double v = read_element(data + i * static_cast<std::size_t>(size), size);
            check_value(v, r, c, path);
            a.values[i] = v;
        }
    }
    return a;
}

// ---- JSON ---------------------------------------------------------------------------------

NumberArray parse_json_array(std::string_view body, std::string_view path) {
    // The JSON reader stops at kMaxJsonValues; say what to do instead before it does.
    std::size_t commas = 0;
    for (char c : body) commas += c == ',';
    if (commas >= kMaxJsonValues) {
        throw InputError(fmt::format("{}: a JSON array of more than {} numbers; write larger arrays as .npy or text", path,
                                     kMaxJsonValues));
    }
    const Json json = parse_json_input(body, path);
    if (!json.is_array()) throw InputError(fmt::format("{}: expected a JSON array of rows (arrays of numbers)", path));
    NumberArray a;
    for (std::size_t r = 0; r < json.size(); ++r) {
        const Json& row = json[r];
        const auto rr = static_cast<std::int64_t>(r);
        if (!row.is_array()) {
            throw InputError(fmt::format("{}: row {} is {}, not an array of numbers", path, r, json_excerpt(row)));
        }
        check_width(a, static_cast<std::int64_t>(row.size()), path, fmt::format("row {}", r));
        for (std::size_t c = 0; c < row.size(); ++c) {
            if (!row[c].is_number()) {
                throw InputError(fmt::format("{}: row {} column {} is {}, not a number", path, r, c, json_excerpt(row[c])));
            }
            const double v = row[c].get<double>();
            check_value(v, rr, static_cast<std::int64_t>(c), path);
            a.values.push_back(v);
        }
    }
    check_not_empty(a, path);
    return a;
}

// ---- text ---------------------------------------------------------------------------------

bool separator(char c) { return c == ' ' || c == '\t' || c == ',' || c == '\r'; }
bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// The separator after a number (or before the first): blanks with at most one comma among them.
// A second comma, or one before the first number or after the last, leaves a value out: "1,,2"
// is refused rather than read as 1, 2.
std::size_t skip_separator(std::string_view l, std::size_t i, bool first, std::string_view path, std::int64_t line, std::int64_t row,
                           std::int64_t count) {
    int commas = 0;
    for (; i < l.size() && separator(l[i]); ++i) commas += l[i] == ',';
    const bool at_end = i == l.size() || l[i] == '#';
    if (commas > 1 || (commas == 1 && (first || at_end))) {
        throw InputError(fmt::format("{}: line {} (row {}): value {} is empty in \"{}\" (numbers are separated by one comma, or "
                                     "by spaces)",
                                     path, line, row, count, text_excerpt(l, 60)));
    }
    return i;
}

NumberArray parse_text_array(std::string_view text, std::string_view path) {
    NumberArray a;
    std::size_t line_start = 0;
    for (std::int64_t line = 1; line_start < text.size(); ++line) {
        std::size_t line_end = text.find('\n', line_start);
        if (line_end == std::string_view::npos) line_end = text.size();
        const std::string_view l = text.substr(line_start, line_end - line_start);
        line_start = line_end + 1;
        std::size_t i = 0;
        while (i < l.size() && blank(l[i])) ++i;
        if (i == l.size() || l[i] == '#') continue;
        const std::int64_t row = a.rows;
        std::int64_t count = 0;
        i = skip_separator(l, i, true, path, line, row, count);
        while (i < l.size()) {
            std::size_t end = i;
            while (end < l.size() && !separator(l[end])) ++end;
            std::string_view token = l.substr(i, end - i);
            if (token.starts_with('+')) token.remove_prefix(1);  // from_chars takes no '+'
            double v = 0.0;
            const auto [stop, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
            if (ec != std::errc() || stop != token.data() + token.size()) {
                throw InputError(fmt::format("{}: line {} (row {}): \"{}\" is not a number", path, line, row,
                                             text_excerpt(l.substr(i, end - i), 40)));
            }
            check_value(v, row, count, path);
            a.values.push_back(v);
            ++count;
            i = skip_separator(l, end, false, path, line, row, count);
        }
        check_width(a, count, path, fmt::format("line {} (row {})", line, row));
    }
    check_not_empty(a, path);
    return a;
}

std::string_view trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

}  // namespace

NumberArray parse_array(std::string_view bytes, std::string_view path, std::string_view field) {
    try {
        if (bytes.starts_with(kNpyMagic)) return parse_npy(bytes, path);
        if (std::string_view(path).ends_with(".npy")) {
            throw InputError(fmt::format("{}: not a .npy file (it does not start with \\x93NUMPY)", path));
        }
        const std::string_view body = trim(bytes);
        if (body.empty()) throw InputError(fmt::format("{}: the file is empty", path));
        if (body.front() == '[') return parse_json_array(body, path);
        return parse_text_array(body, path);
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}", field, e.what()));
    }
}

NumberArray read_array_file(const std::string& path, std::string_view field) {
    std::string bytes;
    try {
        bytes = read_input_file(path, "vector array");
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}", field, e.what()));
    }
    return parse_array(bytes, path, field);
}

}  // namespace ropelab
