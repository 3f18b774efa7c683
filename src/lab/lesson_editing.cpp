// Lessons made in the lab: recording the lab's state as a scene, reordering, deleting and
// editing scenes, and saving the lesson — each edit checked as the file will be read back, so a
// saved lesson always opens and replays the recorded states.
#include "lab/lab.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "core/atomic_file.h"
#include "core/error.h"
#include "lesson/lesson_schema.h"
#include "state/schema.h"

namespace ropelab {

namespace {

// The lesson as its file will be read back (every scene's timeline checked); throws InputError.
Lesson as_read_back(const Lesson& lesson) { return parse_lesson(lesson_to_json(lesson), "the lesson"); }

}  // namespace

void Lab::replace_lesson(Lesson edited, const std::string& done) {
    try {
        // Scene 1 moved or went: the others keep showing what they showed (their sets rewritten
        // over the new first state).
        if (lesson_ && !edited.scenes.empty() && !(edited.scenes.front() == lesson_->scenes.front())) {
            edited = rebased(edited, lesson_first_);
        }
        as_read_back(edited);
    } catch (const InputError& e) {
        status_.error = e.what();  // the lesson stays as it was
        return;
    }
    keep_lesson(std::move(edited));
    lesson_unsaved_ = true;
    scene_ = std::clamp(scene_, 0, scene_count() - 1);
    status_.notice = done;
}

void Lab::record_scene(const lab::cmd::RecordScene& record) {
    if (record.animated && !lesson_schema::in_range(lesson_schema::keyframe::duration, record.seconds)) {
        status_.error = fmt::format("Record scene: animate over seconds in {} (got {})",
                                    lesson_schema::range_text(lesson_schema::keyframe::duration), record.seconds);
        return;
    }
    const double seconds = record.animated ? record.seconds : 0.0;
    const LabParams state = params_;
    Lesson lesson = lesson_ ? *lesson_ : Lesson{.title = "Untitled lesson", .scenes = {}, .warnings = {}};
    if (lesson.scenes.size() >= lesson_schema::lesson::scenes.limit) {
        status_.error = fmt::format("the lesson has {} scenes, the most a lesson file holds", lesson_schema::lesson::scenes.limit);
        return;
    }
    std::optional<LabParams> previous;
    if (seconds > 0 && !lesson.scenes.empty()) {
        const int last = static_cast<int>(lesson.scenes.size()) - 1;
        try {
            previous = lesson_state(lesson, last, lesson.scenes.back().duration, ropelab::scene_base(lesson, last, lesson_first_));
        } catch (const InputError&) {
            previous.reset();
        }
    }
    // Over the lesson's first state (its scene 1, once it has one), as it will be read back.
    const LabParams first = lesson.scenes.empty() ? LabParams{} : lesson_first_state(lesson);
    Scene scene = scene_of_state(state, previous ? &*previous : nullptr, seconds, &first);
    scene.title = fmt::format("Scene {}", lesson.scenes.size() + 1);
    lesson.scenes.push_back(scene);
    std::string note;
    try {
        as_read_back(lesson);
    } catch (const InputError& e) {
        if (scene.keyframes.empty()) {
            status_.error = e.what();
            return;
        }
        // A value on the way between the two states is refused: the scene jumps instead.
        lesson.scenes.back().keyframes.clear();
        note = " (no animation: a state on the way is refused)";
    }
    // What a file would play back: any field that differs is said, not hidden.
    const int last = static_cast<int>(lesson.scenes.size()) - 1;
    const LabParams played = lesson_state(lesson, last, lesson.scenes.back().duration, ropelab::scene_base(lesson, last, first));
    std::string missing;
    for (const std::string& name : lesson_differences(played, state)) missing += (missing.empty() ? "" : ", ") + name;
    if (!missing.empty()) note += "; a lesson file cannot hold " + missing;
    if (!lesson_) {
        lesson_base_ = params_;
        lesson_source_.clear();
    }
    const int k = static_cast<int>(lesson.scenes.size()) - 1;
    const std::size_t keyframes = lesson.scenes.back().keyframes.size();
    keep_lesson(std::move(lesson));
    lesson_unsaved_ = true;
    scene_ = k;
    scene_time_ = 0.0;
    scene_playing_ = false;  // the lab stays as it is: the scene is what it shows now
    status_.notice = fmt::format("recorded scene {}{}{}", k + 1,
                                 keyframes ? fmt::format(", {} keyframes over {} s", keyframes, seconds) : "", note);
}

void Lab::move_scene(int k, int by) {
    if (!lesson_) return;
    const int to = k + by;
    if (k < 0 || k >= scene_count() || to < 0 || to >= scene_count()) return;
    Lesson edited = *lesson_;
    std::swap(edited.scenes[static_cast<std::size_t>(k)], edited.scenes[static_cast<std::size_t>(to)]);
    if (scene_ == k) scene_ = to;
    else if (scene_ == to) scene_ = k;
    replace_lesson(std::move(edited), fmt::format("moved scene {} to {}", k + 1, to + 1));
}

void Lab::delete_scene(int k) {
    if (!lesson_ || k < 0 || k >= scene_count()) return;
    if (scene_count() == 1) {
        status_.error = "a lesson has at least one scene (Close lesson to drop it)";
        return;
    }
    Lesson edited = *lesson_;
    edited.scenes.erase(edited.scenes.begin() + k);
    if (scene_ > k) --scene_;
    replace_lesson(std::move(edited), fmt::format("deleted scene {}", k + 1));
}

void Lab::edit_scene_text(int k, const lab::SceneText& text) {
    if (!lesson_ || k < 0 || k >= scene_count()) return;
    Lesson edited = *lesson_;
    Scene& s = edited.scenes[static_cast<std::size_t>(k)];
    s.title = text.title;
    s.caption = text.caption;
    s.notes = text.notes;
    // "1, 3": whole numbers 1-kViewCount, 1 to 4 of them (the lesson file's "views", checked again below).
    std::vector<int> views;
    std::string number;
    for (const char c : text.views + ",") {
        if (c >= '0' && c <= '9') {
            number += c;
        } else if (c == ',' || c == ' ') {
            if (number.empty()) continue;
            const int v = number.size() > 2 ? 0 : std::stoi(number);
            if (v < 1 || v > kViewCount) views.assign(lesson_schema::scene::views.limit + 1, 0);  // refused below
            views.push_back(v - 1);
            number.clear();
        } else {
            views.assign(lesson_schema::scene::views.limit + 1, 0);
            break;
        }
    }
    const bool workspace_kept = views.empty() && s.workspace;  // blank Views: the scene's workspace stays
    if (!workspace_kept && (views.size() < lesson_schema::scene::views.least || views.size() > lesson_schema::scene::views.limit)) {
        status_.error = fmt::format("scene {}: Views lists {} to {} views, each 1-{}, e.g. 1, 3 (got \"{}\")", k + 1,
                                    lesson_schema::scene::views.least, lesson_schema::scene::views.limit, kViewCount, text.views);
        return;
    }
    s.views = views;
    const std::vector<int> shown = scene_shown_views(s);
    std::erase_if(s.hide, [&](int v) { return std::find(shown.begin(), shown.end(), v) == shown.end(); });
    if (!lesson_schema::in_range(lesson_schema::scene::duration, text.duration)) {
        status_.error = fmt::format("scene {}: a duration is seconds in {} (got {})", k + 1,
                                    lesson_schema::range_text(lesson_schema::scene::duration), text.duration);
        return;
    }
    // Keyframes that lasted the whole scene keep doing so.
    for (Keyframe& f : s.keyframes) {
        if (f.start == 0 && f.duration == s.duration) f.duration = text.duration;
    }
    s.duration = text.duration;
    replace_lesson(std::move(edited), fmt::format("edited scene {}", k + 1));
    if (k == scene_ && !params_.scene_views.empty() && lesson_->scenes[static_cast<std::size_t>(k)].views == views) {
        LabParams next = params_;  // the scene on screen shows its new views now
        next.scene_views = views;
        next.hidden_views.clear();
        commit(next, Origin::Lesson);
    }
}

void Lab::save_lesson(const std::string& path) {
    if (!lesson_) {
        status_.error = "no lesson to save: Record scene makes one";
        return;
    }
    std::error_code ec;
    if (path.empty() || std::filesystem::is_directory(path, ec)) {
        status_.error = path.empty() ? "Save lesson: give a file name" : fmt::format("{} is a folder: give a file name in it", path);
        return;
    }
    const std::string json = lesson_to_json(*lesson_);
    try {
        parse_lesson(json, path);  // what --lesson will read: refused here rather than there
    } catch (const InputError& e) {
        status_.error = e.what();
        return;
    }
    std::string error;
    if (!write_file_atomically(path, json, error, "lesson")) {
        status_.error = error;  // the file there, if any, is as it was
        return;
    }
    lesson_source_ = path;
    lesson_unsaved_ = false;
    status_.lesson_path = path;
    status_.notice = fmt::format("saved lesson {} ({} scenes)", path, scene_count());
}

}  // namespace ropelab
