// Positions reach only as far as angles are exact: 2^31 - 1, the lab's own range. `invariance
// --positions` used to accept up to 2^53, where the 64-bit phase step leaves angles 0.09° off.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_binary.h"

namespace {

using ropelab::test::Result;
using ropelab::test::run;

std::vector<double> second_column(const std::string& csv) {
    std::vector<double> out;
    std::istringstream lines(csv);
    std::string line;
    std::getline(lines, line);  // header
    while (std::getline(lines, line)) out.push_back(std::stod(line.substr(line.find(',') + 1)));
    return out;
}

// m·θ mod 2π in binary128 (113 bits: m·θ is exact, 2π to ~106 bits), independent of the app's
// fixed-point phases; in degrees, in (-180, 180].
double reference_degrees(std::int64_t m, double theta) {
    const __float128 two_pi = static_cast<__float128>(6.283185307179586) + static_cast<__float128>(2.4492935982947064e-16);
    const __float128 x = static_cast<__float128>(m) * static_cast<__float128>(theta);
    const auto turns = static_cast<std::int64_t>(x / two_pi);  // < 2^29 turns
    __float128 r = x - static_cast<__float128>(turns) * two_pi;
    if (r > two_pi / 2) r -= two_pi;
    return static_cast<double>(r) * 360.0 / 6.283185307179586;
}

TEST(PositionLimit, AnglesNearTheLimitMatchAnIndependentBinary128Reduction) {
    const Result f = run("freqs --head-dim 32 --rope-theta 500000");
    ASSERT_EQ(f.status, 0) << f.err;
    const std::vector<double> theta = second_column(f.out);
    ASSERT_EQ(theta.size(), 16u);
    for (const std::int64_t m : {std::int64_t{2147483647}, std::int64_t{2147483000}, std::int64_t{1} << 30, std::int64_t{1999999999}}) {
        const Result a = run("angles --head-dim 32 --rope-theta 500000 --position " + std::to_string(m));
        ASSERT_EQ(a.status, 0) << a.err;
        const std::vector<double> degrees = second_column(a.out);
        ASSERT_EQ(degrees.size(), 16u);
        for (std::size_t i = 0; i < 16; ++i) {
            double d = degrees[i] - reference_degrees(m, theta[i]);
            d -= 360.0 * std::round(d / 360.0);
            EXPECT_LT(std::abs(d), 1e-7) << "m = " << m << ", pair " << i;  // 2^31·2^-65 turns = 8e-8°
        }
    }
}

TEST(PositionLimit, InvarianceNearTheLimitIsTheScoreOfTheDistanceAlone) {
    // q = k = ones: every pair scores 2cos(Δθ_i) whatever m, exactly.
    const Result f = run("freqs --head-dim 16");
    ASSERT_EQ(f.status, 0) << f.err;
    const std::vector<double> theta = second_column(f.out);
    const std::int64_t delta = 1000;
    long double expected = 0;
    for (double t : theta) expected += 2.0L * std::cos(static_cast<long double>(delta) * t);
    const Result r = run("invariance --head-dim 16 --vectors ones --invariance-distance 1000 --positions 2147483600:2147483648");
    ASSERT_EQ(r.status, 0) << r.err;
    const std::vector<double> scores = second_column(r.out);
    ASSERT_EQ(scores.size(), 48u);
    for (double s : scores) EXPECT_NEAR(s, static_cast<double>(expected), 1e-7);
}

TEST(PositionLimit, PositionsPastTheLimitAreRefusedNamingIt) {
    for (const std::string args : {"invariance --positions 0:2147483649", "invariance --positions 9007199254740000:9007199254740010",
                                   "invariance --positions 9007199254740991:9007199254740992"}) {
        const Result r = run(args);
        EXPECT_EQ(r.status, 2) << args;
        EXPECT_NE(r.err.find("positions up to 2147483647"), std::string::npos) << r.err;
    }
    const Result q = run("scores --encoding sinusoidal --max-distance 16 --query-position 9007199254740992");
    EXPECT_EQ(q.status, 2);
    EXPECT_NE(q.err.find("--query-position"), std::string::npos) << q.err;
    EXPECT_NE(q.err.find("2147483647"), std::string::npos) << q.err;
    const Result p = run("angles --position 2147483648");
    EXPECT_EQ(p.status, 2);
    EXPECT_NE(p.err.find("2147483647"), std::string::npos) << p.err;
}

}  // namespace
