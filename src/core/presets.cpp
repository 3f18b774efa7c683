#include "core/presets.h"

#include <algorithm>
#include <fmt/format.h>
#include <vector>

#include "core/embedded.h"
#include "core/error.h"

namespace ropelab {

namespace {

std::vector<Preset> load_embedded_presets() {
    std::vector<Preset> out;
    for (const EmbeddedFile& file : embedded::presets()) {
        LoadedConfig loaded = parse_config_json(file.data, file.name);
        out.push_back({loaded.note, loaded.config, file.data});
    }
    // The textbook default leads the list: it is what the app opens with.
    std::stable_partition(out.begin(), out.end(),
                          [](const Preset& p) { return p.note.name == "textbook"; });
    return out;
}

}  // namespace

std::span<const Preset> presets() {
    static const std::vector<Preset> all = load_embedded_presets();
    return all;
}

const Preset* find_preset(std::string_view name) {
    for (const Preset& p : presets()) {
        if (p.note.name == name) return &p;
    }
    return nullptr;
}

const Preset& preset_or_throw(std::string_view name) {
    if (const Preset* p = find_preset(name)) return *p;
    std::string names;
    for (const Preset& p : presets()) names += (names.empty() ? "" : ", ") + p.note.name;
    throw InputError(fmt::format("unknown preset \"{}\" (available: {})", name, names));
}

LoadedConfig load_preset(std::string_view name, std::string_view layer_type, int layer) {
    const Preset& preset = preset_or_throw(name);
    return parse_config_json(preset.text, fmt::format("preset {}", name), layer_type, {}, layer);
}

}  // namespace ropelab
