// safetensors checkpoints: files written by tests/support/safetensors_writer.h read back byte
// for byte, sharded checkpoints with their config.json, and the hostile table: each refusal an
// InputError naming the file and the tensor.
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.h"
#include "models/dequantize.h"
#include "models/safetensors.h"
#include "support/files.h"
#include "support/safetensors_writer.h"

namespace ropelab::safetensors {
namespace {

using safetensors_test::byte_string;
using safetensors_test::f32_bytes;
using safetensors_test::u16_bytes;

Checkpoint st_parse(const std::string& bytes, const std::string& name = "test.safetensors") {
    return Checkpoint::parse(models::MappedFile::hold(bytes, name));
}

// The InputError's message, or "no error" when `run` returns.
std::string st_refusal(const std::function<void()>& run) {
    try {
        run();
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

std::string st_text(std::span<const std::byte> bytes) { return {reinterpret_cast<const char*>(bytes.data()), bytes.size()}; }

std::vector<float> st_values(const Checkpoint& c, const std::string& name) {
    const Tensor* t = c.tensor(name);
    if (!t) return {};
    std::size_t count = 1;
    for (std::int64_t d : t->shape) count *= static_cast<std::size_t>(d);
    std::vector<float> out(count);
    models::dequantize(*models::format_of_dtype(t->dtype), c.data(*t), out);
    return out;
}

safetensors_test::File st_sample() {
    safetensors_test::File f;
    f.add("model.a", "F32", {2, 3}, f32_bytes({1, -2, 0.5f, 3, 4, 1e-3f}));
    f.add("model.b", "F16", {4}, u16_bytes({0x3c00, 0xc000, 0x0001, 0x7c00}));
    return f;
}

TEST(Safetensors, RoundTripOfEveryFloatDtype) {
    safetensors_test::File f = st_sample();
    f.add("c", "BF16", {2}, u16_bytes({0x3f80, 0xc049}));
    f.add("d", "F8_E4M3", {1, 3}, byte_string({0x38, 0x7e, 0x7f}));
    f.add("e", "F8_E5M2", {2}, byte_string({0x3c, 0xfc}));
    f.add("i", "I8", {2}, byte_string({0x01, 0xff}));
    f.metadata["format"] = "pt";
    const Checkpoint c = st_parse(f.bytes());
    ASSERT_EQ(c.tensors().size(), 6u);
    for (const safetensors_test::Tensor& written : f.tensors) {
        const Tensor* t = c.tensor(written.name);
        ASSERT_NE(t, nullptr) << written.name;
        EXPECT_EQ(t->dtype, written.dtype);
        EXPECT_EQ(t->shape, written.shape);
        EXPECT_EQ(t->shard, 0);
        EXPECT_EQ(st_text(c.data(*t)), written.data) << written.name;
    }
    EXPECT_EQ(st_values(c, "model.a"), (std::vector<float>{1, -2, 0.5f, 3, 4, 1e-3f}));
    const auto half = st_values(c, "model.b");
    EXPECT_EQ(half[1], -2.0f);
    EXPECT_EQ(half[2], 0x1p-24f);
    EXPECT_TRUE(std::isinf(half[3]));
    EXPECT_EQ(st_values(c, "c"), (std::vector<float>{1.0f, -3.140625f}));
    const auto e4m3 = st_values(c, "d");
    EXPECT_EQ(e4m3[0], 1.0f);
    EXPECT_EQ(e4m3[1], 448.0f);
    EXPECT_TRUE(std::isnan(e4m3[2]));
    EXPECT_EQ(st_values(c, "e"), (std::vector<float>{1.0f, -std::numeric_limits<float>::infinity()}));
    EXPECT_EQ(c.tensor("model.c"), nullptr);
    EXPECT_EQ(c.source(), "test.safetensors");
    EXPECT_EQ(c.config_path(), "");
}

TEST(Safetensors, PaddingEmptyAndScalarTensors) {
    safetensors_test::File unpadded = st_sample();
    unpadded.pad = false;
    EXPECT_EQ(st_parse(unpadded.bytes()).tensors().size(), 2u);
    safetensors_test::File spaced = st_sample();
    spaced.raw_header = spaced.header() + "        ";  // tensor.rs pads with spaces
    EXPECT_EQ(st_parse(spaced.bytes()).tensors().size(), 2u);
    safetensors_test::File empty;
    EXPECT_EQ(st_parse(empty.bytes()).tensors().size(), 0u);
    safetensors_test::File odd;
    odd.add("none", "F32", {0, 7}, "");
    odd.add("scalar", "F32", {}, f32_bytes({2.5f}));
    odd.add("nibbles", "F4", {4}, byte_string({0x12, 0x34}));
    const Checkpoint c = st_parse(odd.bytes());
    EXPECT_EQ(c.data(*c.tensor("none")).size(), 0u);
    EXPECT_EQ(st_values(c, "scalar"), std::vector<float>{2.5f});
    EXPECT_EQ(c.data(*c.tensor("nibbles")).size(), 2u);
}

TEST(Safetensors, TruncatedAtEveryByteIsRefused) {
    const std::string whole = st_sample().bytes();
    const std::size_t header_end = 8 + (whole.size() - 8 - 24 - 8);
    for (std::size_t size = 0; size < whole.size(); ++size) {
        const std::string message = st_refusal([&] { st_parse(whole.substr(0, size), "cut.safetensors"); });
        ASSERT_NE(message.find("cut.safetensors"), std::string::npos) << size << ": " << message;
        // Once the header is whole, the tensor whose bytes are cut is named.
        if (size >= header_end) {
            EXPECT_NE(message.find("tensor \"model."), std::string::npos) << size << ": " << message;
        }
    }
    EXPECT_EQ(st_parse(whole).tensors().size(), 2u);
}

struct StHostileRow {
    const char* name;
    std::function<void(safetensors_test::File&)> edit;
    std::vector<std::string> expected;  // parts of the message, besides the file's name
};

safetensors_test::File st_one(const std::string& dtype, std::vector<std::int64_t> shape, std::string data) {
    safetensors_test::File f;
    f.add("w", dtype, std::move(shape), std::move(data));
    return f;
}

TEST(Safetensors, HostileTable) {
    using File = safetensors_test::File;
    const std::vector<StHostileRow> rows = {
        {"header length past the end", [](File& f) { f.header_length = 1000; }, {"header length 1000", "runs past the end"}},
        {"header length over 100 MB", [](File& f) { f.header_length = 200'000'000; }, {"200000000", "limit of 100000000"}},
        {"header length 2^64-1", [](File& f) { f.header_length = ~std::uint64_t{0}; }, {"18446744073709551615", "limit"}},
        {"header an array", [](File& f) { f.raw_header = "[1, 2]"; }, {"not a JSON object"}},
        {"header after a space", [](File& f) { f.raw_header = " {}"; }, {"not a JSON object"}},
        {"header cut", [](File& f) { f.raw_header = "{\"w\": {"; }, {"not valid JSON"}},
        {"tensor a number", [](File& f) { f.raw_header = "{\"w\": 5}"; }, {"tensor \"w\"", "not an object"}},
        {"dtype a number", [](File& f) { f.raw_header = R"({"w":{"dtype":5,"shape":[1],"data_offsets":[0,1]}})"; }, {"tensor \"w\"", "dtype 5"}},
        {"no data_offsets", [](File& f) { f.raw_header = R"({"w":{"dtype":"U8","shape":[1]}})"; }, {"tensor \"w\"", "no data_offsets"}},
        {"three offsets", [](File& f) { f.raw_header = R"({"w":{"dtype":"U8","shape":[1],"data_offsets":[0,1,2]}})"; }, {"tensor \"w\"", "more than 2"}},
        {"one offset", [](File& f) { f.raw_header = R"({"w":{"dtype":"U8","shape":[1],"data_offsets":[0]}})"; }, {"tensor \"w\"", "has 1 numbers"}},
        {"dtype twice", [](File& f) { f.raw_header = R"({"w":{"dtype":"U8","dtype":"U8","shape":[1],"data_offsets":[0,1]}})"; }, {"tensor \"w\"", "dtype is given twice"}},
        {"shape an object", [](File& f) { f.raw_header = R"({"w":{"dtype":"U8","shape":{},"data_offsets":[0,1]}})"; }, {"tensor \"w\"", "shape"}},
        {"metadata not strings", [](File& f) { f.raw_header = R"({"__metadata__":{"k":1}})"; }, {"__metadata__ \"k\"", "not a string"}},
        {"metadata an array", [](File& f) { f.raw_header = R"({"__metadata__":[]})"; }, {"__metadata__ is not an object"}},
        {"nested 100000 deep", [](File& f) { f.raw_header = "{\"w\":{\"x\":" + std::string(100000, '['); }, {"nested deeper than 64"}},
        {"offsets past the end", [](File& f) { f = st_one("F32", {4}, f32_bytes({1, 2})); f.tensors[0].offsets = {{0, 16}}; },
         {"tensor \"w\"", "[0, 16]", "past the data section's 8 bytes"}},
        {"offsets end before begin", [](File& f) { f.tensors[0].offsets = {{8, 0}}; }, {"tensor \"w\"", "[8, 0]", "end before they begin"}},
        {"wrong size for shape", [](File& f) { f = st_one("F32", {2, 3}, std::string(20, '\0')); }, {"tensor \"w\"", "hold 20 bytes", "[2, 3]", "24 bytes"}},
        {"shape overflows the count", [](File& f) { f = st_one("F32", {4294967296, 4294967296, 16}, std::string(8, '\0')); },
         {"tensor \"w\"", "[4294967296, 4294967296, 16]", "more values than"}},
        {"shape overflows the bytes", [](File& f) { f = st_one("F32", {std::int64_t{1} << 61, 2}, std::string(8, '\0')); },
         {"tensor \"w\"", "more bytes than"}},
        {"negative dimension", [](File& f) { f.tensors[0].shape_json = "[-1, 4]"; }, {"tensor \"w\"", "shape holds -1"}},
        {"fractional dimension", [](File& f) { f.tensors[0].shape_json = "[2.5]"; }, {"tensor \"w\"", "shape holds 2.5"}},
        {"dimension past 2^63", [](File& f) { f.tensors[0].shape_json = "[9223372036854775808]"; }, {"tensor \"w\"", "past 2^63"}},
        {"unknown dtype", [](File& f) { f = st_one("Q9", {2}, "ab"); }, {"tensor \"w\"", "dtype \"Q9\""}},
        {"half a byte", [](File& f) { f = st_one("F4", {3}, "ab"); }, {"tensor \"w\"", "not whole bytes"}},
        {"overlapping", [](File& f) { f = st_one("F32", {2}, f32_bytes({1, 2})); f.add("v", "F32", {2}, f32_bytes({3})).offsets = {{4, 12}}; },
         {"tensor \"v\"", "[4, 12]", "overlap tensor \"w\""}},
        {"a gap", [](File& f) { f = st_one("F32", {2}, f32_bytes({1, 2})); f.add("v", "F32", {2}, f32_bytes({3, 4, 5})).offsets = {{12, 20}}; },
         {"tensor \"v\"", "leave bytes 8…12"}},
        {"bytes after the last tensor", [](File& f) { f.tail = "xx"; }, {"end at byte 4", "it has 6 bytes"}},
        {"a tensor twice", [](File& f) { f = st_one("F32", {0}, ""); f.add("w", "F32", {0}, ""); }, {"tensor \"w\" is given twice"}},
        {"ill-formed UTF-8", [](File& f) { f.raw_header = "{\"w\xff\":{}}"; }, {"not valid JSON"}},
    };
    for (const StHostileRow& row : rows) {
        File f = st_one("F32", {1}, f32_bytes({1}));
        row.edit(f);
        const std::string message = st_refusal([&] { st_parse(f.bytes(), "bad.safetensors"); });
        EXPECT_TRUE(message.starts_with("bad.safetensors: ")) << row.name << ": " << message;
        for (const std::string& part : row.expected) EXPECT_NE(message.find(part), std::string::npos) << row.name << ": " << message;
    }
    EXPECT_EQ(st_refusal([] { st_parse("abc", "short.safetensors"); }), "short.safetensors: 3 bytes is too short for a safetensors file (an 8-byte header length, then the header)");
}

TEST(Safetensors, LooksLikeSafetensors) {
    const std::string file = st_sample().bytes();
    const auto head = [](const std::string& s) { return std::span<const std::byte>(reinterpret_cast<const std::byte*>(s.data()), s.size()); };
    EXPECT_TRUE(looks_like_safetensors(head(file)));
    EXPECT_FALSE(looks_like_safetensors(head("GGUF\x03\0\0\0\0\0\0\0")));
    EXPECT_FALSE(looks_like_safetensors(head(file.substr(0, 8))));
    EXPECT_FALSE(looks_like_safetensors(head(safetensors_test::le_u64(0) + "{")));
    EXPECT_FALSE(looks_like_safetensors(head(safetensors_test::le_u64(200'000'000) + "{")));
}

class SafetensorsFolder : public test::TempDirTest {
protected:
    SafetensorsFolder() : TempDirTest("safetensors") {}

    // Two shards (and a config.json): q and k in the first, o in the second.
    void write_two_shards(const std::vector<std::pair<std::string, std::string>>& extra = {}) {
        safetensors_test::File first, second;
        first.add("layers.0.q", "F32", {2, 2}, f32_bytes({1, 2, 3, 4}));
        first.add("layers.0.k", "BF16", {2}, u16_bytes({0x3f80, 0x4000}));
        second.add("layers.0.o", "F16", {3}, u16_bytes({0x3c00, 0x3800, 0xc000}));
        safetensors_test::write_sharded(dir_, {{"model-00001-of-00002.safetensors", first}, {"model-00002-of-00002.safetensors", second}}, extra);
    }
};

TEST_F(SafetensorsFolder, OneFileAndItsFolder) {
    safetensors_test::write_bytes(dir_ / "model.safetensors", st_sample().bytes());
    const Checkpoint bare = Checkpoint::open(dir_.string());
    EXPECT_EQ(bare.tensors().size(), 2u);
    EXPECT_EQ(bare.config_path(), "");
    EXPECT_EQ(bare.source(), dir_.string());
    test::write_file(at("config.json"), "{}");
    for (const std::string& path : {dir_.string(), at("model.safetensors")}) {
        const Checkpoint c = Checkpoint::open(path);
        EXPECT_EQ(c.config_path(), at("config.json")) << path;
        EXPECT_EQ(st_values(c, "model.a"), (std::vector<float>{1, -2, 0.5f, 3, 4, 1e-3f}));
    }
}

TEST_F(SafetensorsFolder, TheOneSafetensorsFileOfAFolder) {
    safetensors_test::write_bytes(dir_ / "weights.safetensors", st_sample().bytes());
    EXPECT_EQ(Checkpoint::open(dir_.string()).tensors().size(), 2u);
    safetensors_test::write_bytes(dir_ / "other.safetensors", st_sample().bytes());
    const std::string message = st_refusal([&] { Checkpoint::open(dir_.string()); });
    EXPECT_NE(message.find(dir_.string()), std::string::npos) << message;
    EXPECT_NE(message.find("2 .safetensors files"), std::string::npos) << message;
    std::filesystem::remove(dir_ / "weights.safetensors");
    std::filesystem::remove(dir_ / "other.safetensors");
    EXPECT_NE(st_refusal([&] { Checkpoint::open(dir_.string()); }).find("holds no .safetensors file"), std::string::npos);
}

TEST_F(SafetensorsFolder, ShardedWithConfigBeside) {
    write_two_shards();
    test::write_file(at("config.json"), "{}");
    for (const std::string& path : {dir_.string(), at("model.safetensors.index.json")}) {
        const Checkpoint c = Checkpoint::open(path);
        ASSERT_EQ(c.tensors().size(), 3u) << path;
        EXPECT_EQ(c.config_path(), at("config.json"));
        EXPECT_EQ(c.source(), path);
        EXPECT_EQ(c.tensor("layers.0.q")->shard, 0);
        EXPECT_EQ(c.tensor("layers.0.o")->shard, 1);
        EXPECT_EQ(st_values(c, "layers.0.q"), (std::vector<float>{1, 2, 3, 4}));
        EXPECT_EQ(st_values(c, "layers.0.k"), (std::vector<float>{1, 2}));
        EXPECT_EQ(st_values(c, "layers.0.o"), (std::vector<float>{1, 0.5f, -2}));
    }
}

TEST_F(SafetensorsFolder, IndexListingAMissingTensorOrShard) {
    write_two_shards({{"layers.9.q", "model-00002-of-00002.safetensors"}});
    std::string message = st_refusal([&] { Checkpoint::open(dir_.string()); });
    EXPECT_NE(message.find(at("model.safetensors.index.json")), std::string::npos) << message;
    EXPECT_NE(message.find("\"layers.9.q\""), std::string::npos) << message;
    EXPECT_NE(message.find(at("model-00002-of-00002.safetensors")), std::string::npos) << message;

    write_two_shards({{"layers.9.q", "model-00003-of-00002.safetensors"}});
    message = st_refusal([&] { Checkpoint::open(dir_.string()); });
    EXPECT_NE(message.find(at("model-00003-of-00002.safetensors")), std::string::npos) << message;
    EXPECT_NE(message.find("does not exist"), std::string::npos) << message;
    EXPECT_NE(message.find(at("model.safetensors.index.json")), std::string::npos) << message;
}

TEST_F(SafetensorsFolder, ShardNamesNeverLeaveTheFolder) {
    // A readable checkpoint outside the folder, which no index may reach.
    const std::filesystem::path inner = dir_ / "inner";
    std::filesystem::create_directories(inner / "sub");
    safetensors_test::write_bytes(dir_ / "outside.safetensors", st_sample().bytes());
    safetensors_test::write_bytes(inner / "sub" / "x.safetensors", st_sample().bytes());
    for (const std::string& shard : std::vector<std::string>{"../outside.safetensors", "sub/x.safetensors", (dir_ / "outside.safetensors").string(), "..", ".", "", "sub\\x.safetensors"}) {
        safetensors_test::write_bytes(inner / "model.safetensors.index.json", "{\"weight_map\": {\"model.a\": " + safetensors_test::json_string(shard) + "}}");
        const std::string message = st_refusal([&] { Checkpoint::open(inner.string()); });
        EXPECT_NE(message.find((inner / "model.safetensors.index.json").string()), std::string::npos) << shard << ": " << message;
        EXPECT_NE(message.find("weight_map \"model.a\""), std::string::npos) << shard << ": " << message;
        EXPECT_NE(message.find("not a file name in the index's folder"), std::string::npos) << shard << ": " << message;
    }
}

TEST_F(SafetensorsFolder, HostileIndexes) {
    const std::vector<std::pair<std::string, std::string>> rows = {
        {"[]", "not a JSON object"},
        {"{\"metadata\": {}}", "no weight_map"},
        {"{\"weight_map\": []}", "weight_map is not an object"},
        {"{\"weight_map\": {\"a\": 3}}", "weight_map \"a\": the shard 3 is not a file name"},
        {"{\"weight_map\": {\"a\": {}}}", "weight_map \"a\": the shard is not a file name"},
        {"{\"weight_map\": {}, \"weight_map\": {}}", "weight_map is given twice"},
        {"{\"weight_map\": {\"a\": \"x\"", "not valid JSON"},
        {"{\"metadata\": " + std::string(1000, '[') + std::string(1000, ']') + "}", "nested deeper than 64"},
    };
    for (const auto& [text, expected] : rows) {
        test::write_file(at("model.safetensors.index.json"), text);
        const std::string message = st_refusal([&] { Checkpoint::open(dir_.string()); });
        EXPECT_TRUE(message.starts_with(at("model.safetensors.index.json") + ": ")) << text << ": " << message;
        EXPECT_NE(message.find(expected), std::string::npos) << text << ": " << message;
    }
    // A tensor listed twice, and a damaged shard: the shard's own message names it.
    write_two_shards({{"layers.0.q", "model-00001-of-00002.safetensors"}});
    EXPECT_NE(st_refusal([&] { Checkpoint::open(dir_.string()); }).find("weight_map lists tensor \"layers.0.q\" twice"), std::string::npos);
    write_two_shards();
    safetensors_test::write_bytes(dir_ / "model-00002-of-00002.safetensors", st_sample().bytes() + "x");
    const std::string message = st_refusal([&] { Checkpoint::open(dir_.string()); });
    EXPECT_TRUE(message.starts_with(at("model-00002-of-00002.safetensors") + ": ")) << message;
}

}  // namespace
}  // namespace ropelab::safetensors
