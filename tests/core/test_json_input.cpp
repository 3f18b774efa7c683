// The one JSON reader: counts are refused before the work they would cost, duplicate keys are
// named by their path, and what it builds is the value the text holds.
#include <gtest/gtest.h>

#include <string>

#include "core/json_input.h"
#include "support/refusal.h"

namespace ropelab {
namespace {

std::string many(const std::string& item, std::size_t n) {
    std::string out;
    out.reserve(n * (item.size() + 1));
    for (std::size_t i = 0; i < n; ++i) out += (i ? "," : "") + item;
    return out;
}

std::string keys(std::size_t n) {
    std::string out = "{";
    for (std::size_t i = 0; i < n; ++i) out += (i ? ",\"k" : "\"k") + std::to_string(i) + "\": 0";
    return out + "}";
}

// 600,000 empty objects (1.8 MB) and 200,000 keys in one object used to take 43 s and 21 s
// (nlohmann's callback parser rescans a container's parent; ordered_json searches keys one by
// one). Now both are refused by their count, naming the file and the limit.
TEST(JsonInput, TooManyValuesOrKeysAreRefusedByCount) {
    std::string e = test::refusal([&] { parse_json_input("[" + many("{}", 600000) + "]", "big.json"); });
    EXPECT_EQ(e, "big.json: more than 200000 values; no ropelab file needs so many (a model's config has a few hundred)");
    e = test::refusal([&] { parse_json_input(keys(200000), "wide.json"); });
    EXPECT_EQ(e, "wide.json: an object has more than 20000 keys; no ropelab file needs so many (a model's config has a few dozen)");
    e = test::refusal([&] { parse_json_input(R"({"a": {"b": )" + keys(kMaxJsonKeys + 1) + "}}", "nested.json"); });
    EXPECT_NE(e.find("nested.json: an object at a.b has more than 20000 keys"), std::string::npos) << e.substr(0, 200);
    // At the limits: read whole.
    const Json at_limit = parse_json_input("[" + many("0", kMaxJsonValues - 1) + "]", "ok.json");
    EXPECT_EQ(at_limit.size(), kMaxJsonValues - 1);
    const Json wide = parse_json_input(keys(kMaxJsonKeys), "ok.json");
    EXPECT_EQ(wide.size(), kMaxJsonKeys);
    EXPECT_EQ(wide.begin().key(), "k0");
    EXPECT_EQ((--wide.end()).key(), "k19999");
}

TEST(JsonInput, BuildsTheValueInOrderAndTheLastDuplicateWins) {
    std::vector<std::string> warnings;
    const Json j = parse_json_input(R"({"z": 1, "a": [true, null, {"x": "s", "x": 2.5}], "z": -3, "u": 18446744073709551615})",
                                    "f.json", &warnings);
    EXPECT_EQ(j.dump(), R"({"z":-3,"a":[true,null,{"x":2.5}],"u":18446744073709551615})");
    EXPECT_EQ(warnings, (std::vector<std::string>{"duplicate key a.x (the last value is used)",
                                                  "duplicate key z (the last value is used)"}));
    EXPECT_EQ(parse_json_input("7", "f").get<int>(), 7);
    EXPECT_EQ(parse_json_input(R"("t")", "f").get<std::string>(), "t");
    EXPECT_NE(test::refusal([] { parse_json_input("[1,", "f.json"); }).find("f.json: not valid JSON"), std::string::npos);
    EXPECT_NE(test::refusal([] { parse_json_input("1e99999", "f.json"); }).find("f.json: not valid JSON"), std::string::npos);
    EXPECT_NE(test::refusal([] { parse_json_input(std::string(300, '[') + std::string(300, ']'), "f.json"); })
                  .find("nested deeper than 256"),
              std::string::npos);
    EXPECT_EQ(test::refusal([] { parse_json_input(std::string(256, '[') + std::string(256, ']'), "f.json"); }), "");
}

}  // namespace
}  // namespace ropelab
