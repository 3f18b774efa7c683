// View 10: scores over an image. For a query token at (row, column) of an H×W image of tokens,
// score(query, key) for every key token (h, w) of the key frame, as a diverging heatmap centred
// at 0; Δ = query − key in position-id steps (core/grid_scores.h). Beside it the ordinary 1-D
// curve: text tokens have equal t, h, w ids, so every multi-axis rule scores them as 1-D RoPE.
// Compare mode: one small heatmap per setting on a shared colour scale.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/colormap.h"
#include "lab/grid_product.h"
#include "plot/screen.h"
#include "state/compare.h"
#include "ui/widgets.h"
#include "views/views.h"

namespace ropelab::views {

namespace {

// Most cells drawn per side: larger images draw every k-th token (and say so).
constexpr std::int64_t kMaxCellsPerSide = 128;

ImU32 score_color(double score, double scale) {
    const double t = scale > 0 ? std::clamp(score / scale, -1.0, 1.0) : 0.0;
    const auto rgb = diverging_color(static_cast<float>(t * 3.14159265));
    return IM_COL32(static_cast<int>(rgb[0] * 255), static_cast<int>(rgb[1] * 255), static_cast<int>(rgb[2] * 255), 255);
}

std::int64_t cell_stride(const LabParams& p) {
    const std::int64_t side = std::max(p.grid_height, p.grid_width);
    return (side + kMaxCellsPerSide - 1) / kMaxCellsPerSide;
}

// The largest |score| over the cells drawn, the shared colour scale's end.
double largest_magnitude(const LabParams& p, const std::vector<lab::GridSetting>& settings) {
    const std::int64_t stride = cell_stride(p);
    double most = 0;
    for (const lab::GridSetting& s : settings) {
        for (std::int64_t h = 0; h < p.grid_height; h += stride) {
            for (std::int64_t w = 0; w < p.grid_width; w += stride) most = std::max(most, std::abs(s.slice.at(p.query_row - h, p.query_column - w)));
        }
    }
    return most;
}

// One heatmap of the key frame in [at, at + size]: hover reads Δ and the score, a click makes
// the cell the query. Returns its size on screen.
ImVec2 heatmap(Context& ctx, const lab::GridSetting& s, double scale, ImVec2 at, float side, int index) {
    const LabParams& p = ctx.params;
    const std::int64_t stride = cell_stride(p);
    const std::int64_t rows = (p.grid_height + stride - 1) / stride, cols = (p.grid_width + stride - 1) / stride;
    const float cell = side / static_cast<float>(std::max(rows, cols));
    const ImVec2 size(cell * static_cast<float>(cols), cell * static_cast<float>(rows));
    draw::Canvas dl = draw::Canvas::window();
    for (std::int64_t r = 0; r < rows; ++r) {
        for (std::int64_t c = 0; c < cols; ++c) {
            const double v = s.slice.at(p.query_row - r * stride, p.query_column - c * stride);
            const ImVec2 a(at.x + cell * static_cast<float>(c), at.y + cell * static_cast<float>(r));
            dl.fill_rect(a, ImVec2(a.x + cell + 0.5f, a.y + cell + 0.5f), score_color(v, scale));
        }
    }
    // The query's cell, outlined (it is in the key frame only when the frame offset is 0).
    const ImVec2 q(at.x + cell * static_cast<float>(p.query_column / stride), at.y + cell * static_cast<float>(p.query_row / stride));
    const ImU32 outline = ImGui::GetColorU32(ImGuiCol_Text);
    dl.rect(ImVec2(q.x - 1, q.y - 1), ImVec2(q.x + cell + 1, q.y + cell + 1), outline, 2.0f);
    ImGui::SetCursorScreenPos(at);
    ImGui::InvisibleButton(fmt::format("##grid heatmap {}", index).c_str(), ImVec2(std::max(1.0f, size.x), std::max(1.0f, size.y)));
    ui::log().record(fmt::format("grid heatmap {}", index), "canvas",
                     fmt::format("query {},{}", p.query_row, p.query_column));
    if (ImGui::IsItemHovered()) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        const std::int64_t kr = std::clamp<std::int64_t>(static_cast<std::int64_t>((m.y - at.y) / cell) * stride, 0, p.grid_height - 1);
        const std::int64_t kc = std::clamp<std::int64_t>(static_cast<std::int64_t>((m.x - at.x) / cell) * stride, 0, p.grid_width - 1);
        const std::int64_t dh = p.query_row - kr, dw = p.query_column - kc;
        const std::string readout = fmt::format("key ({}, {}): Δ = ({}, {}, {}), score {:.6g}", kr, kc, s.slice.dt, dh, dw, s.slice.at(dh, dw));
        ui::log().record_rect("grid readout", "message", readout, at, size);
        if (ui::tooltips_allowed()) ImGui::SetTooltip("%s\nclick: make this token the query", readout.c_str());
        if (ImGui::IsItemClicked()) ctx.requests.grid_query = std::make_pair(kr, kc);
    }
    return size;
}

// The diverging key: −scale … 0 … +scale.
void colour_key(float width, double scale) {
    const float h = 0.7f * ImGui::GetFontSize();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    draw::Canvas dl = draw::Canvas::window();
    constexpr int kSteps = 64;
    for (int k = 0; k < kSteps; ++k) {
        const double v = scale * (-1.0 + 2.0 * (k + 0.5) / kSteps);
        dl.fill_rect(ImVec2(at.x + width * k / kSteps, at.y), ImVec2(at.x + width * (k + 1) / kSteps + 0.5f, at.y + h), score_color(v, scale));
    }
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const std::string ticks[] = {fmt::format("{:.3g}", -scale), "0", fmt::format("{:.3g}", scale)};
    float labels = 0;
    for (const std::string& t : ticks) labels += ImGui::CalcTextSize(t.c_str()).x + ImGui::GetFontSize();
    if (labels > width) {
        // Too narrow for three labels apart: one, centred.
        const std::string both = fmt::format("±{:.3g}", scale);
        dl.text(ImVec2(at.x + std::max(0.0f, (width - ImGui::CalcTextSize(both.c_str()).x) / 2), at.y + h + 1), text, both);
        ImGui::Dummy(ImVec2(width, h + ImGui::GetFontSize() + 2));
        return;
    }
    for (int t = 0; t < 3; ++t) {
        const float tw = ImGui::CalcTextSize(ticks[t].c_str()).x;
        const float x = std::clamp(at.x + width * t / 2.0f - tw / 2, at.x, at.x + width - tw);
        dl.text(ImVec2(x, at.y + h + 1), text, ticks[t]);
    }
    ImGui::Dummy(ImVec2(width, h + ImGui::GetFontSize() + 2));
}

// The text tokens' curve: score vs Δ for Δ = 0 … 4·max(H, W) (at most 512), from the base's coefficients.
void text_curve(Context& ctx, ImVec2 at, ImVec2 size) {
    const LabData& d = ctx.compute.data();
    // Every whole Δ (no stride: a strided curve would alias the fast pairs).
    const std::int64_t n = std::min<std::int64_t>(4 * std::max(ctx.params.grid_height, ctx.params.grid_width), 512);
    std::vector<double> ys;
    for (std::int64_t delta = 0; delta <= n; ++delta) ys.push_back(rope_score(d.coefficients, d.freqs, delta));
    const auto [lo, hi] = std::minmax_element(ys.begin(), ys.end());
    const double span = std::max(1e-12, *hi - *lo);
    draw::Canvas dl = draw::Canvas::window();
    const ImU32 frame = ImGui::GetColorU32(ImGuiCol_Border);
    dl.rect(at, ImVec2(at.x + size.x, at.y + size.y), frame);
    auto point = [&](std::size_t i) {
        return ImVec2(at.x + size.x * static_cast<float>(i) / static_cast<float>(std::max<std::size_t>(1, ys.size() - 1)),
                      at.y + size.y * static_cast<float>(1.0 - (ys[i] - *lo) / span));
    };
    for (std::size_t i = 1; i < ys.size(); ++i) dl.line(point(i - 1), point(i), ctx.colors.rope, 1.5f);
    if (*lo < 0 && *hi > 0) {
        const float y0 = at.y + size.y * static_cast<float>(*hi / span);
        dl.line(ImVec2(at.x, y0), ImVec2(at.x + size.x, y0), frame);
    }
    ImGui::SetCursorScreenPos(ImVec2(at.x, at.y + size.y + 2));
    ui::text_disabled(fmt::format("text tokens: score vs Δ 0 … {} ({:.3g} … {:.3g})", n, *lo, *hi));
}

std::string axes_note(const LabParams& p, const lab::GridSetting& s) {
    if (s.raster) return fmt::format("1-D model: tokens in raster order, ω_j = f_j·(H·W, W, 1) = f_j·({}, {}, 1)", p.grid_height * p.grid_width, p.grid_width);
    return fmt::format("{}: each pair turns with t, h or w", s.rule);
}

}  // namespace

void grid_view(Context& ctx) {
    const LabParams& p = ctx.params;
    const lab::GridProduct& product = ctx.lab.grid();
    const std::vector<lab::GridSetting>& settings = product.settings();
    if (settings.empty() || settings[0].slice.size != GridSize{p.grid_frames, p.grid_height, p.grid_width}) {
        ui::text_disabled(fmt::format("computing scores over a {}×{} image …", p.grid_height, p.grid_width));
        return;
    }
    const std::int64_t stride = cell_stride(p);
    ui::text_disabled(fmt::format("query ({}, {}), key frame {:+}; Δ = query − key{}", p.query_row, p.query_column, p.frame_offset,
                                  stride > 1 ? fmt::format("; every {}th token drawn", stride) : ""));
    const double scale = largest_magnitude(p, settings);
    ui::text_disabled(fmt::format("colours: score from −{0:.4g} (blue) through 0 to +{0:.4g} (red)", scale));
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float line = ImGui::GetTextLineHeightWithSpacing();
    if (settings.size() == 1) {
        ui::text_disabled(axes_note(p, settings[0]));
        const ImVec2 region = ImGui::GetContentRegionAvail();
        const float side = std::max(8.0f, std::min(region.x * 0.6f, region.y - 2.5f * line));
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const ImVec2 drawn = heatmap(ctx, settings[0], scale, at, side, 0);
        ImGui::SetCursorScreenPos(ImVec2(at.x, at.y + drawn.y + 2));
        colour_key(side, scale);
        const float curve_x = at.x + side + ImGui::GetStyle().ItemSpacing.x * 2;
        const float curve_w = at.x + region.x - curve_x;
        if (curve_w > 40) text_curve(ctx, ImVec2(curve_x, at.y), ImVec2(curve_w, std::max(8.0f, side - 2 * line)));
        return;
    }
    // Compare: the settings side by side, one colour scale.
    const int n = static_cast<int>(settings.size());
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = (avail.x - gap * static_cast<float>(n - 1)) / static_cast<float>(n);
    const float side = std::max(8.0f, std::min(width, avail.y - 4.5f * line));
    float tallest = 0;
    for (int i = 0; i < n; ++i) {
        const ImVec2 at(origin.x + static_cast<float>(i) * (width + gap), origin.y);
        // Name and rule, each one line cut to the column.
        const std::string name = setting_name(p, i), rule = settings[static_cast<std::size_t>(i)].rule;
        draw::Canvas dl = draw::Canvas::window();
        dl.push_clip(at, ImVec2(at.x + width, at.y + 2 * line));
        dl.text(at, setting_color(ctx, i), name);
        dl.text(ImVec2(at.x, at.y + line), ImGui::GetColorU32(ImGuiCol_TextDisabled), rule);
        dl.pop_clip();
        ui::log().record_box(name + " · " + rule, "readout", at, ImVec2(width, 2 * line));
        const ImVec2 drawn = heatmap(ctx, settings[static_cast<std::size_t>(i)], scale, ImVec2(at.x, origin.y + 2 * line), side, i);
        tallest = std::max(tallest, drawn.y);
    }
    ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + 2 * line + tallest + 2));
    colour_key(std::min(avail.x, 3 * side), scale);
}

}  // namespace ropelab::views
