#pragma once
// UTF-8 text as people count it: characters (code points), not bytes, and where a text is not
// UTF-8 at all. Limits stated "in characters" count with utf8_characters; text that reaches a file
// (names, paths) is checked with first_invalid_utf8 at the door.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ropelab {

inline bool utf8_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// Code points in valid UTF-8 (in other bytes: the bytes that do not continue a sequence).
inline std::size_t utf8_characters(std::string_view text) {
    std::size_t n = 0;
    for (const char c : text) n += utf8_continuation(static_cast<unsigned char>(c)) ? 0 : 1;
    return n;
}

// The bytes of the first `characters` code points of `text` (all of it when it has fewer).
inline std::size_t utf8_prefix_bytes(std::string_view text, std::size_t characters) {
    std::size_t seen = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (!utf8_continuation(static_cast<unsigned char>(text[i])) && seen++ == characters) return i;
    }
    return text.size();
}

// The byte offset of the first byte that is not well-formed UTF-8 (RFC 3629: no overlong forms,
// no surrogates, nothing past U+10FFFF), or npos when the whole text is.
inline std::size_t first_invalid_utf8(std::string_view text) {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n;) {
        const unsigned char c = s[i];
        std::size_t len = 0;
        std::uint32_t cp = 0, min = 0;
        if (c < 0x80) {
            ++i;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            len = 2, cp = c & 0x1F, min = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3, cp = c & 0x0F, min = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            len = 4, cp = c & 0x07, min = 0x10000;
        } else {
            return i;
        }
        if (i + len > n) return i;
        for (std::size_t k = 1; k < len; ++k) {
            if (!utf8_continuation(s[i + k])) return i;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
        i += len;
    }
    return std::string_view::npos;
}

// Where a control character (C0 or DEL) is, or npos: one line of text (a name) holds none. With
// `whitespace_allowed`, tab, newline and carriage return are not counted.
inline std::size_t first_control_character(std::string_view text, bool whitespace_allowed = false) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (whitespace_allowed && (c == '\t' || c == '\n' || c == '\r')) continue;
        if (c < 0x20 || c == 0x7F) return i;
    }
    return std::string_view::npos;
}

// `text` for a message: each byte that is not valid UTF-8, and each control character, as \xNN.
inline std::string utf8_escaped(std::string_view text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t bad = first_invalid_utf8(text.substr(i));
        const std::size_t good = bad == std::string_view::npos ? text.size() - i : bad;
        for (std::size_t k = i; k < i + good; ++k) {
            const auto c = static_cast<unsigned char>(text[k]);
            if (c < 0x20 || c == 0x7F) out += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
            else out += text[k];
        }
        i += good;
        if (i < text.size()) {
            const auto c = static_cast<unsigned char>(text[i++]);
            out += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
        }
    }
    return out;
}

// `text` as valid UTF-8 for a file: each byte that is not part of a valid sequence becomes U+FFFD
// (the replacement character), the rest is kept byte for byte.
inline std::string utf8_or_replacement(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t bad = first_invalid_utf8(text.substr(i));
        if (bad == std::string_view::npos) {
            out.append(text.substr(i));
            break;
        }
        out.append(text.substr(i, bad));
        out += "\xEF\xBF\xBD";
        i += bad + 1;
    }
    return out;
}

}  // namespace ropelab
