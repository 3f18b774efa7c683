// One command-line vocabulary (issue 22): a field has the same flag, range and help words in every
// subcommand that takes it, because every subcommand registers it from the same schema row. These
// run the real binary, so a subcommand that grew its own spelling or range fails here by name.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <numbers>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/run_binary.h"

namespace {

using ropelab::test::Result;
using ropelab::test::run;

std::string temp(const std::string& name) { return ::testing::TempDir() + "/rl_vocab_" + name; }

// A cheap invocation of each subcommand, to which a field's flag is appended. The outputs are
// small (N = 16, a 64x64 image); gui runs one frame, or stops at "cannot open a window" (exit 1)
// where there is no display: either way its options were accepted.
std::string invocation(const std::string& sub) {
    if (sub == "angles") return "angles --position 3";
    if (sub == "scores") return "scores --max-distance 16 --device reference";
    if (sub == "invariance") return "invariance --positions 5:9";
    if (sub == "decay-bound") return "decay-bound --max-distance 16 --device reference";
    if (sub == "render") return "render --view frequencies --size 64x64 --out " + temp("render.png");
    if (sub == "export-data") return "export-data --view frequencies --max-distance 16 --out " + temp("data.csv");
    if (sub == "gui") return "gui --frames 1 --size 64x64";
    return sub;
}

// The invocation without a flag of its own (a flag given twice is refused before its value is read).
std::string without(const std::string& args, const std::string& flag) {
    return std::regex_replace(args, std::regex(" " + flag + " \\S+"), "");
}

// A field shared by several subcommands: a valid value, and one just outside each end of its range.
struct Shared {
    std::string flag;
    std::string path;  // as the refusal names it
    std::string valid;
    std::vector<std::string> outside;
    std::vector<std::string> subcommands;
};

const std::vector<std::string> kAll = {"freqs", "angles", "scores", "invariance", "decay-bound", "render", "export-data", "gui"};
const std::vector<std::string> kVectorTakers = {"scores", "invariance", "render", "export-data", "gui"};
const std::vector<std::string> kLab = {"render", "export-data", "gui"};

std::vector<std::string> plus(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

const std::vector<Shared>& shared_fields() {
    static const std::vector<Shared> fields = {
        {"--head-dim", "model.head_dim", "64", {"1", "513"}, kAll},
        {"--rope-theta", "model.rope_theta", "1e12", {"1", "1000000000001", "nan"}, kAll},  // finiteness too
        {"--layout", "model.layout", "half", {"sideways"}, kAll},
        {"--vectors", "curves.vectors", "random", {"diagonal"}, kVectorTakers},
        {"--seed", "curves.seed", "4294967295", {"-1", "4294967296"}, kVectorTakers},
        {"--pair", "focus.pair", "31", {"-1", "256"}, kVectorTakers},  // head dim 64: pairs 0 .. 31
        // q and k are text: too long is their range (the vector itself is read where it is used).
        {"--q", "curves.custom_q", "ones", {std::string(65537, '1')}, kVectorTakers},
        {"--k", "curves.custom_k", "ones", {std::string(65537, '1')}, kVectorTakers},
        {"--samples", "curves.samples", "65536", {"0", "65537"}, kVectorTakers},
        {"--max-distance", "curves.max_distance", "16", {"15", "16777217"}, plus({"scores", "decay-bound"}, kLab)},
        {"--encoding", "curves.encoding", "sinusoidal", {"additive"}, plus({"scores", "invariance"}, kLab)},
        {"--angle-mode", "curves.angle_mode", "bf16", {"fp8"}, plus({"scores"}, kLab)},
        {"--position", "focus.position", "2147483647", {"-1", "2147483648"}, plus({"angles"}, kLab)},
        {"--invariance-distance", "curves.invariance_distance", "2147483647", {"-1", "2147483648"},
         plus({"invariance"}, kLab)},
    };
    return fields;
}

bool takes(const Shared& f, const std::string& sub) {
    return std::find(f.subcommands.begin(), f.subcommands.end(), sub) != f.subcommands.end();
}

// A value just outside the range is refused the same way by every subcommand: exit 2, nothing on
// stdout, and one message naming the flag, the field and the value.
TEST(CliVocabulary, OutOfRangeIsRefusedAlikeEverywhere) {
    for (const Shared& f : shared_fields()) {
        for (const std::string& sub : f.subcommands) {
            for (const std::string& bad : f.outside) {
                const std::string args = without(invocation(sub), f.flag) + " " + f.flag + " " + bad;
                const Result r = run(args);
                EXPECT_EQ(r.status, 2) << f.flag << " in " << sub << "\n" << r.err;
                EXPECT_TRUE(r.out.empty()) << f.flag << " in " << sub;
                EXPECT_NE(r.err.find(f.flag + ": " + f.path + " = "), std::string::npos) << f.flag << " in " << sub << "\n" << r.err;
                EXPECT_NE(r.err.find(bad.substr(0, 40)), std::string::npos) << f.flag << " in " << sub << "\n" << r.err;
            }
        }
    }
}

// Every shared field's valid value at once: each subcommand accepts what the others do.
TEST(CliVocabulary, ValidValuesAreAcceptedEverywhere) {
    for (const std::string& sub : kAll) {
        std::string args = invocation(sub);
        for (const Shared& f : shared_fields()) {
            if (!takes(f, sub)) continue;
            // The lab draws one encoding beside the other; the core subcommands compute the one given.
            if (f.flag == "--encoding" && sub != "scores" && sub != "invariance") {
                args += " --encoding both";
                continue;
            }
            if (f.flag == "--angle-mode" && sub == "scores") continue;  // bf16 is rope's alone (sinusoidal above)
            if (args.find(" " + f.flag + " ") != std::string::npos) continue;  // in the invocation already
            args += " " + f.flag + " " + f.valid;
        }
        const Result r = run(args);
        if (sub == "gui") {  // no display: the options passed, the window did not open
            EXPECT_NE(r.status, 2) << args << "\n" << r.err;
            EXPECT_EQ(r.err.find("error:"), std::string::npos) << args << "\n" << r.err;
        } else {
            EXPECT_EQ(r.status, 0) << args << "\n" << r.err;
        }
    }
}

// The angle at the largest position the schema allows, computed here: head dim 2 has one pair
// with inv_freq 1, so the angle is m radians, wrapped into (-180°, 180°].
TEST(CliVocabulary, AnglesAtTheLargestPosition) {
    const Result r = run("angles --head-dim 2 --position 2147483647 --format json");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    // long double: 2π's rounding times 2^31 stays far below the tolerance.
    const long double pi = std::numbers::pi_v<long double>;
    double expected = static_cast<double>(std::remainder(2147483647.0L, 2 * pi) * 180.0L / pi);
    if (expected <= -180.0) expected += 360.0;
    EXPECT_NEAR(j["angle_deg"][0].get<double>(), expected, 1e-6);
}

// --q and --k mean the same in `scores` and in the lab's exports: the same vectors give the same
// curve (the export is float32, hence the tolerance).
TEST(CliVocabulary, QAndKAreOneSpelling) {
    const std::string q = "random:3", k = "random:4";
    const Result scores = run("scores --max-distance 64 --device reference --format json --q " + q + " --k " + k);
    ASSERT_EQ(scores.status, 0) << scores.err;
    const Result data = run("export-data --view scores --max-distance 64 --q " + q + " --k " + k + " --out " + temp("qk.json"));
    ASSERT_EQ(data.status, 0) << data.err;
    EXPECT_TRUE(data.err.empty()) << data.err;  // the new spelling says nothing
    std::ifstream in(temp("qk.json"));
    const auto exported = nlohmann::json::parse(in);
    const auto& rope = exported["columns"]["rope"];
    const auto scored = nlohmann::json::parse(scores.out);
    const auto& score = scored["score"];
    ASSERT_EQ(rope.size(), 64u);
    ASSERT_EQ(score.size(), 64u);
    for (std::size_t d = 0; d < 64; ++d) {
        EXPECT_NEAR(rope[d].get<double>(), score[d].get<double>(), 1e-4 * (1 + std::abs(score[d].get<double>()))) << d;
    }
    // --vectors random is the lab's random pair (seed, seed + 1) in every subcommand.
    const Result seeded = run("scores --max-distance 64 --device reference --format json --vectors random --seed 3");
    ASSERT_EQ(seeded.status, 0) << seeded.err;
    EXPECT_EQ(nlohmann::json::parse(seeded.out)["score"], score);
}

// The old spellings still work, give the same numbers, and say once on stderr what replaces them.
TEST(CliVocabulary, OldSpellingsWorkWithANote) {
    const std::string vectors = " --view scores --max-distance 16 --vectors custom --q random:1 --k random:2";
    const std::string old_vectors = " --view scores --max-distance 16 --vectors custom --custom-q random:1 --custom-k random:2";
    const Result now = run("export-data" + vectors + " --out " + temp("new.csv"));
    const Result old = run("export-data" + old_vectors + " --out " + temp("old.csv"));
    ASSERT_EQ(now.status, 0) << now.err;
    ASSERT_EQ(old.status, 0) << old.err;
    EXPECT_NE(old.err.find("ropelab: note: --custom-q is now --q; the old spelling goes in the next release"), std::string::npos)
        << old.err;
    EXPECT_NE(old.err.find("ropelab: note: --custom-k is now --k; the old spelling goes in the next release"), std::string::npos)
        << old.err;
    EXPECT_EQ(ropelab::test::slurp(temp("new.csv")), ropelab::test::slurp(temp("old.csv")));

    const Result inv_now = run("invariance --invariance-distance 7 --positions 5:9 --encoding sinusoidal");
    const Result inv_old = run("invariance --distance 7 --positions 5:9 --encoding sinusoidal");
    ASSERT_EQ(inv_old.status, 0) << inv_old.err;
    EXPECT_EQ(inv_old.out, inv_now.out);
    EXPECT_NE(inv_old.err.find("--distance is now --invariance-distance"), std::string::npos) << inv_old.err;

    // An old spelling reaches the same field and range: refused naming the new flag.
    const Result scale = run("render --scale 9 --out " + temp("never.png"));
    EXPECT_EQ(scale.status, 2);
    EXPECT_NE(scale.err.find("--scale is now --ui-scale"), std::string::npos) << scale.err;
    EXPECT_NE(scale.err.find("--ui-scale: layout.ui_scale = 9 is out of range (1 .. 4)"), std::string::npos) << scale.err;
}

// --q alone means custom vectors and --samples alone the mean of S random ones, in `scores` as in
// the lab's subcommands (without --vectors, as `scores` always read them).
TEST(CliVocabulary, VectorFlagsImplyTheirChoice) {
    const Result implied = run("scores --max-distance 16 --device reference --format json --q random:5 --k random:5");
    const Result chosen = run("scores --max-distance 16 --device reference --format json --vectors custom --q random:5 --k random:5");
    ASSERT_EQ(implied.status, 0) << implied.err;
    EXPECT_EQ(implied.out.substr(implied.out.find("\"score\"")), chosen.out.substr(chosen.out.find("\"score\"")));
    const Result ones = run("scores --max-distance 16 --device reference --format json");
    EXPECT_NE(implied.out.substr(implied.out.find("\"score\"")), ones.out.substr(ones.out.find("\"score\"")));

    const Result mean = run("export-data --view scores --max-distance 16 --samples 2 --out " + temp("mean.json"));
    ASSERT_EQ(mean.status, 0) << mean.err;
    std::ifstream in(temp("mean.json"));
    EXPECT_EQ(nlohmann::json::parse(in)["parameters"]["vectors"], "Mean of S random (k = q)");
}

// The help line of a flag, spaces collapsed (column padding differs with the longest name).
std::string help_line(const std::string& help, const std::string& flag) {
    std::istringstream lines(help);
    std::string line;
    const std::regex option("^\\s+" + flag + "(\\s|$)");
    while (std::getline(lines, line)) {
        // angles requires --position, the lab does not: the words are the same.
        if (std::regex_search(line, option)) return std::regex_replace(line, std::regex("\\s+(REQUIRED\\s*)?"), " ");
    }
    return "";
}

TEST(CliVocabulary, HelpShowsTheSameWordsForTheSameFlag) {
    std::map<std::string, std::string> helps;
    for (const std::string& sub : kAll) helps[sub] = run(sub + " --help").out;
    for (const Shared& f : shared_fields()) {
        const std::string first = help_line(helps[f.subcommands.front()], f.flag);
        EXPECT_FALSE(first.empty()) << f.flag << " in " << f.subcommands.front();
        for (const std::string& sub : f.subcommands) EXPECT_EQ(help_line(helps[sub], f.flag), first) << f.flag << " in " << sub;
    }
    // The range is stated in the help, in the refusal's words; the old spellings stay out of it.
    EXPECT_NE(help_line(helps["scores"], "--max-distance").find("(16 .. 16777216)"), std::string::npos);
    EXPECT_NE(help_line(helps["render"], "--q").find("ones | random:SEED"), std::string::npos);
    for (const std::string& sub : kAll) {
        for (const char* old : {"--custom-q", "--custom-k", "--scale ", "--distance "}) {
            EXPECT_EQ(helps[sub].find(old), std::string::npos) << old << " in " << sub;
        }
    }
}

// Whole numbers are decimal even with a leading zero (CLI11 alone reads "010" as octal 8), and
// the sweep's ends are finite: nan and inf are refused, not clamped.
TEST(CliVocabulary, LeadingZerosAreDecimalAndSweepEndsFinite) {
    const Result octal = run("scores --repeat 010 --max-distance 16 --format json");
    EXPECT_EQ(octal.status, 0) << octal.err;
    for (const char* bad : {"--from nan", "--to inf", "--from -inf", "--to NaN"}) {
        const Result r = run(std::string("render --view scores --frames 2 ") + bad + " --out /nonexistent/never/");
        EXPECT_EQ(r.status, 2) << bad;
        EXPECT_NE(r.err.find("must be a finite number"), std::string::npos) << bad << ": " << r.err;
        EXPECT_TRUE(r.out.empty());
    }
    const Result negative = run("render --view scores --frames -010 --out /nonexistent/never/");
    EXPECT_EQ(negative.status, 2);
    EXPECT_NE(negative.err.find("--frames"), std::string::npos) << negative.err;
}

// An empty value names nothing: refused with exit 2 naming the flag, never ignored (an ignored
// `--config ""` computed the textbook model as if asked for). A SPEC item needs a key.
TEST(CliVocabulary, EmptyValuesAreRefused) {
    for (const std::string args : {"export-data --view scores --config '' --out x.csv", "export-data --view scores --session '' --out x.csv",
                                   "export-data --view scores --preset '' --out x.csv", "export-data --view scores --out ''",
                                   "freqs --compare ''", "render --lesson '' --out x.png", "gui --frames 1 --screenshot ''",
                                   "gui --script ''"}) {
        const Result r = run(args);
        EXPECT_EQ(r.status, 2) << args;
        EXPECT_NE(r.err.find("must not be empty"), std::string::npos) << args << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << args;
    }
    const Result spec = run("freqs --compare 'partial_rotary_factor=0.5,=64'");
    EXPECT_EQ(spec.status, 2);
    EXPECT_NE(spec.err.find("\"=64\" has no key before '='"), std::string::npos) << spec.err;
}

}  // namespace
