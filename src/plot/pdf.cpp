#include "plot/pdf.h"

#include <cmath>
#include <memory>
#include <numbers>
#include <type_traits>

#include <cairo-ft.h>
#include <cairo-pdf.h>
#include <cairo.h>
#include <ft2build.h>
#include FT_FREETYPE_H

namespace ropelab::draw {

namespace {

void set_color(cairo_t* cr, Color c) {
    cairo_set_source_rgba(cr, red(c) / 255.0, green(c) / 255.0, blue(c) / 255.0, alpha(c) / 255.0);
}

void path_through(cairo_t* cr, const std::vector<Point>& points, bool closed) {
    for (std::size_t i = 0; i < points.size(); ++i) {
        (i == 0 ? cairo_move_to : cairo_line_to)(cr, points[i].x, points[i].y);
    }
    if (closed) cairo_close_path(cr);
}

void stroke(cairo_t* cr, Color c, float width) {
    set_color(cr, c);
    cairo_set_line_width(cr, width);
    cairo_stroke(cr);
}

// The decoded code points of a UTF-8 string, each with its byte length.
std::vector<std::pair<unsigned, int>> code_points(const std::string& s) {
    std::vector<std::pair<unsigned, int>> out;
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        const int n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        unsigned c = n == 1 ? b : b & (0x7F >> n);
        for (int k = 1; k < n && i + k < s.size(); ++k) c = c << 6 | (static_cast<unsigned char>(s[i + k]) & 0x3F);
        out.emplace_back(c, static_cast<int>(std::min<std::size_t>(n, s.size() - i)));
        i += static_cast<std::size_t>(n);
    }
    return out;
}

class Painter {
public:
    Painter(cairo_t* cr, FT_Face face, cairo_font_face_t* font) : cr_(cr), face_(face), font_(font) {}

    void item(const Item& item) {
        if (!std::holds_alternative<Polygon>(item)) end_fill();
        std::visit([this](const auto& it) { paint(it); }, item);
    }
    void finish() { end_fill(); }

private:
    void paint(const Polyline& p) {
        path_through(cr_, p.points, p.closed);
        cairo_set_line_join(cr_, CAIRO_LINE_JOIN_ROUND);
        stroke(cr_, p.color, p.width);
    }
    void paint(const Segments& s) {
        for (std::size_t i = 0; i + 1 < s.points.size(); i += 2) {
            cairo_move_to(cr_, s.points[i].x, s.points[i].y);
            cairo_line_to(cr_, s.points[i + 1].x, s.points[i + 1].y);
        }
        stroke(cr_, s.color, s.width);
    }
    // A run of polygons of one colour (a widget's triangles) is filled as one path: filled one by
    // one, a viewer's anti-aliasing shows their shared edges as hairline seams.
    void paint(const Polygon& p) {
        if (fill_open_ && fill_color_ != p.color) end_fill();
        path_through(cr_, p.points, true);
        fill_open_ = true;
        fill_color_ = p.color;
    }
    void end_fill() {
        if (!fill_open_) return;
        set_color(cr_, fill_color_);
        cairo_fill(cr_);
        fill_open_ = false;
    }
    void paint(const Rect& r) {
        const double inset = r.width > 0 ? 0.5 : 0.0;  // as ImGui strokes it
        cairo_rectangle(cr_, r.min.x + inset, r.min.y + inset, r.max.x - r.min.x - 2 * inset, r.max.y - r.min.y - 2 * inset);
        if (r.width > 0) {
            stroke(cr_, r.color, r.width);
        } else {
            set_color(cr_, r.color);
            cairo_fill(cr_);
        }
    }
    void paint(const Circle& c) {
        cairo_new_sub_path(cr_);
        cairo_arc(cr_, c.center.x, c.center.y, c.radius, 0, 2 * std::numbers::pi);
        if (c.width > 0) {
            stroke(cr_, c.color, c.width);
        } else {
            set_color(cr_, c.color);
            cairo_fill(cr_);
        }
    }
    // One glyph per character at the screen's pen position; the clusters tie each glyph to its
    // bytes, which is what keeps the PDF's text searchable. Typeset maths: each span shown at its
    // own size on its own baseline (cairo writes the size and the position of each glyph run;
    // it has no call for PDF's text rise, Ts, which would say the same).
    void paint(const Text& t) {
        const auto chars = code_points(t.text);
        if (chars.empty()) return;
        cairo_set_font_face(cr_, font_);
        const double em = t.em > 0 ? t.em : 0.86 * t.size;
        const double baseline = t.at.y + (t.ascent > 0 ? t.ascent : 0.8 * t.size);
        set_color(cr_, t.color);
        const std::vector<math_text::Span> spans =
            t.spans.empty() ? std::vector<math_text::Span>{{static_cast<std::uint32_t>(t.text.size()), math_text::kBase}} : t.spans;
        double pen = t.at.x;
        std::size_t k = 0, byte = 0;
        for (const math_text::Span& span : spans) {
            const math_text::Placement p = math_text::placement(span.level);
            cairo_set_font_size(cr_, em * p.scale);
            const double y = baseline - p.rise * t.size;
            std::vector<cairo_glyph_t> glyphs;
            std::vector<cairo_text_cluster_t> clusters;
            std::size_t bytes = 0;
            for (; k < chars.size() && bytes < span.bytes; ++k) {
                glyphs.push_back({FT_Get_Char_Index(face_, chars[k].first), pen, y});
                clusters.push_back({chars[k].second, 1});
                bytes += static_cast<std::size_t>(chars[k].second);
                if (k < t.advances.size()) {
                    pen += t.advances[k];
                } else {
                    cairo_text_extents_t e;
                    cairo_glyph_extents(cr_, &glyphs.back(), 1, &e);
                    pen += e.x_advance;
                }
            }
            if (!glyphs.empty()) {
                cairo_show_text_glyphs(cr_, t.text.data() + byte, static_cast<int>(bytes), glyphs.data(),
                                       static_cast<int>(glyphs.size()), clusters.data(), static_cast<int>(clusters.size()),
                                       static_cast<cairo_text_cluster_flags_t>(0));
            }
            byte += bytes;
        }
    }
    void paint(const Image& i) {
        if (i.width <= 0 || i.height <= 0) return;
        cairo_surface_t* image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, i.width, i.height);
        const int stride = cairo_image_surface_get_stride(image);
        unsigned char* data = cairo_image_surface_get_data(image);
        for (int y = 0; y < i.height; ++y) {
            for (int x = 0; x < i.width; ++x) {
                const auto* px = &i.rgba[(static_cast<std::size_t>(y) * i.width + x) * 4];
                const unsigned a = px[3];
                // cairo wants premultiplied 0xAARRGGBB words.
                const std::uint32_t word = a << 24 | (px[0] * a / 255) << 16 | (px[1] * a / 255) << 8 | (px[2] * a / 255);
                *reinterpret_cast<std::uint32_t*>(data + y * stride + x * 4) = word;
            }
        }
        cairo_surface_mark_dirty(image);
        cairo_save(cr_);
        cairo_translate(cr_, i.min.x, i.min.y);
        cairo_scale(cr_, (i.max.x - i.min.x) / i.width, (i.max.y - i.min.y) / i.height);
        cairo_set_source_surface(cr_, image, 0, 0);
        cairo_pattern_set_filter(cairo_get_source(cr_), CAIRO_FILTER_NEAREST);
        cairo_paint(cr_);
        cairo_restore(cr_);
        cairo_surface_destroy(image);
    }
    void paint(const PushClip& c) {
        cairo_save(cr_);
        cairo_rectangle(cr_, c.min.x, c.min.y, c.max.x - c.min.x, c.max.y - c.min.y);
        cairo_clip(cr_);
    }
    void paint(const PopClip&) { cairo_restore(cr_); }

    cairo_t* cr_;
    FT_Face face_;
    cairo_font_face_t* font_;
    bool fill_open_ = false;
    Color fill_color_ = 0;
};

// The FreeType library lives as long as the process: cairo may keep a font face in its cache
// after we let go of it, and the face needs its library.
FT_Library freetype() {
    static FT_Library library = [] {
        FT_Library l = nullptr;
        return FT_Init_FreeType(&l) == 0 ? l : nullptr;
    }();
    return library;
}

// A cairo font face that owns its FreeType face (freed when cairo frees the font face).
cairo_font_face_t* font_face_for(std::string_view font, FT_Face& face) {
    if (freetype() == nullptr || FT_New_Memory_Face(freetype(), reinterpret_cast<const FT_Byte*>(font.data()),
                                                    static_cast<FT_Long>(font.size()), 0, &face) != 0) {
        return nullptr;
    }
    cairo_font_face_t* out = cairo_ft_font_face_create_for_ft_face(face, 0);
    static const cairo_user_data_key_t key{};
    cairo_font_face_set_user_data(out, &key, face, [](void* f) { FT_Done_Face(static_cast<FT_Face>(f)); });
    return out;
}

cairo_status_t append_bytes(void* closure, const unsigned char* data, unsigned int length) {
    static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
    return CAIRO_STATUS_SUCCESS;
}

}  // namespace

std::string to_pdf(const Figure& figure, std::string_view font, std::string& error) {
    FT_Face face = nullptr;
    cairo_font_face_t* font_face = font_face_for(font, face);
    if (font_face == nullptr) {
        error = "the UI font could not be read for the PDF";
        return {};
    }
    std::string bytes;
    cairo_surface_t* surface = cairo_pdf_surface_create_for_stream(append_bytes, &bytes, figure.width, figure.height);
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "ropelab");
    cairo_t* cr = cairo_create(surface);
    if (alpha(figure.background) != 0) {
        set_color(cr, figure.background);
        cairo_paint(cr);
    }
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    Painter painter(cr, face, font_face);
    for (const Item& item : figure.items) painter.item(item);
    painter.finish();
    cairo_destroy(cr);
    cairo_surface_finish(surface);
    const cairo_status_t status = cairo_surface_status(surface);
    cairo_surface_destroy(surface);
    cairo_font_face_destroy(font_face);  // after the surface: the PDF's font subset was made from it
    if (status != CAIRO_STATUS_SUCCESS) {
        error = std::string("cairo could not write the PDF: ") + cairo_status_to_string(status);
        return {};
    }
    return bytes;
}

}  // namespace ropelab::draw
