#pragma once
// Lessons: a list of scenes, each with a title, a caption, the views it shows, parameter
// settings, keyframes (a parameter moving from one value to another over time, with easing) and
// annotations. The lab's state is a pure function of (scene, time), so presenting and exporting
// show exactly the same frames.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "state/params.h"

namespace ropelab {

enum class Easing { Linear, EaseIn, EaseOut, EaseInOut };

// u in [0, 1] → [0, 1]; monotone, exact at 0 and 1.
double ease(Easing easing, double u);

struct Keyframe {
    std::string param;  // one of lesson_parameters()
    double from = 0, to = 0;
    double start = 0, duration = 1;  // seconds into the scene
    Easing easing = Easing::EaseInOut;
    bool log = false;  // interpolate on a log scale (θ, factors)
    bool operator==(const Keyframe&) const = default;
};

struct Annotation {
    std::string text;
    int view = 2;              // 0-based view index
    // "label": relative x, y in the view; "distance": x = Δ on the score plot; "pair": x = i in
    // the planes; "cell": x = pair, y = position in the heatmap.
    std::string at = "label";
    double x = 0.5, y = 0.1;
    bool operator==(const Annotation&) const = default;
};

struct Scene {
    std::string title, caption;
    std::string notes;  // the speaker's notes, shown only in the presenter window
    std::vector<int> views;  // 0-based; shown side by side (four: a 2×2 grid)
    std::optional<Workspace> workspace;  // instead of `views`; neither: the lab's current workspace
    std::vector<int> hide;   // 0-based, among the views shown: curves hidden until R ("predict, then reveal")
    double duration = 4.0;
    std::vector<std::pair<std::string, std::string>> set;  // parameter → value, applied at t = 0
    std::vector<Keyframe> keyframes;
    std::vector<Annotation> annotations;
    bool operator==(const Scene&) const = default;
};

struct Lesson {
    std::string title;
    std::vector<Scene> scenes;
    std::vector<std::string> warnings;  // e.g. duplicate keys (the last value is used), with the source
    // The look it is presented in unless the user chose one; none: light.
    std::optional<Theme> theme = std::nullopt;
};

// The views a scene shows: its own, else its workspace's (empty: the lab's current workspace's).
std::vector<int> scene_shown_views(const Scene& s);

// Parses and validates; errors name the source, the scene (number and title) and the field.
Lesson parse_lesson(std::string_view json, std::string_view source);
Lesson load_lesson(const std::string& path_or_name);  // a file, or a library lesson's name (library.h)

// The state at time t of a scene: `base`, then the scene's settings, then its keyframes.
// Throws InputError if a value is refused (the loader checks this for every scene).
LabParams lesson_state(const Lesson& lesson, int scene, double t, const LabParams& base);

// A lesson's own first state: the defaults with scene 1's `set` applied (the viewer's display
// settings are the lab's to keep). Throws InputError if scene 1's set is refused.
LabParams lesson_first_state(const Lesson& lesson);
// What scene k is read against: a scene with `set` the defaults (as it was written), one without
// the lesson's first state `first`, so that it shows scene 1's model and curves wherever the
// lesson is opened, never the lab's.
const LabParams& scene_base(const Lesson& lesson, int scene, const LabParams& first);
// A scene's `set` over `base`, its keyframes left out.
LabParams scene_set_state(const Scene& scene, const LabParams& base);

// The lesson as lesson-file JSON: parse_lesson's inverse (parsing it gives back every scene).
std::string lesson_to_json(const Lesson& lesson);

// A scene that shows `state` when played over LabParams{} and over `over` (the lesson's first
// state, lesson_first_state): its `set` names the lesson fields where `state` differs from either.
// Its views are what the lab shows: the scene's views, the view shown large, else the workspace.
// With `from`, the numbers that differ between the two states move from `from`'s values to
// `state`'s over `seconds` (keyframes; the model's whole-number fields, whose in-between values
// need not be valid, jump).
Scene scene_of_state(const LabParams& state, const LabParams* from = nullptr, double seconds = 0.0,
                     const LabParams* over = nullptr);

// The lesson with every scene without `set` given one that shows `old_first`, the first state it
// showed before: after scene 1 moves or goes, they still play what they played.
Lesson rebased(const Lesson& lesson, const LabParams& old_first);

// The lesson names of the fields a scene can set on which two states differ.
std::vector<std::string> lesson_differences(const LabParams& a, const LabParams& b);

// Names that `set` and keyframes accept.
std::vector<std::string_view> lesson_parameters();

}  // namespace ropelab
