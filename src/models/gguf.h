#pragma once
// The GGUF container (ggml's docs/gguf.md, versions 2 and 3): the header, every metadata
// key/value type including arrays (nested ones too), the tensor infos and the aligned data
// section. Parsing checks every count, length and offset against the bytes that are there before
// it reserves anything, so a hostile file is refused in milliseconds with an InputError naming
// the file, the key (or tensor) and the value; tensor data is only touched when asked for.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/mapped_file.h"

namespace ropelab::gguf {

// The on-disk value type codes (gguf.md, gguf_type).
enum class ValueType : std::uint32_t {
    U8 = 0, I8 = 1, U16 = 2, I16 = 3, U32 = 4, I32 = 5, F32 = 6, Bool = 7, String = 8, Array = 9,
    U64 = 10, I64 = 11, F64 = 12,
};
std::string_view to_string(ValueType type);  // "u32", "array", …

// Arrays longer than this keep only their count and element type, not their items: ropelab reads
// no tokenizer, and a vocabulary (152k strings, their scores and types) with its 1.5 M merges
// would cost 96 bytes a Value, ~190 MB; stepped over, they cost no memory and 13 ms of parse.
// Per-layer arrays hold a few hundred items at most. A file's kept items are also capped in all
// (kMaxKeptItemsInFile), so a hostile file of many mid-sized arrays costs little.
inline constexpr std::uint64_t kMaxKeptItems = 4096;
inline constexpr std::uint64_t kMaxKeptItemsInFile = 1u << 18;
// Arrays of arrays nest at most this deep (a top-level array is level 1).
inline constexpr int kMaxArrayNesting = 4;

// One metadata value. Scalars keep their exact value (integers as written; floats widened to
// double); an array keeps its element type, its count and its items (which may be arrays) when
// it is short enough to keep (see kMaxKeptItems; items.size() == count then, else items is empty).
struct Value {
    ValueType type = ValueType::U8;
    ValueType element = ValueType::U8;  // arrays only
    std::int64_t integer = 0;           // signed types and bool (0/1); unsigned up to 2^63−1
    std::uint64_t unsigned_integer = 0; // unsigned types
    double real = 0.0;                  // F32, F64 (and every numeric type, converted)
    std::string text;                   // String
    std::vector<Value> items;           // Array (when kept)
    std::uint64_t count = 0;            // Array: its number of items, kept or not

    bool items_kept() const { return items.size() == count; }

    bool is_number() const;  // any integer, float or bool type
    std::string shown() const;  // as an error or --explain shows it: 10000, "llama", [4 items: 1, 2, …]
};

struct KeyValue {
    std::string key;
    Value value;
};

// The ggml tensor types ropelab knows by name (ggml.h, enum ggml_type); others keep their code.
enum class TensorType : std::uint32_t {
    F32 = 0, F16 = 1, Q4_0 = 2, Q4_1 = 3, Q5_0 = 6, Q5_1 = 7, Q8_0 = 8, Q8_1 = 9, Q2_K = 10, Q3_K = 11,
    Q4_K = 12, Q5_K = 13, Q6_K = 14, Q8_K = 15, I8 = 24, I16 = 25, I32 = 26, I64 = 27, F64 = 28, BF16 = 30,
};
std::string tensor_type_name(std::uint32_t type);  // "q4_K", or "type 99"

struct TensorInfo {
    std::string name;
    std::vector<std::uint64_t> dims;  // ggml order: dims[0] is the row length (the input dimension)
    std::uint32_t type = 0;           // TensorType code
    std::uint64_t offset = 0;         // from the start of the data section
    std::uint64_t bytes = 0;          // the tensor's size in bytes (known types; 0 for others)
    std::uint64_t elements() const;
};

class File {
public:
    // Maps and parses a file (registered as an input: "GGUF model"). Throws InputError.
    static File open(const std::string& path);
    // Parses bytes in memory; `source` names them in errors.
    static File parse(models::MappedFile bytes);

    std::uint32_t version() const { return version_; }
    const std::string& source() const { return bytes_.path(); }
    std::span<const KeyValue> entries() const { return entries_; }
    std::span<const TensorInfo> tensors() const { return tensors_; }
    std::uint64_t alignment() const { return alignment_; }

    const Value* find(std::string_view key) const;
    const TensorInfo* tensor(std::string_view name) const;

    // Typed reads that refuse a value of the wrong type with InputError "SOURCE: KEY = VALUE is not …".
    std::optional<std::string> string(std::string_view key) const;
    std::optional<double> number(std::string_view key) const;
    std::optional<std::int64_t> integer(std::string_view key) const;  // refuses fractions and negatives
    // A number or an array of numbers (per-layer values): a scalar comes back as one item.
    std::optional<std::vector<double>> numbers(std::string_view key) const;

    // The tensor's bytes, checked to lie inside the file (InputError naming the tensor otherwise).
    std::span<const std::byte> data(const TensorInfo& tensor) const;

private:
    models::MappedFile bytes_;
    std::uint32_t version_ = 0;
    std::uint64_t alignment_ = 32;
    std::uint64_t data_start_ = 0;
    std::vector<KeyValue> entries_;
    std::vector<TensorInfo> tensors_;
    std::vector<std::size_t> key_order_;     // entries_ sorted by key: find() and the duplicate check
    std::vector<std::size_t> tensor_order_;  // tensors_ sorted by name
};

// True when the bytes start with GGUF's magic.
bool has_gguf_magic(std::span<const std::byte> head);

}  // namespace ropelab::gguf
