// Vector figures through the real binary: `render --out F.svg|F.pdf` for every view and the
// whole lab. The SVG is XML with its captions and axis labels as <text>; the PDF's text is found
// by pdftotext, its font embedded (pdffonts), and rasterised by pdftoppm it looks like the PNG.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>


#include "state/view_table.h"
#include "support/files.h"
#include "support/gl.h"
#include "support/image.h"
#include "support/run_binary.h"

namespace ropelab {
namespace {

namespace fs = std::filesystem;
using test::run;

class Figures : public test::TempDirTest {
protected:
    Figures() : TempDirTest("figures") {}
    void SetUp() override {
        ROPELAB_SKIP_WITHOUT_GL();
        TempDirTest::SetUp();
    }
    // A shell command's stdout and exit status.
    static std::pair<std::string, int> shell(const std::string& command) {
        const test::Result r = test::capture(command);
        return {r.out, r.status};
    }
};

std::string decoded(std::string t) {
    for (const auto& [entity, ch] : std::map<std::string, std::string>{{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&amp;", "&"}}) {
        for (std::size_t p; (p = t.find(entity)) != std::string::npos;) t.replace(p, entity.size(), ch);
    }
    return t;
}

// A number attribute of an element's attributes, 0 where absent.
double number_attribute(const std::string& attributes, const std::string& name) {
    std::smatch m;
    return std::regex_search(attributes, m, std::regex(" " + name + "=\"([-0-9.]+)\"")) ? std::stod(m[1]) : 0.0;
}

// Every <text> element's content, entities decoded, one per line. Typeset maths (tspans whose
// dy moves the baseline) is written back as markup, by where it sits: raised text as ^{…},
// lowered as _{…}, so "x + p_{m}" says the m is a subscript.
std::string svg_texts(const std::string& svg) {
    static const std::regex element("<text[^>]*>(.*?)</text>");
    static const std::regex tspan("<tspan([^>]*)>([^<]*)</tspan>");
    std::string out;
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), element); it != std::sregex_iterator(); ++it) {
        const std::string inner = (*it)[1];
        if (inner.find("<tspan") == std::string::npos) {
            out += decoded(inner) + "\n";
            continue;
        }
        double height = 0;
        for (auto span = std::sregex_iterator(inner.begin(), inner.end(), tspan); span != std::sregex_iterator(); ++span) {
            height -= number_attribute((*span)[1], "dy");
            const std::string text = decoded((*span)[2]);
            out += height > 0.01 ? "^{" + text + "}" : height < -0.01 ? "_{" + text + "}" : text;
        }
        out += "\n";
    }
    return out;
}

// What each view must say in words: its title, caption and axis labels.
const std::map<std::string, std::vector<std::string>>& expected_words() {
    static const std::map<std::string, std::vector<std::string>> words = {
        {"planes", {"1 Rotation planes", "q at m = 0"}},
        {"contrast", {"2 Addition vs rotation", "addition: x + p_{m}"}},
        {"scores", {"3 Score vs distance", "distance Δ", "RoFormer bound", "RoPE"}},
        {"invariance", {"4 Translation invariance", "query position m"}},
        {"heatmap", {"5 Angle heatmap", "−π/2", "pair i"}},
        {"frequencies", {"6 Frequencies and scaling", "wavelength 2π/θ_{i}", "training context L₀"}},
        {"numbers", {"7 Numbers", "rad per position"}},
        {"precision", {"8 Precision", "angle error (rad)", "position m"}},
        {"phasors", {"score = Re(sum)", "Im"}},
        {"all", {"Preset", "3 Score vs distance", "distance Δ", "5 Angle heatmap"}},
    };
    return words;
}

// Every row of the view table and the whole window: its title (the table's) and the words above.
std::vector<std::pair<std::string, std::vector<std::string>>> every_view_and_its_words() {
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    for (const ViewRow& row : view_table()) {
        std::vector<std::string> words{std::string(row.title)};
        if (const auto it = expected_words().find(std::string(row.name)); it != expected_words().end()) {
            words.insert(words.end(), it->second.begin(), it->second.end());
        }
        out.emplace_back(std::string(row.name), words);
    }
    out.emplace_back("all", expected_words().at("all"));
    return out;
}

// The render arguments for a view; "all": the whole window in the workspace that holds every view
// (the default workspace, Overview, shows three).
std::string view_arguments(const std::string& view) { return "--view " + view + (view == "all" ? " --workspace all" : ""); }

// The views whose pictures travel as embedded images: the heatmap's texture and the attention
// matrix's panels (the image grid draws its cells as rectangles).
bool draws_an_image(const std::string& view) { return view == "heatmap" || view == "attention" || view == "all"; }

TEST_F(Figures, SvgOfEveryViewIsXmlWithItsWordsAsText) {
    for (const auto& [view, words] : every_view_and_its_words()) {
        const std::string svg = at(view + ".svg");
        const auto r = run("render " + view_arguments(view) + " --size 1280x720 --out " + svg);
        ASSERT_EQ(r.status, 0) << view << ": " << r.err;
        EXPECT_EQ(shell("xmllint --noout '" + svg + "' 2>&1").second, 0) << view << " is not well-formed XML";
        const std::string content = test::slurp(svg);
        const std::string texts = svg_texts(content);
        for (const std::string& w : words) EXPECT_NE(texts.find(w), std::string::npos) << view << ": no <text> with \"" << w << "\"";
        // The heatmaps' pixels travel as embedded images; nothing else is a bitmap.
        EXPECT_EQ(content.find("<image") != std::string::npos, draws_an_image(view)) << view;
    }
}

TEST_F(Figures, PdfTextIsSearchableAndItsFontEmbedded) {
    for (const std::string view : {"scores", "frequencies", "all"}) {
        const std::string pdf = at(view + ".pdf");
        const auto r = run("render " + view_arguments(view) + " --size 1280x720 --out " + pdf);
        ASSERT_EQ(r.status, 0) << r.err;
        const auto [text, status] = shell("pdftotext '" + pdf + "' -");
        ASSERT_EQ(status, 0);
        for (std::string w : expected_words().at(view)) {
            // A script sits on its own baseline, where pdftotext may break the line: the words up to it.
            w = w.substr(0, std::min(w.find("^{"), w.find("_{")));
            EXPECT_NE(text.find(w), std::string::npos) << view << ": pdftotext finds no \"" << w << "\"";
        }
        // pdffonts: one row per font, its "emb" column "yes"; no font left out.
        const auto [fonts, fonts_status] = shell("pdffonts '" + pdf + "' | tail -n +3");
        ASSERT_EQ(fonts_status, 0);
        EXPECT_NE(fonts.find("DejaVuSans"), std::string::npos) << fonts;
        EXPECT_EQ(std::regex_search(fonts, std::regex(R"(\s+no\s+(yes|no)\s+(yes|no)\s+\d+)")), false) << fonts;
    }
}

// The phasor view's caption, score(Δ) = Re Σ c_i e^{iΔθ_i}, typeset: no markup left in the SVG's
// or the PDF's text; in the SVG the exponent is a tspan raised above the base text's baseline
// and smaller, θ's index lowered inside it; in the PDF (pdftotext -bbox) the exponent's glyphs
// end above the baseline of the caption's other words.
TEST_F(Figures, PhasorCaptionIsTypesetInSvgAndPdf) {
    const std::string svg = at("phasors.svg"), pdf = at("phasors.pdf");
    ASSERT_EQ(run("render --view phasors --size 1280x720 --out " + svg).status, 0);
    ASSERT_EQ(run("render --view phasors --size 1280x720 --out " + pdf).status, 0);
    const std::string content = test::slurp(svg);
    std::string plain;  // every text's characters, tags dropped
    static const std::regex tag("<[^>]*>");
    static const std::regex element("<text[^>]*>(.*?)</text>");
    for (auto it = std::sregex_iterator(content.begin(), content.end(), element); it != std::sregex_iterator(); ++it) {
        plain += std::regex_replace(std::string((*it)[1]), tag, "") + "\n";
    }
    EXPECT_EQ(plain.find("^{"), std::string::npos) << plain;
    EXPECT_EQ(plain.find("_{"), std::string::npos) << plain;
    EXPECT_EQ(plain.find("c_i"), std::string::npos) << plain;
    // The caption's runs, read back from the tspans' heights.
    EXPECT_NE(svg_texts(content).find("score(Δ) = Re Σ c_{i} e^{iΔθ}"), std::string::npos) << svg_texts(content);
    // The exponent's tspan: raised (dy < 0, SVG's y grows down) by about a third of the line, at 70 % of the caption's size.
    static const std::regex caption("<text[^>]* font-size=\"([-0-9.]+)\"[^>]*>(<tspan[^>]*>score\\(Δ\\) = Re Σ c</tspan>.*?)</text>");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(content, m, caption)) << "no typeset phasor caption";
    const double em = std::stod(m[1]);
    const std::string spans = m[2];
    static const std::regex tspan("<tspan([^>]*)>([^<]*)</tspan>");
    double height = 0, exponent_height = 0, index_height = 0, exponent_size = 0;
    for (auto it = std::sregex_iterator(spans.begin(), spans.end(), tspan); it != std::sregex_iterator(); ++it) {
        height -= number_attribute((*it)[1], "dy");
        if ((*it)[2] == "iΔθ") {
            exponent_height = height;
            exponent_size = number_attribute((*it)[1], "font-size");
        } else if ((*it)[2] == "i" && exponent_height > 0 && index_height == 0) {
            index_height = height;
        }
    }
    EXPECT_GT(exponent_height, 0.25 * em);
    EXPECT_NEAR(exponent_size, 0.7 * em, 0.1);
    EXPECT_GT(index_height, 0.0);
    EXPECT_LT(index_height, exponent_height);

    const auto [bbox, status] = shell("pdftotext -bbox '" + pdf + "' -");
    ASSERT_EQ(status, 0);
    EXPECT_EQ(bbox.find("^{"), std::string::npos);
    EXPECT_EQ(bbox.find("_{"), std::string::npos);
    static const std::regex word(R"re(<word xMin="[^"]*" yMin="([^"]*)" xMax="[^"]*" yMax="([^"]*)">([^<]*)</word>)re");
    std::optional<double> re_bottom, exponent_bottom;
    for (auto it = std::sregex_iterator(bbox.begin(), bbox.end(), word); it != std::sregex_iterator(); ++it) {
        const std::string w = (*it)[3];
        if (w == "score(Δ)" && !re_bottom) re_bottom = std::stod((*it)[2]);
        if (w.find("iΔθ") != std::string::npos && re_bottom && !exponent_bottom) exponent_bottom = std::stod((*it)[2]);
    }
    ASSERT_TRUE(re_bottom && exponent_bottom) << bbox.substr(0, 3000);
    EXPECT_LT(*exponent_bottom, *re_bottom - 0.2 * em);
}

// The mean absolute difference per colour channel (0..255) of two images of one size, after
// averaging each over `block`×`block` pixel squares.
double mean_difference(const test::Image& a, const test::Image& b, int block) {
    double sum = 0;
    int count = 0;
    for (int by = 0; by + block <= a.height; by += block) {
        for (int bx = 0; bx + block <= a.width; bx += block) {
            for (int c = 0; c < 3; ++c) {
                double da = 0, db = 0;
                for (int y = by; y < by + block; ++y) {
                    for (int x = bx; x < bx + block; ++x) {
                        da += a.channel(x, y, c);
                        db += b.channel(x, y, c);
                    }
                }
                sum += std::abs(da - db) / (block * block);
                ++count;
            }
        }
    }
    return sum / count;
}

// The PDF rendered by a PDF viewer (poppler's pdftoppm, 72 dpi: one point per pixel) against the
// PNG of the same view at the same size. Pixel by pixel they differ where two rasterisers
// anti-alias the same 1 px curves and glyph edges differently (measured here: 3.7 for the score
// view, 4.7 for the whole lab, per channel of 255); over 4×4 squares that washes out (1.6 and
// 2.0), and what is left is layout: a missing or misplaced element moves it by several units.
TEST_F(Figures, PdfLooksLikeThePng) {
    for (const std::string view : {"scores", "planes", "all"}) {
        const std::string png = at(view + ".png"), pdf = at(view + ".pdf");
        ASSERT_EQ(run("render --view " + view + " --size 1280x720 --out " + png).status, 0);
        ASSERT_EQ(run("render --view " + view + " --size 1280x720 --out " + pdf).status, 0);
        ASSERT_EQ(shell("pdftoppm -r 72 -png -singlefile '" + pdf + "' '" + at(view + "-pdf") + "'").second, 0);
        const test::Image a = test::load_png(png), b = test::load_png(at(view + "-pdf.png"));
        ASSERT_FALSE(a.rgba.empty() || b.rgba.empty());
        ASSERT_EQ(a.width, b.width);
        ASSERT_EQ(a.height, b.height);
        const double per_pixel = mean_difference(a, b, 1), per_block = mean_difference(a, b, 4);
        RecordProperty(view + "_mean_difference", std::to_string(per_pixel));
        EXPECT_LT(per_pixel, 6.0) << view << ": the PDF drawn by pdftoppm differs from the PNG by " << per_pixel;
        EXPECT_LT(per_block, 2.5) << view << ": over 4x4 squares the PDF differs from the PNG by " << per_block;
    }
}

// A score curve over 2^24 distances is decimated as on screen: the file stays small.
TEST_F(Figures, LongCurvesStaySmall) {
    const std::string svg = at("long.svg");
    ASSERT_EQ(run("render --view scores --max-distance 16777216 --size 1920x1080 --out " + svg).status, 0);
    EXPECT_LT(fs::file_size(svg), 2u << 20);
    EXPECT_GT(fs::file_size(svg), 10u << 10);  // and holds the curves
}

// A figure replaces a user's file only when complete; a refused target keeps what was there.
TEST_F(Figures, RefusedTargetsKeepTheUsersFiles) {
    const std::string mine = at("mine.svg");
    test::write_file(mine, "my drawing");
    fs::create_directories(at("folder.pdf"));
    const auto r = run("render --view scores --out " + at("folder.pdf"));
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_TRUE(fs::is_directory(at("folder.pdf")));
    ASSERT_EQ(run("render --view scores --size 640x360 --out " + mine).status, 0);
    EXPECT_NE(test::slurp(mine).find("<svg"), std::string::npos);
    EXPECT_FALSE(fs::exists(mine + ".partial"));
    const auto animated = run("render --view scores --frames 3 --out " + at("anim.svg"));
    EXPECT_EQ(animated.status, 2);
    EXPECT_NE(animated.err.find("one frame"), std::string::npos) << animated.err;
}

}  // namespace
}  // namespace ropelab
