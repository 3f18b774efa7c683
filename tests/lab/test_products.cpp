// The products views draw and exports write (lab/products/): each against an independent
// long-double computation or hand-worked values, and computed again only when what it reads
// changes (a counter on lab/products/lazy.h).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <set>
#include <string>

#include "lab/lab_data.h"
#include "lab/products/contrast.h"
#include "lab/products/heatmap.h"
#include "lab/products/lazy.h"
#include "lab/products/numbers.h"
#include "lab/products/pairing_strip.h"
#include "lab/products/phasors.h"
#include "lab/products/planes.h"
#include "state/view_table.h"

namespace ropelab::lab::products {
namespace {

using Complex = std::complex<long double>;
constexpr long double kPiLong = 3.141592653589793238462643383279502884L;

// θ_i = 10000^(−2i/d) and its rotation at m, in long double: m·θ reduced by 2π, then R(m·θ) z.
// θ_i = 10000^(−2i/d) as the lab's double, widened (the angle's error is then m·ulp only).
long double theta_of(int pair, int dim) { return std::pow(10000.0, -2.0 * pair / dim); }
Complex rotated(Complex z, long double angle) { return z * Complex(std::cos(angle), std::sin(angle)); }

// q and k as "random:SEED" custom vectors, so every pair differs.
LabParams custom_params(int head_dim, std::int64_t position, std::int64_t delta, int pair) {
    LabParams p;
    p.model.head_dim = head_dim;
    p.vectors = VectorChoice::Custom;
    p.custom_q = "random:7";
    p.custom_k = "random:11";
    p.position = position;
    p.key_distance = delta;
    p.focused_pair = pair;
    return p;
}

// Pair i of x (interleaved: components 2i, 2i + 1).
Complex pair_of(const std::vector<double>& x, int i) { return {x[2 * static_cast<std::size_t>(i)], x[2 * static_cast<std::size_t>(i) + 1]}; }

TEST(Products, PlanesRotateEveryPairByMTheta) {
    for (std::int64_t m : {0, 3, 1000, 1000003}) {
        const LabParams p = custom_params(64, m, 5, 3);
        const LabData d = compute_lab_data(p);
        const Planes planes = compute_planes(planes_inputs(p, d));
        ASSERT_EQ(planes.pairs.size(), 32u);
        for (int i = 0; i < 32; ++i) {
            const PlanePair& pp = planes.pairs[static_cast<std::size_t>(i)];
            const long double th = theta_of(i, 64);
            const Complex q = rotated(pair_of(d.q, i), std::fmod(m * th, 2 * kPiLong));
            const Complex k = rotated(pair_of(d.k, i), std::fmod((m - 5) * th, 2 * kPiLong));
            const double tol = 1e-9 * (1.0 + static_cast<double>(m) * 1e-6);
            EXPECT_NEAR(pp.q_at_m.real(), static_cast<double>(q.real()), tol) << "pair " << i << ", m " << m;
            EXPECT_NEAR(pp.q_at_m.imag(), static_cast<double>(q.imag()), tol) << "pair " << i << ", m " << m;
            EXPECT_NEAR(pp.k_at_n.real(), static_cast<double>(k.real()), tol) << "pair " << i << ", m " << m;
            EXPECT_NEAR(pp.k_at_n.imag(), static_cast<double>(k.imag()), tol) << "pair " << i << ", m " << m;
            EXPECT_NEAR(std::abs(pp.q_at_m), std::abs(pp.q), 1e-12);  // a rotation keeps the length
        }
        EXPECT_EQ(planes.focused, 3);
    }
}

TEST(Products, PlanesByHand) {
    // All-ones q, d = 4: pair 0 turns 1 rad per position, pair 1 0.01. At m = 2, pair 0's q is
    // (1 + i)·e^{2i}; the angle read-out is 2 rad = 114.59…°, (m − n)·θ with Δk = 3 is 171.887…°.
    LabParams p;
    p.model.head_dim = 4;
    p.position = 2;
    p.key_distance = 3;
    const LabData d = compute_lab_data(p);
    const Planes planes = compute_planes(planes_inputs(p, d));
    const std::complex<double> expected = std::complex<double>(1, 1) * std::polar(1.0, 2.0);
    EXPECT_NEAR(std::abs(planes.pairs[0].q_at_m - expected), 0.0, 1e-15);
    EXPECT_NEAR(planes.pairs[0].angle_at_m, 2.0 * 180.0 / 3.14159265358979323846, 1e-12);
    EXPECT_NEAR(planes.pairs[0].angle_between, 171.88733853924697, 1e-9);
    EXPECT_DOUBLE_EQ(planes.pairs[1].theta, 0.01);
    // The trail: q at m − 1 … m − 24, the first one step back.
    EXPECT_NEAR(std::abs(planes.trail[0] - std::complex<double>(1, 1) * std::polar(1.0, 1.0)), 0.0, 1e-15);
}

TEST(Products, PhasorChainEndsAtTheScore) {
    for (std::int64_t delta : {0, 1, 17, 4095, 1000000}) {
        LabParams p = custom_params(64, 0, delta, 0);
        p.model.partial_rotary_factor = 0.5;  // a pass-through part: the chain's first link
        const LabData d = compute_lab_data(p);
        const Phasors ph = compute_phasors(phasors_inputs(p, d));
        // The score by definition: q·k over the unrotated components, plus, over the rotated
        // pairs, ⟨R_m q_i, R_{m−Δ} k_i⟩ = Re(q_i · conj(k_i) · e^{iΔθ_i}).
        long double score = 0;
        const int rotary = d.freqs.rotary_dim;
        for (std::size_t c = static_cast<std::size_t>(rotary); c < d.q.size(); ++c) score += static_cast<long double>(d.q[c]) * d.k[c];
        for (int i = 0; i < rotary / 2; ++i) {
            const long double th = theta_of(i, rotary);
            score += (pair_of(d.q, i) * std::conj(pair_of(d.k, i)) * std::polar(1.0L, std::fmod(delta * th, 2 * kPiLong))).real();
        }
        ASSERT_FALSE(ph.chain.empty());
        EXPECT_NEAR(ph.score, static_cast<double>(score), 1e-9 * 64) << "Δ = " << delta;
        EXPECT_DOUBLE_EQ(ph.score, ph.chain.back().real());
        EXPECT_EQ(ph.chain.size(), static_cast<std::size_t>(rotary / 2 + 1));
        EXPECT_EQ(ph.chain.front().imag(), 0.0);  // the pass-through, on the real axis
        for (std::size_t i = 0; i < ph.length.size(); ++i) {
            EXPECT_NEAR(std::abs(ph.chain[i + 1] - ph.chain[i]), ph.length[i], 1e-12);  // each link is |c_i| long
        }
    }
}

TEST(Products, NumbersRowsAreTheDirectFormula) {
    for (std::int64_t m : {0, 1, 7, 1000003, 2147483647}) {
        const LabParams p = custom_params(128, m, 3, 5);
        const LabData d = compute_lab_data(p);
        const Numbers r = compute_numbers(numbers_inputs(p, d));
        const double theta = std::pow(10000.0, -10.0 / 128);
        EXPECT_EQ(r.pair, 5);
        EXPECT_DOUBLE_EQ(r.theta, theta);
        EXPECT_DOUBLE_EQ(r.m_theta, static_cast<double>(m) * theta);
        // m times the double θ the lab turns by, reduced in long double. The lab's fixed-point step
        // holds θ/2π to a double's 53 bits, so its angle may differ by m·θ·2^−52 (2·10⁻⁷ rad at 2^31 − 1).
        const long double reduced = std::remainder(static_cast<long double>(m) * static_cast<long double>(theta), 2 * kPiLong);
        const double tolerance = 1e-9 + static_cast<double>(m) * theta * 0x1p-52;
        EXPECT_NEAR(r.angle, static_cast<double>(reduced), tolerance) << "m = " << m;
        EXPECT_NEAR(r.cos_a, std::cos(r.angle), 1e-15);
        EXPECT_NEAR(r.sin_a, std::sin(r.angle), 1e-15);
        const Complex expected = rotated(pair_of(d.q, 5), reduced);
        EXPECT_NEAR(r.rotated.real(), static_cast<double>(expected.real()), 4 * tolerance);  // the angle's error times |q_i|
        EXPECT_NEAR(r.rotated.imag(), static_cast<double>(expected.imag()), 4 * tolerance);
        EXPECT_EQ(r.interleaved, std::make_pair(10, 11));
        EXPECT_EQ(r.half, std::make_pair(5, 69));
    }
}

TEST(Products, ContrastAddsPmAndRotatesKeepingTheLength) {
    const LabParams p = custom_params(64, 40, 3, 2);
    const LabData d = compute_lab_data(p);
    const Contrast c = compute_contrast(contrast_inputs(p, d));
    // Vaswani's p_m for pair 2 of a 64-wide encoding: (sin mω, cos mω), ω = 10000^(−4/64).
    const long double w = 40.0L * theta_of(2, 64);
    EXPECT_NEAR(c.p_m.real(), static_cast<double>(std::sin(w)), 1e-12);
    EXPECT_NEAR(c.p_m.imag(), static_cast<double>(std::cos(w)), 1e-12);
    EXPECT_EQ(c.added, c.x + c.p_m);
    EXPECT_NEAR(std::abs(c.rotated), std::abs(c.x), 1e-12);
}

TEST(Products, HeatmapRowIsEachPairsAngleAtM) {
    LabParams p;
    p.model.head_dim = 4;
    p.position = 3;
    const LabData d = compute_lab_data(p);
    const Heatmap h = compute_heatmap(heatmap_inputs(p, d, nullptr));
    ASSERT_EQ(h.row.size(), 2u);
    EXPECT_NEAR(h.row[0], 171.88733853924697, 1e-9);  // 3 rad
    EXPECT_NEAR(h.row[1], 0.03 * 180.0 / 3.14159265358979323846, 1e-12);
    const Heatmap same = compute_heatmap(heatmap_inputs(p, d, &d));  // a setting minus itself
    EXPECT_EQ(same.row, std::vector<double>(2, 0.0));
}

TEST(Products, PairingStripNamesEachLayoutsComponents) {
    LabParams p;
    p.model.head_dim = 8;
    p.focused_pair = 9;  // clamped to the last pair
    const LabData d = compute_lab_data(p);
    const PairingStrip s = compute_pairing_strip(pairing_strip_inputs(p, d));
    EXPECT_EQ(s.focused, 3);
    EXPECT_EQ(s.of(PairLayout::Interleaved)[3], std::make_pair(6, 7));
    EXPECT_EQ(s.of(PairLayout::Half)[3], std::make_pair(3, 7));
    EXPECT_EQ(s.shade, std::vector<double>(8, 1.0));  // all-ones q
}

// A product is computed once per change of what it reads: the theme, another view's field or
// the score plot's distance count leave the planes alone; the position recomputes them.
TEST(Products, ComputedAgainOnlyWhenTheirInputsChange) {
    LabParams p;
    const LabData d = compute_lab_data(p);
    Lazy<PlanesInputs, Planes> planes;
    Lazy<PhasorsInputs, Phasors> phasors;
    planes.get(planes_inputs(p, d), compute_planes);
    phasors.get(phasors_inputs(p, d), compute_phasors);
    EXPECT_EQ(planes.computed(), 1);
    p.theme = Theme::Light;
    p.grid_width = 20;
    p.show_bound = false;
    p.focused_view = 4;
    planes.get(planes_inputs(p, d), compute_planes);
    phasors.get(phasors_inputs(p, d), compute_phasors);
    EXPECT_EQ(planes.computed(), 1);
    EXPECT_EQ(phasors.computed(), 1);
    p.position = 9;  // the planes read m; the phasor chain depends on Δ only
    const Planes& moved = planes.get(planes_inputs(p, d), compute_planes);
    phasors.get(phasors_inputs(p, d), compute_phasors);
    EXPECT_EQ(planes.computed(), 2);
    EXPECT_EQ(phasors.computed(), 1);
    EXPECT_NEAR(moved.pairs[0].angle_at_m, std::remainder(9.0, 2 * 3.14159265358979323846) * 180 / 3.14159265358979323846, 1e-9);
    p.key_distance = 4;
    phasors.get(phasors_inputs(p, d), compute_phasors);
    EXPECT_EQ(phasors.computed(), 2);
    // New data (another θ) with the same fields of the state: recomputed.
    LabParams other = p;
    other.model.rope_theta = 500000;
    const LabData d2 = compute_lab_data(other);
    planes.get(planes_inputs(p, d2), compute_planes);
    EXPECT_EQ(planes.computed(), 3);
}

// The view table: every name, key and title is a view's own, in View's order; --view reads names and numbers.
TEST(ViewTable, OneRowPerViewEachNamedOnce) {
    std::set<std::string> names, titles;
    std::set<char> keys;
    for (const ViewRow& row : view_table()) {
        names.emplace(row.name);
        titles.emplace(row.title);
        keys.insert(row.key);
        EXPECT_EQ(find_view(row.name), row.id);
        EXPECT_EQ(find_view(std::to_string(static_cast<int>(row.id) + 1)), row.id);
        EXPECT_EQ(view_row(view_of(row.product)).id, row.id);  // one product per view
    }
    EXPECT_EQ(names.size(), static_cast<std::size_t>(kViewCount));
    EXPECT_EQ(titles.size(), static_cast<std::size_t>(kViewCount));
    EXPECT_EQ(keys.size(), static_cast<std::size_t>(kViewCount));
    EXPECT_FALSE(find_view("0"));
    EXPECT_FALSE(find_view(std::to_string(kViewCount + 1)));
    EXPECT_FALSE(find_view("Planes"));
    EXPECT_FALSE(find_view(""));
}

}  // namespace
}  // namespace ropelab::lab::products
