// View 10: scores over an image. For a query token at (row, column) of an H×W image of tokens,
// score(query, key) for every key token (h, w) of the key frame as a heatmap; Δ = query − key in
// position-id steps (core/grid_scores.h). Colours are fitted to each heatmap's own lowest …
// highest score (written under it), so a direction that barely changes the score shows as bands
// — or, "centred", one diverging scale around 0 for all. Beside it the ordinary 1-D curve: text
// tokens have equal t, h, w ids, so every multi-axis rule scores them as 1-D RoPE.
// Compare mode: one small heatmap per setting side by side.
#include <algorithm>
#include <limits>
#include <numbers>
#include <utility>
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

ImU32 to_u32(const std::array<float, 3>& rgb) {
    return IM_COL32(static_cast<int>(rgb[0] * 255), static_cast<int>(rgb[1] * 255), static_cast<int>(rgb[2] * 255), 255);
}

// Scores to colours: centred (−scale blue, 0 white, +scale red) or fitted (lo dark … hi yellow).
struct ColourScale {
    bool centred = true;
    double lo = 0, hi = 0;  // centred: −scale, +scale
    bool flat() const { return !(hi - lo > 1e-12 * std::max(std::abs(lo), std::abs(hi))); }
    ImU32 colour(double v) const {
        if (centred) return to_u32(diverging_color(static_cast<float>((hi > 0 ? std::clamp(v / hi, -1.0, 1.0) : 0.0) * std::numbers::pi)));
        return to_u32(sequential_color(flat() ? 0.5f : static_cast<float>((v - lo) / (hi - lo))));
    }
    std::string range() const {
        if (centred) return fmt::format("−{0:.4g} … 0 … +{0:.4g}", hi);
        return flat() ? fmt::format("flat: {:.6g}", lo) : fmt::format("{:.6g} … {:.6g}", lo, hi);
    }
};

std::int64_t cell_stride(const LabParams& p) {
    const std::int64_t side = std::max(p.grid_height, p.grid_width);
    return (side + kMaxCellsPerSide - 1) / kMaxCellsPerSide;
}

// The lowest and highest score over the cells drawn of one setting.
std::pair<double, double> drawn_range(const LabParams& p, const lab::GridSetting& s) {
    const std::int64_t stride = cell_stride(p);
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (std::int64_t h = 0; h < p.grid_height; h += stride) {
        for (std::int64_t w = 0; w < p.grid_width; w += stride) {
            const double v = s.slice.at(p.query_row - h, p.query_column - w);
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    return {lo, hi};
}

// Each setting's scale: fitted to its own cells, or one centred scale over the largest |score|.
std::vector<ColourScale> colour_scales(const LabParams& p, const std::vector<lab::GridSetting>& settings) {
    std::vector<ColourScale> out;
    double most = 0;
    for (const lab::GridSetting& s : settings) {
        const auto [lo, hi] = drawn_range(p, s);
        out.push_back({false, lo, hi});
        most = std::max({most, std::abs(lo), std::abs(hi)});
    }
    if (p.grid_colours == GridColours::Centred) {
        for (ColourScale& c : out) c = {true, -most, most};
    }
    return out;
}

// One heatmap of the key frame in [at, at + size]: hover reads Δ and the score, a click makes
// the cell the query. Returns its size on screen.
ImVec2 heatmap(Context& ctx, const lab::GridSetting& s, const ColourScale& scale, ImVec2 at, float side, int index) {
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
            dl.fill_rect(a, ImVec2(a.x + cell + 0.5f, a.y + cell + 0.5f), scale.colour(v));
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

// The key: the scale's colours from its low to its high end, the ends (and 0) written under it.
void colour_key(float width, const ColourScale& scale) {
    const float h = 0.7f * ImGui::GetFontSize();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    draw::Canvas dl = draw::Canvas::window();
    constexpr int kSteps = 64;
    for (int k = 0; k < kSteps; ++k) {
        const double v = scale.lo + (scale.hi - scale.lo) * (k + 0.5) / kSteps;
        dl.fill_rect(ImVec2(at.x + width * k / kSteps, at.y), ImVec2(at.x + width * (k + 1) / kSteps + 0.5f, at.y + h), scale.colour(v));
    }
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    std::vector<std::string> ticks = {fmt::format("{:.4g}", scale.lo), fmt::format("{:.4g}", scale.hi)};
    if (scale.centred) ticks.insert(ticks.begin() + 1, "0");
    float labels = 0;
    for (const std::string& t : ticks) labels += ImGui::CalcTextSize(t.c_str()).x + ImGui::GetFontSize();
    if (labels > width || scale.flat()) {
        // Too narrow for the labels apart (or one value): the range in one line, centred — or,
        // in a column too narrow even for that, no numbers (hover a cell for its score).
        const std::string both = scale.range();
        const float both_width = ImGui::CalcTextSize(both.c_str()).x;
        if (both_width <= width) dl.text(ImVec2(at.x + (width - both_width) / 2, at.y + h + 1), text, both);
        ImGui::Dummy(ImVec2(width, h + ImGui::GetFontSize() + 2));
        return;
    }
    const float last = static_cast<float>(ticks.size() - 1);
    for (std::size_t t = 0; t < ticks.size(); ++t) {
        const float tw = ImGui::CalcTextSize(ticks[t].c_str()).x;
        const float x = std::clamp(at.x + width * static_cast<float>(t) / last - tw / 2, at.x, at.x + width - tw);
        dl.text(ImVec2(x, at.y + h + 1), text, ticks[t]);
    }
    ImGui::Dummy(ImVec2(width, h + ImGui::GetFontSize() + 2));
}

// The text tokens' curve: score vs Δ for Δ = 0 … 4·max(H, W) (at most 512), from the base's
// coefficients — a plot with its axes, so the image's scores read against 1-D text's.
void text_curve(Context& ctx, const std::vector<double>& ys, ImVec2 at, ImVec2 size) {
    if (ys.empty()) return;
    std::vector<double> xs(ys.size());
    for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<double>(i);
    ImGui::SetCursorScreenPos(at);
    plot::Plot plot("text tokens", ctx.state.grid_text, size, {0.0, static_cast<double>(std::max<std::size_t>(1, ys.size() - 1))},
                    {"distance Δ (tokens)", "score", false, false, true, true});
    plot.line("text tokens: score vs Δ", xs, ys, ctx.colors.rope, 1.5f);
    plot.finish();
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
    if (!product.error().empty() && product.current()) {
        ui::message(product.error(), error_color());
        return;
    }
    if (settings.empty() || settings[0].slice.size != GridSize{p.grid_frames, p.grid_height, p.grid_width}) {
        ui::text_disabled(fmt::format("computing scores over a {}×{} image …", p.grid_height, p.grid_width));
        return;
    }
    const std::int64_t stride = cell_stride(p);
    ui::text_disabled(fmt::format("query ({}, {}), key frame {:+}; Δ = query − key{}", p.query_row, p.query_column, p.frame_offset,
                                  stride > 1 ? fmt::format("; every {}th token drawn", stride) : ""));
    const std::vector<ColourScale> scales = colour_scales(p, settings);
    // What the colours mean, where it fits on one line (the keys under the heatmaps carry the numbers).
    const std::string colours = p.grid_colours == GridColours::Centred ? "colours: one scale, score < 0 blue, 0 white, > 0 red"
                                                                       : "colours: each image's lowest (dark) … highest (yellow) score";
    if (ImGui::CalcTextSize(colours.c_str()).x <= ImGui::GetContentRegionAvail().x) ui::text_disabled(colours);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float line = ImGui::GetTextLineHeightWithSpacing();
    if (settings.size() == 1) {
        ui::text_disabled(axes_note(p, settings[0]));
        const ImVec2 region = ImGui::GetContentRegionAvail();
        const float side = std::max(8.0f, std::min(region.x * 0.6f, region.y - 2.5f * line));
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const ImVec2 drawn = heatmap(ctx, settings[0], scales[0], at, side, 0);
        ImGui::SetCursorScreenPos(ImVec2(at.x, at.y + drawn.y + 2));
        colour_key(side, scales[0]);
        const float curve_x = at.x + side + ImGui::GetStyle().ItemSpacing.x * 2;
        const float curve_w = at.x + region.x - curve_x;
        // As tall as the heatmap and its key, where the plot's axes and legend have room.
        const float curve_h = drawn.y + 2 + 0.7f * ImGui::GetFontSize() + ImGui::GetFontSize() + 2;
        if (curve_w > 12 * ImGui::GetFontSize() && curve_h > 8 * line) {
            text_curve(ctx, settings[0].text_curve, ImVec2(curve_x, at.y), ImVec2(curve_w, curve_h));
        }
        return;
    }
    // Compare: the settings side by side, each with its key (fitted: its own range).
    const int n = static_cast<int>(settings.size());
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = (avail.x - gap * static_cast<float>(n - 1)) / static_cast<float>(n);
    // Below the heatmaps: the titles' two lines above, each key's bar and numbers below.
    const float side = std::max(8.0f, std::min(width, avail.y - 4.0f * line));
    float tallest = 0;
    for (int i = 0; i < n; ++i) {
        const ImVec2 at(origin.x + static_cast<float>(i) * (width + gap), origin.y);
        const std::string name = setting_name(p, i), rule = settings[static_cast<std::size_t>(i)].rule;
        // Name and rule, each one line, ended with "…" where the column is narrower (hover: whole).
        draw::Canvas dl = draw::Canvas::window();
        dl.text(at, setting_color(ctx, i), ui::cut_to_width(name, width));
        dl.text(ImVec2(at.x, at.y + line), ImGui::GetColorU32(ImGuiCol_TextDisabled), ui::cut_to_width(rule, width));
        ui::log().record_box(name + " · " + rule, "readout", at, ImVec2(width, 2 * line));
        if (ImGui::IsMouseHoveringRect(at, ImVec2(at.x + width, at.y + 2 * line)) && ui::tooltips_allowed()) {
            ImGui::SetTooltip("%s: %s", name.c_str(), setting_source(p, i).c_str());
        }
        const ImVec2 drawn = heatmap(ctx, settings[static_cast<std::size_t>(i)], scales[static_cast<std::size_t>(i)],
                                     ImVec2(at.x, origin.y + 2 * line), side, i);
        tallest = std::max(tallest, drawn.y);
    }
    for (int i = 0; i < n; ++i) {
        ImGui::SetCursorScreenPos(ImVec2(origin.x + static_cast<float>(i) * (width + gap), origin.y + 2 * line + tallest + 2));
        colour_key(side, scales[static_cast<std::size_t>(i)]);
    }
}

}  // namespace ropelab::views
