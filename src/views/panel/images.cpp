#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>

#include "state/schema.h"
#include "views/panel/panel.h"
#include "views/token_strip.h"

namespace ropelab::controls {

namespace {

constexpr std::array<const char*, 3> kRuleNames = {"release", "4.x", "5.x"};
constexpr std::array<const char*, 2> kColourNames = {"fitted", "centred"};

// The layout as being typed: it reaches the candidate state only when the field is left (Enter or
// a click elsewhere), so a half-typed layout is never refused; a refused one leaves the state's,
// which the field shows again.
struct LayoutDraft {
    std::string text;
    bool editing = false;  // the field was active last frame
};
LayoutDraft& layout_draft() {
    static LayoutDraft draft;
    return draft;
}

}  // namespace

void images_section(LabParams& p, const Lab& lab) {
    const std::string& error = lab.status().error;
    const LabCompute& compute = lab.compute();
    LayoutDraft& draft = layout_draft();
    if (!draft.editing) draft.text = p.tokens;
    ui::input_text("Layout##tokens", &draft.text, static_cast<std::size_t>(schema::by_path("images.tokens")->max));
    draft.editing = ImGui::IsItemActive();
    if (ImGui::IsItemDeactivatedAfterEdit()) p.tokens = draft.text;
    tip("text:N, image:TxHxW, video:TxHxW@S: grid_thw in patches, S seconds per grid step (default 1). Enter commits");
    if (error.starts_with("images.tokens")) ui::message("Refused: " + error, views::error_color());
    enum_combo("Rule##position rule", p.position_rule, kRuleNames);
    tip("transformers' get_rope_index: 4.x (as released) or 5.x; they differ after a video");
    views::token_strip(compute.token_positions());

    ui::text_disabled("The grid view's image, in tokens (after the merge)");
    ui::slider_int64("query row##query row", &p.query_row, 0, p.grid_height - 1, false);
    tip("The query token's row in the image: the grid view scores every key against it");
    ui::slider_int64("query column##query column", &p.query_column, 0, p.grid_width - 1, false);
    tip("The query token's column in the image");
    if (ui::slider_int64("frames##grid frames", &p.grid_frames, 1, kMaxGridFrames, false)) {
        p.frame_offset = std::clamp(p.frame_offset, -(p.grid_frames - 1), p.grid_frames - 1);
    }
    tip("Frames T of the grid view's image (a video when above 1)");
    // Any offset a video may have; one past the frames grows the video to hold it.
    if (ui::slider_int64("frame offset##frame offset", &p.frame_offset, -(kMaxGridFrames - 1), kMaxGridFrames - 1, false)) {
        p.grid_frames = std::max(p.grid_frames, std::abs(p.frame_offset) + 1);
    }
    tip("The key frame's t minus the query's: the grid view shows keys that many frames away (the video grows to hold it)");
    ui::slider_int64("height##grid height", &p.grid_height, 1, kMaxGridSide, true);
    tip("Rows H of the grid view's image, in tokens");
    ui::slider_int64("width##grid width", &p.grid_width, 1, kMaxGridSide, true);
    tip("Columns W of the grid view's image, in tokens");
    enum_combo("Colours##grid colours", p.grid_colours, kColourNames);
    tip("fitted: each heatmap spans its own lowest … highest score (shows a direction that barely changes it);\n"
        "centred: one scale for all, 0 white, negative blue, positive red");
    // A smaller image keeps its query inside (the schema refuses one outside).
    p.query_row = std::min(p.query_row, p.grid_height - 1);
    p.query_column = std::min(p.query_column, p.grid_width - 1);
}

}  // namespace ropelab::controls
