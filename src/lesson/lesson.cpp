#include "lesson/lesson.h"
#include "lesson/lesson_format.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "core/attention.h"
#include "core/embedded.h"
#include "core/error.h"
#include "core/input_file.h"
#include "core/json_input.h"
#include "core/position_ids.h"
#include "core/token_layout.h"
#include "core/utf8.h"
#include "core/presets.h"
#include "state/compare.h"
#include "state/schema.h"

namespace ropelab {

namespace {

using lesson_format::kMaxScenes, lesson_format::kMaxKeyframes, lesson_format::kMaxAnnotations;
using lesson_format::kMaxTitleChars, lesson_format::kMaxCaptionChars, lesson_format::kMaxNotesChars;
using lesson_format::compare_specs, lesson_format::is_number_field;
// Whole-number keyframes are checked at every value they take when their span is at most this
// (head_dim's whole range; the focused pair's): the fields whose validity is not an interval.
constexpr double kMaxSweptSpan = 1024;
// Checked states per lesson: a few seconds at most on a slow machine.
constexpr long kMaxChecks = 250000;

// A lesson names lab fields by their schema lesson names (lab/schema.h): the same ranges as
// everywhere else. Keyframes move numbers.
const schema::Field& lesson_field(const std::string& name, const std::string& where) {
    const schema::Field* f = schema::by_lesson_name(name);
    if (!f) {
        std::string names;
        for (const schema::Field& g : schema::fields()) {
            if (!g.lesson.empty() && g.slot == 0) names += (names.empty() ? "" : ", ") + std::string(g.lesson);
        }
        throw InputError(fmt::format("{}: not a lesson parameter (one of {}; compare, comparison; compare1.theta and the like "
                                     "for a compared setting's fields)", where, names));
    }
    return *f;
}

// Compare mode in a scene: "compare" lists SPECs (lab/compare.h) that replace the compared
// settings ([] removes them); "comparison" names a built-in one. Checked here against the
// default state, applied after the scene's other settings (whatever their order in the file).
std::string compare_set_text(const std::string& name, const Json& value, const std::string& where) {
    std::vector<std::string> specs;
    if (name == "comparison") {
        if (!value.is_string()) throw InputError(fmt::format("{}: set.comparison must be a built-in comparison's name", where));
        specs.push_back(value.get<std::string>());
    } else {
        if (!value.is_array() || value.size() > static_cast<std::size_t>(kMaxCompared)) {
            throw InputError(fmt::format("{}: set.compare must list at most {} SPECs (preset, config or key=value,…)", where, kMaxCompared));
        }
        for (const Json& spec : value) {
            if (!spec.is_string()) throw InputError(fmt::format("{}: set.compare has {}, not a SPEC", where, json_excerpt(spec)));
            specs.push_back(spec.get<std::string>());
        }
    }
    try {
        if (name == "comparison") apply_comparison(LabParams{}, specs[0]);
        else with_compared(LabParams{}, specs);
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: set.{}: {}", where, name, e.what()));
    }
    std::string text;
    for (const std::string& spec : specs) text += (text.empty() ? "" : "\n") + spec;
    return text;
}



Easing parse_easing(const std::string& name, const std::string& where) {
    const auto& names = lesson_format::kEasingNames;
    const auto it = std::find(names.begin(), names.end(), name);
    if (it != names.end()) return static_cast<Easing>(it - names.begin());
    throw InputError(fmt::format("{}: easing \"{}\" (expected linear, ease-in, ease-out, ease-in-out)", where, name));
}

std::string scene_name(std::size_t i, const Json& scene) {
    const std::string title = scene.contains("title") && scene["title"].is_string() ? scene["title"].get<std::string>() : "";
    return fmt::format("scene {} (\"{}\")", i + 1, text_excerpt(title, 80));  // a refused 17,000-character title too
}

// A scene's text: at most `limit` characters (lesson_format.h, the Lesson panel's limit too).
void check_text_length(const std::string& text, const char* key, std::size_t limit, const std::string& where) {
    if (const std::size_t n = utf8_characters(text); n > limit) {
        throw InputError(fmt::format("{}: \"{}\" has {} characters (at most {}): \"{}\"", where, key, n, limit, text_excerpt(text, 40)));
    }
}

// A scene's title and caption: text, and required.
void read_scene_text(const Json& j, const char* key, std::string& out, std::size_t limit, const std::string& where) {
    if (!j.contains(key)) throw InputError(fmt::format("{}: \"{}\" is required", where, key));
    if (!j[key].is_string()) throw InputError(fmt::format("{}: \"{}\" must be text", where, key));
    out = j[key].get<std::string>();
    check_text_length(out, key, limit, where);
}

void read_views(const Json& j, Scene& s, const std::string& where) {
    if (!j.contains("views") || !j["views"].is_array() || j["views"].empty() || j["views"].size() > 4) {
        throw InputError(fmt::format("{}: \"views\" must list 1 to 4 views (1-{})", where, kViewCount));
    }
    for (const Json& v : j["views"]) {
        if (!v.is_number_integer() || v.get<int>() < 1 || v.get<int>() > kViewCount) {
            throw InputError(fmt::format("{}: \"views\" has {} (views are 1-{})", where, json_excerpt(v), kViewCount));
        }
        if (std::find(s.views.begin(), s.views.end(), v.get<int>() - 1) != s.views.end()) {
            throw InputError(fmt::format("{}: \"views\" lists view {} twice (each view is shown once)", where, v.get<int>()));
        }
        s.views.push_back(v.get<int>() - 1);
    }
}

// One "set" entry as the text the lab's fields parse, checked now so that a bad value is found
// when the lesson is read rather than when its scene plays.
std::string set_value_text(const std::string& name, const Json& value, const std::string& where) {
    const schema::Field& f = lesson_field(name, fmt::format("{}: set.{}", where, name));
    std::string text;
    if (value.is_number()) text = fmt::format("{:.17g}", value.get<double>());
    else if (value.is_boolean()) text = value.get<bool>() ? "true" : "false";
    else if (value.is_string()) text = value.get<std::string>();
    else throw InputError(fmt::format("{}: set.{} = {} is not a value ({})", where, name, json_excerpt(value), schema::range_text(f)));
    try {
        schema::parse(f, text);
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: set.{}: {}", where, name, e.what()));
    }
    return text;
}

// "hide": views (1-based, among the scene's own) whose curves wait for R.
void read_hide(const Json& j, Scene& s, const std::string& where) {
    if (!j.contains("hide")) return;
    if (!j["hide"].is_array() || j["hide"].size() > s.views.size()) {
        throw InputError(fmt::format("{}: \"hide\" must list at most {} of the scene's views", where, s.views.size()));
    }
    for (const Json& v : j["hide"]) {
        if (!v.is_number_integer() || v.get<int>() < 1 || v.get<int>() > kViewCount) {
            throw InputError(fmt::format("{}: \"hide\" has {} (views are 1-{})", where, json_excerpt(v), kViewCount));
        }
        const int view = v.get<int>() - 1;
        if (std::find(s.views.begin(), s.views.end(), view) == s.views.end()) {
            throw InputError(fmt::format("{}: \"hide\" has {}, a view the scene does not show", where, view + 1));
        }
        if (std::find(s.hide.begin(), s.hide.end(), view) != s.hide.end()) {
            throw InputError(fmt::format("{}: \"hide\" lists view {} twice", where, view + 1));
        }
        if (!can_hide(static_cast<View>(view))) {
            std::string can;
            for (const ViewRow& row : view_table()) {
                if (row.can_hide) can += fmt::format("{}{}", can.empty() ? "" : ", ", static_cast<int>(row.id) + 1);
            }
            throw InputError(fmt::format("{}: \"hide\" has {}: that view cannot hide its curves (views {} can)", where,
                                         view + 1, can));
        }
        s.hide.push_back(view);
    }
}

void read_set(const Json& j, Scene& s, const std::string& where) {
    if (!j.contains("set")) return;
    if (!j["set"].is_object()) throw InputError(where + ": \"set\" must be an object");
    for (const auto& [name, value] : j["set"].items()) {
        if (name == "compare" || name == "comparison") {
            s.set.emplace_back(name, compare_set_text(name, value, where));
        } else {
            s.set.emplace_back(name, set_value_text(name, value, where));
        }
    }
}

// A keyframe without its own duration lasts the whole scene.
Keyframe read_keyframe(const Json& kj, double scene_duration, const std::string& kwhere) {
    Keyframe f;
    if (!kj.contains("param") || !kj["param"].is_string() ||
        !is_number_field(lesson_field(kj["param"].get<std::string>(), kwhere + ": param " + kj["param"].get<std::string>()))) {
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
        f.duration = kj.value("duration", scene_duration);
        f.easing = parse_easing(kj.value("easing", std::string("ease-in-out")), kwhere);
        f.log = kj.value("log", f.param == "theta" || f.param == "factor");
    } catch (const Json::exception& e) {
        throw InputError(fmt::format("{}: {}", kwhere, e.what()));
    }
    if (f.duration <= 0 || f.start < 0) throw InputError(kwhere + ": needs start >= 0 and duration > 0");
    if (f.log && (f.from <= 0 || f.to <= 0)) throw InputError(kwhere + ": a log keyframe needs positive values");
    return f;
}

void read_keyframes(const Json& j, Scene& s, const std::string& where) {
    if (!j.contains("keyframes")) return;
    if (!j["keyframes"].is_array()) throw InputError(where + ": \"keyframes\" must be a list");
    if (j["keyframes"].size() > kMaxKeyframes) {
        throw InputError(fmt::format("{}: {} keyframes; a scene has at most {}", where, j["keyframes"].size(), kMaxKeyframes));
    }
    for (std::size_t k = 0; k < j["keyframes"].size(); ++k) {
        s.keyframes.push_back(read_keyframe(j["keyframes"][k], s.duration, fmt::format("{}: keyframes[{}]", where, k)));
    }
}

// Where an annotation's coordinate may lie, by what it means: a fraction of the view (label), a
// distance Δ (distance), a pair index (pair, cell's x), a position m (cell's y). Drawing code maps
// these onto pixels and cells, so anything else (y = 1e300 at a cell) never reaches it.
struct CoordinateRange {
    double lo, hi;
    bool whole;  // a pair or a position: an integer
};

CoordinateRange coordinate_range(const std::string& at, char axis) {
    constexpr double kLastPair = kMaxHeadDim / 2 - 1;
    if (at == "label") return {0.0, 1.0, false};
    if (at == "distance") return {0.0, static_cast<double>(kMaxDistances - 1), false};
    if (at == "pair" || (at == "cell" && axis == 'x')) return {0.0, kLastPair, true};
    return {0.0, static_cast<double>(kMaxPosition), true};  // a cell's y: a position
}

void check_coordinate(const Json& aj, const std::string& at, const char* key, double value, const std::string& awhere) {
    const CoordinateRange r = coordinate_range(at, key[0]);
    const bool whole = !r.whole || value == std::floor(value);
    if (!(value >= r.lo && value <= r.hi) || !whole) {
        throw InputError(fmt::format("{}: \"{}\" = {} is out of range for at = \"{}\" ({}{} .. {})", awhere, key,
                                     json_excerpt(aj[key]), at, r.whole ? "a whole number " : "", r.lo, r.hi));
    }
}

Annotation read_annotation(const Json& aj, const std::string& awhere) {
    Annotation n;
    if (!aj.is_object()) throw InputError(fmt::format("{}: must be an object (got {})", awhere, json_excerpt(aj)));
    if (!aj.contains("text") || !aj["text"].is_string()) throw InputError(awhere + ": \"text\" is required");
    n.text = aj["text"].get<std::string>();
    for (const char* key : {"view", "x", "y"}) {
        if (aj.contains(key) && !aj[key].is_number()) {
            throw InputError(fmt::format("{}: \"{}\" must be a number (got {})", awhere, key, json_excerpt(aj[key])));
        }
    }
    if (aj.contains("at") && !aj["at"].is_string()) {
        throw InputError(fmt::format("{}: \"at\" must be one of label, distance, pair, cell (got {})", awhere, json_excerpt(aj["at"])));
    }
    try {
        const double view = aj.value("view", 3.0);  // as a double: no undefined int conversion
        n.view = view >= 1 && view <= kViewCount && view == std::floor(view) ? static_cast<int>(view) - 1 : -1;
        n.at = aj.value("at", std::string("label"));
        n.x = aj.value("x", 0.5);
        n.y = aj.value("y", 0.1);
    } catch (const Json::exception& e) {
        throw InputError(fmt::format("{}: {}", awhere, e.what()));
    }
    if (n.view < 0 || n.view >= kViewCount) {
        throw InputError(fmt::format("{}: \"view\" = {} must be a whole number 1-{}", awhere, json_excerpt(aj["view"]), kViewCount));
    }
    if (n.at != "label" && n.at != "distance" && n.at != "pair" && n.at != "cell") {
        throw InputError(fmt::format("{}: \"at\" is \"{}\" (expected label, distance, pair, cell)", awhere, n.at));
    }
    if (aj.contains("x")) check_coordinate(aj, n.at, "x", n.x, awhere);
    if (aj.contains("y") && (n.at == "label" || n.at == "cell")) check_coordinate(aj, n.at, "y", n.y, awhere);
    return n;
}

void read_annotations(const Json& j, Scene& s, const std::string& where) {
    if (!j.contains("annotations")) return;
    if (!j["annotations"].is_array() || j["annotations"].size() > kMaxAnnotations) {
        throw InputError(fmt::format("{}: \"annotations\" must be a list of at most {}", where, kMaxAnnotations));
    }
    for (std::size_t a = 0; a < j["annotations"].size(); ++a) {
        s.annotations.push_back(read_annotation(j["annotations"][a], fmt::format("{}: annotations[{}]", where, a)));
    }
}

Scene read_scene(const Json& j, const std::string& where) {
    if (!j.is_object()) throw InputError(where + ": must be an object");
    Scene s;
    read_scene_text(j, "title", s.title, kMaxTitleChars, where);
    read_scene_text(j, "caption", s.caption, kMaxCaptionChars, where);
    if (j.contains("notes")) {
        if (!j["notes"].is_string()) throw InputError(fmt::format("{}: \"notes\" must be text", where));
        s.notes = j["notes"].get<std::string>();
        check_text_length(s.notes, "notes", kMaxNotesChars, where);
    }
    if (j.contains("duration")) {
        if (!j["duration"].is_number() || j["duration"].get<double>() <= 0 || j["duration"].get<double>() > 600) {
            throw InputError(fmt::format("{}: \"duration\" must be seconds in (0, 600] (got {})", where, json_excerpt(j["duration"])));
        }
        s.duration = j["duration"].get<double>();
    }
    read_views(j, s, where);
    read_hide(j, s, where);
    read_set(j, s, where);
    read_keyframes(j, s, where);
    read_annotations(j, s, where);
    return s;
}

// A keyframe's value at fraction u of its duration.
double keyframe_value(const Keyframe& k, double u);

// When keyframe `k` takes the whole number v (it is monotonic: bisection on its time).
double time_of_value(const Keyframe& k, double v) {
    double lo = 0.0, hi = 1.0;
    const bool rising = k.to > k.from;
    for (int i = 0; i < 60; ++i) {
        const double mid = 0.5 * (lo + hi);
        ((keyframe_value(k, mid) < v) == rising ? lo : hi) = mid;
    }
    return k.start + 0.5 * (lo + hi) * k.duration;
}

// The tokens of a layout under a model's multi-axis setting, remembered for the last layout asked
// (a lesson's states mostly share one): what the needle and the attention view are checked against.
class LayoutTokens {
public:
    std::int64_t count(const LabParams& p) {
        if (!valid_ || p.tokens != layout_ || !(p.model.multi_axis == axes_)) {
            const TokenLayout parsed = parse_token_layout(p.tokens, p.model.multi_axis.spatial_merge_size);
            count_ = static_cast<std::int64_t>(
                position_ids(parsed, p.model.multi_axis, release_rule(p.model.multi_axis.position_ids)).size());
            layout_ = p.tokens;
            axes_ = p.model.multi_axis;
            valid_ = true;
        }
        return count_;
    }

private:
    bool valid_ = false;
    std::string layout_;
    MultiAxis axes_;
    std::int64_t count_ = 0;
};

// A state checked against its token layout, as the attention view and export read it: the needle
// must be one of the layout's tokens, and a scene that shows the attention view needs a layout
// the view takes. Throws InputError naming the field and its value.
void check_against_layout(const LabParams& p, const Scene& s, LayoutTokens& tokens) {
    const bool attention = std::any_of(s.views.begin(), s.views.end(), [](int v) { return view_reads(v, Product::Attention); });
    if (p.token_vectors != TokenVectors::Needle && !attention) return;
    const std::int64_t t = tokens.count(p);
    if (p.token_vectors == TokenVectors::Needle && p.needle >= t) {
        throw InputError(fmt::format("attention.needle: token {} is past the layout's {} tokens (images.tokens \"{}\")", p.needle, t,
                                     p.tokens));
    }
    if (attention && t > kMaxAttentionTokens) {
        throw InputError(fmt::format("images.tokens: \"{}\" has {} tokens; the attention view takes at most {}", p.tokens, t,
                                     kMaxAttentionTokens));
    }
}

// Every state a scene passes through must be one the lab accepts, not only its ends: a head_dim
// keyframe from 64 to 128 passes 65 on its way. Checked at the scene's and keyframes' ends, 64
// times in between, and at every whole value a whole-number keyframe of span <= 1024 takes.
// An error names the scene, the keyframe, the time and the field.
void check_timeline(const Lesson& lesson, int scene, const std::string& where, long& checks, LayoutTokens& tokens) {
    const Scene& s = lesson.scenes[static_cast<std::size_t>(scene)];
    const auto check = [&](double t, const std::string& during) {
        if (++checks > kMaxChecks) {
            throw InputError(fmt::format("{}: checking every state of the lesson up to here takes more than {} steps "
                                         "(scenes × keyframes × values): split the lesson",
                                         where, kMaxChecks));
        }
        try {
            check_against_layout(lesson_state(lesson, scene, t, LabParams{}), s, tokens);
        } catch (const InputError& e) {
            throw InputError(fmt::format("{}: {}at t = {:.4g} s: {}", where, during, t, e.what()));
        }
    };
    const auto during = [&](std::size_t i) {
        const Keyframe& k = s.keyframes[i];
        return fmt::format("keyframes[{}] ({} {:.6g} -> {:.6g}) ", i, k.param, k.from, k.to);
    };
    check(0.0, "");
    // Each keyframe's ends first: a refused end is named by its keyframe, not by a time between.
    for (std::size_t i = 0; i < s.keyframes.size(); ++i) {
        check(s.keyframes[i].start, during(i));
        check(s.keyframes[i].start + s.keyframes[i].duration, during(i));
    }
    for (int t = 1; t <= 64; ++t) check(s.duration * t / 64.0, "");
    for (std::size_t i = 0; i < s.keyframes.size(); ++i) {
        const Keyframe& k = s.keyframes[i];
        const schema::Field& f = *schema::by_lesson_name(k.param);
        if (f.kind != schema::Kind::Int || !f.path.starts_with("model.")) continue;  // others' ranges are intervals
        const double lo = std::ceil(std::min(k.from, k.to)), hi = std::floor(std::max(k.from, k.to));
        if (hi - lo > kMaxSweptSpan) continue;
        for (double v = lo; v <= hi; ++v) check(time_of_value(k, v), during(i));
    }
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
    std::vector<std::string_view> out;
    for (const schema::Field& f : schema::fields()) {
        if (!f.lesson.empty()) out.push_back(f.lesson);
    }
    return out;
}

namespace {
double keyframe_value(const Keyframe& k, double u) {
    u = ease(k.easing, u);
    // The ends are the keyframe's own numbers, not a rounding of them.
    return u <= 0.0 ? k.from : u >= 1.0 ? k.to : k.log ? k.from * std::pow(k.to / k.from, u) : k.from + (k.to - k.from) * u;
}
}  // namespace

LabParams lesson_state(const Lesson& lesson, int scene, double t, const LabParams& base) {
    const Scene& s = lesson.scenes.at(static_cast<std::size_t>(scene));
    LabParams p = base;
    // A scene shows the settings it names: the viewer's own comparison stays out of it.
    p.compared_count = 0;
    p.compared = {};
    for (const auto& [name, value] : s.set) {
        if (name == "comparison") p = apply_comparison(p, value);
    }
    for (const auto& [name, value] : s.set) {
        if (name == "compare" || name == "comparison") continue;
        const schema::Field& f = *schema::by_lesson_name(name);
        schema::assign_text(p, f, value);
        // A factor on an unscaled model means linear scaling, as the factor sweep does.
        if (name == "factor" && p.model.rope_scaling.type == RopeType::Default) p.model.rope_scaling.type = RopeType::Linear;
    }
    for (const auto& [name, value] : s.set) {
        if (name == "compare") p = with_compared(p, compare_specs(value));
    }
    for (const Keyframe& k : s.keyframes) {
        const double v = keyframe_value(k, (t - k.start) / k.duration);
        const schema::Field& f = *schema::by_lesson_name(k.param);
        schema::assign(p, f, schema::from_number(f, v));
        if (k.param == "factor" && p.model.rope_scaling.type == RopeType::Default) p.model.rope_scaling.type = RopeType::Linear;
    }
    // A scene that loads a smaller model keeps the focus inside it.
    p.focused_pair = std::clamp(p.focused_pair, 0, std::max(0, rotary_dim(p.model) / 2 - 1));
    schema::validate(p);
    return p;
}

Lesson parse_lesson(std::string_view text, std::string_view source) {
    std::vector<std::string> duplicates;
    Json j = parse_json_input(text, source, &duplicates);
    if (!j.is_object() || !j.contains("scenes") || !j["scenes"].is_array() || j["scenes"].empty()) {
        throw InputError(fmt::format("{}: a lesson is an object with a non-empty \"scenes\" list", source));
    }
    if (j["scenes"].size() > kMaxScenes) {
        throw InputError(fmt::format("{}: {} scenes; a lesson has at most {}", source, j["scenes"].size(), kMaxScenes));
    }
    Lesson lesson;
    for (const std::string& d : duplicates) lesson.warnings.push_back(fmt::format("{}: {}", source, d));
    lesson.title = j.value("title", std::string("Lesson"));
    long checks = 0;
    LayoutTokens tokens;
    for (std::size_t i = 0; i < j["scenes"].size(); ++i) {
        const std::string where = fmt::format("{}: {}", source, scene_name(i, j["scenes"][i]));
        try {
            lesson.scenes.push_back(read_scene(j["scenes"][i], where));
        } catch (const Json::exception& e) {  // a field of the wrong type, read through value()
            throw InputError(fmt::format("{}: {}", where, e.what()));
        }
        check_timeline(lesson, static_cast<int>(i), where, checks, tokens);
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

namespace lesson_format {

std::vector<std::string> compare_specs(const std::string& text) {
    std::vector<std::string> specs;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        specs.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return specs;
}

bool is_number_field(const schema::Field& f) { return f.kind == schema::Kind::Int || f.kind == schema::Kind::Real; }

}  // namespace lesson_format

}  // namespace ropelab
