// tests/ui: what the window shows, in its pixels: planes gliding, presenter aids, and panel
// exports equal to `render` of the same session.
#include <algorithm>
#include <array>
#include <cmath>

#include "script.h"

namespace ropelab::ui_script {
namespace {

// ---- exports carry the whole state ------------------------------------------------------------

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
    const test::Result r = gui(dir, script, "--workspace all");  // the heatmap beside the scores
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

// Vector figures from the Export panel, clicked in the real window: the score view as SVG is the
// very file `render --session` writes for the same state, and the whole window as PDF holds
// the panel's and the views' words as text.
TEST(ExportFromThePanel, VectorFiguresAreTheRenderOfTheSameSession) {
    const fs::path dir = fresh_dir("export_vector");
    Json script = {{{"wait", 3}}, {{"click", "Export"}}};
    for (const auto& [file, entry] : std::vector<std::pair<std::string, std::string>>{
             {"panel-scores.svg", "3 Score vs distance"}, {"panel-lab.pdf", "Whole window"}}) {
        script.push_back({{"click", "Export file"}});
        script.push_back({{"type", file}});
        script.push_back({{"click", "View"}});
        script.push_back({{"click", entry}});
        script.push_back({{"click", "Start export"}});
        script.push_back({{"wait", 240}});
    }
    script.push_back({{"state", "state.json"}});
    const test::Result r = gui(dir, script, "--workspace all");  // every view in the whole window
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_TRUE(fs::exists(dir / "panel-scores.svg")) << r.out.substr(0, 2000);
    const fs::path cli = dir / "cli-scores.svg";
    const test::Result c = test::run("render --session '" + (dir / "state.json").string() +
                                     "' --view scores --size 1280x720 --out '" + cli.string() + "'");
    ASSERT_EQ(c.status, 0) << c.err;
    EXPECT_TRUE(test::slurp((dir / "panel-scores.svg").string()) == test::slurp(cli.string()))
        << "the panel's SVG differs from render --session's";
    ASSERT_TRUE(fs::exists(dir / "panel-lab.pdf"));
    const test::Result text = test::capture("pdftotext '" + (dir / "panel-lab.pdf").string() + "' -");
    ASSERT_EQ(text.status, 0);
    for (const std::string words : {"Preset", "Head dim d", "3 Score vs distance", "distance Δ", "8 Precision"}) {
        EXPECT_NE(text.out.find(words), std::string::npos) << "no \"" << words << "\" in the PDF's text";
    }
}

}  // namespace
}  // namespace ropelab::ui_script
