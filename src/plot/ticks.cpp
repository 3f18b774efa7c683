// Axis ticks: where they go and how they read.
#include "plot/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ropelab::plot {

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

double axis_unit(Range r) {
    const double largest = std::max(std::abs(r.min), std::abs(r.max));
    if (!(largest > 0.0) || !std::isfinite(largest) || (largest >= 1e-2 && largest < 1e5)) return 1.0;
    return std::pow(10.0, std::floor(std::log10(largest)));
}

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
    // A short axis can hold fewer labels than the spacing asked for: every other tick goes until
    // the labels fit, so none is printed over its neighbour.
    while (ticks.size() > 2 && !labels_fit(ticks)) {
        std::vector<double> every_other;
        for (std::size_t i = 0; i < ticks.size(); i += 2) every_other.push_back(ticks[i]);
        ticks = std::move(every_other);
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

}  // namespace ropelab::plot
