// libFuzzer target: the GGUF container. Any input must either parse or be refused with an
// InputError; each value is shown, each typed read tried and each tensor's data asked for, so a
// parse that let a bad count, offset or size through fails here (a crash, a sanitizer report,
// another exception).
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "models/gguf.h"

namespace {

// Every item reached, as shown() and the getters do: a Value left half-made shows here.
std::size_t fuzz_gguf_touch(const ropelab::gguf::Value& value) {
    std::size_t n = value.shown().size() + value.text.size();
    for (const ropelab::gguf::Value& item : value.items) n += fuzz_gguf_touch(item);
    return n;
}

volatile std::size_t fuzz_gguf_sink;  // keeps the reads of every byte from being optimised away

void fuzz_gguf_try(auto&& read) {
    try {
        read();
    } catch (const ropelab::InputError&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const ropelab::gguf::File file = ropelab::gguf::File::parse(
            ropelab::models::MappedFile::hold(std::string(reinterpret_cast<const char*>(data), size), "fuzz.gguf"));
        std::size_t touched = 0;
        for (const ropelab::gguf::KeyValue& kv : file.entries()) {
            touched += fuzz_gguf_touch(kv.value);
            if (file.find(kv.key) == nullptr) __builtin_trap();  // find() must see every key
            fuzz_gguf_try([&] { file.string(kv.key); });
            fuzz_gguf_try([&] { file.number(kv.key); });
            fuzz_gguf_try([&] { file.integer(kv.key); });
            fuzz_gguf_try([&] { file.numbers(kv.key); });
        }
        for (const ropelab::gguf::TensorInfo& tensor : file.tensors()) {
            if (file.tensor(tensor.name) != &tensor) __builtin_trap();  // names are unique
            touched += tensor.elements() + ropelab::gguf::tensor_type_name(tensor.type).size();
            fuzz_gguf_try([&] {
                const auto bytes = file.data(tensor);
                if (bytes.size() != tensor.bytes) __builtin_trap();
                for (const std::byte b : bytes) touched += static_cast<std::size_t>(b);  // inside the input
            });
        }
        fuzz_gguf_sink = touched;
    } catch (const ropelab::InputError&) {
    }
    return 0;
}
