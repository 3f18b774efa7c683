// libFuzzer target: HF config.json loading. Any input must either load or be refused with an
// InputError; anything else (a crash, a sanitizer report, another exception) is a bug.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/config_json.h"
#include "core/error.h"
#include "core/frequencies.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const ropelab::LoadedConfig loaded = ropelab::parse_config_json(text, "fuzz.json");
        ropelab::compute_frequencies(loaded.config);  // the reader keeps head_dim <= 512
        (void)ropelab::explain_config(loaded);
        for (const std::string& layer : loaded.layer_types) ropelab::parse_config_json(text, "fuzz.json", layer);
    } catch (const ropelab::InputError&) {
    }
    return 0;
}
