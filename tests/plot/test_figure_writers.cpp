// The figure writers on hand-made display lists (no GL, no ImGui, no binary): what the SVG says
// for each primitive, and that cairo's PDF keeps text as text with the font embedded.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "plot/pdf.h"
#include "plot/svg.h"

namespace ropelab::draw {
namespace {

namespace fs = std::filesystem;

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::size_t count(const std::string& s, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
}

Figure sample() {
    Figure f;
    f.width = 200;
    f.height = 100;
    f.background = rgba(15, 15, 15);
    List l;
    l.push_clip({10, 10}, {190, 90});
    l.triangle({0, 0}, {10, 0}, {10, 10}, rgba(255, 0, 0));
    l.triangle({0, 0}, {10, 10}, {0, 10}, rgba(255, 0, 0));  // same colour: the same path
    l.triangle({20, 0}, {30, 0}, {30, 10}, rgba(0, 0, 255, 128));
    l.segments({{1, 2}, {1, 8}, {2, 3}, {2, 7}}, rgba(0, 255, 0), 1.5f);
    l.circle({50, 50}, 20, rgba(255, 255, 255), 2.0f);
    l.fill_rect({60, 60}, {80, 70}, rgba(10, 20, 30), 4.0f);
    l.pop_clip();
    l.add(Text{{5, 5}, "θ = 10⁴ & <b>", 13.0f, rgba(255, 255, 255), {8, 4, 8, 4, 8, 8, 6, 4, 8, 4, 8, 8, 8}, 11.2f, 10.4f, {}});
    f.items = l.items();
    return f;
}

TEST(SvgWriter, WritesEachPrimitiveAsSvg) {
    const std::string svg = to_svg(sample());
    EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
    EXPECT_NE(svg.find("viewBox=\"0 0 200 100\""), std::string::npos);
    // The two red triangles are one path of two sub-paths; the half-transparent one its own.
    EXPECT_NE(svg.find("<path d=\"M0,0 10,0 10,10ZM0,0 10,10 0,10Z\" fill=\"#ff0000\"/>"), std::string::npos) << svg;
    EXPECT_NE(svg.find("fill=\"#0000ff\" fill-opacity=\"0.502\""), std::string::npos);
    EXPECT_NE(svg.find("<path d=\"M1 2L1 8M2 3L2 7\" fill=\"none\" stroke=\"#00ff00\" stroke-width=\"1.5\"/>"),
              std::string::npos);
    EXPECT_NE(svg.find("<circle cx=\"50\" cy=\"50\" r=\"20\" fill=\"none\" stroke=\"#ffffff\" stroke-width=\"2\"/>"),
              std::string::npos);
    EXPECT_NE(svg.find("rx=\"4\""), std::string::npos);
    // Clips open and close in pairs.
    EXPECT_EQ(count(svg, "<g clip-path="), count(svg, "</g>"));
}

TEST(SvgWriter, TextIsTextAtTheScreensPositions) {
    const std::string svg = to_svg(sample());
    const std::regex element("<text[^>]* x=\"([^\"]*)\" y=\"([^\"]*)\"[^>]*font-size=\"([^\"]*)\"[^>]*>([^<]*)</text>");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(svg, m, element)) << svg;
    EXPECT_EQ(m[4].str(), "θ = 10⁴ &amp; &lt;b&gt;");
    // One x per character (13 code points), each the sum of the advances before it.
    std::istringstream xs(m[1].str());
    std::vector<double> x;
    for (double v; xs >> v;) x.push_back(v);
    ASSERT_EQ(x.size(), 13u);
    EXPECT_DOUBLE_EQ(x[0], 5.0);
    EXPECT_DOUBLE_EQ(x[1], 13.0);
    EXPECT_DOUBLE_EQ(x[12], 5.0 + 8 + 4 + 8 + 4 + 8 + 8 + 6 + 4 + 8 + 4 + 8 + 8);
    EXPECT_EQ(m[2].str(), "15.4");  // the baseline: top + ascent
    EXPECT_EQ(m[3].str(), "11.2");  // the em, not ImGui's line height
}

TEST(SvgWriter, ControlCharactersNeverReachTheXml) {
    Figure f;
    f.width = f.height = 10;
    f.items.push_back(Text{{0, 0}, std::string("a\x01\x1f" "b"), 10.0f, rgba(0, 0, 0), {}, 0, 0, {}});
    const std::string svg = to_svg(f);
    EXPECT_NE(svg.find(">ab</text>"), std::string::npos) << svg;
}

// The tspans of an SVG in order: their attributes and text.
std::vector<std::pair<std::string, std::string>> tspans(const std::string& svg) {
    static const std::regex tspan("<tspan([^>]*)>([^<]*)</tspan>");
    std::vector<std::pair<std::string, std::string>> out;
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), tspan); it != std::sregex_iterator(); ++it) {
        out.emplace_back((*it)[1], (*it)[2]);
    }
    return out;
}

// An attribute's number, 0 where the attribute is absent.
double attribute(const std::string& attributes, const std::string& name) {
    const std::regex value(" " + name + "=\"([-0-9.]+)\"");
    std::smatch m;
    return std::regex_search(attributes, m, value) ? std::stod(m[1]) : 0.0;
}

Figure maths(bool with_advances) {
    Figure f;
    f.width = 300;
    f.height = 40;
    Text t = typeset_text({10, 10}, "Re Σ c_i e^{iΔθ_i} + 2^31", 15.0f, rgba(0, 0, 0), 12.9f, 12.0f);
    if (with_advances) t.advances.assign(19, 7.0f);  // "Re Σ ci eiΔθi + 231": 19 characters
    f.items.push_back(t);
    return f;
}

TEST(SvgWriter, MathsIsTypesetInTspansWithRaisedAndLoweredBaselines) {
    const std::string svg = to_svg(maths(false));
    EXPECT_EQ(svg.find("^{"), std::string::npos) << svg;
    EXPECT_EQ(svg.find("_{"), std::string::npos) << svg;
    EXPECT_EQ(svg.find("c_i"), std::string::npos) << svg;
    const auto spans = tspans(svg);
    std::vector<std::string> texts;
    for (const auto& [attributes, text] : spans) texts.push_back(text);
    ASSERT_EQ(texts, (std::vector<std::string>{"Re Σ c", "i", " e", "iΔθ", "i", " + 2", "31"})) << svg;
    // dy is relative: the baseline's height after each tspan is the running sum (SVG's y grows down).
    std::vector<double> height;
    double y = 0;
    for (const auto& [attributes, text] : spans) {
        y -= attribute(attributes, "dy");
        height.push_back(y);
    }
    const double size = 15.0;
    EXPECT_DOUBLE_EQ(height[0], 0.0);                  // Re Σ c
    EXPECT_LT(height[1], -0.1 * size);                  // c's i: lowered
    EXPECT_NEAR(height[2], 0.0, 0.051);                 // back on the baseline
    EXPECT_GT(height[3], 0.25 * size);                  // the exponent iΔθ: raised
    EXPECT_GT(height[4], 0.0);                          // θ's i: below the exponent, above the baseline
    EXPECT_LT(height[4], height[3]);
    EXPECT_NEAR(height[5], 0.0, 0.051);
    EXPECT_NEAR(height[6], height[3], 0.051);           // 2's power as high as e's
    // Scripts at 70 % of the em (12.9), a script's script smaller still; the base unchanged.
    EXPECT_DOUBLE_EQ(attribute(spans[0].first, "font-size"), 0.0);
    EXPECT_NEAR(attribute(spans[3].first, "font-size"), 0.7 * 12.9, 0.051);
    EXPECT_LT(attribute(spans[4].first, "font-size"), attribute(spans[3].first, "font-size"));
}

TEST(SvgWriter, TypesetTextKeepsTheScreensPositions) {
    const std::string svg = to_svg(maths(true));
    const auto spans = tspans(svg);
    ASSERT_EQ(spans.size(), 7u) << svg;
    // Each tspan's characters at x = 10 + 7·k, k counting every character before them.
    std::size_t k = 0;
    for (const auto& [attributes, text] : spans) {
        std::smatch m;
        ASSERT_TRUE(std::regex_search(attributes, m, std::regex(" x=\"([^\"]*)\""))) << attributes;
        std::istringstream xs(m[1].str());
        for (double v; xs >> v; ++k) EXPECT_DOUBLE_EQ(v, 10.0 + 7.0 * static_cast<double>(k)) << text;
    }
    EXPECT_EQ(k, 19u);
}

// The font the app embeds, from the Debian package it is built from.
std::string ui_font() { return read_file("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"); }

TEST(PdfWriter, KeepsTextSearchableWithTheFontEmbedded) {
    const std::string font = ui_font();
    ASSERT_FALSE(font.empty()) << "fonts-dejavu-core is not installed";
    std::string error;
    const std::string pdf = to_pdf(sample(), font, error);
    ASSERT_FALSE(pdf.empty()) << error;
    EXPECT_EQ(pdf.rfind("%PDF-", 0), 0u);
    const fs::path path = fs::path(::testing::TempDir()) / ("ropelab_writer_" + std::to_string(getpid()) + ".pdf");
    { std::ofstream(path, std::ios::binary) << pdf; }
    const auto output = [](const std::string& command) {
        std::string out;
        if (FILE* p = popen(command.c_str(), "r")) {
            char buffer[1024];
            for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, p)) > 0;) out.append(buffer, n);
            pclose(p);
        }
        return out;
    };
    EXPECT_NE(output("pdftotext '" + path.string() + "' -").find("θ = 10⁴ & <b>"), std::string::npos);
    const std::string fonts = output("pdffonts '" + path.string() + "'");
    EXPECT_NE(fonts.find("DejaVuSans"), std::string::npos) << fonts;
    EXPECT_NE(fonts.find(" yes yes yes"), std::string::npos) << fonts;  // embedded, subset, ToUnicode
    fs::remove(path);
}

// pdftotext -bbox: the exponent's glyphs end above the base text's baseline; no markup in the text.
TEST(PdfWriter, ScriptsAreSmallerAndRaisedOrLowered) {
    const std::string font = ui_font();
    ASSERT_FALSE(font.empty()) << "fonts-dejavu-core is not installed";
    std::string error;
    const std::string pdf = to_pdf(maths(false), font, error);
    ASSERT_FALSE(pdf.empty()) << error;
    const fs::path path = fs::path(::testing::TempDir()) / ("ropelab_maths_" + std::to_string(getpid()) + ".pdf");
    { std::ofstream(path, std::ios::binary) << pdf; }
    std::string bbox;
    if (FILE* p = popen(("pdftotext -bbox '" + path.string() + "' -").c_str(), "r")) {
        char buffer[1024];
        for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, p)) > 0;) bbox.append(buffer, n);
        pclose(p);
    }
    fs::remove(path);
    EXPECT_EQ(bbox.find("^{"), std::string::npos) << bbox;
    EXPECT_EQ(bbox.find("_{"), std::string::npos) << bbox;
    // Each word's box: yMin, yMax (points, y down) by its text.
    std::map<std::string, std::pair<double, double>> words;
    static const std::regex word(R"re(<word xMin="[^"]*" yMin="([^"]*)" xMax="[^"]*" yMax="([^"]*)">([^<]*)</word>)re");
    for (auto it = std::sregex_iterator(bbox.begin(), bbox.end(), word); it != std::sregex_iterator(); ++it) {
        words[(*it)[3]] = {std::stod((*it)[1]), std::stod((*it)[2])};
    }
    ASSERT_TRUE(words.count("Re")) << bbox;
    const auto exponent = std::find_if(words.begin(), words.end(), [](const auto& w) { return w.first.find("Δθ") != std::string::npos; });
    ASSERT_NE(exponent, words.end()) << bbox;
    // The base text's baseline is at 10 + 12 = 22; its box reaches below (descent), the exponent's ends above.
    EXPECT_GT(words["Re"].second, 22.0);
    EXPECT_LT(exponent->second.second, 22.0 - 0.1 * 15) << exponent->first;
    EXPECT_LT(exponent->second.second - exponent->second.first, words["Re"].second - words["Re"].first);  // smaller
}

TEST(PdfWriter, AnUnreadableFontIsAnErrorNotACrash) {
    std::string error;
    EXPECT_TRUE(to_pdf(sample(), "not a font", error).empty());
    EXPECT_NE(error.find("font"), std::string::npos);
}

}  // namespace
}  // namespace ropelab::draw
