#include "lesson/lesson.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/embedded.h"
#include "core/error.h"
#include "core/input_file.h"
#include "core/presets.h"

namespace ropelab {

namespace {

using Json = nlohmann::json;

constexpr std::string_view kNumeric[] = {"theta", "head_dim", "factor", "position", "pair", "key_distance",
                                         "max_distance", "invariance_distance", "partial_rotary_factor", "samples"};
constexpr std::string_view kText[] = {"preset", "rope_type", "layout", "encoding", "vectors", "angle_mode",
                                      "log_distance", "show_bound", "theme"};

bool is_numeric(std::string_view name) { return std::find(std::begin(kNumeric), std::end(kNumeric), name) != std::end(kNumeric); }
bool is_text(std::string_view name) { return std::find(std::begin(kText), std::end(kText), name) != std::end(kText); }

Easing parse_easing(const std::string& name, const std::string& where) {
    if (name == "linear") return Easing::Linear;
    if (name == "ease-in") return Easing::EaseIn;
    if (name == "ease-out") return Easing::EaseOut;
    if (name == "ease-in-out") return Easing::EaseInOut;
    throw InputError(fmt::format("{}: easing \"{}\" (expected linear, ease-in, ease-out, ease-in-out)", where, name));
}

void set_numeric(LabParams& p, const std::string& name, double v) {
    auto whole = [&] { return static_cast<std::int64_t>(std::llround(v)); };
    ModelConfig& m = p.model;
    if (name == "theta") m.rope_theta = v;
    else if (name == "head_dim") m.head_dim = static_cast<int>(whole());
    else if (name == "factor") {
        if (m.rope_scaling.type == RopeType::Default) m.rope_scaling.type = RopeType::Linear;
        m.rope_scaling.factor = v;
    }
    else if (name == "partial_rotary_factor") m.partial_rotary_factor = v;
    else if (name == "position") p.position = std::clamp<std::int64_t>(whole(), 0, kMaxPosition);
    else if (name == "pair") p.focused_pair = static_cast<int>(whole());
    else if (name == "key_distance") p.key_distance = std::max<std::int64_t>(0, whole());
    else if (name == "max_distance") p.max_distance = std::clamp<std::int64_t>(whole(), kMinDistances, kMaxDistances);
    else if (name == "invariance_distance") p.invariance_distance = std::max<std::int64_t>(0, whole());
    else if (name == "samples") p.samples = static_cast<int>(std::max<std::int64_t>(1, whole()));
}

void set_text(LabParams& p, const std::string& name, const std::string& v) {
    if (name == "preset") {
        p.model = preset_or_throw(v).config;
        p.preset = v;
    } else if (name == "rope_type") {
        p.model.rope_scaling.type = parse_rope_type(v);
    } else if (name == "layout") {
        p.model.layout = parse_pair_layout(v);
    } else if (name == "encoding") {
        if (v == "rope") p.encoding = Encoding::Rope;
        else if (v == "sinusoidal") p.encoding = Encoding::Sinusoidal;
        else if (v == "both") p.encoding = Encoding::Both;
        else throw InputError(fmt::format("encoding \"{}\" (expected rope, sinusoidal, both)", v));
    } else if (name == "vectors") {
        if (v == "ones") p.vectors = VectorChoice::Ones;
        else if (v == "random") p.vectors = VectorChoice::Random;
        else if (v == "mean") p.vectors = VectorChoice::MeanOfRandom;
        else if (v == "pair") p.vectors = VectorChoice::FocusedPair;
        else throw InputError(fmt::format("vectors \"{}\" (expected ones, random, mean, pair)", v));
    } else if (name == "angle_mode") {
        p.angle_mode = parse_angle_mode(v);
    } else if (name == "log_distance" || name == "show_bound") {
        if (v != "true" && v != "false") throw InputError(fmt::format("{} \"{}\" (expected true or false)", name, v));
        (name == "log_distance" ? p.log_distance : p.show_bound) = v == "true";
    } else if (name == "theme") {
        p.theme = v == "light" ? Theme::Light : Theme::Dark;
    }
}

std::string scene_name(std::size_t i, const Json& scene) {
    const std::string title = scene.contains("title") && scene["title"].is_string() ? scene["title"].get<std::string>() : "";
    return fmt::format("scene {} (\"{}\")", i + 1, title);
}

Scene read_scene(const Json& j, const std::string& where) {
    if (!j.is_object()) throw InputError(where + ": must be an object");
    Scene s;
    auto text = [&](const char* key, std::string& out, bool required) {
        if (!j.contains(key)) {
            if (required) throw InputError(fmt::format("{}: \"{}\" is required", where, key));
            return;
        }
        if (!j[key].is_string()) throw InputError(fmt::format("{}: \"{}\" must be text", where, key));
        out = j[key].get<std::string>();
    };
    text("title", s.title, true);
    text("caption", s.caption, true);
    if (j.contains("duration")) {
        if (!j["duration"].is_number() || j["duration"].get<double>() <= 0 || j["duration"].get<double>() > 600) {
            throw InputError(fmt::format("{}: \"duration\" must be seconds in (0, 600] (got {})", where, j["duration"].dump()));
        }
        s.duration = j["duration"].get<double>();
    }
    if (!j.contains("views") || !j["views"].is_array() || j["views"].empty() || j["views"].size() > 4) {
        throw InputError(fmt::format("{}: \"views\" must list 1 to 4 views (1-8)", where));
    }
    for (const Json& v : j["views"]) {
        if (!v.is_number_integer() || v.get<int>() < 1 || v.get<int>() > kViewCount) {
            throw InputError(fmt::format("{}: \"views\" has {} (views are 1-8)", where, v.dump()));
        }
        s.views.push_back(v.get<int>() - 1);
    }
    if (j.contains("set")) {
        if (!j["set"].is_object()) throw InputError(where + ": \"set\" must be an object");
        for (const auto& [name, value] : j["set"].items()) {
            if (is_numeric(name) && value.is_number()) {
                s.set.emplace_back(name, fmt::format("{:.17g}", value.get<double>()));
            } else if (is_text(name) && (value.is_string() || value.is_boolean())) {
                s.set.emplace_back(name, value.is_boolean() ? (value.get<bool>() ? "true" : "false") : value.get<std::string>());
            } else {
                throw InputError(fmt::format("{}: set.{} = {} is not a known parameter with a value of its type", where, name, value.dump()));
            }
        }
    }
    if (j.contains("keyframes")) {
        if (!j["keyframes"].is_array()) throw InputError(where + ": \"keyframes\" must be a list");
        for (std::size_t k = 0; k < j["keyframes"].size(); ++k) {
            const Json& kj = j["keyframes"][k];
            const std::string kwhere = fmt::format("{}: keyframes[{}]", where, k);
            Keyframe f;
            if (!kj.contains("param") || !kj["param"].is_string() || !is_numeric(kj["param"].get<std::string>())) {
                throw InputError(kwhere + ": \"param\" must be a numeric parameter (theta, factor, position, …)");
            }
            f.param = kj["param"].get<std::string>();
            for (const char* key : {"from", "to"}) {
                if (!kj.contains(key) || !kj[key].is_number()) throw InputError(fmt::format("{}: \"{}\" must be a number", kwhere, key));
            }
            f.from = kj["from"].get<double>();
            f.to = kj["to"].get<double>();
            try {
                f.start = kj.value("start", 0.0);
                f.duration = kj.value("duration", s.duration);
                f.easing = parse_easing(kj.value("easing", std::string("ease-in-out")), kwhere);
                f.log = kj.value("log", f.param == "theta" || f.param == "factor");
            } catch (const Json::exception& e) {
                throw InputError(fmt::format("{}: {}", kwhere, e.what()));
            }
            if (f.duration <= 0 || f.start < 0) throw InputError(kwhere + ": needs start >= 0 and duration > 0");
            if (f.log && (f.from <= 0 || f.to <= 0)) throw InputError(kwhere + ": a log keyframe needs positive values");
            s.keyframes.push_back(f);
        }
    }
    if (j.contains("annotations")) {
        for (std::size_t a = 0; a < j["annotations"].size(); ++a) {
            const Json& aj = j["annotations"][a];
            const std::string awhere = fmt::format("{}: annotations[{}]", where, a);
            Annotation n;
            if (!aj.contains("text") || !aj["text"].is_string()) throw InputError(awhere + ": \"text\" is required");
            n.text = aj["text"].get<std::string>();
            try {
                const double view = aj.value("view", 3.0);  // as a double: no undefined int conversion
                n.view = view >= 1 && view <= kViewCount ? static_cast<int>(view) - 1 : -1;
                n.at = aj.value("at", std::string("label"));
                n.x = aj.value("x", 0.5);
                n.y = aj.value("y", 0.1);
            } catch (const Json::exception& e) {
                throw InputError(fmt::format("{}: {}", awhere, e.what()));
            }
            if (n.view < 0 || n.view >= kViewCount) throw InputError(awhere + ": \"view\" must be 1-8");
            if (n.at != "label" && n.at != "distance" && n.at != "pair" && n.at != "cell") {
                throw InputError(fmt::format("{}: \"at\" is \"{}\" (expected label, distance, pair, cell)", awhere, n.at));
            }
            s.annotations.push_back(n);
        }
    }
    return s;
}

}  // namespace

double ease(Easing easing, double u) {
    u = std::clamp(u, 0.0, 1.0);
    switch (easing) {
        case Easing::Linear: return u;
        case Easing::EaseIn: return u * u;
        case Easing::EaseOut: return 1.0 - (1.0 - u) * (1.0 - u);
        case Easing::EaseInOut: return u * u * (3.0 - 2.0 * u);  // smoothstep
    }
    return u;
}

std::vector<std::string_view> lesson_parameters() {
    std::vector<std::string_view> out(std::begin(kNumeric), std::end(kNumeric));
    out.insert(out.end(), std::begin(kText), std::end(kText));
    return out;
}

LabParams lesson_state(const Lesson& lesson, int scene, double t, const LabParams& base) {
    const Scene& s = lesson.scenes.at(static_cast<std::size_t>(scene));
    LabParams p = base;
    for (const auto& [name, value] : s.set) {
        if (is_numeric(name)) set_numeric(p, name, std::stod(value));
        else set_text(p, name, value);
    }
    for (const Keyframe& k : s.keyframes) {
        const double u = ease(k.easing, (t - k.start) / k.duration);
        // The ends are the keyframe's own numbers, not a rounding of them.
        const double v = u <= 0.0 ? k.from
                         : u >= 1.0 ? k.to
                         : k.log ? k.from * std::pow(k.to / k.from, u)
                                 : k.from + (k.to - k.from) * u;
        set_numeric(p, k.param, v);
    }
    p.focused_pair = std::clamp(p.focused_pair, 0, std::max(0, rotary_dim(p.model) / 2 - 1));
    validate(p.model);
    return p;
}

Lesson parse_lesson(std::string_view text, std::string_view source) {
    Json j;
    try {
        j = Json::parse(text);
    } catch (const Json::exception& e) {  // parse errors and out-of-range numbers alike
        throw InputError(fmt::format("{}: not valid JSON: {}", source, e.what()));
    }
    if (!j.is_object() || !j.contains("scenes") || !j["scenes"].is_array() || j["scenes"].empty()) {
        throw InputError(fmt::format("{}: a lesson is an object with a non-empty \"scenes\" list", source));
    }
    Lesson lesson;
    lesson.title = j.value("title", std::string("Lesson"));
    for (std::size_t i = 0; i < j["scenes"].size(); ++i) {
        const std::string where = fmt::format("{}: {}", source, scene_name(i, j["scenes"][i]));
        try {
            lesson.scenes.push_back(read_scene(j["scenes"][i], where));
        } catch (const Json::exception& e) {  // a field of the wrong type, read through value()
            throw InputError(fmt::format("{}: {}", where, e.what()));
        }
        // Every value must be one the lab accepts, at the start and the end of the scene.
        const Scene& s = lesson.scenes.back();
        try {
            lesson_state(lesson, static_cast<int>(i), 0.0, LabParams{});
            lesson_state(lesson, static_cast<int>(i), s.duration, LabParams{});
        } catch (const InputError& e) {
            throw InputError(fmt::format("{}: {}", where, e.what()));
        }
    }
    return lesson;
}

Lesson load_lesson(const std::string& path_or_builtin) {
    if (path_or_builtin == "builtin") {
        for (const EmbeddedFile& f : embedded::lessons()) {
            if (f.name == "rope-from-first-principles.json") return parse_lesson(f.data, "builtin lesson");
        }
        throw InputError("the built-in lesson is missing from this build");
    }
    return parse_lesson(read_input_file(path_or_builtin, "lesson"), path_or_builtin);
}

}  // namespace ropelab
