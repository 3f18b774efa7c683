#include "lab/actions.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/config_json.h"
#include "models/model_file.h"
#include "core/error.h"
#include "core/input_file.h"
#include "core/json_input.h"
#include "core/presets.h"
#include "state/schema.h"

namespace ropelab::lab {

bool try_set_model(LabParams& p, Status& s, const ModelConfig& candidate) {
    LabParams next = p;
    next.model = candidate;
    try {
        ropelab::validate(candidate);  // the model's structure first: the focus clamp needs its pairs
        next.focused_pair = std::min(next.focused_pair, rotary_dim(candidate) / 2 - 1);
        schema::validate(next);  // the same ranges as every other entry point
    } catch (const InputError& e) {
        s.error = e.what();
        return false;
    }
    p = std::move(next);
    s.error.clear();
    return true;
}

bool apply_sweep(LabParams& p, Status& s, Sweep sweep, double value) {
    ModelConfig m = p.model;
    switch (sweep) {
        case Sweep::Position:
            p.position = std::clamp<std::int64_t>(std::llround(value), 0, kMaxPosition);
            return true;
        case Sweep::Distance:
            p.key_distance = std::max<std::int64_t>(0, std::llround(value));
            return true;
        case Sweep::Theta:
            m.rope_theta = value;
            return try_set_model(p, s, m);
        case Sweep::Factor:
            if (m.rope_scaling.type == RopeType::Default) m.rope_scaling.type = RopeType::Linear;
            m.rope_scaling.factor = value;
            return try_set_model(p, s, m);
    }
    return false;
}

bool select_preset(LabParams& p, Status& s, const std::string& name) {
    s.config_needs_rope = false;
    const Preset* preset = find_preset(name);
    if (!preset) {
        s.error = fmt::format("unknown preset \"{}\"", name);
        return false;
    }
    if (!try_set_model(p, s, preset->config)) return false;
    p.preset = name;
    p.layer_type.clear();
    p.layer = -1;
    show_preset_layers(s, name);
    s.notice = preset->note.title;
    return true;
}

void show_preset_layers(Status& s, const std::string& name) {
    show_loaded(s, load_preset(name, ""));
    s.layer_types.clear();  // a preset's layer types are picked through its layers
    s.what_was_read.clear();
    s.layers_from_preset = true;
}

void show_loaded(Status& s, const LoadedConfig& loaded) {
    s.layer_types = loaded.layer_types;
    s.what_was_read = explain_lines(loaded);
    s.layer_labels.clear();
    s.layer_previews.clear();
    for (std::size_t i = 0; i < loaded.layers.size(); ++i) {
        s.layer_labels.push_back(layer_label(static_cast<int>(i), loaded.layers[i]));
        s.layer_previews.push_back(layer_preview(static_cast<int>(i), loaded.layers[i]));
    }
    s.default_layer = loaded.default_layer;
    s.layers_from_preset = false;
}

bool pick_layer(LabParams& p, Status& s, int layer) {
    if (!s.layers_from_preset) return load_config(p, s, s.config_path, "", s.config_given, layer);
    try {
        const LoadedConfig loaded = load_preset(p.preset, "", layer);
        if (!try_set_model(p, s, loaded.config)) return false;
        p.layer_type = loaded.layer_type;
        p.layer = loaded.layer;
        s.notice = layer >= 0 ? s.layer_labels.at(static_cast<std::size_t>(layer)) : "the default layer";
        return true;
    } catch (const InputError& e) {
        s.error = e.what();
        return false;
    }
}

bool load_config(LabParams& p, Status& s, const std::string& path, const std::string& layer_type, const GivenRope& given, int layer) {
    s.config_needs_rope = false;
    try {
        const LoadedConfig loaded = models::load_model(path, layer_type, given, layer);
        if (!try_set_model(p, s, loaded.config)) return false;
        s.config_given = given;
        p.preset = loaded.note.name.empty() ? path : loaded.note.name;
        p.layer_type = loaded.layer_type;
        p.layer = loaded.layer;
        s.config_path = path;
        show_loaded(s, loaded);
        s.notice = "loaded " + path;
        for (const std::string& note : loaded.notes) s.notice += "\n" + note;
        return true;
    } catch (const UnknownFamilyError& e) {
        s.error = fmt::format("{}\nIn the window: set the layout and Partial rotary below, then press \"Read with these\"", e.what());
        s.config_path = path;
        s.config_needs_rope = true;
        return false;
    } catch (const InputError& e) {
        s.error = e.what();  // names the file, the field and the value
        return false;
    }
}

std::pair<double, double> default_sweep_range(Sweep sweep, int frames) {
    switch (sweep) {
        case Sweep::Position: return {0.0, frames - 1.0};
        case Sweep::Distance: return {0.0, 64.0};
        case Sweep::Theta: return {1e3, 1e6};
        case Sweep::Factor: return {1.0, 32.0};
    }
    return {0.0, 1.0};
}

void apply_shortcuts(LabParams& p, const std::vector<Shortcut>& shortcuts, int pairs) {
    for (Shortcut shortcut : shortcuts) {
        switch (shortcut) {
            case Shortcut::PlayPause: p.playing = !p.playing; break;
            case Shortcut::StepForward: p.position = std::min(kMaxPosition, p.position + 1); break;
            case Shortcut::StepBack: p.position = std::max<std::int64_t>(0, p.position - 1); break;
            case Shortcut::AllViews: p.focused_view = -1; break;
            case Shortcut::ToggleControls: p.show_controls = !p.show_controls; break;
            case Shortcut::Faster: p.speed = std::min(4096.0, p.speed * 2); break;
            case Shortcut::Slower: p.speed = std::max(0.25, p.speed / 2); break;
            default: {
                const int n = static_cast<int>(shortcut);
                if (n < static_cast<int>(Shortcut::ShowView1)) {  // Ctrl+1 …: a workspace, none of its views large
                    p.workspace = static_cast<Workspace>(n - static_cast<int>(Shortcut::ShowWorkspace1));
                    p.focused_view = -1;
                    break;
                }
                const int view = n - static_cast<int>(Shortcut::ShowView1);
                p.focused_view = p.focused_view == view ? -1 : view;
            }
        }
    }
    p.focused_pair = std::clamp(p.focused_pair, 0, std::max(0, pairs - 1));
}

FileKind file_kind(const std::string& path) {
    // A GGUF or a checkpoint is a model, told by its bytes (or by being a folder) before any JSON.
    if (models::model_file_kind(path) != models::ModelFileKind::ConfigJson) return FileKind::Config;
    const Json json = parse_json_input(read_input_file(path, "session, lesson or config"), path);
    if (json.is_object() && json.contains("ropelab_session")) return FileKind::Session;
    if ((json.is_object() && json.contains("scenes")) || path.ends_with(".ropelesson")) return FileKind::Lesson;
    return FileKind::Config;
}

void apply_window_input(LabParams& p, Status& s, const Input& input) {
    if (input.toggle_help) p.show_help = !p.show_help;
    if (input.toggle_fullscreen) p.fullscreen = !p.fullscreen;
    if (!input.notice.empty()) s.notice = input.notice;
}

LabParams with_query_in_image(LabParams p) {
    p.query_row = std::clamp<std::int64_t>(p.query_row, 0, std::max<std::int64_t>(0, p.grid_height - 1));
    p.query_column = std::clamp<std::int64_t>(p.query_column, 0, std::max<std::int64_t>(0, p.grid_width - 1));
    const std::int64_t frames = std::max<std::int64_t>(1, p.grid_frames);
    p.frame_offset = std::clamp<std::int64_t>(p.frame_offset, -(frames - 1), frames - 1);
    return p;
}

void apply_requests(LabParams& p, const Requests& r) {
    if (r.focus_pair) p.focused_pair = *r.focus_pair;
    if (r.position) p.position = std::clamp<std::int64_t>(*r.position, 0, kMaxPosition);
    if (r.focus_view) p.focused_view = *r.focus_view;
    if (r.tab_view) p.tab_view = *r.tab_view;
    if (r.workspace) p.workspace = *r.workspace, p.focused_view = -1;
    if (r.show_help) p.show_help = *r.show_help;
    if (r.spotlight) p.spotlight = *r.spotlight;
    if (r.single_setting) p.single_setting = *r.single_setting;
    if (r.weights_layer) p.weights_layer = std::clamp(*r.weights_layer, 0, 4095);  // the rows' ranges (schema_rows.cpp)
    if (r.weights_head) p.weights_head = std::clamp(*r.weights_head, 0, 4095);
    if (r.key_distance) p.key_distance = std::clamp<std::int64_t>(*r.key_distance, 0, kMaxPosition);
    if (r.grid_query) {
        p.query_row = std::clamp<std::int64_t>(r.grid_query->first, 0, p.grid_height - 1);
        p.query_column = std::clamp<std::int64_t>(r.grid_query->second, 0, p.grid_width - 1);
    }
}

void advance_playback(LabParams& p, Status& s, double seconds) {
    if (!p.playing) return;
    s.playback_carry += p.speed * seconds;
    const auto steps = static_cast<std::int64_t>(s.playback_carry);
    s.playback_carry -= static_cast<double>(steps);
    if (steps == 0) return;
    if (p.sweep_distance) {  // Δ runs over the score plot's distances and wraps to 0
        p.key_distance = (p.key_distance + steps) % std::max<std::int64_t>(1, p.max_distance);
        return;
    }
    const std::int64_t span = std::max<std::int64_t>(1, p.loop_to - p.loop_from);
    std::int64_t next = p.position + steps;
    if (next >= p.loop_to || next < p.loop_from) next = p.loop_from + ((next - p.loop_from) % span + span) % span;
    p.position = next;
}

}  // namespace ropelab::lab
