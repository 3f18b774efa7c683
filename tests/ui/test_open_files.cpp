// tests/ui: files handed to the lab the ways a desktop hands them over — dropped on the window,
// or named on the command line by a double-click — open as what their content says they are.
#include "script.h"
#include "support/gguf_writer.h"
#include "support/safetensors_writer.h"

namespace ropelab::ui_script {
namespace {

const std::string kFocusedSession = R"({"ropelab_session": 2, "model": {"rope_theta": 5000}, "layout": {"focused_view": 2}})";
const std::string kLesson =
    R"({"title": "A talk", "scenes": [{"title": "Dropped scene", "caption": "Opened by its content.", "views": [3]}]})";

bool any_label(const fs::path& widgets, const std::string& text) {
    for (const Json& w : read_json(widgets)) {
        if (w["label"].get<std::string>().find(text) != std::string::npos) return true;
    }
    return false;
}

TEST(OpenFiles, DroppedSessionConfigAndLessonOpenAsWhatTheyAre) {
    const fs::path dir = fresh_dir("open_files");
    test::write_file((dir / "lecture.ropelab").string(), kFocusedSession);
    test::write_file((dir / "talk.json").string(), kLesson);  // a lesson under a plain .json name
    const std::string config = std::string(ROPELAB_SOURCE_DIR) + "/tests/data/configs/qwen2.5-7b-instruct.json";
    const Json script = {
        {{"wait", 2}},
        {{"drop", (dir / "lecture.ropelab").string()}},
        {{"wait", 3}},
        {{"state", "session.json"}},
        {{"widgets", "session_widgets.json"}},
        {{"drop", config}},
        {{"wait", 3}},
        {{"state", "config.json"}},
        {{"drop", (dir / "talk.json").string()}},
        {{"wait", 3}},
        {{"widgets", "lesson_widgets.json"}},
    };
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    const Json session = session_of(dir / "session.json");
    EXPECT_EQ(session["model"]["rope_theta"], 5000.0) << session.dump();
    EXPECT_EQ(session["layout"]["focused_view"], 2);
    EXPECT_TRUE(any_label(dir / "session_widgets.json", "opened " + (dir / "lecture.ropelab").string()));
    const Json qwen = session_of(dir / "config.json");
    EXPECT_EQ(qwen["model"]["rope_theta"], 1e6);
    EXPECT_EQ(qwen["model"]["layout"], "half");
    EXPECT_TRUE(any_label(dir / "lesson_widgets.json", "Dropped scene"));
}

// `ropelab gui FILE` (what the desktop entry runs) with a model config: it opens as one; a file
// that is no JSON is refused naming it, exit 2, before any window.
TEST(OpenFiles, APositionalConfigOpensAsTheModel) {
    const fs::path dir = fresh_dir("open_config");
    const std::string config = std::string(ROPELAB_SOURCE_DIR) + "/tests/data/configs/qwen2.5-7b-instruct.json";
    test::Result r = gui(dir, Json::array({{{"wait", 2}}, {{"state", "state.json"}}}), "'" + config + "'");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(session_of(dir / "state.json")["model"]["rope_theta"], 1e6);
    test::write_file((dir / "notes.txt").string(), "my notes, not a lab file");
    r = gui(dir, Json::array({{{"wait", 2}}}), "'" + (dir / "notes.txt").string() + "'");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find((dir / "notes.txt").string()), std::string::npos) << r.err;
}


// A GGUF file and a checkpoint folder dropped on the window open as models, and a GGUF named on
// the command line too: their RoPE (θ, the rope_freqs divisors of llama3 scaling) is the lab's.
std::string open_files_llama_gguf() {
    gguf_test::Writer w;
    w.add_string("general.architecture", "llama");
    w.add_u32("llama.context_length", 131072);
    w.add_u32("llama.embedding_length", 4096);
    w.add_u32("llama.attention.head_count", 32);
    w.add_u32("llama.attention.head_count_kv", 8);
    w.add_f32("llama.rope.freq_base", 500000.0f);
    std::string divisors;
    for (int i = 0; i < 64; ++i) divisors += gguf_test::le(i < 32 ? 1.0f : 8.0f);
    w.add_tensor("rope_freqs.weight", {64}, 0, divisors);
    return w.bytes();
}

TEST(OpenFiles, DroppedModelFilesOpenAsTheirModels) {
    const fs::path dir = fresh_dir("open_models");
    gguf_test::write_file((dir / "llama.gguf").string(), open_files_llama_gguf());
    const fs::path checkpoint = dir / "qwen-checkpoint";
    fs::create_directories(checkpoint);
    fs::copy_file(std::string(ROPELAB_SOURCE_DIR) + "/tests/data/configs/qwen2.5-7b-instruct.json", checkpoint / "config.json");
    safetensors_test::File shard;
    shard.add("model.layers.0.self_attn.q_proj.weight", "F32", {1, 2}, safetensors_test::f32_bytes({1, 2}));
    test::write_file((checkpoint / "model.safetensors").string(), shard.bytes());
    const Json script = {
        {{"wait", 2}},
        {{"drop", (dir / "llama.gguf").string()}},
        {{"wait", 3}},
        {{"state", "gguf.json"}},
        {{"widgets", "gguf_widgets.json"}},
        {{"drop", checkpoint.string()}},
        {{"wait", 3}},
        {{"state", "checkpoint.json"}},
    };
    test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;
    const Json llama = session_of(dir / "gguf.json");
    EXPECT_EQ(llama["model"]["rope_theta"], 500000.0) << llama.dump();
    EXPECT_EQ(llama["model"]["layout"], "interleaved");  // llama.cpp's NORM: the file's consecutive rows
    ASSERT_EQ(llama["model"]["freq_factors"].size(), 64u);
    EXPECT_EQ(llama["model"]["freq_factors"][40], 8.0);
    EXPECT_TRUE(any_label(dir / "gguf_widgets.json", "loaded " + (dir / "llama.gguf").string()));
    const Json qwen = session_of(dir / "checkpoint.json");
    EXPECT_EQ(qwen["model"]["rope_theta"], 1e6);
    EXPECT_EQ(qwen["model"]["layout"], "half");

    r = gui(dir, Json::array({{{"wait", 2}}, {{"state", "positional.json"}}}), "'" + (dir / "llama.gguf").string() + "'");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(session_of(dir / "positional.json")["model"]["rope_theta"], 500000.0);
}

}  // namespace
}  // namespace ropelab::ui_script
