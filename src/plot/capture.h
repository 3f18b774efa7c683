#pragma once
// One ImGui frame as a vector Figure, laid out exactly as the PNG of the same frame. Items drawn
// through a Canvas come through as themselves (plot/screen.h fences their geometry); the rest
// of the frame — the panel's widgets, captions, buttons — is read back from ImGui's draw data:
// filled triangles become polygons, and glyph quads are matched to the font's glyphs, so their
// text becomes text again (searchable, selectable) at the positions the screen used.
#include <cstdint>
#include <functional>
#include <vector>

#include <imgui.h>

#include "plot/display_list.h"

namespace ropelab::draw {

// A texture's pixels (RGBA, top row first), for images in a captured frame (the heatmap).
struct TexturePixels {
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgba;
};
using ReadTexture = std::function<TexturePixels(ImTextureID)>;

class FrameCapture {
public:
    // Begins capturing the next frame (create it before ImGui::NewFrame): anti-aliasing is off
    // for that frame, so widgets are plain polygons rather than fringed ones.
    FrameCapture();
    ~FrameCapture();
    FrameCapture(const FrameCapture&) = delete;
    FrameCapture& operator=(const FrameCapture&) = delete;

    // After ImGui::Render(): the frame as a figure of `data`'s display size.
    Figure finish(const ImDrawData& data, const ReadTexture& read_texture, Color background) const;

    // The capture in progress, if any (the canvas asks).
    static FrameCapture* active();
    // Fences `item`'s geometry in `dl`: what lies between begin and end is written as the item.
    void begin_item(ImDrawList* dl, Item item);
    void end_item(ImDrawList* dl);

private:
    std::vector<Item> items_;
    bool anti_aliased_lines_ = true, anti_aliased_fill_ = true, lines_use_texture_ = true;
};

}  // namespace ropelab::draw
