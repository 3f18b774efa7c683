// The figure writers on hand-made display lists (no GL, no ImGui, no binary): what the SVG says
// for each primitive, and that cairo's PDF keeps text as text with the font embedded.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
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
    l.add(Text{{5, 5}, "θ = 10⁴ & <b>", 13.0f, rgba(255, 255, 255), {8, 4, 8, 4, 8, 8, 6, 4, 8, 4, 8, 8, 8}, 11.2f, 10.4f});
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
    f.items.push_back(Text{{0, 0}, std::string("a\x01\x1f" "b"), 10.0f, rgba(0, 0, 0), {}, 0, 0});
    const std::string svg = to_svg(f);
    EXPECT_NE(svg.find(">ab</text>"), std::string::npos) << svg;
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

TEST(PdfWriter, AnUnreadableFontIsAnErrorNotACrash) {
    std::string error;
    EXPECT_TRUE(to_pdf(sample(), "not a font", error).empty());
    EXPECT_NE(error.find("font"), std::string::npos);
}

}  // namespace
}  // namespace ropelab::draw
