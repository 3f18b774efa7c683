// Export through the real binary, headless (EGL surfaceless): PNG, GIF, MP4, PNG sequences, CSV
// and JSON, and every failure path leaving nothing under the target name.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/run_binary.h"
#include "core/phasor_sum.h"
#include "core/presets.h"
#include "core/scores.h"
#include "core/vector_spec.h"
#include "support/gl.h"
#include "support/image.h"
#include "support/reference.h"
#include "lesson/lesson.h"

namespace ropelab {
namespace {

namespace fs = std::filesystem;
using test::Result;
using test::run;

class Export : public test::TempDirTest {
protected:
    Export() : TempDirTest("export") {}

    // "nb_read_frames,width,height,codec_name,r_frame_rate" of the first video stream.
    static std::string probe(const std::string& file) {
        const std::string command = "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                                    "stream=nb_read_frames,width,height,codec_name,r_frame_rate,pix_fmt -of "
                                    "default=noprint_wrappers=1 '" + file + "'";
        return test::capture(command).out;
    }
};

using Png = test::Image;
using test::spread;
Png load(const std::string& path) { return test::load_png(path); }

TEST_F(Export, PngAtTheAskedSizeWithContent) {
    ROPELAB_SKIP_WITHOUT_GL();
    const Result r = run("render --view scores --size 1000x600 --out " + at("s.png"));
    ASSERT_EQ(r.status, 0) << r.err;
    const Png png = load(at("s.png"));
    EXPECT_EQ(png.width, 1000);
    EXPECT_EQ(png.height, 600);
    EXPECT_GT(spread(png), 10.0);
    for (std::size_t i = 3; i < png.rgba.size(); i += 4) ASSERT_EQ(png.rgba[i], 255);
    // Another view is another picture.
    ASSERT_EQ(run("render --view heatmap --size 1000x600 --out " + at("h.png")).status, 0);
    const Png other = load(at("h.png"));
    double diff = 0;
    for (std::size_t i = 0; i < png.rgba.size(); ++i) diff += std::abs(png.rgba[i] - other.rgba[i]);
    EXPECT_GT(diff / static_cast<double>(png.rgba.size()), 5.0);
}

TEST_F(Export, TransparentPngHasAlpha) {
    ROPELAB_SKIP_WITHOUT_GL();
    ASSERT_EQ(run("render --view planes --size 400x300 --transparent --out " + at("t.png")).status, 0);
    const Png png = load(at("t.png"));
    int clear = 0, opaque = 0;
    for (std::size_t i = 3; i < png.rgba.size(); i += 4) {
        clear += png.rgba[i] == 0;
        opaque += png.rgba[i] == 255;
    }
    EXPECT_GT(clear, 100);
    EXPECT_GT(opaque, 100);
}

TEST_F(Export, Mp4FramesSizeFpsCodec) {
    ROPELAB_SKIP_WITHOUT_GL();
    const Result r = run("render --view planes --size 321x241 --frames 24 --fps 12 --animate position --out " + at("a.mp4"));
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string p = probe(at("a.mp4"));
    EXPECT_NE(p.find("codec_name=h264"), std::string::npos) << p;
    EXPECT_NE(p.find("width=322"), std::string::npos) << p;  // padded to even sizes
    EXPECT_NE(p.find("height=242"), std::string::npos) << p;
    EXPECT_NE(p.find("pix_fmt=yuv420p"), std::string::npos) << p;
    EXPECT_NE(p.find("r_frame_rate=12/1"), std::string::npos) << p;
    EXPECT_NE(p.find("nb_read_frames=24"), std::string::npos) << p;
}

TEST_F(Export, GifAndPngSequence) {
    ROPELAB_SKIP_WITHOUT_GL();
    ASSERT_EQ(run("render --view heatmap --size 200x120 --frames 8 --fps 10 --animate theta --out " + at("b.gif")).status, 0);
    const std::string p = probe(at("b.gif"));
    EXPECT_NE(p.find("codec_name=gif"), std::string::npos) << p;
    EXPECT_NE(p.find("width=200"), std::string::npos) << p;
    EXPECT_NE(p.find("nb_read_frames=8"), std::string::npos) << p;
    EXPECT_FALSE(fs::exists(at("b.gif.partial.palette.png")));

    ASSERT_EQ(run("render --view numbers --size 160x90 --frames 5 --animate distance --out " + at("seq/")).status, 0);
    int count = 0;
    for (const auto& entry : fs::directory_iterator(at("seq"))) count += entry.path().extension() == ".png";
    EXPECT_EQ(count, 5);
    EXPECT_EQ(load(at("seq/frame_00004.png")).width, 160);
}

// A data export streams its text: 2^22 distances as JSON (~360 MB of text) within 800 MB of
// address space, where the whole text used to be built in memory (bad_alloc, "internal
// error"). The file is whole: every column 2^22 numbers, the last ones equal to the CSV's.
// Reads a whole JSON file as events, without building it in memory (4M rows as a DOM took most
// of the test's time): that it is valid JSON, how many values each column holds, and the last.
class ColumnCounter : public nlohmann::json_sax<nlohmann::json> {
public:
    std::map<std::string, std::size_t> counts;
    std::map<std::string, double> last;
    bool key(string_t& k) override {
        key_ = k;
        return true;
    }
    bool start_object(std::size_t) override {
        if (++depth_ == 2) section_ = key_;
        return true;
    }
    bool end_object() override { return --depth_, true; }
    // The arrays directly under "columns".
    bool start_array(std::size_t) override { return column_ = depth_ == 2 && section_ == "columns" ? key_ : "", true; }
    bool end_array() override { return column_.clear(), true; }
    bool number_integer(number_integer_t v) override { return value(static_cast<double>(v)); }
    bool number_unsigned(number_unsigned_t v) override { return value(static_cast<double>(v)); }
    bool number_float(number_float_t v, const string_t&) override { return value(v); }
    bool null() override { return value(NAN); }
    bool boolean(bool) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
        ADD_FAILURE() << e.what();
        return false;
    }

private:
    bool value(double v) {
        if (!column_.empty()) {
            ++counts[column_];
            last[column_] = v;
        }
        return true;
    }
    std::string key_, section_, column_;
    int depth_ = 0;
};

TEST_F(Export, BigJsonDataExportStreamsWithinBoundedMemory) {
    const std::string common = "export-data --view scores --max-distance 4194304 --out ";
    const Result json = run(common + at("big.json"), "ulimit -v 800000;");
    ASSERT_EQ(json.status, 0) << json.err;
    ColumnCounter columns;
    ASSERT_TRUE(nlohmann::json::sax_parse(test::slurp(at("big.json")), &columns));
    EXPECT_EQ(columns.counts["rope"], 4194304u);
    EXPECT_EQ(columns.counts["distance"], 4194304u);
    EXPECT_EQ(columns.last["distance"], 4194303.0);
    const Result csv = run(common + at("big.csv"), "ulimit -v 800000;");
    ASSERT_EQ(csv.status, 0) << csv.err;
    const std::string text = test::slurp(at("big.csv"));
    const std::string last = text.substr(text.rfind('\n', text.size() - 2) + 1);
    std::stringstream cells(last);
    std::string distance, rope;
    std::getline(cells, distance, ',');
    std::getline(cells, rope, ',');
    EXPECT_EQ(distance, "4194303");
    EXPECT_EQ(std::stod(rope), columns.last["rope"]);
}

TEST_F(Export, CsvAndJsonValuesEqualTheCore) {
    const Result csv = run("export-data --view frequencies --preset llama3.1-8b --out " + at("f.csv"));
    ASSERT_EQ(csv.status, 0) << csv.err;
    std::ifstream in(at("f.csv"));
    std::string line;
    std::vector<std::string> header_lines, rows;
    while (std::getline(in, line)) (line.rfind('#', 0) == 0 ? header_lines : rows).push_back(line);
    EXPECT_NE(header_lines[0].find("frequencies"), std::string::npos);
    EXPECT_EQ(rows[0], "pair,inv_freq,unscaled_inv_freq,wavelength,scaling");
    const auto f = compute_frequencies(preset_or_throw("llama3.1-8b").config);
    ASSERT_EQ(rows.size(), 65u);
    for (int i = 0; i < 64; ++i) {
        std::stringstream cells(rows[static_cast<std::size_t>(i + 1)]);
        std::string pair, inv;
        std::getline(cells, pair, ',');
        std::getline(cells, inv, ',');
        EXPECT_EQ(std::stod(inv), f.inv_freq[static_cast<std::size_t>(i)]) << i;  // %.17g round trip
    }

    const Result json = run("export-data --view scores --vectors random --max-distance 2048 --out " + at("s.json"));
    ASSERT_EQ(json.status, 0) << json.err;
    std::ifstream js(at("s.json"));
    const auto j = nlohmann::json::parse(js);
    EXPECT_EQ(j["view"], "scores");
    EXPECT_EQ(j["parameters"]["head_dim"], "128");
    const auto& rope = j["columns"]["rope"];
    ASSERT_EQ(rope.size(), 2048u);
    ModelConfig m;
    const auto freqs = compute_frequencies(m);
    const auto c = score_coefficients(random_vector(1, 128), random_vector(2, 128), freqs);
    const PhasorSum sum = rope_phasor_sum(c, freqs, 2047);
    for (int d : {0, 1, 100, 2047}) EXPECT_NEAR(rope[d].get<double>(), evaluate(sum, d), 1e-5 * c.l1()) << d;
    EXPECT_EQ(j["columns"]["sinusoidal"].size(), 2048u);

    // RoFormer's bound of |rope − pass| for these q, k, and the paper's relative curve.
    const auto& bound = j["columns"]["bound"];
    const auto& relative = j["columns"]["relative_bound"];
    ASSERT_EQ(bound.size(), 2048u);
    ASSERT_EQ(relative.size(), 2048u);
    EXPECT_DOUBLE_EQ(relative[0].get<double>(), 1.0);
    EXPECT_NEAR(bound[0].get<double>(), roformer_bound_factor(c) * 32.5, 1e-9 * bound[0].get<double>());
    for (std::size_t d = 0; d < 2048; ++d) {
        EXPECT_LE(std::abs(rope[d].get<double>() - c.passthrough), bound[d].get<double>() + 1e-5 * c.l1()) << d;
        EXPECT_LE(relative[d].get<double>(), 1.0 + 1e-12) << d;
    }
}

// A naive angle mode's curve is exported beside the exact one, with its error, as the view draws
// them: rope stays exact, rope_bf16 is the mode's, bf16_minus_exact their difference.
nlohmann::json read_json(const std::string& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

// Compare mode: one export holds every setting's series, each identical to that setting's own
// single export (the same numbers, to the last digit), with the settings named in the metadata.
TEST_F(Export, CompareExportsEqualSingleExports) {
    const std::string common = " --vectors random --max-distance 512 --position 700 --pair 5";
    const std::string singles[] = {"--preset llama2-7b", "--preset llama3-8b", "--preset llama2-7b --rope-type yarn --factor 8",
                                   "--preset gemma3-4b --layer-type sliding_attention"};
    const std::string slugs[] = {"llama2_7b", "llama3_8b", "yarn", "gemma3_4b_sliding_attention"};
    for (const std::string view : {"scores", "frequencies", "numbers", "planes", "precision", "heatmap"}) {
        const Result r = run("export-data --view " + view + common + " --preset llama2-7b --compare llama3-8b --compare "
                             "rope_type=yarn,factor=8,name=yarn --compare gemma3-4b@sliding_attention --out " + at("c.json"));
        ASSERT_EQ(r.status, 0) << r.err;
        const auto compared = read_json(at("c.json"));
        EXPECT_NE(compared["parameters"]["setting_3"].get<std::string>().find("yarn"), std::string::npos);
        for (int i = 0; i < 4; ++i) {
            ASSERT_EQ(run("export-data --view " + view + common + " " + singles[i] + " --out " + at("s.json")).status, 0);
            const auto single = read_json(at("s.json"));
            for (const auto& [name, values] : single["columns"].items()) {
                const std::string key = slugs[i] + "." + name;
                // The index column (distance, pair, position) is shared when every setting has the same one.
                const auto& got = compared["columns"].contains(key) ? compared["columns"][key] : compared["columns"][name];
                EXPECT_EQ(got, values) << view << " " << key;
            }
            EXPECT_EQ(compared["parameters"][slugs[i] + ".head_dim"], single["parameters"]["head_dim"]) << view;
        }
    }
    // The command line's own tables: each setting's columns are its single run's.
    const Result c = run("freqs --preset llama2-7b --compare llama3-8b --format json");
    const Result s = run("freqs --preset llama3-8b --format json");
    ASSERT_EQ(c.status, 0) << c.err;
    EXPECT_EQ(nlohmann::json::parse(c.out)["llama3_8b.inv_freq"], nlohmann::json::parse(s.out)["inv_freq"]);
    EXPECT_EQ(nlohmann::json::parse(c.out)["settings"][1]["name"], "llama3-8b");
    const Result cs = run("scores --device cpu --max-distance 300 --q random:3 --k random:4 --preset llama2-7b --compare llama3-8b --format json");
    const Result ss = run("scores --device cpu --max-distance 300 --q random:3 --k random:4 --preset llama3-8b --format json");
    ASSERT_EQ(cs.status, 0) << cs.err;
    EXPECT_EQ(nlohmann::json::parse(cs.out)["llama3_8b.score"], nlohmann::json::parse(ss.out)["score"]);
}

// A bad SPEC names the problem and exits 2; nothing is written.
TEST_F(Export, BadCompareSpecsAreRefused) {
    const std::pair<std::string, std::string> cases[] = {
        {"scores --compare rope_type=yarm", "--compare \"rope_type=yarm\": model.rope_scaling.rope_type = \"yarm\" is unknown"},
        {"freqs --compare nosuch", "\"nosuch\" is not a preset, a config file, or key=value overrides"},
        {"scores --compare factor=1e9", "model.rope_scaling.factor = 1000000000 is out of range"},
        {"freqs --compare theta=inf", "rope_theta"},
        {"freqs --compare a --compare b --compare c --compare d", "4 settings beside the base; at most 3"},
        {"scores --compare gemma3-4b@nope", "no layer type \"nope\""},
        {"freqs --comparison nope", "unknown comparison \"nope\""},
        {"freqs --comparison gemma3-layers --preset llama3-8b", "leave out --preset"},
        {"export-data --view scores --vectors custom --custom-q ones --compare gemma3-4b --out " + at("x.csv"), "head_dim 256, the base 128"},
        {"render --view scores --compare speed=3 --out " + at("x.png"), "unknown key \"speed\""},
    };
    for (const auto& [args, words] : cases) {
        const Result r = run(args);
        EXPECT_EQ(r.status, 2) << args;
        EXPECT_NE(r.err.find(words), std::string::npos) << args << ": " << r.err;
    }
    EXPECT_FALSE(fs::exists(at("x.csv")));
    EXPECT_FALSE(fs::exists(at("x.png")));
}

// Golden images of the four built-in comparisons (rendered headless by this app, looked at,
// committed; README gallery). Tolerance: mean channel difference below 1.5 of 255.
TEST_F(Export, BuiltInComparisonGoldens) {
    ROPELAB_SKIP_WITHOUT_GL();
    for (const std::string name : {"llama3.1-scaling", "gemma3-layers", "llama2-vs-llama3", "interleaved-vs-half"}) {
        const std::string golden = std::string(ROPELAB_SOURCE_DIR) + "/tests/ui/golden/compare-" + name + ".png";
        const bool update = std::getenv("ROPELAB_UPDATE_GOLDEN") != nullptr;
        const std::string out = update ? golden : at(name + ".png");
        const Result r = run("render --comparison " + name + " --view all --workspace all --size 1280x720 --out " + out);
        ASSERT_EQ(r.status, 0) << r.err;
        if (update) continue;
        const Png image = load(out), expected = load(golden);
        ASSERT_EQ(expected.width, 1280) << "missing " << golden;
        ASSERT_EQ(image.rgba.size(), expected.rgba.size());
        double diff = 0;
        for (std::size_t i = 0; i < image.rgba.size(); ++i) diff += std::abs(image.rgba[i] - expected.rgba[i]);
        EXPECT_LT(diff / static_cast<double>(image.rgba.size()), 1.5) << name << " differs from " << golden;
    }
}

TEST_F(Export, NaiveModeBesideTheExactCurve) {
    const Result r = run("export-data --view scores --vectors random --angle-mode bf16 --max-distance 1024 --out " + at("b.json"));
    ASSERT_EQ(r.status, 0) << r.err;
    std::ifstream js(at("b.json"));
    const auto j = nlohmann::json::parse(js);
    const auto &rope = j["columns"]["rope"], &mode = j["columns"]["rope_bf16"], &error = j["columns"]["bf16_minus_exact"];
    ASSERT_EQ(rope.size(), 1024u);
    ASSERT_EQ(mode.size(), 1024u);
    ASSERT_EQ(error.size(), 1024u);
    const auto freqs = compute_frequencies(ModelConfig{});
    const auto c = score_coefficients(random_vector(1, 128), random_vector(2, 128), freqs);
    const PhasorSum sum = rope_phasor_sum(c, freqs, 1023);
    double largest = 0;
    for (int d : {0, 1, 100, 1023}) {
        EXPECT_NEAR(rope[d].get<double>(), evaluate(sum, d), 1e-5 * c.l1()) << d;
        EXPECT_NEAR(mode[d].get<double>(), evaluate(sum, d, AngleMode::Bf16), 1e-5 * c.l1()) << d;
        const double difference = evaluate(sum, d, AngleMode::Bf16) - evaluate(sum, d);
        EXPECT_NEAR(error[d].get<double>(), difference, 1e-12 * c.l1()) << d;
        largest = std::max(largest, std::abs(difference));
    }
    EXPECT_GT(largest, 1e-5 * c.l1());  // bf16's error is far above the float curves' tolerance
}

// The numbers view's data: cos and sin as HF applies them, times YaRN's attention factor.
TEST_F(Export, NumbersCarryTheAttentionFactor) {
    for (const std::string preset : {"textbook", "qwen2.5-7b-yarn"}) {
        const Result r = run("export-data --view numbers --preset " + preset + " --position 5 --pair 3 --out " + at("n.json"));
        ASSERT_EQ(r.status, 0) << r.err;
        std::ifstream js(at("n.json"));
        const auto j = nlohmann::json::parse(js);
        const double a = j["columns"]["attention_factor"][0], angle = j["columns"]["reduced_angle"][0];
        EXPECT_NEAR(a, preset == "textbook" ? 1.0 : 0.1 * std::log(4.0) + 1.0, 1e-15) << preset;
        EXPECT_NEAR(j["columns"]["cos"][0].get<double>(), a * std::cos(angle), 1e-15) << preset;
        EXPECT_NEAR(j["columns"]["sin"][0].get<double>(), a * std::sin(angle), 1e-15) << preset;
    }
}

// Every scene of the built-in lesson renders headless as a slide, and the whole lesson as an
// MP4 whose length is the lesson's duration.
TEST_F(Export, LessonSlidesAndVideo) {
    ROPELAB_SKIP_WITHOUT_GL();
    for (int k = 1; k <= 11; ++k) {
        const std::string png = at("slide" + std::to_string(k) + ".png");
        const Result r = run("render --lesson builtin --scene " + std::to_string(k) + " --size 640x360 --out " + png);
        ASSERT_EQ(r.status, 0) << "scene " << k << ": " << r.err;
        EXPECT_GT(spread(load(png)), 10.0) << "scene " << k;
    }
    const Result r = run("render --lesson builtin --size 320x180 --fps 1 --out " + at("lesson.mp4"));
    ASSERT_EQ(r.status, 0) << r.err;
    double seconds = 0;
    for (const Scene& scene : load_lesson("builtin").scenes) seconds += scene.duration;
    const std::string p = probe(at("lesson.mp4"));
    EXPECT_NE(p.find("nb_read_frames=" + std::to_string(static_cast<int>(std::ceil(seconds)))), std::string::npos)
        << p;  // the lesson's length at 1 fps
    const Result bad = run("render --lesson builtin --scene 40 --out " + at("x.png"));
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("--scene"), std::string::npos) << bad.err;
}

// Bad requests: exit 2, the reason on stderr, nothing under the target name.
TEST_F(Export, BadRequestsAreRefused) {
    struct Case {
        std::string args, mentions, target;
    };
    const std::vector<Case> cases = {
        {"render --size 0x100 --out " + at("z.png"), "--size", at("z.png")},
        {"render --size 9000x100 --out " + at("z.png"), "--size", at("z.png")},
        {"render --out " + at("z.bmp"), "--out", at("z.bmp")},
        {"render --out /nonexistent/folder/z.png", "does not exist", "/nonexistent/folder/z.png"},
        {"render --view nosuch --out " + at("z.png"), "nosuch", at("z.png")},
        {"export-data --view scores --out " + at("z.xml"), "--out", at("z.xml")},
        {"export-data --view scores --out /nonexistent/folder/z.csv", "does not exist", "/nonexistent/folder/z.csv"},
    };
    for (const Case& c : cases) {
        const Result r = run(c.args);
        EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
        EXPECT_NE(r.err.find(c.mentions), std::string::npos) << c.args << "\n" << r.err;
        EXPECT_FALSE(fs::exists(c.target)) << c.target;
    }
}

// Extreme settings export finite numbers only (a non-finite value would be written as null).
TEST_F(Export, ExtremeSettingsExportOnlyFiniteNumbers) {
    const std::string model = " --head-dim 512 --rope-theta 1e9 --rope-type yarn --factor 1000 "
                              "--original-max-position-embeddings 4096 --position 2147483647 --max-distance 65536";
    for (const ViewRow& row : view_table()) {
        const std::string view(row.name);
        if (row.id == View::Weights) continue;  // a model file's weights, not these settings': cli/test_weights_export.cpp
        const Result r = run("export-data --view " + view + model + " --out " + at(view + ".csv"));
        ASSERT_EQ(r.status, 0) << view << ": " << r.err;
        std::ifstream in(at(view + ".csv"));
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        EXPECT_GT(text.size(), 200u) << view;
        for (const char* bad : {"null", "nan", "inf"}) EXPECT_EQ(text.find(bad), std::string::npos) << view << " has " << bad;
    }
}

// Degenerate settings say so in the exported metadata, as the panel does; ordinary ones do not.
TEST_F(Export, DataCarriesTheMathNotes) {
    const Result collapsed = run("export-data --view scores --rope-theta 1.0001 --out " + at("c.json"));
    ASSERT_EQ(collapsed.status, 0) << collapsed.err;
    std::ifstream in(at("c.json"));
    const auto json = nlohmann::json::parse(in);
    const std::string warning = json["parameters"].value("warning_1", "");
    EXPECT_NE(warning.find("frequency ladder has collapsed"), std::string::npos) << json["parameters"].dump();
    const Result textbook = run("export-data --view scores --max-distance 512 --out " + at("t.csv"));
    ASSERT_EQ(textbook.status, 0) << textbook.err;
    std::ifstream csv(at("t.csv"));
    const std::string text((std::istreambuf_iterator<char>(csv)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text.find("# warning_"), std::string::npos) << text.substr(0, 600);
}

TEST_F(Export, MissingFfmpegNamesThePackage) {
    ROPELAB_SKIP_WITHOUT_GL();
    fs::create_directories(at("empty_path"));
    const Result r = run("render --view planes --size 160x90 --frames 3 --out " + at("c.mp4"), "PATH=" + at("empty_path"));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("apt-get install ffmpeg"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("DIR/"), std::string::npos) << r.err;  // offers the PNG sequence
    EXPECT_FALSE(fs::exists(at("c.mp4")));
    EXPECT_FALSE(fs::exists(at("c.mp4.partial")));
}

// ffmpeg dying mid-stream (here: a stand-in that reads a little and is killed): an error, no
// crash from SIGPIPE, nothing under the target name.
TEST_F(Export, FfmpegKilledMidExport) {
    ROPELAB_SKIP_WITHOUT_GL();
    fs::create_directories(at("bin"));
    {
        std::ofstream script(at("bin/ffmpeg"));
        script << "#!/bin/sh\nhead -c 100000 > /dev/null\nkill -9 $$\n";
    }
    fs::permissions(at("bin/ffmpeg"), fs::perms::owner_all);
    const Result r = run("render --view planes --size 320x240 --frames 30 --out " + at("k.mp4"),
                         "PATH=" + at("bin") + ":/usr/bin:/bin");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("ffmpeg"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("nothing was written"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(at("k.mp4")));
    EXPECT_FALSE(fs::exists(at("k.mp4.partial")));
}

// export-data --view phasors: the chain's rows, the last row's re the score at Δ = --key-distance
// from an independent float64 computation (q rotated at m, k at m − Δ, long double angles).
TEST_F(Export, PhasorChainEndsAtTheScore) {
    const ModelConfig model = preset_or_throw("llama3.1-8b").config;
    const RopeFrequencies f = compute_frequencies(model);
    const auto q = random_vector(21, model.head_dim), k = random_vector(22, model.head_dim);
    for (std::int64_t delta : {0, 7, 4096, 100000}) {
        const std::string out = at("p" + std::to_string(delta) + ".csv");
        const Result r = run("export-data --view phasors --preset llama3.1-8b --vectors random --seed 21 --key-distance " +
                             std::to_string(delta) + " --out " + out);
        ASSERT_EQ(r.status, 0) << r.err;
        std::ifstream in(out);
        std::string line, last, header;
        bool key_distance_named = false;
        int rows = 0;
        while (std::getline(in, line)) {
            if (line.rfind('#', 0) == 0) {
                key_distance_named = key_distance_named || line == "# key_distance: " + std::to_string(delta);
            } else if (header.empty()) {
                header = line;
            } else {
                last = line;
                ++rows;
            }
        }
        EXPECT_TRUE(key_distance_named);
        EXPECT_EQ(header, "pair,re,im");
        EXPECT_EQ(rows, f.pairs() + 1);  // the pass-through row, then one per pair
        std::stringstream cells(last);
        std::string pair, re;
        std::getline(cells, pair, ',');
        std::getline(cells, re, ',');
        EXPECT_EQ(pair, std::to_string(f.pairs() - 1));
        long double score = 0, l1 = 0;
        for (int i = 0; i < f.pairs(); ++i) {  // Llama: rotate_half pairs (i, i + d/2)
            const auto a = static_cast<std::size_t>(i), b = static_cast<std::size_t>(i + f.rotary_dim / 2);
            const std::complex<double> c = std::complex<double>(q[a], q[b]) * std::conj(std::complex<double>(k[a], k[b]));
            score += (c * std::polar(1.0, test::reference_angle(f.inv_freq[a], delta))).real();
            l1 += std::abs(c);
        }
        EXPECT_NEAR(std::stod(re), static_cast<double>(score), 1e-9 * static_cast<double>(l1)) << "Δ " << delta;
    }
    // Compare mode: each setting's chain, told apart by a setting column.
    const Result c = run("export-data --view phasors --preset llama3.1-8b --vectors random --seed 21 --compare llama2-7b "
                         "--key-distance 50 --out " + at("c.json"));
    ASSERT_EQ(c.status, 0) << c.err;
    const auto j = read_json(at("c.json"));
    ASSERT_TRUE(j["columns"].contains("setting"));
    EXPECT_EQ(j["columns"]["setting"].size(), 2u * (static_cast<std::size_t>(f.pairs()) + 1));
    EXPECT_EQ(j["columns"]["setting"].back().get<double>(), 1.0);
}

}  // namespace
}  // namespace ropelab
