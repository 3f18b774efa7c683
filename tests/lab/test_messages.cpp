// The lab's messages in its own words: what a JSON library's exception says, rewritten, for the
// texts nlohmann::json really throws (taken from parsing each input here).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "lab/messages.h"

namespace ropelab {
namespace {

std::string thrown_by(const std::string& text) {
    try {
        const nlohmann::json parsed = nlohmann::json::parse(text);
        return parsed.dump();
    } catch (const nlohmann::json::exception& e) {
        return e.what();
    }
    return "";
}

TEST(InOwnWords, ParseErrorsNameLineAndColumnWithoutTheLibrarysTag) {
    const std::string raw = thrown_by("{\n  \"a\": tru }");
    ASSERT_NE(raw.find("[json.exception.parse_error.101]"), std::string::npos) << raw;
    const std::string own = lab::in_own_words("session: not valid JSON: " + raw);
    EXPECT_EQ(own.find("json.exception"), std::string::npos) << own;
    EXPECT_EQ(own.find("syntax error while parsing"), std::string::npos) << own;
    EXPECT_EQ(own.rfind("session: not valid JSON: line 2, column ", 0), 0u) << own;
    EXPECT_NE(own.find("invalid literal"), std::string::npos) << own;
}

TEST(InOwnWords, TypeErrorsAndCutTextsReadPlainly) {
    nlohmann::json j = "text";
    std::string raw;
    try {
        raw = std::to_string(j.get<int>());
    } catch (const nlohmann::json::exception& e) {
        raw = e.what();
    }
    EXPECT_EQ(lab::in_own_words(raw), "expected a number but found a string");
    // A message cut inside the library's preamble (a reader's length limit).
    EXPECT_EQ(lab::in_own_words("f: not valid JSON: [json.exception.parse_error.101] parse error at line 1, column 2: syntax erro..."),
              "f: not valid JSON: line 1, column 2: syntax error");
    EXPECT_EQ(lab::in_own_words("saved session.ropelab"), "saved session.ropelab");
}

}  // namespace
}  // namespace ropelab
