#pragma once
// The (t, h, w) position ids a Qwen-VL language model gives every token of a layout, as
// transformers' get_rope_index computes them, under the two rules its versions follow.
#include <cstdint>
#include <string_view>
#include <vector>

#include "model_config.h"
#include "token_layout.h"

namespace ropelab {

// Which transformers get_rope_index. They agree on text and images; they differ after a video
// (and for a Qwen2.5-VL video with fractional seconds per grid step):
//   V4  transformers 4.x as the models were released: a block's ids start at the previous
//       block's largest id + 1; a Qwen2.5-VL video's t is floor(i · S · tokens_per_second).
//   V5  transformers 5.x: text resumes at start + max(H, W)/merge after any image or video
//       (below a video's own later t ids); the t step is tokens_per_second · int(S).
enum class IdsRule { V4, V5 };

// The rule each model was released with: Qwen2-VL (4.45), Qwen2.5-VL (4.49) and Qwen3-VL (4.57)
// all came out under transformers 4.x.
IdsRule release_rule(PositionIds ids);
std::string_view to_string(IdsRule rule);

enum class TokenKind { Text, VisionStart, Image, Video, VisionEnd };
std::string_view to_string(TokenKind kind);

struct TokenIds {
    std::vector<TokenKind> kind;
    std::vector<int> part;  // index of the layout part the token came from
    std::vector<std::int64_t> t, h, w;
    std::size_t size() const { return kind.size(); }
};

// Every token's ids. A 1-D model (PositionIds::None) counts every token one up, t = h = w.
TokenIds position_ids(const TokenLayout& layout, const MultiAxis& axes, IdsRule rule);

// Tokens whose (t, h, w) differ between the two results (same layout, so same length).
std::vector<bool> ids_differ(const TokenIds& a, const TokenIds& b);

// Tokens whose t id is at or below the t id of an earlier image or video token outside their own
// block: position order no longer follows sequence order there.
std::vector<bool> ids_overlap(const TokenIds& ids);

}  // namespace ropelab
