#include "script.h"

#include <cctype>
#include <cmath>
#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui_internal.h>
#include <fmt/format.h>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/input_file.h"
#include "plot/capture.h"
#include "plot/layout_check.h"
#include "state/session.h"
#include "ui/widgets.h"

namespace ropelab {

namespace {

constexpr int kMaxWait = 100000;

// GLFW's key names, as its documentation spells the GLFW_KEY_ constants.
const std::map<std::string, int>& key_codes() {
    static const std::map<std::string, int> codes = [] {
        std::map<std::string, int> m = {
            {"Escape", GLFW_KEY_ESCAPE}, {"Enter", GLFW_KEY_ENTER},       {"Tab", GLFW_KEY_TAB},
            {"Backspace", GLFW_KEY_BACKSPACE}, {"Delete", GLFW_KEY_DELETE}, {"Right", GLFW_KEY_RIGHT},
            {"Left", GLFW_KEY_LEFT},     {"Up", GLFW_KEY_UP},             {"Down", GLFW_KEY_DOWN},
            {"PageUp", GLFW_KEY_PAGE_UP}, {"PageDown", GLFW_KEY_PAGE_DOWN}, {"Home", GLFW_KEY_HOME},
            {"End", GLFW_KEY_END},       {"Space", GLFW_KEY_SPACE},       {"Minus", GLFW_KEY_MINUS},
            {"Equal", GLFW_KEY_EQUAL},
        };
        for (int i = 0; i < 12; ++i) m[fmt::format("F{}", i + 1)] = GLFW_KEY_F1 + i;
        for (char c = 'A'; c <= 'Z'; ++c) m[std::string(1, c)] = GLFW_KEY_A + (c - 'A');
        for (char c = '0'; c <= '9'; ++c) m[std::string(1, c)] = GLFW_KEY_0 + (c - '0');
        return m;
    }();
    return codes;
}

// The character a key types on a US keyboard without Shift (0: none), sent as a keyboard would.
unsigned typed_char(int key) {
    if (key >= GLFW_KEY_A && key <= GLFW_KEY_Z) return 'a' + static_cast<unsigned>(key - GLFW_KEY_A);
    if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) return '0' + static_cast<unsigned>(key - GLFW_KEY_0);
    if (key == GLFW_KEY_SPACE) return ' ';
    if (key == GLFW_KEY_MINUS) return '-';
    if (key == GLFW_KEY_EQUAL) return '=';
    return 0;
}

// A modifier's left-hand key, by the name a key step's "mods" gives it (0: none).
int modifier_key(const std::string& name) {
    return name == "ctrl" ? GLFW_KEY_LEFT_CONTROL : name == "shift" ? GLFW_KEY_LEFT_SHIFT : name == "alt" ? GLFW_KEY_LEFT_ALT : 0;
}

std::vector<unsigned> utf8_codepoints(const std::string& text) {
    std::vector<unsigned> out;
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const int extra = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
        unsigned cp = extra == 0 ? c : c & (0x3F >> extra);
        for (int k = 1; k <= extra && i + k < text.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
        out.push_back(cp);
        i += static_cast<std::size_t>(extra) + 1;
    }
    return out;
}


std::string clipped_json(const std::vector<ui::ClippedText>& clipped) {
    Json out = Json::array();
    for (const ui::ClippedText& c : clipped) out.push_back({{"text", c.text}, {"needed", c.needed}, {"room", c.room}});
    return out.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

// What lands on what in a captured frame (plot/layout_check.h): kind, the texts and their boxes.
std::string overlaps_json(const std::vector<draw::LayoutFinding>& findings) {
    const auto box = [](const draw::Box& b) { return Json::array({b.x0, b.y0, b.x1, b.y1}); };
    Json out = Json::array();
    for (const draw::LayoutFinding& f : findings) {
        out.push_back({{"kind", draw::kind_name(f.kind)}, {"text", f.text}, {"box", box(f.box)}, {"other", f.other},
                       {"other_box", box(f.other_box)}});
    }
    return out.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

// The visible regions of the windows that scroll vertically in the frame just drawn: a row cut
// at their top or bottom edge is scrolled half into view, as in any list, not cut.
std::vector<draw::Box> vertical_scroll_regions() {
    std::vector<draw::Box> out;
    for (const ImGuiWindow* w : GImGui->Windows) {
        // Only where a person can scroll: a view's region (no scrollbar) that overflows is cut.
        if (w->WasActive && w->ScrollMax.y > 0.0f && w->ScrollbarY) {
            out.push_back({w->InnerClipRect.Min.x, w->InnerClipRect.Min.y, w->InnerClipRect.Max.x, w->InnerClipRect.Max.y});
        }
    }
    return out;
}

// A run cut only by the top or bottom edge of a scrolling region, inside its sides.
bool scrolled_into_view(const draw::LayoutFinding& f, const std::vector<draw::Box>& regions) {
    if (f.kind != draw::LayoutFinding::Kind::Cut) return false;
    constexpr float slack = 1.5f;
    const draw::Box& clip = f.other_box;
    const bool cut_at_top = f.box.y0 < clip.y0 - slack, cut_at_bottom = f.box.y1 > clip.y1 + slack;
    const bool inside_sides = f.box.x0 >= clip.x0 - slack && f.box.x1 <= clip.x1 + slack;
    if (!inside_sides) return false;
    return std::any_of(regions.begin(), regions.end(), [&](const draw::Box& r) {
        const bool across_x = clip.x0 >= r.x0 - slack && clip.x1 <= r.x1 + slack;
        return across_x && ((cut_at_top && std::abs(clip.y0 - r.y0) <= slack) || (cut_at_bottom && std::abs(clip.y1 - r.y1) <= slack));
    });
}

// A canvas's text comes through the capture as drawn, plain text without its advances: each
// character's is measured with the font here, so the check boxes it as the screen drew it.
void measure_canvas_text(draw::Figure& figure) {
    for (draw::Item& item : figure.items) {
        auto* t = std::get_if<draw::Text>(&item);
        if (t && t->advances.empty()) t->advances = ui::typeset_advances(ImGui::GetFont(), t->size, {t->text, t->spans});
    }
}

std::pair<double, double> at_of(const Json& step) {
    if (!step.contains("at")) return {0.5, 0.5};
    return {step["at"][0].get<double>(), step["at"][1].get<double>()};
}

// A tap: the key (and its modifiers) pressed and released inside one frame, as a quick finger
// does. {"tap": "Space"}, {"tap": "A", "mods": ["ctrl"]}.
const std::map<std::string, int>& modifier_keys() {
    static const std::map<std::string, int> keys = {
        {"ctrl", GLFW_KEY_LEFT_CONTROL}, {"shift", GLFW_KEY_LEFT_SHIFT}, {"alt", GLFW_KEY_LEFT_ALT}};
    return keys;
}

// The key a tap names: GLFW's spelling ("Space", "A"), or the same in lower case ("space", "a").
std::optional<int> tap_key(const Json& name) {
    if (!name.is_string() || name.get<std::string>().empty()) return std::nullopt;
    std::string spelled = name.get<std::string>();
    if (const auto it = key_codes().find(spelled); it != key_codes().end()) return it->second;
    spelled[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(spelled[0])));
    if (const auto it = key_codes().find(spelled); it != key_codes().end()) return it->second;
    return std::nullopt;
}

std::string tap_problem(const Json& s) {
    for (const auto& [field, value] : s.items()) {
        if (field != "tap" && field != "mods") return fmt::format("unknown field \"{}\" (a tap has \"tap\" and \"mods\")", field);
    }
    if (!tap_key(s["tap"])) return "\"tap\" must be a GLFW key name (Escape, Right, PageDown, Space, F1, A, …)";
    if (!s.contains("mods")) return "";
    if (!s["mods"].is_array()) return "\"mods\" must be a list of ctrl, shift, alt";
    for (const Json& m : s["mods"]) {
        if (!m.is_string() || !modifier_keys().count(m.get<std::string>())) return "\"mods\" must be a list of ctrl, shift, alt";
    }
    return "";
}

// One frame's events for a tap: modifiers down, the key down (typing its character when no
// modifier changes it into a shortcut), the key up, modifiers up.
std::function<bool(Window&)> tap_action(const Json& step) {
    const int key = *tap_key(step["tap"]);
    std::vector<int> mods;
    for (const Json& m : step.value("mods", Json::array())) mods.push_back(modifier_keys().at(m.get<std::string>()));
    return [key, mods](Window& w) {
        for (int m : mods) w.send_key(m, true);
        w.send_key(key, true);
        const bool shift_only = mods.size() == 1 && mods[0] == GLFW_KEY_LEFT_SHIFT;
        unsigned c = mods.empty() || shift_only ? typed_char(key) : 0;
        if (shift_only && c >= 'a' && c <= 'z') c -= 'a' - 'A';
        if (c) w.send_char(c);
        w.send_key(key, false);
        for (auto m = mods.rbegin(); m != mods.rend(); ++m) w.send_key(*m, false);
        return true;
    };
}

// Checks one step's shape; returns the problem or "".
std::string step_problem(const Json& s) {
    if (!s.is_object()) return "a step is an object like {\"click\": \"Play\"}";
    if (s.contains("tap")) return tap_problem(s);
    static const std::vector<std::string> actions = {"wait",  "click",   "drag",    "type",        "key",      "drop",
                                                     "screenshot", "state", "widgets", "clipped", "overlaps", "until_exact", "progress",
                                                     "curve", "hover", "wheel", "hold", "release"};
    std::string action;
    for (const auto& [key, value] : s.items()) {
        if (std::find(actions.begin(), actions.end(), key) != actions.end()) {
            if (!action.empty()) return fmt::format("has both \"{}\" and \"{}\": one action per step", action, key);
            action = key;
        } else if (key != "dx" && key != "dy" && key != "repeat" && key != "optional" && key != "at" && key != "window" && key != "mods" && key != "button") {
            return fmt::format("unknown field \"{}\"", key);
        }
    }
    if (action.empty()) return "names no action (wait, click, drag, type, key, drop, screenshot, state, widgets)";
    const Json& v = s[action];
    if (action == "wait" || action == "until_exact") {
        if (!v.is_number_integer() || v.get<double>() < 0 || v.get<double>() > kMaxWait) {
            return fmt::format("\"{}\" must be frames in 0 .. {}", action, kMaxWait);
        }
        return "";
    }
    // Typing nothing clears a field; every other action names something.
    if (!v.is_string() || (v.get<std::string>().empty() && action != "type")) return fmt::format("\"{}\" must be non-empty text", action);
    if ((action == "key" || action == "hold" || action == "release") && !key_codes().count(v.get<std::string>())) {
        return fmt::format("unknown key \"{}\" (GLFW key names: Escape, Right, PageDown, Space, F1, A, …)", v.get<std::string>());
    }
    if (s.contains("mods") && action != "key") return "\"mods\" goes with a key step only";
    if (s.contains("mods")) {
        const Json& mods = s["mods"];
        const auto known = [](const Json& m) { return m.is_string() && modifier_key(m.get<std::string>()) != 0; };
        if (!mods.is_array() || !std::all_of(mods.begin(), mods.end(), known)) return "\"mods\" must list \"ctrl\", \"shift\" or \"alt\"";
    }
    for (const char* n : {"dx", "dy"}) {
        if (s.contains(n) && (!s[n].is_number() || std::abs(s[n].get<double>()) > 10000)) return fmt::format("\"{}\" must be pixels", n);
    }
    if (action == "drag" && !s.contains("dx") && !s.contains("dy")) return "a drag needs \"dx\" or \"dy\"";
    if (action == "wheel" && !s.contains("dy")) return "a wheel step needs \"dy\" (notches, + zooms in)";
    if (s.contains("repeat") && (!s["repeat"].is_number_integer() || s["repeat"].get<int>() < 1 || s["repeat"].get<int>() > 100)) {
        return "\"repeat\" must be 1 .. 100";
    }
    if (s.contains("optional") && !s["optional"].is_boolean()) return "\"optional\" must be true or false";
    static const std::vector<std::string> either_window = {"screenshot", "hover", "drag", "click", "hold", "release"};
    if (s.contains("window") && std::find(either_window.begin(), either_window.end(), action) == either_window.end()) {
        return "\"window\" goes with a screenshot, hover, drag, click, hold or release only";
    }
    if (s.contains("window") && s["window"] != "lecturer" && s["window"] != "audience") {
        return "\"window\" must be \"lecturer\" or \"audience\"";
    }
    if (s.contains("button") && !((action == "drag" || action == "click") && s.value("window", "") == "audience" &&
                                  (s["button"] == "left" || s["button"] == "right"))) {
        return "\"button\" (\"left\" or \"right\") goes with a drag or click in the audience window";
    }
    const bool aimed = action == "hover" || action == "drag" || action == "click";
    if (aimed && s.value("window", "") == "audience" && v != "audience") {
        return "in the audience window a step aims at \"audience\", the whole window (\"at\" a fraction of it)";
    }
    if (s.contains("at") && !(s["at"].is_array() && s["at"].size() == 2 && s["at"][0].is_number() && s["at"][1].is_number() &&
                              s["at"][0].get<double>() >= 0 && s["at"][0].get<double>() <= 1 && s["at"][1].get<double>() >= 0 &&
                              s["at"][1].get<double>() <= 1)) {
        return "\"at\" must be [x, y], fractions of the widget's width and height (default [0.5, 0.5])";
    }
    return "";
}

}  // namespace

Script Script::load(const std::string& path) {
    Script script;
    script.path_ = path;
    Json j;
    try {
        j = parse_json_input(read_input_file(path, "script"), "--script " + path);
    } catch (const Json::exception& e) {
        throw InputError(fmt::format("--script {}: not valid JSON: {}", path, e.what()));
    }
    if (!j.is_array()) throw InputError(fmt::format("--script {}: a script is a JSON array of steps", path));
    for (std::size_t i = 0; i < j.size(); ++i) {
        if (const std::string problem = step_problem(j[i]); !problem.empty()) {
            throw InputError(fmt::format("--script {}: step {} {}", path, i + 1, problem));
        }
        script.steps_.push_back(j[i]);
    }
    return script;
}

std::string Script::where() const { return where(next_); }

std::string Script::where(std::size_t step) const {
    return fmt::format("--script {}: step {} {}", path_, step, json_excerpt(steps_[step - 1]));
}

bool Script::before_frame(Window& window) {
    capture_.clear();
    capture_audience_ = false;
    // Nothing to aim at before the first frame is laid out.
    if (ui::log().this_frame().empty()) return true;
    const bool going_on = run_next_action(window);
    previous_layout_ = ui::log().this_frame();  // for the next frame's aims
    return going_on;
}

bool Script::run_next_action(Window& window) {
    while (actions_.empty() && next_ < steps_.size()) {
        const Json& step = steps_[next_++];
        if (!expand(step, window)) return false;
    }
    if (actions_.empty()) return true;
    Action action = std::move(actions_.front());
    actions_.pop_front();
    return action(window);
}

namespace {

// {"frame", "exact", "setting", "fraction", "slices", "stride"}: where the exact pass stands.
std::string progress_json(const LabCompute& compute, int frame) {
    const auto progress = compute.progress();
    return fmt::format("{{\"frame\": {}, \"exact\": {}, \"setting\": {}, \"fraction\": {}, \"slices\": {}, \"stride\": {}, "
                       "\"naive\": {}, \"mode_scores\": {}}}\n",
                       frame, progress ? "false" : "true", progress ? progress->setting : -1, progress ? progress->fraction : 1.0,
                       compute.slices_run(), compute.largest_stride(), progress && progress->naive, compute.has_mode_scores());
}

// The base RoPE curve as shown, float32 in the machine's byte order (little-endian on x86-64).
std::string curve_bytes(const LabCompute& compute) {
    const std::vector<float> values = compute.device().read_series(Series::Scores);
    return {reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float)};
}

// A capture step's file as of the frame just drawn.
std::string capture_contents(const std::string& what, const Lab& lab, int frame) {
    if (what == "state") return session_to_json(lab.session());
    if (what == "widgets") return ui::widgets_json(ui::log().this_frame());
    if (what == "clipped") return clipped_json(ui::log().clipped());
    if (what == "progress") return progress_json(lab.compute(), frame);
    return curve_bytes(lab.compute());
}

// The step names one of these (step_problem allows one action per step), or nullptr.
const char* capture_action(const Json& step) {
    for (const char* what : {"state", "widgets", "clipped", "progress", "curve"}) {
        if (step.contains(what)) return what;
    }
    return nullptr;
}

}  // namespace

bool Script::write_capture(const Capture& capture, const Lab& lab) {
    std::string error;
    if (write_file_atomically(capture.path, capture_contents(capture.what, lab, frames_), error)) return true;
    error_ = fmt::format("{}: {}", where(capture.step), error);
    return false;
}

bool Script::after_frame(const Lab& lab) {
    for (const Capture& capture : captures_) {
        if (!write_capture(capture, lab)) return false;
    }
    captures_.clear();
    if (overlap_capture_) {  // the frame just drawn as a display list, checked for text on text
        const ImDrawData* data = ImGui::GetDrawData();
        draw::Figure figure = data ? overlap_capture_->finish(*data, {}, 0) : draw::Figure{};
        measure_canvas_text(figure);
        overlap_capture_.reset();
        std::vector<draw::LayoutFinding> findings = draw::check_layout(figure);
        const std::vector<draw::Box> scrolling = vertical_scroll_regions();
        std::erase_if(findings, [&](const draw::LayoutFinding& f) { return scrolled_into_view(f, scrolling); });
        std::string error;
        if (!write_file_atomically(overlaps_out_, overlaps_json(findings), error)) {
            error_ = fmt::format("{}: {}", where(), error);
            return false;
        }
    }
    const LabCompute& compute = lab.compute();
    exact_ = !compute.progress() && compute.averaging().empty();
    ++frames_;
    return true;
}

void Script::announce(const Json& step) const {
    std::printf("script: step %zu: %s\n", next_, step.dump(-1, ' ', false, Json::error_handler_t::replace).c_str());
    std::fflush(stdout);
}

void Script::capture_in_one_frame(const Json& step) {
    const char* what = capture_action(step);
    std::vector<Capture> frame = {{what, step[what].get<std::string>(), next_}};
    while (next_ < steps_.size() && capture_action(steps_[next_])) {
        const Json& more = steps_[next_++];
        announce(more);
        what = capture_action(more);
        frame.push_back({what, more[what].get<std::string>(), next_});
    }
    actions_.push_back([this, frame](Window&) {
        captures_ = frame;
        return true;
    });
}

// Turns a step into the frames it takes. Files are written after the frame in which the step runs
// (capture steps in a row: after the first's).
bool Script::expand(const Json& step, Window&) {
    announce(step);
    const bool optional = step.value("optional", false);
    if (step.contains("wait")) {
        for (int i = 0; i < step["wait"].get<int>(); ++i) actions_.push_back([](Window&) { return true; });
    } else if ((step.contains("hover") || step.contains("drag") || step.contains("click")) && step.value("window", "") == "audience") {
        const bool press = step.contains("drag") || step.contains("click");
        point_at_audience(at_of(step), step.value("dx", 0.0), step.value("dy", 0.0), press, step.value("button", "left") == "right");
    } else if (step.contains("click")) {
        return click(step["click"].get<std::string>(), optional, 0, 0, false, at_of(step));
    } else if (step.contains("drag")) {
        return click(step["drag"].get<std::string>(), optional, step.value("dx", 0.0), step.value("dy", 0.0), true, at_of(step));
    } else if (step.contains("hold") || step.contains("release")) {  // a key held down across steps, then let go
        const bool hold = step.contains("hold");
        const int key = key_codes().at(step[hold ? "hold" : "release"].get<std::string>());
        if (step.value("window", "") == "audience") {
            audience_key(key, hold);
        } else {
            actions_.push_back([key, hold](Window& w) { w.send_key(key, hold); return true; });
        }
    } else if (step.contains("hover")) {
        point(step["hover"].get<std::string>(), at_of(step), 0.0, {step.value("dx", 0.0), step.value("dy", 0.0)});
    } else if (step.contains("wheel")) {
        point(step["wheel"].get<std::string>(), at_of(step), step["dy"].get<double>(), {0.0, 0.0});
    } else if (step.contains("type")) {
        type_text(step["type"].get<std::string>());
    } else if (step.contains("key")) {
        std::vector<int> mods;  // held around the key, as a person holds Ctrl
        for (const Json& m : step.value("mods", Json::array())) mods.push_back(modifier_key(m.get<std::string>()));
        press_key(key_codes().at(step["key"].get<std::string>()), step.value("repeat", 1), mods);
    } else if (step.contains("tap")) {
        actions_.push_back(tap_action(step));
    } else if (step.contains("drop")) {
        const std::string path = step["drop"].get<std::string>();
        actions_.push_back([path](Window& w) { w.send_drop(path); return true; });
    } else if (capture_action(step)) {
        capture_in_one_frame(step);
    } else if (step.contains("screenshot")) {
        const std::string path = step["screenshot"].get<std::string>();
        const bool audience = step.value("window", "lecturer") == "audience";
        actions_.push_back([this, path, audience](Window&) {
            capture_ = path;
            capture_audience_ = audience;
            return true;
        });
    } else if (step.contains("overlaps")) {
        // The layout at rest: the pointer parked for two frames first, so no hover tooltip or
        // readout lands on it. Captured as an SVG screenshot is: the capture begins before the
        // frame is built.
        const std::string path = step["overlaps"].get<std::string>();
        for (int i = 0; i < 2; ++i) actions_.push_back([](Window& w) { w.park_pointer(); return true; });
        actions_.push_back([this, path](Window& w) {
            w.park_pointer();
            overlaps_out_ = path;
            overlap_capture_ = std::make_shared<draw::FrameCapture>();
            return true;
        });
    } else if (step.contains("until_exact")) {
        wait_until_exact(step["until_exact"].get<int>(), 0);
    }
    return true;
}

// Replaces the focused field's text and commits it, as a person selecting all and typing would.
void Script::type_text(const std::string& text) {
    const std::vector<unsigned> chars = utf8_codepoints(text);
    actions_.push_back([](Window& w) {  // select all: the text typed replaces the field's
        w.send_key(GLFW_KEY_LEFT_CONTROL, true);
        w.send_key(GLFW_KEY_A, true);
        return true;
    });
    actions_.push_back([](Window& w) {  // and delete it, so typing nothing empties the field
        w.send_key(GLFW_KEY_A, false);
        w.send_key(GLFW_KEY_LEFT_CONTROL, false);
        w.send_key(GLFW_KEY_BACKSPACE, true);
        return true;
    });
    actions_.push_back([chars](Window& w) {
        w.send_key(GLFW_KEY_BACKSPACE, false);
        for (unsigned c : chars) w.send_char(c);
        return true;
    });
    actions_.push_back([](Window& w) { w.send_key(GLFW_KEY_ENTER, true); return true; });
    actions_.push_back([](Window& w) { w.send_key(GLFW_KEY_ENTER, false); return true; });
}

void Script::press_key(int key, int repeat, const std::vector<int>& mods) {
    // GLFW types no character while Ctrl or Alt is held (Ctrl+1 is a shortcut, not a "1").
    const bool types = std::none_of(mods.begin(), mods.end(), [](int m) { return m == GLFW_KEY_LEFT_CONTROL || m == GLFW_KEY_LEFT_ALT; });
    if (!mods.empty()) {
        actions_.push_back([mods](Window& w) {  // the modifiers first, a frame before the key
            for (int m : mods) w.send_key(m, true);
            return true;
        });
    }
    if (repeat == 1) {  // held for one frame, as a person's press is
        actions_.push_back([key, types](Window& w) {
            w.send_key(key, true);
            if (const unsigned c = typed_char(key); c && types) w.send_char(c);
            return true;
        });
        actions_.push_back([key](Window& w) { w.send_key(key, false); return true; });
    } else {  // every press and release inside one frame
        actions_.push_back([key, repeat, types](Window& w) {
            for (int i = 0; i < repeat; ++i) {
                w.send_key(key, true);
                if (const unsigned c = typed_char(key); c && types) w.send_char(c);
                w.send_key(key, false);
            }
            return true;
        });
    }
    if (!mods.empty()) {
        actions_.push_back([mods](Window& w) {
            for (int m : mods) w.send_key(m, false);
            return true;
        });
    }
}

// Frames of nothing until the last frame drawn showed every curve exact, at most `limit`.
void Script::wait_until_exact(int limit, int waited) {
    actions_.push_front([this, limit, waited](Window&) {
        if (exact_) return true;
        if (waited >= limit) {
            error_ = fmt::format("{}: the exact curves were not done after {} frames", where(), limit);
            return false;
        }
        wait_until_exact(limit, waited + 1);
        return true;
    });
}

}  // namespace ropelab
