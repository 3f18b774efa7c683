// The GGUF container (models/gguf.h) on files written by tests/support/gguf_writer.h: every value
// type comes back exact, tensor data lies where the layout puts it (default and custom
// alignment), sizes follow ggml-common.h's block sizes worked by hand, and a hostile table is
// refused with an InputError naming the key or tensor and the value.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "core/error.h"
#include "models/gguf.h"
#include "support/gguf_writer.h"
#include "support/refusal.h"

namespace {

using ropelab::InputError;
using ropelab::gguf::File;
using ropelab::gguf::TensorInfo;
using ropelab::gguf::Value;
using ropelab::gguf::ValueType;
using ropelab::test::refusal;

File gguf_parse(const std::string& bytes, const std::string& name = "t.gguf") {
    return File::parse(ropelab::models::MappedFile::hold(bytes, name));
}

std::string gguf_refusal(const std::string& bytes) {
    return refusal([&] { gguf_parse(bytes); }, "(accepted)");
}

// Bytes 0, 1, 2, … (mod 251) so that every tensor's data differs from its neighbours'.
std::string gguf_pattern(std::size_t n, int seed) {
    std::string out(n, '\0');
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<char>((i + static_cast<std::size_t>(seed) * 37) % 251);
    return out;
}

std::string gguf_span_text(std::span<const std::byte> bytes) {
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

TEST(Gguf, EveryScalarTypeComesBackExact) {
    gguf_test::Writer w;
    w.add_u8("u8", 255);
    w.add_i8("i8", -128);
    w.add_u16("u16", 65535);
    w.add_i16("i16", -32768);
    w.add_u32("u32", 4294967295u);
    w.add_i32("i32", std::numeric_limits<std::int32_t>::min());
    w.add_u64("u64", std::numeric_limits<std::uint64_t>::max());
    w.add_i64("i64", std::numeric_limits<std::int64_t>::min());
    w.add_f32("f32", 0.1f);
    w.add_f64("f64", 1e300);
    w.add_bool("yes", true);
    w.add_bool("no", false);
    w.add_string("text", "h\xC3\xA9llo");
    w.add_string("empty", "");
    const File f = gguf_parse(w.bytes());
    EXPECT_EQ(f.version(), 3u);
    ASSERT_EQ(f.entries().size(), 14u);
    EXPECT_EQ(f.entries()[0].key, "u8");  // in file order

    EXPECT_EQ(f.find("u8")->type, ValueType::U8);
    EXPECT_EQ(f.find("u8")->unsigned_integer, 255u);
    EXPECT_EQ(f.find("i8")->integer, -128);
    EXPECT_EQ(f.find("u16")->unsigned_integer, 65535u);
    EXPECT_EQ(f.find("i16")->integer, -32768);
    EXPECT_EQ(f.find("u32")->unsigned_integer, 4294967295u);
    EXPECT_EQ(f.find("u32")->integer, 4294967295);
    EXPECT_EQ(f.find("i32")->integer, std::numeric_limits<std::int32_t>::min());
    EXPECT_EQ(f.find("u64")->unsigned_integer, std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(f.find("i64")->integer, std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(f.find("f32")->type, ValueType::F32);
    EXPECT_EQ(f.find("f32")->real, static_cast<double>(0.1f));
    EXPECT_EQ(f.find("f64")->real, 1e300);
    EXPECT_EQ(f.find("yes")->integer, 1);
    EXPECT_EQ(f.find("no")->integer, 0);
    EXPECT_EQ(f.find("text")->text, "h\xC3\xA9llo");
    EXPECT_EQ(f.find("empty")->text, "");
    EXPECT_EQ(f.find("missing"), nullptr);

    EXPECT_EQ(f.find("u64")->shown(), "18446744073709551615");
    EXPECT_EQ(f.find("i8")->shown(), "-128");
    EXPECT_EQ(f.find("f32")->shown(), "0.1");  // as written, not 0.10000000149011612
    EXPECT_EQ(f.find("yes")->shown(), "true");
    EXPECT_EQ(f.find("text")->shown(), "\"h\xC3\xA9llo\"");
    for (const auto& kv : f.entries()) EXPECT_EQ(kv.value.is_number(), kv.value.type != ValueType::String) << kv.key;
}

TEST(Gguf, ArraysOfEveryElementTypeAndNestedArraysComeBackExact) {
    namespace g = gguf_test;
    g::Writer w;
    w.add_array_u8("u8", {0, 7, 255});
    w.add_array_i8("i8", {-1, 1});
    w.add_array_u16("u16", {1, 65535});
    w.add_array_i16("i16", {-2, 2});
    w.add_array_u32("u32", {11008, 13824});
    w.add_array_i32("i32", {-5, 0, 5});
    w.add_array_u64("u64", {1ull << 40});
    w.add_array_i64("i64", {-(1ll << 40)});
    w.add_array_f32("f32", {0.5f, -2.25f});
    w.add_array_f64("f64", {1.0 / 3.0});
    w.add_array_bool("bool", {true, false, true});
    w.add_array_string("tokens", {"<s>", "", "\xE2\x96\x81the"});
    w.add_array_u32("none", {});
    // [[[1], [2, 3]], []]: three levels.
    w.add("nested", g::array(g::Type::Array, {g::array(g::Type::Array, {g::array(g::Type::U8, {g::u8(1)}),
                                                                         g::array(g::Type::U8, {g::u8(2), g::u8(3)})}),
                                               g::array(g::Type::Array, {})}));
    const File f = gguf_parse(w.bytes());

    const Value& u8 = *f.find("u8");
    EXPECT_EQ(u8.type, ValueType::Array);
    EXPECT_EQ(u8.element, ValueType::U8);
    ASSERT_EQ(u8.count, 3u);
    ASSERT_TRUE(u8.items_kept());
    EXPECT_EQ(u8.items[2].unsigned_integer, 255u);
    EXPECT_EQ(f.find("i8")->items[0].integer, -1);
    EXPECT_EQ(f.find("u16")->items[1].unsigned_integer, 65535u);
    EXPECT_EQ(f.find("i16")->items[0].integer, -2);
    EXPECT_EQ(f.find("u32")->items[1].unsigned_integer, 13824u);
    EXPECT_EQ(f.find("i32")->items[0].integer, -5);
    EXPECT_EQ(f.find("u64")->items[0].unsigned_integer, 1ull << 40);
    EXPECT_EQ(f.find("i64")->items[0].integer, -(1ll << 40));
    EXPECT_EQ(f.find("f32")->items[1].real, -2.25);
    EXPECT_EQ(f.find("f64")->items[0].real, 1.0 / 3.0);
    EXPECT_EQ(f.find("bool")->items[1].integer, 0);
    EXPECT_EQ(f.find("bool")->items[2].integer, 1);
    const Value& tokens = *f.find("tokens");
    EXPECT_EQ(tokens.element, ValueType::String);
    ASSERT_EQ(tokens.items.size(), 3u);
    EXPECT_EQ(tokens.items[0].text, "<s>");
    EXPECT_EQ(tokens.items[1].text, "");
    EXPECT_EQ(tokens.items[2].text, "\xE2\x96\x81the");
    EXPECT_EQ(f.find("none")->count, 0u);
    EXPECT_EQ(f.find("none")->shown(), "[]");

    const Value& nested = *f.find("nested");
    ASSERT_EQ(nested.items.size(), 2u);
    EXPECT_EQ(nested.items[0].element, ValueType::Array);
    ASSERT_EQ(nested.items[0].items.size(), 2u);
    EXPECT_EQ(nested.items[0].items[1].items[1].unsigned_integer, 3u);
    EXPECT_EQ(nested.items[1].count, 0u);
    EXPECT_EQ(nested.shown(), "[2 items: [2 items: [1 item: 1], [2 items: 2, 3]], []]");
    EXPECT_EQ(f.find("u32")->shown(), "[2 items: 11008, 13824]");
}

TEST(Gguf, VersionsTwoAndThreeParseAndOthersAreRefusedByNumber) {
    for (std::uint32_t version : {2u, 3u}) {
        gguf_test::Writer w;
        w.version = version;
        w.add_string("general.architecture", "llama");
        w.add_tensor("a", {4}, 0, gguf_pattern(16, 1));
        const File f = gguf_parse(w.bytes());
        EXPECT_EQ(f.version(), version);
        EXPECT_EQ(f.string("general.architecture"), "llama");
        EXPECT_EQ(gguf_span_text(f.data(f.tensors()[0])), gguf_pattern(16, 1));
    }
    for (std::uint32_t version : {0u, 1u, 4u, 1000u}) {
        gguf_test::Writer w;
        w.version = version;
        const std::string message = gguf_refusal(w.bytes());
        EXPECT_NE(message.find("t.gguf"), std::string::npos) << message;
        EXPECT_NE(message.find("version " + std::to_string(version) + " "), std::string::npos) << message;
    }
    gguf_test::Writer big_endian;
    big_endian.version = 0x03000000;  // 3 written by a big-endian machine
    EXPECT_NE(gguf_refusal(big_endian.bytes()).find("version 3 in big-endian"), std::string::npos);
}

TEST(Gguf, TensorDataLiesAtAlignedOffsetsWithDefaultAlignment) {
    gguf_test::Writer w;
    w.add_string("general.architecture", "llama");
    w.add_tensor("blk.0.attn_q.weight", {3, 2}, 0, gguf_pattern(24, 1));  // f32: 3 × 2 × 4 bytes
    w.add_tensor("blk.0.attn_k.weight", {5}, 1, gguf_pattern(10, 2));     // f16: 5 × 2
    w.add_tensor("token_embd.weight", {64, 2}, 8, gguf_pattern(136, 3));  // q8_0: 2 rows × 2 blocks × 34
    const std::string bytes = w.bytes();
    const File f = gguf_parse(bytes);
    EXPECT_EQ(f.alignment(), 32u);
    ASSERT_EQ(f.tensors().size(), 3u);
    const TensorInfo& q = f.tensors()[0];
    EXPECT_EQ(q.name, "blk.0.attn_q.weight");
    EXPECT_EQ(q.dims, (std::vector<std::uint64_t>{3, 2}));
    EXPECT_EQ(q.elements(), 6u);
    EXPECT_EQ(q.bytes, 24u);
    EXPECT_EQ(f.tensors()[1].bytes, 10u);
    EXPECT_EQ(f.tensors()[2].bytes, 136u);
    EXPECT_EQ(f.tensors()[1].offset, 32u);   // 24 rounded up to 32
    EXPECT_EQ(f.tensors()[2].offset, 64u);   // 32 + 10 rounded up
    for (int i = 0; i < 3; ++i) {
        const TensorInfo& t = f.tensors()[static_cast<std::size_t>(i)];
        const std::span<const std::byte> data = f.data(t);
        EXPECT_EQ(gguf_span_text(data), gguf_pattern(t.bytes, i + 1)) << t.name;
        EXPECT_EQ(bytes.find(gguf_pattern(t.bytes, i + 1)) % 32, 0u) << t.name;  // aligned in the file too
    }
    EXPECT_EQ(f.tensor("token_embd.weight"), &f.tensors()[2]);
    EXPECT_EQ(f.tensor("output.weight"), nullptr);
}

TEST(Gguf, ACustomAlignmentPlacesTheDataOnItsMultiples) {
    gguf_test::Writer w;
    w.add_u32("general.alignment", 256);
    w.add_tensor("a", {3}, 0, gguf_pattern(12, 4));
    w.add_tensor("b", {7}, 0, gguf_pattern(28, 5));
    const std::string bytes = w.bytes();
    const File f = gguf_parse(bytes);
    EXPECT_EQ(f.alignment(), 256u);
    EXPECT_EQ(f.tensors()[1].offset, 256u);
    EXPECT_EQ(gguf_span_text(f.data(f.tensors()[1])), gguf_pattern(28, 5));
    EXPECT_EQ(bytes.find(gguf_pattern(12, 4)) % 256, 0u);
    EXPECT_EQ(bytes.find(gguf_pattern(28, 5)) % 256, 0u);

    // Padded with 32 but declaring 64: the second tensor's offset 32 is not a multiple of 64.
    gguf_test::Writer lying;
    lying.add_u32("general.alignment", 64);
    lying.alignment = 32;
    lying.add_tensor("a", {3}, 0, gguf_pattern(12, 4));
    lying.add_tensor("b", {3}, 0, gguf_pattern(12, 5));
    const std::string message = gguf_refusal(lying.bytes());
    EXPECT_NE(message.find("tensor \"b\""), std::string::npos) << message;
    EXPECT_NE(message.find("offset 32 is not a multiple of the alignment 64"), std::string::npos) << message;
}

TEST(Gguf, BlockTypesAreSizedFromTheirBlocks) {
    struct Row {
        std::uint32_t type;
        std::vector<std::uint64_t> dims;
        std::uint64_t bytes;  // hand-worked: rows × blocks per row × bytes per block
    };
    const std::vector<Row> rows{
        {12, {512, 2}, 2 * 2 * 144},  // q4_K: 144 bytes per 256
        {14, {256, 3}, 3 * 210},      // q6_K
        {8, {64}, 2 * 34},            // q8_0: 34 per 32
        {2, {32, 2, 2}, 4 * 18},      // q4_0
        {3, {32}, 20},                // q4_1
        {6, {32}, 22},                // q5_0
        {7, {32}, 24},                // q5_1
        {10, {256}, 84},              // q2_K
        {11, {256}, 110},             // q3_K
        {13, {256}, 176},             // q5_K
        {15, {256}, 292},             // q8_K
        {30, {3, 5}, 30},             // bf16
        {24, {7}, 7},                 // i8
        {25, {7}, 14},                // i16
        {26, {7}, 28},                // i32
        {27, {7}, 56},                // i64
        {28, {7}, 56},                // f64
    };
    for (const Row& row : rows) {
        gguf_test::Writer w;
        w.add_tensor("t", row.dims, row.type, gguf_pattern(row.bytes, 6));
        const File f = gguf_parse(w.bytes());
        EXPECT_EQ(f.tensors()[0].bytes, row.bytes) << ropelab::gguf::tensor_type_name(row.type);
        EXPECT_EQ(f.data(f.tensors()[0]).size(), row.bytes);
    }
    EXPECT_EQ(ropelab::gguf::tensor_type_name(12), "q4_K");
    EXPECT_EQ(ropelab::gguf::tensor_type_name(30), "bf16");
    EXPECT_EQ(ropelab::gguf::tensor_type_name(99), "type 99");
}

TEST(Gguf, AnUnknownTensorTypeParsesAndRefusesOnlyItsData) {
    gguf_test::Writer w;
    w.add_tensor("odd", {8}, 99, gguf_pattern(8, 7));
    const File f = gguf_parse(w.bytes());
    EXPECT_EQ(f.tensors()[0].type, 99u);
    EXPECT_EQ(f.tensors()[0].bytes, 0u);
    const std::string message = refusal([&] { f.data(f.tensors()[0]); });
    EXPECT_NE(message.find("tensor \"odd\""), std::string::npos) << message;
    EXPECT_NE(message.find("type 99"), std::string::npos) << message;
}

TEST(Gguf, TypedReadsRefuseTheWrongTypeShowingKeyAndValue) {
    gguf_test::Writer w;
    w.add_string("llama.rope.freq_base", "abc");
    w.add_f32("llama.rope.scaling.factor", 8.0f);
    w.add_f32("whole", 4096.0f);
    w.add_f32("half", 2.5f);
    w.add_i32("negative", -3);
    w.add_u64("huge", std::numeric_limits<std::uint64_t>::max());
    w.add_u32("count", 32);
    w.add_bool("flag", true);
    w.add_array_i32("llama.attention.head_count_kv", {8, 0, 8});
    w.add_array_string("names", {"a"});
    const File f = gguf_parse(w.bytes());
    EXPECT_EQ(refusal([&] { f.number("llama.rope.freq_base"); }), "t.gguf: llama.rope.freq_base = \"abc\" is not a number");
    EXPECT_EQ(refusal([&] { f.string("count"); }), "t.gguf: count = 32 is not a string (it is a u32)");
    EXPECT_EQ(f.number("llama.rope.scaling.factor"), 8.0);
    EXPECT_EQ(f.number("absent"), std::nullopt);
    EXPECT_EQ(f.integer("whole"), 4096);
    EXPECT_EQ(f.integer("count"), 32);
    EXPECT_EQ(refusal([&] { f.integer("half"); }), "t.gguf: half = 2.5 is not a whole number");
    EXPECT_EQ(refusal([&] { f.integer("negative"); }), "t.gguf: negative = -3 is negative");
    EXPECT_NE(refusal([&] { f.integer("huge"); }).find("huge = 18446744073709551615 is too large"), std::string::npos);
    EXPECT_NE(refusal([&] { f.integer("flag"); }).find("flag = true is not an integer"), std::string::npos);
    EXPECT_EQ(f.numbers("count"), (std::vector<double>{32}));
    EXPECT_EQ(f.numbers("llama.attention.head_count_kv"), (std::vector<double>{8, 0, 8}));
    EXPECT_EQ(refusal([&] { f.numbers("names"); }), "t.gguf: names = [1 item: \"a\"] is not a number or an array of numbers");
}

TEST(Gguf, LongArraysKeepTheirCountNotTheirItems) {
    using ropelab::gguf::kMaxKeptItems;
    std::vector<std::string> vocab(150000);
    for (std::size_t i = 0; i < vocab.size(); ++i) vocab[i] = "tok" + std::to_string(i);
    gguf_test::Writer w;
    w.add_array_string("tokenizer.ggml.tokens", vocab);
    w.add_array_f32("tokenizer.ggml.scores", std::vector<float>(150000, -1.0f));
    w.add_array_u32("at_limit", std::vector<std::uint32_t>(kMaxKeptItems, 7));
    w.add_array_u32("past_limit", std::vector<std::uint32_t>(kMaxKeptItems + 1, 7));
    w.add_u32("after", 5);
    const File f = gguf_parse(w.bytes());
    const Value& tokens = *f.find("tokenizer.ggml.tokens");
    EXPECT_EQ(tokens.count, 150000u);
    EXPECT_TRUE(tokens.items.empty());
    EXPECT_FALSE(tokens.items_kept());
    EXPECT_EQ(tokens.shown(), "[150000 string items]");
    EXPECT_EQ(f.find("tokenizer.ggml.scores")->count, 150000u);
    EXPECT_EQ(f.find("at_limit")->items.size(), kMaxKeptItems);
    EXPECT_TRUE(f.find("past_limit")->items.empty());
    EXPECT_NE(refusal([&] { f.numbers("past_limit"); }).find("more items than ropelab keeps"), std::string::npos);
    EXPECT_EQ(f.integer("after"), 5);  // the long arrays were stepped over exactly

    // The file's budget: 65 arrays of 4096 pass 2^18 items, so the last one is not kept.
    gguf_test::Writer many;
    for (int i = 0; i < 65; ++i) many.add_array_u8("a" + std::to_string(i), std::vector<std::uint8_t>(kMaxKeptItems, 1));
    const File g = gguf_parse(many.bytes());
    EXPECT_TRUE(g.find("a63")->items_kept());
    EXPECT_FALSE(g.find("a64")->items_kept());
    EXPECT_EQ(g.find("a64")->count, kMaxKeptItems);
}

TEST(Gguf, OpensAFileFromDiskNamingItInErrors) {
    const std::string path = (std::filesystem::temp_directory_path() / ("gguf_test_" + std::to_string(getpid()) + ".gguf")).string();
    gguf_test::Writer w;
    w.add_string("general.architecture", "qwen2");
    w.add_tensor("a", {2}, 0, gguf_pattern(8, 8));
    gguf_test::write_file(path, w.bytes());
    const File f = File::open(path);
    EXPECT_EQ(f.source(), path);
    EXPECT_EQ(gguf_span_text(f.data(*f.tensor("a"))), gguf_pattern(8, 8));
    EXPECT_NE(refusal([&] { f.number("general.architecture"); }).find(path + ": general.architecture"), std::string::npos);
    std::filesystem::remove(path);
    EXPECT_NE(refusal([&] { File::open(path); }).find("cannot open GGUF model file"), std::string::npos);
}

// A small file with a bit of everything, cut at every byte: each prefix parses or is refused.
TEST(Gguf, EveryTruncationIsRefusedOrParses) {
    namespace g = gguf_test;
    g::Writer w;
    w.add_string("general.architecture", "llama");
    w.add_array_string("tokens", {"a", "bc"});
    w.add("nested", g::array(g::Type::Array, {g::array(g::Type::F32, {g::f32(1.5f)})}));
    w.add_bool("flag", true);
    w.add_tensor("a", {8}, 0, gguf_pattern(32, 9));
    w.add_tensor("b", {32}, 8, gguf_pattern(34, 10));
    const std::string bytes = w.bytes();
    int refused = 0;
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        try {
            const File f = gguf_parse(bytes.substr(0, n));
            for (const TensorInfo& t : f.tensors()) f.data(t);
        } catch (const InputError& e) {
            ++refused;
            EXPECT_EQ(std::string(e.what()).rfind("t.gguf: ", 0), 0u) << e.what();
        }
    }
    // Every cut before the last tensor's data is complete loses something the file needs.
    EXPECT_GE(refused, static_cast<int>(bytes.find(gguf_pattern(34, 10)) + 34));
}

struct GgufHostileRow {
    std::string name;
    std::string bytes;
    std::vector<std::string> named;  // what the message must name: the key or tensor, the value
};

std::vector<GgufHostileRow> gguf_hostile_rows() {
    namespace g = gguf_test;
    using g::le_u32;
    using g::le_u64;
    std::vector<GgufHostileRow> rows;
    const auto add = [&](std::string name, const g::Writer& w, std::vector<std::string> named) {
        rows.push_back({std::move(name), w.bytes(), std::move(named)});
    };
    const std::uint64_t k2e60 = 1ull << 60;
    {
        g::Writer w;
        w.magic = "GGML";
        add("bad magic", w, {"not a GGUF file", "\"GGML\""});
    }
    rows.push_back({"too short", "GG", {"not a GGUF file (2 bytes)"}});
    {
        g::Writer w;
        w.kv_count = k2e60;
        add("2^60 keys", w, {"header", "1152921504606846976 keys"});
    }
    {
        g::Writer w;
        w.tensor_count = k2e60;
        add("2^60 tensors", w, {"header", "1152921504606846976 tensors"});
    }
    {
        g::Writer w;  // the bytes are there, but no real file has a million keys
        w.kv_count = (1u << 20) + 1;
        w.tail = std::string(14u << 20, '\0');
        add("2^20 + 1 keys", w, {"header", "1048577 keys are more than ropelab reads"});
    }
    {
        g::Writer w;
        w.tensor_count = (1u << 20) + 1;
        w.tail = std::string(40u << 20, '\0');
        add("2^20 + 1 tensors", w, {"header", "1048577 tensors are more than ropelab reads"});
    }
    {
        g::Writer w;
        w.add_u32(std::string(65536, 'k'), 1);
        add("key of 65536 bytes", w, {"key #1", "a key of 65536 bytes"});
    }
    {
        g::Writer w;
        w.add_raw("tokenizer.ggml.tokens", 9, le_u32(8) + le_u64(k2e60));
        add("2^60 strings", w, {"key \"tokenizer.ggml.tokens\"", "1152921504606846976 string items"});
    }
    {
        g::Writer w;
        w.add_raw("scores", 9, le_u32(6) + le_u64(k2e60));
        add("2^60 floats", w, {"key \"scores\"", "1152921504606846976 f32 items"});
    }
    {
        g::Writer w;
        w.add_raw("nest", 9, le_u32(9) + le_u64(k2e60));
        add("2^60 arrays", w, {"key \"nest\"", "1152921504606846976 array items"});
    }
    {
        g::Writer w;
        w.add_raw("general.name", 8, le_u64(1000) + "abc");
        add("string past the end", w, {"key \"general.name\"", "1000 bytes"});
    }
    {
        g::Writer w;
        w.add_raw_bytes(le_u64(5000) + "general");
        add("key past the end", w, {"key #1", "5000 bytes"});
    }
    {
        g::Writer w;  // five levels: [[[[[1]]]]]
        g::Encoded v = g::array(g::Type::U8, {g::u8(1)});
        for (int i = 0; i < 4; ++i) v = g::array(g::Type::Array, {v});
        w.add("deep", v);
        add("nested five deep", w, {"key \"deep\"", "nested deeper than 4"});
    }
    {
        g::Writer w;
        w.add_raw("weird", 13, le_u32(0));
        add("unknown value type", w, {"key \"weird\"", "unknown value type 13"});
    }
    {
        g::Writer w;
        w.add_raw("weird", 9, le_u32(200) + le_u64(1) + "x");
        add("unknown element type", w, {"key \"weird\"", "unknown array element type 200"});
    }
    {
        g::Writer w;
        w.add_raw("flag", 7, std::string(1, '\2'));
        add("bool of 2", w, {"key \"flag\"", "a bool of 2"});
    }
    {
        g::Writer w;
        w.add_u32("llama.block_count", 32);
        w.add_string("general.name", "x");
        w.add_u32("llama.block_count", 40);
        add("duplicate key", w, {"key \"llama.block_count\"", "appears twice"});
    }
    {
        g::Writer w;
        w.add_u32("bad\xFFkey", 1);
        w.add_u32("bad\xFFkey", 1);
        add("duplicate key not UTF-8", w, {"key \"bad\\xFFkey\"", "appears twice"});
    }
    for (std::uint32_t alignment : {0u, 3u, 48u}) {
        g::Writer w;
        w.add_u32("general.alignment", alignment);
        add("alignment " + std::to_string(alignment), w, {"key \"general.alignment\"", std::to_string(alignment) + " is not a power of two"});
    }
    {
        g::Writer w;
        w.add_u64("general.alignment", 64);
        add("alignment u64", w, {"key \"general.alignment\"", "64 is a u64, not a u32"});
    }
    {
        g::Writer w;
        w.add_string("general.alignment", "32");
        add("alignment string", w, {"key \"general.alignment\"", "\"32\" is a string, not a u32"});
    }
    {
        g::Writer w;
        w.add_tensor("blk.0.ffn_up.weight", {4, 0}, 0, "");
        add("zero dim", w, {"tensor \"blk.0.ffn_up.weight\"", "dimension 1 of [4, 0] is 0"});
    }
    {
        g::Writer w;
        w.add_tensor("t", {1, 1, 1, 1, 1}, 0, gguf_pattern(4, 1));
        add("five dims", w, {"tensor \"t\"", "5 dimensions"});
    }
    {
        g::Writer w;
        w.add_tensor("t", {8}, 0, gguf_pattern(32, 1)).n_dims = 0;
        add("zero dims", w, {"tensor \"t\"", "0 dimensions"});
    }
    {
        g::Writer w;
        w.add_tensor("t", {1ull << 32, 1ull << 32}, 0, "");
        add("element overflow", w, {"tensor \"t\"", "[4294967296, 4294967296]", "2^63 elements"});
    }
    {
        g::Writer w;
        w.add_tensor("t", {1ull << 31, 1ull << 31}, 0, "");  // 2^62 elements, 2^64 bytes of f32
        add("byte overflow", w, {"tensor \"t\"", "2^63 bytes"});
    }
    {
        g::Writer w;
        w.add_tensor("blk.0.attn_v.weight", {100}, 12, gguf_pattern(144, 1));
        add("row not whole blocks", w, {"tensor \"blk.0.attn_v.weight\"", "100", "q4_K blocks of 256"});
    }
    {
        g::Writer w;
        w.add_tensor("t", {2}, 0, gguf_pattern(8, 1)).offset = 8;
        add("unaligned offset", w, {"tensor \"t\"", "offset 8 is not a multiple of the alignment 32"});
    }
    {
        g::Writer w;
        w.add_tensor("t", {2}, 0, gguf_pattern(8, 1)).offset = 1ull << 20;
        add("offset past the end", w, {"tensor \"t\"", "offset 1048576", "run past the end"});
    }
    {
        g::Writer w;
        w.add_tensor("t", {2}, 0, gguf_pattern(8, 1)).offset = 0xFFFFFFFFFFFFFFE0ull;
        add("offset near 2^64", w, {"tensor \"t\"", "offset 18446744073709551584", "run past the end"});
    }
    {
        g::Writer w;
        w.add_tensor("t", {1024}, 0, gguf_pattern(16, 1));  // 4096 bytes promised, 16 there
        add("data cut short", w, {"tensor \"t\"", "4096 bytes", "run past the end"});
    }
    {
        g::Writer w;
        w.add_tensor("a", {16}, 0, gguf_pattern(64, 1));
        w.add_tensor("b", {16}, 0, gguf_pattern(64, 2)).offset = 32;
        add("overlap", w, {"tensor \"b\"", "overlap tensor \"a\""});
    }
    {
        g::Writer w;
        w.add_tensor("same", {2}, 0, gguf_pattern(8, 1));
        w.add_tensor("same", {2}, 0, gguf_pattern(8, 2));
        add("duplicate tensor", w, {"tensor \"same\"", "appears twice"});
    }
    {
        g::Writer w;
        w.add_tensor("bad\x01name", {2}, 0, gguf_pattern(8, 1)).n_dims = 9;
        add("tensor name escaped", w, {"tensor \"bad\\x01name\"", "9 dimensions"});
    }
    return rows;
}

TEST(Gguf, HostileFilesAreRefusedNamingTheKeyAndValue) {
    for (const GgufHostileRow& row : gguf_hostile_rows()) {
        const std::string message = gguf_refusal(row.bytes);
        EXPECT_EQ(message.rfind("t.gguf: ", 0), 0u) << row.name << ": " << message;
        for (const std::string& part : row.named) EXPECT_NE(message.find(part), std::string::npos) << row.name << ": " << message;
    }
}

TEST(Gguf, FourLevelsOfNestingAreRead) {
    namespace g = gguf_test;
    g::Encoded v = g::array(g::Type::U8, {g::u8(9)});
    for (int i = 0; i < 3; ++i) v = g::array(g::Type::Array, {v});
    g::Writer w;
    w.add("deep", v);
    const File f = gguf_parse(w.bytes());
    EXPECT_EQ(f.find("deep")->items[0].items[0].items[0].items[0].unsigned_integer, 9u);
}

// The memory the process may map: the size it has now plus `extra` bytes.
rlim_t gguf_address_space_with(rlim_t extra) {
    FILE* statm = std::fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (!statm || std::fscanf(statm, "%lu", &pages) != 1) pages = 0;
    if (statm) std::fclose(statm);
    return static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGESIZE)) + extra;
}

// Counts of 2^60 are refused from the bytes that are there, before anything is reserved: in a
// child whose address space can grow by 64 MiB only, a reservation would fail with bad_alloc.
TEST(Gguf, HugeCountsAreRefusedWithoutAllocating) {
    const std::vector<GgufHostileRow> rows = gguf_hostile_rows();
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const rlimit limit{gguf_address_space_with(64u << 20), gguf_address_space_with(64u << 20)};
        setrlimit(RLIMIT_AS, &limit);
        int failures = 0;
        for (const GgufHostileRow& row : rows) {
            try {
                gguf_parse(row.bytes);
                ++failures;
            } catch (const InputError&) {
            } catch (...) {
                ++failures;
            }
        }
        _exit(failures);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(Gguf, HasGgufMagic) {
    const std::string yes = "GGUF\3\0\0\0";
    const std::string no = "GGML";
    EXPECT_TRUE(ropelab::gguf::has_gguf_magic(std::as_bytes(std::span(yes))));
    EXPECT_FALSE(ropelab::gguf::has_gguf_magic(std::as_bytes(std::span(no))));
    EXPECT_FALSE(ropelab::gguf::has_gguf_magic({}));
}

}  // namespace
