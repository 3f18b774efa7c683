// The phasor view's data rows (export/data.cpp) against an independent float64 score: the chain
// starts at the pass-through part, each link is one pair's |c_i|, the last row's re is the score.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "core/presets.h"
#include "core/vector_spec.h"
#include "export/data.h"
#include "lab/lab_data.h"
#include "state/compare.h"
#include "support/reference.h"

namespace ropelab {
namespace {

// q's and k's pair i as complex numbers, written out from the layouts' definitions.
std::pair<int, int> components(int i, int rotary_dim, PairLayout layout) {
    return layout == PairLayout::Half ? std::pair{i, i + rotary_dim / 2} : std::pair{2 * i, 2 * i + 1};
}

// q rotated at m, k at m − Δ, dotted: Σ_i af²·Re(q̃_i·conj(k̃_i)·e^{iΔθ_i}) + the unrotated part.
double reference_score(const std::vector<double>& q, const std::vector<double>& k, const RopeFrequencies& f, std::int64_t delta,
                       double* l1 = nullptr) {
    long double score = 0, total = 0;
    for (int j = f.rotary_dim; j < f.head_dim; ++j) {
        score += static_cast<long double>(q[static_cast<std::size_t>(j)]) * k[static_cast<std::size_t>(j)];
        total += std::abs(static_cast<long double>(q[static_cast<std::size_t>(j)]) * k[static_cast<std::size_t>(j)]);
    }
    const double af2 = f.attention_factor * f.attention_factor;
    for (int i = 0; i < f.pairs(); ++i) {
        const auto [a, b] = components(i, f.rotary_dim, f.layout);
        const std::complex<double> qi(q[static_cast<std::size_t>(a)], q[static_cast<std::size_t>(b)]);
        const std::complex<double> ki(k[static_cast<std::size_t>(a)], k[static_cast<std::size_t>(b)]);
        const double angle = test::reference_angle(f.inv_freq[static_cast<std::size_t>(i)], delta);
        score += af2 * (qi * std::conj(ki) * std::polar(1.0, angle)).real();
        total += af2 * std::abs(qi) * std::abs(ki);
    }
    if (l1) *l1 = static_cast<double>(total);
    return static_cast<double>(score);
}

LabParams random_setting(const char* preset, std::uint64_t seed, std::int64_t delta) {
    LabParams p;
    p.preset = preset;
    p.model = preset_or_throw(preset).config;
    p.vectors = VectorChoice::Random;
    p.seed = seed;
    p.key_distance = delta;
    return p;
}

TEST(PhasorRows, ChainOfLinksEndingAtTheScore) {
    // GPT-NeoX rotates a quarter of each head: a pass-through part; Llama 3.1 scales its pairs.
    for (const char* preset : {"gpt-neox-20b", "llama3.1-8b", "textbook"}) {
        for (std::int64_t delta : {0, 1, 333, 4095, 100000, 2147483647}) {
            const LabParams p = random_setting(preset, 11, delta);
            const LabData d = compute_lab_data(p);
            const DataTable t = view_data(View::Phasors, p, d);
            ASSERT_EQ(t.view, "phasors");
            ASSERT_EQ(t.columns, (std::vector<std::string>{"pair", "re", "im"}));
            const auto& pair = t.values[0];
            const auto& re = t.values[1];
            const auto& im = t.values[2];
            const int pairs = d.freqs.pairs();
            ASSERT_EQ(pair.size(), static_cast<std::size_t>(pairs) + 1) << preset;
            double l1 = 0.0;
            const double exact = reference_score(d.q, d.k, d.freqs, delta, &l1);
            // Row 0: the unrotated components' dot product, on the real axis.
            double pass = 0.0;
            for (int j = d.freqs.rotary_dim; j < d.freqs.head_dim; ++j) pass += d.q[static_cast<std::size_t>(j)] * d.k[static_cast<std::size_t>(j)];
            EXPECT_EQ(pair[0], -1.0);
            EXPECT_NEAR(re[0], pass, 1e-12 * l1) << preset;
            EXPECT_EQ(im[0], 0.0);
            if (std::string(preset) == "gpt-neox-20b") {
                EXPECT_GT(std::abs(pass), 0.1);  // the test sees a real pass-through
            }
            for (int i = 0; i < pairs; ++i) {
                const auto r = static_cast<std::size_t>(i) + 1;
                EXPECT_EQ(pair[r], i);
                const auto [a, b] = components(i, d.freqs.rotary_dim, d.freqs.layout);
                const double link = d.freqs.attention_factor * d.freqs.attention_factor *
                                    std::hypot(d.q[static_cast<std::size_t>(a)], d.q[static_cast<std::size_t>(b)]) *
                                    std::hypot(d.k[static_cast<std::size_t>(a)], d.k[static_cast<std::size_t>(b)]);
                EXPECT_NEAR(std::hypot(re[r] - re[r - 1], im[r] - im[r - 1]), link, 1e-12 * l1) << preset << " pair " << i;
            }
            EXPECT_NEAR(re.back(), exact, 1e-9 * l1) << preset << " Δ " << delta;
        }
    }
}

TEST(PhasorRows, CompareModeWritesEachSettingsChain) {
    LabParams p = random_setting("llama3.1-8b", 4, 900);
    p.compared_count = 1;
    p.compared[0].name = "neox";
    p.compared[0].source = "gpt-neox-20b";
    p.compared[0].model = preset_or_throw("gpt-neox-20b").config;
    std::vector<LabData> data;
    for (int s = 0; s < setting_count(p); ++s) data.push_back(compute_lab_data(setting_params(p, s)));
    const DataTable t = compared_view_data(View::Phasors, p, data);
    ASSERT_EQ(t.columns, (std::vector<std::string>{"setting", "pair", "re", "im"}));
    for (int s = 0; s < 2; ++s) {
        const DataTable single = view_data(View::Phasors, setting_params(p, s), data[static_cast<std::size_t>(s)]);
        std::vector<double> re;
        for (std::size_t r = 0; r < t.values[0].size(); ++r) {
            if (t.values[0][r] == s) re.push_back(t.values[2][r]);
        }
        EXPECT_EQ(re, single.values[1]) << "setting " << s;
        double l1 = 0.0;
        const double exact = reference_score(data[static_cast<std::size_t>(s)].q, data[static_cast<std::size_t>(s)].k,
                                             data[static_cast<std::size_t>(s)].freqs, 900, &l1);
        ASSERT_FALSE(re.empty());
        EXPECT_NEAR(re.back(), exact, 1e-9 * l1) << "setting " << s;
    }
}

}  // namespace
}  // namespace ropelab
