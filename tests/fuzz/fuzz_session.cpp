// libFuzzer target: session JSON and share strings.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "state/session.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> warnings;
    try {
        const ropelab::Session s = ropelab::session_from_share_string(text, warnings);
        // What loads must save and load back to the same bytes.
        const std::string saved = ropelab::session_to_json(s);
        if (ropelab::session_to_json(ropelab::session_from_json(saved, warnings)) != saved) __builtin_trap();
    } catch (const ropelab::InputError&) {
    }
    return 0;
}
