// View 11: attention over the token layout's T tokens, one layer as the model computes it
// (core/attention.h): the logits q_m·k_n/√d, the same with the causal mask (and the layer's
// sliding window or chunks) applied, and the row-wise softmax — three panels with one shared
// zoom. A long matrix is shown in bins (lab/attention_product.h): each bin row is one query row
// computed whole, each bin the largest value of its keys; zoomed in far enough every bin is one
// cell. Below, the rows' readouts against m. In compare mode a selector picks the setting shown
// (the one views 2 and 4 show). A new T (a new matrix size) shows the whole new matrix.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/colormap.h"
#include "lab/attention_product.h"
#include "plot/screen.h"
#include "state/compare.h"
#include "ui/widgets.h"
#include "views/views.h"

namespace ropelab::views {

namespace {

ImU32 to_u32(const std::array<std::uint8_t, 3>& rgb) { return IM_COL32(rgb[0], rgb[1], rgb[2], 255); }

// The zoom as whole tokens: [row0, row0 + span) × [col0, col0 + span).
struct Window {
    std::int64_t row0 = 0, col0 = 0, span = 1;
};

// The whole T × T matrix.
AttentionZoom whole(std::int64_t tokens) { return {0, 0, static_cast<double>(tokens), tokens}; }

Window window_of(AttentionZoom& z, std::int64_t tokens) {
    const double least = static_cast<double>(std::min<std::int64_t>(tokens, 8));
    // A zoom made for another T would keep its old window (33 × 33 of a 64-token matrix): the
    // change would seem to do nothing.
    if (z.tokens != tokens || z.span <= 0 || z.span > static_cast<double>(tokens)) z = whole(tokens);
    z.span = std::max(z.span, least);
    const double top = static_cast<double>(tokens) - z.span;
    z.row0 = std::clamp(z.row0, 0.0, top);
    z.col0 = std::clamp(z.col0, 0.0, top);
    const auto span = std::max<std::int64_t>(1, std::llround(z.span));
    return {std::clamp<std::int64_t>(std::llround(z.row0), 0, tokens - span), std::clamp<std::int64_t>(std::llround(z.col0), 0, tokens - span), span};
}

// The bin of [lo, lo + span) in `count` bins that holds x.
int bin_of(std::int64_t lo, std::int64_t span, int count, std::int64_t x) {
    int b = static_cast<int>(std::clamp<std::int64_t>((x - lo) * count / std::max<std::int64_t>(1, span), 0, count - 1));
    while (b + 1 < count && lab::bin_start(lo, span, count, b + 1) <= x) ++b;
    while (b > 0 && lab::bin_start(lo, span, count, b) > x) --b;
    return b;
}

using Panel = lab::AttentionPanel;

// One panel: the image's bins as a texture placed by the current zoom (an image of a previous
// zoom shows scaled until the new one comes).
void draw_panel(const lab::AttentionImage& im, unsigned texture, const Window& w, ImVec2 at, float side) {
    const double px = side / static_cast<double>(w.span);
    const lab::AttentionWindow& iw = im.window;
    const ImVec2 from(at.x + static_cast<float>(static_cast<double>(iw.col0 - w.col0) * px), at.y + static_cast<float>(static_cast<double>(iw.row0 - w.row0) * px));
    const ImVec2 to(at.x + static_cast<float>(static_cast<double>(iw.col1 - w.col0) * px), at.y + static_cast<float>(static_cast<double>(iw.row1 - w.row0) * px));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(at, ImVec2(at.x + side, at.y + side), true);
    dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(texture)), from, to);
    dl->PopClipRect();
    draw::Canvas::window().rect(at, ImVec2(at.x + side, at.y + side), ImGui::GetColorU32(ImGuiCol_Border));
}

// The cell under the pointer: exact m, n, logit and weight (for a row the image computed: the
// bin row's m where the rows are sampled).
std::string cell_readout(const lab::AttentionImage& im, std::int64_t m_at, std::int64_t n) {
    const lab::AttentionWindow& iw = im.window;
    if (m_at < iw.row0 || m_at >= iw.row1 || n < 0 || n >= im.tokens) return "";
    const int r = im.shown_row(bin_of(iw.row0, iw.row1 - iw.row0, im.rows, m_at));
    if (r < 0) return "";
    const std::int64_t m = im.row_m[static_cast<std::size_t>(r)];
    const std::string row = m == m_at ? "" : fmt::format(" (row m = {} shown for row {})", m, m_at);
    if (!attends(im.layer, m, n)) return fmt::format("m = {}, n = {}: logit {:.6g}, masked (weight 0){}", m, n, im.logit(r, n), row);
    return fmt::format("m = {}, n = {}: logit {:.6g}, weight {:.6g}{}", m, n, im.logit(r, n), im.weight(r, n), row);
}

// Wheel: zoom every panel around the cell under the pointer; drag: pan; double-click: whole.
void zoom_input(AttentionZoom& z, std::int64_t tokens, ImVec2 at, float side) {
    const ImGuiIO& io = ImGui::GetIO();
    const float fx = (io.MousePos.x - at.x) / side, fy = (io.MousePos.y - at.y) / side;
    if (ImGui::IsItemHovered() && io.MouseWheel != 0.0f) {
        const double n = z.col0 + fx * z.span, m = z.row0 + fy * z.span;
        const double span = std::clamp(z.span * std::pow(0.8, static_cast<double>(io.MouseWheel)),
                                       static_cast<double>(std::min<std::int64_t>(tokens, 8)), static_cast<double>(tokens));
        z = {m - fy * span, n - fx * span, span, tokens};
    }
    if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 1.0f)) {
        z.col0 -= io.MouseDelta.x / side * z.span;
        z.row0 -= io.MouseDelta.y / side * z.span;
    }
    if (ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) z = whole(tokens);
}

// A colour key `width` wide: the bar, and its ends (and 0) under it.
void colour_key(ImVec2 at, float width, const lab::AttentionColours& s, Panel panel) {
    const float h = 0.6f * ImGui::GetFontSize();
    draw::Canvas dl = draw::Canvas::window();
    constexpr int kSteps = 48;
    for (int k = 0; k < kSteps; ++k) {
        const double t = (k + 0.5) / kSteps;
        const ImU32 c = to_u32(panel == Panel::Weights ? lab::weight_rgb(s, t * s.weight) : lab::logit_rgb(s, (2 * t - 1) * s.logit));
        dl.fill_rect(ImVec2(at.x + width * k / kSteps, at.y), ImVec2(at.x + width * (k + 1) / kSteps + 0.5f, at.y + h), c);
    }
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const std::vector<std::string> ticks = panel == Panel::Weights
                                               ? std::vector<std::string>{"0", fmt::format("{:.3g}", s.weight)}
                                               : std::vector<std::string>{fmt::format("−{:.3g}", s.logit), "0", fmt::format("+{:.3g}", s.logit)};
    float labels = 0;
    for (const std::string& t : ticks) labels += ImGui::CalcTextSize(t.c_str()).x + 0.5f * ImGui::GetFontSize();
    if (labels > width) return;  // too narrow: hover a cell for its numbers
    for (std::size_t i = 0; i < ticks.size(); ++i) {
        const float tw = ImGui::CalcTextSize(ticks[i].c_str()).x;
        const float x = std::clamp(at.x + width * static_cast<float>(i) / static_cast<float>(ticks.size() - 1) - tw / 2, at.x, at.x + width - tw);
        dl.text(ImVec2(x, at.y + h + 1), text, ticks[i]);
    }
}

std::string layer_words(const LabParams& p, const ModelConfig& model) {
    const LayerAttention& a = model.attention;
    std::string s = p.layer >= 0 ? fmt::format("layer {}: ", p.layer) : "layer: ";
    s += a.rope ? "RoPE" : "NoPE (no rotation)";
    s += a.sliding_window > 0 ? fmt::format(", sliding window W = {}", a.sliding_window) : "";
    s += a.attention_chunk > 0 ? fmt::format(", chunks of C = {}", a.attention_chunk) : "";
    if (!a.rope && a.temperature_tuning) s += fmt::format(", queries × (1 + {:g}·log1p(floor((m + 1)/{:g})))", a.attn_scale, a.floor_scale);
    if (a.sliding_window <= 0 && a.attention_chunk <= 0) s += ", causal";
    return s;
}

std::string vectors_words(const LabParams& p) {
    switch (p.token_vectors) {
        case TokenVectors::Same: return "vectors: the lab's q, k at every token";
        case TokenVectors::Random: return fmt::format("vectors: random per token (seed {}, shared part {:.2g})", p.seed, p.shared_part);
        case TokenVectors::Needle: return fmt::format("vectors: random, token {}'s key = the last query (needle)", p.needle);
        case TokenVectors::File: return "vectors: from files";
    }
    return "";
}

// The readouts of the computed rows against m: mass within w, mean attended distance, entropy.
void readout_plots(Context& ctx, const lab::AttentionImage& im, ImVec2 at, ImVec2 size) {
    std::vector<double> m, values[3];
    for (int r = 0; r < im.rows; ++r) {
        if (!im.row_done[static_cast<std::size_t>(r)]) continue;
        const RowReadout& o = im.readouts[static_cast<std::size_t>(r)];
        m.push_back(static_cast<double>(im.row_m[static_cast<std::size_t>(r)]));
        values[0].push_back(o.mass_within);
        values[1].push_back(o.mean_distance);
        values[2].push_back(o.entropy);
    }
    const std::string mass = fmt::format("mass within w = {}", ctx.params.readout_distance);
    const char* names[3] = {mass.c_str(), "mean distance", "entropy (nats)"};
    const char* ids[3] = {"attention mass", "attention distance", "attention entropy"};
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const float w = (size.x - 2 * gap) / 3;
    const plot::Range x{static_cast<double>(im.window.row0), static_cast<double>(std::max(im.window.row1 - 1, im.window.row0 + 1))};
    for (int i = 0; i < 3; ++i) {
        ImGui::SetCursorScreenPos(ImVec2(at.x + static_cast<float>(i) * (w + gap), at.y));
        plot::Plot plot(ids[i], ctx.state.attention_readouts[static_cast<std::size_t>(i)], ImVec2(w, size.y), x,
                        {"query m", names[i], false, false, false, true});
        plot.line(names[i], m, values[i], i == 0 ? ctx.colors.q : i == 1 ? ctx.colors.k : ctx.colors.rope, 1.5f);
        plot.finish();
    }
}

}  // namespace

void attention_view(Context& ctx) {
    const LabParams& p = ctx.params;
    const float font = ImGui::GetFontSize(), line = ImGui::GetTextLineHeightWithSpacing();
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    // A small cell of the grid: short lines (whole on hover), no panel titles, legend or plots.
    const bool compact = ImGui::GetContentRegionAvail().y < 18 * font || ImGui::GetContentRegionAvail().x < 40 * font;
    const bool tiny = compact;  // the grid's cells: the panels before the words
    caption(tiny ? "q·k/√d → mask → softmax" : "Attention: logits q·k/√d → causal mask → softmax, query m down, key n across.",
            "Three panels with one zoom (wheel zooms around the pointer, drag pans, double-click shows the whole matrix): "
            "the logits of every query m and key n, the same with the keys each query cannot see masked (grey: later "
            "tokens, and those outside the layer's sliding window or chunk), and the row-wise softmax. A long sequence "
            "is shown in bins: each bin row is one query row m computed whole, each bin its largest value; zoomed in, "
            "every bin is one cell and hover reads it exactly. Below: each computed row's attention mass within w, mean "
            "attended distance and entropy against m.");
    // The setting computed is lab::attention_setting's: the same clamp of the state's single
    // setting. A small cell has no room for the selector: the name alone (views 2, 4 or this
    // view shown large pick it).
    int setting = lab::attention_setting(p);
    if (comparing(p) && compact) {
        const std::string name = "showing " + setting_name(p, setting);
        ui::text(ui::cut_to_width(name, ImGui::GetContentRegionAvail().x), setting_color(ctx, setting));
        if (ImGui::IsItemHovered() && ui::tooltips_allowed()) ImGui::SetTooltip("%s", name.c_str());
    } else {
        setting = single_setting_header(ctx);
    }
    const ModelConfig& model = setting_model(p, setting);
    const auto tokens = static_cast<std::int64_t>(ctx.compute.token_positions().ids.size());
    if (tokens < 1 || tokens > kMaxAttentionTokens) {
        ui::text_disabled(fmt::format("the token layout has {} tokens: the attention view takes 1 … {}", tokens, kMaxAttentionTokens));
        return;
    }
    AttentionZoom& zoom = ctx.state.attention;
    const Window w = window_of(zoom, tokens);
    const lab::AttentionProduct& product = ctx.lab.attention();
    const lab::AttentionImage& im = product.image();
    const auto say = [&](const std::string& text) {
        if (!compact) return ui::text_disabled(text);
        ui::text_disabled(ui::cut_to_width(text, ImGui::GetContentRegionAvail().x));
        if (ImGui::IsItemHovered() && ui::tooltips_allowed()) ImGui::SetTooltip("%s", text.c_str());
    };
    if (compact && on_slide(p)) {  // the room cannot hover a cut line: two whole ones
        say(fmt::format("T = {} · {}", tokens, layer_words(p, model)));
        say(vectors_words(p));
    } else {
        say(fmt::format("T = {} · {} · {}", tokens, layer_words(p, model), vectors_words(p)));
    }
    const bool shown = im.tokens == tokens && im.rows > 0;
    // What is shown: sampled rows, the Toeplitz link, the progress.
    std::string notes;
    if (!im.error.empty()) notes = im.error;
    else if (!shown) notes = "computing the matrix …";
    else {
        const std::int64_t span = im.window.col1 - im.window.col0;
        notes = span > im.cols ? fmt::format("rows sampled: one per bin (row m shown); {} tokens per bin, each bin its largest value",
                                             (span + im.cols - 1) / im.cols)
                               : "every cell exact";
        if (!im.complete()) notes += fmt::format(" · computing rows {} / {}", im.rows_done, im.rows);
        if (im.toeplitz) notes += " · same q, k at every token: logit(m, n) = score(m − n)/√d — view 3's curve as a Toeplitz matrix";
    }
    if (!tiny) say(notes);
    ui::log().record("attention progress", "readout", fmt::format("{} / {} rows", im.rows_done, im.rows));
    const ImVec2 region = ImGui::GetContentRegionAvail();
    // Under each panel: its colour key (a bar and a line of numbers), then the legend's two
    // lines; above: the panel's name. Below those the readout plots, where they leave the panels
    // at least 8 lines tall and their labels fit (a third of the width each, as tall as the
    // y label is long).
    const float key_h = 0.6f * font + line + 2;
    const float legend_h = compact ? 0.0f : 2 * line;
    const float width_side = (region.x - 2 * gap) / 3;
    const float tallest = region.y - key_h - (tiny ? 0.0f : line) - legend_h - gap;
    const float label = ImGui::CalcTextSize(fmt::format("mass within w = {}", p.readout_distance).c_str()).x;
    float plots_h = compact ? 0.0f : std::clamp(0.3f * region.y, label + 2 * font, std::max(label + 2 * font, 12 * font));
    if (tallest - plots_h < 8 * line || width_side < 14 * font) plots_h = 0.0f;
    const float side = std::max(8.0f, std::min(width_side, tallest - plots_h));
    const int bins = std::clamp(static_cast<int>(side / 2), 8, lab::kMaxAttentionBins);
    ctx.requests.attention = lab::AttentionWindow{w.row0, w.row0 + w.span, w.col0, w.col0 + w.span, bins, tokens};
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const Lab::AttentionPictures& pictures = ctx.lab.attention_pictures();
    const lab::AttentionColours& scales = pictures.colours;
    // Short enough for a third of the view at UI scale 2; the caption below says the rest.
    const char* titles[3] = {"all logits", "masked (grey)", "row softmax"};
    std::string hovered;
    for (int i = 0; i < 3; ++i) {
        const ImVec2 at(origin.x + static_cast<float>(i) * (side + gap), origin.y + (tiny ? 0.0f : line));
        if (!tiny) draw::Canvas::window().text(ImVec2(at.x, origin.y), ImGui::GetColorU32(ImGuiCol_Text), ui::cut_to_width(titles[i], side));
        if (shown) draw_panel(im, pictures.texture[i], w, at, side);
        ImGui::SetCursorScreenPos(at);
        ImGui::InvisibleButton(fmt::format("##attention panel {}", i).c_str(), ImVec2(side, side));
        ui::log().record(fmt::format("attention panel {}", i), "canvas", fmt::format("rows {} .. {}, keys {} .. {}", w.row0, w.row0 + w.span - 1, w.col0, w.col0 + w.span - 1));
        zoom_input(zoom, tokens, at, side);
        if (ImGui::IsItemHovered() && shown) {
            const ImVec2 mouse = ImGui::GetIO().MousePos;
            const std::int64_t m = w.row0 + std::clamp<std::int64_t>(static_cast<std::int64_t>((mouse.y - at.y) / side * static_cast<float>(w.span)), 0, w.span - 1);
            const std::int64_t n = w.col0 + std::clamp<std::int64_t>(static_cast<std::int64_t>((mouse.x - at.x) / side * static_cast<float>(w.span)), 0, w.span - 1);
            hovered = cell_readout(im, m, n);
            if (!hovered.empty()) {
                ui::log().record_rect("attention readout", "message", hovered, at, ImVec2(side, side));
                if (ui::tooltips_allowed()) ImGui::SetTooltip("%s", hovered.c_str());
            }
        }
        if (shown) colour_key(ImVec2(at.x, at.y + side + 2), side, scales, static_cast<Panel>(i));
    }
    const float below = origin.y + (tiny ? 0.0f : line) + side + 2 + key_h;
    ImGui::SetCursorScreenPos(ImVec2(origin.x, below));
    if (compact) return;
    ui::text_disabled(fmt::format("colours: logits diverging around 0 (±the largest |logit| shown), weights 0 … the largest shown; "
                                  "grey: masked · rows {} … {}, keys {} … {}",
                                  w.row0, w.row0 + w.span - 1, w.col0, w.col0 + w.span - 1));
    // The plots where their labels fit: each a third of the width, as tall as its y label is long.
    const ImVec2 rest = ImGui::GetContentRegionAvail();
    const float plot_h = std::min(plots_h, rest.y);
    if (shown && plots_h > 0 && plot_h > label + 2 * font) {
        readout_plots(ctx, im, ImGui::GetCursorScreenPos(), ImVec2(region.x, plot_h));
    }
}

}  // namespace ropelab::views
