// tests/ui: an MP4 export started from the Export panel with clicks and typing in the real
// window: its progress bar says "frame k / N · F frames/s · T s left" while the renderer runs,
// and the file appears, a real MP4 of the frames asked for.
#include <cstdio>

#include "script.h"
#include "support/run_binary.h"

namespace ropelab::ui_script {
namespace {

TEST(ExportFromThePanel, Mp4ShowsFramesPerSecondAndIsSaved) {
    const fs::path dir = fresh_dir("export_progress");
    Json script = {
        {{"wait", 2}},
        {{"click", "Export"}},
        {{"click", "Export file"}, {"at", {0.1, 0.5}}},
        {{"type", "lab.mp4"}},
        {{"click", "Frames"}, {"at", {0.1, 0.5}}},
        {{"type", "120"}},
        {{"click", "Start export"}},
    };
    // The bar read through the widget log every few frames while the export runs, and a look at it.
    constexpr int kLooks = 40;
    for (int i = 0; i < kLooks; ++i) {
        script.push_back({{"wait", 5}});
        script.push_back({{"widgets", "w" + std::to_string(i) + ".json"}});
        script.push_back({{"clipped", "c" + std::to_string(i) + ".json"}});
        if (i == 12) script.push_back({{"screenshot", "progress.png"}});
    }
    const test::Result r = gui(dir, script);
    ASSERT_EQ(r.status, 0) << r.err;

    int with_rate = 0, last_done = -1;
    bool counted_up = true, saved = false;
    std::string seen;
    for (int i = 0; i < kLooks; ++i) {
        const Json widgets = read_json(dir / ("w" + std::to_string(i) + ".json"));
        if (const Json* bar = widget(widgets, "Export progress", "progress")) {
            const std::string text = (*bar)["value"];
            seen = text;
            int done = 0, total = 0;
            double fps = 0, left = 0;
            if (std::sscanf(text.c_str(), "frame %d / %d · %lf frames/s · %lf s left", &done, &total, &fps, &left) == 4) {
                ++with_rate;
                EXPECT_EQ(total, 120) << text;
                EXPECT_GT(fps, 0.0) << text;
                EXPECT_GE(left, 0.0) << text;
                counted_up = counted_up && done >= last_done;
                last_done = done;
            }
        }
        for (const Json& w : widgets) saved = saved || w["label"] == "saved lab.mp4";
        for (const Json& c : read_json(dir / ("c" + std::to_string(i) + ".json"))) ADD_FAILURE() << "clipped: " << c.dump();
    }
    EXPECT_GE(with_rate, 1) << "the bar never showed a rate; last seen: " << seen;
    EXPECT_TRUE(counted_up);
    EXPECT_TRUE(saved) << "no \"saved lab.mp4\" message within the script";
    ASSERT_TRUE(fs::exists(dir / "lab.mp4"));
    const test::Result probe = test::capture("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                                             "stream=nb_read_frames,pix_fmt -of default=noprint_wrappers=1 '" +
                                             (dir / "lab.mp4").string() + "'");
    EXPECT_NE(probe.out.find("nb_read_frames=120"), std::string::npos) << probe.out;
    EXPECT_NE(probe.out.find("pix_fmt=yuv420p"), std::string::npos) << probe.out;
}

// At UI scale 2 on a projector-sized window the bar's text still fits the panel; Cancel stops
// the export and nothing is left under the target name.
TEST(ExportFromThePanel, ProgressFitsAtScale2AndCancelRemovesTheFile) {
    const fs::path dir = fresh_dir("export_progress2");
    Json script = {
        {{"wait", 2}},
        {{"click", "Export"}},
        {{"click", "Export file"}, {"at", {0.1, 0.5}}},
        {{"type", "long.mp4"}},
        {{"click", "Frames"}, {"at", {0.1, 0.5}}},
        {{"type", "3000"}},
        {{"click", "Start export"}},
    };
    constexpr int kLooks = 20;
    for (int i = 0; i < kLooks; ++i) {
        script.push_back({{"wait", 5}});
        script.push_back({{"widgets", "w" + std::to_string(i) + ".json"}});
        script.push_back({{"clipped", "c" + std::to_string(i) + ".json"}});
    }
    script.push_back({{"screenshot", "progress2.png"}});
    script.push_back({{"click", "Cancel export"}});
    script.push_back({{"wait", 30}});
    script.push_back({{"widgets", "after.json"}});
    const test::Result r = gui(dir, script, "--size 1920x1080 --ui-scale 2");
    ASSERT_EQ(r.status, 0) << r.err;
    int with_rate = 0;
    for (int i = 0; i < kLooks; ++i) {
        const Json widgets = read_json(dir / ("w" + std::to_string(i) + ".json"));
        if (const Json* bar = widget(widgets, "Export progress", "progress")) {
            with_rate += (*bar)["value"].get<std::string>().find("/s · ") != std::string::npos;  // the full or a shortened form
        }
        for (const Json& c : read_json(dir / ("c" + std::to_string(i) + ".json"))) ADD_FAILURE() << "clipped: " << c.dump();
    }
    EXPECT_GE(with_rate, 1);
    bool stopped = false;
    for (const Json& w : read_json(dir / "after.json")) stopped = stopped || w["label"].get<std::string>().starts_with("not saved");
    EXPECT_TRUE(stopped);
    EXPECT_FALSE(fs::exists(dir / "long.mp4"));
}

}  // namespace
}  // namespace ropelab::ui_script
