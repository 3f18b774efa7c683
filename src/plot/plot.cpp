#include "plot/plot.h"

#include "ui/widgets.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include <fmt/format.h>

namespace ropelab::plot {

namespace {

double safe_log(double v) { return std::log10(std::max(v, 1e-300)); }

std::string tick_label(double v) {
    char buffer[32];
    const double a = std::abs(v);
    if (a != 0.0 && (a >= 1e6 || a < 1e-3)) {
        std::snprintf(buffer, sizeof buffer, "%.3g", v);
    } else {
        std::snprintf(buffer, sizeof buffer, "%.6g", v);
    }
    return buffer;
}

// A power of ten that tick labels are divided by when they would be long (|v| ≥ 10^5 or all
// below 10^-2): "0.2, 0.4" under "(×1e-05)" instead of "2e-06, 4e-06". 1 otherwise.
double axis_unit(Range r) {
    const double largest = std::max(std::abs(r.min), std::abs(r.max));
    if (!(largest > 0.0) || !std::isfinite(largest) || (largest >= 1e-2 && largest < 1e5)) return 1.0;
    return std::pow(10.0, std::floor(std::log10(largest)));
}

// The box a text drawn at `at` occupies.
ImVec4 box_of(ImVec2 at, const char* text) {
    const ImVec2 size = ImGui::CalcTextSize(text);
    return ImVec4(at.x, at.y, at.x + size.x, at.y + size.y);
}

}  // namespace

std::vector<double> ticks_for(Range r, float length, float spacing, bool log_axis, bool horizontal) {
    // As many as the spacing asks for, and at least four where four fit without their labels
    // touching: one or two ticks do not tell a reader the scale.
    const int fit = std::max(2, static_cast<int>(length / std::max(1.0f, spacing)));
    std::vector<double> ticks = nice_ticks(r, fit, log_axis);
    const float font = ImGui::GetFontSize();
    const auto labels_fit = [&](const std::vector<double>& t) {
        if (t.size() < 2) return true;
        float widest = 0.0f;
        for (double v : t) widest = std::max(widest, ImGui::CalcTextSize(tick_label(v).c_str()).x);
        const float needed = horizontal ? widest + 0.8f * font : 1.2f * font;
        return length / static_cast<float>(t.size()) >= needed;
    };
    for (int target = fit + 1; ticks.size() < 4 && target <= 12; ++target) {
        std::vector<double> more = nice_ticks(r, target, log_axis);
        if (more.size() > ticks.size() && labels_fit(more)) ticks = std::move(more);
    }
    return ticks;
}

std::vector<double> nice_ticks(Range r, int target_count, bool log_axis) {
    std::vector<double> ticks;
    if (!r.valid()) return ticks;
    if (log_axis) {
        const double lo = std::floor(safe_log(r.min)), hi = std::ceil(safe_log(r.max));
        const double step = std::max(1.0, std::ceil((hi - lo) / target_count));
        for (double e = lo; e <= hi; e += step) {
            const double v = std::pow(10.0, e);
            if (v >= r.min && v <= r.max) ticks.push_back(v);
            if (hi - lo <= 2) {  // short log range: 2× and 5× too
                for (double m : {2.0, 5.0}) {
                    if (m * v >= r.min && m * v <= r.max) ticks.push_back(m * v);
                }
            }
        }
        std::sort(ticks.begin(), ticks.end());
        return ticks;
    }
    const double raw = (r.max - r.min) / std::max(1, target_count);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude;
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        step = m * magnitude;
        if (step >= raw) break;
    }
    for (double v = std::ceil(r.min / step) * step; v <= r.max + step * 1e-9; v += step) {
        ticks.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    }
    return ticks;
}

Plot::Plot(const char* id, PlotState& state, ImVec2 size, Range data_x, Options options)
    : state_(state), options_(options), data_x_(data_x) {
    id_ = ImGui::GetID(id);
    name_ = id;
    frame_min_ = ImGui::GetCursorScreenPos();
    frame_max_ = ImVec2(frame_min_.x + size.x, frame_min_.y + size.y);
    const float font = ImGui::GetFontSize();
    // Top line: the y label and the legend; left: y tick labels; bottom: x ticks and label.
    area_min_ = ImVec2(frame_min_.x + 4.2f * font, frame_min_.y + 1.4f * font);
    area_max_ = ImVec2(frame_max_.x - 0.6f * font, frame_max_.y - 2.4f * font);
    if (options_.log_x && data_x_.min <= 0) data_x_.min = 1.0;
    x_ = state_.user_view && state_.x.valid() ? state_.x : data_x_;
}

double Plot::x_to_px(double x) const {
    const double t = options_.log_x ? (safe_log(x) - safe_log(x_.min)) / (safe_log(x_.max) - safe_log(x_.min))
                                    : (x - x_.min) / (x_.max - x_.min);
    return area_min_.x + t * (area_max_.x - area_min_.x);
}

double Plot::px_to_x(double px) const {
    const double t = (px - area_min_.x) / (area_max_.x - area_min_.x);
    return options_.log_x ? std::pow(10.0, safe_log(x_.min) + t * (safe_log(x_.max) - safe_log(x_.min)))
                          : x_.min + t * (x_.max - x_.min);
}

double Plot::y_to_px(double y) const {
    const double t = options_.log_y ? (safe_log(y) - safe_log(y_.min)) / (safe_log(y_.max) - safe_log(y_.min))
                                    : (y - y_.min) / (y_.max - y_.min);
    return area_max_.y - t * (area_max_.y - area_min_.y);
}

std::vector<std::uint32_t> Plot::column_boundaries(std::int64_t count, double x0, double dx) const {
    const int width = std::max(1, static_cast<int>(area_max_.x - area_min_.x));
    std::vector<std::uint32_t> out;
    out.reserve(static_cast<std::size_t>(width) + 1);
    for (int c = 0; c <= width; ++c) {
        const double x = px_to_x(area_min_.x + c);
        const double index = std::ceil((x - x0) / dx);
        out.push_back(static_cast<std::uint32_t>(std::clamp<double>(index, 0.0, static_cast<double>(count))));
    }
    return out;
}

void Plot::columns(const char* name, std::vector<M4Column> cols, ImU32 color, double scale,
                   double offset, bool fit) {
    // 1 px: ImGui draws those from its texture, far cheaper on software rasterisers.
    Entry e{name, color, std::move(cols), {}, {}, scale, offset, 1.0f, fit};
    entries_.push_back(std::move(e));
}

void Plot::line(const char* name, std::span<const double> x, std::span<const double> y, ImU32 color,
                float thickness) {
    Entry e{name, color, {}, {}, {}, 1.0, 0.0, thickness};
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
        if (std::isfinite(x[i]) && std::isfinite(y[i])) {
            e.xy.emplace_back(static_cast<float>(x[i]), static_cast<float>(y[i]));
        }
    }
    entries_.push_back(std::move(e));
}

void Plot::points(const char* name, std::span<const double> x, std::span<const double> y,
                  std::span<const ImU32> colors) {
    Entry e{name, colors.empty() ? IM_COL32_WHITE : colors[0], {}, {}, {}, 1.0, 0.0, 0.0f};
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
        e.xy.emplace_back(static_cast<float>(x[i]), static_cast<float>(y[i]));
        e.point_colors.push_back(i < colors.size() ? colors[i] : e.color);
    }
    entries_.push_back(std::move(e));
}

void Plot::vline(double x, ImU32 color, const char* label) { markers_.push_back({x, color, label, false}); }

void Plot::hline(double y, ImU32 color, const char* label) { markers_.push_back({y, color, label, true}); }

Range Plot::fit_y() const {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const Entry& e : entries_) {
        if (!e.fit) continue;
        for (const M4Column& c : e.cols) {
            if (c.empty()) continue;
            lo = std::min(lo, e.scale * c.min + e.offset);
            hi = std::max(hi, e.scale * c.max + e.offset);
        }
        for (const ImVec2& p : e.xy) {
            if (p.x < x_.min || p.x > x_.max || (options_.log_y && p.y <= 0)) continue;
            lo = std::min<double>(lo, p.y);
            hi = std::max<double>(hi, p.y);
        }
    }
    for (const Marker& m : markers_) {  // horizontal markers stay in view
        if (!m.horizontal || (options_.log_y && m.at <= 0)) continue;
        lo = std::min(lo, m.at);
        hi = std::max(hi, m.at);
    }
    if (!std::isfinite(lo) || !std::isfinite(hi)) return {options_.log_y ? 1e-3 : 0.0, 1.0};
    if (options_.log_y) return {lo * 0.8, hi * 1.25};
    const double pad = hi > lo ? 0.06 * (hi - lo) : std::max(1.0, std::abs(hi)) * 0.1;
    return {lo - pad, hi + pad};
}

void Plot::draw_axes(ImDrawList* dl) const {
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border, 0.5f);
    const float font = ImGui::GetFontSize();
    const ImVec4 frame(frame_min_.x, frame_min_.y, frame_max_.x, frame_max_.y);
    dl->AddRectFilled(area_min_, area_max_, ImGui::GetColorU32(ImGuiCol_FrameBg));
    for (double t : ticks_for(x_, area_max_.x - area_min_.x, 6 * font, options_.log_x, true)) {
        const float px = static_cast<float>(x_to_px(t));
        dl->AddLine(ImVec2(px, area_min_.y), ImVec2(px, area_max_.y), grid);
        const std::string label = tick_label(t);
        const float w = ImGui::CalcTextSize(label.c_str()).x;
        // The last label may not hang past the frame: it moves left to end at its edge.
        const ImVec2 at(std::min(px - w / 2, frame_max_.x - w), area_max_.y + 0.15f * font);
        dl->AddText(at, text, label.c_str());
        ui::log().check_fits(label, ImVec2(at.x, at.y), ImVec2(at.x + w, at.y + font), frame);
    }
    for (double t : ticks_for(y_, area_max_.y - area_min_.y, 2.5f * font, options_.log_y, false)) {
        const float py = static_cast<float>(y_to_px(t));
        dl->AddLine(ImVec2(area_min_.x, py), ImVec2(area_max_.x, py), grid);
        const std::string label = tick_label(t / y_unit_);
        const ImVec2 size = ImGui::CalcTextSize(label.c_str());
        const ImVec2 at(area_min_.x - size.x - 0.3f * font, py - size.y / 2);
        dl->AddText(at, text, label.c_str());
        ui::log().check_fits(label, at, ImVec2(at.x + size.x, at.y + size.y), frame);
    }
    dl->AddRect(area_min_, area_max_, ImGui::GetColorU32(ImGuiCol_Border));
    const ImVec2 xl = ImGui::CalcTextSize(options_.x_label);
    const ImVec2 at((area_min_.x + area_max_.x - xl.x) / 2, area_max_.y + 1.2f * font);
    dl->AddText(at, text, options_.x_label);
    ui::log().check_fits(options_.x_label, at, ImVec2(at.x + xl.x, at.y + xl.y), frame);
}

void Plot::draw_entries(ImDrawList* dl) const {
    dl->PushClipRect(area_min_, area_max_, true);
    // Lines grow with the UI scale, so a 4K export at scale 3 is not hairlines.
    const float widen = std::max(1.0f, std::round(ImGui::GetFontSize() / 15.0f));
    for (const Entry& original : entries_) {
        Entry e = original;
        e.thickness *= widen;
        if (!e.cols.empty()) {
            std::optional<ImVec2> previous;
            for (std::size_t c = 0; c < e.cols.size(); ++c) {
                const M4Column& col = e.cols[c];
                if (col.empty()) continue;
                const float px = area_min_.x + static_cast<float>(c) + 0.5f;
                auto y = [&](float v) { return static_cast<float>(y_to_px(e.scale * v + e.offset)); };
                if (previous) dl->AddLine(*previous, ImVec2(px, y(col.first)), e.color, e.thickness);
                dl->AddLine(ImVec2(px, y(col.min)), ImVec2(px, y(col.max) - 0.5f), e.color, e.thickness);
                previous = ImVec2(px, y(col.last));
            }
        } else if (e.point_colors.empty()) {
            std::vector<ImVec2> poly;
            poly.reserve(e.xy.size());
            for (const ImVec2& p : e.xy) {
                if (options_.log_y && p.y <= 0) continue;
                poly.emplace_back(static_cast<float>(x_to_px(p.x)), static_cast<float>(y_to_px(p.y)));
            }
            if (poly.size() > 1) dl->AddPolyline(poly.data(), static_cast<int>(poly.size()), e.color, 0, e.thickness);
        } else {
            const float r = 0.22f * ImGui::GetFontSize();
            for (std::size_t i = 0; i < e.xy.size(); ++i) {
                const ImVec2 p(static_cast<float>(x_to_px(e.xy[i].x)), static_cast<float>(y_to_px(e.xy[i].y)));
                dl->AddCircleFilled(p, r, e.point_colors[i], 8);
            }
        }
    }
    const float font = ImGui::GetFontSize();
    const ImVec4 area(area_min_.x, area_min_.y, area_max_.x, area_max_.y);
    // Labels never print over each other: one that would overlap a label already placed moves
    // down (vertical lines) or up (horizontal lines) a line at a time.
    std::vector<std::pair<ImVec2, ImVec2>> placed;
    const auto free_spot = [&](ImVec2 at, ImVec2 size, float step) {
        const auto clashes = [&](ImVec2 p) {
            return std::any_of(placed.begin(), placed.end(), [&](const auto& r) {
                return p.x < r.second.x && p.x + size.x > r.first.x && p.y < r.second.y && p.y + size.y > r.first.y;
            });
        };
        const auto inside = [&](ImVec2 p) { return p.y >= area_min_.y && p.y + size.y <= area_max_.y; };
        // A line at a time away from the first spot, the preferred way first, never out of the plot.
        ImVec2 best = at;
        for (int tries = 0; tries < 16; ++tries) {
            const ImVec2 p(at.x, at.y + (tries % 2 == 0 ? 1.0f : -1.0f) * static_cast<float>((tries + 1) / 2) * step);
            if (inside(p) && !clashes(p)) {
                best = p;
                break;
            }
        }
        placed.emplace_back(best, ImVec2(best.x + size.x, best.y + size.y));
        return best;
    };
    for (const Marker& m : markers_) {
        const std::string label = m.label_in_legend ? std::string() : m.label;
        const ImVec2 size = ImGui::CalcTextSize(label.c_str());
        if (m.horizontal) {
            const float py = static_cast<float>(y_to_px(m.at));
            dl->AddLine(ImVec2(area_min_.x, py), ImVec2(area_max_.x, py), m.color, 1.5f);
            // Above its line, or below it where the top is too close; further labels step away.
            const bool above = py - 1.1f * font >= area_min_.y;
            const ImVec2 at = free_spot(ImVec2(area_min_.x + 0.3f * font, above ? py - 1.1f * font : py + 0.1f * font), size,
                                        above ? -1.1f * font : 1.1f * font);
            dl->AddText(at, m.color, label.c_str());
            ui::log().check_fits(label, at, ImVec2(at.x + size.x, at.y + size.y), area);
        } else {
            const float px = static_cast<float>(x_to_px(m.at));
            dl->AddLine(ImVec2(px, area_min_.y), ImVec2(px, area_max_.y), m.color, 1.5f);
            // Right of its line, or left of it where the right edge is too close.
            const float x = px + 0.2f * font + size.x <= area_max_.x ? px + 0.2f * font : px - 0.2f * font - size.x;
            const ImVec2 at = free_spot(ImVec2(x, area_min_.y + 0.1f * font), size, 1.1f * font);
            dl->AddText(at, m.color, label.c_str());
            ui::log().check_fits(label, at, ImVec2(at.x + size.x, at.y + size.y), area);
        }
    }
    dl->PopClipRect();
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
        const float need = ImGui::CalcTextSize(m.label.c_str()).x + 0.3f * font;
        bool fits = true;
        if (m.horizontal) {
            fits = need <= area_max_.x - area_min_.x;
        } else {
            const float px = static_cast<float>(x_to_px(m.at));
            fits = px + need <= area_max_.x || px - need >= area_min_.x;
        }
        m.label_in_legend = !m.label.empty() && !fits;
        if (m.label_in_legend) items.emplace_back(m.label, m.color);
    }
    // Lines: the first follows the y label, further ones use the whole width; as many as leave
    // the plot three lines of its own. What does not fit is "+K more", named on hover.
    const float line = 1.2f * font;
    const int max_lines = std::max(1, static_cast<int>((area_max_.y - 3.0f * font - frame_min_.y - 1.4f * font) / line) + 1);
    const float first = frame_min_.x + ImGui::CalcTextSize(y_label_.c_str()).x + 1.5f * font;
    const auto width_of = [&](const std::string& name) { return 1.5f * font + ImGui::CalcTextSize(name.c_str()).x; };
    float x = first;
    int lines = 1;
    bool line_empty = true;  // a name wider than a whole line still goes on one (and is reported)
    std::size_t placed = 0;
    for (; placed < items.size(); ++placed) {
        const float width = width_of(items[placed].first);
        if (x + width > frame_max_.x && (!line_empty || x > frame_min_.x)) {
            if (lines == max_lines) break;
            x = frame_min_.x;
            ++lines;
        }
        legend_.push_back({items[placed].first, items[placed].second, ImVec2(x, frame_min_.y + (lines - 1) * line)});
        x += width + 1.0f * font;
        line_empty = false;
    }
    if (placed < items.size()) {
        // Make room for the "+K more" item on the last line.
        const auto more = [&] { return fmt::format("+{} more", items.size() - legend_.size()); };
        while (!legend_.empty() && legend_.back().at.x + width_of(legend_.back().name) + 1.0f * font + width_of(more()) > frame_max_.x &&
               legend_.back().at.y == frame_min_.y + (lines - 1) * line && legend_.back().at.x > frame_min_.x) {
            legend_.pop_back();
        }
        const float at_x = legend_.empty() ? first : legend_.back().at.x + width_of(legend_.back().name) + 1.0f * font;
        for (std::size_t i = legend_.size(); i < items.size(); ++i) hidden_.push_back(items[i].first);
        legend_.push_back({more(), ImGui::GetColorU32(ImGuiCol_TextDisabled), ImVec2(at_x, frame_min_.y + (lines - 1) * line)});
    }
    // The plot area starts below the legend's last line.
    area_min_.y = std::max(frame_min_.y + 1.4f * font, frame_min_.y + (lines - 1) * line + 1.4f * font);
}

void Plot::draw_legend(ImDrawList* dl) const {
    const float font = ImGui::GetFontSize();
    const ImVec4 frame(frame_min_.x, frame_min_.y, frame_max_.x, frame_max_.y);
    dl->PushClipRect(frame_min_, frame_max_, true);
    dl->AddText(frame_min_, ImGui::GetColorU32(ImGuiCol_TextDisabled), y_label_.c_str());
    const ImVec4 label = box_of(frame_min_, y_label_.c_str());
    ui::log().check_fits(y_label_, ImVec2(label.x, label.y), ImVec2(label.z, label.w), frame);
    for (const LegendItem& item : legend_) {
        dl->AddLine(ImVec2(item.at.x, item.at.y + 0.55f * font), ImVec2(item.at.x + 1.2f * font, item.at.y + 0.55f * font),
                    item.color, 3.0f);
        const ImVec2 name_at(item.at.x + 1.5f * font, item.at.y);
        dl->AddText(name_at, ImGui::GetColorU32(ImGuiCol_Text), item.name.c_str());
        const ImVec4 box = box_of(name_at, item.name.c_str());
        // A line's text below the plot's top is covered by the plot: cut too.
        ui::log().check_fits(item.name, ImVec2(box.x, box.y), ImVec2(box.z, box.w),
                             ImVec4(frame.x, frame.y, frame.z, area_min_.y));
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        if (&item == &legend_.back() && !hidden_.empty() && ui::tooltips_allowed() && mouse.x >= box.x &&
            mouse.x <= box.z && mouse.y >= box.y && mouse.y <= box.w) {
            ImGui::BeginTooltip();
            for (const std::string& name : hidden_) ImGui::TextUnformatted(name.c_str());
            ImGui::EndTooltip();
        }
    }
    dl->PopClipRect();
}

void Plot::hover(ImDrawList* dl, double mouse_x) const {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const ImU32 cross = ImGui::GetColorU32(ImGuiCol_Text, 0.4f);
    dl->AddLine(ImVec2(mouse.x, area_min_.y), ImVec2(mouse.x, area_max_.y), cross);
    dl->AddLine(ImVec2(area_min_.x, mouse.y), ImVec2(area_max_.x, mouse.y), cross);
    ImGui::BeginTooltip();
    const std::string x = options_.integer_x ? std::to_string(std::llround(mouse_x)) : tick_label(mouse_x);
    ImGui::Text("%s = %s", *options_.x_label ? options_.x_label : "x", x.c_str());
    for (const Entry& e : entries_) {
        if (e.name.empty()) continue;
        if (!e.cols.empty()) {
            const auto c = static_cast<std::size_t>(std::clamp<float>(mouse.x - area_min_.x, 0.0f,
                                                                      static_cast<float>(e.cols.size() - 1)));
            const M4Column& col = e.cols[c];
            if (col.empty()) continue;
            const double lo = e.scale * col.min + e.offset, hi = e.scale * col.max + e.offset;
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(e.color), "%s: %s", e.name.c_str(),
                               lo == hi ? tick_label(lo).c_str()
                                        : (tick_label(lo) + " … " + tick_label(hi)).c_str());
        } else if (!e.xy.empty()) {
            // nearest sample in x
            std::size_t best = 0;
            for (std::size_t i = 1; i < e.xy.size(); ++i) {
                if (std::abs(e.xy[i].x - mouse_x) < std::abs(e.xy[best].x - mouse_x)) best = i;
            }
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(e.color), "%s: %s (at %s)", e.name.c_str(),
                               tick_label(e.xy[best].y).c_str(), tick_label(e.xy[best].x).c_str());
        }
    }
    ImGui::EndTooltip();
}

void Plot::handle_input(bool hovered, bool active) {
    ImGuiIO& io = ImGui::GetIO();
    if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
        state_.user_view = false;
        return;
    }
    Range x = x_, y = y_;
    bool changed = false;
    if (hovered && io.MouseWheel != 0.0f) {
        const double factor = std::pow(0.85, io.MouseWheel);
        const double mx = px_to_x(io.MousePos.x);
        if (options_.log_x) {
            const double lm = safe_log(mx);
            x = {std::pow(10.0, lm + (safe_log(x.min) - lm) * factor), std::pow(10.0, lm + (safe_log(x.max) - lm) * factor)};
        } else {
            x = {mx + (x.min - mx) * factor, mx + (x.max - mx) * factor};
        }
        changed = true;
    }
    if (active && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 1.0f)) {
        const ImVec2 d = io.MouseDelta;
        const double w = area_max_.x - area_min_.x, h = area_max_.y - area_min_.y;
        if (options_.log_x) {
            const double shift = -d.x / w * (safe_log(x.max) - safe_log(x.min));
            x = {x.min * std::pow(10.0, shift), x.max * std::pow(10.0, shift)};
        } else {
            const double shift = -d.x / w * (x.max - x.min);
            x = {x.min + shift, x.max + shift};
        }
        if (!options_.log_y) {
            const double shift = d.y / h * (y.max - y.min);
            y = {y.min + shift, y.max + shift};
        }
        changed = true;
    }
    if (changed && x.valid() && y.valid()) {
        state_.x = x;
        state_.y = y;
        state_.user_view = true;
    }
}

std::optional<double> Plot::finish() {
    y_ = state_.user_view && state_.y.valid() ? state_.y : fit_y();
    y_unit_ = options_.log_y ? 1.0 : axis_unit(y_);
    layout_legend();
    ImGui::PushID(static_cast<int>(id_));
    ImGui::InvisibleButton("plot", ImVec2(frame_max_.x - frame_min_.x, frame_max_.y - frame_min_.y));
    ui::log().record(name_, "plot");
    const bool hovered = ImGui::IsItemHovered();
    const bool active = ImGui::IsItemActive();
    ImGui::PopID();

    ImDrawList* dl = ImGui::GetWindowDrawList();
    draw_axes(dl);
    draw_entries(dl);
    draw_legend(dl);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool inside = hovered && mouse.x >= area_min_.x && mouse.x <= area_max_.x &&
                        mouse.y >= area_min_.y && mouse.y <= area_max_.y;
    std::optional<double> hovered_x;
    if (inside) {
        hovered_x = px_to_x(mouse.x);
        if (ui::tooltips_allowed()) hover(dl, *hovered_x);
    }
    handle_input(hovered, active);
    return hovered_x;
}

}  // namespace ropelab::plot
