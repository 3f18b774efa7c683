// The built-in lesson's attention scene says only what is drawn: with the same q and k at every
// token each row of logits is the score curve read backwards (logit(m, n) = score(m − n)/√d),
// largest on the diagonal; the mask leaves only keys n ≤ m; every row's weights sum to 1 and peak
// on the diagonal. Checked on the rows the binary exports for the scene's settings, against the
// score curve it exports for the same settings.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/files.h"
#include "support/run_binary.h"

namespace ropelab {
namespace {

using Json = nlohmann::json;

const Json& attention_scene(const Json& lesson) {
    for (const Json& s : lesson["scenes"]) {
        if (s["title"] == "From scores to attention") return s;
    }
    throw std::runtime_error("no attention scene");
}

// The CSV's rows after its "# …" metadata and header, as numbers.
std::vector<std::vector<double>> read_csv(const std::string& path, const std::string& header) {
    std::ifstream in(path);
    std::string line;
    std::vector<std::vector<double>> rows;
    bool seen_header = false;
    while (std::getline(in, line)) {
        if (line.rfind("#", 0) == 0) continue;
        if (!seen_header) {
            EXPECT_EQ(line, header);
            seen_header = true;
            continue;
        }
        std::vector<double> row;
        std::istringstream fields(line);
        std::string field;
        while (std::getline(fields, field, ',')) row.push_back(std::stod(field));
        rows.push_back(row);
    }
    return rows;
}

TEST(LessonAttentionScene, CaptionHoldsOnEveryRow) {
    const Json lesson = Json::parse(test::slurp(std::string(ROPELAB_SOURCE_DIR) + "/assets/lessons/rope-from-first-principles.json"));
    const Json& scene = attention_scene(lesson);
    const std::string caption = scene["caption"];
    for (const char* claim : {"score curve of view 3 read backwards", "largest on the diagonal", "sum to 1", "highest near the diagonal"}) {
        EXPECT_NE(caption.find(claim), std::string::npos) << claim;
    }
    const Json& set = scene["set"];
    ASSERT_EQ(set["preset"], "textbook");
    ASSERT_EQ(set["vectors"], "ones");
    ASSERT_EQ(set["token_vectors"], "same");
    ASSERT_EQ(set["tokens"], "text:48");
    ASSERT_EQ(scene["views"], Json::array({3, 11}));

    const std::string dir = test::fresh_dir("lesson_attention").string();
    const std::string flags = " --preset textbook --vectors ones --encoding rope --max-distance 48";
    test::Result r = test::run("export-data --view attention --tokens text:48 --token-vectors same" + flags + " --out " + dir + "/a.csv");
    ASSERT_EQ(r.status, 0) << r.err;
    r = test::run("export-data --view scores" + flags + " --out " + dir + "/s.csv");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto cells = read_csv(dir + "/a.csv", "m,n,logit,weight");
    const auto scores = read_csv(dir + "/s.csv", "distance,rope,bound,relative_bound");
    ASSERT_EQ(cells.size(), 48u * 49u / 2u) << "every key n ≤ m of 48 rows, nothing after the query";
    ASSERT_GE(scores.size(), 48u);

    const double root_d = std::sqrt(128.0);  // textbook: head_dim 128
    std::map<int, double> row_sum, row_top_weight, row_top_logit;
    std::map<int, int> row_top_at, row_top_logit_at;
    for (const auto& c : cells) {
        const int m = static_cast<int>(c[0]), n = static_cast<int>(c[1]);
        ASSERT_LE(n, m);
        // The score column is float32 (the GPU core's): a part in 10^6.
        EXPECT_NEAR(c[2], scores[static_cast<std::size_t>(m - n)][1] / root_d, 1e-6 * 128.0 / root_d) << m << ", " << n;
        row_sum[m] += c[3];
        if (c[3] > row_top_weight[m]) {
            row_top_weight[m] = c[3];
            row_top_at[m] = n;
        }
        if (!row_top_logit_at.contains(m) || c[2] > row_top_logit[m]) {
            row_top_logit[m] = c[2];
            row_top_logit_at[m] = n;
        }
    }
    ASSERT_EQ(row_sum.size(), 48u);
    for (const auto& [m, sum] : row_sum) {
        EXPECT_NEAR(sum, 1.0, 1e-6) << "row " << m;
        EXPECT_EQ(row_top_at[m], m) << "row " << m << "'s largest weight is on the diagonal";
        EXPECT_EQ(row_top_logit_at[m], m) << "row " << m << "'s largest logit is on the diagonal";
    }
}

}  // namespace
}  // namespace ropelab
