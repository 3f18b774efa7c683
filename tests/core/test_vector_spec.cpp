#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <tuple>

#include "core/error.h"
#include "core/vector_spec.h"
#include "support/refusal.h"

namespace ropelab {
namespace {

std::string error_of(const std::string& spec, int length) {
    return test::refusal([&] { parse_vector_spec(spec, length); });
}

std::string write_temp(const std::string& name, const std::string& text) {
    const std::string path = ::testing::TempDir() + "/" + name;
    std::ofstream(path) << text;
    return path;
}

TEST(VectorSpec, Ones) { EXPECT_EQ(parse_vector_spec("ones", 3), (std::vector<double>{1, 1, 1})); }

TEST(VectorSpec, CommaList) {
    EXPECT_EQ(parse_vector_spec("1, -2.5,3e2", 3), (std::vector<double>{1, -2.5, 300}));
}

TEST(VectorSpec, RandomIsSeededAndStandardNormal) {
    EXPECT_EQ(parse_vector_spec("random:5", 64), parse_vector_spec("random:5", 64));
    EXPECT_NE(parse_vector_spec("random:5", 64), parse_vector_spec("random:6", 64));
    const std::vector<double> v = random_vector(1, 100000);
    double mean = 0, var = 0;
    for (double x : v) mean += x;
    mean /= v.size();
    for (double x : v) var += (x - mean) * (x - mean);
    var /= v.size();
    EXPECT_NEAR(mean, 0.0, 0.02);  // 5 standard errors
    EXPECT_NEAR(var, 1.0, 0.03);
}

TEST(VectorSpec, FilesAsJsonOrWhitespace) {
    const std::string json = write_temp("rl_vec.json", "[1, 2, 3.5]");
    EXPECT_EQ(parse_vector_spec("@" + json, 3), (std::vector<double>{1, 2, 3.5}));
    const std::string text = write_temp("rl_vec.txt", "1 2\n3.5\t4\n");
    EXPECT_EQ(parse_vector_spec("@" + text, 4), (std::vector<double>{1, 2, 3.5, 4}));
    std::remove(json.c_str());
    std::remove(text.c_str());
}

// What bench/torch_closed_form.py and numpy.savetxt(delimiter=",") write: commas, with or without
// spaces and newlines; repr() of a double must come back bit for bit.
TEST(VectorSpec, FilesWithCommas) {
    const std::string python = write_temp("rl_vec_commas.txt", "0.1,-2.5e-3,1.0000000000000002,7\n");
    EXPECT_EQ(parse_vector_spec("@" + python, 4), (std::vector<double>{0.1, -2.5e-3, 1.0000000000000002, 7}));
    const std::string rows = write_temp("rl_vec_rows.csv", "1, 2\n3 ,4\r\n5\t6");
    EXPECT_EQ(parse_vector_spec("@" + rows, 6), (std::vector<double>{1, 2, 3, 4, 5, 6}));
    for (const auto& [text, empty_value, why] : {std::tuple{"1,,2", "value 1", "a comma with no number"},
                                                 std::tuple{", 1, 2", "value 0", "a comma with no number"},
                                                 std::tuple{"1, 2,\n", "value 2", "end with a comma"},
                                                 std::tuple{"1,\n,2", "value 1", "a comma with no number"}}) {
        const std::string path = write_temp("rl_vec_empty.txt", text);
        const std::string e = error_of("@" + path, 2);
        EXPECT_NE(e.find(path + ": " + empty_value + " is empty"), std::string::npos) << text << " → " << e;
        EXPECT_NE(e.find(why), std::string::npos) << e;
        std::remove(path.c_str());
    }
    std::remove(python.c_str());
    std::remove(rows.c_str());
}

TEST(VectorSpec, ErrorsNameTheProblem) {
    std::string e = error_of("1,2", 4);
    EXPECT_NE(e.find("2 components"), std::string::npos) << e;
    EXPECT_NE(e.find("head dim is 4"), std::string::npos) << e;
    e = error_of("1,abc,3", 3);
    EXPECT_NE(e.find("\"abc\""), std::string::npos) << e;
    e = error_of("1,,3", 3);
    EXPECT_NE(e.find("component 1"), std::string::npos) << e;
    e = error_of("random:-3", 3);
    EXPECT_NE(e.find("seed"), std::string::npos) << e;
    e = error_of("@/no/such/file", 3);
    EXPECT_NE(e.find("/no/such/file"), std::string::npos) << e;
    e = error_of("1,inf,3", 3);
    EXPECT_NE(e.find("inf"), std::string::npos) << e;
    const std::string bad = write_temp("rl_bad.json", "[1, null]");
    e = error_of("@" + bad, 2);
    EXPECT_NE(e.find("element 1"), std::string::npos) << e;
    std::remove(bad.c_str());
}

}  // namespace
}  // namespace ropelab
