// The panel's layer picker as the lab performs it (lab/actions): a preset or config with per-layer
// rules lists its layers, picking one reloads that layer's setting and attention rules, −1 goes
// back to the default layer, and an out-of-range layer is refused with the model kept.
#include <gtest/gtest.h>

#include "support/files.h"

#include "lab/actions.h"

namespace ropelab {
namespace {

using ropelab::test::corpus;

TEST(LayerActions, PresetLayersArePickedAndUnpicked) {
    LabParams p;
    lab::Status s;
    ASSERT_TRUE(lab::select_preset(p, s, "llama4-scout")) << s.error;
    ASSERT_EQ(s.layer_labels.size(), 48u);
    EXPECT_TRUE(s.layers_from_preset);
    EXPECT_EQ(s.default_layer, 0);
    EXPECT_EQ(s.layer_labels[3], "3: full_attention (NoPE, temperature)");
    EXPECT_EQ(s.layer_previews[0], "layer 0: RoPE, chunk 8192");
    EXPECT_EQ(p.layer, -1);
    EXPECT_EQ(p.model.attention.attention_chunk, 8192);
    ASSERT_TRUE(lab::pick_layer(p, s, 3)) << s.error;
    EXPECT_EQ(p.layer, 3);
    EXPECT_FALSE(p.model.attention.rope);
    EXPECT_TRUE(p.model.attention.temperature_tuning);
    EXPECT_EQ(p.preset, "llama4-scout");
    ASSERT_TRUE(lab::pick_layer(p, s, -1)) << s.error;
    EXPECT_EQ(p.layer, -1);
    EXPECT_TRUE(p.model.attention.rope);
    // A preset without per-layer rules clears the picker.
    ASSERT_TRUE(lab::select_preset(p, s, "llama3-8b")) << s.error;
    EXPECT_TRUE(s.layer_labels.empty());
}

TEST(LayerActions, ConfigLayerLoadsItsSettingAndAFarLayerIsRefused) {
    LabParams p;
    lab::Status s;
    ASSERT_TRUE(lab::load_config(p, s, corpus("gemma-3-4b-it"))) << s.error;
    ASSERT_EQ(s.layer_labels.size(), 34u);
    EXPECT_FALSE(s.layers_from_preset);
    EXPECT_EQ(p.model.rope_theta, 1e6);  // the default: the first global layer (5)
    ASSERT_TRUE(lab::pick_layer(p, s, 0)) << s.error;
    EXPECT_EQ(p.layer, 0);
    EXPECT_EQ(p.layer_type, "sliding_attention");
    EXPECT_EQ(p.model.rope_theta, 1e4);
    EXPECT_EQ(p.model.attention.sliding_window, 1024);
    const LabParams before = p;
    EXPECT_FALSE(lab::pick_layer(p, s, 34));
    EXPECT_NE(s.error.find("gemma-3-4b-it.json: --layer 34: the model has 34 layers (0 .. 33)"), std::string::npos) << s.error;
    EXPECT_EQ(p.model, before.model);
    EXPECT_EQ(p.layer, 0);
}

}  // namespace
}  // namespace ropelab
