#pragma once
// A header-only GGUF writer for tests: builds a file's bytes in memory (ggml's docs/gguf.md, the
// layout of versions 2 and 3: little-endian, u64 counts and string lengths).
//
//   gguf_test::Writer w;                                   // version 3, alignment 32
//   w.add_string("general.architecture", "llama");
//   w.add_u32("llama.context_length", 4096);             // also add_u8 … add_f64, add_bool
//   w.add_f32("llama.rope.freq_base", 10000.0f);
//   w.add_array_u32("llama.feed_forward_length", {11008, 11008});
//   w.add_array_f32("rope_factors", {1.0f, 2.0f});        // also _i32, _u64, _f64, _bool, …
//   w.add_array_string("tokenizer.ggml.tokens", {"a", "b"});
//   w.add("nested", gguf_test::array(gguf_test::Type::Array,   // arrays of arrays, any depth
//         {gguf_test::array(gguf_test::Type::U8, {gguf_test::u8(1)})}));
//   w.add_tensor("blk.0.attn_q.weight", {4096, 4096}, 1 /*f16*/, bytes);  // dims in ggml order
//   std::string file = w.bytes();
//   gguf_test::write_file(path, file);
//
// add_u32("general.alignment", n) also aligns the data to n (when n is a power of two); set
// `alignment` directly to pad with one value and declare another.
//
// Hostile files: `magic`, `version`, `tensor_count` / `kv_count` (override the counts written),
// add_raw(key, type_code, payload) (any bytes after the key), add_raw_bytes(bytes) (a kv or
// anything else written verbatim where the next kv would go), a tensor's `n_dims` / `offset`
// overrides (add_tensor returns the tensor to edit), `tail` (bytes after the data), and the
// encoders le_u32 / le_u64 / gguf_string to build payloads by hand (a string whose length lies:
// le_u64(1000) + "abc").
#include <bit>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gguf_test {

// The value type codes (gguf.md, gguf_type).
enum class Type : std::uint32_t {
    U8 = 0, I8 = 1, U16 = 2, I16 = 3, U32 = 4, I32 = 5, F32 = 6, Bool = 7, String = 8, Array = 9,
    U64 = 10, I64 = 11, F64 = 12,
};

// Little-endian encoders (the bytes as they lie in the file).
template <typename T>
std::string le(T value) {
    static_assert(std::endian::native == std::endian::little, "the writer assumes a little-endian host");
    std::string out(sizeof(T), '\0');
    std::memcpy(out.data(), &value, sizeof(T));
    return out;
}
inline std::string le_u32(std::uint32_t value) { return le(value); }
inline std::string le_u64(std::uint64_t value) { return le(value); }
inline std::string gguf_string(const std::string& text) { return le_u64(text.size()) + text; }

// A value as written after its key: the type code, then `payload` (the value's bytes).
struct Encoded {
    Type type;
    std::string payload;
};
inline Encoded u8(std::uint8_t v) { return {Type::U8, le(v)}; }
inline Encoded i8(std::int8_t v) { return {Type::I8, le(v)}; }
inline Encoded u16(std::uint16_t v) { return {Type::U16, le(v)}; }
inline Encoded i16(std::int16_t v) { return {Type::I16, le(v)}; }
inline Encoded u32(std::uint32_t v) { return {Type::U32, le(v)}; }
inline Encoded i32(std::int32_t v) { return {Type::I32, le(v)}; }
inline Encoded u64(std::uint64_t v) { return {Type::U64, le(v)}; }
inline Encoded i64(std::int64_t v) { return {Type::I64, le(v)}; }
inline Encoded f32(float v) { return {Type::F32, le(v)}; }
inline Encoded f64(double v) { return {Type::F64, le(v)}; }
inline Encoded boolean(bool v) { return {Type::Bool, std::string(1, v ? '\1' : '\0')}; }
inline Encoded string(const std::string& v) { return {Type::String, gguf_string(v)}; }
// An array: element type, count, then each item's payload (items carry no type code of their own).
inline Encoded array(Type element, const std::vector<Encoded>& items) {
    std::string payload = le_u32(static_cast<std::uint32_t>(element)) + le_u64(items.size());
    for (const Encoded& item : items) {
        if (item.type != element) throw std::logic_error("gguf_test::array: an item of another type");
        payload += item.payload;
    }
    return {Type::Array, payload};
}
template <typename T>
Encoded array_of(const std::vector<T>& values, Encoded (*encode)(T)) {
    std::vector<Encoded> items;
    for (const T& value : values) items.push_back(encode(value));
    return array(encode(T{}).type, items);
}

struct Tensor {
    std::string name;
    std::vector<std::uint64_t> dims;  // ggml order
    std::uint32_t type = 0;
    std::string data;
    std::optional<std::uint32_t> n_dims;  // hostile: the dimension count written
    std::optional<std::uint64_t> offset;  // hostile: the offset written (the data still goes where it would)
};

class Writer {
public:
    std::string magic = "GGUF";
    std::uint32_t version = 3;
    std::uint64_t alignment = 32;              // the data section's alignment
    std::optional<std::uint64_t> tensor_count;  // hostile overrides of the counts written
    std::optional<std::uint64_t> kv_count;
    std::string tail;  // bytes written after the data

    void add(const std::string& key, const Encoded& value) {
        add_raw(key, static_cast<std::uint32_t>(value.type), value.payload);
    }
    // Any type code and payload after the key.
    void add_raw(const std::string& key, std::uint32_t type, const std::string& payload) {
        kvs_.push_back(gguf_string(key) + le_u32(type) + payload);
    }
    // Bytes written verbatim where the next kv goes; counted as one kv.
    void add_raw_bytes(const std::string& bytes) { kvs_.push_back(bytes); }

    void add_u8(const std::string& key, std::uint8_t v) { add(key, u8(v)); }
    void add_i8(const std::string& key, std::int8_t v) { add(key, i8(v)); }
    void add_u16(const std::string& key, std::uint16_t v) { add(key, u16(v)); }
    void add_i16(const std::string& key, std::int16_t v) { add(key, i16(v)); }
    void add_u32(const std::string& key, std::uint32_t v) {
        if (key == "general.alignment" && v != 0 && (v & (v - 1)) == 0) alignment = v;
        add(key, u32(v));
    }
    void add_i32(const std::string& key, std::int32_t v) { add(key, i32(v)); }
    void add_u64(const std::string& key, std::uint64_t v) { add(key, u64(v)); }
    void add_i64(const std::string& key, std::int64_t v) { add(key, i64(v)); }
    void add_f32(const std::string& key, float v) { add(key, f32(v)); }
    void add_f64(const std::string& key, double v) { add(key, f64(v)); }
    void add_bool(const std::string& key, bool v) { add(key, boolean(v)); }
    void add_string(const std::string& key, const std::string& v) { add(key, string(v)); }

    void add_array_u8(const std::string& key, const std::vector<std::uint8_t>& v) { add(key, array_of(v, &u8)); }
    void add_array_i8(const std::string& key, const std::vector<std::int8_t>& v) { add(key, array_of(v, &i8)); }
    void add_array_u16(const std::string& key, const std::vector<std::uint16_t>& v) { add(key, array_of(v, &u16)); }
    void add_array_i16(const std::string& key, const std::vector<std::int16_t>& v) { add(key, array_of(v, &i16)); }
    void add_array_u32(const std::string& key, const std::vector<std::uint32_t>& v) { add(key, array_of(v, &u32)); }
    void add_array_i32(const std::string& key, const std::vector<std::int32_t>& v) { add(key, array_of(v, &i32)); }
    void add_array_u64(const std::string& key, const std::vector<std::uint64_t>& v) { add(key, array_of(v, &u64)); }
    void add_array_i64(const std::string& key, const std::vector<std::int64_t>& v) { add(key, array_of(v, &i64)); }
    void add_array_f32(const std::string& key, const std::vector<float>& v) { add(key, array_of(v, &f32)); }
    void add_array_f64(const std::string& key, const std::vector<double>& v) { add(key, array_of(v, &f64)); }
    void add_array_bool(const std::string& key, const std::vector<bool>& v) {
        std::vector<Encoded> items;
        for (bool b : v) items.push_back(boolean(b));
        add(key, array(Type::Bool, items));
    }
    void add_array_string(const std::string& key, const std::vector<std::string>& v) {
        std::string payload = le_u32(static_cast<std::uint32_t>(Type::String)) + le_u64(v.size());
        for (const std::string& s : v) payload += gguf_string(s);
        add_raw(key, static_cast<std::uint32_t>(Type::Array), payload);
    }

    // A tensor whose data follows the previous one's at the next aligned offset. The reference
    // stays valid until the next add_tensor.
    Tensor& add_tensor(const std::string& name, const std::vector<std::uint64_t>& dims, std::uint32_t type,
                       const std::string& data) {
        tensors_.push_back(Tensor{name, dims, type, data, std::nullopt, std::nullopt});
        return tensors_.back();
    }

    // Where each tensor's data starts, from the start of the data section (as bytes() lays it out).
    std::vector<std::uint64_t> offsets() const {
        std::vector<std::uint64_t> out;
        std::uint64_t at = 0;
        for (const Tensor& t : tensors_) {
            out.push_back(at);
            at = pad_to(at + t.data.size());
        }
        return out;
    }

    std::string bytes() const {
        std::string out = magic + le_u32(version);
        out += le_u64(tensor_count.value_or(tensors_.size()));
        out += le_u64(kv_count.value_or(kvs_.size()));
        for (const std::string& kv : kvs_) out += kv;
        const std::vector<std::uint64_t> at = offsets();
        for (std::size_t i = 0; i < tensors_.size(); ++i) {
            const Tensor& t = tensors_[i];
            out += gguf_string(t.name);
            out += le_u32(t.n_dims.value_or(static_cast<std::uint32_t>(t.dims.size())));
            for (std::uint64_t d : t.dims) out += le_u64(d);
            out += le_u32(t.type);
            out += le_u64(t.offset.value_or(at[i]));
        }
        out.resize(pad_to(out.size()), '\0');  // the data section starts aligned in the file
        for (const Tensor& t : tensors_) {
            out += t.data;
            out.resize(out.size() + (pad_to(t.data.size()) - t.data.size()), '\0');
        }
        return out + tail;
    }

private:
    std::uint64_t pad_to(std::uint64_t at) const {
        const std::uint64_t a = alignment == 0 ? 1 : alignment;
        return (at + a - 1) / a * a;
    }

    std::vector<std::string> kvs_;
    std::vector<Tensor> tensors_;
};

inline void write_file(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("gguf_test::write_file: cannot write " + path);
}

}  // namespace gguf_test
