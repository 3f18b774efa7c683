#pragma once
// A header-only safetensors writer for tests (huggingface/safetensors' layout: an 8-byte
// little-endian header length, the JSON header padded with spaces to a multiple of 8, then the
// tensors' bytes back to back in the order given).
//
//   safetensors_test::File f;
//   f.add("w", "F32", {2, 3}, safetensors_test::f32_bytes({1, 2, 3, 4, 5, 6}));
//   f.metadata["format"] = "pt";
//   std::string bytes = f.bytes();
//   safetensors_test::write_sharded(dir, {{"model-00001-of-00002.safetensors", f1}, {…, f2}});
//
// Hostile files: a tensor's `offsets` (the data_offsets written, whatever its bytes are) and
// `shape_json` (the shape written verbatim, e.g. "[-1]"), `raw_header` (the header text
// verbatim), `header_length` (the length written), `pad` (false: no spaces), `tail` (bytes
// after the data). An index's `extra` entries (tensor → shard) name tensors or shards that do
// not exist.
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace safetensors_test {

inline std::string le_u64(std::uint64_t value) {
    std::string out(8, '\0');
    for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((value >> (8 * i)) & 0xff);
    return out;
}

inline std::string u16_bytes(std::initializer_list<std::uint16_t> values) {
    std::string out;
    for (std::uint16_t v : values) {
        out += static_cast<char>(v & 0xff);
        out += static_cast<char>(v >> 8);
    }
    return out;
}

inline std::string f32_bytes(std::initializer_list<float> values) {
    std::string out;
    for (float v : values) {
        const auto bits = std::bit_cast<std::uint32_t>(v);
        for (int i = 0; i < 4; ++i) out += static_cast<char>((bits >> (8 * i)) & 0xff);
    }
    return out;
}

inline std::string byte_string(std::initializer_list<unsigned> values) {
    std::string out;
    for (unsigned v : values) out += static_cast<char>(v);
    return out;
}

// A JSON string literal (the names tests use are printable; quotes and backslashes escaped).
inline std::string json_string(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

struct Tensor {
    std::string name, dtype;
    std::vector<std::int64_t> shape;
    std::string data;
    std::optional<std::array<std::uint64_t, 2>> offsets;  // written instead of the true ones
    std::string shape_json;                                // written instead of `shape` when set
};

struct File {
    std::vector<Tensor> tensors;
    std::map<std::string, std::string> metadata;  // "__metadata__" when not empty
    std::string raw_header;                       // the header text verbatim when set
    std::optional<std::uint64_t> header_length;   // written instead of the true length
    bool pad = true;
    std::string tail;

    Tensor& add(std::string name, std::string dtype, std::vector<std::int64_t> shape, std::string data) {
        tensors.push_back({std::move(name), std::move(dtype), std::move(shape), std::move(data), std::nullopt, ""});
        return tensors.back();
    }

    std::string header() const {
        if (!raw_header.empty()) return raw_header;
        std::string out = "{";
        if (!metadata.empty()) {
            out += "\"__metadata__\":{";
            for (auto it = metadata.begin(); it != metadata.end(); ++it) {
                out += (it == metadata.begin() ? "" : ",") + json_string(it->first) + ":" + json_string(it->second);
            }
            out += "}";
        }
        std::uint64_t at = 0;
        for (const Tensor& t : tensors) {
            const std::array<std::uint64_t, 2> offsets = t.offsets.value_or(std::array<std::uint64_t, 2>{at, at + t.data.size()});
            at += t.data.size();
            std::string shape = t.shape_json;
            if (shape.empty()) {
                shape = "[";
                for (std::size_t i = 0; i < t.shape.size(); ++i) shape += (i ? "," : "") + std::to_string(t.shape[i]);
                shape += "]";
            }
            out += (out.size() > 1 ? "," : "") + json_string(t.name) + ":{\"dtype\":" + json_string(t.dtype) + ",\"shape\":" + shape +
                   ",\"data_offsets\":[" + std::to_string(offsets[0]) + "," + std::to_string(offsets[1]) + "]}";
        }
        return out + "}";
    }

    std::string bytes() const {
        std::string text = header();
        if (pad) text.append((8 - text.size() % 8) % 8, ' ');
        std::string out = le_u64(header_length.value_or(text.size())) + text;
        for (const Tensor& t : tensors) out += t.data;
        return out + tail;
    }
};

inline void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

// Writes each shard into `folder` and model.safetensors.index.json, whose weight_map sends
// every tensor to its shard, then `extra` (tensor → shard file) entries.
inline void write_sharded(const std::filesystem::path& folder, const std::vector<std::pair<std::string, File>>& shards,
                          const std::vector<std::pair<std::string, std::string>>& extra = {}) {
    std::string map;
    std::uint64_t total = 0;
    for (const auto& [name, file] : shards) {
        write_bytes(folder / name, file.bytes());
        for (const Tensor& t : file.tensors) {
            map += (map.empty() ? "" : ",\n    ") + json_string(t.name) + ": " + json_string(name);
            total += t.data.size();
        }
    }
    for (const auto& [tensor, shard] : extra) map += (map.empty() ? "" : ",\n    ") + json_string(tensor) + ": " + json_string(shard);
    write_bytes(folder / "model.safetensors.index.json",
                "{\n  \"metadata\": {\"total_size\": " + std::to_string(total) + "},\n  \"weight_map\": {\n    " + map + "\n  }\n}\n");
}

}  // namespace safetensors_test
