// tests/ui: the crawl — every header opened, every control clicked, dragged and typed into.
#include <map>
#include <set>

#include "script.h"

namespace ropelab::ui_script {
namespace {

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
        {"Layout", {"image:0x4x4", "text:2,image:1x4x4,text:1"}},
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
    // The views' own compare control first (the setting views 2 and 4 show): the panel's
    // compare, comparison and reset controls after it end compare mode. The UI scale last: it
    // changes every layout after it (tabs instead of the grid).
    std::vector<Control> ordered;
    for (const Control& w : all) {
        if (w.label == "setting shown") ordered.push_back(w);
    }
    for (const Control& w : all) {
        if (w.label != "UI scale" && w.label != "setting shown") ordered.push_back(w);
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
            // An export starts before the frame after the one its click asked in (gui's loop
            // hands the request on then): a frame more for its bar to show.
            std::vector<Json> press = {click(w.label)};
            if (w.label == "Start export") press.push_back({{"wait", 1}});
            c.act({"click " + w.label}, press);
            // An export ends in its own time (a child process): wait for it, as a person watches the bar.
            if (w.label == "Start export") c.act({"click Cancel export"}, {click("Cancel export"), {{"wait", 90}}});
            // A recorded scene opens a lesson of its own: closed, the workspace tabs are back.
            if (w.label == "Open lesson" || w.label == "Record scene") c.act({"click Close lesson"}, {click("Close lesson")});
            // A Browse button (or Save as…) opens the file dialog, a modal: a person cancels it
            // to go on with the panel.
            if (w.label.rfind("Browse", 0) == 0 || w.label.find(" as…") != std::string::npos) {
                c.act({"click Cancel (close the file dialog)"}, {click("Cancel")});
            }
            if (w.label == "Present" || w.label == "Present with notes") {
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
            // The tabs show above the workspace's views, not over one view shown large (an
            // earlier action may have shown one): Esc first, as a person would.
            c.act({"Escape (the workspace's views)", true}, {{{"key", "Escape"}}});
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

TEST(Crawl, CompareSection) { crawl("compare", "--comparison llama3.1-scaling"); }

}  // namespace
}  // namespace ropelab::ui_script
