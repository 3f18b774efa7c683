// tests/ui through `gui --script`: the phasor view (9) and the one linked Δ — the score plot's
// cursor dragged in the real window moves the planes' key, the phasor sum and the invariance
// view's Δ; the Linked Δ checkbox unlinks them; key 9 shows the phasor view large, where a
// click on an arrow focuses its pair.
#include <string>
#include <vector>

#include "script.h"

namespace ropelab::ui_script {
namespace {

// The labels of the widgets of `kind` whose label holds `part`.
std::vector<std::string> labels_with(const Json& widgets, const std::string& part, const std::string& kind) {
    std::vector<std::string> out;
    for (const Json& w : widgets) {
        if (w["kind"] == kind && w["label"].get<std::string>().find(part) != std::string::npos) out.push_back(w["label"]);
    }
    return out;
}

bool has(const Json& widgets, const std::string& label, const std::string& kind) {
    for (const Json& w : widgets) {
        if (w["label"] == label && w["kind"] == kind) return true;
    }
    return false;
}

std::int64_t key_distance(const fs::path& state) { return read_json(state)["focus"]["key_distance"].get<std::int64_t>(); }

TEST(LinkedDistance, DraggingTheScoreCursorMovesEveryLinkedView) {
    const fs::path dir = fresh_dir("linked_drag");
    const Json script = {
        {{"wait", 3}},
        {{"widgets", "before.json"}},
        {{"drag", "linked Δ"}, {"dx", 60}},
        {{"wait", 3}},
        {{"widgets", "after.json"}},
        {{"state", "after_state.json"}},
        {{"screenshot", "after.png"}},
    };
    const test::Result r = gui(dir, script, "--workspace all --key-distance 1000");  // planes, phasors and invariance at once
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const Json before = read_json(dir / "before.json"), after = read_json(dir / "after.json");
    EXPECT_TRUE(has(before, "k at n = m − 1000", "readout"));
    EXPECT_FALSE(labels_with(before, "Δ = 1000 (linked)", "readout").empty()) << "the phasor view's readout";
    const std::int64_t moved = key_distance(dir / "after_state.json");
    EXPECT_GT(moved, 1100) << "a drag of 60 px to the right over 4096 distances";
    EXPECT_LT(moved, 4096);
    // Every linked view follows: the planes' key, the phasor sum, the invariance view's Δ.
    EXPECT_TRUE(has(after, "k at n = m − " + std::to_string(moved), "readout")) << moved;
    EXPECT_FALSE(labels_with(after, "Δ = " + std::to_string(moved) + " (linked) · score = ", "readout").empty());
    EXPECT_FALSE(labels_with(after, "Δ = " + std::to_string(moved) + " (linked: the key distance)", "readout").empty());
    EXPECT_TRUE(has(after, "linked Δ", "handle"));
}

TEST(LinkedDistance, TheCheckboxUnlinks) {
    const fs::path dir = fresh_dir("linked_toggle");
    const Json script = {
        {{"wait", 3}},
        {{"click", "Linked Δ"}},
        {{"wait", 2}},
        {{"widgets", "off.json"}},
        {{"state", "off_state.json"}},
        {{"drag", "scores"}, {"dx", 60}},  // no handle now: a drag pans the plot
        {{"wait", 2}},
        {{"state", "panned.json"}},
        {{"click", "Linked Δ"}},
        {{"wait", 2}},
        {{"widgets", "on.json"}},
        {{"state", "on_state.json"}},
    };
    const test::Result r = gui(dir, script, "--workspace all --key-distance 500 --invariance-distance 8");
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    EXPECT_FALSE(read_json(dir / "off_state.json")["focus"]["link_distance"].get<bool>());
    EXPECT_TRUE(read_json(dir / "on_state.json")["focus"]["link_distance"].get<bool>());
    const Json off = read_json(dir / "off.json"), on = read_json(dir / "on.json");
    // Unlinked: invariance at its own Δ, the cursor a plain mark; linked again: the key distance.
    EXPECT_FALSE(labels_with(off, "Δ = 8, query positions 8 ..", "readout").empty());
    EXPECT_FALSE(has(off, "linked Δ", "handle"));
    EXPECT_FALSE(labels_with(off, "Δ = 500 (key distance)", "readout").empty());
    EXPECT_EQ(key_distance(dir / "panned.json"), 500) << "unlinked, a drag on the plot leaves Δ alone";
    EXPECT_FALSE(labels_with(on, "Δ = 500 (linked: the key distance)", "readout").empty());
    EXPECT_TRUE(has(on, "linked Δ", "handle"));
}

// Key 9 shows the phasor view large; a click on an arrow focuses its pair. With q = k = ones at
// Δ = 0 every one of the textbook's 64 arrows has length 2 and lies on the real axis, head to tail: the click lands on the
// middle of pair 5's arrow, half an arrow from its neighbours.
TEST(PhasorView, KeyNineShowsItAndAClickOnAnArrowFocusesItsPair) {
    const fs::path dir = fresh_dir("phasor_view");
    const Json script = {
        {{"wait", 3}},
        {{"key", "9"}},
        {{"wait", 2}},
        {{"state", "large.json"}},
        {{"widgets", "large_widgets.json"}},
        {{"click", "phasor of pair 5"}},
        {{"wait", 2}},
        {{"state", "clicked.json"}},
        {{"screenshot", "phasors.png"}},
        {{"key", "9"}},
        {{"wait", 2}},
        {{"state", "grid.json"}},
    };
    const test::Result r = gui(dir, script, "--preset textbook --vectors ones --key-distance 0 --pair 31");
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    EXPECT_EQ(read_json(dir / "large.json")["layout"]["focused_view"], 8);
    EXPECT_EQ(read_json(dir / "grid.json")["layout"]["focused_view"], -1);
    const Json widgets = read_json(dir / "large_widgets.json");
    EXPECT_TRUE(has(widgets, "score = Re(sum)", "readout"));
    // Δ = 0: 64 arrows of length 2 end at 128 on the real axis.
    EXPECT_FALSE(labels_with(widgets, "Δ = 0 (linked) · score = 128", "readout").empty());
    // On the real axis: every arrow's box is flat, each the next one's left neighbour.
    double previous_right = -1;
    int found = 0;
    for (int i = 0; i < 64; ++i) {
        for (const Json& w : widgets) {
            if (w["label"] != "phasor of pair " + std::to_string(i)) continue;
            EXPECT_LT(w["h"].get<double>(), 1.0) << i;
            if (i > 0) {
                EXPECT_NEAR(w["x"].get<double>(), previous_right, 1.0) << i;
            }
            previous_right = w["x"].get<double>() + w["w"].get<double>();
            ++found;
        }
    }
    EXPECT_EQ(found, 64);
    EXPECT_EQ(read_json(dir / "clicked.json")["focus"]["pair"], 5);
}

// The planes view's small planes, one per pair: a click focuses that pair (a comment had swallowed
// the request for a while, and nothing clicked them).
TEST(PlanesView, AClickOnASmallPlaneFocusesItsPair) {
    const fs::path dir = fresh_dir("small_planes");
    const Json script = {
        {{"wait", 3}},
        {{"click", "plane of pair 7"}},
        {{"wait", 2}},
        {{"state", "seven.json"}},
        {{"click", "plane of pair 2"}},
        {{"wait", 2}},
        {{"state", "two.json"}},
    };
    const test::Result r = gui(dir, script, "--preset textbook --pair 31");
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    EXPECT_EQ(read_json(dir / "seven.json")["focus"]["pair"], 7);
    EXPECT_EQ(read_json(dir / "two.json")["focus"]["pair"], 2);
}

// "Play sweeps Δ": playback moves the key distance instead of the position, so the phasor sum and
// the score cursor animate in the lab itself (not only in lessons and exports).
TEST(PhasorView, PlaySweepsTheLinkedDistance) {
    const fs::path dir = fresh_dir("sweep");
    const Json script = {
        {{"wait", 3}},
        {{"state", "before.json"}},
        {{"click", "Play sweeps Δ"}},
        {{"click", "Play"}},
        {{"wait", 60}},
        {{"click", "Pause"}},
        {{"state", "after.json"}},
        {{"widgets", "after_widgets.json"}},
    };
    const test::Result r = gui(dir, script, "--preset textbook --position 500 --key-distance 3 --speed 120 --max-distance 4096");
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const Json before = read_json(dir / "before.json"), after = read_json(dir / "after.json");
    EXPECT_EQ(after["focus"]["position"], 500) << "the position stays while Δ sweeps";
    const std::int64_t moved = key_distance(dir / "after.json") - key_distance(dir / "before.json");
    EXPECT_GT(moved, 20) << "Δ ran while playing";
    EXPECT_LT(moved, 4096);
    EXPECT_EQ(after["playback"]["sweep_distance"], true);
    // The phasor view's readout shows the Δ the lab holds.
    const std::string readout = "Δ = " + std::to_string(key_distance(dir / "after.json")) + " (linked)";
    EXPECT_FALSE(labels_with(read_json(dir / "after_widgets.json"), readout, "readout").empty()) << readout;
}

}  // namespace
}  // namespace ropelab::ui_script
