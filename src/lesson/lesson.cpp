#include "lesson/lesson.h"
#include "lesson/lesson_format.h"
#include "lesson/lesson_schema.h"
#include "lesson/library.h"

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

using lesson_format::compare_specs, lesson_format::is_number_field;
// Every key and limit below is a row of the lesson schema (lesson_schema.h).
namespace row = lesson_schema;
using lesson_schema::Field;
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



// A Name row's names as a message lists them: "linear, ease-in, ease-out, ease-in-out".
std::string names_text(const Field& f) {
    std::string text;
    for (std::string_view n : f.names) text += (text.empty() ? "" : ", ") + std::string(n);
    return text;
}

Easing parse_easing(const std::string& name, const std::string& where) {
    const auto& names = row::keyframe::easing.names;
    const auto it = std::find(names.begin(), names.end(), name);
    if (it != names.end()) return static_cast<Easing>(it - names.begin());
    throw InputError(fmt::format("{}: {} \"{}\" (expected {})", where, row::keyframe::easing.key, name, names_text(row::keyframe::easing)));
}

// The key as nlohmann's object index takes it.
std::string key(const Field& f) { return std::string(f.key); }

std::string scene_name(std::size_t i, const Json& scene) {
    const std::string k = key(row::scene::title);
    const std::string title = scene.is_object() && scene.contains(k) && scene[k].is_string() ? scene[k].get<std::string>() : "";
    return fmt::format("scene {} (\"{}\")", i + 1, text_excerpt(title, 80));  // a refused 17,000-character title too
}

// A text: at most its row's characters (the Lesson panel's fields hold as many).
void check_text_length(const std::string& text, const Field& f, const std::string& where) {
    if (const std::size_t n = row::characters(text); n > f.limit) {
        throw InputError(fmt::format("{}: \"{}\" has {} characters (at most {}): \"{}\"", where, f.key, n, f.limit, text_excerpt(text, 40)));
    }
}

// A Text row: required or not as its row says (`out` keeps its default when an optional one is
// missing), text, and within its limit.
void read_text(const Json& j, const Field& f, std::string& out, const std::string& where) {
    const std::string k = key(f);
    if (!j.contains(k)) {
        if (f.presence == row::Presence::Required) throw InputError(fmt::format("{}: \"{}\" is required", where, f.key));
        return;
    }
    if (!j[k].is_string()) throw InputError(fmt::format("{}: \"{}\" must be text", where, f.key));
    out = j[k].get<std::string>();
    check_text_length(out, f, where);
}

// A Number row with a fixed range (seconds): a number in it, or its default when missing.
void read_seconds(const Json& j, const Field& f, double& out, const std::string& where) {
    const std::string k = key(f);
    if (!j.contains(k)) return;
    if (!j[k].is_number() || !row::in_range(f, j[k].get<double>())) {
        throw InputError(fmt::format("{}: \"{}\" must be seconds in {} (got {})", where, f.key, row::range_text(f), json_excerpt(j[k])));
    }
    out = j[k].get<double>();
}

// One element of a Views row: a whole number in its range.
int view_number(const Json& v, const Field& f, const std::string& where) {
    if (!v.is_number_integer() || v.get<double>() < f.min || v.get<double>() > f.max) {
        throw InputError(fmt::format("{}: \"{}\" has {} (views are {}-{})", where, f.key, json_excerpt(v), f.min, f.max));
    }
    return v.get<int>();
}

// "workspace": a workspace's name. The lab is in it during the scene; its views are the scene's
// where the scene lists none.
void read_workspace(const Json& j, Scene& s, const std::string& where) {
    const Field& f = row::scene::workspace;
    const std::string k = key(f);
    if (!j.contains(k)) return;
    const std::optional<Workspace> w = j[k].is_string() ? find_workspace(j[k].get<std::string>()) : std::nullopt;
    if (!w) throw InputError(fmt::format("{}: \"{}\" has {} (expected {})", where, f.key, json_excerpt(j[k]), names_text(f)));
    s.workspace = w;
}

// "theme": one of the theme names; refused naming the field and the value given.
void read_theme(const Json& j, Lesson& lesson, const std::string& where) {
    const Field& f = row::lesson::theme;
    const std::string k = key(f);
    if (!j.contains(k)) return;
    const auto& names = f.names;
    const auto it = j[k].is_string() ? std::find(names.begin(), names.end(), j[k].get<std::string>()) : names.end();
    if (it == names.end()) throw InputError(fmt::format("{}: \"{}\" has {} (expected {})", where, f.key, json_excerpt(j[k]), names_text(f)));
    lesson.theme = static_cast<Theme>(it - names.begin());
}

void read_views(const Json& j, Scene& s, const std::string& where) {
    const Field& f = row::scene::views;
    const std::string k = key(f);
    if (!j.contains(k)) return;  // the scene's workspace, or the lab's
    if (!j[k].is_array() || j[k].size() < f.least || j[k].size() > f.limit) {
        throw InputError(fmt::format("{}: \"{}\" must list {} to {} views ({}-{})", where, f.key, f.least, f.limit, f.min, f.max));
    }
    for (const Json& v : j[k]) {
        const int view = view_number(v, f, where);
        if (std::find(s.views.begin(), s.views.end(), view - 1) != s.views.end()) {
            throw InputError(fmt::format("{}: \"{}\" lists view {} twice (each view is shown once)", where, f.key, view));
        }
        s.views.push_back(view - 1);
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
    const Field& f = row::scene::hide;
    const std::string k = key(f);
    if (!j.contains(k)) return;
    const std::vector<int> shown = scene_shown_views(s);
    if (!j[k].is_array() || j[k].size() > std::min(shown.size(), f.limit)) {
        throw InputError(fmt::format("{}: \"{}\" must list at most {} of the scene's views", where, f.key, std::min(shown.size(), f.limit)));
    }
    for (const Json& v : j[k]) {
        const int view = view_number(v, f, where) - 1;
        if (std::find(shown.begin(), shown.end(), view) == shown.end()) {
            throw InputError(fmt::format("{}: \"{}\" has {}, a view the scene does not show", where, f.key, view + 1));
        }
        if (std::find(s.hide.begin(), s.hide.end(), view) != s.hide.end()) {
            throw InputError(fmt::format("{}: \"{}\" lists view {} twice", where, f.key, view + 1));
        }
        if (!can_hide(static_cast<View>(view))) {
            std::string can;
            for (const ViewRow& row : view_table()) {
                if (row.can_hide) can += fmt::format("{}{}", can.empty() ? "" : ", ", static_cast<int>(row.id) + 1);
            }
            throw InputError(fmt::format("{}: \"{}\" has {}: that view cannot hide its curves (views {} can)", where,
                                         f.key, view + 1, can));
        }
        s.hide.push_back(view);
    }
}

void read_set(const Json& j, Scene& s, const std::string& where) {
    const std::string k = key(row::scene::set);
    if (!j.contains(k)) return;
    if (!j[k].is_object()) throw InputError(fmt::format("{}: \"{}\" must be an object", where, k));
    for (const auto& [name, value] : j[k].items()) {
        if (name == "compare" || name == "comparison") {
            s.set.emplace_back(name, compare_set_text(name, value, where));
        } else {
            s.set.emplace_back(name, set_value_text(name, value, where));
        }
    }
}

// A keyframe without its own duration lasts the whole scene.
Keyframe read_keyframe(const Json& kj, double scene_duration, const std::string& kwhere) {
    namespace kf = row::keyframe;
    Keyframe f;
    const std::string param = key(kf::param);
    if (!kj.contains(param) || !kj[param].is_string() ||
        !is_number_field(lesson_field(kj[param].get<std::string>(), kwhere + ": param " + kj[param].get<std::string>()))) {
        throw InputError(fmt::format("{}: \"{}\" must be a numeric parameter (theta, factor, position, …)", kwhere, kf::param.key));
    }
    f.param = kj[param].get<std::string>();
    // from and to: numbers; their range is the parameter's, checked along the scene's timeline.
    for (const Field* end : {&kf::from, &kf::to}) {
        const std::string k = key(*end);
        if (!kj.contains(k) || !kj[k].is_number()) throw InputError(fmt::format("{}: \"{}\" must be a number", kwhere, end->key));
    }
    f.from = kj[key(kf::from)].get<double>();
    f.to = kj[key(kf::to)].get<double>();
    // start and duration: the lower bounds in the words scripts know, then the row's whole range.
    const double start = kj.contains(key(kf::start)) && kj[key(kf::start)].is_number() ? kj[key(kf::start)].get<double>() : 0.0;
    const double duration = kj.contains(key(kf::duration)) && kj[key(kf::duration)].is_number() ? kj[key(kf::duration)].get<double>() : 1.0;
    if (start < kf::start.min || !(duration > kf::duration.min)) {
        throw InputError(fmt::format("{}: needs {} >= {} and {} > {}", kwhere, kf::start.key, kf::start.min, kf::duration.key, kf::duration.min));
    }
    f.duration = scene_duration;
    read_seconds(kj, kf::start, f.start, kwhere);
    read_seconds(kj, kf::duration, f.duration, kwhere);
    const std::string easing = key(kf::easing);
    if (kj.contains(easing) && !kj[easing].is_string()) {
        throw InputError(fmt::format("{}: \"{}\" must be one of {} (got {})", kwhere, kf::easing.key, names_text(kf::easing), json_excerpt(kj[easing])));
    }
    if (kj.contains(easing)) f.easing = parse_easing(kj[easing].get<std::string>(), kwhere);
    const std::string log = key(kf::log);
    f.log = f.param == "theta" || f.param == "factor";
    if (kj.contains(log)) {
        if (!kj[log].is_boolean()) throw InputError(fmt::format("{}: \"{}\" must be true or false (got {})", kwhere, kf::log.key, json_excerpt(kj[log])));
        f.log = kj[log].get<bool>();
    }
    if (f.log && (f.from <= 0 || f.to <= 0)) throw InputError(kwhere + ": a log keyframe needs positive values");
    // Each end within its parameter's range (the lab schema's row), named by its keyframe and
    // time in the timeline check's words, rather than by the first time the timeline meets it
    // (a `from` out of range is already in force at t = 0).
    const schema::Field& moved = *schema::by_lesson_name(f.param);
    for (const auto& [value, t] : {std::pair{f.from, f.start}, std::pair{f.to, f.start + f.duration}}) {
        try {
            schema::check(moved, schema::from_number(moved, value));
        } catch (const InputError& e) {
            throw InputError(fmt::format("{} ({} {:.6g} -> {:.6g}) at t = {:.4g} s: {}", kwhere, f.param, f.from, f.to, t, e.what()));
        }
    }
    return f;
}

// A List row: a list of at most its row's count.
const Json* read_list(const Json& j, const Field& f, const std::string& where) {
    const std::string k = key(f);
    if (!j.contains(k)) return nullptr;
    if (!j[k].is_array()) throw InputError(fmt::format("{}: \"{}\" must be a list of at most {}", where, f.key, f.limit));
    return &j[k];
}

void read_keyframes(const Json& j, Scene& s, const std::string& where) {
    const Field& f = row::scene::keyframes;
    const Json* list = read_list(j, f, where);
    if (!list) return;
    if (list->size() > f.limit) {
        throw InputError(fmt::format("{}: {} {}; a scene has at most {}", where, list->size(), f.key, f.limit));
    }
    for (std::size_t k = 0; k < list->size(); ++k) {
        s.keyframes.push_back(read_keyframe((*list)[k], s.duration, fmt::format("{}: {}[{}]", where, f.key, k)));
    }
}

// An annotation's x or y: within what it means at `at` (lesson_schema::coordinate_range). Drawing
// code maps these onto pixels and cells, so anything else (y = 1e300 at a cell) never reaches it.
void check_coordinate(const Json& aj, const std::string& at, const Field& axis, double value, const std::string& awhere) {
    const row::Range r = row::coordinate_range(at, axis);
    const bool whole = !r.whole || value == std::floor(value);
    if (!(value >= r.lo && value <= r.hi) || !whole) {
        throw InputError(fmt::format("{}: \"{}\" = {} is out of range for at = \"{}\" ({}{} .. {})", awhere, axis.key,
                                     json_excerpt(aj[key(axis)]), at, r.whole ? "a whole number " : "", r.lo, r.hi));
    }
}

Annotation read_annotation(const Json& aj, const std::string& awhere) {
    namespace an = row::annotation;
    Annotation n;
    if (!aj.is_object()) throw InputError(fmt::format("{}: must be an object (got {})", awhere, json_excerpt(aj)));
    read_text(aj, an::text, n.text, awhere);
    for (const Field* f : {&an::view, &an::x, &an::y}) {
        const std::string k = key(*f);
        if (aj.contains(k) && !aj[k].is_number()) {
            throw InputError(fmt::format("{}: \"{}\" must be a number (got {})", awhere, f->key, json_excerpt(aj[k])));
        }
    }
    const std::string at = key(an::at);
    if (aj.contains(at) && !aj[at].is_string()) {
        throw InputError(fmt::format("{}: \"{}\" must be one of {} (got {})", awhere, an::at.key, names_text(an::at), json_excerpt(aj[at])));
    }
    const std::string view_key = key(an::view);
    if (aj.contains(view_key)) {
        const double view = aj[view_key].get<double>();  // as a double: no undefined int conversion
        if (!(view >= an::view.min && view <= an::view.max && view == std::floor(view))) {
            throw InputError(fmt::format("{}: \"{}\" = {} must be a whole number {}-{}", awhere, an::view.key, json_excerpt(aj[view_key]),
                                         an::view.min, an::view.max));
        }
        n.view = static_cast<int>(view) - 1;
    }
    if (aj.contains(at)) n.at = aj[at].get<std::string>();
    if (std::find(an::at.names.begin(), an::at.names.end(), n.at) == an::at.names.end()) {
        throw InputError(fmt::format("{}: \"{}\" is \"{}\" (expected {})", awhere, an::at.key, n.at, names_text(an::at)));
    }
    const std::string x = key(an::x), y = key(an::y);
    // A missing pair or position is the first (0), not the label's fraction: the writer saves
    // every coordinate, and 0.5 is no pair, so the default must be one the reader takes back.
    if (row::coordinate_range(n.at, an::x).whole) n.x = row::coordinate_range(n.at, an::x).lo;
    if (n.at == "cell") n.y = row::coordinate_range(n.at, an::y).lo;
    if (aj.contains(x)) n.x = aj[x].get<double>();
    if (aj.contains(y)) n.y = aj[y].get<double>();
    if (aj.contains(x)) check_coordinate(aj, n.at, an::x, n.x, awhere);
    if (aj.contains(y) && (n.at == "label" || n.at == "cell")) check_coordinate(aj, n.at, an::y, n.y, awhere);
    return n;
}

void read_annotations(const Json& j, Scene& s, const std::string& where) {
    const Field& f = row::scene::annotations;
    const Json* list = read_list(j, f, where);
    if (!list) return;
    if (list->size() > f.limit) throw InputError(fmt::format("{}: \"{}\" must be a list of at most {}", where, f.key, f.limit));
    for (std::size_t a = 0; a < list->size(); ++a) {
        s.annotations.push_back(read_annotation((*list)[a], fmt::format("{}: {}[{}]", where, f.key, a)));
    }
}

Scene read_scene(const Json& j, const std::string& where) {
    if (!j.is_object()) throw InputError(where + ": must be an object");
    Scene s;
    read_text(j, row::scene::title, s.title, where);
    read_text(j, row::scene::caption, s.caption, where);
    read_text(j, row::scene::notes, s.notes, where);
    read_seconds(j, row::scene::duration, s.duration, where);
    read_views(j, s, where);
    read_workspace(j, s, where);
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
    const std::vector<int> shown = scene_shown_views(s);
    const bool attention = std::any_of(shown.begin(), shown.end(), [](int v) { return view_reads(v, Product::Attention); });
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
void check_timeline(const Lesson& lesson, int scene, const LabParams& base, const std::string& where, long& checks,
                    LayoutTokens& tokens) {
    const Scene& s = lesson.scenes[static_cast<std::size_t>(scene)];
    const auto check = [&](double t, const std::string& during) {
        if (++checks > kMaxChecks) {
            throw InputError(fmt::format("{}: checking every state of the lesson up to here takes more than {} steps "
                                         "(scenes × keyframes × values): split the lesson",
                                         where, kMaxChecks));
        }
        try {
            check_against_layout(lesson_state(lesson, scene, t, base), s, tokens);
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

std::vector<int> scene_shown_views(const Scene& s) {
    if (!s.views.empty() || !s.workspace) return s.views;
    std::vector<int> views;
    for (View v : workspace_views_of(*s.workspace)) views.push_back(static_cast<int>(v));
    return views;
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

// A scene's `set` alone: its keyframes wait at their start values, which are not its own state.
LabParams scene_set_state(const Scene& scene, const LabParams& base) {
    Scene still = scene;
    still.keyframes.clear();
    return lesson_state(Lesson{.title = "", .scenes = {still}, .warnings = {}}, 0, 0.0, base);
}

LabParams lesson_first_state(const Lesson& lesson) {
    return lesson.scenes.empty() ? LabParams{} : scene_set_state(lesson.scenes.front(), LabParams{});
}

const LabParams& scene_base(const Lesson& lesson, int scene, const LabParams& first) {
    static const LabParams defaults;
    return lesson.scenes.at(static_cast<std::size_t>(scene)).set.empty() ? first : defaults;
}

Lesson parse_lesson(std::string_view text, std::string_view source) {
    std::vector<std::string> duplicates;
    Json j = parse_json_input(text, source, &duplicates);
    const Field& scenes_row = row::lesson::scenes;
    const std::string scenes_key = key(scenes_row);
    if (!j.is_object() || !j.contains(scenes_key) || !j[scenes_key].is_array() || j[scenes_key].size() < scenes_row.least) {
        throw InputError(fmt::format("{}: a lesson is an object with a non-empty \"{}\" list", source, scenes_row.key));
    }
    const Json& scenes = j[scenes_key];
    if (scenes.size() > scenes_row.limit) {
        throw InputError(fmt::format("{}: {} {}; a lesson has at most {}", source, scenes.size(), scenes_row.key, scenes_row.limit));
    }
    Lesson lesson;
    for (const std::string& d : duplicates) lesson.warnings.push_back(fmt::format("{}: {}", source, d));
    lesson.title = "Lesson";
    read_text(j, row::lesson::title, lesson.title, std::string(source));
    read_theme(j, lesson, std::string(source));
    long checks = 0;
    LayoutTokens tokens;
    LabParams first;  // what every scene is read against, once scene 1 is read
    for (std::size_t i = 0; i < scenes.size(); ++i) {
        const std::string where = fmt::format("{}: {}", source, scene_name(i, scenes[i]));
        try {
            lesson.scenes.push_back(read_scene(scenes[i], where));
        } catch (const Json::exception& e) {  // a field of the wrong type, read through value()
            throw InputError(fmt::format("{}: {}", where, e.what()));
        }
        if (i == 0) {
            try {
                first = lesson_first_state(lesson);
            } catch (const InputError& e) {  // scene 1's own state: its `set` at t = 0
                throw InputError(fmt::format("{}: at t = 0 s: {}", where, e.what()));
            }
        }
        check_timeline(lesson, static_cast<int>(i), scene_base(lesson, static_cast<int>(i), first), where, checks, tokens);
    }
    return lesson;
}

Lesson load_lesson(const std::string& path_or_name) {
    // A path (a '/', a .json/.ropelesson name, a bare word naming no library lesson but a file) is a
    // file; anything else a library lesson's name (library.h: names_lesson_file).
    if (names_lesson_file(path_or_name)) return parse_lesson(read_input_file(path_or_name, "lesson"), path_or_name);
    if (const LibraryLesson* l = find_library_lesson(path_or_name)) return parse_lesson(l->json, fmt::format("built-in lesson {}", l->name));
    throw InputError(fmt::format("no built-in lesson \"{}\" (the library: {}; a file is opened by its path, ./{})", path_or_name,
                                 library_names_text(), path_or_name));
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
