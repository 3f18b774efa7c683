#include "plot/svg.h"

#include "core/png.h"
#include "core/utf8.h"

#include <string_view>
#include <type_traits>

#include <fmt/format.h>

namespace ropelab::draw {

namespace {

// One decimal is a tenth of a pixel: finer than any screen shows, and it keeps long curves small.
std::string num(float v) {
    std::string s = fmt::format("{:.1f}", v);
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s == "-0" ? "0" : s;
}

std::string hex(Color c) { return fmt::format("#{:02x}{:02x}{:02x}", red(c), green(c), blue(c)); }

// fill="…" or stroke="…" with its opacity when not opaque.
std::string paint(const char* what, Color c) {
    std::string s = fmt::format("{}=\"{}\"", what, hex(c));
    if (alpha(c) != 255) s += fmt::format(" {}-opacity=\"{:.3g}\"", what, alpha(c) / 255.0);
    return s;
}

std::string stroke(Color c, float width) {
    return "fill=\"none\" " + paint("stroke", c) + fmt::format(" stroke-width=\"{}\"", num(width));
}

// Text for XML 1.0: valid UTF-8 (a byte that is not becomes U+FFFD), markup characters escaped,
// control characters (which XML 1.0 does not allow) and U+FFFE, U+FFFF left out.
std::string escaped(const std::string& raw) {
    std::string text = utf8_or_replacement(raw);
    for (const std::string_view never : {std::string_view("\xEF\xBF\xBE"), std::string_view("\xEF\xBF\xBF")}) {
        for (std::size_t at; (at = text.find(never)) != std::string::npos;) text.erase(at, never.size());
    }
    std::string out;
    for (char ch : text) {
        switch (ch) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default:
                // Control characters are not allowed in XML 1.0.
                if ((static_cast<unsigned char>(ch) >= 0x20 && ch != 0x7F) || ch == '\t') out += ch;
        }
    }
    return out;
}

std::string points(const std::vector<Point>& pts) {
    std::string s;
    for (const Point& p : pts) s += num(p.x) + "," + num(p.y) + " ";
    if (!s.empty()) s.pop_back();
    return s;
}

std::string base64(std::string_view text) {
    static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const auto bytes = [text](std::size_t i) { return static_cast<unsigned>(static_cast<unsigned char>(text[i])); };
    std::string out;
    for (std::size_t i = 0; i < text.size(); i += 3) {
        const unsigned n = bytes(i) << 16 | (i + 1 < text.size() ? bytes(i + 1) << 8 : 0) | (i + 2 < text.size() ? bytes(i + 2) : 0);
        out += table[n >> 18 & 63];
        out += table[n >> 12 & 63];
        out += i + 1 < text.size() ? table[n >> 6 & 63] : '=';
        out += i + 2 < text.size() ? table[n & 63] : '=';
    }
    return out;
}

std::string png_data_uri(const Image& image) {
    return "data:image/png;base64," + base64(encode_png(image.rgba.data(), image.width, image.height));
}

std::size_t utf8_length(const std::string& s) {
    std::size_t n = 0;
    for (char ch : s) n += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
    return n;
}

// The byte length of each UTF-8 character of `s` (a stray byte counts as one).
std::vector<std::size_t> char_bytes(const std::string& s) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < s.size();) {
        std::size_t n = 1;
        while (i + n < s.size() && (static_cast<unsigned char>(s[i + n]) & 0xC0) == 0x80) ++n;
        out.push_back(n);
        i += n;
    }
    return out;
}

// x="…" for `count` characters from the `first`th, placed by the advances (the screen's pen).
std::string x_list(const Text& t, float start, std::size_t first, std::size_t count) {
    std::string x;
    float pen = start;
    for (std::size_t k = first; k < first + count; ++k) {
        x += (x.empty() ? "" : " ") + num(pen);
        pen += t.advances[k];
    }
    return x;
}

// Typeset maths: one <tspan> per span, its font size scaled and its baseline moved by dy
// (relative, so each span's dy also undoes the one before: every viewer honours dy, unlike
// baseline-shift). With the screen's advances each tspan carries its characters' x.
std::string spans_content(const Text& t, float em) {
    const bool placed = !t.advances.empty() && t.advances.size() == utf8_length(t.text);
    const std::vector<std::size_t> bytes = char_bytes(t.text);
    std::string out;
    float rise = 0.0f, pen = t.at.x;
    std::size_t at = 0, first_char = 0;
    for (const math_text::Span& span : t.spans) {
        const math_text::Placement p = math_text::placement(span.level);
        std::size_t chars = 0;
        for (std::size_t b = 0; first_char + chars < bytes.size() && b < span.bytes; ++chars) b += bytes[first_char + chars];
        std::string attributes;
        if (placed) attributes += " x=\"" + x_list(t, pen, first_char, chars) + "\"";
        const float dy = (rise - p.rise) * t.size;  // SVG's y grows downwards
        if (dy != 0.0f) attributes += " dy=\"" + num(dy) + "\"";
        if (p.scale != 1.0f) attributes += " font-size=\"" + num(em * p.scale) + "\"";
        out += "<tspan" + attributes + ">" + escaped(t.text.substr(at, span.bytes)) + "</tspan>";
        if (placed) {
            for (std::size_t k = first_char; k < first_char + chars; ++k) pen += t.advances[k];
        }
        rise = p.rise;
        at += span.bytes;
        first_char += chars;
    }
    return out;
}

std::string text_element(const Text& t, const std::string& family) {
    const float em = t.em > 0 ? t.em : 0.86f * t.size;
    const float baseline = t.at.y + (t.ascent > 0 ? t.ascent : 0.8f * t.size);
    std::string x = num(t.at.x);
    const bool placed = !t.advances.empty() && t.advances.size() == utf8_length(t.text);
    if (placed && t.spans.empty()) x = x_list(t, t.at.x, 0, t.advances.size());
    // xml:space keeps a run's inner spaces, which the per-character x positions count.
    return fmt::format("<text xml:space=\"preserve\" x=\"{}\" y=\"{}\" font-family=\"{}\" font-size=\"{}\" {}>{}</text>\n", x,
                       num(baseline), family, num(em), paint("fill", t.color),
                       t.spans.empty() ? escaped(t.text) : spans_content(t, em));
}

class Writer {
public:
    explicit Writer(std::string family) : family_(std::move(family)) {}

    void item(const Item& item) {
        if (!std::holds_alternative<Polygon>(item)) end_fill();
        std::visit([this](const auto& it) { write(it); }, item);
    }

    std::string finish() {
        end_fill();
        return std::move(out_);
    }

    void raw(const std::string& s) { out_ += s; }

private:
    void write(const Polyline& p) {
        out_ += fmt::format("<{} points=\"{}\" {} stroke-linejoin=\"round\"/>\n", p.closed ? "polygon" : "polyline",
                            points(p.points), stroke(p.color, p.width));
    }
    void write(const Segments& s) {
        std::string d;
        for (std::size_t i = 0; i + 1 < s.points.size(); i += 2) {
            d += "M" + num(s.points[i].x) + " " + num(s.points[i].y) + "L" + num(s.points[i + 1].x) + " " +
                 num(s.points[i + 1].y);
        }
        out_ += fmt::format("<path d=\"{}\" {}/>\n", d, stroke(s.color, s.width));
    }
    // A run of polygons of one colour (a widget's triangles) is one path: fewer elements, no seams.
    void write(const Polygon& p) {
        if (fill_open_ && fill_color_ != p.color) end_fill();
        if (!fill_open_) {
            out_ += "<path d=\"";
            fill_open_ = true;
            fill_color_ = p.color;
        }
        out_ += "M" + points(p.points) + "Z";
    }
    void end_fill() {
        if (!fill_open_) return;
        out_ += "\" " + paint("fill", fill_color_) + "/>\n";
        fill_open_ = false;
    }
    void write(const Rect& r) {
        // ImGui strokes a rectangle half a pixel inside its corners.
        const float inset = r.width > 0 ? 0.5f : 0.0f;
        const std::string corners = r.rounding > 0 ? fmt::format(" rx=\"{}\"", num(r.rounding)) : "";
        out_ += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"{} {}/>\n", num(r.min.x + inset),
                            num(r.min.y + inset), num(r.max.x - r.min.x - 2 * inset), num(r.max.y - r.min.y - 2 * inset),
                            corners, r.width > 0 ? stroke(r.color, r.width) : paint("fill", r.color));
    }
    void write(const Circle& c) {
        out_ += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {}/>\n", num(c.center.x), num(c.center.y), num(c.radius),
                            c.width > 0 ? stroke(c.color, c.width) : paint("fill", c.color));
    }
    void write(const Text& t) { out_ += text_element(t, family_); }
    void write(const Image& i) {
        if (i.width <= 0 || i.height <= 0) return;
        out_ += fmt::format(
            "<image x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" preserveAspectRatio=\"none\" "
            "style=\"image-rendering:pixelated\" xlink:href=\"{}\"/>\n",
            num(i.min.x), num(i.min.y), num(i.max.x - i.min.x), num(i.max.y - i.min.y), png_data_uri(i));
    }
    void write(const PushClip& c) {
        ++clips_;
        out_ += fmt::format("<clipPath id=\"c{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath>\n", clips_,
                            num(c.min.x), num(c.min.y), num(c.max.x - c.min.x), num(c.max.y - c.min.y));
        out_ += fmt::format("<g clip-path=\"url(#c{})\">\n", clips_);
    }
    void write(const PopClip&) { out_ += "</g>\n"; }

    std::string family_;
    std::string out_;
    bool fill_open_ = false;
    Color fill_color_ = 0;
    int clips_ = 0;
};

}  // namespace

std::string to_svg(const Figure& figure, const std::string& font_family) {
    Writer w(escaped(font_family));
    w.raw(fmt::format(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" "
        "width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">\n",
        num(figure.width), num(figure.height)));
    if (alpha(figure.background) != 0) {
        w.raw(fmt::format("<rect width=\"100%\" height=\"100%\" {}/>\n", paint("fill", figure.background)));
    }
    for (const Item& item : figure.items) w.item(item);
    return w.finish() + "</svg>\n";
}

}  // namespace ropelab::draw
