#include "models/safetensors.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/input_file.h"
#include "core/json_input.h"

namespace ropelab::safetensors {

namespace fs = std::filesystem;

namespace {

// safetensors/src/tensor.rs (read_metadata): a header over 100 MB is refused before it is read.
constexpr std::uint64_t kMaxHeaderBytes = 100'000'000;
// Far deeper than the format's three levels (header, tensor, shape); bounds what an unknown
// field's value may hold, since such values are skipped, not refused.
constexpr int kMaxDepth = 64;

std::string in_quotes(std::string_view text) { return "\"" + text_excerpt(text) + "\""; }

// A JSON value of one expected shape, read from nlohmann's SAX events (its parser is not
// recursive): nothing but what the reader keeps is built, so a hostile header costs no more than
// its text, and the first refusal stops the parse.
class StrictSax : public nlohmann::json_sax<nlohmann::json> {
public:
    const std::string& error() const { return error_; }

    bool null() final { return scalar({Scalar::Other, "null"}); }
    bool boolean(bool v) final { return scalar({Scalar::Other, v ? "true" : "false"}); }
    bool number_integer(number_integer_t v) final { return scalar({Scalar::Other, std::to_string(v)}); }
    bool number_unsigned(number_unsigned_t v) final { return scalar({Scalar::Unsigned, std::to_string(v), v}); }
    bool number_float(number_float_t, const string_t& text) final { return scalar({Scalar::Other, text}); }
    bool string(string_t& v) final { return scalar({Scalar::String, v}); }
    bool binary(binary_t&) final { return refuse("binary values are not JSON"); }
    bool start_object(std::size_t) final { return open(true); }
    bool start_array(std::size_t) final { return open(false); }
    bool end_object() final { return close(); }
    bool end_array() final { return close(); }
    bool key(string_t& k) final { return skipping_ || on_key(k); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) final {
        std::string text = e.what();
        if (const auto at = text.find("] "); text.starts_with("[json.exception.") && at != std::string::npos) text.erase(0, at + 2);
        return refuse("not valid JSON: " + text_excerpt(text, 160));
    }

protected:
    struct Scalar {
        enum Kind { Unsigned, String, Other } kind;
        std::string_view text;  // the string, or the number as written
        std::uint64_t value = 0;
    };
    // `level`: how many containers are open around the event (1 inside the top object).
    virtual bool on_scalar(const Scalar& value, int level) = 0;
    virtual bool on_open(bool object, int level) = 0;
    virtual bool on_close(int level) = 0;
    virtual bool on_key(std::string& key) = 0;

    bool refuse(std::string message) {
        if (error_.empty()) error_ = std::move(message);
        return false;
    }
    // The value after the current key is read and dropped, however deep (up to kMaxDepth).
    void skip_next_value() { skip_next_ = true; }
    int level() const { return depth_; }

private:
    bool scalar(const Scalar& value) {
        if (skipping_) return true;
        if (skip_next_) {
            skip_next_ = false;
            return true;
        }
        return on_scalar(value, depth_);
    }
    bool open(bool object) {
        if (++depth_ > kMaxDepth) return refuse(fmt::format("nested deeper than {} levels", kMaxDepth));
        if (skipping_) return true;
        if (skip_next_) {
            skip_next_ = false;
            skipping_ = true;
            skip_level_ = depth_;
            return true;
        }
        return on_open(object, depth_);
    }
    bool close() {
        const int closing = depth_--;
        if (skipping_) {
            skipping_ = closing != skip_level_;
            return true;
        }
        return on_close(closing);
    }

    int depth_ = 0, skip_level_ = 0;
    bool skip_next_ = false, skipping_ = false;
    std::string error_;
};

// Runs `sax` over `text`; throws InputError "SOURCE: WHAT: reason" at its first refusal.
void read_json(std::string_view text, StrictSax& sax, const std::string& source) {
    if (!nlohmann::json::sax_parse(text.begin(), text.end(), &sax) || !sax.error().empty()) {
        throw InputError(fmt::format("{}: {}", source, sax.error().empty() ? "not valid JSON" : sax.error()));
    }
}

// One tensor as the header gives it, before its numbers are checked against the file.
struct Entry {
    std::string name, dtype;
    std::vector<std::uint64_t> shape, offsets;
    bool has_dtype = false, has_shape = false, has_offsets = false;
};

// The header: an object of tensor name → {"dtype", "shape", "data_offsets"}, and
// "__metadata__": string → string (kept by no one here, checked as tensor.rs deserialises it).
// Unknown fields of a tensor are skipped, as serde skips them.
class HeaderSax final : public StrictSax {
public:
    std::vector<Entry> entries;

private:
    enum class In { Top, Metadata, Tensor, Shape, Offsets };

    bool on_key(std::string& key) override {
        if (level() == 1) {
            name_ = key;
            return true;
        }
        if (in_ == In::Metadata) {
            field_ = key;
            return true;
        }
        Entry& e = entries.back();
        field_ = key;
        bool* seen = key == "dtype" ? &e.has_dtype : key == "shape" ? &e.has_shape : key == "data_offsets" ? &e.has_offsets : nullptr;
        if (!seen) {
            skip_next_value();
            return true;
        }
        if (*seen) return refuse(fmt::format("tensor {}: {} is given twice", in_quotes(e.name), key));
        *seen = true;
        return true;
    }

    bool on_open(bool object, int level) override {
        if (level == 1) return object || refuse("the header is not a JSON object");
        if (level == 2) {
            if (name_ == "__metadata__") {
                in_ = In::Metadata;
                return object || refuse("__metadata__ is not an object");
            }
            if (!object) return refuse(fmt::format("tensor {}: not an object", in_quotes(name_)));
            entries.emplace_back().name = name_;
            in_ = In::Tensor;
            return true;
        }
        if (level == 3 && in_ == In::Tensor && field_ != "dtype" && !object) {
            in_ = field_ == "shape" ? In::Shape : In::Offsets;
            return true;
        }
        return refuse_value(object ? "an object" : "an array");
    }

    bool on_close(int level) override {
        if (level == 3) {
            in_ = In::Tensor;
            const Entry& e = entries.back();
            if (field_ == "data_offsets" && e.offsets.size() != 2) {
                return refuse(fmt::format("tensor {}: data_offsets has {} numbers, not 2 (begin, end)", in_quotes(e.name), e.offsets.size()));
            }
            return true;
        }
        if (level == 2 && in_ == In::Tensor) {
            const Entry& e = entries.back();
            const char* missing = !e.has_dtype ? "dtype" : !e.has_shape ? "shape" : !e.has_offsets ? "data_offsets" : nullptr;
            if (missing) return refuse(fmt::format("tensor {}: no {}", in_quotes(e.name), missing));
        }
        in_ = In::Top;
        return true;
    }

    bool on_scalar(const Scalar& value, int level) override {
        if (level == 0) return refuse("the header is not a JSON object");
        if (level == 1) {
            if (name_ == "__metadata__") return refuse("__metadata__ is not an object");
            return refuse(fmt::format("tensor {}: not an object but {}", in_quotes(name_), text_excerpt(value.text)));
        }
        if (in_ == In::Metadata) {
            return value.kind == Scalar::String || refuse(fmt::format("__metadata__ {}: the value {} is not a string", in_quotes(field_), text_excerpt(value.text)));
        }
        Entry& e = entries.back();
        if (in_ == In::Tensor) {
            if (field_ != "dtype") return refuse_value(std::string(value.text));
            if (value.kind != Scalar::String) return refuse(fmt::format("tensor {}: dtype {} is not a string", in_quotes(e.name), text_excerpt(value.text)));
            e.dtype = value.text;
            return true;
        }
        if (value.kind != Scalar::Unsigned) return refuse(fmt::format("tensor {}: {} holds {}, not a count", in_quotes(e.name), field_, text_excerpt(value.text)));
        if (in_ == In::Offsets && e.offsets.size() == 2) return refuse(fmt::format("tensor {}: data_offsets has more than 2 numbers (begin, end)", in_quotes(e.name)));
        (in_ == In::Shape ? e.shape : e.offsets).push_back(value.value);
        return true;
    }

    bool refuse_value(const std::string& what) {
        if (in_ == In::Metadata) return refuse(fmt::format("__metadata__ {}: the value is {}, not a string", in_quotes(field_), what));
        const std::string& tensor = entries.empty() ? name_ : entries.back().name;
        const char* expected = field_ == "dtype" ? "a string" : field_ == "shape" ? "an array of counts" : "an array of 2 offsets";
        return refuse(fmt::format("tensor {}: {} is {}, not {}", in_quotes(tensor), field_, text_excerpt(what), expected));
    }

    In in_ = In::Top;
    std::string name_, field_;
};

// An index's "weight_map": tensor name → shard file name (transformers' sharded checkpoints);
// its "metadata" and anything else is skipped.
class IndexSax final : public StrictSax {
public:
    std::vector<std::pair<std::string, std::string>> weight_map;
    bool has_weight_map = false;

private:
    bool on_key(std::string& key) override {
        if (level() == 1) {
            in_map_ = key == "weight_map";
            if (in_map_ && has_weight_map) return refuse("weight_map is given twice");
            if (!in_map_) skip_next_value();
            return true;
        }
        name_ = key;
        return true;
    }
    bool on_open(bool object, int level) override {
        if (level == 1) return object || refuse("not a JSON object");
        if (level == 2 && object) return has_weight_map = true;
        if (level == 2) return refuse("weight_map is not an object");
        return refuse(fmt::format("weight_map {}: the shard is not a file name", in_quotes(name_)));
    }
    bool on_close(int) override { return true; }
    bool on_scalar(const Scalar& value, int level) override {
        if (level == 0) return refuse("not a JSON object");
        if (level == 1) return refuse(fmt::format("weight_map is {}, not an object", text_excerpt(value.text)));
        if (value.kind != Scalar::String) return refuse(fmt::format("weight_map {}: the shard {} is not a file name", in_quotes(name_), text_excerpt(value.text)));
        weight_map.emplace_back(name_, value.text);
        return true;
    }

    std::string name_;
    bool in_map_ = false;
};

// Bits per value of safetensors' dtypes (tensor.rs, Dtype::size / bitsize).
std::optional<int> dtype_bits(std::string_view dtype) {
    static const std::map<std::string_view, int> bits = {
        {"BOOL", 8},     {"U8", 8},       {"I8", 8},       {"F8_E5M2", 8}, {"F8_E4M3", 8}, {"F8_E8M0", 8}, {"F4", 4},
        {"F6_E2M3", 6},  {"F6_E3M2", 6},  {"I16", 16},     {"U16", 16},    {"F16", 16},    {"BF16", 16},   {"I32", 32},
        {"U32", 32},     {"F32", 32},     {"F64", 64},     {"I64", 64},    {"U64", 64},    {"C64", 64}};
    const auto it = bits.find(dtype);
    if (it == bits.end()) return std::nullopt;
    return it->second;
}

// The tensor's byte count from its shape and dtype, every product checked for overflow.
std::uint64_t bytes_for(const Entry& e, int bits, const std::string& where) {
    std::uint64_t values = 1;
    for (std::uint64_t dim : e.shape) {
        if (dim != 0 && values > std::numeric_limits<std::uint64_t>::max() / dim) {
            throw InputError(fmt::format("{}: shape [{}] has more values than a 64-bit count holds", where, fmt::join(e.shape, ", ")));
        }
        values *= dim;
    }
    if (values > std::numeric_limits<std::uint64_t>::max() / static_cast<std::uint64_t>(bits)) {
        throw InputError(fmt::format("{}: shape [{}] of {} is more bytes than a 64-bit count holds", where, fmt::join(e.shape, ", "), e.dtype));
    }
    if (values * bits % 8 != 0) {
        throw InputError(fmt::format("{}: shape [{}] of {} ({} bits each) is not whole bytes", where, fmt::join(e.shape, ", "), e.dtype, bits));
    }
    return values * bits / 8;
}

Tensor checked_tensor(const Entry& e, const std::string& path) {
    const std::string where = fmt::format("{}: tensor {}", path, in_quotes(e.name));
    const std::optional<int> bits = dtype_bits(e.dtype);
    if (!bits) throw InputError(fmt::format("{}: dtype {} is not a safetensors dtype", where, in_quotes(e.dtype)));
    Tensor t;
    t.name = e.name;
    t.dtype = e.dtype;
    t.begin = e.offsets[0];
    t.end = e.offsets[1];
    for (std::uint64_t dim : e.shape) {
        if (dim > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            throw InputError(fmt::format("{}: shape [{}] has a dimension past 2^63", where, fmt::join(e.shape, ", ")));
        }
        t.shape.push_back(static_cast<std::int64_t>(dim));
    }
    if (t.end < t.begin) throw InputError(fmt::format("{}: data_offsets [{}, {}] end before they begin", where, t.begin, t.end));
    const std::uint64_t needed = bytes_for(e, *bits, where);
    if (t.end - t.begin != needed) {
        throw InputError(fmt::format("{}: data_offsets [{}, {}] hold {} bytes, but shape [{}] of {} is {} bytes", where, t.begin, t.end,
                                     t.end - t.begin, fmt::join(e.shape, ", "), e.dtype, needed));
    }
    return t;
}

// tensor.rs (validate, read_metadata): sorted by offset, the tensors fill the data section
// exactly, from its first byte to the file's last, with no gap and no overlap.
void check_packing(std::vector<Tensor>& tensors, std::uint64_t data_bytes, const std::string& path) {
    std::sort(tensors.begin(), tensors.end(), [](const Tensor& a, const Tensor& b) { return std::tie(a.begin, a.end) < std::tie(b.begin, b.end); });
    std::uint64_t next = 0;
    const Tensor* previous = nullptr;
    for (const Tensor& t : tensors) {
        const std::string where = fmt::format("{}: tensor {}: data_offsets [{}, {}]", path, in_quotes(t.name), t.begin, t.end);
        if (t.end > data_bytes) throw InputError(fmt::format("{} run past the data section's {} bytes", where, data_bytes));
        if (t.begin < next) throw InputError(fmt::format("{} overlap tensor {}'s [{}, {}]", where, in_quotes(previous->name), previous->begin, previous->end));
        if (t.begin > next) {
            throw InputError(fmt::format("{} leave bytes {}…{} of the data section unused (safetensors packs tensors without gaps)", where, next, t.begin));
        }
        next = t.end;
        previous = &t;
    }
    if (next != data_bytes) {
        throw InputError(fmt::format("{}: the tensors end at byte {} of the data section, but it has {} bytes (a damaged or padded file)", path, next, data_bytes));
    }
}

std::uint64_t load_u64(std::span<const std::byte> bytes) {
    std::uint64_t value = 0;
    for (int i = 7; i >= 0; --i) value = (value << 8) | std::to_integer<std::uint64_t>(bytes[static_cast<std::size_t>(i)]);
    return value;
}

struct ParsedShard {
    std::uint64_t data_start = 0;
    std::vector<Tensor> tensors;
};

ParsedShard parse_shard(const models::MappedFile& file) {
    const std::span<const std::byte> bytes = file.bytes();
    const std::string& path = file.path();
    if (bytes.size() < 8) throw InputError(fmt::format("{}: {} bytes is too short for a safetensors file (an 8-byte header length, then the header)", path, bytes.size()));
    const std::uint64_t header_bytes = load_u64(bytes);
    if (header_bytes > kMaxHeaderBytes) {
        throw InputError(fmt::format("{}: header length {} is past safetensors' limit of {} bytes", path, header_bytes, kMaxHeaderBytes));
    }
    if (header_bytes > bytes.size() - 8) {
        throw InputError(fmt::format("{}: header length {} runs past the end of the file ({} bytes)", path, header_bytes, bytes.size()));
    }
    const std::string_view header(reinterpret_cast<const char*>(bytes.data()) + 8, static_cast<std::size_t>(header_bytes));
    // tensor.rs refuses a header that does not start with '{' (InvalidHeaderStart).
    if (header.empty() || header.front() != '{') {
        throw InputError(fmt::format("{}: the header is not a JSON object (it starts {})", path, in_quotes(header.substr(0, 16))));
    }
    HeaderSax sax;
    read_json(header, sax, path + ": header");

    ParsedShard out;
    out.data_start = 8 + header_bytes;
    out.tensors.reserve(sax.entries.size());
    for (const Entry& e : sax.entries) out.tensors.push_back(checked_tensor(e, path));
    check_packing(out.tensors, bytes.size() - out.data_start, path);
    return out;
}

// A shard named by an index must be a plain file name in the index's folder.
void check_shard_name(const std::string& shard, const std::string& tensor, const std::string& index_path) {
    const bool escapes = shard.empty() || shard == "." || shard == ".." || shard.find('/') != std::string::npos ||
                         shard.find('\\') != std::string::npos || shard.find('\0') != std::string::npos;
    if (escapes) {
        throw InputError(fmt::format("{}: weight_map {}: shard {} is not a file name in the index's folder", index_path, in_quotes(tensor), in_quotes(shard)));
    }
}

bool is_file(const fs::path& path) {
    std::error_code ec;
    return fs::is_regular_file(path, ec);
}

// What a folder holds: model.safetensors.index.json, model.safetensors, or else its one
// *.safetensors.index.json or its one *.safetensors.
std::string checkpoint_in_folder(const fs::path& folder) {
    for (const char* name : {"model.safetensors.index.json", "model.safetensors"}) {
        if (is_file(folder / name)) return (folder / name).string();
    }
    std::vector<std::string> indexes, files;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (!is_file(it->path())) continue;
        if (name.ends_with(".safetensors.index.json")) indexes.push_back(it->path().string());
        if (name.ends_with(".safetensors")) files.push_back(it->path().string());
    }
    if (ec) throw InputError(fmt::format("{}: cannot list the folder ({})", folder.string(), ec.message()));
    if (indexes.size() == 1) return indexes.front();
    if (indexes.empty() && files.size() == 1) return files.front();
    if (indexes.empty() && files.empty()) throw InputError(fmt::format("{}: the folder holds no .safetensors file", folder.string()));
    throw InputError(fmt::format("{}: the folder holds {} .safetensors files and {} indexes but no model.safetensors.index.json; name the one to open",
                                 folder.string(), files.size(), indexes.size()));
}

models::MappedFile open_shard(const std::string& path, const std::string& index_path) {
    try {
        return models::MappedFile::open(path, "safetensors checkpoint");
    } catch (const InputError& e) {
        throw InputError(fmt::format("{} (a shard {} lists)", e.what(), index_path));
    }
}

std::string config_beside(const fs::path& folder) {
    const fs::path config = folder / "config.json";
    return is_file(config) ? config.string() : "";
}

}  // namespace

Checkpoint Checkpoint::parse(models::MappedFile bytes) {
    Checkpoint out;
    ParsedShard shard = parse_shard(bytes);
    out.source_ = bytes.path();
    out.shards_.push_back(std::move(bytes));
    out.data_start_.push_back(shard.data_start);
    out.tensors_ = std::move(shard.tensors);
    // JSON allows a key twice; tensor.rs would keep one of them.
    if (const Tensor* twice = out.index_names()) throw InputError(fmt::format("{}: tensor {} is given twice", out.source_, in_quotes(twice->name)));
    return out;
}

Checkpoint Checkpoint::open(const std::string& path) {
    std::error_code ec;
    const bool folder = fs::is_directory(path, ec);
    const std::string file = folder ? checkpoint_in_folder(path) : path;
    fs::path parent = fs::path(file).parent_path();
    if (parent.empty()) parent = ".";
    Checkpoint out = file.ends_with(".json") ? open_index(file, parent.string()) : parse(models::MappedFile::open(file, "safetensors checkpoint"));
    out.source_ = path;
    out.config_path_ = config_beside(parent);
    return out;
}

Checkpoint Checkpoint::open_index(const std::string& index_path, const std::string& folder) {
    IndexSax sax;
    read_json(read_input_file(index_path, "safetensors index"), sax, index_path);
    if (!sax.has_weight_map) throw InputError(fmt::format("{}: no weight_map (tensor name → shard file)", index_path));

    Checkpoint out;
    std::map<std::string, int> shard_of_name;
    std::vector<std::vector<Tensor>> shard_tensors;
    for (const auto& [tensor, shard] : sax.weight_map) {
        check_shard_name(shard, tensor, index_path);
        if (shard_of_name.contains(shard)) continue;
        const int number = static_cast<int>(out.shards_.size());
        shard_of_name.emplace(shard, number);
        models::MappedFile file = open_shard((fs::path(folder) / shard).string(), index_path);
        ParsedShard parsed = parse_shard(file);
        for (Tensor& t : parsed.tensors) t.shard = number;
        std::sort(parsed.tensors.begin(), parsed.tensors.end(), [](const Tensor& a, const Tensor& b) { return a.name < b.name; });
        shard_tensors.push_back(std::move(parsed.tensors));
        out.data_start_.push_back(parsed.data_start);
        out.shards_.push_back(std::move(file));
    }
    // The index decides which tensors the checkpoint has and where each is.
    out.tensors_.reserve(sax.weight_map.size());
    for (const auto& [tensor, shard] : sax.weight_map) {
        const int number = shard_of_name.at(shard);
        const std::vector<Tensor>& in_shard = shard_tensors[static_cast<std::size_t>(number)];
        const auto it = std::lower_bound(in_shard.begin(), in_shard.end(), tensor, [](const Tensor& t, const std::string& name) { return t.name < name; });
        if (it == in_shard.end() || it->name != tensor) {
            throw InputError(fmt::format("{}: weight_map lists tensor {} in {}, which has no such tensor", index_path, in_quotes(tensor),
                                         out.shards_[static_cast<std::size_t>(number)].path()));
        }
        out.tensors_.push_back(*it);
    }
    if (const Tensor* twice = out.index_names()) throw InputError(fmt::format("{}: weight_map lists tensor {} twice", index_path, in_quotes(twice->name)));
    return out;
}

const Tensor* Checkpoint::index_names() {
    by_name_.resize(tensors_.size());
    for (std::size_t i = 0; i < tensors_.size(); ++i) by_name_[i] = i;
    std::sort(by_name_.begin(), by_name_.end(), [this](std::size_t a, std::size_t b) { return tensors_[a].name < tensors_[b].name; });
    for (std::size_t i = 1; i < by_name_.size(); ++i) {
        if (tensors_[by_name_[i]].name == tensors_[by_name_[i - 1]].name) return &tensors_[by_name_[i]];
    }
    return nullptr;
}

const Tensor* Checkpoint::tensor(std::string_view name) const {
    const auto it = std::lower_bound(by_name_.begin(), by_name_.end(), name, [this](std::size_t i, std::string_view n) { return tensors_[i].name < n; });
    if (it == by_name_.end() || tensors_[*it].name != name) return nullptr;
    return &tensors_[*it];
}

std::span<const std::byte> Checkpoint::data(const Tensor& tensor) const {
    const auto shard = static_cast<std::size_t>(tensor.shard);
    if (tensor.shard < 0 || shard >= shards_.size()) throw std::invalid_argument("safetensors: a tensor of another checkpoint");
    // Checked against the file when it was read: the range lies inside the shard.
    return shards_[shard].bytes().subspan(static_cast<std::size_t>(data_start_[shard] + tensor.begin), static_cast<std::size_t>(tensor.end - tensor.begin));
}

bool looks_like_safetensors(std::span<const std::byte> head) {
    if (head.size() < 9) return false;
    const std::uint64_t header_bytes = load_u64(head);
    return header_bytes >= 2 && header_bytes <= kMaxHeaderBytes && head[8] == std::byte{'{'};
}

}  // namespace ropelab::safetensors
