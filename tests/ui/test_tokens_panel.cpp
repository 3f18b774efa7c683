// tests/ui: the Images section in the real window: a layout typed into its field is drawn as a
// token strip with its ids; the rule combo flags what 5.x changes; a bad layout is refused in the
// panel, naming the part, with the state left as it was.
#include "script.h"

namespace ropelab::ui_script {
namespace {

const Json* widget(const Json& widgets, const std::string& label) {
    for (const Json& w : widgets) {
        if (w["label"] == label) return &w;
    }
    return nullptr;
}

bool any_label(const Json& widgets, const std::string& text) {
    for (const Json& w : widgets) {
        if (w["label"].get<std::string>().find(text) != std::string::npos) return true;
    }
    return false;
}

// The steps after opening the Images section, with the sections above it closed so the strip
// is in view for the screenshots.
Json in_images_section(const Json& steps) {
    Json script = {{{"wait", 2}}, {{"click", "Model"}}, {{"click", "Curves"}}, {{"click", "Position and playback"}}, {{"click", "Images"}}};
    for (const Json& step : steps) script.push_back(step);
    return script;
}

TEST(TokensPanel, TypedLayoutIsDrawnRuleFlagsAndBadLayoutIsRefused) {
    const fs::path dir = fresh_dir("tokens_panel");
    const Json into = {{"click", "Layout"}, {"at", {0.1, 0.5}}};
    const Json script = in_images_section({
        {{"wait", 1}},
        into,
        {{"type", "text:2,video:3x4x4,text:1"}},
        {{"wait", 2}},
        {{"state", "typed.json"}},
        {{"widgets", "typed_widgets.json"}},
        {{"screenshot", "tokens-4x.png"}},
        {{"click", "Rule"}},
        {{"click", "5.x"}},
        {{"wait", 2}},
        {{"state", "v5.json"}},
        {{"widgets", "v5_widgets.json"}},
        {{"screenshot", "tokens-5x.png"}},
        // Hover the strip's first box: the first text token.
        {{"click", "token strip"}, {"at", {0.0, 0.5}}},
        {{"wait", 1}},
        {{"widgets", "hover_widgets.json"}},
        {{"screenshot", "tokens-hover.png"}},
        into,
        {{"type", "image:0x4x4"}},
        {{"wait", 2}},
        {{"state", "refused.json"}},
        {{"widgets", "refused_widgets.json"}},
    });
    const test::Result r = gui(dir, script, "--position-ids qwen2_vl");
    ASSERT_EQ(r.status, 0) << r.err;

    const Json typed = session_of(dir / "typed.json");
    EXPECT_EQ(typed["images"]["tokens"], "text:2,video:3x4x4,text:1");
    // Qwen2-VL, release rule 4.x: 2 text, <vision_start>, 3 frames × 2 × 2, <vision_end>, 1 text;
    // frames at t = 3, 4, 5; 4.x puts <vision_end> at 6 and the text at 7, 5.x at 3 + max(2, 2) = 5
    // and 6: two tokens differ.
    const Json typed_widgets = read_json(dir / "typed_widgets.json");
    const Json* strip = widget(typed_widgets, "token strip");
    ASSERT_NE(strip, nullptr);
    const std::string drawn = (*strip)["value"];
    EXPECT_NE(drawn.find("17 tokens: 3 text, 2 vision start/end, 0 image, 12 video"), std::string::npos) << drawn;
    EXPECT_NE(drawn.find("rule 4.x; 2 differ under 5.x"), std::string::npos) << drawn;
    EXPECT_EQ(drawn.find("overlap"), std::string::npos) << drawn;
    EXPECT_GT((*strip)["h"].get<double>(), 10.0);

    const Json v5 = session_of(dir / "v5.json");
    EXPECT_EQ(v5["images"]["position_rule"], "5.x");
    const std::string drawn5 = (*widget(read_json(dir / "v5_widgets.json"), "token strip"))["value"];
    // Under 5.x <vision_end> (t 5) sits at the last frame's t (5): one overlap; the text (6) is past it.
    EXPECT_NE(drawn5.find("rule 5.x; 2 differ under 4.x; 1 overlap"), std::string::npos) << drawn5;

    // The pointer on the first token: its ids under both rules.
    const std::string hovered = (*widget(read_json(dir / "hover_widgets.json"), "token strip"))["value"];
    EXPECT_NE(hovered.find("hover: token 0: text (part 1)\n(t, h, w) under 5.x: (0, 0, 0)\n(t, h, w) under 4.x: (0, 0, 0)"),
              std::string::npos) << hovered;

    const Json refused_widgets = read_json(dir / "refused_widgets.json");
    EXPECT_TRUE(any_label(refused_widgets, "part 1 'image:0x4x4'")) << refused_widgets.dump(1).substr(0, 3000);
    EXPECT_EQ(session_of(dir / "refused.json"), v5) << "a refused layout must leave the state as it was";
    const Json* field = widget(refused_widgets, "Layout");
    ASSERT_NE(field, nullptr);
    EXPECT_EQ((*field)["value"], "text:2,video:3x4x4,text:1");
}

// The section and its strip fit: at 1280×720, 1920×1080 and UI scale 2, with a layout whose 5.x
// ids overlap (the longest warning lines), no text is cut.
TEST(TokensPanel, FitsAtLaptopProjectorAndScale2) {
    const std::pair<const char*, const char*> sizes[] = {
        {"720", ""}, {"1080", "--size 1920x1080"}, {"scale2", "--ui-scale 2"}, {"scale2_1080", "--size 1920x1080 --ui-scale 2"}};
    for (const auto& [name, args] : sizes) {
        SCOPED_TRACE(name);
        const fs::path dir = fresh_dir(std::string("tokens_fit_") + name);
        const Json script = in_images_section({
            {{"click", "Layout"}, {"at", {0.1, 0.5}}},
            {{"type", "text:3,image:1x4x6,text:2,video:3x4x4@2.0,text:4"}},
            {{"wait", 3}},
            {{"clipped", "clipped.json"}},
            {{"widgets", "widgets.json"}},
            {{"screenshot", "tokens.png"}},
        });
        const test::Result r = gui(dir, script, std::string("--position-ids qwen2_vl --rule 5.x ") + args);
        ASSERT_EQ(r.status, 0) << r.err;
        const Json clipped = read_json(dir / "clipped.json");
        EXPECT_TRUE(clipped.is_array() && clipped.empty()) << clipped.dump(1);
        const Json widgets = read_json(dir / "widgets.json");
        const Json* strip = widget(widgets, "token strip");
        ASSERT_NE(strip, nullptr);
        EXPECT_NE((*strip)["value"].get<std::string>().find("overlap"), std::string::npos);
    }
}

}  // namespace
}  // namespace ropelab::ui_script
