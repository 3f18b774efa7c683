// Red team, round 4 (issue 34): hostile input at the entry points added since round 3 — the
// attention view through `render` (it must refuse what `export-data` refuses, in the same words,
// writing nothing), --grid with the options it bounds (in any order), lessons over their whole
// timeline, vector array files (text and .npy), _ropelab overrides met through sessions and
// lessons, and names and paths that reach SVG, JSON and CSV files. Each row runs the real binary
// under a time limit, as tests/cli/test_hostile_inputs.cpp's: exit 2 with a message whose start is
// checked and nothing written to OUT/, or success where the input is valid (its output file then
// parsed: xmllint for SVG, nlohmann for JSON, RFC 4180 for CSV); never a crash or a hang. Every
// row is listed in docs/redteam.md.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/utf8.h"
#include "support/hostile_case.h"
#include "support/run_binary.h"

namespace {

namespace fs = std::filesystem;
using namespace std::string_literals;  // file contents may hold NUL bytes
using ropelab::test::Result;
using ropelab::test::run;

// Most rows leave `output` out.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

struct Round4Case {
    const char* category;
    std::string args;
    std::vector<std::pair<std::string, std::string>> files;  // name in FILE/ -> bytes
    int status;
    std::string message;  // status 2: the start of the error line after "ropelab: error: "
    std::string output = "";  // status 0: a file in OUT/ to parse (.svg, .json or .csv), or ""
};

std::string times(const std::string& item, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += item;
    return out;
}

// A .npy file (format version 1) with the header `dict` + `tail`, padded with spaces to 64 bytes
// and ended by '\n' as numpy writes it, then `data`.
std::string npy_with_tail(const std::string& dict, const std::string& data, const std::string& tail = "") {
    std::string header = dict + tail;
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    return "\x93NUMPY\x01"s + '\0' + static_cast<char>(header.size() & 0xff) + static_cast<char>(header.size() >> 8) + header + data;
}

const std::string kOnes8 = times("\x00\x00\x80\x3F"s, 8);  // 2 × 4 float32 ones
const std::string kDict24 = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 4), }";

std::string lesson(const std::string& scenes) { return "{\"title\": \"t\", \"scenes\": [" + scenes + "]}"; }
std::string scene(const std::string& title, const std::string& rest) {
    return "{\"title\": \"" + title + "\", \"caption\": \"c\", " + rest + "}";
}

using ropelab::test::with_folders;

const std::string kAttn = "render --view attention --size 160x90 --tokens text:2 --head-dim 4 ";
const std::string kFileQ = "--token-vectors file --q-file FILE/";

const std::vector<Round4Case>& round4_cases() {
    static const std::vector<Round4Case> all = {
    // ---- render --view attention refuses what export-data refuses, in the same words --------
    {"render-attention", kAttn + "--token-vectors file --out OUT/a.png", {}, 2, "attention.q_file: \"\": file vectors need the queries' file"},
    {"render-attention", kAttn + kFileQ + "q.npy --out OUT/a.png", {}, 2, "attention.q_file: FILE/q.npy: cannot open vector array file (it does not exist)"},
    {"render-attention", kAttn + kFileQ + " --out OUT/a.png", {}, 2, "attention.q_file: FILE/: not a vector array file (it is a folder)"},
    {"render-attention", kAttn + kFileQ + "q.npy --out OUT/a.png", {{"q.npy", npy_with_tail(kDict24, times("\x00\x00\x80\x3F"s, 5) + "\x00\x00\xC0\x7F"s + times("\x00\x00\x80\x3F"s, 2))}}, 2, "attention.q_file: FILE/q.npy: row 1 column 1 is nan, not a finite number"},
    {"render-attention", kAttn + kFileQ + "q.txt --out OUT/a.png", {{"q.txt", "1 2 3 4\n5 6 7 inf\n"s}}, 2, "attention.q_file: FILE/q.txt: row 1 column 3 is inf, not a finite number"},
    {"render-attention", kAttn + kFileQ + "q.txt --out OUT/a.png", {{"q.txt", "1 2 3 4\n"s}}, 2, "attention.q_file: FILE/q.txt: 1 rows; the token layout images.tokens \"text:2\" has 2 tokens (one row per token)"},
    {"render-attention", kAttn + kFileQ + "q.txt --out OUT/a.png", {{"q.txt", "1 2 3\n4 5 6\n"s}}, 2, "attention.q_file: FILE/q.txt: rows of 3 numbers; the head has head_dim = 4 components"},
    {"render-attention", kAttn + kFileQ + "q.json --out OUT/a.png", {{"q.json", "{\"q\": [[1, 2, 3, 4]]}"s}}, 2, "attention.q_file: FILE/q.json: line 1 (row 0): \"{\"q\":\" is not a number"},
    {"render-attention", kAttn + kFileQ + "q.txt --k-file FILE/k.npy --out OUT/a.png", {{"q.txt", "1 2 3 4\n5 6 7 8\n"s}}, 2, "attention.k_file: FILE/k.npy: cannot open vector array file (it does not exist)"},
    {"render-attention", kAttn + kFileQ + "q.txt --k-file FILE/k.txt --out OUT/a.png", {{"q.txt", "1 2 3 4\n5 6 7 8\n"s}, {"k.txt", "1 2 3 4\n5 6 7 8\n9 9 9 9\n"s}}, 2, "attention.k_file: FILE/k.txt: 3 rows; the token layout"},
    {"render-attention", kAttn + kFileQ + "q.txt --out OUT/a.png", {{"q.txt", "1,,2,3\n4,5,6,7\n"s}}, 2, "attention.q_file: FILE/q.txt: line 1 (row 0): value 1 is empty in \"1,,2,3\""},
    {"render-attention", "render --view attention --size 160x90 --tokens text:8 --token-vectors needle --needle 100 --out OUT/a.png", {}, 2, "attention.needle: token 100 is past the layout's 8 tokens"},
    {"render-attention", "render --view attention --size 160x90 --tokens text:8 --token-vectors needle --needle 8 --out OUT/a.svg", {}, 2, "attention.needle: token 8 is past the layout's 8 tokens"},
    {"render-attention", "render --view attention --size 160x90 --tokens text:8 --token-vectors needle --needle 9 --out OUT/a.pdf", {}, 2, "attention.needle: token 9 is past the layout's 8 tokens"},
    {"render-attention", "render --view attention --size 160x90 --frames 2 --tokens text:8 --token-vectors needle --needle 9 --out OUT/a.gif", {}, 2, "attention.needle: token 9 is past the layout's 8 tokens"},
    {"render-attention", "render --view attention --size 160x90 --frames 2 --tokens text:8 --token-vectors needle --needle 9 --out OUT/frames/", {}, 2, "attention.needle: token 9 is past the layout's 8 tokens"},
    {"render-attention", "render --view attention --size 160x90 --tokens text:65537 --out OUT/a.png", {}, 2, "images.tokens: \"text:65537\" has 65537 tokens; the attention view takes at most 65536"},
    {"render-attention", "render --view attention --size 160x90 --tokens text:8,image:1x600x600 --out OUT/a.png", {}, 2, "images.tokens: \"text:8,image:1x600x600\" has 90010 tokens; the attention view takes at most 65536"},
    {"render-attention", "render --view attention --size 160x90 --tokens text:8 --token-vectors needle --needle 7 --out OUT/a.svg", {}, 0, "", "a.svg"},
    {"render-attention", kAttn + kFileQ + "q.npy --out OUT/a.png", {{"q.npy", npy_with_tail(kDict24, kOnes8)}}, 0, ""},
    {"render-attention", "render --view planes --size 160x90 --tokens text:8 --token-vectors needle --needle 100 --out OUT/a.png", {}, 0, ""},
    {"render-attention", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file FILE/q.txt --out OUT/a.json", {{"q.txt", "1 2 3 4\n5 6 7 8\n"s}}, 0, "", "a.json"},
    // ---- --grid and the options it bounds: valid in any order ---------------------------------
    {"cli-grid", "export-data --view grid --grid 4x4x4 --frame-offset 1 --out OUT/g.csv", {}, 0, "", "g.csv"},
    {"cli-grid", "export-data --view grid --frame-offset 1 --grid 4x4x4 --out OUT/g.json", {}, 0, "", "g.json"},
    {"cli-grid", "export-data --view grid --grid 4x4x4 --frame-offset -3 --out OUT/g.csv", {}, 0, ""},
    {"cli-grid", "export-data --view grid --grid 4x4x4 --frame-offset 4 --out OUT/g.csv", {}, 2, "images.frame_offset = 4 must be below the 4 frames"},
    {"cli-grid", "export-data --view grid --grid 2x4x4 --frame-offset -2 --out OUT/g.csv", {}, 2, "images.frame_offset = -2 must be below the 2 frames"},
    {"cli-grid", "export-data --view grid --grid 1x4x5 --query-row 3 --query-column 4 --out OUT/g.csv", {}, 0, ""},
    {"cli-grid", "export-data --view grid --query-row 3 --grid 1x4x4 --out OUT/g.csv", {}, 0, ""},
    {"cli-grid", "export-data --view grid --grid 1x4x4 --query-row 4 --out OUT/g.csv", {}, 2, "images.query_row, query_column = 4, 3 must lie inside the 4 × 4 image"},
    {"cli-grid", "export-data --view grid --grid 1x4x4 --grid-height 5 --out OUT/g.csv", {}, 2, "--grid: \"1x4x4\" and --grid-height both set images.height: give one of them"},
    {"cli-grid", "export-data --view grid --grid-frames 3 --grid 3x4x4 --out OUT/g.csv", {}, 2, "--grid: \"3x4x4\" and --grid-frames both set images.frames: give one of them"},
    {"cli-grid", "render --view grid --size 160x90 --grid 4x4x4 --frame-offset 1 --out OUT/g.png", {}, 0, ""},
    {"cli-grid", "render --view grid --size 160x90 --frame-offset 2 --grid 2x4x4 --out OUT/g.png", {}, 2, "images.frame_offset = 2 must be below the 2 frames"},
    // ---- lessons over their whole timeline --------------------------------------------------
    {"lesson-timeline", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", lesson(scene("s", "\"views\": [3, 3]"))}}, 2, "FILE/l.json: scene 1 (\"s\"): \"views\" lists view 3 twice (each view is shown once)"},
    {"lesson-timeline", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", lesson(scene("s", "\"views\": [1, 2, 1]"))}}, 2, "FILE/l.json: scene 1 (\"s\"): \"views\" lists view 1 twice"},
    {"lesson-timeline", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", lesson(scene("s", "\"views\": [3, 5], \"hide\": [3, 3]"))}}, 2, "FILE/l.json: scene 1 (\"s\"): \"hide\" lists view 3 twice"},
    {"lesson-timeline", "gui --lesson FILE/l.json --frames 1", {{"l.json", lesson(scene("s", "\"views\": [3, 3]"))}}, 2, "FILE/l.json: scene 1 (\"s\"): \"views\" lists view 3 twice"},
    {"lesson-timeline", "gui --lesson FILE/l.json --presenter --frames 1", {{"l.json", lesson(scene("s", "\"views\": [11, 11]"))}}, 2, "FILE/l.json: scene 1 (\"s\"): \"views\" lists view 11 twice"},
    {"lesson-timeline", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", lesson(scene("n", "\"views\": [11], \"set\": {\"tokens\": \"text:8\", \"token_vectors\": \"needle\", \"needle\": 100}"))}}, 2, "FILE/l.json: scene 1 (\"n\"): at t = 0 s: attention.needle: token 100 is past the layout's 8 tokens (images.tokens \"text:8\")"},
    {"lesson-timeline", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", lesson(scene("n", "\"views\": [3], \"set\": {\"tokens\": \"text:8\", \"token_vectors\": \"needle\"}"))}}, 2, "FILE/l.json: scene 1 (\"n\"): at t = 0 s: attention.needle: token 16 is past the layout's 8 tokens"},
    {"lesson-timeline", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", lesson(scene("a", "\"views\": [3]") + ", " + scene("b", "\"views\": [3]") + ", " + scene("c", "\"views\": [11], \"set\": {\"tokens\": \"text:4\", \"token_vectors\": \"needle\", \"needle\": 4}"))}}, 2, "FILE/l.json: scene 3 (\"c\"): at t = 0 s: attention.needle: token 4 is past the layout's 4 tokens"},
    {"lesson-timeline", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", lesson(scene("k", "\"views\": [11], \"set\": {\"tokens\": \"text:8\", \"token_vectors\": \"needle\", \"needle\": 0}, \"keyframes\": [{\"param\": \"needle\", \"from\": 0, \"to\": 20}]"))}}, 2, "FILE/l.json: scene 1 (\"k\"): keyframes[0] (needle 0 -> 20) at t = 4 s: attention.needle: token 20 is past the layout's 8 tokens"},
    {"lesson-timeline", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", lesson(scene("k", "\"views\": [11], \"set\": {\"tokens\": \"text:8\", \"token_vectors\": \"needle\", \"needle\": 0}, \"keyframes\": [{\"param\": \"needle\", \"from\": 7, \"to\": 0, \"start\": 1, \"duration\": 1}, {\"param\": \"needle\", \"from\": 0, \"to\": 9, \"start\": 2, \"duration\": 1}]"))}}, 2, "FILE/l.json: scene 1 (\"k\"): keyframes[1] (needle 0 -> 9) at t = 3 s: attention.needle: token 9 is past"},
    {"lesson-timeline", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", lesson(scene("L", "\"views\": [11], \"set\": {\"tokens\": \"text:70000\"}"))}}, 2, "FILE/l.json: scene 1 (\"L\"): at t = 0 s: images.tokens: \"text:70000\" has 70000 tokens; the attention view takes at most 65536"},
    {"lesson-timeline", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", lesson(scene("ok", "\"views\": [11], \"set\": {\"tokens\": \"text:8\", \"token_vectors\": \"needle\", \"needle\": 7}, \"keyframes\": [{\"param\": \"needle\", \"from\": 7, \"to\": 0}]"))}}, 0, ""},
    {"lesson-timeline", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", lesson(scene("ok", "\"views\": [3], \"set\": {\"tokens\": \"text:70000\"}"))}}, 0, ""},
    {"lesson-timeline", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", lesson("{\"title\": \"" + times("t", 513) + "\", \"caption\": \"c\", \"views\": [3]}")}}, 2, "FILE/l.json: scene 1 (\"" + times("t", 77) + "...\"): \"title\" has 513 characters (at most 512)"},
    {"lesson-timeline", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", lesson("{\"title\": \"" + times("t", 17000) + "\", \"caption\": \"c\", \"views\": [3]}")}}, 2, "FILE/l.json: scene 1 (\"" + times("t", 77) + "...\"): \"title\" has 17000 characters (at most 512)"},
    {"lesson-timeline", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", lesson("{\"title\": \"s\", \"caption\": \"" + times("\u00e9", 8193) + "\", \"views\": [3]}")}}, 2, "FILE/l.json: scene 1 (\"s\"): \"caption\" has 8193 characters (at most 8192)"},
    {"lesson-timeline", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", lesson("{\"title\": \"s\", \"caption\": \"c\", \"notes\": \"" + times("\u65e5", 8193) + "\", \"views\": [3]}")}}, 2, "FILE/l.json: scene 1 (\"s\"): \"notes\" has 8193 characters (at most 8192)"},
    {"lesson-timeline", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", lesson("{\"title\": \"" + times("\u00e9", 512) + "\", \"caption\": \"" + times("\u00e9", 8192) + "\", \"notes\": \"" + times("\u65e5", 8192) + "\", \"views\": [3]}")}}, 0, ""},
    // ---- vector array files: text fields and .npy headers as numpy reads them ----------------
    {"array-file-4", "export-data --view attention --tokens text:2 --head-dim 4 " + kFileQ + "q.txt --out OUT/a.csv", {{"q.txt", "1,,2,3,4\n5,6,7,8\n"s}}, 2, "attention.q_file: FILE/q.txt: line 1 (row 0): value 1 is empty in \"1,,2,3,4\""},
    {"array-file-4", "export-data --view attention --tokens text:2 --head-dim 4 " + kFileQ + "q.txt --out OUT/a.csv", {{"q.txt", ",1,2,3,4\n5,6,7,8\n"s}}, 2, "attention.q_file: FILE/q.txt: line 1 (row 0): value 0 is empty in \",1,2,3,4\""},
    {"array-file-4", "export-data --view attention --tokens text:2 --head-dim 4 " + kFileQ + "q.txt --out OUT/a.csv", {{"q.txt", "1,2,3,4,\n5,6,7,8,\n"s}}, 2, "attention.q_file: FILE/q.txt: line 1 (row 0): value 4 is empty in \"1,2,3,4,\""},
    {"array-file-4", "export-data --view attention --tokens text:2 --head-dim 4 " + kFileQ + "q.txt --out OUT/a.csv", {{"q.txt", "1 2 3 4\n5, ,6 7 8\n"s}}, 2, "attention.q_file: FILE/q.txt: line 2 (row 1): value 1 is empty in \"5, ,6 7 8\""},
    {"array-file-4", "export-data --view attention --tokens text:2 --head-dim 4 " + kFileQ + "q.txt --out OUT/a.csv", {{"q.txt", "1 2 3 4\n,\n5 6 7 8\n"s}}, 2, "attention.q_file: FILE/q.txt: line 2 (row 1): value 0 is empty in \",\""},
    {"array-file-4", "export-data --view attention --tokens text:2 --head-dim 4 " + kFileQ + "q.txt --k-file FILE/k.txt --out OUT/a.csv", {{"q.txt", "1 2 3 4\n5 6 7 8\n"s}, {"k.txt", "1,2,,3,4\n5,6,7,8\n"s}}, 2, "attention.k_file: FILE/k.txt: line 1 (row 0): value 2 is empty"},
    {"array-file-4", "export-data --view attention --tokens text:2 --head-dim 4 " + kFileQ + "q.txt --out OUT/a.csv", {{"q.txt", "1, 2 ,3,\t4\r\n5,6 , 7,8\n"s}}, 0, "", "a.csv"},
    {"array-file-4", "export-data --view attention --tokens text:2 --head-dim 4 " + kFileQ + "q.npy --out OUT/a.csv", {{"q.npy", npy_with_tail(kDict24, kOnes8, " junk")}}, 2, "attention.q_file: FILE/q.npy: .npy header: \"junk\" follows the dict at byte 60; numpy allows only padding there"},
    {"array-file-4", "export-data --view attention --tokens text:2 --head-dim 4 " + kFileQ + "q.npy --out OUT/a.csv", {{"q.npy", npy_with_tail(kDict24, kOnes8, "{}")}}, 2, "attention.q_file: FILE/q.npy: .npy header: \"{}\" follows the dict at byte 59"},
    {"array-file-4", "export-data --view attention --tokens text:2 --head-dim 4 " + kFileQ + "q.npy --out OUT/a.csv", {{"q.npy", npy_with_tail(kDict24, kOnes8, "\0\0"s)}}, 2, "attention.q_file: FILE/q.npy: .npy header: \"\\x00\\x00\" follows the dict at byte 59"},
    {"array-file-4", "export-data --view attention --tokens text:2 --head-dim 4 " + kFileQ + "q.npy --out OUT/a.csv", {{"q.npy", npy_with_tail(kDict24, kOnes8, "#")}}, 2, "attention.q_file: FILE/q.npy: .npy header: \"#\" follows the dict at byte 59"},
    {"array-file-4", "export-data --view attention --tokens text:2 --head-dim 4 " + kFileQ + "q.npy --out OUT/a.csv", {{"q.npy", npy_with_tail("{'descr': '<f4' 'fortran_order': False, 'shape': (2, 4)}", kOnes8)}}, 2, "attention.q_file: FILE/q.npy: .npy header: expected ',' or '}' at byte 16"},
    {"array-file-4", "export-data --view attention --tokens text:2 --head-dim 4 " + kFileQ + "q.npy --out OUT/a.csv", {{"q.npy", npy_with_tail("{'descr': '<f4', 'fortran_order': False, 'shape': (2 4)}", kOnes8)}}, 2, "attention.q_file: FILE/q.npy: .npy header: expected ',' or ')' at byte 53"},
    {"array-file-4", "export-data --view attention --tokens text:2 --head-dim 4 " + kFileQ + "q.npy --out OUT/a.csv", {{"q.npy", npy_with_tail("{'descr': '<f4', 'fortran_order': False, 'shape': (8)}", kOnes8)}}, 2, "attention.q_file: FILE/q.npy: .npy header: the shape (8) is a number, not a tuple (write (8,))"},
    {"array-file-4", "export-data --view attention --tokens text:2 --head-dim 4 " + kFileQ + "q.npy --out OUT/a.csv", {{"q.npy", npy_with_tail("{'descr': '<f4', 'fortran_order': Falsey, 'shape': (2, 4)}", kOnes8)}}, 2, "attention.q_file: FILE/q.npy: .npy header: expected ',' or '}' at byte 39"},
    {"array-file-4", "export-data --view attention --tokens text:2 --head-dim 4 " + kFileQ + "q.npy --out OUT/a.csv", {{"q.npy", npy_with_tail("{'descr': '<f4', 'fortran_order': False, 'shape': (2.0, 4)}", kOnes8)}}, 2, "attention.q_file: FILE/q.npy: .npy header: expected ',' or ')' at byte 52"},
    {"array-file-4", "export-data --view attention --tokens text:2 --head-dim 4 " + kFileQ + "q.npy --out OUT/a.csv", {{"q.npy", npy_with_tail("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 4)}", kOnes8, "\t\r\n")}}, 0, "", "a.csv"},
    {"array-file-4", "export-data --view attention --tokens text:2 --head-dim 4 " + kFileQ + "q.npy --out OUT/a.csv", {{"q.npy", npy_with_tail("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 4,), }", kOnes8)}}, 0, ""},
    // ---- _ropelab overrides met through a session or a lesson: named by file and field -------
    {"ropelab-note", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"c.json", "{\"head_dim\": 64, \"_ropelab\": {\"layout\": \"sideways\"}}"s}, {"l.json", lesson(scene("s", "\"views\": [3], \"set\": {\"compare\": [\"in/c.json\"]}"))}}, 2, "FILE/l.json: scene 1 (\"s\"): set.compare: compare \"in/c.json\": in/c.json: _ropelab.layout = \"sideways\" is not a pair layout"},
    {"ropelab-note", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"c.json", "{\"head_dim\": 64, \"_ropelab\": {\"layout\": 5}}"s}, {"l.json", lesson(scene("s", "\"views\": [3], \"set\": {\"compare\": [\"in/c.json\"]}"))}}, 2, "FILE/l.json: scene 1 (\"s\"): set.compare: compare \"in/c.json\": in/c.json: _ropelab.layout must be a string (got 5)"},
    {"ropelab-note", "export-data --view frequencies --session FILE/s.json --compare FILE/c.json --out OUT/f.csv", {{"c.json", "{\"head_dim\": 64, \"_ropelab\": {\"layout\": [\"half\"]}}"s}, {"s.json", "{\"ropelab_session\": 2}"s}}, 2, "--compare \"FILE/c.json\": FILE/c.json: _ropelab.layout must be a string (got [\"half\"])"},
    {"ropelab-note", "gui --session FILE/c.json --frames 1", {{"c.json", "{\"head_dim\": 64, \"_ropelab\": {\"layout\": \"sideways\"}}"s}}, 2, "--session FILE/c.json: ropelab_session must be a version from 1 to 2 (got none)"},
    {"ropelab-note", "gui FILE/c.json --frames 1", {{"c.json", "{\"head_dim\": 64, \"_ropelab\": {\"layout\": \"Half\"}}"s}}, 2, "FILE/c.json: _ropelab.layout = \"Half\" is not a pair layout (one of interleaved, half)"},
    // ---- names and paths: UTF-8 and one line at the door, escaped wherever they reach a file --
    {"text-safety", "export-data --view scores --max-distance 16 --base-name $'ab\\xffc' --out OUT/s.csv", {}, 2, "--base-name: compare.base_name = \"ab\\xFFc\" is not UTF-8 text (byte \\xFF at 2)"},
    {"text-safety", "export-data --view scores --max-distance 16 --base-name $'ab\\ncd' --out OUT/s.json", {}, 2, "--base-name: compare.base_name = \"ab\\x0Acd\" holds the control character \\x0A at byte 2"},
    {"text-safety", "render --view scores --size 160x90 --base-name $'a\\rb' --out OUT/s.svg", {}, 2, "--base-name: compare.base_name = \"a\\x0Db\" holds the control character \\x0D at byte 1"},
    {"text-safety", "render --view scores --size 160x90 --base-name $'\\xc3\\x28' --out OUT/s.svg", {}, 2, "--base-name: compare.base_name = \"\\xC3(\" is not UTF-8 text (byte \\xC3 at 0)"},
    {"text-safety", "render --view scores --size 160x90 --base-name $'\\xed\\xa0\\x80' --out OUT/s.svg", {}, 2, "--base-name: compare.base_name = \"\\xED\\xA0\\x80\" is not UTF-8 text (byte \\xED at 0)"},
    {"text-safety", "render --view scores --size 160x90 --base-name $'\\xc0\\xaf' --out OUT/s.svg", {}, 2, "--base-name: compare.base_name = \"\\xC0\\xAF\" is not UTF-8 text (byte \\xC0 at 0)"},
    {"text-safety", "export-data --view scores --max-distance 16 --compare $'rope_theta=5e5,name=x\\xfe' --out OUT/s.csv", {}, 2, "--compare \"rope_theta=5e5,name=x\\xFE\": name \"x\\xFE\" is not one line of UTF-8 text"},
    {"text-safety", "export-data --view scores --max-distance 16 --compare $'rope_theta=5e5,name=x\\ny' --out OUT/s.csv", {}, 2, "--compare \"rope_theta=5e5,name=x\\x0Ay\": name \"x\\x0Ay\" is not one line of UTF-8 text"},
    {"text-safety", "export-data --view scores --max-distance 16 --compare $'rope_theta=5e5,name=a\\tb' --out OUT/s.csv", {}, 2, "--compare \"rope_theta=5e5,name=a\\x09b\": name \"a\\x09b\" is not one line of UTF-8 text"},
    {"text-safety", "export-data --view scores --max-distance 16 --compare $'FILE/c\\xff.json' --out OUT/s.csv", {{"c\xff.json", "{\"model_type\": \"llama\", \"head_dim\": 64}"s}}, 2, "compare.1.name = \"c\\xFF\" is not UTF-8 text (byte \\xFF at 1)"},
    {"text-safety", "export-data --view scores --max-distance 16 --config $'FILE/c\\nx.json' --out OUT/s.csv", {{"c\nx.json", "{\"model_type\": \"llama\", \"head_dim\": 64}"s}}, 2, "--config: \"FILE/c\\x0Ax.json\" holds the control character \\x0A at byte"},
    {"text-safety", "export-data --view scores --max-distance 16 --config $'FILE/c\\xffx.json' --out OUT/s.csv", {{"c\xffx.json", "{\"model_type\": \"llama\", \"head_dim\": 64}"s}}, 2, "--config: \"FILE/c\\xFFx.json\" is not UTF-8 text (byte \\xFF at"},
    {"text-safety", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file $'FILE/q\\xff.txt' --out OUT/a.csv", {}, 2, "--q-file: attention.q_file = \"FILE/q\\xFF.txt\" is not UTF-8 text (byte \\xFF at"},
    {"text-safety", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file FILE/q.txt --k-file $'FILE/k\\n.txt' --out OUT/a.csv", {{"q.txt", "1 2 3 4\n5 6 7 8\n"s}}, 2, "--k-file: attention.k_file = \"FILE/k\\x0A.txt\" holds the control character \\x0A at byte"},
    {"text-safety", "export-data --view scores --max-distance 16 --tokens $'text:4\\xff' --out OUT/s.csv", {}, 2, "--tokens: images.tokens = \"text:4\\xFF\" is not UTF-8 text (byte \\xFF at 6)"},
    {"text-safety", "export-data --view scores --max-distance 16 --session FILE/s.json --out OUT/s.csv", {{"s.json", "{\"ropelab_session\": 2, \"compare\": {\"base_name\": \"a\\nb\"}}"s}}, 2, "--session FILE/s.json: compare.base_name = \"a\\x0Ab\" holds the control character \\x0A at byte 1"},
    {"text-safety", "export-data --view scores --max-distance 16 --session FILE/s.json --out OUT/s.csv", {{"s.json", "{\"ropelab_session\": 2, \"preset\": \"textbook\\u0000\"}"s}}, 2, "--session FILE/s.json: preset = \"textbook\\x00\" holds the control character \\x00 at byte 8"},
    {"text-safety", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", lesson(scene("s", "\"views\": [3], \"set\": {\"base_name\": \"a\\u0007b\"}"))}}, 2, "FILE/l.json: scene 1 (\"s\"): set.base_name: compare.base_name = \"a\\x07b\" holds the control character \\x07 at byte 1"},
    {"text-safety", "export-data --view scores --max-distance 16 --base-name " + times("\u00e9", 64) + " --out OUT/s.csv", {}, 0, "", "s.csv"},
    {"text-safety", "export-data --view scores --max-distance 16 --base-name " + times("\u00e9", 65) + " --out OUT/s.csv", {}, 2, "--base-name: compare.base_name = " + times("\u00e9", 57) + "... is too long (text of at most 64 characters)"},
    {"text-safety", "export-data --view scores --max-distance 16 --base-name 'x,y \"z\" \\ w' --compare 'rope_theta=5e5,name=a \"b\" <c> & d' --out OUT/s.csv", {}, 0, "", "s.csv"},
    {"text-safety", "export-data --view scores --max-distance 16 --base-name 'x,y \"z\" \\ w' --compare 'rope_theta=5e5,name=a \"b\" <c> & d' --out OUT/s.json", {}, 0, "", "s.json"},
    {"text-safety", "render --view scores --size 320x200 --base-name '<x> & \"y\" '\"'\"'z'\"'\"' \u00e9 \u2713' --compare 'rope_theta=5e5,name=a<b>&c]]>' --out OUT/s.svg", {}, 0, "", "s.svg"},
    {"text-safety", "export-data --view frequencies --config 'FILE/a, \"b\" & <c>.json' --out OUT/f.csv", {{"a, \"b\" & <c>.json", "{\"model_type\": \"llama\", \"head_dim\": 64}"s}}, 0, "", "f.csv"},
    {"text-safety", "export-data --view frequencies --config 'FILE/a, \"b\" & <c>.json' --out OUT/f.json", {{"a, \"b\" & <c>.json", "{\"model_type\": \"llama\", \"head_dim\": 64}"s}}, 0, "", "f.json"},
    {"text-safety", "render --view frequencies --size 320x200 --config 'FILE/a, \"b\" & <c>.json' --out OUT/f.svg", {{"a, \"b\" & <c>.json", "{\"model_type\": \"llama\", \"head_dim\": 64}"s}}, 0, "", "f.svg"},
    };
    return all;
}

// The rows write bytes that are not UTF-8, and control characters, as bash's $'…' does; the
// binary is run by /bin/sh (dash), which has no $'…': each is decoded here into the bytes it
// stands for, in single quotes.
std::string shell_bytes(const std::string& args) {
    std::string out;
    for (std::size_t i = 0; i < args.size();) {
        if (args.compare(i, 2, "$'") != 0) {
            out += args[i++];
            continue;
        }
        std::string bytes;
        for (i += 2; i < args.size() && args[i] != '\''; ++i) {
            if (args[i] != '\\' || i + 1 >= args.size()) {
                bytes += args[i];
                continue;
            }
            const char e = args[++i];
            if (e == 'x') {
                bytes += static_cast<char>(std::stoi(args.substr(i + 1, 2), nullptr, 16));
                i += 2;
            } else {
                bytes += e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e;
            }
        }
        ++i;  // the closing quote
        out += "'";
        for (const char c : bytes) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
        out += "'";
    }
    return out;
}

std::string read_all(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// The output parses as what its name says; returns what is wrong, or "".
std::string output_problem(const fs::path& file) {
    if (!fs::exists(file)) return "no " + file.string();
    const std::string bytes = read_all(file);
    if (ropelab::first_invalid_utf8(bytes) != std::string::npos) return "not UTF-8";
    const std::string name = file.string();
    if (name.ends_with(".svg")) {
        const int status = std::system(("xmllint --noout '" + name + "' 2>/dev/null").c_str());
        return status == 0 ? "" : "xmllint refuses it";
    }
    if (name.ends_with(".json")) {
        try {
            const nlohmann::json parsed = nlohmann::json::parse(bytes);
            if (parsed.is_discarded()) return "not JSON";
        } catch (const std::exception& e) {
            return std::string("not JSON: ") + e.what();
        }
        return "";
    }
    // CSV: comment lines, then a header and rows with as many fields (RFC 4180 quoting).
    std::istringstream in(bytes);
    std::string line;
    std::size_t fields = 0;
    while (std::getline(in, line)) {
        if (line.starts_with("#")) continue;
        std::size_t n = 1;
        bool quoted = false;
        for (const char c : line) {
            if (c == '"') quoted = !quoted;
            else if (c == ',' && !quoted) ++n;
        }
        if (quoted) return "a quoted field runs past its line: " + line.substr(0, 80);
        if (fields == 0) fields = n;
        else if (n != fields) return "a row of " + std::to_string(n) + " fields, the header has " + std::to_string(fields);
    }
    return fields ? "" : "no header";
}

class HostileRound4 : public ::testing::TestWithParam<std::string> {};

TEST_P(HostileRound4, IsRefusedNamingItOrAcceptedNeverACrashOrAHang) {
    int ran = 0;
    for (const Round4Case& c : round4_cases()) {
        if (GetParam() != c.category) continue;
        ++ran;
        const ropelab::test::CaseRun run = ropelab::test::run_case("hostile_round4", c.args, c.files, shell_bytes);
        const Result& r = run.result;
        const std::string &in = run.in, &out = run.out;
        const fs::path& dir = run.dir;
        const std::string shown = ropelab::utf8_escaped(c.args.substr(0, 160));
        ASSERT_NE(r.status, -1) << shown;
        EXPECT_LT(r.status, 124) << shown << ": crashed or hung (" << r.status << ")\n" << r.err.substr(0, 400);
        EXPECT_EQ(r.status, c.status) << shown << "\n" << r.err.substr(0, 400);
        if (c.status == 2) {
            const std::string expected = "ropelab: error: " + with_folders(c.message, in, out);
            EXPECT_EQ(r.err.find(expected), 0u) << shown << "\nexpected: " << expected << "\ngot: " << r.err.substr(0, 400);
            EXPECT_TRUE(fs::is_empty(dir / "out")) << shown << ": a refused run wrote into OUT/";
            EXPECT_EQ(ropelab::first_invalid_utf8(r.err), std::string::npos) << shown << ": the message is not UTF-8";
        } else if (!c.output.empty()) {
            EXPECT_EQ(output_problem(dir / "out" / c.output), "") << shown;
        }
        fs::remove_all(dir);
    }
    EXPECT_GT(ran, 0);
}

INSTANTIATE_TEST_SUITE_P(EachEntryPoint, HostileRound4,
                         ::testing::Values("render-attention", "cli-grid", "lesson-timeline", "array-file-4", "ropelab-note",
                                           "text-safety"),
                         [](const auto& info) {
                             std::string name = info.param;
                             for (char& ch : name) {
                                 if (ch == '-') ch = '_';
                             }
                             return name;
                         });

TEST(HostileRound4, HasSeventyRowsOrMore) { EXPECT_GE(round4_cases().size(), 70u); }

}  // namespace
