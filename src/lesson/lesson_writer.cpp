// The lesson writer, the reader's inverse: a Lesson as the JSON file `parse_lesson` reads back to
// the same lesson, and a scene made from the lab's state (what Record scene adds).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.h"
#include "core/json_input.h"
#include "lesson/lesson.h"
#include "lesson/lesson_format.h"
#include "lesson/lesson_schema.h"
#include "state/compare.h"
#include "state/schema.h"

namespace ropelab {

using lesson_format::compare_specs, lesson_format::is_number_field;
// Every key and limit below is a row of the lesson schema (lesson_schema.h).
namespace row = lesson_schema;

namespace {

// A whole number as a JSON integer (4096, not 4096.0), any other as a double; nlohmann prints
// the shortest text that reads back as the same double.
Json number_json(double x) {
    if (x == std::floor(x) && std::abs(x) < 9e15) return static_cast<std::int64_t>(x);
    return x;
}

// A `set` value as the type the parser reads back to the same text: a number where the text is
// the parser's own printing of one, true/false for a switch, else the text itself.
Json set_value_json(const std::string& name, const std::string& text) {
    if (name == "compare") {
        Json specs = Json::array();
        for (const std::string& spec : compare_specs(text)) specs.push_back(spec);
        return specs;
    }
    if (name == "comparison") return text;
    const schema::Field& f = *schema::by_lesson_name(name);
    if (f.kind == schema::Kind::Bool && (text == "true" || text == "false")) return text == "true";
    if (is_number_field(f) && !text.empty()) {
        char* end = nullptr;
        const double x = std::strtod(text.c_str(), &end);
        if (*end == '\0' && std::isfinite(x) && fmt::format("{:.17g}", x) == text) return number_json(x);
    }
    return text;
}

// Writes `value` under the row's key as its presence says: Omitted rows only when not empty.
void put(Json& j, const row::Field& f, Json value) {
    const bool empty = value.is_string() ? value.get_ref<const std::string&>().empty() : value.empty();
    if (f.presence == row::Presence::Omitted && empty) return;
    j[std::string(f.key)] = std::move(value);
}

Json views_json(const std::vector<int>& views) {
    Json list = Json::array();
    for (int v : views) list.push_back(v + 1);
    return list;
}

Json keyframe_json(const Keyframe& k) {
    namespace kf = row::keyframe;
    Json j = Json::object();
    put(j, kf::param, k.param);
    put(j, kf::from, number_json(k.from));
    put(j, kf::to, number_json(k.to));
    put(j, kf::start, number_json(k.start));
    put(j, kf::duration, number_json(k.duration));
    put(j, kf::easing, std::string(kf::easing.names[static_cast<std::size_t>(k.easing)]));
    put(j, kf::log, k.log);
    return j;
}

Json annotation_json(const Annotation& a) {
    namespace an = row::annotation;
    Json j = Json::object();
    put(j, an::text, a.text);
    put(j, an::view, a.view + 1);
    put(j, an::at, a.at);
    put(j, an::x, number_json(a.x));
    put(j, an::y, number_json(a.y));
    return j;
}

Json scene_json(const Scene& s) {
    namespace sc = row::scene;
    Json j = Json::object();
    put(j, sc::title, s.title);
    put(j, sc::caption, s.caption);
    put(j, sc::notes, s.notes);
    put(j, sc::duration, number_json(s.duration));
    put(j, sc::views, views_json(s.views));
    put(j, sc::workspace, s.workspace ? std::string(workspace_row(*s.workspace).name) : std::string());
    put(j, sc::hide, views_json(s.hide));
    Json set = Json::object();
    for (const auto& [name, text] : s.set) set[name] = set_value_json(name, text);
    put(j, sc::set, std::move(set));
    Json keyframes = Json::array();
    for (const Keyframe& k : s.keyframes) keyframes.push_back(keyframe_json(k));
    put(j, sc::keyframes, std::move(keyframes));
    Json annotations = Json::array();
    for (const Annotation& a : s.annotations) annotations.push_back(annotation_json(a));
    put(j, sc::annotations, std::move(annotations));
    return j;
}

// A field's value as a `set` text, numbers as the parser prints them.
std::string set_text(const schema::Field& f, const schema::Value& v) {
    if (const auto* x = std::get_if<double>(&v)) return fmt::format("{:.17g}", *x);
    return schema::value_text(f, v);
}

bool settable(const schema::Field& f) { return !f.lesson.empty() && f.slot == 0; }

std::optional<double> number_of(const schema::Value& v) {
    if (const auto* x = std::get_if<double>(&v)) return *x;
    if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
    return std::nullopt;
}

// A compared setting as a SPEC that gives it back over this base: its source when that alone
// does, else key=value items over the base (its model's fields that differ, its name, colour).
std::string compared_spec(const LabParams& p, int slot) {
    const ComparedSetting& c = p.compared[static_cast<std::size_t>(slot - 1)];
    try {
        const ComparedSetting again = parse_compare_spec(c.source, p);
        if (again.model == c.model && again.name == c.name && again.colour == c.colour) return c.source;
    } catch (const InputError&) {
        // "base + theta=…" names how it was made, not a SPEC: items below
    }
    std::string items;
    for (const schema::Field& f : schema::fields()) {
        if (f.slot != slot || f.lesson.empty()) continue;
        const std::string key(f.lesson.substr(f.lesson.find('.') + 1));
        const schema::Field* base = schema::by_lesson_name(key);
        const schema::Value v = f.get(p);
        if (base && base->slot == 0 && base->get(p) == v) continue;
        if (key == "colour" && c.colour == SettingColour::Auto) continue;
        items += (items.empty() ? "" : ",") + key + "=" + set_text(f, v);
    }
    return items;
}

std::string compare_text(const LabParams& p) {
    std::string text;
    for (int i = 1; i <= p.compared_count; ++i) text += (i > 1 ? "\n" : "") + compared_spec(p, i);
    return text;
}

}  // namespace

std::string lesson_to_json(const Lesson& lesson) {
    Json j = Json::object();
    put(j, row::lesson::title, lesson.title);
    put(j, row::lesson::theme, lesson.theme ? std::string(row::lesson::theme.names[static_cast<std::size_t>(*lesson.theme)]) : "");
    Json scenes = Json::array();
    for (const Scene& s : lesson.scenes) scenes.push_back(scene_json(s));
    put(j, row::lesson::scenes, std::move(scenes));
    return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

Scene scene_of_state(const LabParams& state, const LabParams* from, double seconds, const LabParams* over) {
    Scene s;
    s.title = "Scene";
    // What is on screen: the scene's views, the view shown large, else the workspace as shown
    // (All's eleven too: a workspace, not two views picked for it).
    if (!state.scene_views.empty()) s.views = state.scene_views;
    else if (state.focused_view >= 0) s.views = {state.focused_view};
    else s.workspace = state.workspace;
    // The preset first: it loads a whole model, which the fields after it then adjust. It is named
    // when it differs from the defaults' or from the first state's, which the scene plays over.
    const schema::Field& preset = *schema::by_lesson_name("preset");
    LabParams base;
    LabParams first = over ? *over : LabParams{};
    if (state.preset != base.preset || state.preset != first.preset) {
        try {
            schema::assign_text(base, preset, state.preset);
            schema::assign_text(first, preset, state.preset);
            s.set.emplace_back("preset", state.preset);
        } catch (const InputError&) {
            base = LabParams{};  // a config's path is not a preset: its fields are set one by one
            first = over ? *over : LabParams{};
        }
    }
    for (const schema::Field& f : schema::fields()) {
        if (!settable(f) || f.lesson == "preset") continue;
        const schema::Value v = f.get(state);
        if (v != f.get(base) || v != f.get(first)) s.set.emplace_back(std::string(f.lesson), set_text(f, v));
    }
    if (state.compared_count > 0) s.set.emplace_back("compare", compare_text(state));
    if (!from || !(seconds > 0)) return s;
    for (const schema::Field& f : schema::fields()) {
        if (!settable(f) || !is_number_field(f)) continue;
        // head_dim 64 → 128 passes 65; a seed between two seeds is a third set of vectors.
        if (f.kind == schema::Kind::Int && (f.path.starts_with("model.") || f.lesson == "seed")) continue;
        const auto a = number_of(f.get(*from)), b = number_of(f.get(state));
        if (!a || !b || *a == *b) continue;
        Keyframe k;
        k.param = std::string(f.lesson);
        k.from = *a;
        k.to = *b;
        k.duration = seconds;
        k.log = (k.param == "theta" || k.param == "factor") && *a > 0 && *b > 0;
        s.keyframes.push_back(k);
        if (s.keyframes.size() == row::scene::keyframes.limit) break;
    }
    s.duration = std::max(s.duration, seconds);
    return s;
}

Lesson rebased(const Lesson& lesson, const LabParams& old_first) {
    Lesson out = lesson;
    if (out.scenes.empty()) return out;
    std::vector<bool> without_set;
    for (const Scene& scene : out.scenes) without_set.push_back(scene.set.empty());
    // Scene 1 first (over the defaults): the others are read against what it then shows.
    if (without_set[0]) out.scenes[0].set = scene_of_state(old_first).set;
    const LabParams first = lesson_first_state(out);
    for (std::size_t i = 1; i < out.scenes.size(); ++i) {
        if (without_set[i]) out.scenes[i].set = scene_of_state(old_first, nullptr, 0.0, &first).set;
    }
    return out;
}

std::vector<std::string> lesson_differences(const LabParams& a, const LabParams& b) {
    std::vector<std::string> names;
    for (const schema::Field& f : schema::fields()) {
        if (f.lesson.empty() || !(schema::in_use(f, a) || schema::in_use(f, b))) continue;
        if (f.get(a) != f.get(b)) names.emplace_back(f.lesson);
    }
    if (a.compared_count != b.compared_count) names.emplace_back("compare");
    return names;
}

}  // namespace ropelab
