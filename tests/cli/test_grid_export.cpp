// export-data --view grid: every offset (Δt, Δh, Δw) of --grid TxHxW and its score, against a
// float64 evaluation written here from the rule's definition. With q = k = ones every pair's
// coefficient is |1 + i|² = 2, so score(Δ) = Σ_j 2·cos(ω_j·Δ).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_binary.h"

namespace {

using ropelab::test::Result;
using ropelab::test::run;

struct Row {
    double setting = 0, dt = 0, dh = 0, dw = 0, score = 0;
};

// Data rows of a CSV export (after the "# …" metadata and the header).
std::vector<Row> read_rows(const std::string& path, bool with_setting) {
    std::ifstream in(path);
    std::string line;
    std::vector<Row> rows;
    bool header = true;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        if (header) {
            header = false;
            continue;
        }
        std::replace(line.begin(), line.end(), ',', ' ');
        std::istringstream fields(line);
        Row r;
        if (with_setting) fields >> r.setting;
        fields >> r.dt >> r.dh >> r.dw >> r.score;
        rows.push_back(r);
    }
    return rows;
}

// θ^(−2j/d) for the d/2 pairs.
std::vector<double> ladder(int d, double theta) {
    std::vector<double> f;
    for (int j = 0; j < d / 2; ++j) f.push_back(std::pow(theta, -2.0 * j / d));
    return f;
}

TEST(GridExport, OneAxisModelInRasterOrder) {
    const std::string out = ropelab::test::temp_path("grid").string() + ".csv";
    const Result r = run("export-data --view grid --grid 2x3x5 --head-dim 64 --rope-theta 10000 --out " + out);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::vector<Row> rows = read_rows(out, false);
    ASSERT_EQ(rows.size(), 3u * 5u * 9u);  // (2T−1)(2H−1)(2W−1)
    const std::vector<double> f = ladder(64, 1e4);
    for (const Row& row : rows) {
        const double steps = row.dt * 15 + row.dh * 5 + row.dw;  // raster order: H·W per frame, W per row
        double want = 0;
        for (double fj : f) want += 2 * std::cos(fj * steps);
        EXPECT_NEAR(row.score, want, 1e-9 * 64) << row.dt << "," << row.dh << "," << row.dw;
    }
    EXPECT_EQ(rows.front().dt, -1);
    EXPECT_EQ(rows.front().dh, -2);
    EXPECT_EQ(rows.front().dw, -4);
    std::remove(out.c_str());
}

TEST(GridExport, SectionsTurnEachPairWithItsAxis) {
    const std::string out = ropelab::test::temp_path("grid_sections").string() + ".csv";
    const Result r = run("export-data --view grid --grid 1x16x16 --head-dim 128 --rope-theta 1000000 --multi-axis sections "
                         "--mrope-section 16,24,24 --out " + out);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::vector<Row> rows = read_rows(out, false);
    ASSERT_EQ(rows.size(), 31u * 31u);
    const std::vector<double> f = ladder(128, 1e6);
    for (const Row& row : rows) {
        double want = 0;
        for (int j = 0; j < 64; ++j) want += 2 * std::cos(f[j] * (j < 16 ? row.dt : j < 40 ? row.dh : row.dw));
        EXPECT_NEAR(row.score, want, 1e-9 * 128) << row.dh << "," << row.dw;
    }
    std::remove(out.c_str());
}

TEST(GridExport, CompareAddsASettingColumn) {
    const std::string out = ropelab::test::temp_path("grid_compare").string() + ".csv";
    const Result r = run("export-data --view grid --grid 1x4x3 --compare rope_theta=100 --out " + out);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::vector<Row> rows = read_rows(out, true);
    ASSERT_EQ(rows.size(), 2u * 7u * 5u);
    EXPECT_EQ(rows.front().setting, 0);
    EXPECT_EQ(rows.back().setting, 1);
    std::remove(out.c_str());
}

TEST(GridExport, RefusesBadGridText) {
    for (const char* bad : {"16x16", "1x0x4", "1x16x1025", "65x2x2", "1xax2", "1x2x3x4", "-1x2x2", "1x2x"}) {
        const Result r = run(std::string("export-data --view grid --grid ") + bad + " --out " +
                             ropelab::test::temp_path("bad").string() + ".csv");
        EXPECT_EQ(r.status, 2) << bad;
        EXPECT_NE(r.err.find("--grid"), std::string::npos) << bad << ": " << r.err;
    }
}

}  // namespace
