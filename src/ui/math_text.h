#pragma once
// The light maths markup of the lab's captions, legends and notes, read into typeset runs.
// Strings keep the markup as their source ("score(Δ) = Re Σ c_i e^{iΔθ_i}"); whatever draws
// text (the screen, the SVG and PDF writers, ImGui captions) shows the runs: the base text on
// the baseline, scripts smaller, raised or lowered. Pure: no ImGui, no font.
//
// The forms the strings use, and so the only ones read:
//   x^{…}  x_{…}   a script in braces (Σ_{k<j}, e^{iΔθ_i}, c_{j−1})
//   x^(…)  x_(…)   a script in parentheses, the parentheses dropped (base^(−2i/d), R_(n−m))
//   2^24  10^6     a number's power of digits (optionally negative: 2^-64)
//   c_i  θ_i       a one-character subscript of a one-letter symbol (or of max/min, or of a Greek
//                  letter: iΔθ_i); identifiers (rope_theta, warning_1, a_b.json) stay as written
// A script may hold one more level of scripts (e^{iΔθ_i}); deeper markup, unbalanced braces or
// parentheses and a dangling ^ or _ are shown as the literal text. Bytes that are not UTF-8
// pass through untouched.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ropelab::math_text {

// Where a run sits: on the baseline, in a script (+1 raised, −1 lowered), or in a script of
// that script (inner, the same way).
struct Level {
    std::int8_t outer = 0;
    std::int8_t inner = 0;
    bool operator==(const Level&) const = default;
    bool base() const { return outer == 0; }
};
inline constexpr Level kBase{0, 0};
inline constexpr Level kSuperscript{1, 0};
inline constexpr Level kSubscript{-1, 0};

// A run of the typeset text: `bytes` of it, all at one level.
struct Span {
    std::uint32_t bytes = 0;
    Level level;
    bool operator==(const Span&) const = default;
};

// Text with its markup read: the characters shown (no markup left) and the spans that cover
// them in order. No spans: all on the baseline (text without markup).
struct Typeset {
    std::string text;
    std::vector<Span> spans;
};

// A run as its own string, for tests and for readers of runs.
struct Run {
    std::string text;
    Level level;
    bool operator==(const Run&) const = default;
};

// Whether `text` holds anything the reader would typeset (cheap: most text has no ^ or _).
bool has_markup(std::string_view text);
Typeset typeset(std::string_view marked);
std::vector<Run> runs(const Typeset& t);
inline std::vector<Run> runs(std::string_view marked) { return runs(typeset(marked)); }

// How a level is drawn, relative to the base text's font size (ImGui's size, the line height):
// the font scaled by `scale`, the baseline raised by `rise` × that size (negative: lowered).
struct Placement {
    float scale = 1.0f;
    float rise = 0.0f;
};
Placement placement(Level level);

// Text for places that draw no runs (tooltips): each script run written in Unicode's
// superscript or subscript characters (2^31 → 2³¹, x_{k+1} → xₖ₊₁) when every one of its
// characters has one, else that run's markup kept as it was written (e^{iΔθ_i}: θ has none).
// Characters limited to those the UI font loads and has: ¹ ² ³ ⁴–⁹ ⁺ ⁻ ⁼ ⁽ ⁾ ⁿ, ₀–₉ ₊ ₋ ₌ ₍ ₎ and
// ₐ ₑ ₒ ₓ ₕ ₖ ₗ ₘ ₙ ₚ ₛ ₜ (DejaVu Sans has no ⁰ or ⁱ).
std::string with_unicode_scripts(std::string_view marked);

}  // namespace ropelab::math_text
