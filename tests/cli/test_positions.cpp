// `ropelab positions` through the binary: transformers' get_rope_index ids for a layout, the rule
// chosen, where the rules differ; bad layouts exit 2 naming the part.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/run_binary.h"

namespace {

using ropelab::test::Result;
using ropelab::test::run;
using Ids = std::vector<std::int64_t>;

nlohmann::json positions(const std::string& args) {
    const Result r = run("positions " + args + " --format json");
    EXPECT_EQ(r.status, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

// Qwen2.5-VL with tokens_per_second 2, text:2,video:3x4x4@1.5,text:1 (worked in
// tests/core/test_position_ids.cpp): frames at t = 3, 6, 9 under 4.x, then <vision_end> 10 and
// text 11; under 5.x t = 3, 5, 7 and <vision_end> 5, text 6, both overlapping the video.
TEST(PositionsCommand, Qwen25VLVideoUnderBothRules) {
    const std::string model = "--position-ids qwen2_5_vl --tokens-per-second 2 --tokens text:2,video:3x4x4@1.5,text:1";
    const auto v4 = positions(model + " --rule 4.x");
    const auto v5 = positions(model + " --rule 5.x");
    const auto release = positions(model);
    EXPECT_EQ(v4["t"].get<Ids>(), (Ids{0, 1, 2, 3, 3, 3, 3, 6, 6, 6, 6, 9, 9, 9, 9, 10, 11}));
    EXPECT_EQ(v4["h"].get<Ids>(), (Ids{0, 1, 2, 3, 3, 4, 4, 3, 3, 4, 4, 3, 3, 4, 4, 10, 11}));
    EXPECT_EQ(v4["w"].get<Ids>(), (Ids{0, 1, 2, 3, 4, 3, 4, 3, 4, 3, 4, 3, 4, 3, 4, 10, 11}));
    EXPECT_EQ(v5["t"].get<Ids>(), (Ids{0, 1, 2, 3, 3, 3, 3, 5, 5, 5, 5, 7, 7, 7, 7, 5, 6}));
    EXPECT_EQ(v4["rule"], "4.x");
    EXPECT_EQ(v5["rule"], "5.x");
    EXPECT_EQ(release["rule"], "4.x");  // Qwen2.5-VL came out under transformers 4.49
    EXPECT_EQ(v4["rules_differ"], true);
    EXPECT_EQ(v5["overlapping"], 2);
    EXPECT_EQ(v4["overlapping"], 0);
    EXPECT_EQ(v4["kind"][2], "vision_start");
    EXPECT_EQ(v4["kind"][3], "video");
    EXPECT_EQ(v4["kind"][15], "vision_end");
    EXPECT_EQ(v4["other_t"], v5["t"]);
}

TEST(PositionsCommand, ImagesAgreeAndOneDimensionalModelsCount) {
    const auto img = positions("--position-ids qwen2_vl --tokens text:3,image:1x4x6,text:2 --rule 5.x");
    EXPECT_EQ(img["t"].get<Ids>(), (Ids{0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 7, 8, 9}));
    EXPECT_EQ(img["w"].get<Ids>(), (Ids{0, 1, 2, 3, 4, 5, 6, 4, 5, 6, 7, 8, 9}));
    EXPECT_EQ(img["rules_differ"], false);

    const Result r = run("positions --tokens text:3,image:1x4x6,text:2 --format json");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto flat = nlohmann::json::parse(r.out);
    EXPECT_EQ(flat["one_dimensional"], true);
    EXPECT_NE(r.err.find("1-D positions"), std::string::npos) << r.err;
    Ids count(13);
    for (std::size_t i = 0; i < count.size(); ++i) count[i] = static_cast<std::int64_t>(i);
    EXPECT_EQ(flat["t"].get<Ids>(), count);
    EXPECT_EQ(flat["h"], flat["t"]);
    EXPECT_EQ(flat["position"].get<Ids>(), count);
}

TEST(PositionsCommand, TableAndCsv) {
    const Result csv = run("positions --position-ids qwen2_vl --tokens video:3x4x4,text:1 --rule 5.x --format csv");
    ASSERT_EQ(csv.status, 0) << csv.err;
    EXPECT_EQ(csv.out.substr(0, csv.out.find('\n')), "token,kind,part,t,h,w,4.x_t,4.x_h,4.x_w,differs,overlaps");
    EXPECT_NE(csv.out.find("\n13,vision_end,1,3,3,3,4,4,4,1,1\n"), std::string::npos) << csv.out;
    const Result table = run("positions --position-ids qwen2_vl --tokens video:3x4x4,text:1 --rule 5.x --format table");
    ASSERT_EQ(table.status, 0) << table.err;
    EXPECT_NE(table.out.find("overlap"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("(4, 4, 4)"), std::string::npos) << table.out;
}

TEST(PositionsCommand, BadLayoutsExit2NamingThePart) {
    const std::pair<const char*, const char*> cases[] = {
        {"image:0x4x4", "part 1 'image:0x4x4'"},
        {"text:2,image:1x3x4", "part 2 'image:1x3x4'"},
        {"text:1000000000", "part 1 'text:1000000000'"},
        {"text:1,audio:3", "part 2 'audio:3'"},
        {"image:1x4", "part 1 'image:1x4'"},
        {"video:2x4x4@-1", "part 1 'video:2x4x4@-1'"},
    };
    for (const auto& [layout, names] : cases) {
        const Result r = run(std::string("positions --position-ids qwen2_vl --tokens '") + layout + "'");
        EXPECT_EQ(r.status, 2) << layout << ": " << r.err;
        EXPECT_NE(r.err.find(names), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    // A merge size the layout's image does not divide is refused too (the same check, another field).
    const Result m = run("positions --position-ids qwen2_vl --spatial-merge-size 3 --tokens image:1x4x6");
    EXPECT_EQ(m.status, 2);
    EXPECT_NE(m.err.find("spatial merge size 3"), std::string::npos) << m.err;
}

}  // namespace
