// The lab driven only through its one door (lab/command.h, Lab::update with commands), on the CPU
// compute device: θ set, a bad value refused with the state kept and the field named, a config
// read from a file by the lab, a lesson opened and stepped, and an edit undone.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <string>

#include "core/cpu_device.h"
#include "lab/lab.h"
#include "support/files.h"

namespace ropelab {
namespace {

class Commands : public ::testing::Test {
protected:
    void SetUp() override {
        device_ = std::make_unique<CpuDevice>();
        LabParams p;
        p.playing = false;
        p.max_distance = 256;  // small: each step computes little
        lab_ = std::make_unique<Lab>(*device_, p);
    }

    // One step a second after the last (so each is its own edit for Undo).
    void step(lab::Commands commands) { lab_->update(1.0, {}, commands); }

    LabParams with_theta(double theta) const {
        LabParams p = lab_->params();
        p.model.rope_theta = theta;
        return p;
    }

    std::unique_ptr<CpuDevice> device_;
    std::unique_ptr<Lab> lab_;
};

TEST_F(Commands, SetStateCommitsTheta) {
    step({lab::cmd::SetState{.state = with_theta(500000.0), .control = "", .notice = ""}});
    EXPECT_EQ(lab_->params().model.rope_theta, 500000.0);
    EXPECT_TRUE(lab_->status().error.empty()) << lab_->status().error;
    EXPECT_EQ(lab_->compute().data().freqs.inv_freq.size(), 64u);
}

TEST_F(Commands, AnInvalidValueIsRefusedNamingTheFieldAndTheStateStays) {
    step({lab::cmd::SetState{.state = with_theta(20000.0), .control = "", .notice = ""}});
    step({lab::cmd::SetState{.state = with_theta(0.5), .control = "", .notice = ""}});
    EXPECT_EQ(lab_->params().model.rope_theta, 20000.0);
    EXPECT_NE(lab_->status().error.find("rope_theta"), std::string::npos) << lab_->status().error;
    EXPECT_EQ(lab_->status().from, lab::MessageFrom::Lab);
    // The model rows' command: an odd head refused the same way, the control named when given.
    ModelConfig odd = lab_->params().model;
    odd.head_dim = 127;
    step({lab::cmd::SetModel{odd}});
    EXPECT_EQ(lab_->params().model.head_dim, 128);
    EXPECT_NE(lab_->status().error.find("127"), std::string::npos) << lab_->status().error;
    step({lab::cmd::SetState{.state = with_theta(-1.0), .control = "Compare", .notice = ""}});
    EXPECT_EQ(lab_->status().error.rfind("Compare: ", 0), 0u) << lab_->status().error;
    EXPECT_EQ(lab_->params().model.rope_theta, 20000.0);
}

TEST_F(Commands, TheLabReadsAConfigFile) {
    const std::string path = (test::temp_path("commands") += "_config.json").string();
    std::ofstream(path) << R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
                             "rope_theta": 500000.0, "max_position_embeddings": 8192})";
    step({lab::cmd::LoadConfig{.path = path, .layer_type = "", .given = {}, .layer = -1}});
    EXPECT_TRUE(lab_->status().error.empty()) << lab_->status().error;
    EXPECT_EQ(lab_->params().model.rope_theta, 500000.0);
    EXPECT_EQ(lab_->status().config_path, path);
    EXPECT_EQ(lab_->status().notice.rfind("loaded " + path, 0), 0u) << lab_->status().notice;

    // A broken file: refused naming the field, the model kept.
    std::ofstream(path) << R"({"model_type": "llama", "head_dim": 64, "rope_theta": "x"})";
    step({lab::cmd::LoadConfig{.path = path, .layer_type = "", .given = {}, .layer = -1}});
    EXPECT_NE(lab_->status().error.find("rope_theta"), std::string::npos) << lab_->status().error;
    EXPECT_EQ(lab_->params().model.rope_theta, 500000.0);
    std::filesystem::remove(path);
}

TEST_F(Commands, ALessonIsOpenedSteppedPresentedAndClosed) {
    const double theta = lab_->params().model.rope_theta;
    step({lab::cmd::OpenLesson{"builtin"}});
    ASSERT_TRUE(lab_->has_lesson()) << lab_->status().error;
    EXPECT_EQ(lab_->status().from, lab::MessageFrom::Lesson);
    EXPECT_EQ(lab_->scene(), 0);
    step({lab::cmd::StepScene{+1}, lab::cmd::StepScene{+1}});
    EXPECT_EQ(lab_->scene(), 2);
    step({lab::cmd::GoToScene{.scene = 1000, .time = 0.0}});
    EXPECT_EQ(lab_->scene(), lab_->scene_count() - 1);  // past the end stays at the end
    step({lab::cmd::PresentLesson{.path = "builtin", .with_notes = true}});
    EXPECT_TRUE(lab_->params().presenting);
    EXPECT_EQ(lab_->status().audience_asked, 1);
    EXPECT_EQ(lab_->scene(), lab_->scene_count() - 1);  // presented from the scene shown
    step({lab::cmd::Present{false}, lab::cmd::CloseLesson{}});
    EXPECT_FALSE(lab_->has_lesson());
    EXPECT_FALSE(lab_->params().presenting);
    EXPECT_EQ(lab_->params().model.rope_theta, theta);  // the lab as it was before
}

TEST_F(Commands, UndoGoesBackOneEditAtATime) {
    const double theta = lab_->params().model.rope_theta;
    step({lab::cmd::SetState{.state = with_theta(2e5), .control = "", .notice = ""}});
    step({lab::cmd::SetState{.state = with_theta(3e5), .control = "", .notice = ""}});
    EXPECT_EQ(lab_->undo_depth(), 2);
    step({lab::cmd::Undo{}});
    EXPECT_EQ(lab_->params().model.rope_theta, 2e5);
    step({lab::cmd::Undo{}});
    EXPECT_EQ(lab_->params().model.rope_theta, theta);
    step({lab::cmd::Undo{}});
    EXPECT_EQ(lab_->status().notice, "nothing to undo");
    // A drag (edits under half a second apart) is one edit.
    for (int i = 1; i <= 5; ++i) lab_->update(0.1, {}, lab::Commands{lab::cmd::SetState{.state = with_theta(1e5 * i), .control = "", .notice = ""}});
    EXPECT_EQ(lab_->undo_depth(), 1);
    step({lab::cmd::Undo{}});
    EXPECT_EQ(lab_->params().model.rope_theta, theta);
}

TEST_F(Commands, RedoGoesForwardUntilTheNextEdit) {
    const double theta = lab_->params().model.rope_theta;
    step({lab::cmd::SetState{.state = with_theta(2e5), .control = "", .notice = ""}});
    step({lab::cmd::SetState{.state = with_theta(3e5), .control = "", .notice = ""}});
    step({lab::cmd::Undo{}});
    step({lab::cmd::Undo{}});
    EXPECT_EQ(lab_->params().model.rope_theta, theta);
    EXPECT_EQ(lab_->redo_depth(), 2);
    step({lab::cmd::Redo{}});
    EXPECT_EQ(lab_->params().model.rope_theta, 2e5);
    step({lab::cmd::Redo{}});
    EXPECT_EQ(lab_->params().model.rope_theta, 3e5);
    step({lab::cmd::Redo{}});
    EXPECT_EQ(lab_->status().notice, "nothing to redo");
    // Undo, then a new edit: what was undone is no longer ahead.
    step({lab::cmd::Undo{}});
    EXPECT_EQ(lab_->params().model.rope_theta, 2e5);
    step({lab::cmd::SetState{.state = with_theta(4e5), .control = "", .notice = ""}});
    EXPECT_EQ(lab_->redo_depth(), 0);
    step({lab::cmd::Undo{}});
    EXPECT_EQ(lab_->params().model.rope_theta, 2e5);
}

TEST_F(Commands, APresetAndAResetAnswerBesideTheModel) {
    step({lab::cmd::SelectPreset{"llama3-8b"}});
    EXPECT_EQ(lab_->params().preset, "llama3-8b");
    EXPECT_EQ(lab_->params().model.rope_theta, 500000.0);
    step({lab::cmd::SelectPreset{"no-such-model"}});
    EXPECT_NE(lab_->status().error.find("no-such-model"), std::string::npos);
    EXPECT_EQ(lab_->params().preset, "llama3-8b");
    step({lab::cmd::Reset{}});
    EXPECT_EQ(lab_->params().model.rope_theta, LabParams{}.model.rope_theta);
    EXPECT_EQ(lab_->status().notice, "reset to the textbook preset and default curves");
}

}  // namespace
}  // namespace ropelab
