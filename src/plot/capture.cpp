#include "plot/capture.h"

#include "plot/screen.h"
#include "ui/widgets.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>

namespace ropelab::draw {

namespace {

FrameCapture* g_active = nullptr;

// The fences are draw callbacks that do nothing when rendered; capture recognises them by address.
void item_begins(const ImDrawList*, const ImDrawCmd*) {}
void item_ends(const ImDrawList*, const ImDrawCmd*) {}

struct GlyphRef {
    const ImFont* font;
    const ImFontGlyph* glyph;
};

// Every glyph in the atlas by the top-left corner of its texture rectangle.
std::map<std::pair<float, float>, GlyphRef> glyphs_by_uv(const ImFontAtlas& atlas) {
    std::map<std::pair<float, float>, GlyphRef> out;
    for (const ImFont* font : atlas.Fonts) {
        for (const ImFontGlyph& g : font->Glyphs) {
            if (g.Visible) out.emplace(std::make_pair(g.U0, g.V0), GlyphRef{font, &g});
        }
    }
    return out;
}

void append_utf8(std::string& s, unsigned c) {
    if (c < 0x80) {
        s += static_cast<char>(c);
    } else if (c < 0x800) {
        s += static_cast<char>(0xC0 | c >> 6);
        s += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        s += static_cast<char>(0xE0 | c >> 12);
        s += static_cast<char>(0x80 | (c >> 6 & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        s += static_cast<char>(0xF0 | c >> 18);
        s += static_cast<char>(0x80 | (c >> 12 & 0x3F));
        s += static_cast<char>(0x80 | (c >> 6 & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    }
}

bool same_clip(const ImVec4& a, const ImVec4& b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }

// Builds the figure's items in order, grouping them by clip rectangle and joining glyphs into runs.
class Reader {
public:
    Reader(const ImFontAtlas& atlas, const ReadTexture& read) : glyphs_(glyphs_by_uv(atlas)), read_(read) {
        white_ = atlas.TexUvWhitePixel;
        font_texture_ = atlas.TexID;
    }

    void set_clip(const ImVec4& clip) {
        if (clip_ && same_clip(*clip_, clip)) return;
        end_run();
        if (clip_) out_.push_back(PopClip{});
        out_.push_back(PushClip{{clip.x, clip.y}, {clip.z, clip.w}});
        clip_ = clip;
    }

    void item(const Item& item) {
        end_run();
        out_.push_back(item);
    }

    // The triangles of one draw command, outside every fence.
    void triangles(const ImDrawList& list, const ImDrawCmd& cmd) {
        const ImDrawIdx* idx = list.IdxBuffer.Data + cmd.IdxOffset;
        const ImDrawVert* vtx = list.VtxBuffer.Data + cmd.VtxOffset;
        const bool font_texture = cmd.TextureId == font_texture_;
        for (unsigned i = 0; i + 2 < cmd.ElemCount;) {
            const ImDrawVert& a = vtx[idx[i]];
            const ImDrawVert& b = vtx[idx[i + 1]];
            const ImDrawVert& c = vtx[idx[i + 2]];
            const bool solid = font_texture && is_white(a) && is_white(b) && is_white(c);
            if (solid || i + 5 >= cmd.ElemCount) {
                if ((a.col >> 24) != 0) item(Polygon{{{a.pos.x, a.pos.y}, {b.pos.x, b.pos.y}, {c.pos.x, c.pos.y}}, a.col});
                i += 3;
                continue;
            }
            // A textured quad as ImGui writes one (PrimRectUV): corners a (top-left) and c.
            if (font_texture) {
                glyph(a, c);
            } else {
                image(cmd.TextureId, a, c);
            }
            i += 6;
        }
    }

    std::vector<Item> finish() {
        end_run();
        if (clip_) out_.push_back(PopClip{});
        return std::move(out_);
    }

private:
    struct Run {
        Text text;
        const ImFont* font = nullptr;
        float scale = 1.0f;
        float pen = 0.0f;  // where the next character would start
        math_text::Level level;  // the last character's
    };

    bool is_white(const ImDrawVert& v) const { return v.uv.x == white_.x && v.uv.y == white_.y; }

    void glyph(const ImDrawVert& top_left, const ImDrawVert& bottom_right) {
        const auto found = glyphs_.find({top_left.uv.x, top_left.uv.y});
        if (found == glyphs_.end()) return;
        const ImFontGlyph& g = *found->second.glyph;
        const ImFont* font = found->second.font;
        if (g.Y1 <= g.Y0) return;
        const float scale = (bottom_right.pos.y - top_left.pos.y) / (g.Y1 - g.Y0);
        const float pen = top_left.pos.x - g.X0 * scale;
        const float top = top_left.pos.y - g.Y0 * scale;
        const float size = font->FontSize * scale;
        const float space = font->FindGlyph(' ') ? font->FindGlyph(' ')->AdvanceX * scale : 0.3f * size;
        std::optional<math_text::Level> level;
        if (run_) {
            level = level_in_run(font, size, top, top_left.col, pen, space);
            if (!level) end_run();
        }
        if (!run_) {
            const TextMetrics m = text_metrics(font, size);
            run_ = Run{Text{{pen, top}, {}, size, top_left.col, {}, m.em, m.ascent, {}}, font, scale, pen, math_text::kBase};
            level = math_text::kBase;
        } else {
            // ImGui draws no quad for a space: the gap says how many there were.
            const int spaces = space > 0 ? static_cast<int>(std::lround((pen - run_->pen) / space)) : 0;
            // A space beside the base text is the base text's ("c_i e": the space after the i).
            const math_text::Level between = run_->level.base() || level->base() ? math_text::kBase : run_->level;
            for (int s = 0; s < spaces; ++s) {
                append(" ", between);
                run_->text.advances.push_back(space);
            }
            // What is left of the gap (rounding) goes to the last character, so positions stay exact.
            if (!run_->text.advances.empty()) run_->text.advances.back() += pen - run_->pen - spaces * space;
        }
        std::string bytes;
        append_utf8(bytes, g.Codepoint);
        append(bytes, *level);
        run_->text.advances.push_back(g.AdvanceX * scale);
        run_->pen = pen + g.AdvanceX * scale;
    }

    // The level at which a glyph continues the current run: the run's own line (base), or a
    // script typeset into it (ui::add_typeset_text: smaller, raised or lowered, right after the
    // text before it). Nothing: the glyph starts a new run.
    std::optional<math_text::Level> level_in_run(const ImFont* font, float size, float top, ImU32 color, float pen,
                                                 float space) const {
        const Text& t = run_->text;
        const float gap = pen - run_->pen;
        if (run_->font != font || t.color != color || gap >= 4.0f * space) return std::nullopt;
        if (std::abs(t.size - size) < 0.01f && std::abs(t.at.y - top) < 0.5f && gap > -0.5f) return math_text::kBase;
        // A script's run starts at a whole pixel (ImGui floors each text's position): up to 1 px back.
        if (gap <= -1.0f) return std::nullopt;
        for (const math_text::Level level : {math_text::kSuperscript, math_text::kSubscript, math_text::Level{1, -1},
                                             math_text::Level{1, 1}, math_text::Level{-1, 1}, math_text::Level{-1, -1},
                                             math_text::kBase}) {
            const float expected_top = std::floor(ui::script_top(font, t.size, level, t.at.y));
            if (std::abs(t.size * math_text::placement(level).scale - size) < 0.01f && std::abs(expected_top - top) < 0.5f) return level;
        }
        return std::nullopt;
    }

    // Adds bytes to the run at `level`, extending its spans.
    void append(std::string_view bytes, math_text::Level level) {
        Text& t = run_->text;
        t.text += bytes;
        if (!t.spans.empty() && t.spans.back().level == level) {
            t.spans.back().bytes += static_cast<std::uint32_t>(bytes.size());
        } else {
            t.spans.push_back({static_cast<std::uint32_t>(bytes.size()), level});
        }
        run_->level = level;
    }

    void image(ImTextureID texture, const ImDrawVert& top_left, const ImDrawVert& bottom_right) {
        TexturePixels pixels = read_ ? read_(texture) : TexturePixels{};
        if (pixels.width <= 0 || pixels.height <= 0) return;
        // The part of the texture the quad shows.
        const auto texel = [](float uv, int size) { return std::clamp(static_cast<int>(std::lround(uv * size)), 0, size); };
        const int x0 = texel(top_left.uv.x, pixels.width), x1 = texel(bottom_right.uv.x, pixels.width);
        const int y0 = texel(top_left.uv.y, pixels.height), y1 = texel(bottom_right.uv.y, pixels.height);
        if (x1 <= x0 || y1 <= y0) return;
        Image out{{top_left.pos.x, top_left.pos.y}, {bottom_right.pos.x, bottom_right.pos.y}, x1 - x0, y1 - y0, {}};
        out.rgba.reserve(static_cast<std::size_t>(out.width) * out.height * 4);
        for (int y = y0; y < y1; ++y) {
            const auto* row = pixels.rgba.data() + (static_cast<std::size_t>(y) * pixels.width + x0) * 4;
            out.rgba.insert(out.rgba.end(), row, row + static_cast<std::size_t>(out.width) * 4);
        }
        item(out);
    }

    void end_run() {
        if (!run_) return;
        std::vector<math_text::Span>& spans = run_->text.spans;
        if (std::all_of(spans.begin(), spans.end(), [](const math_text::Span& sp) { return sp.level.base(); })) spans.clear();
        out_.push_back(std::move(run_->text));
        run_.reset();
    }

    std::map<std::pair<float, float>, GlyphRef> glyphs_;
    const ReadTexture& read_;
    ImVec2 white_;
    ImTextureID font_texture_ = nullptr;
    std::optional<ImVec4> clip_;
    std::optional<Run> run_;
    std::vector<Item> out_;
};

}  // namespace

FrameCapture::FrameCapture() {
    ImGuiStyle& style = ImGui::GetStyle();
    anti_aliased_lines_ = style.AntiAliasedLines;
    anti_aliased_fill_ = style.AntiAliasedFill;
    lines_use_texture_ = style.AntiAliasedLinesUseTex;
    // Fringes would come back as slivers of half-transparent triangles.
    style.AntiAliasedLines = style.AntiAliasedFill = style.AntiAliasedLinesUseTex = false;
    g_active = this;
}

FrameCapture::~FrameCapture() {
    if (g_active == this) g_active = nullptr;
    if (ImGui::GetCurrentContext() != nullptr) {
        ImGuiStyle& style = ImGui::GetStyle();
        style.AntiAliasedLines = anti_aliased_lines_;
        style.AntiAliasedFill = anti_aliased_fill_;
        style.AntiAliasedLinesUseTex = lines_use_texture_;
    }
}

FrameCapture* FrameCapture::active() { return g_active; }

void FrameCapture::begin_item(ImDrawList* dl, Item item) {
    items_.push_back(std::move(item));
    dl->AddCallback(&item_begins, reinterpret_cast<void*>(static_cast<std::uintptr_t>(items_.size())));
}

void FrameCapture::end_item(ImDrawList* dl) { dl->AddCallback(&item_ends, nullptr); }

Figure FrameCapture::finish(const ImDrawData& data, const ReadTexture& read_texture, Color background) const {
    Reader reader(*ImGui::GetIO().Fonts, read_texture);
    for (int l = 0; l < data.CmdListsCount; ++l) {
        const ImDrawList& list = *data.CmdLists[l];
        bool fenced = false;
        for (const ImDrawCmd& cmd : list.CmdBuffer) {
            if (cmd.UserCallback == &item_begins) {
                const auto k = reinterpret_cast<std::uintptr_t>(cmd.UserCallbackData);
                reader.set_clip(cmd.ClipRect);
                if (k >= 1 && k <= items_.size()) reader.item(items_[k - 1]);
                fenced = true;
            } else if (cmd.UserCallback == &item_ends) {
                fenced = false;
            } else if (cmd.UserCallback == nullptr && !fenced && cmd.ElemCount > 0) {
                reader.set_clip(cmd.ClipRect);
                reader.triangles(list, cmd);
            }
        }
    }
    Figure figure;
    figure.width = data.DisplaySize.x;
    figure.height = data.DisplaySize.y;
    figure.background = background;
    figure.items = reader.finish();
    return figure;
}

}  // namespace ropelab::draw
