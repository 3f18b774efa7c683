// libFuzzer target: a safetensors file's bytes. Any input must either be read or be refused with
// an InputError; a tensor read must lie inside the file (ASan checks every byte touched) and
// decode without a fault. Anything else (a crash, a sanitizer report, another exception) is a bug.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "models/dequantize.h"
#include "models/safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace st = ropelab::safetensors;
    try {
        const st::Checkpoint checkpoint = st::Checkpoint::parse(ropelab::models::MappedFile::hold(std::string(reinterpret_cast<const char*>(data), size), "fuzz.safetensors"));
        unsigned sum = 0;
        for (const st::Tensor& tensor : checkpoint.tensors()) {
            const std::span<const std::byte> bytes = checkpoint.data(tensor);
            for (std::byte b : bytes) sum += std::to_integer<unsigned>(b);
            if (checkpoint.tensor(tensor.name) == nullptr) __builtin_trap();  // every tensor is found by name
            const auto format = ropelab::models::format_of_dtype(tensor.dtype);
            if (!format) continue;
            // Decodes the whole blocks the bytes hold (at most 4096 values: the fuzzer's inputs are small).
            const std::size_t values = std::min<std::size_t>(4096, bytes.size() / static_cast<std::size_t>(ropelab::models::block_bytes(*format)));
            std::vector<float> out(values);
            ropelab::models::dequantize(*format, bytes, out);
        }
        if (sum == 0xffffffffu) return 0;  // keeps the reads from being optimised away
    } catch (const ropelab::InputError&) {
    }
    return 0;
}
