// The plot as a display list: axes, ticks, the series (decimated columns as per-pixel
// segments), markers and the legend, laid out with the current font.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "plot/plot.h"
#include "plot/screen.h"
#include "ui/widgets.h"

namespace ropelab::plot {

ImVec2 text_size(const char* text) { return ImVec2(ui::typeset_width(text), ImGui::CalcTextSize(text).y); }

namespace {

// The box a text drawn at `at` occupies, its maths typeset.
ImVec4 box_of(ImVec2 at, const char* text) {
    const ImVec2 size = text_size(text);
    return ImVec4(at.x, at.y, at.x + size.x, at.y + size.y);
}

draw::Point pt(ImVec2 v) { return {v.x, v.y}; }
draw::Point pt(float x, float y) { return {x, y}; }

// Text at the current font's size, with the metrics files need to match the screen.
void add_text(draw::List& out, ImVec2 at, ImU32 color, const std::string& text) {
    if (!text.empty()) out.add(draw::screen_text(at, color, text));
}

}  // namespace

void Plot::draw_axes(draw::List& out) const {
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border, 0.5f);
    const float font = ImGui::GetFontSize();
    const ImVec4 frame(frame_min_.x, frame_min_.y, frame_max_.x, frame_max_.y);
    out.fill_rect(pt(area_min_), pt(area_max_), ImGui::GetColorU32(ImGuiCol_FrameBg));
    for (double t : ticks_for(x_, area_max_.x - area_min_.x, 6 * font, options_.log_x, true)) {
        const float px = static_cast<float>(x_to_px(t));
        out.line(pt(px, area_min_.y), pt(px, area_max_.y), grid);
        const std::string label = tick_label(t);
        const float w = text_size(label.c_str()).x;
        // The last label may not hang past the frame: it moves left to end at its edge. The first
        // may not reach into the y ticks' column (the lowest y label sits in the corner): it
        // starts at the plot area's left edge.
        const ImVec2 at(std::min(std::max(px - w / 2, area_min_.x), frame_max_.x - w), area_max_.y + 0.15f * font);
        add_text(out, at, text, label);
        ui::log().check_fits(label, ImVec2(at.x, at.y), ImVec2(at.x + w, at.y + font), frame);
    }
    for (double t : ticks_for(y_, area_max_.y - area_min_.y, 2.5f * font, options_.log_y, false)) {
        const float py = static_cast<float>(y_to_px(t));
        out.line(pt(area_min_.x, py), pt(area_max_.x, py), grid);
        const std::string label = tick_label(t / y_unit_);
        const ImVec2 size = text_size(label.c_str());
        // Centred on its tick, but never up into the top line (the y label and the legend).
        const ImVec2 at(area_min_.x - size.x - 0.3f * font, std::max(py - size.y / 2, frame_min_.y + font));
        add_text(out, at, text, label);
        ui::log().check_fits(label, at, ImVec2(at.x + size.x, at.y + size.y), frame);
    }
    out.rect(pt(area_min_), pt(area_max_), ImGui::GetColorU32(ImGuiCol_Border));
    const ImVec2 xl = text_size(options_.x_label);
    const ImVec2 at((area_min_.x + area_max_.x - xl.x) / 2, area_max_.y + 1.2f * font);
    add_text(out, at, text, options_.x_label);
    ui::log().check_fits(options_.x_label, at, ImVec2(at.x + xl.x, at.y + xl.y), frame);
}

void Plot::draw_entries(draw::List& out) const {
    out.push_clip(pt(area_min_), pt(area_max_));
    // Lines grow with the UI scale, so a 4K export at scale 3 is not hairlines.
    // A projector theme doubles them (line_emphasis), to be seen from the back of a room.
    const float widen = std::max(1.0f, std::round(ImGui::GetFontSize() / 15.0f)) * line_emphasis();
    for (const Entry& original : entries_) {
        Entry e = original;
        e.thickness *= widen;
        if (!e.cols.empty()) {
            // Per pixel column: a step from the previous column's last value to this one's first,
            // and the column's range — the decimated curve as the screen shows it, in any file too.
            std::vector<draw::Point> steps;
            steps.reserve(e.cols.size() * 4);
            std::optional<draw::Point> previous;
            for (std::size_t c = 0; c < e.cols.size(); ++c) {
                const M4Column& col = e.cols[c];
                if (col.empty()) continue;
                const float px = area_min_.x + static_cast<float>(c) + 0.5f;
                auto y = [&](float v) { return static_cast<float>(y_to_px(e.scale * v + e.offset)); };
                if (previous) {
                    steps.push_back(*previous);
                    steps.push_back(pt(px, y(col.first)));
                }
                steps.push_back(pt(px, y(col.min)));
                steps.push_back(pt(px, y(col.max) - 0.5f));
                previous = pt(px, y(col.last));
            }
            out.segments(std::move(steps), e.color, e.thickness);
        } else if (e.point_colors.empty()) {
            std::vector<draw::Point> poly;
            poly.reserve(e.xy.size());
            for (const ImVec2& p : e.xy) {
                if (options_.log_y && p.y <= 0) continue;
                poly.push_back(pt(static_cast<float>(x_to_px(p.x)), static_cast<float>(y_to_px(p.y))));
            }
            out.polyline(std::move(poly), e.color, e.thickness);
        } else {
            const float r = 0.22f * ImGui::GetFontSize() * line_emphasis();
            for (std::size_t i = 0; i < e.xy.size(); ++i) {
                const ImVec2 p(static_cast<float>(x_to_px(e.xy[i].x)), static_cast<float>(y_to_px(e.xy[i].y)));
                out.disc(pt(p), r, e.point_colors[i], 8);
            }
        }
    }
    out.pop_clip();
}

// Labels never print over each other: one that would overlap a label already placed moves
// down (vertical lines) or up (horizontal lines) a line at a time, a horizontal line's at most two
// lines from its line; one with no free spot is named in the legend instead. Returns whether a
// label moved to the legend (the legend, and so the plot's top, is then laid out again).
bool Plot::place_marker_labels() {
    const float font = ImGui::GetFontSize();
    std::vector<std::pair<ImVec2, ImVec2>> placed;
    const auto free_spot = [&](ImVec2 at, ImVec2 size, float step, int tries) -> std::optional<ImVec2> {
        const auto clashes = [&](ImVec2 p) {
            return std::any_of(placed.begin(), placed.end(), [&](const auto& r) {
                return p.x < r.second.x && p.x + size.x > r.first.x && p.y < r.second.y && p.y + size.y > r.first.y;
            });
        };
        const auto inside = [&](ImVec2 p) { return p.y >= area_min_.y && p.y + size.y <= area_max_.y; };
        // A line at a time away from the first spot, the preferred way first, never out of the plot.
        for (int k = 0; k < tries; ++k) {
            const ImVec2 p(at.x, at.y + (k % 2 == 0 ? 1.0f : -1.0f) * static_cast<float>((k + 1) / 2) * step);
            if (inside(p) && !clashes(p)) {
                placed.emplace_back(p, ImVec2(p.x + size.x, p.y + size.y));
                return p;
            }
        }
        return std::nullopt;
    };
    bool moved = false;
    for (Marker& m : markers_) {
        if (m.label_in_legend || m.label.empty()) continue;
        const ImVec2 size = text_size(m.label.c_str());
        std::optional<ImVec2> at;
        if (m.horizontal) {
            const float py = static_cast<float>(y_to_px(m.at));
            // Above its line, or below it where the top is too close.
            const bool above = py - 1.1f * font >= area_min_.y;
            at = free_spot(ImVec2(area_min_.x + 0.3f * font, above ? py - 1.1f * font : py + 0.1f * font), size,
                           above ? -1.1f * font : 1.1f * font, 5);
        } else {
            const float px = static_cast<float>(x_to_px(m.at));
            // Right of its line, or left of it where the right edge is too close.
            const float x = px + 0.2f * font + size.x <= area_max_.x ? px + 0.2f * font : px - 0.2f * font - size.x;
            at = free_spot(ImVec2(x, area_min_.y + 0.1f * font), size, 1.1f * font, 16);
        }
        if (at) {
            m.label_at = *at;
        } else {
            m.crowded = true;
            moved = true;
        }
    }
    return moved;
}

void Plot::draw_markers(draw::List& out) const {
    out.push_clip(pt(area_min_), pt(area_max_));
    const ImVec4 area(area_min_.x, area_min_.y, area_max_.x, area_max_.y);
    for (const Marker& m : markers_) {
        if (m.horizontal) {
            const float py = static_cast<float>(y_to_px(m.at));
            out.line(pt(area_min_.x, py), pt(area_max_.x, py), m.color, 1.5f * line_emphasis());
        } else {
            const float px = static_cast<float>(x_to_px(m.at));
            out.line(pt(px, area_min_.y), pt(px, area_max_.y), m.color, 1.5f * line_emphasis());
        }
    }
    for (const Marker& m : markers_) {
        if (m.label_in_legend || m.label.empty()) continue;
        const ImVec2 size = text_size(m.label.c_str());
        add_text(out, m.label_at, m.color, m.label);
        ui::log().check_fits(m.label, m.label_at, ImVec2(m.label_at.x + size.x, m.label_at.y + size.y), area);
        ui::log().record_box(m.label, "marker label", m.label_at, size);
    }
    out.pop_clip();
}

// Values beyond the y range: "label value ↑" against the top edge, "… ↓" against the bottom,
// at the right, on a background patch so the curves under it do not garble it.
void Plot::draw_edge_notes(draw::List& out) const {
    const float font = ImGui::GetFontSize();
    const ImVec4 area(area_min_.x, area_min_.y, area_max_.x, area_max_.y);
    float top = area_min_.y + 0.15f * font, bottom = area_max_.y - 1.15f * font;
    for (const EdgeNote& n : edge_notes_) {
        const bool above = n.value > y_.max;
        if (!above && n.value >= y_.min) continue;
        const std::string text = fmt::format("{} {} {}", n.label, tick_label(n.value), above ? "↑" : "↓");
        const ImVec2 size = text_size(text.c_str());
        const ImVec2 at(std::max(area_min_.x + 0.2f * font, area_max_.x - size.x - 0.4f * font), above ? top : bottom);
        out.fill_rect(pt(at.x - 0.2f * font, at.y - 0.05f * font), pt(at.x + size.x + 0.2f * font, at.y + size.y + 0.05f * font),
                      ImGui::GetColorU32(ImGuiCol_FrameBg), 3.0f);
        add_text(out, at, n.color, text);
        ui::log().check_fits(text, at, ImVec2(at.x + size.x, at.y + size.y), area);
        ui::log().record_box(text, "off-scale note", at, size);
        (above ? top : bottom) += (above ? 1.2f : -1.2f) * font;
    }
}

// The top lines: the y label (with the axis's power of ten, if any), then a short stroke and
// name per series, wrapping onto further lines rather than running off the frame.
void Plot::layout_legend() {
    const float font = ImGui::GetFontSize();
    legend_.clear();
    hidden_.clear();
    y_label_ = options_.y_label;
    if (y_unit_ != 1.0) y_label_ += fmt::format(" (×{})", tick_label(y_unit_));
    std::vector<std::pair<std::string, ImU32>> items;
    if (options_.legend) {
        for (const Entry& e : entries_) {
            if (!e.name.empty()) items.emplace_back(e.name, e.color);
        }
    }
    // A marker whose label fits on neither side of its line is named up here instead of being cut.
    for (Marker& m : markers_) {
        const float need = text_size(m.label.c_str()).x + 0.3f * font;
        bool fits = true;
        if (m.horizontal) {
            fits = need <= area_max_.x - area_min_.x;
        } else {
            const float px = static_cast<float>(x_to_px(m.at));
            fits = px + need <= area_max_.x || px - need >= area_min_.x;
        }
        m.label_in_legend = !m.label.empty() && (!fits || m.crowded);
        if (m.label_in_legend) items.emplace_back(m.label, m.color);
    }
    // Lines: the first follows the y label, further ones use the whole width; as many as leave
    // the plot three lines of its own. What does not fit is "+K more", named on hover.
    const float line = 1.2f * font;
    const int max_lines = std::max(1, static_cast<int>((area_max_.y - 3.0f * font - frame_min_.y - 1.4f * font) / line) + 1);
    const float first = frame_min_.x + text_size(y_label_.c_str()).x + 1.5f * font;
    const auto width_of = [&](const std::string& name) { return 1.5f * font + text_size(name.c_str()).x; };
    // A name longer than the room it has ends in "…"; hovering it shows it whole.
    const auto fitted = [&](const std::string& name, float room) {
        std::string shown = name;
        while (!shown.empty() && width_of(shown + "…") > room) {
            shown.pop_back();
            while (!shown.empty() && (static_cast<unsigned char>(shown.back()) & 0xC0) == 0x80) shown.pop_back();
            if (!shown.empty() && static_cast<unsigned char>(shown.back()) >= 0xC0) shown.pop_back();
        }
        return shown == name ? name : shown + "…";
    };
    float x = first;
    int lines = 1;
    bool line_empty = true;
    std::size_t placed = 0;
    for (; placed < items.size(); ++placed) {
        const float width = width_of(items[placed].first);
        if (x + width > frame_max_.x && (!line_empty || x > frame_min_.x)) {
            if (lines == max_lines && !line_empty) break;
            if (lines < max_lines) {
                x = frame_min_.x;
                ++lines;
            }
        }
        // Wider than what is left of its line (a long name alone on one): shortened to fit.
        const std::string shown = x + width > frame_max_.x ? fitted(items[placed].first, frame_max_.x - x) : items[placed].first;
        legend_.push_back({shown, items[placed].second, ImVec2(x, frame_min_.y + (lines - 1) * line), items[placed].first});
        x += width_of(shown) + 1.0f * font;
        line_empty = false;
    }
    if (placed < items.size()) {
        // Make room for the "+K more" item on the last line.
        const auto more = [&] { return fmt::format("+{} more", items.size() - legend_.size()); };
        const auto end_of = [&](const LegendItem& item) { return item.at.x + width_of(item.name) + 1.0f * font; };
        while (!legend_.empty() && end_of(legend_.back()) + width_of(more()) > frame_max_.x &&
               legend_.back().at.y == frame_min_.y + (lines - 1) * line && legend_.back().at.x > frame_min_.x) {
            legend_.pop_back();
        }
        // One item left at the line's start that leaves no room: it is shortened instead.
        if (!legend_.empty() && end_of(legend_.back()) + width_of(more()) > frame_max_.x) {
            LegendItem& last = legend_.back();
            last.name = fitted(last.full, frame_max_.x - last.at.x - width_of(more()) - 1.0f * font);
        }
        float at_x = legend_.empty() ? first : end_of(legend_.back());
        // Not even "+K more" fits beside the y label (a narrow plot with a long one): a line of
        // its own, taken from the plot, rather than a legend drawn past the frame.
        if (legend_.empty() && lines == 1 && at_x + width_of(more()) > frame_max_.x) {
            at_x = frame_min_.x;
            lines = 2;
        }
        for (std::size_t i = legend_.size(); i < items.size(); ++i) hidden_.push_back(items[i].first);
        legend_.push_back({more(), ImGui::GetColorU32(ImGuiCol_TextDisabled), ImVec2(at_x, frame_min_.y + (lines - 1) * line), more()});
    }
    // The plot area starts below the legend's last line.
    area_min_.y = std::max(frame_min_.y + 1.4f * font, frame_min_.y + (lines - 1) * line + 1.4f * font);
}

void Plot::draw_legend(draw::List& out) const {
    const float font = ImGui::GetFontSize();
    const ImVec4 frame(frame_min_.x, frame_min_.y, frame_max_.x, frame_max_.y);
    out.push_clip(pt(frame_min_), pt(frame_max_));
    add_text(out, frame_min_, ImGui::GetColorU32(ImGuiCol_TextDisabled), y_label_);
    const ImVec4 label = box_of(frame_min_, y_label_.c_str());
    ui::log().check_fits(y_label_, ImVec2(label.x, label.y), ImVec2(label.z, label.w), frame);
    for (const LegendItem& item : legend_) {
        out.line(pt(item.at.x, item.at.y + 0.55f * font), pt(item.at.x + 1.2f * font, item.at.y + 0.55f * font), item.color,
                 3.0f);
        const ImVec2 name_at(item.at.x + 1.5f * font, item.at.y);
        add_text(out, name_at, ImGui::GetColorU32(ImGuiCol_Text), item.name);
        const ImVec4 box = box_of(name_at, item.name.c_str());
        // A line's text below the plot's top is covered by the plot: cut too.
        ui::log().check_fits(item.name, ImVec2(box.x, box.y), ImVec2(box.z, box.w),
                             ImVec4(frame.x, frame.y, frame.z, area_min_.y));
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        const bool hovered = ui::tooltips_allowed() && mouse.x >= box.x && mouse.x <= box.z && mouse.y >= box.y && mouse.y <= box.w;
        if (hovered && &item == &legend_.back() && !hidden_.empty()) {
            ImGui::BeginTooltip();
            // Tooltips draw plain text: maths in Unicode scripts where it can be (ui::tip's rule).
            for (const std::string& name : hidden_) ImGui::TextUnformatted(math_text::with_unicode_scripts(name).c_str());
            ImGui::EndTooltip();
        } else if (hovered) {
            const auto tip = std::find_if(legend_tips_.begin(), legend_tips_.end(), [&](const auto& t) { return t.first == item.full; });
            if (tip != legend_tips_.end()) {
                ImGui::SetNextWindowSize(ImVec2(30 * font, 0));
                ImGui::BeginTooltip();
                if (item.full != item.name) ImGui::TextUnformatted(math_text::with_unicode_scripts(item.full).c_str());
                ImGui::TextWrapped("%s", math_text::with_unicode_scripts(tip->second).c_str());
                ImGui::EndTooltip();
            } else if (item.full != item.name) {
                ImGui::SetTooltip("%s", math_text::with_unicode_scripts(item.full).c_str());
            }
        }
    }
    out.pop_clip();
}

}  // namespace ropelab::plot
