// View 12: which rotary pairs each head of a real model uses, from its weights alone. A heatmap
// of query heads (rows) × pairs (columns) of ‖W_q,(h,i)‖·‖W_k,(g,i)‖, each row over its own
// largest (lab/products/weights.h), the pairs' wavelengths along x and the training context
// marked; beside it the picked head's score curve with those products as |c_i|. The layer is
// read off the frame by the lab; the last whole layer stays while another is read.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/colormap.h"
#include "lab/products/weights.h"
#include "plot/screen.h"
#include "ui/widgets.h"
#include "views/views.h"

namespace ropelab::views {

namespace {

using lab::products::Weights;
using lab::products::WeightsLayer;

ImU32 energy_colour(double t) {
    const auto rgb = sequential_color(static_cast<float>(std::clamp(t, 0.0, 1.0)));
    return IM_COL32(static_cast<int>(rgb[0] * 255), static_cast<int>(rgb[1] * 255), static_cast<int>(rgb[2] * 255), 255);
}

std::string file_name(const std::string& path) {
    const std::size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string tokens_text(double tokens) {
    if (tokens >= 1e6) return fmt::format("{:g}M", tokens / 1e6);
    if (tokens >= 1e3) return fmt::format("{:g}k", tokens / 1e3);
    return fmt::format("{:g}", tokens);
}

// The layer and head pickers, each a request (the lab clamps and commits them).
void pickers(Context& ctx, const Weights& w) {
    const LabParams& p = ctx.params;
    const int layers = std::max(1, w.layers);
    const int layer = std::clamp(p.weights_layer, 0, layers - 1);
    ImGui::SetNextItemWidth(7.0f * ImGui::GetFontSize());
    if (ui::begin_combo("Weights layer", fmt::format("layer {}", layer).c_str())) {
        for (int l = 0; l < layers; ++l) {
            if (ui::combo_item(fmt::format("layer {}", l).c_str(), l == layer)) ctx.requests.weights_layer = l;
        }
        ui::end_combo();
    }
    ui::tip("The model file's layer whose W_q and W_k rows are measured (read off the frame: the last layer stays shown meanwhile)");
    if (w.layer.q_heads > 0) {
        ImGui::SameLine();
        int head = std::clamp(p.weights_head, 0, w.layer.q_heads - 1);
        ImGui::SetNextItemWidth(9.0f * ImGui::GetFontSize());
        if (ui::slider_int("Curve head", &head, 0, w.layer.q_heads - 1)) ctx.requests.weights_head = head;
        ui::tip("The query head whose score curve is drawn on the right (its row is marked in the heatmap)");
    }
}

// One line: the file, the layer, the heads (GQA said), and the time or the progress.
void status_line(const Weights& w) {
    const WeightsLayer& l = w.layer;
    std::string text = fmt::format("{} · layer {} of {} · rows: query heads", file_name(w.source), l.layer, l.layers);
    if (l.kv_heads > 0) {
        text += l.kv_heads == l.q_heads ? fmt::format(" · {} heads, each its own k", l.q_heads)
                                        : fmt::format(" · {} q heads read {} k heads (GQA: {} per k head)", l.q_heads, l.kv_heads,
                                                      l.q_heads / l.kv_heads);
    }
    if (w.computing) {
        text += fmt::format(" · reading layer {}: {:.0f}%", w.wanted_layer, 100.0 * w.progress);
    } else if (w.last_ms > 0) {
        text += fmt::format(" · read in {:.0f} ms", w.last_ms);
    }
    ui::text_disabled(text);
}

// Where the heatmap lies, and how a pair maps to x.
struct MapBox {
    ImVec2 min, size;
    int rows = 0, cols = 0;
    float x_of(double pair) const { return min.x + static_cast<float>((pair + 0.5) / cols) * size.x; }
};

// The pairs' wavelengths under the heatmap: a label at each power of ten they pass through
// (log-spaced, as the frequencies view), the training context as a line across the rows.
void wavelength_axis(const MapBox& box, const std::vector<double>& wavelengths, std::int64_t context) {
    draw::Canvas dl = draw::Canvas::window();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const float y = box.min.y + box.size.y;
    float last_right = -1e9f;
    for (double decade = 1; decade <= 1e9; decade *= 10) {
        const double pair = lab::products::pair_at_wavelength(wavelengths, decade);
        if (pair < 0) continue;
        const float x = box.x_of(pair);
        const std::string label = tokens_text(decade);
        const float tw = ImGui::CalcTextSize(label.c_str()).x;
        const float tx = std::clamp(x - tw / 2, box.min.x, box.min.x + box.size.x - tw);
        dl.line(ImVec2(x, y), ImVec2(x, y + 4), text);
        if (tx <= last_right + 4) continue;  // never two labels over each other
        dl.text(ImVec2(tx, y + 4), text, label);
        last_right = tx + tw;
    }
    const double at = lab::products::pair_at_wavelength(wavelengths, static_cast<double>(context));
    if (at >= 0) {
        const float x = box.x_of(at);
        const ImU32 marker = IM_COL32(255, 255, 255, 230);
        dl.line(ImVec2(x, box.min.y), ImVec2(x, y), IM_COL32(0, 0, 0, 200), 3.0f);
        dl.line(ImVec2(x, box.min.y), ImVec2(x, y), marker, 1.5f);
    }
}

// The heatmap: a row per query head, a column per pair, each row over its own largest product.
void energy_map(const MapBox& box, const WeightsLayer& l, int head) {
    draw::Canvas dl = draw::Canvas::window();
    const float cw = box.size.x / static_cast<float>(l.pairs), ch = box.size.y / static_cast<float>(l.q_heads);
    for (int h = 0; h < l.q_heads; ++h) {
        const std::vector<double> row = l.normalised_row(h);
        for (int i = 0; i < l.pairs; ++i) {
            const ImVec2 a(box.min.x + cw * static_cast<float>(i), box.min.y + ch * static_cast<float>(h));
            dl.fill_rect(a, ImVec2(a.x + cw + 0.5f, a.y + ch + 0.5f), energy_colour(row[static_cast<std::size_t>(i)]));
        }
    }
    // The picked head's row, outlined; head numbers at the left where they fit.
    const float y = box.min.y + ch * static_cast<float>(head);
    dl.rect(ImVec2(box.min.x - 1, y - 1), ImVec2(box.min.x + box.size.x + 1, y + ch + 1), IM_COL32(255, 255, 255, 255), 2.0f);
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const float line = ImGui::GetFontSize();
    const int every = std::max(1, static_cast<int>(std::ceil(line * 1.2f / std::max(ch, 1e-3f))));
    for (int h = 0; h < l.q_heads; h += every) {
        const std::string label = std::to_string(h);
        const float tw = ImGui::CalcTextSize(label.c_str()).x;
        dl.text(ImVec2(box.min.x - tw - 4, box.min.y + ch * (static_cast<float>(h) + 0.5f) - line / 2), text, label);
    }
}

// The colour bar: 0 … 1 of each row's largest.
void colour_bar(ImVec2 at, float width) {
    draw::Canvas dl = draw::Canvas::window();
    const float h = 0.7f * ImGui::GetFontSize();
    constexpr int kSteps = 64;
    for (int k = 0; k < kSteps; ++k) {
        dl.fill_rect(ImVec2(at.x + width * k / kSteps, at.y), ImVec2(at.x + width * (k + 1) / kSteps + 0.5f, at.y + h),
                     energy_colour((k + 0.5) / kSteps));
    }
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const std::string lo = "0", hi = "1 = the head's strongest pair";
    dl.text(ImVec2(at.x, at.y + h + 1), text, lo);
    dl.text(ImVec2(at.x + width - ImGui::CalcTextSize(hi.c_str()).x, at.y + h + 1), text, hi);
}

// The hovered cell's numbers.
void cell_tooltip(const MapBox& box, const WeightsLayer& l, const std::vector<double>& wavelengths) {
    if (!ImGui::IsMouseHoveringRect(box.min, ImVec2(box.min.x + box.size.x, box.min.y + box.size.y)) || !ui::tooltips_allowed()) return;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const int i = std::clamp(static_cast<int>((mouse.x - box.min.x) / box.size.x * l.pairs), 0, l.pairs - 1);
    const int h = std::clamp(static_cast<int>((mouse.y - box.min.y) / box.size.y * l.q_heads), 0, l.q_heads - 1);
    const std::string wl = static_cast<std::size_t>(i) < wavelengths.size() ? fmt::format(", wavelength {:.4g} tokens", wavelengths[static_cast<std::size_t>(i)]) : "";
    ImGui::SetTooltip("head %d (k head %d), pair %d%s\n‖W_q‖ %.4g · ‖W_k‖ %.4g = %.4g", h, l.kv_head_of(h), i, wl.c_str(), l.q_energy(h, i),
                      l.k_energy(l.kv_head_of(h), i), l.product(h, i));
}

// The picked head's score with |c_i| = its products (the product's curve), against distance on
// a log axis: each bin's lowest and highest score, so the fast pairs' wiggles are a band.
void head_curve(Context& ctx, const Weights& w, std::int64_t context, ImVec2 at, ImVec2 size) {
    const lab::products::WeightsCurve& curve = w.curve;
    ImGui::SetCursorScreenPos(at);
    if (curve.empty()) {
        ui::text_disabled(fmt::format("the layer has {} pairs, the lab's model {}: no curve", w.layer.pairs, ctx.compute.data().freqs.pairs()));
        return;
    }
    plot::Plot plot("weights curve", ctx.state.weights_curve, size, {1.0, static_cast<double>(curve.reach)},
                    {"distance Δ (tokens)", "score, |c_i| = ‖W_q,i‖·‖W_k,i‖", true, false, true, true});
    // Two lines, not one zigzag between them: a polyline that turns back on itself at every bin
    // loses its joins. Where a bin is one distance they are the same line.
    plot.line(fmt::format("head {}: lowest … highest score", curve.head).c_str(), curve.distance, curve.high, ctx.colors.rope, 1.5f);
    plot.line("", curve.distance, curve.low, ctx.colors.rope, 1.5f);
    plot.vline(static_cast<double>(context), ctx.colors.marker, fmt::format("context {}", context).c_str());
    plot.finish();
}

}  // namespace

void weights_view(Context& ctx) {
    ctx.requests.weights = true;
    const Weights& w = ctx.frame.weights();
    caption("‖W_q,i‖·‖W_k,i‖ per head and rotary pair: which pairs the weights can use.",
            "For each query head h and rotary pair i, the norm of the two rows of W_q that make the pair times the same for W_k "
            "(of the key head h reads). ‖W_q,i‖·‖W_k,i‖ bounds pair i's share of q·k for unit inputs; activations decide the real "
            "share (Barbero et al. 2024 measure it on activations). Each row is scaled to its own strongest pair. Fast pairs are "
            "on the left, slow ones on the right; the white line is the pair whose wavelength is the training context.");
    if (w.source.empty()) {
        ui::message(w.message);
        return;
    }
    if (!w.message.empty()) ui::message(w.message, error_color());  // a layer the reader refuses: another may be read
    if (w.layers == 0) return;
    pickers(ctx, w);
    if (w.layer.empty()) {
        if (!w.computing) return;
        ui::text_disabled(fmt::format("reading layer {} of {}: {:.0f}%", w.wanted_layer, file_name(w.source), 100.0 * w.progress));
        return;
    }
    status_line(w);
    const WeightsLayer& l = w.layer;
    const int head = std::clamp(ctx.params.weights_head, 0, l.q_heads - 1);
    const std::int64_t context = lab::products::training_context(ctx.params.model);
    const std::vector<double> wavelengths =
        l.pairs == ctx.compute.data().freqs.pairs() ? lab::products::pair_wavelengths(ctx.compute.data().freqs) : std::vector<double>{};
    const float font = ImGui::GetFontSize(), line = ImGui::GetTextLineHeightWithSpacing();
    const ImVec2 origin = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
    // Below the map: the wavelength labels, the axis title, the colour bar and its labels, the
    // proxy's caveat; left of it the head numbers.
    const float below = 2.0f * line + 0.7f * font + line + 2.0f * line;
    const float left = ImGui::CalcTextSize("0000").x + 6;
    const float map_w = std::max(40.0f, (avail.x - left) * 0.6f);
    const MapBox box{ImVec2(origin.x + left, origin.y), ImVec2(map_w, std::max(20.0f, avail.y - below)), l.q_heads, l.pairs};
    energy_map(box, l, head);
    if (!wavelengths.empty()) wavelength_axis(box, wavelengths, context);
    cell_tooltip(box, l, wavelengths);
    draw::Canvas dl = draw::Canvas::window();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const float under = box.min.y + box.size.y + 4 + line;
    const std::string x_title = wavelengths.empty() ? fmt::format("pair i (0 … {})", l.pairs - 1)
                                                    : fmt::format("pair's wavelength 2π/ω_i (tokens); white line: training context {}", context);
    dl.text(ImVec2(box.min.x, under), text, ui::cut_to_width(x_title, box.size.x));
    colour_bar(ImVec2(box.min.x, under + line), box.size.x);
    const std::string caveat = "‖W_q,i‖·‖W_k,i‖ bounds pair i's share of q·k for unit inputs; activations decide the real share";
    float y = under + line + 0.7f * font + line + 2;
    for (const std::string& part : ui::lines_at_spaces(caveat, avail.x)) {
        dl.text(ImVec2(origin.x, y), text, part);
        y += line;
    }
    const float curve_x = box.min.x + box.size.x + 2 * ImGui::GetStyle().ItemSpacing.x;
    const ImVec2 curve_size(origin.x + avail.x - curve_x, box.size.y + 2 * line);
    if (curve_size.x > 10 * font && curve_size.y > 6 * line) head_curve(ctx, w, context, ImVec2(curve_x, origin.y), curve_size);
    ImGui::SetCursorScreenPos(ImVec2(origin.x, y));
    ImGui::Dummy(ImVec2(avail.x, 0));
}

}  // namespace ropelab::views
