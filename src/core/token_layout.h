#pragma once
// A token layout: the text a user writes for "some text, an image, more text, a video", e.g.
// `text:3,image:1x4x6,text:2,video:3x4x4@2.0`. An image or video is given as its grid_thw in
// patches, as the Qwen-VL processors report it; the language model sees T·H·W/merge² tokens for
// it, between a <vision_start> and a <vision_end> token.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ropelab {

// The longest sequence a layout may expand to. Far past what the views draw, small enough that a
// typo such as text:1000000000 is refused before anything is allocated.
inline constexpr std::int64_t kMaxLayoutTokens = std::int64_t{1} << 20;

enum class PartKind { Text, Image, Video };

struct LayoutPart {
    PartKind kind = PartKind::Text;
    std::int64_t count = 0;            // Text: its tokens
    std::int64_t t = 1, h = 1, w = 1;  // Image, Video: grid_thw in patches (before the merge)
    double seconds = 1.0;              // Video: seconds per temporal grid step (second_per_grid_ts)
    std::string text;                  // as written, for messages
    bool operator==(const LayoutPart&) const = default;
};

struct TokenLayout {
    std::vector<LayoutPart> parts;
    int merge = 2;  // spatial_merge_size it was checked against
};

// Parses and checks a layout against the model's spatial merge size. Throws InputError naming
// images.tokens, the part (its index from 1 and its text) and what is wrong with it.
TokenLayout parse_token_layout(std::string_view text, int spatial_merge_size);

// Tokens the language model sees for one image/video part after the merge: T·(H/m)·(W/m).
std::int64_t merged_tokens(const LayoutPart& part, int spatial_merge_size);

std::string_view to_string(PartKind kind);

}  // namespace ropelab
