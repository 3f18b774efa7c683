// Every character the app prints has a glyph in the font compiled into the binary: no "?" box.
// The characters come from the string literals of the code that draws or says things (views,
// app, lab, the notes and config reader) and from every string of the lessons and presets; each
// must be inside the loaded ranges and present in the font. No window is needed: ImGui builds its
// atlas on the CPU.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "imgui_setup.h"

namespace ropelab {
namespace {

namespace fs = std::filesystem;

// UTF-8 → code points (the inputs are our own files, valid UTF-8).
void add_code_points(const std::string& text, std::set<unsigned>& out) {
    for (std::size_t i = 0; i < text.size();) {
        const auto b = static_cast<unsigned char>(text[i]);
        const int n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        unsigned c = n == 1 ? b : b & (0xFF >> (n + 1));
        for (int k = 1; k < n && i + k < text.size(); ++k) c = (c << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
        if (c >= 0x20) out.insert(c);
        i += static_cast<std::size_t>(n);
    }
}

// The string literals of a C++ file, comments skipped.
void literals_of(const fs::path& file, std::set<unsigned>& out) {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        std::string literal;
        bool inside = false;
        for (std::size_t i = 0; i < line.size(); ++i) {
            const char ch = line[i];
            if (!inside && ch == '/' && i + 1 < line.size() && line[i + 1] == '/') break;
            if (!inside && ch == '\'' && i + 2 < line.size()) {  // a char literal: skip it
                i += line[i + 1] == '\\' ? 3 : 2;
                continue;
            }
            if (ch == '"' && (i == 0 || line[i - 1] != '\\')) {
                if (inside) add_code_points(literal, out);
                literal.clear();
                inside = !inside;
            } else if (inside) {
                literal += ch;
            }
        }
    }
}

void strings_of(const nlohmann::json& j, std::set<unsigned>& out) {
    if (j.is_string()) add_code_points(j.get<std::string>(), out);
    for (const auto& item : j) {
        if (j.is_structured()) strings_of(item, out);
    }
}

std::string fmt_code(unsigned c) {
    std::ostringstream s;
    s << "U+" << std::hex << std::uppercase << c << " ";
    return s.str();
}

std::set<unsigned> printed_code_points() {
    const fs::path root = ROPELAB_SOURCE_DIR;
    std::set<unsigned> out;
    for (const char* dir : {"src/views", "app", "src/lab", "src/plot", "src/lesson"}) {
        for (const auto& e : fs::directory_iterator(root / dir)) {
            if (e.path().extension() == ".cpp") literals_of(e.path(), out);
        }
    }
    for (const char* file : {"src/core/math_notes.cpp", "src/core/config_json.cpp", "src/core/presets.cpp"}) {
        literals_of(root / file, out);
    }
    for (const char* dir : {"assets/lessons", "assets/presets"}) {
        for (const auto& e : fs::directory_iterator(root / dir)) {
            std::ifstream in(e.path());
            strings_of(nlohmann::json::parse(in), out);
        }
    }
    return out;
}

TEST(Glyphs, EveryPrintedCharacterIsInTheEmbeddedFont) {
    ImGui::CreateContext();
    load_fonts(1.0f);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    ImFont* font = ImGui::GetIO().Fonts->Fonts[0];
    const std::set<unsigned> used = printed_code_points();
    ASSERT_GT(used.size(), 100u);  // ASCII and the math: the scan found the texts
    std::string missing;
    int non_ascii = 0;
    for (unsigned c : used) {
        if (c >= 0x80) ++non_ascii;
        if (c > 0xFFFF || !font->FindGlyphNoFallback(static_cast<ImWchar>(c))) missing += fmt_code(c);
    }
    EXPECT_EQ(missing, "") << "characters printed somewhere but without a glyph";
    std::printf("%zu characters, %d beyond ASCII\n", used.size(), non_ascii);
    EXPECT_GT(non_ascii, 15);  // θ, Δ, π, −, ≤, ⟨, ⟩, Σ, … are really being checked
    for (unsigned c : {0x03B8u, 0x0394u, 0x03C0u, 0x2212u, 0x27E8u, 0x27E9u, 0x03A3u, 0x2264u, 0x00B7u}) {
        EXPECT_NE(font->FindGlyphNoFallback(static_cast<ImWchar>(c)), nullptr) << std::hex << c;
    }
    ImGui::DestroyContext();
}

}  // namespace
}  // namespace ropelab
