// core/array_file: T × d arrays from .npy (headers and data written here byte by byte), JSON and
// text, and the hostile files each form must refuse with a message naming the field and the file.
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/array_file.h"
#include "support/files.h"
#include "support/refusal.h"

namespace ropelab {
namespace {

using test::refusal;

constexpr std::string_view kField = "attention.q_file";

// A .npy file: the magic, the version, the header's length (little-endian, 2 bytes in version 1,
// 4 in 2 and 3), the dict padded with spaces so that the data starts at a multiple of 64, '\n'.
std::string npy(const std::string& dict, const std::string& data, int version = 1) {
    const std::size_t preamble = version == 1 ? 10 : 12;
    std::string header = dict;
    while ((preamble + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::string out = "\x93NUMPY";
    out += static_cast<char>(version);
    out += '\0';
    const std::size_t length_bytes = version == 1 ? 2 : 4;
    for (std::size_t i = 0; i < length_bytes; ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
    return out + header + data;
}

std::string dict(const std::string& descr, const std::string& shape, bool fortran = false) {
    return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape + ", }";
}

// Little-endian bytes of an unsigned integer, lowest first.
std::string le_bytes(std::uint64_t v, int bytes) {
    std::string s;
    for (int i = 0; i < bytes; ++i) s += static_cast<char>((v >> (8 * i)) & 0xff);
    return s;
}

std::string f8_bytes(const std::vector<double>& values) {
    std::string s;
    for (double v : values) s += le_bytes(std::bit_cast<std::uint64_t>(v), 8);
    return s;
}

NumberArray parse(const std::string& bytes, const std::string& path = "v.npy") { return parse_array(bytes, path, kField); }

TEST(ArrayFile, ReadsFloat32NpyWrittenByHand) {
    // 1.0f = 0x3F800000, -2.0f = 0xC0000000, 0.5f = 0x3F000000, 0.0f, 3.0f = 0x40400000, -0.25f = 0xBE800000.
    const std::string data = std::string("\x00\x00\x80\x3F\x00\x00\x00\xC0\x00\x00\x00\x3F", 12) +
                             std::string("\x00\x00\x00\x00\x00\x00\x40\x40\x00\x00\x80\xBE", 12);
    const NumberArray a = parse(npy(dict("<f4", "(2, 3)"), data));
    ASSERT_EQ(a.rows, 2);
    ASSERT_EQ(a.cols, 3);
    EXPECT_EQ(a.values, (std::vector<double>{1.0, -2.0, 0.5, 0.0, 3.0, -0.25}));
    EXPECT_EQ(a.row(1)[2], -0.25);
}

TEST(ArrayFile, ReadsFloat64NpyVersion2WithABatchOfOne) {
    const std::vector<double> values = {0.1, -1e-300, 12345.678, 1e9, -1e9, 2.0 / 3.0};
    const NumberArray a = parse(npy(dict("<f8", "(1, 3, 2)"), f8_bytes(values), 2));
    EXPECT_EQ(a.rows, 3);
    EXPECT_EQ(a.cols, 2);
    EXPECT_EQ(a.values, values);  // bit for bit
}

TEST(ArrayFile, ReadsFloat16NpyVersion3) {
    // binary16: 1.0 = 0x3C00, -2.0 = 0xC000, 0.5 = 0x3800, 65504 = 0x7BFF (the largest), 2^-24 = 0x0001
    // (the smallest subnormal), -0.0 = 0x8000.
    const std::string data = le_bytes(0x3C00, 2) + le_bytes(0xC000, 2) + le_bytes(0x3800, 2) + le_bytes(0x7BFF, 2) +
                             le_bytes(0x0001, 2) + le_bytes(0x8000, 2);
    const NumberArray a = parse(npy(dict("<f2", "(3, 2)"), data, 3));
    EXPECT_EQ(a.values, (std::vector<double>{1.0, -2.0, 0.5, 65504.0, 0x1p-24, -0.0}));
}

TEST(ArrayFile, HeaderKeysInAnyOrderWithDoubleQuotes) {
    const std::string d = R"({"shape": (1, 2), "fortran_order": False, "descr": "<f8"})";
    EXPECT_EQ(parse(npy(d, f8_bytes({4.0, 5.0}))).values, (std::vector<double>{4.0, 5.0}));
}

TEST(ArrayFile, ReadsJsonArraysOfRows) {
    const NumberArray a = parse(" [[1, 2.5, -3], [4e-3, 0, 1e9]]\n", "v.json");
    EXPECT_EQ(a.rows, 2);
    EXPECT_EQ(a.cols, 3);
    EXPECT_EQ(a.values, (std::vector<double>{1, 2.5, -3, 4e-3, 0, 1e9}));
}

TEST(ArrayFile, ReadsTextLinesWithSpacesTabsAndCommas) {
    const std::string text = "# q from layer 3\n\n1 2\t3\r\n+4, -5.5 ,6e-1\n   \n7,8,9\n";
    const NumberArray a = parse(text, "v.txt");
    EXPECT_EQ(a.rows, 3);
    EXPECT_EQ(a.cols, 3);
    EXPECT_EQ(a.values, (std::vector<double>{1, 2, 3, 4, -5.5, 0.6, 7, 8, 9}));
}

TEST(ArrayFile, ReadsNpyHeadersNumpyAcceptsPaddedWithSpacesTabsAndNewlines) {
    // What numpy writes (spaces, then '\n'), and what ast.literal_eval also takes: no trailing
    // comma, blank padding of other kinds, a one-dimension tuple's comma before a batch of one.
    for (const std::string& d : {std::string("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2)}"),
                                 std::string("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2,), }\t\r\n"),
                                 std::string("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1, 2) , }\n\n")}) {
        const NumberArray a = parse(npy(d, f8_bytes({4.0, 5.0})));
        EXPECT_EQ(a.values, (std::vector<double>{4.0, 5.0})) << d;
    }
}

TEST(ArrayFile, ReadsAFileFromDiskAndNamesAMissingOne) {
    const std::string path = test::temp_path("array_file").string() + ".npy";
    test::write_file(path, npy(dict("<f8", "(2, 1)"), f8_bytes({7.0, -7.0})));
    EXPECT_EQ(read_array_file(path, kField).values, (std::vector<double>{7.0, -7.0}));
    std::remove(path.c_str());
    const std::string why = refusal([&] { read_array_file(path, kField); });
    EXPECT_NE(why.find("attention.q_file"), std::string::npos) << why;
    EXPECT_NE(why.find(path), std::string::npos) << why;
    EXPECT_NE(why.find("does not exist"), std::string::npos) << why;
}

// Each hostile file is refused with a message naming the field, the file and the problem.
struct Hostile {
    const char* name;
    std::string bytes;
    std::string path;
    const char* says;
};

std::vector<Hostile> hostile_files() {
    const std::string two = f8_bytes({1.0, 2.0});
    return {
        {"truncated data", npy(dict("<f8", "(2, 2)"), two), "t.npy", "(truncated)"},
        {"data past the shape", npy(dict("<f8", "(1, 1)"), two), "t.npy", "more than the shape holds"},
        {"1 GB shape, little data", npy(dict("<f4", "(1000000, 256)"), two), "big.npy", "1000000 × 256 × 4 bytes"},
        {"huge shape overflowing", npy(dict("<f8", "(9223372036854775807, 9223372036854775807)"), two), "big.npy", "(truncated)"},
        {"integer dtype", npy(dict("<i4", "(1, 2)"), two), "i.npy", "dtype '<i4'"},
        {"big-endian", npy(dict(">f8", "(1, 2)"), two), "be.npy", "big-endian"},
        {"fortran order", npy(dict("<f8", "(1, 2)", true), two), "f.npy", "fortran_order is True"},
        {"one vector", npy(dict("<f8", "(2,)"), two), "v.npy", "shape (2,)"},
        {"four dimensions", npy(dict("<f8", "(1, 1, 1, 2)"), two), "v.npy", "shape (1, 1, 1, 2)"},
        {"a batch of two", npy(dict("<f8", "(2, 1, 1)"), two), "v.npy", "shape (2, 1, 1)"},
        {"no shape", npy("{'descr': '<f8', 'fortran_order': False}", two), "v.npy", "missing one of"},
        {"unknown key", npy("{'descr': '<f8', 'colour': 'red'}", two), "v.npy", "unknown key 'colour'"},
        {"header past the end", std::string("\x93NUMPY\x01\x00\xff\x7f{", 11), "v.npy", "ends before that"},
        {"version 9", npy(dict("<f8", "(1, 2)"), two, 9), "v.npy", "version 9"},
        {"not npy despite its name", "1 2 3\n", "v.npy", "not a .npy file"},
        {"NaN in float32", npy(dict("<f4", "(1, 2)"), std::string("\x00\x00\x80\x3F\x00\x00\xC0\x7F", 8)), "n.npy",
         "row 0 column 1 is nan"},
        {"inf in float16", npy(dict("<f2", "(1, 1)"), le_bytes(0x7C00, 2)), "n.npy", "row 0 column 0 is inf"},
        {"too large in float64", npy(dict("<f8", "(1, 2)"), f8_bytes({1.0, 2e9})), "n.npy", "beyond ±1e+09"},
        {"ragged text", "1 2 3\n4 5 6 7\n", "r.txt", "line 2 (row 1) has 4 numbers, expected 3"},
        {"word in text", "1 2\n3 four\n", "r.txt", "\"four\" is not a number"},
        {"nan in text", "1 nan\n", "r.txt", "row 0 column 1 is nan"},
        {"empty", " \n\t\n", "e.txt", "empty"},
        {"comments only", "# nothing\n", "e.txt", "no rows"},
        {"ragged JSON", "[[1, 2], [3]]", "r.json", "row 1 has 1 numbers, expected 2"},
        {"JSON not rows", "[1, 2]", "r.json", "row 0 is 1, not an array"},
        {"JSON string", "[[1, \"2\"]]", "r.json", "row 0 column 1 is \"2\""},
        {"JSON too large", "[[1, 1e10]]", "r.json", "beyond ±1e+09"},
        {"JSON object", "[[1]] {", "r.json", "not valid JSON"},
        {"JSON empty row", "[[]]", "r.json", "row 0 is empty"},
        // An empty field between commas is a value left out, not a separator (issue 34).
        {"two commas", "1,,2,3,4,5,6,7,8\n", "c.txt", "line 1 (row 0): value 1 is empty in \"1,,2,3,4,5,6,7,8\""},
        {"leading comma", ",1,2\n", "c.txt", "line 1 (row 0): value 0 is empty in \",1,2\""},
        {"trailing comma", "1,2,\n3,4,\n", "c.txt", "line 1 (row 0): value 2 is empty in \"1,2,\""},
        {"comma, space, comma", "1, ,2\n", "c.txt", "value 1 is empty"},
        {"empty field on row 2", "1,2\n3,,4\n", "c.txt", "line 2 (row 1): value 1 is empty"},
        {"only a comma", "1 2\n,\n", "c.txt", "line 2 (row 1): value 0 is empty"},
        // .npy headers numpy's ast.literal_eval refuses: junk after the dict, missing commas.
        {"junk after the dict", npy(dict("<f8", "(1, 2)") + " junk", two), "j.npy", "\"junk\" follows the dict at byte"},
        {"a second dict after the first", npy(dict("<f8", "(1, 2)") + "{}", two), "j.npy", "\"{}\" follows the dict"},
        {"NUL padding", npy(dict("<f8", "(1, 2)") + std::string(3, '\0'), two), "j.npy", "\"\\x00\\x00\\x00\" follows the dict"},
        {"no comma between entries", npy("{'descr': '<f8' 'fortran_order': False, 'shape': (1, 2)}", two), "j.npy",
         "expected ',' or '}' at byte 16"},
        {"no comma in the shape", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1 2)}", two), "j.npy",
         "expected ',' or ')'"},
        {"a shape that is a number", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2)}", two), "j.npy",
         "the shape (2) is a number, not a tuple"},
        {"Falsey", npy("{'descr': '<f8', 'fortran_order': Falsey, 'shape': (1, 2)}", two), "j.npy", "expected ',' or '}'"},
        {"a float shape", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1.0, 2)}", two), "j.npy", "expected ',' or ')'"},
    };
}

TEST(ArrayFile, RefusesHostileFilesNamingFieldFileAndProblem) {
    for (const Hostile& h : hostile_files()) {
        const std::string why = refusal([&] { parse(h.bytes, h.path); }, "accepted");
        EXPECT_TRUE(why.starts_with(std::string(kField) + ": " + h.path + ": ")) << h.name << ": " << why;
        EXPECT_NE(why.find(h.says), std::string::npos) << h.name << ": " << why;
    }
}

TEST(ArrayFile, RefusesJsonBeyondTheReadersLimitPointingToNpy) {
    std::string text = "[[0";
    for (int i = 0; i < 200001; ++i) text += ",0";
    text += "]]";
    const std::string why = refusal([&] { parse(text, "big.json"); });
    EXPECT_NE(why.find("write larger arrays as .npy or text"), std::string::npos) << why;
}

}  // namespace
}  // namespace ropelab
