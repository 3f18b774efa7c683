// tests/ui: every text fits its box.
#include <algorithm>

#include <fmt/format.h>

#include "script.h"
#include "state/view_table.h"
#include "state/workspaces.h"

namespace ropelab::ui_script {
namespace {

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
// box as it is drawn; none may be cut: every view at 1280×720 and at 1920×1080 in the
// dark, light and projector themes, and each view shown alone (the tab row) at UI scale 2 in
// all three.
TEST(TextFits, TheLabAtLaptopAndProjectorSizesAndAtScale2) {
    // All eleven, then each other workspace (Ctrl+1 …) with its larger cells.
    Json workspaces = Json::array({{{"check", "all"}}});
    for (const WorkspaceRow& w : workspace_table()) {
        if (w.id == Workspace::All) continue;
        workspaces.push_back({{"key", std::string(1, w.key)}, {"mods", {"ctrl"}}});
        workspaces.push_back({{"check", std::string(w.name)}});
    }
    EXPECT_EQ(listed(clipped_texts("fit720", "--workspace all", workspaces)), "");
    EXPECT_EQ(listed(clipped_texts("fit1080", "--workspace all --size 1920x1080", workspaces)), "");
    // The light and projector themes at both sizes (the projector's frames have borders).
    for (const char* theme : {"light", "projector"}) {
        EXPECT_EQ(listed(clipped_texts(fmt::format("fit720{}", theme), fmt::format("--workspace all --theme {}", theme),
                                       {{{"check", fmt::format("1280x720, {}", theme)}}})), "");
        EXPECT_EQ(listed(clipped_texts(fmt::format("fit1080{}", theme), fmt::format("--workspace all --size 1920x1080 --theme {}", theme),
                                       {{{"check", fmt::format("1920x1080, {}", theme)}}})), "");
    }
    for (const char* theme : {"light", "dark", "projector"}) {
        Json steps = Json::array();
        const std::span<const View> all = workspace_views_of(Workspace::All);
        std::string weights;
        for (const ViewRow& row : view_table()) {  // every view's tab in All (the view table's short titles)
            if (row.id == View::Weights) weights = row.short_title;
            if (std::find(all.begin(), all.end(), row.id) == all.end()) continue;
            const std::string tab(row.short_title);
            steps.push_back({{"click", tab}});
            steps.push_back({{"check", fmt::format("scale 2, {}, {}", theme, tab)}});
        }
        EXPECT_EQ(listed(clipped_texts(fmt::format("fit2{}", theme), fmt::format("--workspace all --ui-scale 2 --theme {}", theme), steps)), "");
        // View 12 (a model file's weights) lives in Attention map.
        EXPECT_EQ(listed(clipped_texts(fmt::format("fit2w{}", theme), fmt::format("--workspace attention --ui-scale 2 --theme {}", theme),
                                       {{{"click", weights}}, {{"check", fmt::format("scale 2, {}, {}", theme, weights)}}})), "");
    }
    // A naive angle mode with its difference plot, and a scaled model's frequencies.
    EXPECT_EQ(listed(clipped_texts("fitmodes", "--workspace all --angle-mode bf16 --mode-difference --preset qwen2.5-7b-yarn",
                                   {{{"check", "bf16 + difference, YaRN"}}})), "");
}

// Compare mode: every view with four settings, in a grid cell and alone, at 1280×720 and scale 2.
TEST(TextFits, CompareMode) {
    Json steps = Json::array({{{"check", "four settings, 1280x720"}}});
    for (const char* key : {"1", "3", "5", "6", "7", "8"}) {
        steps.push_back({{"key", key}});
        steps.push_back({{"check", fmt::format("view {} large", key)}});
        steps.push_back({{"key", "Escape"}});
    }
    EXPECT_EQ(listed(clipped_texts("fitcompare", "--workspace all --comparison llama3.1-scaling --heatmap-difference 1", steps)), "");
    EXPECT_EQ(listed(clipped_texts("fitcompare2", "--workspace all --comparison gemma3-layers --ui-scale 2 --theme light",
                                   {{{"check", "scale 2, light"}}})), "");
}
// Compare mode with four settings read from config files deep in a course's folders (as a
// lecturer keeps them): the legends, columns and headings name each by its short name (the
// model's folder, the layer type), nothing is cut, in the grid and each view alone, at 1280×720,
// 1920×1080 and UI scale 2.
TEST(TextFits, CompareModeWithConfigPaths) {
    const fs::path models = fresh_dir("compare_paths_configs") / "home/lecturer/teaching/2026/rope-course/models";
    const auto config = [&](const std::string& model, const std::string& data) {
        fs::create_directories(models / model);
        fs::copy_file(fs::path(ROPELAB_SOURCE_DIR) / "tests/data/configs" / data, models / model / "config.json");
        return (models / model / "config.json").string();
    };
    const std::string gemma = config("gemma-3-4b-it", "gemma-3-4b-it.json"), llama = config("llama-3.1-8b", "llama-3.1-8b.json"),
                      qwen = config("qwen2.5-7b-instruct-yarn", "qwen2.5-7b-instruct-yarn.json");
    const std::string settings = "--workspace all --config " + gemma + " --layer-type sliding_attention --compare " + gemma +
                                 "@full_attention --compare " + llama + " --compare " + qwen;
    Json steps = Json::array({{{"check", "grid"}}});
    for (const char* key : {"1", "2", "3", "4", "5", "6", "7", "8"}) {
        steps.push_back({{"key", key}});
        steps.push_back({{"check", fmt::format("view {} large", key)}});
        steps.push_back({{"key", "Escape"}});
    }
    EXPECT_EQ(listed(clipped_texts("fitpaths720", settings, steps)), "");
    EXPECT_EQ(listed(clipped_texts("fitpaths1080", settings + " --size 1920x1080", steps)), "");
    EXPECT_EQ(listed(clipped_texts("fitpaths2", settings + " --ui-scale 2", steps)), "");
}

// Every lesson slide, presented on this display (ctest runs this at 1920×1080 and, as its own
// entry, on a 1280×720 screen): as many as the built-in lesson has scenes.
TEST(TextFits, EveryLessonSlide) {
    const Json lesson = read_json(fs::path(ROPELAB_SOURCE_DIR) / "assets/lessons/rope-from-first-principles.json");
    const int scenes = static_cast<int>(lesson["scenes"].size());
    ASSERT_GE(scenes, 15);
    Json steps = Json::array();
    for (int scene = 1; scene <= scenes; ++scene) {
        steps.push_back({{"check", fmt::format("scene {}", scene)}});
        steps.push_back({{"key", "PageDown"}});
    }
    EXPECT_EQ(listed(clipped_texts("fitlesson", "--lesson builtin --present", steps)), "");
}

}  // namespace
}  // namespace ropelab::ui_script
