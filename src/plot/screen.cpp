#include "plot/screen.h"

#include <map>
#include <type_traits>

#include <stb_truetype.h>

#include "plot/capture.h"
#include "ui/widgets.h"

namespace ropelab::draw {

namespace {

std::vector<ImVec2> imvecs(const std::vector<Point>& points) {
    std::vector<ImVec2> out;
    out.reserve(points.size());
    for (const Point& p : points) out.push_back(imvec(p));
    return out;
}

void render_polygon(ImDrawList* dl, const Polygon& p) {
    if (p.points.size() == 3) {
        dl->AddTriangleFilled(imvec(p.points[0]), imvec(p.points[1]), imvec(p.points[2]), p.color);
    } else if (p.points.size() > 3) {
        const auto v = imvecs(p.points);
        dl->AddConvexPolyFilled(v.data(), static_cast<int>(v.size()), p.color);
    }
}

// A character of `t` from byte `i`: its length in bytes.
std::size_t char_length(const std::string& text, std::size_t i) {
    std::size_t n = 1;
    while (i + n < text.size() && (static_cast<unsigned char>(text[i + n]) & 0xC0) == 0x80) ++n;
    return n;
}

void render_text(ImDrawList* dl, const Text& t) {
    const math_text::Typeset typeset{t.text, t.spans};
    if (t.advances.empty()) {
        ui::add_typeset_text(dl, ImGui::GetFont(), t.size, imvec(t.at), t.color, typeset);
        return;
    }
    // Placed character by character, as a captured run was, each at its span's size and height.
    float x = t.at.x;
    std::size_t k = 0, span = 0, span_end = t.spans.empty() ? t.text.size() : t.spans[0].bytes;
    for (std::size_t i = 0; i < t.text.size() && k < t.advances.size(); ++k) {
        while (i >= span_end && span + 1 < t.spans.size()) span_end += t.spans[++span].bytes;
        const math_text::Level level = t.spans.empty() ? math_text::kBase : t.spans[span].level;
        const std::size_t n = char_length(t.text, i);
        const float top = ui::script_top(ImGui::GetFont(), t.size, level, t.at.y);
        dl->AddText(ImGui::GetFont(), t.size * math_text::placement(level).scale, ImVec2(x, top), t.color, t.text.data() + i,
                    t.text.data() + i + n);
        x += t.advances[k];
        i += n;
    }
}

}  // namespace

TextMetrics text_metrics(const ImFont* font, float size) {
    // Per font file: units per em and the ascender over ImGui's line height (ascender − descender).
    static std::map<const void*, std::pair<float, float>> ratios;
    if (font == nullptr || font->ConfigData == nullptr || font->ConfigData->FontData == nullptr) {
        return {0.86f * size, 0.8f * size};
    }
    const void* data = font->ConfigData->FontData;
    auto found = ratios.find(data);
    if (found == ratios.end()) {
        stbtt_fontinfo info{};
        const auto* bytes = static_cast<const unsigned char*>(data);
        std::pair<float, float> r{0.86f, 0.8f};
        if (stbtt_InitFont(&info, bytes, stbtt_GetFontOffsetForIndex(bytes, font->ConfigData->FontNo)) != 0) {
            int ascent = 0, descent = 0, gap = 0;
            stbtt_GetFontVMetrics(&info, &ascent, &descent, &gap);
            const float height_scale = stbtt_ScaleForPixelHeight(&info, 1.0f);
            r = {height_scale / stbtt_ScaleForMappingEmToPixels(&info, 1.0f), 0.0f};
        }
        found = ratios.emplace(data, r).first;
    }
    // ImGui places glyphs under its own rounded ascent; scaled to this size.
    const float ascent = font->FontSize > 0 ? font->Ascent * size / font->FontSize : 0.8f * size;
    return {found->second.first * size, ascent};
}

Text screen_text(ImVec2 at, ImU32 color, std::string_view text) {
    const float size = ImGui::GetFontSize();
    const TextMetrics m = text_metrics(ImGui::GetFont(), size);
    Text t = typeset_text(point(at), text, size, color, m.em, m.ascent);
    // Typeset maths keeps the screen's pen positions: a file's viewer would space the scripts by
    // its own font otherwise.
    if (!t.spans.empty()) t.advances = ui::typeset_advances(ImGui::GetFont(), size, {t.text, t.spans});
    return t;
}

void Canvas::text(ImVec2 at, ImU32 color, std::string_view text) {
    if (text.empty()) return;
    list_.add(screen_text(at, color, text));
    flush();
}

void render(ImDrawList* dl, const Item& item) {
    std::visit(
        [dl](const auto& it) {
            using T = std::decay_t<decltype(it)>;
            if constexpr (std::is_same_v<T, Polyline>) {
                if (it.points.size() == 2 && !it.closed) {
                    dl->AddLine(imvec(it.points[0]), imvec(it.points[1]), it.color, it.width);
                } else {
                    const auto v = imvecs(it.points);
                    dl->AddPolyline(v.data(), static_cast<int>(v.size()), it.color, it.closed ? ImDrawFlags_Closed : 0,
                                    it.width);
                }
            } else if constexpr (std::is_same_v<T, Segments>) {
                for (std::size_t i = 0; i + 1 < it.points.size(); i += 2) {
                    dl->AddLine(imvec(it.points[i]), imvec(it.points[i + 1]), it.color, it.width);
                }
            } else if constexpr (std::is_same_v<T, Polygon>) {
                render_polygon(dl, it);
            } else if constexpr (std::is_same_v<T, Rect>) {
                if (it.width > 0) {
                    dl->AddRect(imvec(it.min), imvec(it.max), it.color, it.rounding, 0, it.width);
                } else {
                    dl->AddRectFilled(imvec(it.min), imvec(it.max), it.color, it.rounding);
                }
            } else if constexpr (std::is_same_v<T, Circle>) {
                if (it.width > 0) {
                    dl->AddCircle(imvec(it.center), it.radius, it.color, it.segments, it.width);
                } else {
                    dl->AddCircleFilled(imvec(it.center), it.radius, it.color, it.segments);
                }
            } else if constexpr (std::is_same_v<T, Text>) {
                render_text(dl, it);
            } else if constexpr (std::is_same_v<T, PushClip>) {
                dl->PushClipRect(imvec(it.min), imvec(it.max), true);
            } else if constexpr (std::is_same_v<T, PopClip>) {
                dl->PopClipRect();
            }
            // Images come from textures on screen (ImGui::Image); a list's own image is for files.
        },
        item);
}

void Canvas::draw(Item item) {
    FrameCapture* capture = FrameCapture::active();
    // Clips are realised on screen; a captured item takes the clip its geometry had.
    const bool fenced = capture && !std::holds_alternative<PushClip>(item) && !std::holds_alternative<PopClip>(item);
    if (!fenced) {
        render(dl_, item);
        return;
    }
    capture->begin_item(dl_, item);
    render(dl_, item);
    capture->end_item(dl_);
}

void Canvas::draw(const List& list) {
    for (const Item& item : list.items()) draw(item);
}

void Canvas::flush() {
    for (const Item& item : list_.items()) draw(item);
    list_.clear();
}

void Canvas::push_clip(ImVec2 min, ImVec2 max) {
    list_.push_clip(point(min), point(max));
    flush();
}

void Canvas::pop_clip() {
    list_.pop_clip();
    flush();
}

}  // namespace ropelab::draw
