// Issue 38: a data export's score curves are the exact float64 numbers, not the float32 fast
// path's. The exported RoPE column is checked against an evaluation written here, independent
// of the export's recurrence: Δ·θ_i formed exactly (two doubles), reduced modulo 2π in
// __float128 with 2π to ~160 bits, cos and sin in long double, summed in long double.
//
// "Relative" means relative to the curve's scale S = Σ|c_i| + |q_pass·k_pass|: the largest the
// score can be at any distance. A score that crosses zero has no relative error of its own, and
// S is the size against which the float32 path's 4e-5 was stated; the bound is 1e-12 · S.
//
// The reference takes θ_i as the model's float64 inv_freq, so it also measures the export's
// fixed-point phase steps (each θ_i rounded to 2^-64 turns, at most 2^24 · 2^-65 turns = 3e-12
// rad off at Δ = 2^24, in random directions across pairs): measured 4e-13 .. 7e-13 of the scale
// near 2^24 for the three models here. A second reference with the export's own fixed-point
// angles isolates what the float64 recurrence adds: below 1e-15 of the scale, held to 1e-13.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/phasor_sum.h"
#include "core/presets.h"
#include "core/scores.h"
#include "core/vector_spec.h"
#include "core/sinusoidal.h"
#include "support/run_binary.h"

namespace ropelab {
namespace {

__extension__ typedef __float128 Quad;

constexpr std::int64_t kDistances = std::int64_t{1} << 24;
constexpr double kRelative = 1e-12;

// Δ·θ modulo 2π, in (−π, π], accurate to ~1e-25 rad: Δ·θ = hi + lo exactly (fma), 2π as three
// doubles (crlibm's π split, doubled: exact multiples of two), the reduction in __float128.
long double reduced_angle(std::int64_t delta, double theta) {
    const double d = static_cast<double>(delta);  // exact below 2^53
    const double hi = d * theta;
    const double lo = std::fma(d, theta, -hi);
    const Quad two_pi = Quad(6.283185307179586232) + Quad(2.449293598294706414e-16) + Quad(-5.989539619436679332e-33);
    const Quad angle = Quad(hi) + Quad(lo);
    const Quad turns = angle / two_pi;
    const Quad whole = Quad(static_cast<long double>(std::nearbyint(static_cast<double>(turns))));
    return static_cast<long double>(angle - whole * two_pi);
}

// pass + Re Σ c_i e^{iΔθ_i}, the score at Δ (core/scores.h's definition).
double reference_score(const ScoreCoefficients& c, const RopeFrequencies& f, std::int64_t delta) {
    long double total = c.passthrough;
    for (std::size_t i = 0; i < c.pair.size(); ++i) {
        const long double a = reduced_angle(delta, f.inv_freq[i]);
        total += static_cast<long double>(c.pair[i].real()) * std::cos(a) - static_cast<long double>(c.pair[i].imag()) * std::sin(a);
    }
    return static_cast<double>(total);
}

// The same sum with the export's own angles: θ_i as its fixed-point phase step (turns · 2^64),
// Δ·step reduced exactly by unsigned wrap-around, the angle formed in __float128. What the export's
// recurrence alone adds to the score, apart from how θ_i was rounded to a step.
double fixed_point_score(const ScoreCoefficients& c, const RopeFrequencies& f, std::int64_t delta) {
    const Quad two_pi = Quad(6.283185307179586232) + Quad(2.449293598294706414e-16) + Quad(-5.989539619436679332e-33);
    long double total = c.passthrough;
    for (std::size_t i = 0; i < c.pair.size(); ++i) {
        const auto turns = static_cast<std::int64_t>(f.phase_step[i] * static_cast<std::uint64_t>(delta));
        const auto a = static_cast<long double>(Quad(turns) * two_pi / Quad(18446744073709551616.0));
        total += static_cast<long double>(c.pair[i].real()) * std::cos(a) - static_cast<long double>(c.pair[i].imag()) * std::sin(a);
    }
    return static_cast<double>(total);
}

// Distances worth checking: the first ones, both sides of every kind of block edge (exact
// anchors every 256, the writer's blocks of 8192, its batches of 32 blocks), the last ones
// before 2^24, and a spread of random ones.
std::vector<std::int64_t> sampled_distances() {
    std::vector<std::int64_t> out;
    for (std::int64_t d = 0; d < 20; ++d) out.push_back(d);
    for (const std::int64_t edge : {256, 512, 8192, 8192 * 32, 8192 * 33, 1 << 20}) {
        for (std::int64_t d = edge - 2; d <= edge + 2; ++d) out.push_back(d);
    }
    for (std::int64_t d = kDistances - 300; d < kDistances; ++d) out.push_back(d);
    std::mt19937_64 random(38);
    for (int i = 0; i < 2000; ++i) out.push_back(static_cast<std::int64_t>(random() % kDistances));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// A number from the file: the whole text must be read by from_chars (nothing left over).
double parsed(std::string_view text, std::int64_t row) {
    double value = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    EXPECT_TRUE(error == std::errc() && end == text.data() + text.size()) << "row " << row << ": \"" << text << "\"";
    return value;
}

// The rope column of a 2^24-row CSV "distance,rope": every row read, its distance equal to the
// row and both numbers parsed whole; the rope values at the sampled distances returned.
struct Column {
    std::vector<double> sampled;
    std::string precision;  // the metadata's words
};

Column read_csv_column(const std::string& path, const std::vector<std::int64_t>& samples) {
    Column out;
    std::ifstream in(path);
    std::string line;
    std::int64_t row = -1;  // the header row is -1
    std::size_t next = 0;
    while (std::getline(in, line)) {
        if (line.starts_with("# precision: ")) out.precision = line.substr(13);
        if (line.starts_with('#')) continue;
        if (row < 0) {
            EXPECT_EQ(line, "distance,rope");
            ++row;
            continue;
        }
        const std::size_t comma = line.find(',');
        if (comma == std::string::npos) {
            ADD_FAILURE() << "row " << row << ": " << line;
            break;
        }
        if (parsed(std::string_view(line).substr(0, comma), row) != static_cast<double>(row)) {
            ADD_FAILURE() << "row " << row << " has distance " << line.substr(0, comma);
            break;
        }
        const double rope = parsed(std::string_view(line).substr(comma + 1), row);
        if (next < samples.size() && samples[next] == row) {
            out.sampled.push_back(rope);
            ++next;
        }
        ++row;
    }
    EXPECT_EQ(row, kDistances) << path;
    return out;
}

// The same column from the JSON export, read as text (a parser would hold 2^24 numbers twice).
Column read_json_column(const std::string& path, const std::vector<std::int64_t>& samples) {
    Column out;
    std::ifstream in(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string key = "\"precision\": \"";
    if (const std::size_t at = text.find(key); at != std::string::npos) {
        out.precision = text.substr(at + key.size(), text.find('"', at + key.size()) - at - key.size());
    }
    const std::size_t open = text.find("\"rope\": [");
    if (open == std::string::npos) {
        ADD_FAILURE() << "no rope column in " << path;
        return out;
    }
    std::size_t at = open + 9, next = 0;
    std::int64_t row = 0;
    while (at < text.size() && text[at] != ']') {
        const std::size_t end = text.find_first_of(",]", at);
        const double rope = parsed(std::string_view(text).substr(at, end - at), row);
        if (next < samples.size() && samples[next] == row) {
            out.sampled.push_back(rope);
            ++next;
        }
        ++row;
        at = text[end] == ',' ? end + 1 : end;
    }
    EXPECT_EQ(row, kDistances) << path;
    return out;
}

class ExportExact : public test::TempDirTest {
protected:
    ExportExact() : TempDirTest("export_exact") {}

    // Exports the preset's RoPE curve at 2^24 distances for random q, k (seed 5) and checks
    // the sampled values against the reference; returns the column for comparisons.
    Column check(const std::string& preset, const std::string& format) {
        const std::string file = at(preset + "." + format);
        const test::Result r = test::run("export-data --view scores --encoding rope --show-bound=false --vectors random --seed 5 "
                                         "--max-distance 16777216 --preset " + preset + " --out " + file);
        EXPECT_EQ(r.status, 0) << r.err;
        const std::vector<std::int64_t> samples = sampled_distances();
        Column column = format == "csv" ? read_csv_column(file, samples) : read_json_column(file, samples);
        std::filesystem::remove(file);
        EXPECT_TRUE(column.precision.starts_with("float64 (exact phase")) << preset << " " << format << ": " << column.precision;
        EXPECT_EQ(column.sampled.size(), samples.size()) << preset << " " << format;
        if (column.sampled.size() != samples.size()) return column;

        const ModelConfig model = preset_or_throw(preset).config;
        const RopeFrequencies freqs = compute_frequencies(model);
        const ScoreCoefficients c = score_coefficients(random_vector(5, model.head_dim), random_vector(6, model.head_dim), freqs);
        const double scale = c.l1();
        double worst = 0.0, worst_fixed = 0.0;
        for (std::size_t i = 0; i < samples.size(); ++i) {
            const double error = std::abs(column.sampled[i] - reference_score(c, freqs, samples[i])) / scale;
            const double fixed = std::abs(column.sampled[i] - fixed_point_score(c, freqs, samples[i])) / scale;
            worst = std::max(worst, error);
            worst_fixed = std::max(worst_fixed, fixed);
            EXPECT_LE(error, kRelative) << preset << " " << format << " at distance " << samples[i];
            EXPECT_LE(fixed, kRelative / 10) << preset << " " << format << " at distance " << samples[i];
        }
        std::cout << preset << " " << format << ": worst error " << worst << " of the scale " << scale << " (" << worst_fixed
                  << " against its own fixed-point angles) over " << samples.size() << " distances\n";
        return column;
    }
};

// The default model, as CSV and as JSON: the same numbers in both, to the last bit.
TEST_F(ExportExact, DefaultModelRopeColumnIsFloat64InCsvAndJson) {
    const Column csv = check("textbook", "csv");
    const Column json = check("textbook", "json");
    EXPECT_EQ(csv.sampled, json.sampled);
}

// A scaled model (YaRN ×4: its θ_i stretched and its attention factor in c_i) and a
// partial-rotary one (GPT-NeoX: 24 of 96 dims rotate, the rest a constant pass-through term).
TEST_F(ExportExact, ScaledAndPartialRotaryModelsRopeColumnsAreFloat64) {
    check("qwen2.5-7b-yarn", "csv");
    check("gpt-neox-20b", "csv");
}

// The other float columns of the score view: the sinusoidal score and RoFormer's bound, against
// the core's own float64 references (the sum from std::polar of exact phases; B(Δ) from
// Σ|S_j| over core/scores.h's definition), every distance of a shorter curve.
TEST_F(ExportExact, SinusoidalAndBoundColumnsAreFloat64) {
    const std::int64_t n = 4096;
    const test::Result r = test::run("export-data --view scores --vectors random --seed 5 --max-distance 4096 --out " + at("s.csv"));
    ASSERT_EQ(r.status, 0) << r.err;
    // The lab's inputs for these options (lab/lab_data.cpp): q, k = random vectors seed, seed + 1;
    // the sinusoidal query at N − 1.
    const ModelConfig model = preset_or_throw("textbook").config;
    const RopeFrequencies freqs = compute_frequencies(model);
    const std::vector<double> q = random_vector(5, model.head_dim), k = random_vector(6, model.head_dim);
    const double bound_factor = roformer_bound_factor(score_coefficients(q, k, freqs));
    const PhasorSum sinusoidal = sinusoidal_phasor_sum(q, k, sinusoidal_encoding(model.head_dim, model.rope_theta), n - 1);
    const std::vector<double> bound = roformer_bound(freqs, n);
    const double b0 = roformer_bound_at_zero(freqs.pairs());
    std::ifstream in(at("s.csv"));
    std::string line;
    std::int64_t row = -1;
    while (std::getline(in, line)) {
        if (line.starts_with('#')) continue;
        if (row++ < 0) {
            ASSERT_EQ(line, "distance,rope,bound,relative_bound,sinusoidal");
            continue;
        }
        std::vector<double> cells;
        for (std::size_t at = 0; at <= line.size();) {
            const std::size_t end = std::min(line.find(',', at), line.size());
            cells.push_back(parsed(std::string_view(line).substr(at, end - at), row));
            at = end + 1;
        }
        ASSERT_EQ(cells.size(), 5u);
        const std::int64_t delta = row - 1;
        double scale = std::abs(sinusoidal.constant);
        for (const auto& c : sinusoidal.coefficient) scale += std::abs(c);
        EXPECT_LE(std::abs(cells[4] - evaluate(sinusoidal, delta)), kRelative * scale) << "sinusoidal at " << delta;
        // B(Δ) ≤ B(0): its scale.
        const double b = bound[static_cast<std::size_t>(delta)];
        EXPECT_LE(std::abs(cells[2] - bound_factor * b), kRelative * bound_factor * b0) << "bound at " << delta;
        EXPECT_LE(std::abs(cells[3] - b / b0), kRelative) << "relative bound at " << delta;
    }
    EXPECT_EQ(row, n);
}

// The heatmap's angles are float64 too (they were the float32 fast path's): each pair's angle
// at each row's position equals position·θ_i reduced here, to 1e-12 rad (the fixed-point step's
// rounding is at most position · 2^-65 turns: 2.2e-14 rad at the 2^17 the rows reach here).
TEST_F(ExportExact, HeatmapAnglesAreFloat64) {
    const test::Result r = test::run("export-data --view heatmap --max-distance 131072 --position 100000 --out " + at("h.csv"));
    ASSERT_EQ(r.status, 0) << r.err;
    const RopeFrequencies freqs = compute_frequencies(preset_or_throw("textbook").config);
    std::ifstream in(at("h.csv"));
    std::string line, precision;
    std::int64_t row = -1;
    double worst = 0.0;
    while (std::getline(in, line)) {
        if (line.starts_with("# precision: ")) precision = line.substr(13);
        if (line.starts_with('#')) continue;
        if (row++ < 0) continue;  // the header
        std::vector<double> cells;
        for (std::size_t at = 0; at <= line.size();) {
            const std::size_t end = std::min(line.find(',', at), line.size());
            cells.push_back(parsed(std::string_view(line).substr(at, end - at), row));
            at = end + 1;
        }
        ASSERT_EQ(cells.size(), freqs.inv_freq.size() + 1);
        const auto position = static_cast<std::int64_t>(cells[0]);
        for (std::size_t i = 0; i < freqs.inv_freq.size(); ++i) {
            const double error = std::abs(std::remainder(cells[i + 1] - static_cast<double>(reduced_angle(position, freqs.inv_freq[i])), 2 * M_PI));
            worst = std::max(worst, error);
            EXPECT_LE(error, 1e-12) << "position " << position << " pair " << i;
        }
    }
    EXPECT_GT(row, 0);
    EXPECT_TRUE(precision.starts_with("float64")) << precision;
    std::cout << "heatmap: worst angle error " << worst << " rad over " << row << " rows\n";
}

}  // namespace
}  // namespace ropelab
