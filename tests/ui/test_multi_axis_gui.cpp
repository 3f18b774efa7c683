// tests/ui: a multimodal config in the real window: its vision tower picked from the Layer type
// picker (the panel's own combo, clicked), and a hostile mrope_section dropped on the window is
// refused in the panel, naming the field and value, with the model left as it was.
#include <fstream>

#include "script.h"

namespace ropelab::ui_script {
namespace {

TEST(MultiAxisConfigs, VisionTowerFromTheLayerPickerAndAHostileSectionLeavesTheModel) {
    const fs::path dir = fresh_dir("multi_axis");
    const std::string configs = std::string(ROPELAB_SOURCE_DIR) + "/tests/data/configs/";
    {
        std::ifstream in(configs + "qwen2-vl-7b-instruct.json");
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const auto at = text.find("\"mrope_section\"");
        text.replace(text.find('[', at), text.find(']', at) - text.find('[', at) + 1, "[16, 24, 25]");
        std::ofstream(dir / "hostile.json") << text;
    }
    const Json script = {
        {{"wait", 2}},
        {{"state", "text.json"}},
        {{"click", "Layer type"}},
        {{"click", "vision"}},
        {{"wait", 2}},
        {{"state", "vision.json"}},
        {{"drop", (dir / "hostile.json").string()}},
        {{"wait", 2}},
        {{"state", "after.json"}},
        {{"widgets", "after_widgets.json"}},
        {{"screenshot", "multi-axis-refused.png"}},
    };
    const test::Result r = gui(dir, script, "--config " + configs + "qwen2-vl-7b-instruct.json");
    ASSERT_EQ(r.status, 0) << r.err;
    const Json text = session_of(dir / "text.json"), vision = session_of(dir / "vision.json");
    EXPECT_EQ(text["layer_type"], "text");
    EXPECT_EQ(text["model"]["head_dim"], 128);
    EXPECT_EQ(text["model"]["multi_axis"]["rule"], "sections");
    EXPECT_EQ(vision["layer_type"], "vision");
    EXPECT_EQ(vision["model"]["head_dim"], 80);  // embed_dim 1280 / 16 heads
    EXPECT_EQ(vision["model"]["rope_theta"], 1e4);
    EXPECT_EQ(vision["model"]["multi_axis"]["rule"], "axial");
    EXPECT_EQ(session_of(dir / "after.json"), vision) << "a refused file must leave the model as it was";
    bool named = false;
    for (const Json& w : read_json(dir / "after_widgets.json")) {
        named |= w["label"].get<std::string>().find("rope_scaling.mrope_section = [16, 24, 25] adds up to 65 pairs") != std::string::npos;
    }
    EXPECT_TRUE(named);
}

}  // namespace
}  // namespace ropelab::ui_script
