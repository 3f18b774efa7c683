// The maths markup reader (ui/math_text.h): the forms the captions use typeset into runs,
// identifiers and broken markup left as written, hostile input never a crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>

#include "ui/math_text.h"

namespace ropelab::math_text {
namespace {

// gtest's Test has a Run() of its own.
using Runs = std::vector<math_text::Run>;
const Level kSuperSub{1, -1};

Runs base(const std::string& text) { return {{text, kBase}}; }

// The runs' characters joined: what a reader sees with the levels flattened.
std::string joined(const Runs& rs) {
    std::string s;
    for (const math_text::Run& r : rs) s += r.text;
    return s;
}

TEST(MathText, BracedScriptsAndOneNestedLevel) {
    // The phasor caption's exponent: a superscript holding a subscript.
    EXPECT_EQ(runs("Re Σ c_i e^{iΔθ_i}: x"),
              (Runs{{"Re Σ c", kBase}, {"i", kSubscript}, {" e", kBase}, {"iΔθ", kSuperscript},
                                {"i", kSuperSub}, {": x", kBase}}));
    EXPECT_EQ(runs("S_j = Σ_{k<j} e^{iΔθ_k}"),
              (Runs{{"S", kBase}, {"j", kSubscript}, {" = Σ", kBase}, {"k<j", kSubscript}, {" e", kBase},
                                {"iΔθ", kSuperscript}, {"k", kSuperSub}}));
    EXPECT_EQ(runs("max_j |c_{j−1} − c_j|"),
              (Runs{{"max", kBase}, {"j", kSubscript}, {" |c", kBase}, {"j−1", kSubscript}, {" − c", kBase},
                                {"j", kSubscript}, {"|", kBase}}));
}

TEST(MathText, PowersOfNumbersAndParenthesisedPowers) {
    EXPECT_EQ(runs("up to 2^31 − 1"), (Runs{{"up to 2", kBase}, {"31", kSuperscript}, {" − 1", kBase}}));
    EXPECT_EQ(runs("10^6"), (Runs{{"10", kBase}, {"6", kSuperscript}}));
    EXPECT_EQ(runs("2^-64 turns"), (Runs{{"2", kBase}, {"-64", kSuperscript}, {" turns", kBase}}));
    EXPECT_EQ(runs("a 2^16-token matrix"), (Runs{{"a 2", kBase}, {"16", kSuperscript}, {"-token matrix", kBase}}));
    // The parentheses only group the power: typeset, they go.
    EXPECT_EQ(runs("θ_i = base^(−2i/d)"),
              (Runs{{"θ", kBase}, {"i", kSubscript}, {" = base", kBase}, {"−2i/d", kSuperscript}}));
    EXPECT_EQ(runs("s^(d/(d−2))"), (Runs{{"s", kBase}, {"d/(d−2)", kSuperscript}}));
    EXPECT_EQ(runs("⟨q, R_(n−m) k⟩"), (Runs{{"⟨q, R", kBase}, {"n−m", kSubscript}, {" k⟩", kBase}}));
    EXPECT_EQ(runs("f_(x) and name_(x)"), (Runs{{"f", kBase}, {"x", kSubscript}, {" and name_(x)", kBase}}));
    // A caret before a word or a space is no power.
    EXPECT_EQ(runs("x^y and 2^ 3 and a ^(b c)"), base("x^y and 2^ 3 and a ^(b c)"));
}

TEST(MathText, IdentifiersKeepTheirUnderscores) {
    for (const std::string s : {"rope_theta", "max_position_embeddings", "warning_1", "setting_2", "frame_00001.png",
                                "a_b.json", "x_1.5", "q_proj", "--p_m", "2x_i", "pair_{}_rad", "modeling_gemma3.py",
                                "snake_case_name", "_leading", "trailing_", "a__b"}) {
        EXPECT_EQ(runs(s), base(s)) << s;
    }
    // A lone letter before the underscore, a boundary after: a subscript.
    EXPECT_EQ(runs("x + p_m"), (Runs{{"x + p", kBase}, {"m", kSubscript}}));
    EXPECT_EQ(runs("2π/θ_i"), (Runs{{"2π/θ", kBase}, {"i", kSubscript}}));
    EXPECT_EQ(runs("(S_j(Δ))."), (Runs{{"(S", kBase}, {"j", kSubscript}, {"(Δ)).", kBase}}));
}

TEST(MathText, BrokenMarkupIsShownAsWritten) {
    for (const std::string s : {"e^{iΔθ", "x_{", "^", "_", "end ^", "end _", "a^{}", "b_{}", "}^{", "c_{ i", "^{a}}"}) {
        const auto r = runs(s);
        EXPECT_EQ(joined(r), s == "^{a}}" ? "a}" : s) << s;
    }
    EXPECT_EQ(runs("e^{iΔθ"), base("e^{iΔθ"));
    EXPECT_EQ(runs("a^{}"), base("a^{}"));
    // Deeper than one nested level: the innermost markup is literal text of the second level.
    EXPECT_EQ(runs("x^{a_{b^{c}}}"), (Runs{{"x", kBase}, {"a", kSuperscript}, {"b^{c}", kSuperSub}}));
}

TEST(MathText, HostileInputNeverCrashesAndKeepsEveryByteOrdered) {
    // 8 KB of unclosed scripts: literal, and read in linear time.
    std::string opened;
    while (opened.size() < 8192) opened += "^{";
    EXPECT_EQ(runs(opened), base(opened));
    std::string closed = opened + std::string(opened.size() / 2, '}');
    const auto r = runs(closed);
    ASSERT_FALSE(r.empty());
    // Two levels are read; the rest of the markup stays as text inside the second.
    EXPECT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].level, (Level{1, 1}));
    EXPECT_EQ(r[0].text.size(), closed.size() - 6);
    // Invalid UTF-8 around and inside markup: the bytes pass through, in order.
    for (const std::string& s : {std::string("\xff_i \xc3"), std::string("θ_\xce"), std::string("e^{\x80\xbf}"),
                                std::string("\xe2\x88_i"), std::string("a_\xf0\x9f\x98")}) {
        std::string flat;
        for (const math_text::Run& run : runs(s)) flat += run.text;
        std::string expected = s;
        if (s == "e^{\x80\xbf}") expected = "e\x80\xbf";
        EXPECT_EQ(flat, expected);
    }
    // Random bytes drawn from the markup's alphabet: the spans always cover the text exactly.
    std::mt19937 rng(7);
    const std::string alphabet[] = {"^", "_", "{", "}", "(", ")", "a", "θ", "2", " ", ".", "\xff", "−"};
    for (int trial = 0; trial < 2000; ++trial) {
        std::string s;
        for (int k = 0; k < 24; ++k) s += alphabet[rng() % std::size(alphabet)];
        const Typeset t = typeset(s);
        std::size_t covered = 0;
        for (const Span& sp : t.spans) covered += sp.bytes;
        EXPECT_TRUE(t.spans.empty() || covered == t.text.size()) << s;
        EXPECT_LE(t.text.size(), s.size());
        with_unicode_scripts(s);
    }
}

TEST(MathText, PlacementRaisesSuperscriptsAndLowersSubscripts) {
    EXPECT_EQ(placement(kBase).scale, 1.0f);
    EXPECT_EQ(placement(kBase).rise, 0.0f);
    const Placement up = placement(kSuperscript), down = placement(kSubscript), up_down = placement(kSuperSub);
    EXPECT_GT(up.rise, 0.2f);
    EXPECT_LT(down.rise, -0.05f);
    EXPECT_NEAR(up.scale, 0.7f, 1e-6f);
    EXPECT_NEAR(down.scale, 0.7f, 1e-6f);
    // θ_i inside e^{…}: smaller again, below the superscript's baseline but above the base's.
    EXPECT_LT(up_down.scale, up.scale);
    EXPECT_LT(up_down.rise, up.rise);
    EXPECT_GT(up_down.rise, 0.0f);
}

TEST(MathText, TooltipsUseUnicodeScriptsOnlyWhereEveryCharacterHasOne) {
    EXPECT_EQ(with_unicode_scripts("up to 2^31 − 1"), "up to 2³¹ − 1");
    EXPECT_EQ(with_unicode_scripts("10^6 and 2^-64"), "10⁶ and 2⁻⁶⁴");
    EXPECT_EQ(with_unicode_scripts("x_{k+1} and e^{n}"), "xₖ₊₁ and eⁿ");
    // DejaVu Sans has no ⁰ or ⁱ: those powers keep their markup.
    EXPECT_EQ(with_unicode_scripts("10^0 and e^{i}"), "10^0 and e^{i}");
    // θ, Δ and the nested subscript have no Unicode superscript: the markup stays.
    EXPECT_EQ(with_unicode_scripts("|Σ c_i e^{iΔθ_i}|"), "|Σ c_i e^{iΔθ_i}|");
    EXPECT_EQ(with_unicode_scripts("base^(−2i/d)"), "base^(−2i/d)");
    EXPECT_EQ(with_unicode_scripts("rope_theta"), "rope_theta");
}

// Every caption of the lessons typesets to text without markup characters where it had markup.
TEST(MathText, LessonCaptionsLoseTheirMarkup) {
    std::ifstream in(std::string(ROPELAB_SOURCE_DIR) + "/assets/lessons/rope-from-first-principles.json");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string lesson = ss.str();
    static const std::regex caption("\"caption\": \"((?:[^\"\\\\]|\\\\.)*)\"");
    int with_markup = 0;
    for (auto it = std::sregex_iterator(lesson.begin(), lesson.end(), caption); it != std::sregex_iterator(); ++it) {
        const std::string text = (*it)[1];
        if (text.find("^{") == std::string::npos && text.find("_{") == std::string::npos) continue;
        ++with_markup;
        const Typeset t = typeset(text);
        EXPECT_EQ(t.text.find("^{"), std::string::npos) << text;
        EXPECT_EQ(t.text.find("_{"), std::string::npos) << text;
        EXPECT_FALSE(t.spans.empty());
    }
    EXPECT_GE(with_markup, 2);
}

}  // namespace
}  // namespace ropelab::math_text
