// tests/ui: the script driver's own errors, real configs, lessons beside the lab, exports refused
// from the panel and the Compare section, each through the real window.
#include <iterator>

#include "script.h"

namespace ropelab::ui_script {
namespace {

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
    EXPECT_EQ(scene, "scene 7/15");
}

// ---- comparing -------------------------------------------------------------------------------

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

}  // namespace
}  // namespace ropelab::ui_script
