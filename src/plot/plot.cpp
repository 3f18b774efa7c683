// The plot as a widget: its frame and data mapping, fitting y to the data, the hover readout,
// zoom and pan. Its drawing is a display list (plot_figure.cpp).
#include "plot/plot.h"

#include "ui/widgets.h"
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "plot/screen.h"

namespace ropelab::plot {

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
    Entry e{name, color, std::move(cols), {}, {}, scale, offset, 1.0f, fit, {}, 0.0, 1.0};
    entries_.push_back(std::move(e));
}

void Plot::line(const char* name, std::span<const double> x, std::span<const double> y, ImU32 color,
                float thickness) {
    Entry e{name, color, {}, {}, {}, 1.0, 0.0, thickness, true, {}, 0.0, 1.0};
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
        if (std::isfinite(x[i]) && std::isfinite(y[i])) {
            e.xy.emplace_back(static_cast<float>(x[i]), static_cast<float>(y[i]));
        }
    }
    entries_.push_back(std::move(e));
}

void Plot::points(const char* name, std::span<const double> x, std::span<const double> y,
                  std::span<const ImU32> colors) {
    Entry e{name, colors.empty() ? IM_COL32_WHITE : colors[0], {}, {}, {}, 1.0, 0.0, 0.0f, true, {}, 0.0, 1.0};
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
        e.xy.emplace_back(static_cast<float>(x[i]), static_cast<float>(y[i]));
        e.point_colors.push_back(i < colors.size() ? colors[i] : e.color);
    }
    entries_.push_back(std::move(e));
}

void Plot::vline(double x, ImU32 color, const char* label) { markers_.push_back({x, color, label, false}); }

void Plot::draggable_vline(double x, ImU32 color, const char* label) {
    vline(x, color, label);
    handle_x_ = x;
    handle_label_ = label;
}

bool Plot::near_handle(ImVec2 mouse) const {
    if (!handle_x_) return false;
    for (const Marker& m : markers_) {  // its label, where drawn beside the line, grabs it too
        if (m.horizontal || m.at != *handle_x_ || m.label_in_legend || m.crowded || m.label != handle_label_) continue;
        const ImVec2 size = text_size(m.label.c_str());
        if (mouse.x >= m.label_at.x && mouse.x <= m.label_at.x + size.x && mouse.y >= m.label_at.y && mouse.y <= m.label_at.y + size.y) return true;
    }
    return std::abs(mouse.x - static_cast<float>(x_to_px(*handle_x_))) <= 0.5f * ImGui::GetFontSize() && mouse.y >= area_min_.y &&
           mouse.y <= area_max_.y;
}

void Plot::hline(double y, ImU32 color, const char* label) { markers_.push_back({y, color, label, true}); }

Range Plot::fit_y() const {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const Entry& e : entries_) {
        if (!e.fit) continue;
        for (const M4Column& c : e.cols) {
            if (c.empty()) continue;
            // A negative scale (a band's mirror) turns the column's max into its lowest value.
            const double a = e.scale * c.min + e.offset, b = e.scale * c.max + e.offset;
            lo = std::min({lo, a, b});
            hi = std::max({hi, a, b});
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

void Plot::sampled_at(std::vector<std::uint32_t> bounds, double x0, double dx) {
    if (entries_.empty()) return;
    Entry& e = entries_.back();
    e.bounds = std::move(bounds);
    e.x0 = x0;
    e.dx = dx;
}

namespace {

std::string value_range(double lo, double hi) { return lo == hi ? tick_label(lo) : tick_label(lo) + " … " + tick_label(hi); }

// A line of the hover readout, in the series' colour; the widget log holds it too (scripts and
// tests read what the tooltip says).
void readout_line(ImU32 color, const std::string& name, const std::string& value) {
    const std::string line = name + ": " + value;
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color), "%s", line.c_str());
    ui::log().record(name, "readout", value);
}

}  // namespace

// A columns series' value under the pointer: the sample nearest the pointer's x where the
// samples' columns are known (exact when it is its column's first or last sample, as it is
// whenever a pixel holds at most two samples; the column's range where a pixel holds many),
// else the range of the pixel column under the pointer. "" where the series has nothing there.
std::string Plot::column_readout(const Entry& e, double mouse_x, float mouse_px) const {
    const auto y = [&](float v) { return e.scale * v + e.offset; };
    if (e.bounds.size() == e.cols.size() + 1 && e.dx > 0) {
        const std::int64_t i = std::llround((mouse_x - e.x0) / e.dx);
        const auto after = std::upper_bound(e.bounds.begin(), e.bounds.end(), i,
                                            [](std::int64_t v, std::uint32_t b) { return v < static_cast<std::int64_t>(b); });
        if (i < 0 || after == e.bounds.begin() || after == e.bounds.end()) return "";
        const auto c = static_cast<std::size_t>(after - e.bounds.begin() - 1);
        const M4Column& col = e.cols[c];
        if (col.empty()) return "";
        const double at = e.x0 + static_cast<double>(i) * e.dx;
        // A preview's samples lie stride apart: say which distance the value is at.
        const std::string where = options_.integer_x && std::llround(at) != std::llround(mouse_x)
                                      ? " (at " + std::to_string(std::llround(at)) + ")"
                                      : "";
        if (i == e.bounds[c]) return tick_label(y(col.first)) + where;
        if (i + 1 == e.bounds[c + 1]) return tick_label(y(col.last)) + where;
        return value_range(y(col.min), y(col.max));
    }
    const auto c = static_cast<std::size_t>(std::clamp<float>(mouse_px - area_min_.x, 0.0f, static_cast<float>(e.cols.size() - 1)));
    const M4Column& col = e.cols[c];
    if (col.empty()) return "";
    return value_range(std::min(y(col.min), y(col.max)), std::max(y(col.min), y(col.max)));
}

void Plot::hover(ImDrawList* dl, double mouse_x) const {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const ImU32 cross = ImGui::GetColorU32(ImGuiCol_Text, 0.4f);
    dl->AddLine(ImVec2(mouse.x, area_min_.y), ImVec2(mouse.x, area_max_.y), cross);
    dl->AddLine(ImVec2(area_min_.x, mouse.y), ImVec2(area_max_.x, mouse.y), cross);
    ImGui::BeginTooltip();
    const std::string x = options_.integer_x ? std::to_string(std::llround(mouse_x)) : tick_label(mouse_x);
    const std::string x_name = *options_.x_label ? options_.x_label : "x";
    ImGui::Text("%s = %s", x_name.c_str(), x.c_str());
    ui::log().record(x_name, "readout", x);
    for (const Entry& e : entries_) {
        if (e.name.empty()) continue;
        if (!e.cols.empty()) {
            const std::string value = column_readout(e, mouse_x, mouse.x);
            if (!value.empty()) readout_line(e.color, e.name, value);
        } else if (!e.xy.empty()) {
            // nearest sample in x
            std::size_t best = 0;
            for (std::size_t i = 1; i < e.xy.size(); ++i) {
                if (std::abs(e.xy[i].x - mouse_x) < std::abs(e.xy[best].x - mouse_x)) best = i;
            }
            readout_line(e.color, e.name, tick_label(e.xy[best].y) + " (at " + tick_label(e.xy[best].x) + ")");
        }
    }
    ImGui::EndTooltip();
}

namespace {

float g_line_emphasis = 1.0f;

// An axis position and back: log10 on a log axis, the value itself otherwise.
double to_axis(double v, bool log_axis) { return log_axis ? safe_log(v) : v; }
double from_axis(double a, bool log_axis) { return log_axis ? std::pow(10.0, a) : a; }

// `r` scaled by `factor` about `at` (axis units), on a linear or log axis.
Range zoomed(Range r, double at, double factor, bool log_axis) {
    const double a = to_axis(at, log_axis);
    return {from_axis(a + (to_axis(r.min, log_axis) - a) * factor, log_axis),
            from_axis(a + (to_axis(r.max, log_axis) - a) * factor, log_axis)};
}

}  // namespace

void set_line_emphasis(float factor) { g_line_emphasis = std::max(1.0f, factor); }
float line_emphasis() { return g_line_emphasis; }

Range clamp_range(Range r, Range extent, bool log_axis) {
    if (!extent.valid() || !r.valid()) return r;
    const double lo = to_axis(extent.min, log_axis), hi = to_axis(extent.max, log_axis);
    double a = to_axis(r.min, log_axis), b = to_axis(r.max, log_axis);
    if (b - a >= hi - lo) return extent;
    if (a < lo) {
        b += lo - a;
        a = lo;
    }
    if (b > hi) {
        a -= b - hi;
        b = hi;
    }
    return {from_axis(a, log_axis), from_axis(b, log_axis)};
}

void Plot::off_scale_note(const char* label, double value, ImU32 color) {
    if (std::isfinite(value)) edge_notes_.push_back({label, value, color});
}

// The new view, kept inside the data's extent: x within the full x range, y (when the user set
// it; nullopt: y stays fitted to the data) within the data's fitted range.
void Plot::set_view(Range x, std::optional<Range> y) {
    if (!x.valid() || (y && !y->valid())) return;
    state_.x = clamp_range(x, data_x_, options_.log_x);
    state_.y = y ? clamp_range(*y, fit_y(), options_.log_y) : Range{0.0, 0.0};  // an empty y range: fitted
    state_.user_view = true;
}

// The rectangle dragged with Shift, in pixels, becomes the visible x and y ranges.
void Plot::zoom_to_box(ImVec2 from, ImVec2 to) {
    const float left = std::max(area_min_.x, std::min(from.x, to.x)), right = std::min(area_max_.x, std::max(from.x, to.x));
    const float top = std::max(area_min_.y, std::min(from.y, to.y)), bottom = std::min(area_max_.y, std::max(from.y, to.y));
    if (right - left < 3.0f || bottom - top < 3.0f) return;  // a click, not a box
    const auto px_to_y = [&](double py) {
        const double t = (area_max_.y - py) / (area_max_.y - area_min_.y);
        return from_axis(to_axis(y_.min, options_.log_y) + t * (to_axis(y_.max, options_.log_y) - to_axis(y_.min, options_.log_y)),
                         options_.log_y);
    };
    set_view({px_to_x(left), px_to_x(right)}, Range{px_to_y(bottom), px_to_y(top)});
}

void Plot::handle_input(bool hovered, bool active, bool released) {
    ImGuiIO& io = ImGui::GetIO();
    if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
        state_.user_view = false;
        return;
    }
    // y stays fitted to the data until the user zooms or pans it.
    const bool user_y = state_.user_view && state_.y.valid();
    const double w = area_max_.x - area_min_.x, h = area_max_.y - area_min_.y;
    if (hovered && io.MouseWheel != 0.0f) {
        const double factor = std::pow(0.85, io.MouseWheel);
        if (io.KeyCtrl) {  // Ctrl+wheel: y about the pointer
            const double t = (area_max_.y - io.MousePos.y) / h;
            const double at = from_axis(to_axis(y_.min, options_.log_y) + t * (to_axis(y_.max, options_.log_y) - to_axis(y_.min, options_.log_y)),
                                        options_.log_y);
            set_view(x_, zoomed(y_, at, factor, options_.log_y));
        } else {
            set_view(zoomed(x_, px_to_x(io.MousePos.x), factor, options_.log_x), user_y ? std::optional<Range>(y_) : std::nullopt);
        }
        return;
    }
    if (released && io.KeyShift) {
        zoom_to_box(io.MouseClickedPos[ImGuiMouseButton_Left], io.MousePos);
        return;
    }
    if (active && io.KeyShift && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 1.0f)) {  // the box being dragged
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const ImVec2 from = io.MouseClickedPos[ImGuiMouseButton_Left];
        dl->AddRectFilled(from, io.MousePos, ImGui::GetColorU32(ImGuiCol_TextSelectedBg));
        dl->AddRect(from, io.MousePos, ImGui::GetColorU32(ImGuiCol_Text, 0.7f));
        return;
    }
    if (active && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 1.0f)) {
        const ImVec2 d = io.MouseDelta;
        Range x = x_, y = y_;
        const double shift_x = -d.x / w * (to_axis(x.max, options_.log_x) - to_axis(x.min, options_.log_x));
        x = {from_axis(to_axis(x.min, options_.log_x) + shift_x, options_.log_x), from_axis(to_axis(x.max, options_.log_x) + shift_x, options_.log_x)};
        if (user_y && !options_.log_y) {  // a fitted y has nowhere to go: it shows all the data
            const double shift = d.y / h * (y.max - y.min);
            y = {y.min + shift, y.max + shift};
        }
        set_view(x, user_y ? std::optional<Range>(y) : std::nullopt);
    }
}

std::optional<double> Plot::finish() {
    y_ = state_.user_view && state_.y.valid() ? state_.y : fit_y();
    // What is on screen, for scripts and tests: "x_min x_max y_min y_max" (no ImGui item of its own).
    ui::log().record_rect(name_, "plot range", fmt::format("{} {} {} {}", x_.min, x_.max, y_.min, y_.max), frame_min_,
                          ImVec2(frame_max_.x - frame_min_.x, frame_max_.y - frame_min_.y));
    y_unit_ = options_.log_y ? 1.0 : axis_unit(y_);
    layout_legend();
    // A label with no room near its line goes to the legend, which may push the plot's top down.
    for (int k = 0; k < 3 && place_marker_labels(); ++k) layout_legend();
    ImGui::PushID(static_cast<int>(id_));
    // ImGui asserts on an item of zero size (a view rendered a few pixels wide): at least 1 px.
    ImGui::InvisibleButton("plot", ImVec2(std::max(1.0f, frame_max_.x - frame_min_.x), std::max(1.0f, frame_max_.y - frame_min_.y)));
    ui::log().record(name_, "plot");
    const bool hovered = ImGui::IsItemHovered();
    const bool active = ImGui::IsItemActive();
    const bool released = ImGui::IsItemDeactivated();
    // Whether this press grabbed the draggable line, kept while the button stays down.
    ImGuiStorage* storage = ImGui::GetStateStorage();
    const ImGuiID grab_key = ImGui::GetID("grabbed vline"), offset_key = ImGui::GetID("grab offset");
    if (ImGui::IsItemActivated()) {
        const ImVec2 at = ImGui::GetIO().MouseClickedPos[ImGuiMouseButton_Left];
        storage->SetBool(grab_key, near_handle(at));
        // Grabbed beside the line (its label): the line keeps that distance from the pointer.
        if (handle_x_) storage->SetFloat(offset_key, at.x - static_cast<float>(x_to_px(*handle_x_)));
    }
    if (!active) storage->SetBool(grab_key, false);
    const bool grabbed = active && handle_x_ && storage->GetBool(grab_key);
    const float grab_offset = grabbed ? storage->GetFloat(offset_key) : 0.0f;
    ImGui::PopID();

    draw::List figure;
    draw_axes(figure);
    draw_entries(figure);
    draw_markers(figure);
    draw_legend(figure);
    draw_edge_notes(figure);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    draw::Canvas(dl).draw(figure);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool inside = hovered && mouse.x >= area_min_.x && mouse.x <= area_max_.x &&
                        mouse.y >= area_min_.y && mouse.y <= area_max_.y;
    std::optional<double> hovered_x;
    if (inside) {
        hovered_x = px_to_x(mouse.x);
        if (ui::tooltips_allowed()) hover(dl, *hovered_x);
    }
    if (handle_x_) {  // where a person (or a script) grabs the line
        const float px = static_cast<float>(x_to_px(*handle_x_)), font = ImGui::GetFontSize();
        if (px >= area_min_.x && px <= area_max_.x) {
            ui::log().record_box(handle_label_, "handle", ImVec2(px - 0.25f * font, area_min_.y), ImVec2(0.5f * font, area_max_.y - area_min_.y));
        }
    }
    if (grabbed) {
        const double x = std::clamp(px_to_x(std::clamp(mouse.x - grab_offset, area_min_.x, area_max_.x)), std::min(x_.min, x_.max), std::max(x_.min, x_.max));
        dragged_ = options_.integer_x ? std::round(x) : x;
    }
    if (grabbed || (hovered && near_handle(mouse))) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
    handle_input(hovered, active && !grabbed, released);  // dragging the line does not pan
    return hovered_x;
}

}  // namespace ropelab::plot
