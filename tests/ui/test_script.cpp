// tests/ui, as a person uses the app: `ropelab gui --script` drives the real window through
// GLFW's input callbacks at the places ImGui laid the widgets out, and xdotool clicks through
// the X server. Nothing here writes the lab's state directly.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <stb/stb_image.h>

#include "support/run_binary.h"

namespace ropelab {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using test::read_json;

// A folder of this test's own, the app's working directory (it saves sessions and exports there).
fs::path fresh_dir(const std::string& name) { return test::fresh_dir("script_" + name); }

test::Result gui(const fs::path& dir, const Json& script, const std::string& args = "") {
    std::ofstream(dir / "script.json") << script.dump(1);
    const std::string size = args.find("--size") == std::string::npos ? "--size 1280x720 " : "";
    return test::run("gui " + size + "--paused " + args + " --script script.json",
                     "cd '" + dir.string() + "' && ROPELAB_SCREENSHOT_DIR='" + dir.string() + "'");
}

// ---- the crawl ------------------------------------------------------------------------------

struct Control {
    std::string label, kind, value, item_of;
};

std::vector<Control> controls_in(const Json& widgets) {
    std::vector<Control> out;
    for (const Json& w : widgets) {
        out.push_back({w["label"], w["kind"], w["value"], w.value("item_of", "")});
    }
    return out;
}

// What a person would type: one refused or useless value, then a good one that differs from the
// presets' own (so the state shows it took).
std::pair<std::string, std::string> typed_values(const std::string& label) {
    static const std::map<std::string, std::pair<std::string, std::string>> table = {
        {"Config file", {"/no/such/config.json", ""}},  {"Head dim d", {"100000", "64"}},
        {"seed", {"-3", "7"}},                            {"q", {"1,2", "ones"}},
        {"k", {"1,2", "ones"}},                           {"low_freq_factor", {"-5", "2"}},
        {"high_freq_factor", {"-5", "6"}},                {"beta_fast", {"-5", "24"}},
        {"beta_slow", {"-5", "2"}},                       {"attention_factor", {"-5", "1.2"}},
        {"original context", {"0", "2048"}},              {"sequence length", {"0", "200000"}},
        {"Export file", {"/no/such/folder/x.png", "crawl.png"}},
        {"Size", {"0", "640"}},                           {"From, to", {"-1", "0"}},
        {"Frames", {"0", "10"}},                          {"FPS", {"0", "30"}},
        {"Session file", {"/no/such/s.json", "crawl-session.json"}},
        {"Share string", {"not*a*share*string", ""}},   {"Lesson file", {"/no/such/lesson.json", "builtin"}},
    };
    const auto it = table.find(label);
    return it == table.end() ? std::pair<std::string, std::string>{"-1", "1"} : it->second;
}

struct Action {
    std::string what;       // "click Play", "type Head dim d = 100000", …
    bool may_be_noop = false;  // choosing what is already chosen
};

// One step list that opens every header, then clicks, drags and types into every control
// found, dumping the state and the widgets after each action.
class Crawl {
public:
    void step(Json s) { steps_.push_back(std::move(s)); }
    void act(Action a, std::vector<Json> input) {
        for (Json& s : input) {
            s["optional"] = true;
            step(s);
        }
        const std::size_t n = actions_.size();
        step({{"state", "s" + std::to_string(n) + ".json"}});
        step({{"widgets", "w" + std::to_string(n) + ".json"}});
        actions_.push_back(std::move(a));
    }
    Json script() const { return steps_; }
    const std::vector<Action>& actions() const { return actions_; }

private:
    Json steps_ = Json::array();
    std::vector<Action> actions_;
};

Json click(const std::string& label) { return {{"click", label}}; }

// What changed between two dumps: the state, or anything a widget shows (values, messages).
bool something_changed(const fs::path& dir, std::size_t i) {
    const Json s0 = read_json(dir / ("s" + std::to_string(i - 1) + ".json"));
    const Json s1 = read_json(dir / ("s" + std::to_string(i) + ".json"));
    if (s0 != s1) return true;
    auto shown = [](const Json& widgets) {
        std::multiset<std::string> out;
        for (const Json& w : widgets) out.insert(w["kind"].get<std::string>() + ":" + w["label"].get<std::string>() + "=" + w["value"].get<std::string>());
        return out;
    };
    return shown(read_json(dir / ("w" + std::to_string(i - 1) + ".json"))) != shown(read_json(dir / ("w" + std::to_string(i) + ".json")));
}

void crawl(const std::string& name, const std::string& args) {
    const fs::path dir = fresh_dir(name);
    // Discover: every header opened, every combo's entries.
    Json discover = Json::array({{{"wait", 3}}, {{"widgets", "w_start.json"}}});
    test::Result r = gui(dir, discover, args);
    ASSERT_EQ(r.status, 0) << r.err;
    Json open_headers = Json::array();
    for (const Control& c : controls_in(read_json(dir / "w_start.json"))) {
        if (c.kind == "header" && c.value == "closed") open_headers.push_back(click(c.label));
    }
    Json script = open_headers;
    script.push_back({{"wait", 2}});
    script.push_back({{"widgets", "w_all.json"}});
    const std::vector<Control> all = controls_in([&] {
        Json s = script;
        EXPECT_EQ(gui(dir, s, args).status, 0);
        return read_json(dir / "w_all.json");
    }());
    std::map<std::string, std::vector<Control>> entries;
    {
        Json s = script;
        int k = 0;
        for (const Control& c : all) {
            if (c.kind != "combo" || !c.item_of.empty()) continue;
            s.push_back({{"click", c.label}, {"optional", true}});
            s.push_back({{"wait", 2}});  // the popup places itself
            s.push_back({{"widgets", "combo" + std::to_string(k++) + ".json"}});
            s.push_back({{"click", c.label}, {"optional", true}});  // closed again, as a person would
            s.push_back({{"wait", 2}});
        }
        r = gui(dir, s, args);
        ASSERT_EQ(r.status, 0) << r.err;
        for (int i = 0; i < k; ++i) {
            for (const Control& e : controls_in(read_json(dir / ("combo" + std::to_string(i) + ".json")))) {
                if (!e.item_of.empty()) entries[e.item_of].push_back(e);
            }
        }
    }

    // Act on every control.
    Crawl c;
    for (const Json& s : open_headers) c.step(s);
    c.act({"start"}, {});
    std::set<std::string> seen;
    // The UI scale last: it changes every layout after it (tabs instead of the grid).
    std::vector<Control> ordered;
    for (const Control& w : all) {
        if (w.label != "UI scale") ordered.push_back(w);
    }
    for (const Control& w : all) {
        if (w.label == "UI scale") ordered.push_back(w);
    }
    for (const Control& w : ordered) {
        if (w.label.empty() || !seen.insert(w.kind + ":" + w.label).second || !w.item_of.empty()) continue;
        if (w.kind == "header") {
            c.act({"close " + w.label}, {click(w.label)});
            c.act({"open " + w.label}, {click(w.label)});
        } else if (w.kind == "button") {
            if (w.label == "Step back") c.act({"click Step forward (so there is a step back)"}, {click("Step forward")});
            c.act({"click " + w.label}, {click(w.label)});
            // An export ends in its own time (a child process): wait for it, as a person watches the bar.
            if (w.label == "Start export") c.act({"click Cancel export"}, {click("Cancel export"), {{"wait", 90}}});
            if (w.label == "Open lesson") c.act({"click Close lesson"}, {click("Close lesson")});
            if (w.label == "Present") {
                c.act({"Escape (leave presenting)"}, {{{"wait", 2}}, {{"key", "Escape"}}});
                c.act({"Escape (close the lesson)"}, {{{"key", "Escape"}}});
            }
            if (w.label.size() > 2 && w.label[1] == ' ' && std::isdigit(static_cast<unsigned char>(w.label[0]))) {
                // A no-op when the title was not in view (a tab showing another view).
                c.act({"Escape (back to all views)", true}, {{{"key", "Escape"}}});
            }
        } else if (w.kind == "checkbox") {
            c.act({"toggle " + w.label}, {click(w.label)});
            c.act({"toggle " + w.label + " back"}, {click(w.label)});
        } else if (w.kind == "radio") {
            c.act({"choose " + w.label, w.value == "true"}, {click(w.label)});
        } else if (w.kind == "slider") {
            c.act({"drag " + w.label}, {{{"drag", w.label}, {"dx", 30}}});
            c.act({"drag " + w.label + " to its minimum"}, {{{"drag", w.label}, {"dx", -400}}});
        } else if (w.kind == "input") {
            const auto [bad, good] = typed_values(w.label);
            // Into the field's text, left of its label and its +/− buttons (and the first of two fields).
            const Json into = {{"click", w.label}, {"at", {0.1, 0.5}}};
            c.act({"type " + w.label + " = " + bad}, {into, {{"type", bad}}});
            c.act({"type " + w.label + " = " + good}, {into, {{"type", good}}});
        } else if (w.kind == "combo") {
            for (const Control& e : entries[w.label]) {
                c.act({"choose " + w.label + ": " + e.label, e.value == "true"}, {click(w.label), click(e.label)});
            }
            // Back to the first choice, so the rows it shows (a scaling type's) are there for the rest.
            for (const Control& e : entries[w.label]) {
                if (e.value == "true") c.act({"choose " + w.label + ": " + e.label + " again", true}, {click(w.label), click(e.label)});
            }
        } else if (w.kind == "tab") {
            c.act({"tab " + w.label, w.value == "true"}, {click(w.label)});
        }
    }
    r = gui(dir, c.script(), args);
    EXPECT_EQ(r.status, 0) << "the app died or refused the crawl\n" << r.err.substr(0, 4000);
    EXPECT_EQ(r.err.find("Assertion"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("duplicate"), std::string::npos) << r.err;

    // Which steps were skipped (their widget was not in view after earlier actions).
    std::size_t skipped = 0;
    for (std::size_t at = r.out.find("script: skipped"); at != std::string::npos; at = r.out.find("script: skipped", at + 1)) {
        ++skipped;
        std::printf("%s\n", r.out.substr(at, r.out.find('\n', at) - at).c_str());
    }
    std::vector<std::string> unchanged;
    for (std::size_t i = 1; i < c.actions().size(); ++i) {
        if (!something_changed(dir, i) && !c.actions()[i].may_be_noop) unchanged.push_back(c.actions()[i].what);
    }
    std::string covered;
    for (const Action& a : c.actions()) covered += a.what + "; ";
    std::printf("crawl %s: %zu actions, %zu skipped steps\n%s\n", name.c_str(), c.actions().size(), skipped, covered.c_str());
    std::string list;
    for (const std::string& u : unchanged) list += u + "\n";
    // An action whose widget was out of view changes nothing: those are the skipped ones.
    EXPECT_LE(unchanged.size(), skipped) << "actions that changed nothing and showed nothing:\n" << list << r.out.substr(0, 3000);
    EXPECT_LE(skipped, 2u) << r.out;
    EXPECT_GT(c.actions().size(), 120u);
}

TEST(Crawl, EveryControlAt1280x720) { crawl("1280", ""); }
TEST(Crawl, EveryControlAtUiScale2) { crawl("scale2", "--ui-scale 2"); }
// The rows that only some settings show: YaRN's betas and attention factor, the seed and S
// samples; llama3's band factors and custom q/k; LongRoPE's sequence length.
TEST(Crawl, YarnRowsAndMeanOfRandom) { crawl("yarn", "--preset qwen2.5-7b-yarn --vectors mean"); }
TEST(Crawl, Llama3RowsAndCustomVectors) { crawl("llama3", "--preset llama3.1-8b --vectors custom"); }
TEST(Crawl, LongRopeRowsAndRandomVectors) { crawl("longrope", "--preset phi3-mini-128k --vectors random"); }

// ---- the driver's own errors ------------------------------------------------------------------

TEST(Script, AMalformedScriptOrAMissingLabelExitsTwoNamingTheStep) {
    const fs::path dir = fresh_dir("errors");
    test::Result r = gui(dir, Json::array({{{"wait", 1}}, {{"clack", "Play"}}}));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("step 2 unknown field \"clack\""), std::string::npos) << r.err;
    r = gui(dir, Json::array({{{"key", "Hyper"}}}));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("unknown key \"Hyper\""), std::string::npos) << r.err;
    r = gui(dir, Json::array({{{"click", "No such button"}}}));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("step 1"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("no visible widget labelled \"No such button\""), std::string::npos) << r.err;
    // With --stats: the frame times of the scripted run.
    r = gui(dir, Json::array({{{"wait", 5}}}), "--stats");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\"frames\""), std::string::npos) << r.out;
}

// ---- lessons beside the lab ---------------------------------------------------------------

Json session_of(const fs::path& file) {
    Json j = read_json(file);
    j.erase("plots");
    return j;
}

// A real multimodal config in the window: its layer types in a picker, what was read in a
// section; a dropped file nested 60,000 deep is refused in the panel and the window lives on;
// a dropped Qwen config replaces the model and its layer picker goes.
TEST(RealConfigs, LayerPickerWhatWasReadAndDroppedFiles) {
    const fs::path dir = fresh_dir("configs");
    const std::string configs = std::string(ROPELAB_SOURCE_DIR) + "/tests/data/configs/";
    std::ofstream(dir / "deep.json") << "{\"head_dim\": " << std::string(60000, '[') << std::string(60000, ']') << "}";
    const Json script = {
        {{"wait", 2}},
        {{"state", "full.json"}},
        {{"click", "Layer type"}},
        {{"click", "sliding_attention"}},
        {{"wait", 2}},
        {{"state", "sliding.json"}},
        {{"click", "What was read"}},
        {{"wait", 2}},
        {{"widgets", "read.json"}},
        {{"screenshot", "what-was-read.png"}},
        {{"drop", (dir / "deep.json").string()}},
        {{"wait", 2}},
        {{"state", "after_deep.json"}},
        {{"widgets", "deep_widgets.json"}},
        {{"drop", configs + "qwen2.5-7b-instruct.json"}},
        {{"wait", 2}},
        {{"state", "qwen.json"}},
        {{"widgets", "qwen_widgets.json"}},
    };
    const test::Result r = gui(dir, script, "--config " + configs + "gemma-3-4b-it-v5.json");
    ASSERT_EQ(r.status, 0) << r.err;
    const Json full = session_of(dir / "full.json"), sliding = session_of(dir / "sliding.json");
    EXPECT_EQ(full["model"]["rope_theta"], 1e6);
    EXPECT_EQ(full["model"]["rope_scaling"]["factor"], 8.0);
    EXPECT_EQ(sliding["layer_type"], "sliding_attention");
    EXPECT_EQ(sliding["model"]["rope_theta"], 1e4);
    EXPECT_EQ(sliding["model"]["rope_scaling"]["rope_type"], "default");
    const auto any_label = [](const fs::path& file, const std::string& text) {
        for (const Json& w : read_json(file)) {
            if (w["label"].get<std::string>().find(text) != std::string::npos) return true;
        }
        return false;
    };
    EXPECT_TRUE(any_label(dir / "read.json", "Gemma3TextConfig") || any_label(dir / "read.json", "text_config"));
    EXPECT_EQ(session_of(dir / "after_deep.json"), sliding) << "a refused file must leave the model as it was";
    EXPECT_TRUE(any_label(dir / "deep_widgets.json", "nested deeper than 256"));
    const Json qwen = session_of(dir / "qwen.json");
    EXPECT_EQ(qwen["model"]["layout"], "half");
    EXPECT_EQ(qwen["model"]["rope_theta"], 1e6);
    EXPECT_FALSE(any_label(dir / "qwen_widgets.json", "Layer type"));
    EXPECT_TRUE(any_label(dir / "qwen_widgets.json", "modeling_qwen2.py"));
}

TEST(LessonFlow, EditsStayWhileALessonIsOpenAndCloseRestoresTheLab) {
    const fs::path dir = fresh_dir("lesson");
    const Json script = {
        {{"wait", 2}},
        {{"state", "before.json"}},
        {{"click", "Lesson"}},
        {{"click", "Open lesson"}},
        {{"wait", 5}},
        {{"click", "Next scene"}},
        {{"wait", 5}},
        {{"state", "scene.json"}},
        {{"drag", "θ (base)"}, {"dx", 40}},
        {{"wait", 60}},  // a second of the scene's clock: the edit must survive it
        {{"state", "edited.json"}},
        {{"widgets", "edited_widgets.json"}},
        {{"click", "Close lesson"}},
        {{"wait", 3}},
        {{"state", "after.json"}},
    };
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    const Json scene = session_of(dir / "scene.json"), edited = session_of(dir / "edited.json");
    EXPECT_NE(session_of(dir / "before.json"), scene) << "the lesson's scene should set the lab";
    const double theta = edited["model"]["rope_theta"];
    EXPECT_NE(theta, scene["model"]["rope_theta"].get<double>()) << "the drag did not change θ";
    bool paused = false;
    for (const Json& w : read_json(dir / "edited_widgets.json")) {
        if (w["kind"] == "message" && w["label"].get<std::string>().find("scene paused") != std::string::npos) paused = true;
    }
    EXPECT_TRUE(paused) << "editing should say the scene paused";
    EXPECT_EQ(session_of(dir / "after.json"), session_of(dir / "before.json")) << "Close lesson must restore the lab";
}

TEST(LessonFlow, LeavingPresentingRestoresTheUsersScaleAndTheme) {
    const fs::path dir = fresh_dir("present");
    const Json script = {
        {{"click", "Lesson"}},   {{"click", "Present"}},         {{"wait", 3}}, {{"state", "presenting.json"}},
        {{"key", "Escape"}},     {{"wait", 3}},                  {{"state", "left.json"}},
    };
    const test::Result r = gui(dir, script, "--ui-scale 1.5 --theme dark");
    ASSERT_EQ(r.status, 0) << r.err;
    const Json presenting = read_json(dir / "presenting.json"), left = read_json(dir / "left.json");
    EXPECT_EQ(presenting["layout"]["ui_scale"].get<double>(), 2.0);
    EXPECT_EQ(presenting["layout"]["theme"], "light");
    EXPECT_FALSE(presenting["layout"]["show_controls"].get<bool>());
    EXPECT_EQ(left["layout"]["ui_scale"].get<double>(), 1.5);
    EXPECT_EQ(left["layout"]["theme"], "dark");
    EXPECT_TRUE(left["layout"]["show_controls"].get<bool>());
}

// The Export panel aimed at a folder of the user's files, or at a folder named like a PNG: the
// reason is shown at once, and every file stays as it was.
TEST(ExportFromThePanel, AUsersFolderIsRefusedWithTheReason) {
    const fs::path dir = fresh_dir("export_refused");
    fs::create_directories(dir / "mine" / "nested");
    std::ofstream(dir / "mine" / "notes.txt") << "keep\n";
    std::ofstream(dir / "mine" / "nested" / "draft.tex") << "keep too\n";
    fs::create_directories(dir / "shot.png");
    const Json script = {
        {{"wait", 2}},
        {{"click", "Export"}},
        {{"click", "Export file"}, {"at", {0.1, 0.5}}},
        {{"type", "mine/"}},
        {{"click", "Start export"}},
        {{"wait", 3}},
        {{"widgets", "folder.json"}},
        {{"click", "Export file"}, {"at", {0.1, 0.5}}},
        {{"type", "shot.png"}},
        {{"click", "Start export"}},
        {{"wait", 3}},
        {{"widgets", "png.json"}},
    };
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto message = [](const fs::path& file) {
        for (const Json& w : read_json(file)) {
            const std::string label = w["label"];
            if (label.starts_with("not saved")) return label;
        }
        return std::string();
    };
    EXPECT_NE(message(dir / "folder.json").find("is not empty (2 entries)"), std::string::npos) << message(dir / "folder.json");
    EXPECT_NE(message(dir / "png.json").find("shot.png is a folder"), std::string::npos) << message(dir / "png.json");
    EXPECT_EQ(test::slurp((dir / "mine" / "notes.txt").string()), "keep\n");
    EXPECT_EQ(test::slurp((dir / "mine" / "nested" / "draft.tex").string()), "keep too\n");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir / "mine"), fs::directory_iterator()), 2);
    EXPECT_TRUE(fs::is_directory(dir / "shot.png"));
}

// A clicker's six quick PageDown presses, all within one frame, move six scenes.
TEST(LessonFlow, SixKeyPressesInsideOneFrameAllCount) {
    const fs::path dir = fresh_dir("keys");
    const Json script = {{{"wait", 3}}, {{"key", "PageDown"}, {"repeat", 6}}, {{"wait", 2}}, {{"widgets", "w.json"}}};
    const test::Result r = gui(dir, script, "--lesson builtin --present");
    ASSERT_EQ(r.status, 0) << r.err;
    std::string scene;
    for (const Json& w : read_json(dir / "w.json")) {
        if (w["label"].get<std::string>().starts_with("scene ")) scene = w["label"];
    }
    EXPECT_EQ(scene, "scene 7/11");
}

// ---- every text fits its box ------------------------------------------------------------------

// Runs `script` (a list of steps) with a {"clipped": …} dump after each `{"check": NAME}` step,
// and returns every clipped text found, as "NAME: "text" needs N px, has M px".
std::vector<std::string> clipped_texts(const std::string& name, const std::string& args, Json steps) {
    const fs::path dir = fresh_dir(name);
    Json script = Json::array();
    std::vector<std::string> checks;
    for (Json& step : steps) {
        if (!step.contains("check")) {
            script.push_back(step);
            continue;
        }
        checks.push_back(step["check"]);
        script.push_back({{"wait", 3}});
        script.push_back({{"clipped", "c" + std::to_string(checks.size() - 1) + ".json"}});
    }
    const test::Result r = gui(dir, script, args);
    EXPECT_EQ(r.status, 0) << r.err;
    std::vector<std::string> found;
    for (std::size_t i = 0; i < checks.size(); ++i) {
        const Json clipped = read_json(dir / ("c" + std::to_string(i) + ".json"));
        EXPECT_TRUE(clipped.is_array()) << checks[i];
        if (!clipped.is_array()) continue;
        for (const Json& c : clipped) {
            found.push_back(fmt::format("{}: \"{}\" needs {} px, has {} px", checks[i], c["text"].get<std::string>(),
                                        c["needed"].get<double>(), c["room"].get<double>()));
        }
    }
    return found;
}

std::string listed(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& line : lines) out += line + "\n";
    return out;
}

// Every title, caption, legend, tick label and readout is measured with the font against its
// box as it is drawn; none may be cut: the eight views at 1280×720 and at 1920×1080, and each
// view shown alone (the tab row) at UI scale 2 in the light theme.
TEST(TextFits, TheLabAtLaptopAndProjectorSizesAndAtScale2) {
    EXPECT_EQ(listed(clipped_texts("fit720", "", {{{"check", "1280x720"}}})), "");
    EXPECT_EQ(listed(clipped_texts("fit1080", "--size 1920x1080", {{{"check", "1920x1080"}}})), "");
    for (const char* theme : {"light", "dark"}) {
        Json steps = Json::array();
        const char* tabs[] = {"1 Planes", "2 Add vs rotate", "3 Scores", "4 Invariance", "5 Heatmap", "6 Frequencies",
                              "7 Numbers", "8 Precision"};
        for (const char* tab : tabs) {
            steps.push_back({{"click", tab}});
            steps.push_back({{"check", fmt::format("scale 2, {}, {}", theme, tab)}});
        }
        EXPECT_EQ(listed(clipped_texts(fmt::format("fit2{}", theme), fmt::format("--ui-scale 2 --theme {}", theme), steps)), "");
    }
    // A naive angle mode with its difference plot, and a scaled model's frequencies.
    EXPECT_EQ(listed(clipped_texts("fitmodes", "--angle-mode bf16 --mode-difference --preset qwen2.5-7b-yarn",
                                   {{{"check", "bf16 + difference, YaRN"}}})), "");
}

// Every lesson slide, presented on this display (ctest runs this at 1920×1080 and, as its own
// entry, on a 1280×720 screen).
// Compare mode: every view with four settings, in a grid cell and alone, at 1280×720 and scale 2.
TEST(TextFits, CompareMode) {
    Json steps = Json::array({{{"check", "four settings, 1280x720"}}});
    for (const char* key : {"1", "3", "5", "6", "7", "8"}) {
        steps.push_back({{"key", key}});
        steps.push_back({{"check", fmt::format("view {} large", key)}});
        steps.push_back({{"key", "Escape"}});
    }
    EXPECT_EQ(listed(clipped_texts("fitcompare", "--comparison llama3.1-scaling --heatmap-difference 1", steps)), "");
    EXPECT_EQ(listed(clipped_texts("fitcompare2", "--comparison gemma3-layers --ui-scale 2 --theme light",
                                   {{{"check", "scale 2, light"}}})), "");
}

// The Compare section used as a person does: a built-in comparison, a preset added, the base
// duplicated, a fourth refused in words, one removed, one made the base, the heatmap's
// difference chosen, and comparing stopped — each through clicks on the real window.
TEST(Compare, ThroughThePanel) {
    const fs::path dir = fresh_dir("compare_panel");
    const Json script = {
        {{"wait", 3}},
        {{"click", "Compare"}},
        {{"click", "Built in"}}, {{"click", "Llama 2 vs Llama 3"}}, {{"wait", 2}}, {{"state", "s1.json"}},
        {{"click", "Add preset"}}, {{"click", "Mistral 7B v0.3"}}, {{"wait", 2}}, {{"state", "s2.json"}},
        {{"click", "Duplicate base"}}, {{"wait", 2}}, {{"state", "s3.json"}},
        {{"click", "Add preset"}}, {{"click", "Qwen2.5 7B"}}, {{"wait", 2}}, {{"state", "s4.json"}}, {{"widgets", "w4.json"}},
        {{"click", "Remove"}}, {{"wait", 2}}, {{"state", "s5.json"}},
        {{"click", "Make base"}}, {{"wait", 2}}, {{"state", "s6.json"}},
        {{"click", "Heatmap"}}, {{"click", "base − Llama 2"}}, {{"wait", 2}}, {{"state", "s7.json"}},
        {{"click", "Stop comparing"}}, {{"wait", 2}}, {{"state", "s8.json"}},
    };
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    const Json s1 = read_json(dir / "s1.json"), s2 = read_json(dir / "s2.json"), s3 = read_json(dir / "s3.json");
    EXPECT_EQ(s1["preset"], "llama2-7b");
    EXPECT_EQ(s1["compare"]["count"], 1);
    EXPECT_EQ(s1["compare"]["1"]["model"]["rope_theta"], 500000.0);
    EXPECT_EQ(s2["compare"]["count"], 2);
    EXPECT_EQ(s2["compare"]["2"]["model"]["rope_theta"], 1e6);
    EXPECT_EQ(s3["compare"]["count"], 3);
    EXPECT_EQ(s3["compare"]["3"]["model"], s3["model"]);  // a copy of the base, to edit
    EXPECT_EQ(read_json(dir / "s4.json"), s3);            // a fourth is refused, the state stays
    bool said = false;
    for (const Json& w : read_json(dir / "w4.json")) said = said || w["label"].get<std::string>().find("at most 3") != std::string::npos;
    EXPECT_TRUE(said) << "the refusal should be shown";
    const Json s5 = read_json(dir / "s5.json"), s6 = read_json(dir / "s6.json");
    EXPECT_EQ(s5["compare"]["count"], 2);
    EXPECT_EQ(s5["compare"]["1"]["model"]["rope_theta"], 1e6);  // Llama 3 removed, Mistral moved up
    EXPECT_EQ(s6["model"]["rope_theta"], 1e6);                  // Mistral is the base now
    EXPECT_EQ(s6["compare"]["1"]["name"], "Llama 2");
    EXPECT_EQ(read_json(dir / "s7.json")["compare"]["heatmap_difference"], 1);
    EXPECT_EQ(read_json(dir / "s8.json")["compare"]["count"], 0);
}

TEST(Crawl, CompareSection) { crawl("compare", "--comparison llama3.1-scaling"); }

TEST(TextFits, EveryLessonSlide) {
    Json steps = Json::array();
    for (int scene = 1; scene <= 11; ++scene) {
        steps.push_back({{"check", fmt::format("scene {}", scene)}});
        steps.push_back({{"key", "PageDown"}});
    }
    EXPECT_EQ(listed(clipped_texts("fitlesson", "--lesson builtin --present", steps)), "");
}

// ---- exports carry the whole state ------------------------------------------------------------

std::vector<unsigned char> pixels(const fs::path& png, int& w, int& h) {
    int channels = 0;
    unsigned char* data = stbi_load(png.c_str(), &w, &h, &channels, 4);
    if (!data) return {};
    std::vector<unsigned char> out(data, data + static_cast<std::size_t>(w) * h * 4);
    stbi_image_free(data);
    return out;
}

// While playing, the planes glide between whole positions: two frames at the same m differ;
// with "Planes move stepwise" they are the same picture. The readout stays a whole position.
TEST(Planes, GlideBetweenPositionsUnlessStepwise) {
    for (const bool stepwise : {false, true}) {
        const fs::path dir = fresh_dir(stepwise ? "planes_step" : "planes_glide");
        const Json script = {
            {{"key", "1"}},  // the planes view large
            {{"wait", 4}},
            {{"screenshot", "a.png"}},
            {{"state", "a.json"}},
            {{"wait", 6}},
            {{"screenshot", "b.png"}},
            {{"state", "b.json"}},
        };
        // 1 position per second at 60 scripted frames per second: m stays 0 over these frames.
        const test::Result r =
            test::run(std::string("gui --size 1280x720 --speed 1 --pair 0") + (stepwise ? " --stepwise" : "") + " --script script.json",
                      "cd '" + dir.string() + "' && echo '" + script.dump() + "' > script.json &&");
        ASSERT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(session_of(dir / "a.json")["focus"]["position"], 0);
        EXPECT_EQ(session_of(dir / "b.json")["focus"]["position"], 0);
        int w = 0, h = 0;
        const auto a = pixels(dir / "a.png", w, h), b = pixels(dir / "b.png", w, h);
        ASSERT_FALSE(a.empty());
        ASSERT_EQ(a.size(), b.size());
        std::size_t differing = 0;
        for (std::size_t i = 0; i < a.size(); ++i) differing += a[i] != b[i];
        if (stepwise) {
            EXPECT_EQ(differing, 0u) << "stepwise: nothing may move between whole positions";
        } else {
            EXPECT_GT(differing, 100u) << "the arrows should glide while m stays 0";
        }
    }
}

// Presenter aids through the real window: S over the score plot spotlights view 3 (the other
// views are dimmed, view 3 is not), S again turns it off; holding L leaves a bright red dot at
// the pointer, which the plain picture does not have.
TEST(PresenterAids, SpotlightWithSAndALaserWithL) {
    const fs::path dir = fresh_dir("aids");
    const Json script = {
        {{"wait", 3}},        {{"click", "scores"}},           {{"wait", 2}},        {{"screenshot", "plain.png"}},
        {{"widgets", "w.json"}}, {{"key", "S"}},               {{"wait", 2}},        {{"state", "spot.json"}},
        {{"screenshot", "spot.png"}}, {{"key", "S"}},          {{"wait", 2}},        {{"state", "off.json"}},
        {{"key", "L"}},       {{"screenshot", "laser.png"}},
    };
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(read_json(dir / "spot.json")["layout"]["spotlight"], 3);
    EXPECT_EQ(read_json(dir / "off.json")["layout"]["spotlight"], 0);

    int w = 0, h = 0;
    const auto plain = pixels(dir / "plain.png", w, h), spot = pixels(dir / "spot.png", w, h),
               laser = pixels(dir / "laser.png", w, h);
    ASSERT_FALSE(plain.empty());
    ASSERT_EQ(plain.size(), spot.size());
    ASSERT_EQ(plain.size(), laser.size());
    // Mean brightness of a box below a view's title bar, and the laser's red inside a box.
    const auto box_of = [&](const std::string& label) {
        for (const Json& wd : read_json(dir / "w.json")) {
            if (wd["label"] == label) return std::array<int, 4>{wd["x"].get<int>(), wd["y"].get<int>(), wd["w"].get<int>(), wd["h"].get<int>()};
        }
        ADD_FAILURE() << "no widget " << label;
        return std::array<int, 4>{0, 0, 1, 1};
    };
    const auto brightness = [&](const std::vector<unsigned char>& img, std::array<int, 4> b) {
        double sum = 0;
        int n = 0;
        for (int y = b[1] + b[3]; y < std::min(h, b[1] + b[3] + 120); ++y) {
            for (int x = b[0]; x < std::min(w, b[0] + b[2]); ++x, ++n) {
                const std::size_t i = (static_cast<std::size_t>(y) * w + x) * 4;
                sum += img[i] + img[i + 1] + img[i + 2];
            }
        }
        return sum / std::max(1, n);
    };
    const auto heatmap = box_of("5 Angle heatmap"), scores = box_of("3 Score vs distance");
    EXPECT_LT(brightness(spot, heatmap), 0.5 * brightness(plain, heatmap)) << "the heatmap should be dimmed";
    EXPECT_NEAR(brightness(spot, scores), brightness(plain, scores), 0.02 * brightness(plain, scores) + 1)
        << "the spotlit view stays as it was";
    const auto plot = box_of("scores");
    const auto laser_red = [&](const std::vector<unsigned char>& img) {
        int n = 0;
        const int cx = plot[0] + plot[2] / 2, cy = plot[1] + plot[3] / 2;
        for (int y = std::max(0, cy - 30); y < std::min(h, cy + 30); ++y) {
            for (int x = std::max(0, cx - 30); x < std::min(w, cx + 30); ++x) {
                const std::size_t i = (static_cast<std::size_t>(y) * w + x) * 4;
                n += img[i] > 220 && img[i + 1] < 90 && img[i + 2] < 90;
            }
        }
        return n;
    };
    EXPECT_EQ(laser_red(plain), 0);
    EXPECT_GT(laser_red(laser), 20) << "a laser dot at the pointer";
}

// A lab far from the defaults: seed, custom q/k, naive angles, YaRN with its betas.
std::string unusual_session() {
    Json q = Json::array(), k = Json::array();
    std::string qs, ks;
    for (int i = 0; i < 64; ++i) {
        qs += (i ? "," : "") + std::to_string(std::sin(0.7 * i + 0.2));
        ks += (i ? "," : "") + std::to_string(std::cos(1.3 * i));
    }
    const Json j = {
        {"ropelab_session", 2},
        {"preset", "custom"},
        {"model",
         {{"head_dim", 64}, {"rope_theta", 50000.0}, {"max_position_embeddings", 32768},
          {"rope_scaling", {{"rope_type", "yarn"}, {"factor", 8.0}, {"beta_fast", 24.0}, {"beta_slow", 2.0},
                            {"original_max_position_embeddings", 4096}}}}},
        {"curves", {{"vectors", "custom"}, {"seed", 1234}, {"custom_q", qs}, {"custom_k", ks}, {"angle_mode", "naive-fp32"},
                    {"max_distance", 8192}}},
        {"focus", {{"pair", 5}, {"position", 70000}, {"key_distance", 9}}},
        {"playback", {{"playing", false}}},
    };
    return j.dump();
}

TEST(ExportFromThePanel, EqualsRenderOfTheSameSession) {
    const fs::path dir = fresh_dir("export");
    std::ofstream(dir / "unusual.json") << unusual_session();
    Json script = {{{"wait", 3}}, {{"click", "Export"}}};
    const std::vector<std::pair<std::string, std::string>> views = {
        {"scores", "3 Score vs distance"}, {"planes", "1 Rotation planes"}, {"numbers", "7 Numbers"}};
    for (const auto& [name, entry] : views) {
        script.push_back({{"click", "Export file"}});
        script.push_back({{"type", "panel-" + name + ".png"}});
        script.push_back({{"click", "View"}});
        script.push_back({{"click", entry}});
        script.push_back({{"click", "Start export"}});
        script.push_back({{"wait", 240}});
    }
    script.push_back({{"state", "state.json"}});
    const test::Result r = gui(dir, script, "--session unusual.json");
    ASSERT_EQ(r.status, 0) << r.err;
    for (const auto& [name, entry] : views) {
        const fs::path cli = dir / ("cli-" + name + ".png");
        const test::Result c = test::run("render --session '" + (dir / "state.json").string() + "' --view " + name +
                                         " --size 1280x720 --out '" + cli.string() + "'");
        ASSERT_EQ(c.status, 0) << c.err;
        int w1 = 0, h1 = 0, w2 = 0, h2 = 0;
        const auto panel = pixels(dir / ("panel-" + name + ".png"), w1, h1);
        const auto command = pixels(cli, w2, h2);
        ASSERT_FALSE(panel.empty()) << "the panel export of " << name << " was not written\n" << r.out.substr(0, 2000);
        EXPECT_EQ(w1, w2);
        EXPECT_EQ(h1, h2);
        EXPECT_TRUE(panel == command) << name << ": the panel's export differs from render --session";
    }
}

// ---- hostile sessions are refused at the door ----------------------------------------------

std::string base64url(const std::string& bytes) {
    static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string out;
    unsigned buffer = 0;
    int bits = 0;
    for (unsigned char c : bytes) {
        buffer = (buffer << 8) | c;
        bits += 8;
        while (bits >= 6) out += alphabet[(buffer >> (bits -= 6)) & 63];
    }
    if (bits > 0) out += alphabet[(buffer << (6 - bits)) & 63];
    return out;
}

TEST(HostileSession, HugeValuesAreRefusedNamingTheFieldWithinASecond) {
    const std::vector<std::pair<Json, std::string>> cases = {
        {{{"ropelab_session", 2}, {"curves", {{"samples", 2e9}}}}, "curves.samples = 2000000000 is out of range (1 .. 65536)"},
        {{{"ropelab_session", 2}, {"model", {{"head_dim", 2e7}}}}, "model.head_dim = 20000000 is out of range (2 .. 512)"},
        {{{"ropelab_session", 2}, {"curves", {{"invariance_distance", 9223372036854775807LL}}}},
         "curves.invariance_distance = 9223372036854775807 is out of range (0 .. 2147483647)"},
    };
    for (const auto& [session, words] : cases) {
        const auto start = std::chrono::steady_clock::now();
        const test::Result r = test::run("gui --frames 1 --session " + base64url(session.dump()));
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        EXPECT_EQ(r.status, 2) << session.dump();
        EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
        EXPECT_LT(seconds, 1.0) << session.dump();
    }
    // The same refusal when the string is pasted into the panel; the lab keeps its state.
    const fs::path dir = fresh_dir("hostile");
    const Json script = {{{"state", "before.json"}},
                         {{"click", "Session"}},
                         {{"click", "Share string"}},
                         {{"type", base64url(cases[0].first.dump())}},
                         {{"click", "Open share string"}},
                         {{"wait", 2}},
                         {{"widgets", "w.json"}},
                         {{"state", "after.json"}}};
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    bool named = false;
    for (const Json& w : read_json(dir / "w.json")) {
        if (w["kind"] == "message" && w["label"].get<std::string>().find(cases[0].second) != std::string::npos) named = true;
    }
    EXPECT_TRUE(named) << "the panel should show: " << cases[0].second;
    EXPECT_EQ(session_of(dir / "before.json"), session_of(dir / "after.json"));
}

// ---- random clicking through the X server ----------------------------------------------------

int sh(const std::string& command) { return std::system(command.c_str()); }

bool alive(pid_t pid) {
    int status = 0;
    return waitpid(pid, &status, WNOHANG) == 0;
}

void random_session(unsigned seed, int actions) {
    const fs::path dir = fresh_dir("random" + std::to_string(seed));
    const pid_t pid = fork();
    if (pid == 0) {
        fs::current_path(dir);
        setenv("ROPELAB_SCREENSHOT_DIR", dir.c_str(), 1);
        const int log = ::open((dir / "app.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(log, 1);
        dup2(log, 2);
        execl(ROPELAB_BINARY, ROPELAB_BINARY, "gui", "--size", "1280x720", "--ui-scale", "1", static_cast<char*>(nullptr));
        _exit(127);
    }
    ASSERT_GT(pid, 0);
    const std::string window_file = (dir / "window.txt").string();
    ASSERT_EQ(sh("timeout 20 xdotool search --sync --onlyvisible --pid " + std::to_string(pid) + " > '" + window_file + "'"), 0);
    std::string window = test::slurp(window_file);
    window = window.substr(0, window.find('\n'));
    ASSERT_FALSE(window.empty());
    std::mt19937 rng(seed);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    static const char* keys[] = {"Escape", "Tab", "space", "Right", "Left", "Up", "Down", "Next", "Prior", "Home", "End",
                                 "F1", "b", "1", "3", "5", "8", "plus", "minus", "Return", "BackSpace", "a", "ctrl+a"};
    const std::string w = " --window " + window + " ";
    for (int i = 0; i < actions && alive(pid); ++i) {
        const int x = pick(1280), y = pick(720);
        switch (pick(10)) {
            case 0:
            case 1:
            case 2:
            case 3: sh("xdotool mousemove" + w + std::to_string(x) + " " + std::to_string(y) + " click 1"); break;
            case 4:
                sh("xdotool mousemove" + w + std::to_string(x) + " " + std::to_string(y) + " mousedown 1 mousemove_relative -- " +
                   std::to_string(pick(200) - 100) + " " + std::to_string(pick(100) - 50) + " mouseup 1");
                break;
            case 5: sh("xdotool mousemove" + w + std::to_string(x) + " " + std::to_string(y) + " click --repeat 2 1"); break;
            case 6: sh("xdotool mousemove" + w + std::to_string(x) + " " + std::to_string(y) + " click " + std::to_string(4 + pick(2))); break;
            case 7:
            case 8: sh("xdotool key" + w + keys[pick(static_cast<int>(std::size(keys)))]); break;
            case 9: sh("xdotool type" + w + "-- " + std::to_string(pick(100000))); break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(15));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const bool survived = alive(pid);
    kill(pid, SIGTERM);
    int status = 0;
    waitpid(pid, &status, 0);
    const std::string log = test::slurp((dir / "app.log").string());
    EXPECT_TRUE(survived) << "seed " << seed << ": the app died\n" << log.substr(0, 4000);
    EXPECT_EQ(log.find("Assertion"), std::string::npos) << log;
    EXPECT_EQ(log.find("duplicate"), std::string::npos) << log;
}

TEST(RandomClicks, ThreeSeedsOfThreeHundredActionsLeaveTheAppAlive) {
    for (unsigned seed : {1u, 2u, 3u}) random_session(seed, 300);
}

}  // namespace
}  // namespace ropelab
