#include "models/gguf.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"
#include "core/utf8.h"

// The layout and the checks follow ggml's docs/gguf.md and its reader (ggml/src/gguf.cpp):
// little-endian, u64 counts and string lengths (version 1 had u32 ones), GGML_MAX_DIMS = 4,
// general.alignment a u32 power of two (default 32), tensor data from an aligned data section.

namespace ropelab::gguf {

namespace {

constexpr std::uint32_t kMaxDims = 4;  // GGML_MAX_DIMS (ggml.h)
constexpr std::uint64_t kDefaultAlignment = 32;
// Real files hold tens of keys and at most a few thousand tensors; past these a file costs ~100
// bytes of memory for each 13 (a key) or 32 (a tensor info) of its own, so a hostile one of
// gigabytes is refused by count rather than parsed into tens of gigabytes.
constexpr std::uint64_t kMaxKeys = 1u << 20;
constexpr std::uint64_t kMaxTensors = 1u << 20;
constexpr std::uint64_t kMaxKeyBytes = 65535;  // gguf.md: a key is at most 2^16 − 1 bytes

// Bytes per block and values per block of each ggml type (ggml.c's type_traits, the block
// structs of ggml-common.h).
struct TypeTraits {
    std::uint32_t code;
    std::string_view name;
    std::uint32_t block_values;
    std::uint32_t block_bytes;
};
constexpr std::array<TypeTraits, 36> kTensorTypes{{
    {0, "f32", 1, 4},         {1, "f16", 1, 2},         {2, "q4_0", 32, 18},       {3, "q4_1", 32, 20},
    {6, "q5_0", 32, 22},      {7, "q5_1", 32, 24},      {8, "q8_0", 32, 34},       {9, "q8_1", 32, 36},
    {10, "q2_K", 256, 84},    {11, "q3_K", 256, 110},   {12, "q4_K", 256, 144},    {13, "q5_K", 256, 176},
    {14, "q6_K", 256, 210},   {15, "q8_K", 256, 292},   {16, "iq2_xxs", 256, 66},  {17, "iq2_xs", 256, 74},
    {18, "iq3_xxs", 256, 98}, {19, "iq1_s", 256, 50},   {20, "iq4_nl", 32, 18},    {21, "iq3_s", 256, 110},
    {22, "iq2_s", 256, 82},   {23, "iq4_xs", 256, 136}, {24, "i8", 1, 1},          {25, "i16", 1, 2},
    {26, "i32", 1, 4},        {27, "i64", 1, 8},        {28, "f64", 1, 8},         {29, "iq1_m", 256, 56},
    {30, "bf16", 1, 2},       {34, "tq1_0", 256, 54},   {35, "tq2_0", 256, 66},    {39, "mxfp4", 32, 17},
    // Removed from gguf files (gguf.md's enum): named so an error can say what it is, never sized.
    {4, "q4_2", 0, 0},        {5, "q4_3", 0, 0},        {31, "q4_0_4_4", 0, 0},    {32, "q4_0_4_8", 0, 0},
}};

const TypeTraits* traits_of(std::uint32_t code) {
    for (const TypeTraits& t : kTensorTypes) {
        if (t.code == code) return t.block_values ? &t : nullptr;
    }
    return nullptr;
}

bool known_value_type(std::uint32_t code) { return code <= static_cast<std::uint32_t>(ValueType::F64); }

// The bytes a scalar takes; 0 for strings and arrays, whose size is in the file.
std::uint64_t fixed_size(ValueType type) {
    switch (type) {
        case ValueType::U8: case ValueType::I8: case ValueType::Bool: return 1;
        case ValueType::U16: case ValueType::I16: return 2;
        case ValueType::U32: case ValueType::I32: case ValueType::F32: return 4;
        case ValueType::U64: case ValueType::I64: case ValueType::F64: return 8;
        case ValueType::String: case ValueType::Array: return 0;
    }
    return 0;
}

// The fewest bytes an item of this type can take: what a count is checked against.
std::uint64_t least_size(ValueType type) {
    if (type == ValueType::String) return 8;  // its u64 length
    if (type == ValueType::Array) return 12;  // its u32 element type and u64 count
    return fixed_size(type);
}

bool is_unsigned(ValueType t) {
    return t == ValueType::U8 || t == ValueType::U16 || t == ValueType::U32 || t == ValueType::U64;
}
bool is_signed(ValueType t) {
    return t == ValueType::I8 || t == ValueType::I16 || t == ValueType::I32 || t == ValueType::I64;
}
bool is_float(ValueType t) { return t == ValueType::F32 || t == ValueType::F64; }
bool is_numeric(ValueType t) { return is_unsigned(t) || is_signed(t) || is_float(t) || t == ValueType::Bool; }

std::string quoted(std::string_view text) { return "\"" + utf8_escaped(text) + "\""; }

std::string ordinal_name(std::string_view kind, std::uint64_t index) { return fmt::format("{} #{}", kind, index + 1); }

// The cursor over the file's bytes; every read is checked against what is left.
class Reader {
public:
    Reader(std::span<const std::byte> bytes, const std::string& source) : bytes_(bytes), source_(source) {}

    std::uint64_t at() const { return at_; }
    std::uint64_t left() const { return bytes_.size() - at_; }
    const std::string& source() const { return source_; }

    // `where` names what is read ("key \"a.b\"", "tensor #3") for the error.
    [[noreturn]] void fail(std::string_view where, std::string_view detail) const {
        throw InputError(fmt::format("{}: {}: {}", source_, where, detail));
    }
    void need(std::uint64_t n, std::string_view where) const {
        if (n > left()) {
            fail(where, fmt::format("the file ends at byte {}, {} bytes short (it is truncated)", bytes_.size(), n - left()));
        }
    }

    template <typename T>
    T read(std::string_view where) {
        need(sizeof(T), where);
        T value;
        std::memcpy(&value, bytes_.data() + at_, sizeof(T));
        at_ += sizeof(T);
        return value;
    }
    std::string_view read_string(std::string_view where) {
        const auto length = read<std::uint64_t>(where);
        if (length > left()) {
            fail(where, fmt::format("a string of {} bytes at byte {}, but only {} bytes are left", length, at_, left()));
        }
        const std::string_view text(reinterpret_cast<const char*>(bytes_.data() + at_), static_cast<std::size_t>(length));
        at_ += length;
        return text;
    }
    void skip(std::uint64_t n, std::string_view where) {
        need(n, where);
        at_ += n;
    }
    void align_to(std::uint64_t alignment) { at_ = std::min<std::uint64_t>(bytes_.size(), (at_ + alignment - 1) / alignment * alignment); }

private:
    std::span<const std::byte> bytes_;
    std::uint64_t at_ = 0;
    const std::string& source_;
};

// Reads metadata values, keeping at most kMaxKeptItemsInFile array items in all.
class ValueReader {
public:
    explicit ValueReader(Reader& in) : in_(in) {}

    ValueType read_type(std::string_view where, std::string_view what) {
        const auto code = in_.read<std::uint32_t>(where);
        if (!known_value_type(code)) {
            in_.fail(where, fmt::format("unknown {} type {} (gguf.md knows 0 to 12)", what, code));
        }
        return static_cast<ValueType>(code);
    }

    // `level` is the array nesting of the value (0: a key's own value). `keep`: false inside an
    // array whose items are not kept, where the value is only checked and stepped over.
    Value read(ValueType type, std::string_view where, int level, bool keep) {
        Value v;
        v.type = type;
        switch (type) {
            case ValueType::U8: set_unsigned(v, in_.read<std::uint8_t>(where)); break;
            case ValueType::U16: set_unsigned(v, in_.read<std::uint16_t>(where)); break;
            case ValueType::U32: set_unsigned(v, in_.read<std::uint32_t>(where)); break;
            case ValueType::U64: set_unsigned(v, in_.read<std::uint64_t>(where)); break;
            case ValueType::I8: set_signed(v, in_.read<std::int8_t>(where)); break;
            case ValueType::I16: set_signed(v, in_.read<std::int16_t>(where)); break;
            case ValueType::I32: set_signed(v, in_.read<std::int32_t>(where)); break;
            case ValueType::I64: set_signed(v, in_.read<std::int64_t>(where)); break;
            case ValueType::F32: v.real = in_.read<float>(where); break;
            case ValueType::F64: v.real = in_.read<double>(where); break;
            case ValueType::Bool: {
                // gguf.md: 0 is false, 1 is true, anything else is invalid.
                const auto b = in_.read<std::uint8_t>(where);
                if (b > 1) in_.fail(where, fmt::format("a bool of {} (a bool is 0 or 1)", b));
                set_signed(v, b);
                break;
            }
            case ValueType::String: {
                const std::string_view text = in_.read_string(where);
                if (keep) v.text = text;
                break;
            }
            case ValueType::Array: read_array(v, where, level + 1, keep); break;
        }
        return v;
    }

private:
    static void set_unsigned(Value& v, std::uint64_t x) {
        v.unsigned_integer = x;
        v.integer = x > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) ? 0 : static_cast<std::int64_t>(x);
        v.real = static_cast<double>(x);
    }
    static void set_signed(Value& v, std::int64_t x) {
        v.integer = x;
        v.real = static_cast<double>(x);
    }

    void read_array(Value& v, std::string_view where, int level, bool keep) {
        if (level > kMaxArrayNesting) {
            in_.fail(where, fmt::format("arrays nested deeper than {} levels", kMaxArrayNesting));
        }
        v.element = read_type(where, "array element");
        v.count = in_.read<std::uint64_t>(where);
        const std::uint64_t least = least_size(v.element);
        if (v.count > in_.left() / least) {
            in_.fail(where, fmt::format("an array of {} {} items needs at least {} bytes each, but only {} bytes are left",
                                        v.count, to_string(v.element), least, in_.left()));
        }
        const bool keep_items = keep && v.count <= kMaxKeptItems && kept_ + v.count <= kMaxKeptItemsInFile;
        if (!keep_items && v.element != ValueType::String && v.element != ValueType::Array && v.element != ValueType::Bool) {
            in_.skip(v.count * least, where);  // fixed-size numbers: checked above, nothing to look at
            return;
        }
        if (keep_items) {
            kept_ += v.count;
            v.items.reserve(static_cast<std::size_t>(v.count));
        }
        for (std::uint64_t i = 0; i < v.count; ++i) {
            Value item = read(v.element, where, level, keep_items);
            if (keep_items) v.items.push_back(std::move(item));
        }
    }

    Reader& in_;
    std::uint64_t kept_ = 0;
};

// a × b, or nullopt past 2^63 − 1 (ggml keeps element counts in int64_t).
std::optional<std::uint64_t> checked_product(std::uint64_t a, std::uint64_t b) {
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (a != 0 && b > kMax / a) return std::nullopt;
    return a * b;
}

std::string dims_shown(const std::vector<std::uint64_t>& dims) {
    return fmt::format("[{}]", fmt::join(dims, ", "));
}

}  // namespace

std::string_view to_string(ValueType type) {
    static constexpr std::array<std::string_view, 13> kNames{"u8",  "i8",   "u16",    "i16",   "u32", "i32", "f32",
                                                             "bool", "string", "array", "u64", "i64", "f64"};
    const auto code = static_cast<std::uint32_t>(type);
    return code < kNames.size() ? kNames[code] : std::string_view("unknown");
}

std::string tensor_type_name(std::uint32_t type) {
    for (const TypeTraits& t : kTensorTypes) {
        if (t.code == type) return std::string(t.name);
    }
    return fmt::format("type {}", type);
}

bool Value::is_number() const { return is_numeric(type); }

std::string Value::shown() const {
    constexpr std::size_t kShownItems = 8;
    constexpr std::size_t kShownCharacters = 80;
    if (is_unsigned(type)) return fmt::format("{}", unsigned_integer);
    if (is_signed(type)) return fmt::format("{}", integer);
    if (type == ValueType::Bool) return integer ? "true" : "false";
    // A float as it was written: an f32 shown through double would grow digits it never had.
    if (type == ValueType::F32) return fmt::format("{}", static_cast<float>(real));
    if (type == ValueType::F64) return fmt::format("{}", real);
    if (type == ValueType::String) {
        const std::size_t cut = utf8_prefix_bytes(text, kShownCharacters);
        return cut < text.size() ? quoted(std::string_view(text).substr(0, cut)) + "…" : quoted(text);
    }
    if (count == 0) return "[]";
    if (!items_kept()) return fmt::format("[{} {} items]", count, to_string(element));
    std::string out = fmt::format("[{} {}: ", count, count == 1 ? "item" : "items");
    for (std::size_t i = 0; i < items.size() && i < kShownItems; ++i) out += (i ? ", " : "") + items[i].shown();
    return out + (items.size() > kShownItems ? ", …]" : "]");
}

std::uint64_t TensorInfo::elements() const {
    std::uint64_t n = 1;
    for (std::uint64_t d : dims) n *= d;
    return n;
}

bool has_gguf_magic(std::span<const std::byte> head) {
    return head.size() >= 4 && std::memcmp(head.data(), "GGUF", 4) == 0;
}

File File::open(const std::string& path) { return parse(models::MappedFile::open(path, "GGUF model")); }

namespace {

void check_header(Reader& in, std::span<const std::byte> bytes, std::uint32_t& version) {
    if (!has_gguf_magic(bytes)) {
        const std::string_view head(reinterpret_cast<const char*>(bytes.data()), std::min<std::size_t>(bytes.size(), 4));
        in.fail("header", bytes.size() < 4 ? fmt::format("not a GGUF file ({} bytes)", bytes.size())
                                           : fmt::format("not a GGUF file (it starts with {}, not \"GGUF\")", quoted(head)));
    }
    in.skip(4, "header");
    version = in.read<std::uint32_t>("header");
    if (version == 2 || version == 3) return;
    // ggml's reader: a version whose low half is zero was written on a machine of the other byte order.
    if ((version & 0xFFFFu) == 0) {
        in.fail("header", fmt::format("GGUF version {} in big-endian byte order is not read", __builtin_bswap32(version)));
    }
    in.fail("header", fmt::format("GGUF version {} is not read (ropelab reads versions 2 and 3{})", version,
                                  version == 1 ? "; version 1 had 32-bit counts" : ""));
}

std::string key_where(std::string_view key) { return "key " + quoted(key); }
std::string tensor_where(std::string_view name) { return "tensor " + quoted(name); }

std::uint64_t alignment_of(const File& file, Reader& in) {
    const Value* v = file.find("general.alignment");
    if (!v) return kDefaultAlignment;
    const std::string where = key_where("general.alignment");
    if (v->type != ValueType::U32) {
        in.fail(where, fmt::format("{} is a {}, not a u32", v->shown(), to_string(v->type)));
    }
    if (v->unsigned_integer == 0 || (v->unsigned_integer & (v->unsigned_integer - 1)) != 0) {
        in.fail(where, fmt::format("{} is not a power of two", v->unsigned_integer));
    }
    return v->unsigned_integer;
}

// The element count and byte size of a tensor's dims and type, checked as ggml's reader checks them.
void size_tensor(TensorInfo& t, Reader& in, const std::string& where) {
    std::uint64_t elements = 1;
    for (std::size_t k = 0; k < t.dims.size(); ++k) {
        if (t.dims[k] == 0) in.fail(where, fmt::format("dimension {} of {} is 0", k, dims_shown(t.dims)));
        const auto product = checked_product(elements, t.dims[k]);
        if (!product) in.fail(where, fmt::format("dims {} hold more than 2^63 elements", dims_shown(t.dims)));
        elements = *product;
    }
    const TypeTraits* traits = traits_of(t.type);
    if (!traits) return;  // an unknown type: bytes stays 0 until data() is asked for
    if (t.dims[0] % traits->block_values != 0) {
        in.fail(where, fmt::format("its rows of {} values are not whole {} blocks of {}", t.dims[0], traits->name,
                                   traits->block_values));
    }
    const auto bytes = checked_product(elements / traits->block_values, traits->block_bytes);
    if (!bytes) in.fail(where, fmt::format("dims {} of {} take more than 2^63 bytes", dims_shown(t.dims), traits->name));
    t.bytes = *bytes;
}

TensorInfo read_tensor_info(Reader& in, std::uint64_t index, std::uint64_t alignment) {
    TensorInfo t;
    t.name = in.read_string(ordinal_name("tensor", index));
    const std::string where = tensor_where(t.name);
    const auto n_dims = in.read<std::uint32_t>(where);
    if (n_dims == 0 || n_dims > kMaxDims) {
        in.fail(where, fmt::format("{} dimensions (ggml's tensors have 1 to {})", n_dims, kMaxDims));
    }
    t.dims.resize(n_dims);
    for (std::uint64_t& d : t.dims) d = in.read<std::uint64_t>(where);
    t.type = in.read<std::uint32_t>(where);
    t.offset = in.read<std::uint64_t>(where);
    size_tensor(t, in, where);
    if (t.offset % alignment != 0) {
        in.fail(where, fmt::format("its data offset {} is not a multiple of the alignment {}", t.offset, alignment));
    }
    return t;
}

std::vector<std::size_t> sorted_order(std::size_t n, auto name_of) {
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return name_of(a) < name_of(b); });
    return order;
}

// The first name that appears twice in a sorted order, or nullptr.
const std::string* repeated_name(const std::vector<std::size_t>& order, auto name_of) {
    for (std::size_t i = 1; i < order.size(); ++i) {
        if (name_of(order[i - 1]) == name_of(order[i])) return &name_of(order[i]);
    }
    return nullptr;
}

// Each sized tensor's bytes lie inside the data section and overlap no other tensor's.
void check_tensor_ranges(const std::vector<TensorInfo>& tensors, std::uint64_t data_bytes, Reader& in) {
    std::vector<const TensorInfo*> sized;
    for (const TensorInfo& t : tensors) {
        if (t.bytes == 0) continue;
        if (t.offset > data_bytes || t.bytes > data_bytes - t.offset) {
            in.fail(tensor_where(t.name), fmt::format("its {} bytes at offset {} run past the end of the file (the data "
                                                      "section holds {} bytes)", t.bytes, t.offset, data_bytes));
        }
        sized.push_back(&t);
    }
    std::sort(sized.begin(), sized.end(), [](const TensorInfo* a, const TensorInfo* b) { return a->offset < b->offset; });
    for (std::size_t i = 1; i < sized.size(); ++i) {
        const TensorInfo& a = *sized[i - 1];
        const TensorInfo& b = *sized[i];
        if (a.offset + a.bytes > b.offset) {
            in.fail(tensor_where(b.name), fmt::format("its bytes from offset {} overlap tensor {} (offsets {} to {})", b.offset,
                                                      quoted(a.name), a.offset, a.offset + a.bytes));
        }
    }
}

}  // namespace

File File::parse(models::MappedFile bytes) {
    File file;
    file.bytes_ = std::move(bytes);
    const std::span<const std::byte> data = file.bytes_.bytes();
    Reader in(data, file.bytes_.path());
    check_header(in, data, file.version_);

    // Before anything is read into memory: a key takes at least 13 bytes (u64 length, u32 type, a u8),
    // a tensor info at least 32 (u64 name length, u32 n_dims, one u64 dim, u32 type, u64 offset).
    const auto tensor_count = in.read<std::uint64_t>("header");
    const auto kv_count = in.read<std::uint64_t>("header");
    constexpr std::uint64_t kLeastKey = 13, kLeastTensor = 32;
    if (kv_count > in.left() / kLeastKey) {
        in.fail("header", fmt::format("{} keys need at least {} bytes each, but only {} bytes are left", kv_count, kLeastKey, in.left()));
    }
    if (tensor_count > (in.left() - kv_count * kLeastKey) / kLeastTensor) {
        in.fail("header", fmt::format("{} tensors and {} keys need at least {} and {} bytes each, but only {} bytes are left",
                                      tensor_count, kv_count, kLeastTensor, kLeastKey, in.left()));
    }
    if (kv_count > kMaxKeys) in.fail("header", fmt::format("{} keys are more than ropelab reads ({})", kv_count, kMaxKeys));
    if (tensor_count > kMaxTensors) {
        in.fail("header", fmt::format("{} tensors are more than ropelab reads ({})", tensor_count, kMaxTensors));
    }

    ValueReader values(in);
    for (std::uint64_t i = 0; i < kv_count; ++i) {
        KeyValue kv;
        const std::string ordinal = ordinal_name("key", i);
        const std::string_view key = in.read_string(ordinal);
        if (key.size() > kMaxKeyBytes) in.fail(ordinal, fmt::format("a key of {} bytes (gguf.md allows {})", key.size(), kMaxKeyBytes));
        kv.key = key;
        const std::string where = key_where(kv.key);
        kv.value = values.read(values.read_type(where, "value"), where, 0, true);
        file.entries_.push_back(std::move(kv));
    }
    const auto key_of = [&](std::size_t i) -> const std::string& { return file.entries_[i].key; };
    file.key_order_ = sorted_order(file.entries_.size(), key_of);
    if (const std::string* key = repeated_name(file.key_order_, key_of)) in.fail(key_where(*key), "appears twice");
    file.alignment_ = alignment_of(file, in);

    for (std::uint64_t i = 0; i < tensor_count; ++i) file.tensors_.push_back(read_tensor_info(in, i, file.alignment_));
    const auto name_of = [&](std::size_t i) -> const std::string& { return file.tensors_[i].name; };
    file.tensor_order_ = sorted_order(file.tensors_.size(), name_of);
    if (const std::string* name = repeated_name(file.tensor_order_, name_of)) in.fail(tensor_where(*name), "appears twice");

    // The data section starts at the next multiple of the alignment (a file of no tensors may end before it).
    in.align_to(file.alignment_);
    file.data_start_ = in.at();
    check_tensor_ranges(file.tensors_, data.size() - file.data_start_, in);
    return file;
}

const Value* File::find(std::string_view key) const {
    const auto it = std::lower_bound(key_order_.begin(), key_order_.end(), key,
                                     [&](std::size_t i, std::string_view k) { return entries_[i].key < k; });
    return it != key_order_.end() && entries_[*it].key == key ? &entries_[*it].value : nullptr;
}

const TensorInfo* File::tensor(std::string_view name) const {
    const auto it = std::lower_bound(tensor_order_.begin(), tensor_order_.end(), name,
                                     [&](std::size_t i, std::string_view n) { return tensors_[i].name < n; });
    return it != tensor_order_.end() && tensors_[*it].name == name ? &tensors_[*it] : nullptr;
}

namespace {

[[noreturn]] void refuse_value(const std::string& source, std::string_view key, const Value& v, std::string_view why) {
    throw InputError(fmt::format("{}: {} = {} {}", source, utf8_escaped(key), v.shown(), why));
}

}  // namespace

std::optional<std::string> File::string(std::string_view key) const {
    const Value* v = find(key);
    if (!v) return std::nullopt;
    if (v->type != ValueType::String) refuse_value(source(), key, *v, fmt::format("is not a string (it is a {})", to_string(v->type)));
    return v->text;
}

std::optional<double> File::number(std::string_view key) const {
    const Value* v = find(key);
    if (!v) return std::nullopt;
    if (!v->is_number()) refuse_value(source(), key, *v, "is not a number");
    return v->real;
}

std::optional<std::int64_t> File::integer(std::string_view key) const {
    const Value* v = find(key);
    if (!v) return std::nullopt;
    if (is_unsigned(v->type)) {
        if (v->unsigned_integer > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            refuse_value(source(), key, *v, "is too large (past 2^63 − 1)");
        }
        return v->integer;
    }
    if (is_signed(v->type)) {
        if (v->integer < 0) refuse_value(source(), key, *v, "is negative");
        return v->integer;
    }
    if (is_float(v->type)) {
        // Some converters write counts as floats; a whole one up to 2^53 is exact.
        if (!(v->real >= 0.0) || v->real > 9007199254740992.0 || std::floor(v->real) != v->real) {
            refuse_value(source(), key, *v, v->real < 0.0 ? "is negative" : "is not a whole number");
        }
        return static_cast<std::int64_t>(v->real);
    }
    refuse_value(source(), key, *v, fmt::format("is not an integer (it is a {})", to_string(v->type)));
}

std::optional<std::vector<double>> File::numbers(std::string_view key) const {
    const Value* v = find(key);
    if (!v) return std::nullopt;
    if (v->is_number()) return std::vector<double>{v->real};
    if (v->type != ValueType::Array || !is_numeric(v->element)) {
        refuse_value(source(), key, *v, "is not a number or an array of numbers");
    }
    if (!v->items_kept()) refuse_value(source(), key, *v, fmt::format("holds more items than ropelab keeps ({})", kMaxKeptItems));
    std::vector<double> out;
    out.reserve(v->items.size());
    for (const Value& item : v->items) out.push_back(item.real);
    return out;
}

std::span<const std::byte> File::data(const TensorInfo& tensor) const {
    const std::span<const std::byte> all = bytes_.bytes();
    const std::string where = fmt::format("{}: {}", source(), tensor_where(tensor.name));
    if (!traits_of(tensor.type)) {
        throw InputError(fmt::format("{}: its type {} is one ropelab cannot size", where, tensor_type_name(tensor.type)));
    }
    const std::uint64_t data_bytes = all.size() - std::min<std::uint64_t>(all.size(), data_start_);
    if (tensor.offset > data_bytes || tensor.bytes > data_bytes - tensor.offset) {
        throw InputError(fmt::format("{}: its {} bytes at offset {} run past the end of the file (the data section holds {} bytes)",
                                     where, tensor.bytes, tensor.offset, data_bytes));
    }
    return all.subspan(static_cast<std::size_t>(data_start_ + tensor.offset), static_cast<std::size_t>(tensor.bytes));
}

}  // namespace ropelab::gguf
