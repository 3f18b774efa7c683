#pragma once
// The lesson file's schema: one row per field of a lesson — its JSON key, its type, its limit
// (characters for text, a range for numbers, a count for lists) and how it is read and written.
// The reader (lesson.cpp), the writer (lesson_writer.cpp), the Lesson panel's text fields and the
// lab's lesson editing all take keys and limits from these rows, so that a limit is declared once
// and the loader, the saver and the editor can never disagree again (round 3's captions cut to
// 4096 bytes on save came from three copies of one limit). A `set` entry's value is a lab field:
// its range is the lab schema's (state/schema.h), not this one's.
#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "state/params.h"  // kViewCount: views are numbered 1 .. the view table's count

namespace ropelab::lesson_schema {

// Where a field lives: the file's top object, a scene, a scene's keyframe or annotation.
enum class Level { Lesson, Scene, Keyframe, Annotation };

enum class Type {
    Text,      // a string of at most `limit` characters (UTF-8 code points, core/utf8.h)
    Number,    // a finite number in [min, max] ((min, max] with min_open)
    Whole,     // a whole number in [min, max]
    Switch,    // true or false
    Name,      // one of `names`
    Views,     // a list of 1-based view numbers, `least` .. `limit` of them
    Settings,  // an object: lesson parameter → value, each checked by the lab schema's row
    List,      // a list of objects of the next level, `least` .. `limit` of them
};

// How a field is read and written.
enum class Presence {
    Required,  // refused when missing; always written
    Defaulted, // a default when missing; always written, so that a saved file says what plays
    Omitted,   // a default (empty) when missing; written only when not empty
};

struct Field {
    Level level;
    std::string_view key;  // the JSON key
    Type type;
    Presence presence;
    std::size_t limit = 0;  // Text: characters; Views and List: most elements
    std::size_t least = 0;  // Views and List: fewest elements
    double min = 0, max = 0;
    bool min_open = false;  // Number: min itself is refused
    std::span<const std::string_view> names = {};
    bool range_by_at = false;   // Number: the range depends on the annotation's `at` (coordinate_range)
    bool range_by_param = false; // Number: the range is the keyframe's parameter's (the lab schema's row)
    std::string_view help = "";
};

// The names of Easing's values, in its order; where an annotation is placed.
inline constexpr std::array<std::string_view, 4> kEasingNames = {"linear", "ease-in", "ease-out", "ease-in-out"};
inline constexpr std::array<std::string_view, 4> kAtNames = {"label", "distance", "pair", "cell"};
// The names of Theme's values, in its order (the lab schema's --theme names).
inline constexpr std::array<std::string_view, 3> kThemeNames = {"dark", "light", "projector"};

// The longest a scene (and so a keyframe or a recorded animation) plays, in seconds.
inline constexpr double kMaxSeconds = 600;

// ---- the rows ---------------------------------------------------------------------------------
// Bounds keep checking a lesson quick (it is read before a window opens): far beyond the built-in
// lesson's scenes and keyframes. A title is one line; a caption a paragraph the room reads; notes
// a page read aloud; an annotation a label on a plot.
namespace lesson {
inline constexpr Field title{.level = Level::Lesson, .key = "title", .type = Type::Text, .presence = Presence::Defaulted,
                             .limit = 512, .help = "The lesson's name (default \"Lesson\")"};
// The look the lesson is presented in when the user chose none (--theme or the Display section's
// Theme win over it); without it, presenting is light.
inline constexpr Field theme{.level = Level::Lesson, .key = "theme", .type = Type::Name, .presence = Presence::Omitted,
                             .names = kThemeNames, .help = "The theme presenting uses unless the user chose one (dark, light, projector)"};
inline constexpr Field scenes{.level = Level::Lesson, .key = "scenes", .type = Type::List, .presence = Presence::Required,
                              .limit = 256, .least = 1, .help = "The scenes, in order"};
}  // namespace lesson

namespace scene {
inline constexpr Field title{.level = Level::Scene, .key = "title", .type = Type::Text, .presence = Presence::Required,
                             .limit = 512, .help = "Shown above the scene's views"};
inline constexpr Field caption{.level = Level::Scene, .key = "caption", .type = Type::Text, .presence = Presence::Required,
                               .limit = 8192, .help = "What the room reads under the title"};
inline constexpr Field notes{.level = Level::Scene, .key = "notes", .type = Type::Text, .presence = Presence::Omitted,
                             .limit = 8192, .help = "The speaker's notes, shown only in the presenter window"};
inline constexpr Field duration{.level = Level::Scene, .key = "duration", .type = Type::Number, .presence = Presence::Defaulted,
                                .min = 0, .max = kMaxSeconds, .min_open = true, .help = "Seconds the scene plays (default 4)"};
// A scene shows its views, or a workspace's, or (neither given) the workspace the lab is in.
inline constexpr Field views{.level = Level::Scene, .key = "views", .type = Type::Views, .presence = Presence::Omitted,
                             .limit = 4, .least = 1, .min = 1, .max = kViewCount,
                             .help = "The views shown side by side (four: a 2×2 grid); or give a workspace"};
inline constexpr Field workspace{.level = Level::Scene, .key = "workspace", .type = Type::Name, .presence = Presence::Omitted,
                                 .names = kWorkspaceNames,
                                 .help = "A workspace's views instead of a list (overview, rotation, distance, …, all)"};
// At most the scene's own views, so never more than `views` allows.
inline constexpr Field hide{.level = Level::Scene, .key = "hide", .type = Type::Views, .presence = Presence::Omitted,
                            .limit = views.limit, .min = 1, .max = kViewCount,
                            .help = "Views among the scene's own (or its workspace's) whose curves wait for R"};
inline constexpr Field set{.level = Level::Scene, .key = "set", .type = Type::Settings, .presence = Presence::Omitted,
                           .help = "Lab fields by lesson name, applied at t = 0 (each value in its lab schema range)"};
inline constexpr Field keyframes{.level = Level::Scene, .key = "keyframes", .type = Type::List, .presence = Presence::Omitted,
                                 .limit = 32, .help = "Numbers moving over time"};
inline constexpr Field annotations{.level = Level::Scene, .key = "annotations", .type = Type::List, .presence = Presence::Omitted,
                                   .limit = 32, .help = "Labels on the views"};
}  // namespace scene

namespace keyframe {
inline constexpr Field param{.level = Level::Keyframe, .key = "param", .type = Type::Name, .presence = Presence::Required,
                             .help = "A numeric lesson parameter (the lab schema's lesson names)"};
inline constexpr Field from{.level = Level::Keyframe, .key = "from", .type = Type::Number, .presence = Presence::Required,
                            .range_by_param = true, .help = "The value at the keyframe's start"};
inline constexpr Field to{.level = Level::Keyframe, .key = "to", .type = Type::Number, .presence = Presence::Required,
                          .range_by_param = true, .help = "The value at its end"};
inline constexpr Field start{.level = Level::Keyframe, .key = "start", .type = Type::Number, .presence = Presence::Defaulted,
                             .min = 0, .max = kMaxSeconds, .help = "Seconds into the scene (default 0)"};
inline constexpr Field duration{.level = Level::Keyframe, .key = "duration", .type = Type::Number, .presence = Presence::Defaulted,
                                .min = 0, .max = kMaxSeconds, .min_open = true,
                                .help = "Seconds it lasts (default: the scene's duration)"};
inline constexpr Field easing{.level = Level::Keyframe, .key = "easing", .type = Type::Name, .presence = Presence::Defaulted,
                              .names = kEasingNames, .help = "How it moves (default ease-in-out)"};
inline constexpr Field log{.level = Level::Keyframe, .key = "log", .type = Type::Switch, .presence = Presence::Defaulted,
                           .help = "Interpolate on a log scale (default: true for theta and factor)"};
}  // namespace keyframe

namespace annotation {
inline constexpr Field text{.level = Level::Annotation, .key = "text", .type = Type::Text, .presence = Presence::Required,
                            .limit = 512, .help = "The label"};
inline constexpr Field view{.level = Level::Annotation, .key = "view", .type = Type::Whole, .presence = Presence::Defaulted,
                            .min = 1, .max = kViewCount, .help = "The 1-based view it is drawn on (default 3)"};
inline constexpr Field at{.level = Level::Annotation, .key = "at", .type = Type::Name, .presence = Presence::Defaulted,
                          .names = kAtNames, .help = "What x and y mean (default label)"};
inline constexpr Field x{.level = Level::Annotation, .key = "x", .type = Type::Number, .presence = Presence::Defaulted,
                         .range_by_at = true, .help = "label: a fraction of the view; distance: Δ; pair, cell: a pair (default 0.5)"};
inline constexpr Field y{.level = Level::Annotation, .key = "y", .type = Type::Number, .presence = Presence::Defaulted,
                         .range_by_at = true, .help = "label: a fraction of the view; cell: a position (default 0.1)"};
}  // namespace annotation

// Every row, in file order.
std::span<const Field* const> fields();

// Where an annotation's x and y may lie, by `at` (a fraction of the view, a distance Δ, a pair index, a
// position), and a keyframe's from and to (their parameter's range, checked along the timeline).
struct Range {
    double lo, hi;
    bool whole;  // a pair, a position or a view: an integer
};
Range coordinate_range(std::string_view at, const Field& axis);

// A text field's length in characters, as the reader counts it.
std::size_t characters(std::string_view text);
// The most characters an input field for this row holds: the row's own limit, so that a text the
// reader took is never cut by the panel that edits it.
std::size_t input_chars(const Field& f);
// The range in words, for messages and tooltips: "(0, 600]", "0 .. 600".
std::string range_text(const Field& f);
// Whether a seconds value is one the row takes (duration: (0, max]; start: [0, max]).
bool in_range(const Field& f, double x);
// A row's JSON path in a file, for tests and messages: "scenes[3].caption",
// "scenes[0].keyframes[2].easing", "title".
std::string json_path(const Field& f, std::size_t scene = 0, std::size_t item = 0);

}  // namespace ropelab::lesson_schema
