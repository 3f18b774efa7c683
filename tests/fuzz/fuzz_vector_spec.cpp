// libFuzzer target: the command line's vector parser (ones, random:SEED, lists). "@FILE" specs
// are skipped: the fuzzer must not read arbitrary files.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "core/vector_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0 || size > 4096) return 0;
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    if (text.find('@') != std::string::npos) return 0;
    const int length = 1 + data[0] % 64;
    try {
        ropelab::parse_vector_spec(text, length);
    } catch (const ropelab::InputError&) {
    }
    return 0;
}
