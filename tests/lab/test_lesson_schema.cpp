// The lesson schema (src/lesson/lesson_schema.h): every field of a lesson file round-trips through
// the writer and the reader at its limit, one past it is refused naming the file and the field,
// and no other copy of a lesson key or limit is left in the reader, the writer, the Lesson panel
// or the lab's lesson editing (round 3's 4096-byte captions came from such a copy).
#include <cmath>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "lesson/lesson.h"
#include "lesson/lesson_schema.h"
#include "state/schema.h"

namespace ropelab {
namespace {

using Json = nlohmann::ordered_json;
using lesson_schema::Field, lesson_schema::Level, lesson_schema::Type;
namespace ls = lesson_schema;

constexpr const char* kFile = "schema.json";

std::string k(const Field& f) { return std::string(f.key); }

// The smallest valid lesson, built from the rows' keys; a keyframe and an annotation are added
// when the row under test lives in one.
Json base_scene() { return {{k(ls::scene::title), "s"}, {k(ls::scene::caption), "c"}, {k(ls::scene::views), {3}}}; }
Json base_keyframe() { return {{k(ls::keyframe::param), "position"}, {k(ls::keyframe::from), 0}, {k(ls::keyframe::to), 9}}; }
Json base_annotation() { return {{k(ls::annotation::text), "t"}}; }

Json base_lesson(const Field& f) {
    Json scene = base_scene();
    if (f.level == Level::Keyframe) scene[k(ls::scene::keyframes)] = Json::array({base_keyframe()});
    if (f.level == Level::Annotation) scene[k(ls::scene::annotations)] = Json::array({base_annotation()});
    return {{k(ls::lesson::title), "T"}, {k(ls::lesson::scenes), Json::array({scene})}};
}

// The object that holds the row's key.
Json& holder(Json& lesson, const Field& f) {
    Json& scene = lesson[k(ls::lesson::scenes)][0];
    switch (f.level) {
        case Level::Lesson: return lesson;
        case Level::Scene: return scene;
        case Level::Keyframe: return scene[k(ls::scene::keyframes)][0];
        case Level::Annotation: return scene[k(ls::scene::annotations)][0];
    }
    return lesson;
}

std::string chars(std::size_t n) {
    std::string s;
    for (std::size_t i = 0; i < n; ++i) s += "\u00e9";  // two bytes: limits count characters
    return s;
}

// A value for the row, and what else its holder needs for it to be read (an annotation's `at`,
// a scene's views for `hide`).
struct Case {
    Json value;
    Json with = Json::object();  // more keys in the holder
    std::string names = "";      // what the refusal names, when not the row's key
};

const schema::Field& position() { return *schema::by_lesson_name("position"); }

std::vector<Case> at_limit(const Field& f) {
    switch (f.type) {
        case Type::Text: return {{chars(f.limit)}};
        case Type::Number:
            if (f.range_by_param) return {{position().min}, {position().max}};
            if (f.range_by_at) {
                std::vector<Case> out;
                for (std::string_view at : ls::kAtNames) {
                    const ls::Range r = ls::coordinate_range(at, f);
                    Json with = {{k(ls::annotation::at), at}, {k(ls::annotation::view), 5}};
                    // The other axis must lie in its own range too.
                    const Field& other = &f == &ls::annotation::x ? ls::annotation::y : ls::annotation::x;
                    with[k(other)] = ls::coordinate_range(at, other).lo;
                    out.push_back({r.lo, with});
                    out.push_back({r.hi, with});
                }
                return out;
            }
            if (f.min_open) return {{f.max}};
            return {{f.min}, {f.max}};
        case Type::Whole: return {{f.min}, {f.max}};
        case Type::Switch: {
            const Json positive = {{k(ls::keyframe::from), 1}, {k(ls::keyframe::to), 9}};  // log needs them
            return {{true, positive}, {false, positive}};
        }
        case Type::Name: {
            if (&f == &ls::keyframe::param) return {{"position"}, {"theta", {{k(ls::keyframe::from), 100}, {k(ls::keyframe::to), 10000}}}};
            std::vector<Case> out;
            for (std::string_view n : f.names) out.push_back({std::string(n)});
            return out;
        }
        case Type::Views: {
            if (&f == &ls::scene::hide) {
                // As many as the scene shows: every view that can hide, each shown.
                Json views = Json::array();
                for (int v = 0; v < kViewCount; ++v) {
                    if (can_hide(static_cast<View>(v)) && views.size() < f.limit) views.push_back(v + 1);
                }
                return {{views, {{k(ls::scene::views), views}}}};
            }
            Json views = Json::array();
            for (std::size_t v = 1; v <= f.limit; ++v) views.push_back(static_cast<int>(v));
            return {{views}};
        }
        case Type::Settings: return {{{{"position", position().max}}}};
        case Type::List: {
            const Json item = &f == &ls::lesson::scenes ? base_scene() : &f == &ls::scene::keyframes ? base_keyframe() : base_annotation();
            return {{Json(std::vector<Json>(f.limit, item))}};
        }
    }
    return {};
}

std::vector<Case> past_limit(const Field& f) {
    const auto past = [](double x) { return std::nextafter(x, HUGE_VAL); };
    const auto before = [](double x) { return std::nextafter(x, -HUGE_VAL); };
    switch (f.type) {
        case Type::Text: return {{chars(f.limit + 1)}};
        case Type::Number:
            // position is a whole number: from_number rounds a hair past the end back onto it.
            if (f.range_by_param) return {{position().max + 1, {}, "position"}, {position().min - 1, {}, "position"}};
            if (f.range_by_at) {
                const Json with = {{k(ls::annotation::at), "cell"}, {k(ls::annotation::view), 5}, {k(ls::annotation::x), 0},
                                   {k(ls::annotation::y), 0}};
                return {{ls::coordinate_range("cell", f).hi + 1, with}, {-1, with}};
            }
            return {{past(f.max)}, {f.min_open ? f.min : before(f.min)}, {"4"}};
        case Type::Whole: return {{f.max + 1}, {f.min - 1}, {f.min + 0.5}};
        case Type::Switch: return {{"yes"}, {1}};
        case Type::Name:
            if (&f == &ls::keyframe::param) return {{"layout"}, {"warp"}};
            return {{"bounce"}, {5}};
        case Type::Views: {
            Json views = Json::array();
            for (std::size_t v = 1; v <= f.limit + 1; ++v) views.push_back(static_cast<int>(v));
            const Json shown = Json::array({1, 2, 3, 4});
            if (&f == &ls::scene::hide) return {{views, {{k(ls::scene::views), shown}}}, {Json::array({12}), {{k(ls::scene::views), shown}}}};
            return {{views}, {Json::array()}, {Json::array({static_cast<int>(f.max) + 1})}};
        }
        case Type::Settings: return {{{{"position", position().max + 1}}, {}, "set.position"}, {Json::array({1})}};
        case Type::List: {
            const Json item = &f == &ls::lesson::scenes ? base_scene() : &f == &ls::scene::keyframes ? base_keyframe() : base_annotation();
            return {{Json(std::vector<Json>(f.limit + 1, item))}, {5}};
        }
    }
    return {};
}

Json with_value(const Field& f, const Case& c) {
    Json lesson = base_lesson(f);
    Json& h = holder(lesson, f);
    for (const auto& [key, value] : c.with.items()) h[key] = value;
    h[k(f)] = c.value;
    return lesson;
}

std::string lesson_refusal(const Json& lesson) {
    try {
        parse_lesson(lesson.dump(), kFile);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(LessonSchema, EveryKeyIsDeclaredOncePerLevel) {
    std::set<std::pair<Level, std::string_view>> seen;
    for (const Field* f : ls::fields()) {
        EXPECT_TRUE(seen.insert({f->level, f->key}).second) << f->key;
        EXPECT_FALSE(f->help.empty()) << f->key;
        if (f->type == Type::Text || f->type == Type::List || f->type == Type::Views) {
            EXPECT_GT(f->limit, 0u) << f->key;
        }
        if (f->type == Type::Number && !f->range_by_at && !f->range_by_param) {
            EXPECT_LT(f->min, f->max) << f->key;
        }
    }
    EXPECT_EQ(ls::json_path(ls::scene::caption, 3), "scenes[3].caption");
    EXPECT_EQ(ls::json_path(ls::keyframe::easing, 0, 2), "scenes[0].keyframes[2].easing");
    EXPECT_EQ(ls::json_path(ls::lesson::title), "title");
}

// Write → read gives back the same lesson with every field at its limit, and the file written
// holds the value that was read.
TEST(LessonSchema, EveryFieldRoundTripsAtItsLimit) {
    for (const Field* f : ls::fields()) {
        for (const Case& c : at_limit(*f)) {
            const Json file = with_value(*f, c);
            const std::string path = ls::json_path(*f);
            Lesson read;
            try {
                read = parse_lesson(file.dump(), kFile);
            } catch (const InputError& e) {
                ADD_FAILURE() << path << " = " << c.value.dump().substr(0, 80) << " refused: " << e.what();
                continue;
            }
            const std::string written = lesson_to_json(read);
            const Lesson again = parse_lesson(written, kFile);
            EXPECT_EQ(again.title, read.title) << path;
            EXPECT_EQ(again.theme, read.theme) << path;
            EXPECT_TRUE(again.scenes == read.scenes) << path << " = " << c.value.dump().substr(0, 80);
            Json back = Json::parse(written);
            const Json& h = holder(back, *f);
            ASSERT_TRUE(h.contains(k(*f))) << path << " was not written";
            // A list's items are written with their defaulted fields: compared by count.
            if (f->type == Type::List) {
                EXPECT_EQ(h[k(*f)].size(), c.value.size()) << path;
            }
            else EXPECT_EQ(h[k(*f)], c.value) << path;
        }
    }
}

// One past the limit is refused, naming the file, the field and (where the reader says it) the
// scene and the keyframe or annotation.
TEST(LessonSchema, OnePastTheLimitIsRefusedNamingTheField) {
    for (const Field* f : ls::fields()) {
        for (const Case& c : past_limit(*f)) {
            const std::string e = lesson_refusal(with_value(*f, c));
            const std::string path = ls::json_path(*f) + " = " + c.value.dump().substr(0, 60);
            ASSERT_FALSE(e.empty()) << path << " was accepted";
            EXPECT_EQ(e.rfind(kFile, 0), 0u) << path << ": " << e;
            EXPECT_NE(e.find(c.names.empty() ? k(*f) : c.names), std::string::npos) << path << ": " << e;
            if (f->level == Level::Scene) {
                EXPECT_NE(e.find("scene 1"), std::string::npos) << path << ": " << e;
            }
            if (f->level == Level::Keyframe) {
                EXPECT_NE(e.find("keyframes[0]"), std::string::npos) << path << ": " << e;
            }
            if (f->level == Level::Annotation) {
                EXPECT_NE(e.find("annotations[0]"), std::string::npos) << path << ": " << e;
            }
        }
    }
    // The value is named too: a text's count and excerpt, a number as written.
    const std::string e = lesson_refusal(with_value(ls::scene::caption, {chars(ls::scene::caption.limit + 1)}));
    EXPECT_NE(e.find(std::to_string(ls::scene::caption.limit + 1) + " characters"), std::string::npos) << e;
    EXPECT_NE(e.find("\u00e9\u00e9\u00e9"), std::string::npos) << e;
    EXPECT_NE(lesson_refusal(with_value(ls::scene::duration, {601})).find("(got 601)"), std::string::npos);
}

// A lesson's "theme" is read as the Theme it names (the lab schema's --theme names, in order),
// written back only when given, and refused naming the field and the value.
TEST(LessonSchema, ThemeIsReadWrittenAndRefusedByName) {
    const std::pair<const char*, Theme> themes[] = {{"dark", Theme::Dark}, {"light", Theme::Light}, {"projector", Theme::Projector}};
    for (const auto& [name, theme] : themes) {
        const Lesson read = parse_lesson(with_value(ls::lesson::theme, {name}).dump(), kFile);
        ASSERT_TRUE(read.theme.has_value()) << name;
        EXPECT_EQ(*read.theme, theme) << name;
        EXPECT_EQ(Json::parse(lesson_to_json(read))[k(ls::lesson::theme)], name);
    }
    const Lesson plain = parse_lesson(base_lesson(ls::lesson::title).dump(), kFile);
    EXPECT_FALSE(plain.theme.has_value());
    EXPECT_FALSE(Json::parse(lesson_to_json(plain)).contains(k(ls::lesson::theme)));
    const std::string e = lesson_refusal(with_value(ls::lesson::theme, {"neon"}));
    EXPECT_NE(e.find("\"theme\" has \"neon\""), std::string::npos) << e;
    EXPECT_NE(e.find("projector"), std::string::npos) << e;
}

// The Lesson panel's text fields hold exactly what the reader takes: its buffer size is the row's.
TEST(LessonSchema, PanelFieldsHoldWhatTheReaderTakes) {
    for (const Field* f : {&ls::scene::title, &ls::scene::caption, &ls::scene::notes}) {
        EXPECT_EQ(ls::input_chars(*f), f->limit) << f->key;
    }
    EXPECT_GE(ls::input_chars(ls::scene::views), ls::scene::views.limit * 4) << "\"11, \" per view";
}

std::string source_without_comments(const std::string& relative) {
    std::ifstream in(std::string(ROPELAB_SOURCE_DIR) + "/" + relative);
    EXPECT_TRUE(in) << relative;
    std::string out, line;
    while (std::getline(in, line)) {
        const std::size_t comment = line.find("//");
        out += (comment == std::string::npos ? line : line.substr(0, comment)) + "\n";
    }
    return out;
}

// The reader, the writer, the Lesson panel and the lab's lesson editing take every key and
// limit from the schema: none of them spells a lesson key as a string or a limit as a number.
TEST(LessonSchema, NoOtherCopyOfAKeyOrLimitRemains) {
    const char* files[] = {"src/lesson/lesson.cpp", "src/lesson/lesson_writer.cpp", "src/lesson/lesson_format.h",
                           "src/views/panel/lesson.cpp", "src/lab/lesson_editing.cpp"};
    std::set<std::string> numbers;
    for (const Field* f : ls::fields()) {
        for (double n : {static_cast<double>(f->limit), f->max}) {
            if (n >= 10) numbers.insert(fmt::format("{}", n));  // one digit is any small count
        }
    }
    for (const char* file : files) {
        const std::string text = source_without_comments(file);
        for (const Field* f : ls::fields()) {
            for (const std::string& spelled : {"\"" + k(*f) + "\"", "\\\"" + k(*f) + "\\\""}) {
                EXPECT_EQ(text.find(spelled), std::string::npos) << file << " spells the key " << spelled;
            }
        }
        for (const std::string& n : numbers) {
            const std::regex literal("(^|[^0-9A-Za-z_.])" + n + "([^0-9.]|$)");
            EXPECT_FALSE(std::regex_search(text, literal)) << file << " has the limit " << n << " as a number";
        }
    }
}

}  // namespace
}  // namespace ropelab
