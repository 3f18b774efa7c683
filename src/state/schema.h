#pragma once
// The lab state's schema: one row per field of LabParams (and of the ModelConfig inside it) with
// its path in session JSON, its command-line flag, its lesson name, its kind and valid range, and
// which derived data a change invalidates. Sessions, share strings, lessons, the command line,
// Reset, the recompute keys and the export child all read this table, so adding a field is one
// row and a value out of range is refused in the same words wherever it comes from.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "state/params.h"

namespace ropelab::schema {

enum class Kind { Int, Real, Bool, Enum, Text, List };

// The derived data a change makes stale. Data: frequencies, score curves, bound, heatmap.
// Focus: the focused pair's series (precision) and the planes. Nothing: drawing only.
enum class Affects { Nothing, Focus, Data };

// Where a field is saved. Session: session files and share strings. Transient: the moment's
// presentation (fullscreen, presenting, blank, the help overlay, a lesson's scene views).
enum class Scope { Session, Transient };

// A field's value. monostate: an optional field that is not given (null in JSON).
using Value = std::variant<std::monostate, std::int64_t, double, bool, std::string, std::vector<double>>;

struct Field {
    std::string_view path;    // session JSON, dotted: "model.rope_scaling.factor"
    std::string_view flag;    // command line, "--factor"; empty: none
    std::string_view lesson;  // a lesson's `set` / keyframe name; empty: none
    Kind kind = Kind::Real;
    double min = 0, max = 0;  // Int, Real and List elements: inclusive; Text: max length; List: max count in `count`
    std::vector<std::string_view> names = {};  // Enum: the value names, in enum order
    bool optional = false;                     // may be unset
    Affects affects = Affects::Nothing;
    Scope scope = Scope::Session;
    bool reset = true;  // Reset restores it (display fields keep theirs)
    std::string_view help = "";
    // A spelling the command line kept for one release: hidden, accepted, and answered with a note
    // naming `flag`, so scripts keep working while they move.
    std::string_view old_flag = "";
    std::size_t count = 0;  // List: at most this many elements
    bool exact_count = false;  // List: none, or exactly `count` (a point)
    int slot = 0;              // 1..3: a compared setting's row, in use while compare.count reaches it
    std::function<Value(const LabParams&)> get = {};
    std::function<void(LabParams&, const Value&)> set = {};
};

// Whether a row is part of this state: a compared setting's rows only while it is compared
// (sessions, share strings and recompute keys leave out the empty slots).
inline bool in_use(const Field& f, const LabParams& p) { return f.slot <= p.compared_count; }

// Every field, in session order.
std::span<const Field> fields();
const Field* by_path(std::string_view path);
const Field* by_flag(std::string_view flag);
const Field* by_lesson_name(std::string_view name);

// The range in words, as every refusal states it: "2 .. 512", "one of dark, light".
std::string range_text(const Field& f);
// A value as text, the way the command line and lessons write it.
std::string value_text(const Field& f, const Value& v);

// Text → value of the field's kind (command line, lesson `set`, keyframes). Throws InputError
// "FIELD = VALUE is out of range (RANGE)" or "… is not a KIND".
Value parse(const Field& f, std::string_view text);
// A number → value (keyframes interpolate numbers; whole-number fields round).
Value from_number(const Field& f, double x);

// Checks one value against the field's range; throws InputError naming field, value and range.
void check(const Field& f, const Value& v);

// The whole state: every field in range, then the rules that tie fields together (the model's
// structure, the focused pair inside the model, the loop's order). Throws InputError naming the
// first field that fails. Nothing that passes can hang or crash the lab: each range bounds the work.
void validate(const LabParams& p);

// The model alone: its fields' ranges and its structure (for commands that show only a model).
void validate_model(const ModelConfig& m);

// Sets one field after checking it (the state as a whole is validated by the caller's apply).
void assign(LabParams& p, const Field& f, const Value& v);
// "preset" is a source, not only a name: assigning it by text loads that preset's model.
void assign_text(LabParams& p, const Field& f, std::string_view text);

// A key over the fields that affect `what` (the recompute cache keys).
std::string key(const LabParams& p, Affects what);

// Reset: every field marked `reset` back to its default; display fields keep their values.
LabParams reset(const LabParams& p);

// Bounds on the work one setting may ask for; each is a row's range.
inline constexpr int kMaxSamples = 65536;
inline constexpr float kMinUiScale = 1.0f, kMaxUiScale = 4.0f;

}  // namespace ropelab::schema
