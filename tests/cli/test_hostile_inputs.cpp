// Red team: hostile input at every entry point (CLI flags, config files, sessions and share
// strings, lessons, vector files, `gui --script`), each run through the real binary under a
// time limit. Every case must end with exit 2 and a message naming the field or value (its
// first words are checked), or succeed where the input is in fact valid; never a crash (exit
// >= 128) or a hang (killed at 20 s). The categories, counts and every case are listed in docs/redteam.md.
// FILE/ in a case's arguments and message is its folder of input files, OUT/ its empty output
// folder.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "support/hostile_case.h"
#include "support/run_binary.h"

namespace {

namespace fs = std::filesystem;
using namespace std::string_literals;  // file contents may hold NUL bytes
using ropelab::test::Result;
using ropelab::test::run;

struct Case {
    const char* category;
    std::string args;
    std::vector<std::pair<std::string, std::string>> files;  // name in FILE/ -> bytes
    int status;
    std::string message;  // the start of the error line after "ropelab: error: "
};

// prefix + n items (each '#' the item's index) joined by sep + suffix: the big inputs.
std::string repeat(const std::string& prefix, const std::string& item, int n, const std::string& sep, const std::string& suffix) {
    std::string out = prefix;
    out.reserve(prefix.size() + static_cast<std::size_t>(n) * (item.size() + sep.size() + 6) + suffix.size());
    for (int i = 0; i < n; ++i) {
        if (i) out += sep;
        std::string one = item;
        for (std::size_t at; (at = one.find('#')) != std::string::npos;) one.replace(at, 1, std::to_string(i));
        out += one;
    }
    return out + suffix;
}

// A .npy file (format version 1) with the header dict `dict` padded to 64 bytes, then `data`.
std::string npy(const std::string& dict, const std::string& data) {
    std::string header = dict;
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    return "\x93NUMPY\x01"s + '\0' + static_cast<char>(header.size() & 0xff) + static_cast<char>(header.size() >> 8) + header + data;
}

using ropelab::test::with_folders;

const std::vector<Case>& cases() {
    static const std::vector<Case> all = {
    {"cli-model", "freqs --head-dim '0'", {}, 2, "--head-dim: model.head_dim = 0 is out of range (2 .. 512)"},
    {"cli-model", "freqs --head-dim '-2'", {}, 2, "--head-dim: model.head_dim = -2 is out of range (2 .. 512)"},
    {"cli-model", "freqs --head-dim '513'", {}, 2, "--head-dim: model.head_dim = 513 is out of range (2 .. 512)"},
    {"cli-model", "freqs --head-dim '1e9'", {}, 2, "--head-dim: model.head_dim = 1000000000 is out of range (2 .. 512)"},
    {"cli-model", "freqs --head-dim 'nan'", {}, 2, "--head-dim: model.head_dim = nan is not a whole number (2 .. 512)"},
    {"cli-model", "freqs --head-dim 'inf'", {}, 2, "--head-dim: model.head_dim = inf is not a whole number (2 .. 512)"},
    {"cli-model", "freqs --head-dim ''", {}, 2, "--head-dim: model.head_dim =  is not a number (2 .. 512)"},
    {"cli-model", "freqs --head-dim 'abc'", {}, 2, "--head-dim: model.head_dim = abc is not a number (2 .. 512)"},
    {"cli-model", "freqs --head-dim '64abc'", {}, 2, "--head-dim: model.head_dim = 64abc is not a number (2 .. 512)"},
    {"cli-model", "freqs --head-dim '63'", {}, 2, "textbook: rotary dim = head_dim 63 x partial_rotary_factor 1 = 63 must b"},
    {"cli-model", "freqs --head-dim '0x40'", {}, 2, "--head-dim: model.head_dim = 0x40 is not a decimal number (2 .. 512)"},
    {"cli-model", "freqs --head-dim '99999999999999999999'", {}, 2, "--head-dim: model.head_dim = 1e+20 is out of range (2 .. 512)"},
    {"cli-model", "freqs --rope-theta '1'", {}, 2, "--rope-theta: model.rope_theta = 1 is out of range (1.0001 .. 1000000000"},
    {"cli-model", "freqs --rope-theta '0'", {}, 2, "--rope-theta: model.rope_theta = 0 is out of range (1.0001 .. 1000000000"},
    {"cli-model", "freqs --rope-theta '-5'", {}, 2, "--rope-theta: model.rope_theta = -5 is out of range (1.0001 .. 100000000"},
    {"cli-model", "freqs --rope-theta 'nan'", {}, 2, "--rope-theta: model.rope_theta = nan is not a finite number (1.0001 .. 1"},
    {"cli-model", "freqs --rope-theta 'inf'", {}, 2, "--rope-theta: model.rope_theta = inf is not a finite number (1.0001 .. 1"},
    {"cli-model", "freqs --rope-theta '1e400'", {}, 2, "--rope-theta: model.rope_theta = inf is not a finite number (1.0001 .. 1"},
    {"cli-model", "freqs --rope-theta '1e13'", {}, 2, "--rope-theta: model.rope_theta = 10000000000000 is out of range (1.0001 "},
    {"cli-model", "freqs --rope-theta 'abc'", {}, 2, "--rope-theta: model.rope_theta = abc is not a number (1.0001 .. 10000000"},
    {"cli-model", "freqs --rope-theta ''", {}, 2, "--rope-theta: model.rope_theta =  is not a number (1.0001 .. 10000000000"},
    {"cli-model", "freqs --partial-rotary-factor '0'", {}, 2, "--partial-rotary-factor: model.partial_rotary_factor = 0 is out of range"},
    {"cli-model", "freqs --partial-rotary-factor '2'", {}, 2, "--partial-rotary-factor: model.partial_rotary_factor = 2 is out of range"},
    {"cli-model", "freqs --partial-rotary-factor 'nan'", {}, 2, "--partial-rotary-factor: model.partial_rotary_factor = nan is not a fini"},
    {"cli-model", "freqs --partial-rotary-factor '-0.5'", {}, 2, "--partial-rotary-factor: model.partial_rotary_factor = -0.5 is out of ra"},
    {"cli-model", "freqs --factor '0'", {}, 2, "--factor: model.rope_scaling.factor = 0 is out of range (0.001 .. 10000)"},
    {"cli-model", "freqs --factor '-1'", {}, 2, "--factor: model.rope_scaling.factor = -1 is out of range (0.001 .. 10000"},
    {"cli-model", "freqs --factor '1e9'", {}, 2, "--factor: model.rope_scaling.factor = 1000000000 is out of range (0.001 "},
    {"cli-model", "freqs --factor 'nan'", {}, 2, "--factor: model.rope_scaling.factor = nan is not a finite number (0.001 "},
    {"cli-model", "freqs --max-position-embeddings '0'", {}, 2, "--max-position-embeddings: model.max_position_embeddings = 0 is out of r"},
    {"cli-model", "freqs --max-position-embeddings '-1'", {}, 2, "--max-position-embeddings: model.max_position_embeddings = -1 is out of "},
    {"cli-model", "freqs --max-position-embeddings '1e13'", {}, 2, "--max-position-embeddings: model.max_position_embeddings = 1000000000000"},
    {"cli-model", "freqs --max-position-embeddings '1.5'", {}, 2, "--max-position-embeddings: model.max_position_embeddings = 1.5 is not a "},
    {"cli-model", "freqs --seq-len '0'", {}, 2, "--seq-len: model.seq_len = 0 is out of range (1 .. 1000000000000)"},
    {"cli-model", "freqs --seq-len '1e20'", {}, 2, "--seq-len: model.seq_len = 1e+20 is out of range (1 .. 1000000000000)"},
    {"cli-model", "freqs --beta-fast '0'", {}, 2, "--beta-fast: model.rope_scaling.beta_fast = 0 is out of range (0.001 .. "},
    {"cli-model", "freqs --beta-fast 'nan'", {}, 2, "--beta-fast: model.rope_scaling.beta_fast = nan is not a finite number ("},
    {"cli-model", "freqs --attention-factor '0'", {}, 2, "--attention-factor: model.rope_scaling.attention_factor = 0 is out of ra"},
    {"cli-model", "freqs --attention-factor '1e5'", {}, 2, "--attention-factor: model.rope_scaling.attention_factor = 100000 is out "},
    {"cli-model", "freqs --original-max-position-embeddings '0'", {}, 2, "--original-max-position-embeddings: model.rope_scaling.original_max_posi"},
    {"cli-model", "freqs --original-max-position-embeddings '-7'", {}, 2, "--original-max-position-embeddings: model.rope_scaling.original_max_posi"},
    {"cli-enum", "freqs --layout 'x'", {}, 2, "--layout: model.layout = \"x\" is unknown (one of interleaved, half)"},
    {"cli-enum", "freqs --layout 'Interleaved '", {}, 2, "--layout: model.layout = \"Interleaved \" is unknown (one of interleaved, "},
    {"cli-enum", "freqs --layout 'half,interleaved'", {}, 2, "--layout: model.layout = \"half,interleaved\" is unknown (one of interleav"},
    {"cli-enum", "freqs --layout ''", {}, 2, "--layout: model.layout = \"\" is unknown (one of interleaved, half)"},
    {"cli-enum", "freqs --rope-type 'yarnn'", {}, 2, "--rope-type: model.rope_scaling.rope_type = \"yarnn\" is unknown (one of d"},
    {"cli-enum", "freqs --rope-type ''", {}, 2, "--rope-type: model.rope_scaling.rope_type = \"\" is unknown (one of defaul"},
    {"cli-enum", "freqs --rope-type 'default;rm -rf'", {}, 2, "--rope-type: model.rope_scaling.rope_type = \"default;rm -rf\" is unknown "},
    {"cli-enum", "freqs --rope-type 'LINEAR'", {}, 2, "--rope-type: model.rope_scaling.rope_type = \"LINEAR\" is unknown (one of "},
    {"cli-list", "freqs --rope-type longrope --long-factor '1,2,nan' --short-factor 1", {}, 2, "--long-factor: model.rope_scaling.long_factor = 1,2,nan holds nan, out o"},
    {"cli-list", "freqs --rope-type longrope --long-factor 'abc' --short-factor 1", {}, 2, "--long-factor: model.rope_scaling.long_factor = abc is not a number (at "},
    {"cli-list", "freqs --rope-type longrope --long-factor '1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1' --short-factor 1", {}, 2, "--long-factor: model.rope_scaling.long_factor = 1,1,1,1,1,1,1,1,1,1,1,1,"},
    {"cli-list", "freqs --rope-type longrope --long-factor '0,1' --short-factor 1", {}, 2, "--long-factor: model.rope_scaling.long_factor = 0,1 holds 0, out of rang"},
    {"cli-list", "freqs --rope-type longrope --long-factor '1e400' --short-factor 1", {}, 2, "--long-factor: model.rope_scaling.long_factor = inf holds inf, out of ra"},
    {"cli-position", "angles --position '-1'", {}, 2, "--position: focus.position = -1 is out of range (0 .. 2147483647)"},
    {"cli-position", "angles --position '2147483648'", {}, 2, "--position: focus.position = 2147483648 is out of range (0 .. 2147483647"},
    {"cli-position", "angles --position 'nan'", {}, 2, "--position: focus.position = nan is not a whole number (0 .. 2147483647)"},
    {"cli-position", "angles --position '1e10'", {}, 2, "--position: focus.position = 10000000000 is out of range (0 .. 214748364"},
    {"cli-position", "angles --position 'abc'", {}, 2, "--position: focus.position = abc is not a number (0 .. 2147483647)"},
    {"cli-position", "angles --position ''", {}, 2, "--position: focus.position =  is not a number (0 .. 2147483647)"},
    {"cli-curves", "scores --max-distance '0'", {}, 2, "--max-distance: curves.max_distance = 0 is out of range (16 .. 16777216)"},
    {"cli-curves", "scores --max-distance '15'", {}, 2, "--max-distance: curves.max_distance = 15 is out of range (16 .. 16777216"},
    {"cli-curves", "scores --max-distance '16777217'", {}, 2, "--max-distance: curves.max_distance = 16777217 is out of range (16 .. 16"},
    {"cli-curves", "scores --max-distance '1e9'", {}, 2, "--max-distance: curves.max_distance = 1000000000 is out of range (16 .. "},
    {"cli-curves", "scores --max-distance '-16'", {}, 2, "--max-distance: curves.max_distance = -16 is out of range (16 .. 1677721"},
    {"cli-curves", "scores --max-distance 'nan'", {}, 2, "--max-distance: curves.max_distance = nan is not a whole number (16 .. 1"},
    {"cli-curves", "scores --vectors random --seed '-1'", {}, 2, "--seed: curves.seed = -1 is out of range (0 .. 4294967295)"},
    {"cli-curves", "scores --vectors random --seed '4294967296'", {}, 2, "--seed: curves.seed = 4294967296 is out of range (0 .. 4294967295)"},
    {"cli-curves", "scores --vectors random --seed 'nan'", {}, 2, "--seed: curves.seed = nan is not a whole number (0 .. 4294967295)"},
    {"cli-curves", "scores --vectors random --seed 'x'", {}, 2, "--seed: curves.seed = x is not a number (0 .. 4294967295)"},
    {"cli-curves", "scores --vectors mean --samples '0'", {}, 2, "--samples: curves.samples = 0 is out of range (1 .. 65536)"},
    {"cli-curves", "scores --vectors mean --samples '65537'", {}, 2, "--samples: curves.samples = 65537 is out of range (1 .. 65536)"},
    {"cli-curves", "scores --vectors mean --samples '-3'", {}, 2, "--samples: curves.samples = -3 is out of range (1 .. 65536)"},
    {"cli-vector", "scores --vectors custom --q 'ones,1' --k ones", {}, 2, "--q: component 0: \"ones\" is not a finite number"},
    {"cli-vector", "scores --vectors custom --q '1,2,3' --k ones", {}, 2, "--q: \"1,2,3\" has 3 components; the head dim is 128"},
    {"cli-vector", "scores --vectors custom --q 'nan,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1' --k ones", {}, 2, "--q: component 0: \"nan\" is not a finite number"},
    {"cli-vector", "scores --vectors custom --q 'random:abc' --k ones", {}, 2, "--q: \"random:abc\": the seed must be a non-negative integer"},
    {"cli-vector", "scores --vectors custom --q 'random:-1' --k ones", {}, 2, "--q: \"random:-1\": the seed must be a non-negative integer"},
    {"cli-vector", "scores --vectors custom --q 'inf,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1' --k ones", {}, 2, "--q: component 0: \"inf\" is not a finite number"},
    {"cli-vector", "scores --vectors custom --q '' --k ones", {}, 2, "--q: empty vector (expected ones, random:SEED, a comma-separated list or"},
    {"cli-compare", "freqs --compare 'bogus-model'", {}, 2, "--compare \"bogus-model\": \"bogus-model\" is not a preset, a config file, o"},
    {"cli-compare", "freqs --compare 'rope_theta=abc'", {}, 2, "--compare \"rope_theta=abc\": model.rope_theta = abc is not a number (1.00"},
    {"cli-compare", "freqs --compare 'head_dim=7'", {}, 2, "--compare \"head_dim=7\": model: rotary dim = head_dim 7 x partial_rotary_"},
    {"cli-compare", "freqs --compare '=5'", {}, 2, "--compare \"=5\": \"=5\" has no key before '='"},
    {"cli-compare", "freqs --compare 'rope_theta=1e400'", {}, 2, "--compare \"rope_theta=1e400\": model.rope_theta = inf is not a finite num"},
    {"cli-compare", "freqs --compare 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'", {}, 2, "--compare \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...\""},
    {"cli-compare", "freqs --compare 'rope_type=yarn,factor=-1'", {}, 2, "--compare \"rope_type=yarn,factor=-1\": model.rope_scaling.factor = -1 is "},
    {"cli-compare", "freqs --compare llama3-8b --compare llama2-7b --compare gemma-7b --compare mistral-7b", {}, 2, "--compare: 4 settings beside the base; at most 3"},
    {"cli-compare", "freqs --comparison no-such-comparison", {}, 2, "--comparison: unknown comparison \"no-such-comparison\" (built in: llama3."},
    {"cli-render", "render --view scores --size '0x0' --out OUT/x.png", {}, 2, "--size: expected WxH with each side in 1 .. 8192 (got \"0x0\")"},
    {"cli-render", "render --view scores --size '1x' --out OUT/x.png", {}, 2, "--size: expected WxH with each side in 1 .. 8192 (got \"1x\")"},
    {"cli-render", "render --view scores --size 'x1' --out OUT/x.png", {}, 2, "--size: expected WxH with each side in 1 .. 8192 (got \"x1\")"},
    {"cli-render", "render --view scores --size '-5x10' --out OUT/x.png", {}, 2, "--size: expected WxH with each side in 1 .. 8192 (got \"-5x10\")"},
    {"cli-render", "render --view scores --size '8193x100' --out OUT/x.png", {}, 2, "--size: expected WxH with each side in 1 .. 8192 (got \"8193x100\")"},
    {"cli-render", "render --view scores --size '100x8193' --out OUT/x.png", {}, 2, "--size: expected WxH with each side in 1 .. 8192 (got \"100x8193\")"},
    {"cli-render", "render --view scores --size '1e3x100' --out OUT/x.png", {}, 2, "--size: expected WxH with each side in 1 .. 8192 (got \"1e3x100\")"},
    {"cli-render", "render --view scores --size '10x10x10' --out OUT/x.png", {}, 2, "--size: expected WxH with each side in 1 .. 8192 (got \"10x10x10\")"},
    {"cli-render", "render --view scores --size '' --out OUT/x.png", {}, 2, "--size: expected WxH with each side in 1 .. 8192 (got \"\")"},
    {"cli-render", "render --view scores --size 'abc' --out OUT/x.png", {}, 2, "--size: expected WxH with each side in 1 .. 8192 (got \"abc\")"},
    {"cli-render", "render --view scores --size '99999999999x1' --out OUT/x.png", {}, 2, "--size: expected WxH with each side in 1 .. 8192 (got \"99999999999x1\")"},
    {"cli-render", "render --view 'bogus' --out OUT/x.png", {}, 2, "--view: unknown view \"bogus\" (expected planes, contrast, scores, invaria"},
    {"cli-render", "render --view 'All' --out OUT/x.png", {}, 2, "--view: unknown view \"All\" (expected planes, contrast, scores, invarianc"},
    {"cli-render", "render --view 'scores,heatmap' --out OUT/x.png", {}, 2, "--view: unknown view \"scores,heatmap\" (expected planes, contrast, scores"},
    {"cli-render", "render --view '' --out OUT/x.png", {}, 2, "--view: unknown view \"\" (expected planes, contrast, scores, invariance, "},
    {"cli-render", "render --view scores --frames '0' --out OUT/x.gif", {}, 2, "--frames: must be in [1, 100000] (got 0)"},
    {"cli-render", "render --view scores --frames '100001' --out OUT/x.gif", {}, 2, "--frames: must be in [1, 100000] (got 100001)"},
    {"cli-render", "render --view scores --frames '-1' --out OUT/x.gif", {}, 2, "--frames: must be in [1, 100000] (got -1)"},
    {"cli-render", "render --view scores --frames 'nan' --out OUT/x.gif", {}, 2, "--frames: must be in [1, 100000] (got nan)"},
    {"cli-render", "render --view scores --frames '1.5' --out OUT/x.gif", {}, 2, "Could not convert: --frames = 1.5"},
    {"cli-render", "render --view scores --fps '0' --out OUT/x.gif", {}, 2, "--fps: must be in [1, 240] (got 0)"},
    {"cli-render", "render --view scores --fps '241' --out OUT/x.gif", {}, 2, "--fps: must be in [1, 240] (got 241)"},
    {"cli-render", "render --view scores --frames 2 --animate sideways --out OUT/x.gif", {}, 2, "--animate: sideways not in {position,distance,theta,factor}"},
    {"cli-render", "render --view scores --frames 2 --animate theta --from -5 --to 10 --out OUT/x.gif", {}, 2, "--from/--to: a log sweep needs positive values"},
    {"cli-render", "render --view scores --frames 2 --animate theta --from nan --out OUT/x.gif", {}, 2, "--from: must be a finite number (got nan)"},
    {"cli-render", "render --view scores --frames 2 --animate factor --from 0 --to 1 --out OUT/x.gif", {}, 2, "--from/--to: a log sweep needs positive values"},
    {"cli-render", "render --view scores --frames 2 --animate position --from inf --out OUT/x.gif", {}, 2, "--from: must be a finite number (got inf)"},
    {"cli-out", "render --view scores --out 'OUT/x.txt'", {}, 2, "--out: unknown animation format \"OUT/x.txt\" (expected .gif, .mp4, a fold"},
    {"cli-out", "render --view scores --out 'OUT/x'", {}, 2, "--out: unknown animation format \"OUT/x\" (expected .gif, .mp4, a folder D"},
    {"cli-out", "render --view scores --size 64x36 --frames 2 --out 'OUT/'", {}, 0, ""},
    {"cli-out", "render --view scores --out '/nonexistent/dir/x.png'", {}, 2, "--out /nonexistent/dir/x.png: folder /nonexistent/dir does not exist"},
    {"cli-out", "render --view scores --size 64x36 --frames 2 --out 'OUT/x.png/'", {}, 0, ""},
    {"cli-out", "render --view scores --size 64x36 --frames 2 --out 'OUT/../out'", {}, 0, ""},
    {"cli-out", "export-data --view scores --out 'OUT/x.txt'", {}, 2, "--out: unknown data format \"OUT/x.txt\" (expected .csv or .json)"},
    {"cli-out", "export-data --view scores --out 'OUT/x.csvv'", {}, 2, "--out: unknown data format \"OUT/x.csvv\" (expected .csv or .json)"},
    {"cli-out", "export-data --view scores --out '/nonexistent/x.csv'", {}, 2, "--out /nonexistent/x.csv: folder /nonexistent does not exist"},
    {"cli-out", "export-data --view scores --out 'OUT/x.json/'", {}, 2, "--out: unknown data format \"OUT/x.json/\" (expected .csv or .json)"},
    {"cli-out", "export-data --view bogus --out OUT/x.csv", {}, 2, "--view: unknown view \"bogus\" (expected planes, contrast, scores, invaria"},
    {"cli-out", "export-data --view all --out OUT/x.csv", {}, 2, "--view: unknown view \"all\" (expected planes, contrast, scores, invarianc"},
    {"cli-position", "invariance --positions '0:-1'", {}, 2, "--positions: need 0 <= A < B <= 2^31 (positions up to 2147483647, where "},
    {"cli-position", "invariance --positions '0:2147483648'", {}, 2, "--positions: at most 4194304 positions per sweep (got 2147483648)"},
    {"cli-position", "invariance --positions '0:1e3'", {}, 2, "--positions: expected A:B with integers A < B (got \"0:1e3\")"},
    {"cli-position", "invariance --positions '5:5'", {}, 2, "--positions: need 0 <= A < B <= 2^31 (positions up to 2147483647, where "},
    {"cli-position", "invariance --positions '10:2'", {}, 2, "--positions: need 0 <= A < B <= 2^31 (positions up to 2147483647, where "},
    {"cli-position", "invariance --positions 'a:b'", {}, 2, "--positions: expected A:B with integers A < B (got \"a:b\")"},
    {"cli-position", "invariance --positions '1:2:3'", {}, 2, "--positions: expected A:B with integers A < B (got \"1:2:3\")"},
    {"cli-position", "invariance --positions ':'", {}, 2, "--positions: expected A:B with integers A < B (got \":\")"},
    {"cli-position", "invariance --positions '-5:10'", {}, 2, "--positions: need 0 <= A < B <= 2^31 (positions up to 2147483647, where "},
    {"cli-position", "invariance --positions '0:4194305'", {}, 2, "--positions: at most 4194304 positions per sweep (got 4194305)"},
    {"cli-misc", "freqs --preset no-such-preset", {}, 2, "unknown preset \"no-such-preset\" (available: textbook, deepseek-v3, flux-dev, gemma"},
    {"cli-misc", "freqs --preset ''", {}, 2, "--preset: must not be empty"},
    {"cli-misc", "freqs --preset llama3-8b --config FILE/c.json", {{"c.json", "{}"s}}, 2, "--preset excludes --config"},
    {"cli-misc", "no-such-command", {}, 2, "no-such-command: no such file to open, and not a subcommand"},
    {"cli-misc", "freqs --head-dim 64 --head-dim 32", {}, 2, "--head-dim: At Most 1 required but received 2"},
    {"cli-misc", "freqs --layer-type 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'", {}, 2, "preset textbook: --layer-type xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
    {"cli-misc", "gui --frames 0", {}, 2, "--frames: must be in [1, 10000000] (got 0)"},
    {"cli-misc", "gui --ui-scale 100 --frames 1", {}, 2, "--ui-scale: layout.ui_scale = 100 is out of range (1 .. 4)"},
    {"cli-misc", "render --lesson builtin --scene 1000 --out OUT/x.png", {}, 2, "--scene: the lesson has scenes 1 .. 15 (got 1000)"},
    {"cli-attention", "export-data --view attention --tokens text:8 --p-rope '2' --out OUT/a.csv", {}, 2, "--p-rope: model.p_rope = 2 is out of range (0 .. 1)"},
    {"cli-attention", "export-data --view attention --tokens text:8 --p-rope 'nan' --out OUT/a.csv", {}, 2, "--p-rope: model.p_rope = nan is not a finite number (0 .. 1)"},
    {"cli-attention", "export-data --view attention --tokens text:8 --sliding-window '-1' --out OUT/a.csv", {}, 2, "--sliding-window: model.attention.sliding_window = -1 is out of range (0 .. 1000000000000)"},
    {"cli-attention", "export-data --view attention --tokens text:8 --attention-chunk '-8' --out OUT/a.csv", {}, 2, "--attention-chunk: model.attention.attention_chunk = -8 is out of range (0 .. 1000000000000)"},
    {"cli-attention", "export-data --view attention --tokens text:8 --floor-scale '0' --out OUT/a.csv", {}, 2, "--floor-scale: model.attention.floor_scale = 0 is out of range (1 .. 1000000000000)"},
    {"cli-attention", "export-data --view attention --tokens text:8 --attn-scale '11' --out OUT/a.csv", {}, 2, "--attn-scale: model.attention.attn_scale = 11 is out of range (0 .. 10)"},
    {"cli-attention", "export-data --view attention --tokens text:8 --layer-rope=maybe --out OUT/a.csv", {}, 2, "--layer-rope: model.attention.rope = maybe is not true or false"},
    {"cli-attention", "export-data --view attention --tokens text:8 --attn-temperature-tuning=tru --out OUT/a.csv", {}, 2, "--attn-temperature-tuning: model.attention.temperature_tuning = tru is not true or false"},
    {"cli-attention", "export-data --view attention --tokens text:8 --query-pre-attn-scalar '-1' --out OUT/a.csv", {}, 2, "--query-pre-attn-scalar: model.query_pre_attn_scalar = -1 is out of range (0 .. 1000000)"},
    {"cli-attention", "export-data --view attention --tokens text:8 --query-pre-attn-scalar '0.5' --out OUT/a.csv", {}, 2, "model: query_pre_attn_scalar must be 0 (head_dim) or in 1 .. 10^6 (got 0.5)"},
    {"cli-attention", "export-data --view attention --tokens text:8 --token-vectors 'foo' --out OUT/a.csv", {}, 2, "--token-vectors: attention.vectors = \"foo\" is unknown (one of same, random, needle, file)"},
    {"cli-attention", "export-data --view attention --tokens text:8 --needle '9999999' --out OUT/a.csv", {}, 2, "--needle: attention.needle = 9999999 is out of range (0 .. 1048575)"},
    {"cli-attention", "export-data --view attention --tokens text:8 --token-vectors needle --needle '100' --out OUT/a.csv", {}, 2, "attention.needle: token 100 is past the layout's 8 tokens"},
    {"cli-attention", "export-data --view attention --tokens text:8 --shared-part '1.5' --out OUT/a.csv", {}, 2, "--shared-part: attention.shared = 1.5 is out of range (0 .. 1)"},
    {"cli-attention", "export-data --view attention --tokens text:8 --readout-distance '0' --out OUT/a.csv", {}, 2, "--readout-distance: attention.readout_distance = 0 is out of range (1 .. 1048576)"},
    {"cli-attention", "export-data --view attention --tokens text:8 --layer '-2' --out OUT/a.csv", {}, 2, "--layer: layer = -2 is out of range (-1 .. 100000)"},
    {"cli-attention", "export-data --view attention --tokens text:2049 --out OUT/a.csv", {}, 2, "images.tokens: the layout has 2049 tokens; an attention export holds every entry of at most 2048"},
    {"cli-attention", "export-data --view attention --tokens text:70000 --token-vectors file --q-file FILE/none.npy --out OUT/a.csv", {}, 2, "images.tokens: the layout has 70000 tokens; an attention export holds every entry of at most 2048"},
    {"array-file", "export-data --view attention --tokens text:2 --token-vectors file --out OUT/a.csv", {}, 2, "attention.q_file: \"\": file vectors need the queries' file"},
    {"array-file", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file FILE/q.npy --out OUT/a.csv", {}, 2, "attention.q_file: FILE/q.npy: cannot open vector array file (it does not exist)"},
    {"array-file", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file FILE/ --out OUT/a.csv", {}, 2, "attention.q_file: FILE/: not a vector array file (it is a folder)"},
    {"array-file", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file FILE/q.npy --out OUT/a.csv", {{"q.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 4), }", "\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F"s)}}, 2, "attention.q_file: FILE/q.npy: shape (2, 4) of '<f4' needs 2 × 4 × 4 bytes of data; the file has 16 after its header (truncated)"},
    {"array-file", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file FILE/q.npy --out OUT/a.csv", {{"q.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000, 4), }", "\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F"s)}}, 2, "attention.q_file: FILE/q.npy: shape (1000000000, 4) of '<f4' needs 1000000000 × 4 × 4 bytes of data; the file has 16 after its header (truncated)"},
    {"array-file", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file FILE/q.npy --out OUT/a.csv", {{"q.npy", npy("{'descr': '>f4', 'fortran_order': False, 'shape': (2, 4), }", "\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F"s)}}, 2, "attention.q_file: FILE/q.npy: dtype '>f4' is big-endian; the .npy reader takes little-endian floats '<f2', '<f4' or '<f8'"},
    {"array-file", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file FILE/q.npy --out OUT/a.csv", {{"q.npy", npy("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 4), }", "\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F"s)}}, 2, "attention.q_file: FILE/q.npy: dtype '<i4' is not a float type read here"},
    {"array-file", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file FILE/q.npy --out OUT/a.csv", {{"q.npy", npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 4), }", "\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F"s)}}, 2, "attention.q_file: FILE/q.npy: fortran_order is True (column-major)"},
    {"array-file", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file FILE/q.npy --out OUT/a.csv", {{"q.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 4), }", "\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\xC0\x7F\x00\x00\x80\x3F\x00\x00\x80\x3F"s)}}, 2, "attention.q_file: FILE/q.npy: row 1 column 1 is nan, not a finite number"},
    {"array-file", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file FILE/q.npy --out OUT/a.csv", {{"q.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (8,), }", "\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F"s)}}, 2, "attention.q_file: FILE/q.npy: shape (8,); a T × d array is needed: shape (T, d), or (1, T, d)"},
    {"array-file", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file FILE/q.npy --out OUT/a.csv", {{"q.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4, 2), }", "\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F"s)}}, 2, "attention.q_file: FILE/q.npy: rows of 2 numbers; the head has head_dim = 4 components"},
    {"array-file", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file FILE/q.npy --out OUT/a.csv", {{"q.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 4), }", "\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F"s)}}, 2, "attention.q_file: FILE/q.npy: 1 rows; the token layout images.tokens \"text:2\" has 2 tokens (one row per token)"},
    {"array-file", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file FILE/q.npy --out OUT/a.csv", {{"q.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 4), }", "\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F\x00\x00\x80\x3F"s)}}, 0, ""},
    {"array-file", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file FILE/q.txt --out OUT/a.csv", {{"q.txt", "1 2 3 4\n5 6 7\n"s}}, 2, "attention.q_file: FILE/q.txt: line 2 (row 1) has 3 numbers, expected 4 (as in the first row)"},
    {"array-file", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file FILE/q.txt --out OUT/a.csv", {{"q.txt", "\x00\x01\x02\xff 1 2 3\n"s}}, 2, "attention.q_file: FILE/q.txt: line 1 (row 0): \"\\x00\\x01\\x02\\xFF\" is not a number"},
    {"array-file", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file FILE/q.txt --out OUT/a.csv", {{"q.txt", "1 2 3 4\n5 6 7 1e10\n"s}}, 2, "attention.q_file: FILE/q.txt: row 1 column 3 is 10000000000, beyond ±1e+09"},
    {"array-file", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file FILE/q.json --out OUT/a.csv", {{"q.json", repeat("", "[", 300, "", "")}}, 2, "attention.q_file: FILE/q.json: nested deeper than 256 levels"},
    {"array-file", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file FILE/q.json --out OUT/a.csv", {{"q.json", "[[1, 2, 3, 4], {\"q\": 1}]"s}}, 2, "attention.q_file: FILE/q.json: row 1 is {\"q\": 1}, not an array of numbers"},
    {"array-file", "export-data --view attention --tokens text:2 --head-dim 4 --token-vectors file --q-file FILE/q.txt --k-file FILE/k.npy --out OUT/a.csv", {{"q.txt", "1 2 3 4\n5 6 7 8\n"s}}, 2, "attention.k_file: FILE/k.npy: cannot open vector array file (it does not exist)"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "this is not json"s}}, 2, "FILE/c.json: not valid JSON: at line 1, column 2: value - invalid litera"},
    {"config", "freqs --config FILE/c.json", {{"c.json", ""s}}, 2, "FILE/c.json: not valid JSON: at line 1, column 1: value - unexpected end"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "   \x0a\x09 "s}}, 2, "FILE/c.json: not valid JSON: at line 2, column 3: value - unexpected end"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "[1,2,3]"s}}, 2, "FILE/c.json: the top level must be a JSON object"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "\"llama\""s}}, 2, "FILE/c.json: the top level must be a JSON object"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "null"s}}, 2, "FILE/c.json: the top level must be a JSON object"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 64,}"s}}, 2, "FILE/c.json: not valid JSON: at line 1, column 17: object key - unexpect"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 64"s}}, 2, "FILE/c.json: not valid JSON: at line 1, column 16: object - unexpected e"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 6\x00""4}"s}}, 2, "FILE/c.json: not valid JSON: at line 1, column 15: object - unexpected e"},
    {"config", "freqs --config FILE/c.json", {{"c.json", repeat("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "", 0, "", "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]")}}, 2, "FILE/c.json: nested deeper than 256 levels; no ropelab file needs more t"},
    {"config", "freqs --config FILE/c.json", {{"c.json", repeat("{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":1", "", 0, "", "}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}")}}, 2, "FILE/c.json: nested deeper than 256 levels; no ropelab file needs more t"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": \"64\"}"s}}, 2, "FILE/c.json: head_dim must be a whole number in 2 .. 512 (got \"64\")"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 1e300}"s}}, 2, "FILE/c.json: head_dim = 1e+300 is out of range (2 .. 512)"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": -64}"s}}, 2, "FILE/c.json: head_dim = -64 is out of range (2 .. 512)"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 63}"s}}, 2, "FILE/c.json: rotary dim = head_dim 63 x partial_rotary_factor 1 = 63 mus"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 64.5}"s}}, 2, "FILE/c.json: head_dim = 64.5 is not a whole number (2 .. 512)"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 64, \"rope_theta\": 0}"s}}, 2, "FILE/c.json: rope_theta = 0 is out of range (1.0001 .. 1000000000000)"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 64, \"rope_theta\": -10000}"s}}, 2, "FILE/c.json: rope_theta = -10000 is out of range (1.0001 .. 100000000000"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 64, \"rope_theta\": \"ten thousand\"}"s}}, 2, "FILE/c.json: rope_theta must be a number (got \"ten thousand\")"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 64, \"rope_theta\": 1e400}"s}}, 2, "FILE/c.json: not valid JSON: number overflow parsing '1e400'"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 64, \"rope_theta\": 1e300}"s}}, 2, "FILE/c.json: rope_theta = 1e+300 is out of range (1.0001 .. 100000000000"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 64, \"rope_scaling\": 5}"s}}, 2, "FILE/c.json: rope_scaling must be an object (got 5)"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 64, \"rope_scaling\": {\"type\": \"warp\", \"factor\": 2}}"s}}, 2, "FILE/c.json: rope_scaling.rope_type unknown rope_type \"warp\" (expected d"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 64, \"rope_scaling\": {\"rope_type\": \"linear\", \"factor\": 0}}"s}}, 2, "FILE/c.json: rope_scaling.factor = 0 is out of range (0.001 .. 10000)"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 64, \"rope_scaling\": {\"rope_type\": \"linear\", \"factor\": -8}}"s}}, 2, "FILE/c.json: rope_scaling.factor = -8 is out of range (0.001 .. 10000)"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 64, \"rope_scaling\": {\"rope_type\": \"linear\", \"factor\": \"8\"}}"s}}, 2, "FILE/c.json: rope_scaling.factor must be a number (got \"8\")"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 64, \"rope_scaling\": {\"rope_type\": \"yarn\", \"factor\": 8, \"original_max_position_embeddings\": -1}}"s}}, 2, "FILE/c.json: rope_scaling.original_max_position_embeddings = -1 is out o"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 64, \"rope_scaling\": {\"rope_type\": \"longrope\", \"long_factor\": [1,2], \"short_factor\": [1,2]}}"s}}, 2, "FILE/c.json: original_max_position_embeddings is required for rope_type "},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 8, \"rope_scaling\": {\"rope_type\": \"longrope\", \"long_factor\": [1,2,\"x\",4], \"short_factor\": [1,1,1,1]}}"s}}, 2, "FILE/c.json: rope_scaling.long_factor[2] = \"x\" is not a number in 0.001 "},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"hidden_size\": 4096, \"num_attention_heads\": 0}"s}}, 2, "FILE/c.json: num_attention_heads = 0 is out of range (1 .. 2147483647)"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"hidden_size\": 1e18, \"num_attention_heads\": 1}"s}}, 2, "FILE/c.json: hidden_size = 1e+18 is out of range (1 .. 2147483647)"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 64, \"partial_rotary_factor\": 0}"s}}, 2, "FILE/c.json: partial_rotary_factor = 0 is out of range (1e-06 .. 1)"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 64, \"partial_rotary_factor\": 2}"s}}, 2, "FILE/c.json: partial_rotary_factor = 2 is out of range (1e-06 .. 1)"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 64, \"max_position_embeddings\": -5}"s}}, 2, "FILE/c.json: max_position_embeddings = -5 is out of range (1 .. 10000000"},
    {"config", "freqs --config FILE/c.json", {{"c.json", repeat("[", "{}", 600000, ",", "]")}}, 2, "FILE/c.json: more than 200000 values; no ropelab file needs so many (a m"},
    {"config", "freqs --config FILE/c.json", {{"c.json", repeat("{", "\"k#\": 0", 200000, ",", "}")}}, 2, "FILE/c.json: an object has more than 20000 keys; no ropelab file needs s"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "{\"head_dim\": 64, \"model_type\": \"\xff\xfe\"}"s}}, 2, "FILE/c.json: not valid JSON: at line 1, column 33: value - invalid strin"},
    {"config", "freqs --config FILE/c.json", {{"c.json", "\xef\xbb\xbf{\"model_type\": \"llama\", \"head_dim\": 64}"s}}, 0, ""},
    {"config", "freqs --config FILE/", {}, 2, "FILE/: no config.json in this folder (a checkpoint's RoPE is read from the co"},
    {"config", "freqs --config FILE/missing.json", {}, 2, "FILE/missing.json: cannot open config file (it does not exist)"},
    {"config", "freqs --config /dev/zero", {}, 2, "/dev/zero: not a config file (not a regular file)"},
    {"config", "freqs --config /dev/null", {}, 2, "/dev/null: not a config file (not a regular file)"},
    {"config", "freqs --config FILE/c.json@no_such_layer", {{"c.json", "{\"head_dim\": 64}"s}}, 2, "FILE/c.json@no_such_layer: cannot open config file (it does not exist)"},
    {"config", "freqs --compare FILE/c.json", {{"c.json", "{\"head_dim\": \"x\"}"s}}, 2, "--compare \"FILE/c.json\": FILE/c.json: head_dim must be a whole number in"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"preset\": \"textbook\"}"s}}, 2, "--session FILE/s.json: ropelab_session must be a version from 1 to 2 (go"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 99}"s}}, 2, "--session FILE/s.json: ropelab_session must be a version from 1 to 2 (go"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": \"2\"}"s}}, 2, "--session FILE/s.json: ropelab_session must be a version from 1 to 2 (go"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 1.5}"s}}, 2, "--session FILE/s.json: ropelab_session must be a version from 1 to 2 (go"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "[]"s}}, 2, "--session FILE/s.json: session must be an object"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "nope"s}}, 2, "--session FILE/s.json: session: not valid JSON: at line 1, column 2: val"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"focus\": {\"position\": 1e+300}}"s}}, 2, "--session FILE/s.json: focus.position = 1e+300 is out of range (0 .. 214"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"focus\": {\"position\": -1}}"s}}, 2, "--session FILE/s.json: focus.position = -1 is out of range (0 .. 2147483"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"focus\": {\"position\": \"12\"}}"s}}, 2, "--session FILE/s.json: focus.position = \"12\" has the wrong type (0 .. 21"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"model\": {\"head_dim\": 1000000000.0}}"s}}, 2, "--session FILE/s.json: model.head_dim = 1000000000 is out of range (2 .."},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"model\": {\"rope_theta\": 0}}"s}}, 2, "--session FILE/s.json: model.rope_theta = 0 is out of range (1.0001 .. 1"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"curves\": {\"max_distance\": 1000000000000.0}}"s}}, 2, "--session FILE/s.json: curves.max_distance = 1000000000000 is out of ran"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"curves\": {\"samples\": 0}}"s}}, 2, "--session FILE/s.json: curves.samples = 0 is out of range (1 .. 65536)"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"curves\": {\"encoding\": \"quantum\"}}"s}}, 2, "--session FILE/s.json: curves.encoding = \"quantum\" is unknown (one of ro"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"curves\": {\"vectors\": 7}}"s}}, 2, "--session FILE/s.json: curves.vectors = 7 has the wrong type (one of one"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"focus\": {\"pair\": 99999}}"s}}, 2, "--session FILE/s.json: focus.pair = 99999 is out of range (0 .. 255)"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"layout\": {\"ui_scale\": 50}}"s}}, 2, "--session FILE/s.json: layout.ui_scale = 50 is out of range (1 .. 4)"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"layout\": {\"theme\": \"neon\"}}"s}}, 2, "--session FILE/s.json: layout.theme = \"neon\" is unknown (one of dark, li"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"plots\": 5}"s}}, 2, "--session FILE/s.json: plots must be an object"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"plots\": {\"scores\": {\"x\": [1]}}}"s}}, 2, "--session FILE/s.json: plots.scores.x must be [min, max]"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"plots\": {\"scores\": {\"x\": [\"a\", \"b\"]}}}"s}}, 2, "--session FILE/s.json: plots.scores.x must be [min, max]"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"plots\": {\"scores\": {\"user_view\": \"yes\"}}}"s}}, 2, "--session FILE/s.json: plots.scores.user_view must be true or false"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"playback\": {\"loop\": [1]}}"s}}, 2, "--session FILE/s.json: playback.loop must be [from, to]"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"preset\": \"gpt-17\"}"s}}, 2, "--session FILE/s.json: model is missing, and preset \"gpt-17\" is not a bu"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"compare\": 5}"s}}, 2, "--session FILE/s.json: compare must be an object"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", repeat("{\"ropelab_session\": 2, \"x\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "", 0, "", "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}")}}, 2, "--session FILE/s.json: session: nested deeper than 256 levels; no ropela"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"model\": 5}"s}}, 2, "--session FILE/s.json: model must be an object"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"focus\": [1, 2]}"s}}, 2, "--session FILE/s.json: focus must be an object"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"model\": {\"rope_scaling\": {\"factor\": -2}}}"s}}, 2, "--session FILE/s.json: model.rope_scaling.factor = -2 is out of range (0"},
    {"session-file", "export-data --view frequencies --session FILE/s.json --out OUT/x.csv", {{"s.json", "{\"ropelab_session\": 2, \"curves\": {\"vectors\": \"custom\", \"custom_q\": \"1,2,3\"}}"s}}, 2, "curves.custom_q (q): \"1,2,3\" has 3 components; the head dim is 128"},
    {"share-string", "export-data --view frequencies --session 'eyJyb3BlbGFiX3Nlc3Npb24iOiAyLCAiZm9jdXMiOiB7InBvc2l0aW9uIjogMWUrMzAwfX0' --out OUT/x.csv", {}, 2, "--session: not a readable file, and not a share string: focus.position ="},
    {"share-string", "export-data --view frequencies --session 'eyJyb3BlbGFiX3Nlc3Npb24iOiAyLCAibW9kZWwiOiB7ImhlYWRfZGltIjogMTAwMDAwMDAwMC4wfX0' --out OUT/x.csv", {}, 2, "--session: not a readable file, and not a share string: model.head_dim ="},
    {"share-string", "export-data --view frequencies --session 'eyJyb3BlbGFiX3Nlc3Npb24iOiA5OX0' --out OUT/x.csv", {}, 2, "--session: not a readable file, and not a share string: ropelab_session "},
    {"share-string", "export-data --view frequencies --session 'bm9wZQ' --out OUT/x.csv", {}, 2, "--session: not a readable file, and not a share string: session: not val"},
    {"share-string", "export-data --view frequencies --session 'eyJyb3BlbGFiX3Nlc3Npb24iOiAyLCAicHJlc2V0IjogImdwdC0xNyJ9' --out OUT/x.csv", {}, 2, "--session: not a readable file, and not a share string: model is missing"},
    {"share-string", "export-data --view frequencies --session 'eyJyb3BlbGFiX3Nlc3Npb24iOiAyLCAiY3VydmVzIjogeyJlbmNvZGluZyI6ICJxdWFudHVtIn19' --out OUT/x.csv", {}, 2, "--session: not a readable file, and not a share string: curves.encoding "},
    {"share-string", "export-data --view frequencies --session 'eyJyb3BlbGFiX3Nlc3Npb24iOiAyLCAicGxvdHMiOiA1fQ' --out OUT/x.csv", {}, 2, "--session: not a readable file, and not a share string: plots must be an"},
    {"share-string", "export-data --view frequencies --session 'eyJyb3BlbGFiX3Nlc3Npb24iOiAyLCAieCI6IFtbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW11dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXX0' --out OUT/x.csv", {}, 2, "--session: not a readable file, and not a share string: session: nested "},
    {"share-string", "export-data --view frequencies --session 'eyJyb3BlbGFiX3Nlc3Npb24iOiAyLCAiZm9jdXMiOiB7InBhaXIiOiA5OTk5OX19' --out OUT/x.csv", {}, 2, "--session: not a readable file, and not a share string: focus.pair = 999"},
    {"share-string", "export-data --view frequencies --session 'eyJyb3BlbGFiX3Nlc3Npb24iOiAyLCAiY3VydmVzIjogeyJzYW1wbGVzIjogMH19' --out OUT/x.csv", {}, 2, "--session: not a readable file, and not a share string: curves.samples ="},
    {"share-string", "export-data --view frequencies --session '!!!!' --out OUT/x.csv", {}, 2, "--session: not a readable file, and not a share string: share string: '!"},
    {"share-string", "export-data --view frequencies --session 'h\xc3\xa9llo' --out OUT/x.csv", {}, 2, "--session: not a readable file, and not a share string: share string: U+"},
    {"share-string", "export-data --view frequencies --session '\xe6\x97\xa5\xe6\x9c\xac' --out OUT/x.csv", {}, 2, "--session: not a readable file, and not a share string: share string: U+"},
    {"share-string", "export-data --view frequencies --session 'AAAA\xe2\x82\xac' --out OUT/x.csv", {}, 2, "--session: not a readable file, and not a share string: share string: U+"},
    {"share-string", "export-data --view frequencies --session '__57fQ' --out OUT/x.csv", {}, 2, "--session: not a readable file, and not a share string: session: not val"},
    {"share-string", "export-data --view frequencies --session 'eyJyb3BlbGFiX3Nlc3Npb24iOiAyLCAicHJlc2V0IjogIsMifQ' --out OUT/x.csv", {}, 2, "--session: not a readable file, and not a share string: session: not val"},
    {"share-string", "export-data --view frequencies --session 'A' --out OUT/x.csv", {}, 2, "--session: not a readable file, and not a share string: session: not val"},
    {"share-string", "export-data --view frequencies --session 'AB' --out OUT/x.csv", {}, 2, "--session: not a readable file, and not a share string: session: not val"},
    {"share-string", "export-data --view frequencies --session 'eyJyb3BlbGFiX3Nlc3Npb24iOiAy' --out OUT/x.csv", {}, 2, "--session: not a readable file, and not a share string: session: not val"},
    {"share-string", "export-data --view frequencies --session 'ICAg' --out OUT/x.csv", {}, 2, "--session: not a readable file, and not a share string: session: not val"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\"}"s}}, 2, "FILE/l.json: a lesson is an object with a non-empty \"scenes\" list"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"scenes\": []}"s}}, 2, "FILE/l.json: a lesson is an object with a non-empty \"scenes\" list"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"scenes\": {}}"s}}, 2, "FILE/l.json: a lesson is an object with a non-empty \"scenes\" list"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", repeat("{\"scenes\": [", "{\"title\":\"s\",\"caption\":\"c\",\"views\":[3]}", 257, ", ", "]}")}}, 2, "FILE/l.json: 257 scenes; a lesson has at most 256"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"scenes\": [\"hi\"]}"s}}, 2, "FILE/l.json: scene 1 (\"\"): must be an object"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"scenes\": [{\"caption\": \"c\", \"views\": [3]}]}"s}}, 2, "FILE/l.json: scene 1 (\"\"): \"title\" is required"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"scenes\": [{\"title\": \"s\", \"caption\": 5, \"views\": [3]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): \"caption\" must be text"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": []}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): \"views\" must list 1 to 4 views (1-12)"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [13]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): \"views\" has 13 (views are 1-12)"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [0]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): \"views\" has 0 (views are 1-12)"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [1, 2, 3, 4, 5]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): \"views\" must list 1 to 4 views (1-12)"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [\"3\"]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): \"views\" has \"3\" (views are 1-12)"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"duration\": 0}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): \"duration\" must be seconds in (0, 600] (got "},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"duration\": 601}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): \"duration\" must be seconds in (0, 600] (got "},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"duration\": \"4\"}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): \"duration\" must be seconds in (0, 600] (got "},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"set\": {\"warp\": 9}}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): set.warp: not a lesson parameter (one of pre"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"set\": {\"theta\": -5}}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): set.theta: model.rope_theta = -5 is out of r"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"set\": [1]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): \"set\" must be an object"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"set\": {\"preset\": \"gpt-17\"}}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): at t = 0 s: unknown preset \"gpt-17\" (availab"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"set\": {\"theta\": [1]}}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): set.theta = [1] is not a value (1.0001 .. 10"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"keyframes\": 5}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): \"keyframes\" must be a list"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"keyframes\": [{\"param\": \"warp\", \"from\": 1, \"to\": 2}]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): keyframes[0]: param warp: not a lesson param"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"keyframes\": [{\"param\": \"layout\", \"from\": 1, \"to\": 2}]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): keyframes[0]: \"param\" must be a numeric para"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"keyframes\": [{\"param\": \"theta\", \"to\": 2}]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): keyframes[0]: \"from\" must be a number"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"keyframes\": [{\"param\": \"theta\", \"from\": 10, \"to\": 20, \"easing\": \"bounce\"}]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): keyframes[0]: easing \"bounce\" (expected line"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"keyframes\": [{\"param\": \"theta\", \"from\": 10, \"to\": 20, \"duration\": 0}]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): keyframes[0]: needs start >= 0 and duration "},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"keyframes\": [{\"param\": \"theta\", \"from\": -1, \"to\": 20}]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): keyframes[0]: a log keyframe needs positive "},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"keyframes\": [{\"param\": \"position\", \"from\": 0, \"to\": 1000000000000.0}]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): keyframes[0] (position 0 -> 1e+12) at t = 4 s: focus.position = 10000000"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"keyframes\": [{\"param\": \"head_dim\", \"from\": 64, \"to\": 66}]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): at t = 1.312 s: model: rotary dim = head_dim"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"keyframes\": [{\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}, {\"param\": \"position\", \"from\": 0, \"to\": 9}]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): 33 keyframes; a scene has at most 32"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"annotations\": [{\"text\": \"t\", \"view\": 5, \"at\": \"cell\", \"x\": 3, \"y\": 1e+300}]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): annotations[0]: \"y\" = 1e+300 is out of range"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"annotations\": [{\"text\": \"t\", \"view\": 5, \"at\": \"cell\", \"x\": 1000000000.0, \"y\": 3}]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): annotations[0]: \"x\" = 1000000000.0 is out of"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"annotations\": [{\"text\": \"t\", \"view\": 1, \"at\": \"pair\", \"x\": -1}]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): annotations[0]: \"x\" = -1 is out of range for"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"annotations\": [{\"text\": \"t\", \"at\": \"label\", \"x\": 0.5, \"y\": 99}]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): annotations[0]: \"y\" = 99 is out of range for"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"annotations\": [{\"text\": \"t\", \"view\": 3, \"at\": \"distance\", \"x\": -10}]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): annotations[0]: \"x\" = -10 is out of range fo"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"annotations\": [{\"text\": \"t\", \"view\": 13}]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): annotations[0]: \"view\" = 13 must be a whole n"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"annotations\": [{\"text\": \"t\", \"at\": \"nowhere\"}]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): annotations[0]: \"at\" is \"nowhere\" (expected "},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"annotations\": [{\"view\": 3}]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): annotations[0]: \"text\" is required"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"annotations\": [5]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): annotations[0]: must be an object (got 5)"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"annotations\": [{\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}, {\"text\": \"t\"}]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): \"annotations\" must be a list of at most 32"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"annotations\": [{\"text\": \"t\", \"x\": \"left\"}]}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): annotations[0]: \"x\" must be a number (got \"l"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"set\": {\"compare\": [\"bogus-preset\"]}}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): set.compare: compare \"bogus-preset\": \"bogus-"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"set\": {\"comparison\": \"nope\"}}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): set.comparison: unknown comparison \"nope\" (b"},
    {"lesson", "render --lesson FILE/l.json --scene 1 --size 160x90 --out OUT/x.png", {{"l.json", "{\"title\": \"t\", \"scenes\": [{\"title\": \"s\", \"caption\": \"c\", \"views\": [3], \"set\": {\"compare\": [\"llama3-8b\", \"llama3-8b\", \"llama3-8b\", \"llama3-8b\"]}}]}"s}}, 2, "FILE/l.json: scene 1 (\"s\"): set.compare must list at most 3 SPECs (prese"},
    {"lesson", "render --lesson FILE/missing.json --scene 1 --out OUT/x.png", {}, 2, "FILE/missing.json: cannot open lesson file (it does not exist)"},
    {"lesson", "render --lesson FILE/ --scene 1 --out OUT/x.png", {}, 2, "FILE/: not a lesson file (it is a folder)"},
    {"lesson", "render --lesson builtin --scene 0 --out OUT/x.png", {}, 2, "--scene: must be in [1, 1000] (got 0)"},
    {"vector-file", "scores --vectors custom --q @FILE/v.txt --k ones --max-distance 16", {{"v.txt", ""s}}, 2, "--q: \"@FILE/v.txt\" has 0 components; the head dim is 128"},
    {"vector-file", "scores --vectors custom --q @FILE/v.txt --k ones --max-distance 16", {{"v.txt", "one two three"s}}, 2, "--q: FILE/v.txt: value 0: \"one\" is not a finite number"},
    {"vector-file", "scores --vectors custom --q @FILE/v.txt --k ones --max-distance 16", {{"v.txt", "1,2,3"s}}, 2, "--q: \"@FILE/v.txt\" has 3 components; the head dim is 128"},
    {"vector-file", "scores --vectors custom --q @FILE/v.txt --k ones --max-distance 16", {{"v.txt", "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1"s}}, 2, "--q: \"@FILE/v.txt\" has 300 components; the head dim is 128"},
    {"vector-file", "scores --vectors custom --q @FILE/v.txt --k ones --max-distance 16", {{"v.txt", "nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan"s}}, 2, "--q: FILE/v.txt: value 0: \"nan\" is not a finite number"},
    {"vector-file", "scores --vectors custom --q @FILE/v.txt --k ones --max-distance 16", {{"v.txt", "1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400,1e400"s}}, 2, "--q: FILE/v.txt: value 0: \"1e400\" is not a finite number"},
    {"vector-file", "scores --vectors custom --q @FILE/v.txt --k ones --max-distance 16", {{"v.txt", "{\"q\": [1]}"s}}, 2, "--q: FILE/v.txt: value 0: \"{\"q\":\" is not a finite number"},
    {"vector-file", "scores --vectors custom --q @FILE/v.txt --k ones --max-distance 16", {{"v.txt", "[1, 1, 1, 1, 1]"s}}, 2, "--q: \"@FILE/v.txt\" has 5 components; the head dim is 128"},
    {"vector-file", "scores --vectors custom --q @FILE/v.txt --k ones --max-distance 16", {{"v.txt", "[\"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\", \"1\"]"s}}, 2, "--q: FILE/v.txt: element 0 is not a finite number (\"1\")"},
    {"vector-file", "scores --vectors custom --q @FILE/v.txt --k ones --max-distance 16", {{"v.txt", "[[1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1], [1]]"s}}, 2, "--q: FILE/v.txt: element 0 is not a finite number ([1])"},
    {"vector-file", "scores --vectors custom --q @FILE/v.txt --k ones --max-distance 16", {{"v.txt", repeat("", "1,", 40000, "", "")}}, 2, "--q: FILE/v.txt: value 40000 is empty (the numbers end with a comma)"},
    {"vector-file", "scores --vectors custom --q @FILE/v.txt --k ones --max-distance 16", {{"v.txt", repeat("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "", 0, "", "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]")}}, 2, "--q: FILE/v.txt: nested deeper than 256 levels; no ropelab file needs mo"},
    {"vector-file", "scores --vectors custom --q @FILE/v.txt --k ones --max-distance 16", {{"v.txt", "\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff\x00\x01\x02\xff"s}}, 2, "--q: FILE/v.txt: value 0: \"\\x00\\x01\\x02\\xFF\\x00\\x01\\x02\\xFF\\x00\\...\" is "},
    {"vector-file", "scores --vectors custom --q @FILE/missing.txt --k ones --max-distance 16", {}, 2, "--q: FILE/missing.txt: cannot open vector file (it does not exist)"},
    {"vector-file", "scores --vectors custom --q @FILE/ --k ones --max-distance 16", {}, 2, "--q: FILE/: not a vector file (it is a folder)"},
    {"vector-file", "scores --vectors custom --q @ --k ones --max-distance 16", {}, 2, "--q: : cannot open vector file (it does not exist)"},
    {"gui-script", "gui --script FILE/s.json", {{"s.json", "nope"s}}, 2, "--script FILE/s.json: not valid JSON: at line 1, column 2: value - inval"},
    {"gui-script", "gui --script FILE/s.json", {{"s.json", "{}"s}}, 2, "--script FILE/s.json: a script is a JSON array of steps"},
    {"gui-script", "gui --script FILE/s.json", {{"s.json", "[{\"bogus\": 1}]"s}}, 2, "--script FILE/s.json: step 1 unknown field \"bogus\""},
    {"gui-script", "gui --script FILE/s.json", {{"s.json", "[{\"wait\": -1}]"s}}, 2, "--script FILE/s.json: step 1 \"wait\" must be frames in 0 .. 100000"},
    {"gui-script", "gui --script FILE/s.json", {{"s.json", "[{\"wait\": 1000000000000.0}]"s}}, 2, "--script FILE/s.json: step 1 \"wait\" must be frames in 0 .. 100000"},
    {"gui-script", "gui --script FILE/s.json", {{"s.json", "[{\"wait\": \"5\"}]"s}}, 2, "--script FILE/s.json: step 1 \"wait\" must be frames in 0 .. 100000"},
    {"gui-script", "gui --script FILE/s.json", {{"s.json", "[{\"key\": \"Hyper\"}]"s}}, 2, "--script FILE/s.json: step 1 unknown key \"Hyper\" (GLFW key names: Escape"},
    {"gui-script", "gui --script FILE/s.json", {{"s.json", "[{\"key\": 5}]"s}}, 2, "--script FILE/s.json: step 1 \"key\" must be non-empty text"},
    {"gui-script", "gui --script FILE/s.json", {{"s.json", "[{\"type\": 5}]"s}}, 2, "--script FILE/s.json: step 1 \"type\" must be non-empty text"},
    {"gui-script", "gui --script FILE/s.json", {{"s.json", "[{\"click\": 5}]"s}}, 2, "--script FILE/s.json: step 1 \"click\" must be non-empty text"},
    {"gui-script", "gui --script FILE/s.json", {{"s.json", "[{\"drag\": \"x\"}]"s}}, 2, "--script FILE/s.json: step 1 a drag needs \"dx\" or \"dy\""},
    {"gui-script", "gui --script FILE/s.json", {{"s.json", "[{\"key\": \"Escape\", \"repeat\": 1000000000.0}]"s}}, 2, "--script FILE/s.json: step 1 \"repeat\" must be 1 .. 100"},
    {"gui-script", "gui --script FILE/s.json", {{"s.json", "[5]"s}}, 2, "--script FILE/s.json: step 1 a step is an object like {\"click\": \"Play\"}"},
    {"gui-script", "gui --script FILE/s.json", {{"s.json", repeat("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "", 0, "", "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]")}}, 2, "--script FILE/s.json: nested deeper than 256 levels; no ropelab file nee"},
    {"gui-script", "gui --script FILE/s.json", {{"s.json", "[{\"until_exact\": -5}]"s}}, 2, "--script FILE/s.json: step 1 \"until_exact\" must be frames in 0 .. 100000"},
    {"gui-script", "gui --script FILE/s.json", {{"s.json", "[{\"click\": \"a\", \"key\": \"Escape\"}]"s}}, 2, "--script FILE/s.json: step 1 has both \"click\" and \"key\": one action per "},
    {"gui-script", "gui --script FILE/s.json", {{"s.json", "[{\"click\": \"x\", \"at\": [5]}]"s}}, 2, "--script FILE/s.json: step 1 \"at\" must be [x, y], fractions of the widge"},
    {"gui-script", "gui --script FILE/s.json", {{"s.json", "[{\"screenshot\": \"\"}]"s}}, 2, "--script FILE/s.json: step 1 \"screenshot\" must be non-empty text"},
    {"gui-script", "gui --script FILE/s.json", {{"s.json", "[{\"drop\": 5}]"s}}, 2, "--script FILE/s.json: step 1 \"drop\" must be non-empty text"},
    {"gui-script", "gui --script FILE/s.json", {{"s.json", "[{\"type\": \"\xff\"}]"s}}, 2, "--script FILE/s.json: not valid JSON: at line 1, column 12: value - inva"},
    {"gui-script", "gui --script FILE/missing.json", {}, 2, "FILE/missing.json: cannot open script file (it does not exist)"},
    {"gui-script", "gui --script FILE/", {}, 2, "FILE/: not a script file (it is a folder)"},
    };
    return all;
}

class HostileInput : public ::testing::TestWithParam<std::string> {};

TEST_P(HostileInput, IsRefusedNamingItOrAcceptedNeverACrashOrAHang) {
    int ran = 0;
    for (const Case& c : cases()) {
        if (GetParam() != c.category) continue;
        ++ran;
        const ropelab::test::CaseRun run = ropelab::test::run_case("hostile_input", c.args, c.files);
        const Result& r = run.result;
        const std::string &in = run.in, &out = run.out;
        const fs::path& dir = run.dir;
        const std::string shown = c.args.substr(0, 120);
        ASSERT_NE(r.status, -1) << shown;
        EXPECT_LT(r.status, 124) << shown << ": crashed or hung (" << r.status << ")\n" << r.err.substr(0, 400);
        EXPECT_EQ(r.status, c.status) << shown << "\n" << r.err.substr(0, 400);
        if (c.status == 2) {
            const std::string expected = "ropelab: error: " + with_folders(c.message, in, out);
            EXPECT_EQ(r.err.find(expected), 0u) << shown << "\nexpected: " << expected << "\ngot: " << r.err.substr(0, 400);
        }
        fs::remove_all(dir);
    }
    EXPECT_GT(ran, 0);
}

INSTANTIATE_TEST_SUITE_P(EachEntryPoint, HostileInput,
                         ::testing::Values("cli-model", "cli-enum", "cli-list", "cli-position", "cli-curves", "cli-vector",
                                           "cli-compare", "cli-render", "cli-out", "cli-misc", "cli-attention", "config", "session-file",
                                           "share-string", "lesson", "vector-file", "array-file", "gui-script"),
                         [](const auto& info) {
                             std::string name = info.param;
                             for (char& ch : name) ch = ch == '-' ? '_' : ch;
                             return name;
                         });

}  // namespace
