#include "token_layout.h"

#include <charconv>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "error.h"

namespace ropelab {

namespace {

// Sizes above this are refused before any product is taken, so T·H·W cannot overflow.
constexpr std::int64_t kMaxSide = std::int64_t{1} << 20;

[[noreturn]] void refuse(std::size_t index, std::string_view part, std::string_view why) {
    throw InputError(fmt::format("images.tokens: part {} '{}' {}", index + 1, part, why));
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// A whole number in 1 .. cap: signs, fractions and trailing text are refused, and a huge count is
// refused before anything is allocated for it.
std::int64_t positive_integer(std::string_view s, std::int64_t cap, std::size_t index, std::string_view part,
                              std::string_view what) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (s.empty() || ec == std::errc::invalid_argument || end != s.data() + s.size()) {
        refuse(index, part, fmt::format("has {} '{}': expected a whole number", what, s));
    }
    if (ec == std::errc::result_out_of_range || value > cap) {
        refuse(index, part, fmt::format("has {} {} (the most is {})", what, s, cap));
    }
    if (value <= 0) refuse(index, part, fmt::format("has {} {}: must be at least 1", what, value));
    return value;
}

double seconds_per_step(std::string_view s, std::size_t index, std::string_view part) {
    double value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (s.empty() || ec != std::errc{} || end != s.data() + s.size() || !std::isfinite(value)) {
        refuse(index, part, fmt::format("has seconds per grid step '{}': expected a finite number", s));
    }
    if (value < 0 || value > 1e6) refuse(index, part, fmt::format("has seconds per grid step {}: must be in 0 .. 1e6", s));
    return value;
}

LayoutPart parse_part(std::string_view raw, std::size_t index, int merge) {
    const std::string_view part = trim(raw);
    if (part.empty()) refuse(index, raw, "is empty (two commas in a row, or one at an end?)");
    LayoutPart p;
    p.text = std::string(part);
    const auto colon = part.find(':');
    if (colon == std::string_view::npos) refuse(index, part, "has no kind: write text:N, image:TxHxW or video:TxHxW@S");
    const std::string_view kind = part.substr(0, colon);
    std::string_view body = part.substr(colon + 1);
    if (kind == "text") {
        p.kind = PartKind::Text;
        p.count = positive_integer(body, kMaxLayoutTokens, index, part, "a token count");
        return p;
    }
    if (kind != "image" && kind != "video") {
        refuse(index, part, fmt::format("has unknown kind '{}': the kinds are text, image, video", kind));
    }
    p.kind = kind == "image" ? PartKind::Image : PartKind::Video;
    if (const auto at = body.find('@'); at != std::string_view::npos) {
        if (p.kind == PartKind::Image) refuse(index, part, "gives seconds (@S) to an image: only a video has them");
        p.seconds = seconds_per_step(body.substr(at + 1), index, part);
        body = body.substr(0, at);
    }
    std::int64_t thw[3] = {};
    for (int i = 0; i < 3; ++i) {
        const auto x = body.find('x');
        if ((x == std::string_view::npos) != (i == 2)) {
            refuse(index, part, fmt::format("needs its grid as TxHxW (three sizes in patches), got '{}'", part.substr(colon + 1)));
        }
        const std::string_view size = i == 2 ? body : body.substr(0, x);
        static constexpr const char* kNames[] = {"T", "H", "W"};
        thw[i] = positive_integer(size, kMaxSide, index, part, kNames[i]);
        if (i < 2) body = body.substr(x + 1);
    }
    p.t = thw[0];
    p.h = thw[1];
    p.w = thw[2];
    if (p.h % merge != 0 || p.w % merge != 0) {
        refuse(index, part, fmt::format("has H×W {}×{} patches, not divisible by the spatial merge size {}", p.h, p.w, merge));
    }
    return p;
}

// Tokens a part can expand to: a Qwen3-VL video wraps every frame in its own start/end pair, so
// count that, the larger of the two.
std::int64_t most_tokens(const LayoutPart& p, int merge) {
    if (p.kind == PartKind::Text) return p.count;
    const std::int64_t markers = p.kind == PartKind::Video ? 2 * p.t : 2;
    // Each side is at most 2^20, so the product is checked step by step against the cap.
    const std::int64_t per_frame = (p.h / merge) * (p.w / merge);
    if (per_frame > kMaxLayoutTokens || p.t > kMaxLayoutTokens / per_frame) return kMaxLayoutTokens + 1;
    return p.t * per_frame + markers;
}

}  // namespace

std::int64_t merged_tokens(const LayoutPart& part, int spatial_merge_size) {
    return part.t * (part.h / spatial_merge_size) * (part.w / spatial_merge_size);
}

TokenLayout parse_token_layout(std::string_view text, int spatial_merge_size) {
    if (spatial_merge_size < 1) throw InputError(fmt::format("images.tokens: spatial merge size {} must be at least 1", spatial_merge_size));
    TokenLayout layout;
    layout.merge = spatial_merge_size;
    if (trim(text).empty()) throw InputError("images.tokens is empty: write e.g. text:3,image:1x4x6,text:2");
    std::int64_t total = 0;
    std::size_t index = 0;
    for (std::size_t from = 0;; ++index) {
        const auto comma = text.find(',', from);
        const std::string_view raw = text.substr(from, comma == std::string_view::npos ? std::string_view::npos : comma - from);
        LayoutPart p = parse_part(raw, index, spatial_merge_size);
        total += most_tokens(p, spatial_merge_size);
        if (total > kMaxLayoutTokens) {
            refuse(index, p.text, fmt::format("takes the layout past {} tokens, the most a layout may have", kMaxLayoutTokens));
        }
        layout.parts.push_back(std::move(p));
        if (comma == std::string_view::npos) break;
        from = comma + 1;
    }
    return layout;
}

std::string_view to_string(PartKind kind) {
    switch (kind) {
        case PartKind::Text: return "text";
        case PartKind::Image: return "image";
        case PartKind::Video: return "video";
    }
    return "?";
}

}  // namespace ropelab
