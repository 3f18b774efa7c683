#include "ui/math_text.h"

#include <algorithm>
#include <array>
#include <optional>

namespace ropelab::math_text {

namespace {

// One UTF-8 character: its code point (0xFFFFFFFF where the bytes are not UTF-8) and length.
struct Char {
    std::uint32_t code = 0xFFFFFFFF;
    std::size_t bytes = 1;
};
constexpr std::uint32_t kNotUtf8 = 0xFFFFFFFF;

Char char_at(std::string_view s, std::size_t i) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) return {b, 1};
    const std::size_t n = b >= 0xF0 && b < 0xF8 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 && b < 0xE0 ? 2 : 0;
    if (n == 0 || i + n > s.size()) return {};
    std::uint32_t c = b & (0x7F >> n);
    for (std::size_t k = 1; k < n; ++k) {
        const auto t = static_cast<unsigned char>(s[i + k]);
        if ((t & 0xC0) != 0x80) return {};
        c = c << 6 | (t & 0x3F);
    }
    return {c, n};
}

// The character that ends just before byte `i` (`i` > 0).
Char char_before(std::string_view s, std::size_t i) {
    std::size_t start = i - 1;
    while (start > 0 && i - start < 4 && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
    const Char c = char_at(s, start);
    return c.code != kNotUtf8 && start + c.bytes == i ? c : Char{};
}

bool ascii_letter(std::uint32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool ascii_digit(std::uint32_t c) { return c >= '0' && c <= '9'; }
// Greek letters as the captions use them (θ, Δ, Σ, ω, ϑ, ϕ, ϵ).
bool greek_letter(std::uint32_t c) {
    return (c >= 0x0391 && c <= 0x03A9) || (c >= 0x03B1 && c <= 0x03C9) || c == 0x03D1 || c == 0x03D5 || c == 0x03F5;
}
bool symbol_char(std::uint32_t c) { return ascii_letter(c) || ascii_digit(c) || greek_letter(c); }
constexpr std::uint32_t kMinus = 0x2212;  // −

// Operator names whose subscript is an index (max_j |…|).
bool operator_name(std::string_view word) {
    for (const std::string_view op : {"max", "min", "sup", "inf", "lim", "log", "arg"}) {
        if (word == op) return true;
    }
    return false;
}

// Matching closers of every '{' and '(' (npos: none), found once so that hostile runs of
// "^{^{^{" cost linear time.
std::vector<std::size_t> closers(std::string_view s, char open, char close) {
    std::vector<std::size_t> match(s.size(), std::string_view::npos);
    std::vector<std::size_t> stack;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == open) {
            stack.push_back(i);
        } else if (s[i] == close && !stack.empty()) {
            match[stack.back()] = i;
            stack.pop_back();
        }
    }
    return match;
}

// A script found at a ^ or _: the source it spans and the text it raises or lowers.
struct Script {
    std::size_t end = 0;                     // one past its last source byte
    std::size_t content = 0, content_end = 0;  // what it holds
    std::int8_t direction = 0;               // +1 superscript, −1 subscript
};

class Parser {
public:
    explicit Parser(std::string_view s) : s_(s), braces_(closers(s, '{', '}')), parens_(closers(s, '(', ')')) {}

    Typeset run() {
        parse(0, s_.size(), 0, kBase);
        // A text whose markup all stayed literal is plain.
        if (std::all_of(out_.spans.begin(), out_.spans.end(), [](const Span& sp) { return sp.level.base(); })) out_.spans.clear();
        return std::move(out_);
    }

    // The scripts at the top level, each with its source range (for with_unicode_scripts).
    struct TopScript {
        std::size_t begin, end, content, content_end;
        std::int8_t direction;
        bool nested;
    };
    const std::vector<TopScript>& top_scripts() const { return top_; }

private:
    void parse(std::size_t begin, std::size_t end, int depth, Level level) {
        std::size_t literal = begin;
        for (std::size_t i = begin; i < end; ++i) {
            if ((s_[i] != '^' && s_[i] != '_') || depth >= 2) continue;
            const std::optional<Script> script = script_at(i, begin, end);
            if (!script) continue;
            emit(s_.substr(literal, i - literal), level);
            const Level inner = depth == 0 ? Level{script->direction, 0} : Level{level.outer, script->direction};
            const std::size_t spans_before = out_.spans.size();
            parse(script->content, script->content_end, depth + 1, inner);
            if (depth == 0) {
                const bool nested = std::any_of(out_.spans.begin() + static_cast<std::ptrdiff_t>(std::min(spans_before, out_.spans.size())),
                                                out_.spans.end(), [](const Span& sp) { return sp.level.inner != 0; });
                top_.push_back({i, script->end, script->content, script->content_end, script->direction, nested});
            }
            i = script->end - 1;
            literal = script->end;
        }
        emit(s_.substr(literal, end - literal), level);
    }

    std::optional<Script> script_at(std::size_t i, std::size_t begin, std::size_t end) const {
        if (i + 1 >= end) return std::nullopt;  // a dangling ^ or _
        const std::int8_t direction = s_[i] == '^' ? 1 : -1;
        const char next = s_[i + 1];
        if (next == '{') {
            const std::size_t close = braces_[i + 1];
            if (close == std::string_view::npos || close >= end || close == i + 2) return std::nullopt;
            return Script{close + 1, i + 2, close, direction};
        }
        if (next == '(') return parenthesised(i, begin, end, direction);
        if (direction > 0) return digit_power(i, begin, end);
        return letter_subscript(i, begin, end);
    }

    // base^(−2i/d), R_(n−m): a short script without spaces whose parentheses only group it (a
    // subscript's base one letter, as for c_i).
    std::optional<Script> parenthesised(std::size_t i, std::size_t begin, std::size_t end, std::int8_t direction) const {
        const std::size_t close = parens_[i + 1];
        if (i == begin || s_[i - 1] == ' ' || close == std::string_view::npos || close >= end || close == i + 2 ||
            close - i > 64 || (direction < 0 && !one_letter_before(i, begin))) {
            return std::nullopt;
        }
        for (std::size_t k = i + 2; k < close; ++k) {
            if (s_[k] == ' ' || s_[k] == '\n' || s_[k] == '\t') return std::nullopt;
        }
        return Script{close + 1, i + 2, close, direction};
    }

    // 2^24, 10^6, 2^-64: a number raised to an integer.
    std::optional<Script> digit_power(std::size_t i, std::size_t begin, std::size_t end) const {
        if (i == begin || !ascii_digit(static_cast<unsigned char>(s_[i - 1]))) return std::nullopt;
        std::size_t k = i + 1;
        if (s_[k] == '-') {
            ++k;
        } else if (char_at(s_, k).code == kMinus) {
            k += 3;
        }
        const std::size_t digits = k;
        while (k < end && ascii_digit(static_cast<unsigned char>(s_[k]))) ++k;
        if (k == digits || k > end) return std::nullopt;
        return Script{k, i + 1, k, 1};
    }

    // c_i, θ_i, max_j: one character under a one-letter symbol (a Greek letter, or an ASCII
    // letter standing alone), never inside an identifier such as rope_theta or a_b.json.
    std::optional<Script> letter_subscript(std::size_t i, std::size_t begin, std::size_t end) const {
        if (i == begin) return std::nullopt;
        const Char sub = char_at(s_, i + 1);
        if (!symbol_char(sub.code) || i + 1 + sub.bytes > end) return std::nullopt;
        const std::size_t after = i + 1 + sub.bytes;
        if (after < end) {
            const Char follower = char_at(s_, after);
            if (symbol_char(follower.code) || follower.code == '_') return std::nullopt;
            // a_b.json, x_1.5: a name's extension or a decimal, not a subscript
            if (follower.code == '.' && after + 1 < end && symbol_char(char_at(s_, after + 1).code)) return std::nullopt;
        }
        if (!one_letter_before(i, begin)) return std::nullopt;
        return Script{after, i + 1, after, -1};
    }

    // Whether the subscript at `i` hangs from a symbol: a Greek letter, or an ASCII letter (or
    // max, min, …) standing alone rather than ending a word, a number or a path.
    bool one_letter_before(std::size_t i, std::size_t begin) const {
        if (i == begin) return false;
        const Char base = char_before(s_, i);
        if (greek_letter(base.code)) return true;
        if (!ascii_letter(base.code)) return false;
        std::size_t word = i - 1;
        while (word > begin && ascii_letter(static_cast<unsigned char>(s_[word - 1]))) --word;
        if (i - word != 1 && !operator_name(s_.substr(word, i - word))) return false;
        if (word == begin) return true;
        const char before = s_[word - 1];
        return !ascii_digit(static_cast<unsigned char>(before)) && before != '_' && before != '.' && before != '-' && before != '\\';
    }

    void emit(std::string_view piece, Level level) {
        if (piece.empty()) return;
        out_.text += piece;
        if (!out_.spans.empty() && out_.spans.back().level == level) {
            out_.spans.back().bytes += static_cast<std::uint32_t>(piece.size());
        } else {
            out_.spans.push_back({static_cast<std::uint32_t>(piece.size()), level});
        }
    }

    std::string_view s_;
    std::vector<std::size_t> braces_, parens_;
    Typeset out_;
    std::vector<TopScript> top_;
};

// Unicode's superscript or subscript form of a character, in the font's loaded ranges and in
// DejaVu Sans (which has no ⁰ U+2070 nor ⁱ U+2071); 0: none.
std::uint32_t script_form(std::uint32_t c, int direction) {
    static constexpr std::array<std::uint32_t, 10> super_digits = {0, 0x00B9, 0x00B2, 0x00B3, 0x2074,
                                                                   0x2075, 0x2076, 0x2077, 0x2078, 0x2079};
    if (ascii_digit(c)) return direction > 0 ? super_digits[c - '0'] : 0x2080 + (c - '0');
    const std::uint32_t offset = direction > 0 ? 0 : 0x10;  // ₊ ₋ ₌ ₍ ₎ sit 16 after ⁺ ⁻ ⁼ ⁽ ⁾
    switch (c) {
        case '+': return 0x207A + offset;
        case '-':
        case kMinus: return 0x207B + offset;
        case '=': return 0x207C + offset;
        case '(': return 0x207D + offset;
        case ')': return 0x207E + offset;
        default: break;
    }
    if (direction > 0) return c == 'n' ? 0x207F : 0;
    static constexpr std::string_view sub_letters = "aeoxhklmnpst";
    static constexpr std::array<std::uint32_t, 12> sub_codes = {0x2090, 0x2091, 0x2092, 0x2093, 0x2095, 0x2096,
                                                                0x2097, 0x2098, 0x2099, 0x209A, 0x209B, 0x209C};
    const std::size_t k = c < 0x80 ? sub_letters.find(static_cast<char>(c)) : std::string_view::npos;
    return k == std::string_view::npos ? 0 : sub_codes[k];
}

void append_utf8(std::string& s, std::uint32_t c) {
    if (c < 0x80) {
        s += static_cast<char>(c);
    } else if (c < 0x800) {
        s += static_cast<char>(0xC0 | c >> 6);
        s += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        s += static_cast<char>(0xE0 | c >> 12);
        s += static_cast<char>(0x80 | (c >> 6 & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    }
}

// The script's text in Unicode script characters, or nothing where one character has none.
std::optional<std::string> in_script_characters(std::string_view content, int direction) {
    std::string out;
    for (std::size_t i = 0; i < content.size();) {
        const Char c = char_at(content, i);
        const std::uint32_t form = c.code == kNotUtf8 ? 0 : script_form(c.code, direction);
        if (form == 0) return std::nullopt;
        append_utf8(out, form);
        i += c.bytes;
    }
    return out;
}

}  // namespace

bool has_markup(std::string_view text) { return text.find_first_of("^_") != std::string_view::npos; }

Typeset typeset(std::string_view marked) {
    if (!has_markup(marked)) return {std::string(marked), {}};
    return Parser(marked).run();
}

std::vector<Run> runs(const Typeset& t) {
    if (t.spans.empty()) return t.text.empty() ? std::vector<Run>{} : std::vector<Run>{{t.text, kBase}};
    std::vector<Run> out;
    std::size_t at = 0;
    for (const Span& sp : t.spans) {
        out.push_back({t.text.substr(at, sp.bytes), sp.level});
        at += sp.bytes;
    }
    return out;
}

Placement placement(Level level) {
    // TeX's proportions: scripts at 70 % (a script's script at 58 %, still legible at 15 px),
    // superscripts raised about 0.38 em, subscripts lowered about 0.15 em (in line heights here).
    constexpr float kScale = 0.7f, kInnerScale = 0.58f / 0.7f, kRaise = 0.33f, kLower = 0.13f;
    const auto shift = [&](std::int8_t direction) { return direction > 0 ? kRaise : direction < 0 ? -kLower : 0.0f; };
    if (level.outer == 0) return {};
    if (level.inner == 0) return {kScale, shift(level.outer)};
    return {kScale * kInnerScale, shift(level.outer) + kScale * shift(level.inner)};
}

std::string with_unicode_scripts(std::string_view marked) {
    if (!has_markup(marked)) return std::string(marked);
    Parser parser(marked);
    parser.run();
    std::string out;
    std::size_t at = 0;
    for (const auto& script : parser.top_scripts()) {
        out += marked.substr(at, script.begin - at);
        const std::optional<std::string> unicode =
            script.nested ? std::nullopt
                          : in_script_characters(marked.substr(script.content, script.content_end - script.content), script.direction);
        out += unicode ? *unicode : std::string(marked.substr(script.begin, script.end - script.begin));
        at = script.end;
    }
    out += marked.substr(at);
    return out;
}

}  // namespace ropelab::math_text
