// libFuzzer target: the attention view's T × d array reader (.npy headers and data, JSON, text),
// from bytes in memory; the first byte picks the name it is read under (.npy or not), since a
// .npy name without the magic is refused before any parsing.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/array_file.h"
#include "core/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0 || size > (1u << 20)) return 0;
    const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
    try {
        ropelab::parse_array(bytes, data[0] % 2 ? "fuzz.npy" : "fuzz.txt", "attention.q_file");
    } catch (const ropelab::InputError&) {
    }
    return 0;
}
