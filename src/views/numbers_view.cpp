// View 7: the worked example, the way the seeds do it: for the focused position and pair,
// θ_i, m·θ_i, cos and sin, the 2×2 matrix, the complex product with values, and which vector
// components form pair i in each layout.
#include <algorithm>
#include <cmath>
#include <complex>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "state/compare.h"
#include "views/views.h"
#include "ui/widgets.h"

namespace ropelab::views {

namespace {
// A value as printed with `decimals` decimals, without the "−0.000000" that rounding a tiny
// negative number gives: a rounded zero is zero.
double shown(double v, int decimals) { return std::abs(v) < 0.5 * std::pow(10.0, -decimals) ? 0.0 : v; }

// Text is never drawn below this many pixels: legible from the back of a room at 1280×720.
constexpr float kSmallestText = 12.5f;

// The smallest font scale this view may use: kSmallestText at the current font, at most 1.
float smallest_scale() { return std::min(1.0f, kSmallestText / ImGui::GetFontSize()); }

// The height the lines take at `scale`, wrapped at spaces to the box's width; an empty line is
// a separator.
float lines_height(const std::vector<std::string>& lines, float width, float scale) {
    const ImGuiStyle& style = ImGui::GetStyle();
    float height = 0.0f;
    for (const std::string& line : lines) {
        if (line.empty()) {
            height += style.ItemSpacing.y;
            continue;
        }
        const auto pieces = ui::lines_at_spaces(line, std::max(1.0f, width), scale);
        height += static_cast<float>(pieces.size()) * (ImGui::GetFontSize() * scale + style.ItemSpacing.y);
    }
    return height;
}

// The largest font scale (1.5, for a view shown large, down to smallest_scale()) at which the
// lines fit the box; 0 when they do not fit even there.
float numbers_scale(const std::vector<std::string>& lines, ImVec2 room) {
    const float smallest = smallest_scale();
    for (float scale = 1.5f; scale >= smallest - 1e-4f; scale -= 0.05f) {
        if (lines_height(lines, room.x, std::max(scale, smallest)) <= room.y) return std::max(scale, smallest);
    }
    if (lines_height(lines, room.x, smallest) <= room.y) return smallest;
    return 0.0f;
}

// The lines that fit the box at the smallest legible size, in priority order (they come in
// that order): lines are dropped from the end, and no separator is left trailing.
std::vector<std::string> lines_that_fit(std::vector<std::string> lines, ImVec2 room) {
    while (lines.size() > 1 && numbers_scale(lines, room) == 0.0f) {
        lines.pop_back();
        while (!lines.empty() && lines.back().empty()) lines.pop_back();
    }
    return lines;
}

// A line drawn at the window's font scale, broken at spaces to the box's width; each piece is
// in the widget log (kind "numbers line", its source line as value) for tests to read sizes.
void numbers_line(const std::string& line, ImU32 color = 0) {
    const float width = ImGui::GetContentRegionAvail().x;
    for (const std::string& piece : ui::lines_at_spaces(line, width, 1.0f)) {
        // Typeset (θ_i's index a subscript) as lines_at_spaces measured it: drawn raw, a piece
        // is wider than the width it was broken to and runs past the view's edge.
        ui::text(piece, color);
        ui::log().record_rect(piece, "numbers line", line, ImGui::GetItemRectMin(), ImGui::GetItemRectSize());
    }
}

// Compare mode's rows, and their cells for each setting: the focused pair's rotation at m, each
// setting at its own pair count (a smaller model's focus stays inside it).
constexpr const char* kComparedRows[] = {"pair i", "θ_i (rad/position)", "× scaling", "m·θ_i (rad)", "reduced (°)", "attention a",
                                         "a·cos", "a·sin", "R q (re)", "R q (im)", "|q| → |R q|"};

std::vector<std::vector<std::string>> compared_cells(const Context& ctx, int settings) {
    std::vector<std::vector<std::string>> cells(static_cast<std::size_t>(settings));
    for (int s = 0; s < settings; ++s) {
        const lab::products::Numbers& r = ctx.frame.numbers(s);
        cells[static_cast<std::size_t>(s)] = {
            fmt::format("{}", r.pair),
            fmt::format("{:.8g}", r.theta),
            fmt::format("{:.6g}", r.theta / r.unscaled_theta),
            fmt::format("{:.8g}", r.m_theta),
            fmt::format("{:.6f}", shown(r.angle * 180.0 / M_PI, 6)),
            fmt::format("{:.6g}", r.attention),
            fmt::format("{:+.6f}", shown(r.cos_a, 6)),
            fmt::format("{:+.6f}", shown(r.sin_a, 6)),
            fmt::format("{:+.6f}", shown(r.rotated.real(), 6)),
            fmt::format("{:+.6f}", shown(r.rotated.imag(), 6)),
            fmt::format("{:.4f} → {:.4f}", std::abs(r.x), std::abs(r.rotated))};
    }
    return cells;
}

// Compare mode: the rows down, a column per setting.
void compared_numbers(Context& ctx) {
    const LabParams& p = ctx.params;
    const int settings = std::min(ctx.compute.settings(), setting_count(p));
    constexpr int kRows = static_cast<int>(std::size(kComparedRows));
    const std::vector<std::vector<std::string>> cells = compared_cells(ctx, settings);
    // The largest font scale at which the widest cell fits its column and every row the height.
    const ImVec2 room = ImGui::GetContentRegionAvail();
    const float font = ImGui::GetFontSize(), pad = ImGui::GetStyle().CellPadding.x * 2 + font * 0.5f;
    const auto widths = [&](int rows_shown, float& widest, float& column) {
        widest = 0.0f;
        column = 0.0f;
        for (int r = 0; r < rows_shown; ++r) widest = std::max(widest, ImGui::CalcTextSize(kComparedRows[r]).x);
        for (int s = 0; s < settings; ++s) {
            column = std::max(column, ImGui::CalcTextSize(setting_name(p, s).c_str()).x);
            for (int r = 0; r < rows_shown; ++r) {
                column = std::max(column, ImGui::CalcTextSize(cells[static_cast<std::size_t>(s)][static_cast<std::size_t>(r)].c_str()).x);
            }
        }
    };
    float widest = 0.0f, column = 0.0f;
    widths(kRows, widest, column);
    const float width_scale = room.x / (widest + pad + settings * (column + pad));
    const float height_scale = room.y / ((kRows + 1) * (font + ImGui::GetStyle().CellPadding.y * 2 + 1.0f));
    const float scale = std::clamp(std::min(width_scale, height_scale), smallest_scale(), 1.0f);
    // Rows in priority order, as many as fit at that size (and a line under the table).
    const float row_height = font * scale + ImGui::GetStyle().CellPadding.y * 2 + ImGui::GetStyle().ItemSpacing.y;
    const int rows = std::clamp(static_cast<int>(room.y / row_height) - 2, 1, kRows);
    // At that size, the settings whose columns fit (the base first), measured over the rows
    // shown; the others are named in a line under the table. Cells never wrap: a number stays
    // whole.
    widths(rows, widest, column);
    const int shown = std::clamp(static_cast<int>((room.x / scale - widest - pad) / (column + pad)), 1, settings);
    ImGui::SetWindowFontScale(scale);
    const auto cell = [](const std::string& text, ImU32 color = 0) {
        if (color) ImGui::PushStyleColor(ImGuiCol_Text, color);
        ImGui::TextUnformatted(text.c_str());
        if (color) ImGui::PopStyleColor();
        ui::log().record_rect(text, "numbers line", text, ImGui::GetItemRectMin(), ImGui::GetItemRectSize());
        ui::log().check_item_fits(text);
    };
    if (ImGui::BeginTable("compared numbers", shown + 1, ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_RowBg)) {
        ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, widest * scale + pad);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        cell(fmt::format("m = {}", p.position), ImGui::GetColorU32(ImGuiCol_TextDisabled));
        for (int s = 0; s < shown; ++s) {
            ImGui::TableNextColumn();
            // A long name (a config's folder@layer) ends in "…" where its column is narrower.
            cell(ui::cut_to_width(setting_name(p, s), ImGui::GetContentRegionAvail().x), setting_color(ctx, s));
            ui::tip((setting_name(p, s) + ": " + setting_source(p, s)).c_str());
        }
        for (int r = 0; r < rows; ++r) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            cell(kComparedRows[r], ImGui::GetColorU32(ImGuiCol_TextDisabled));
            for (int s = 0; s < shown; ++s) {
                ImGui::TableNextColumn();
                cell(cells[static_cast<std::size_t>(s)][static_cast<std::size_t>(r)]);
            }
        }
        ImGui::EndTable();
    }
    if (shown < settings) {
        ui::text_disabled(on_slide(ctx.params) ? fmt::format("+{} more settings", settings - shown)
                                               : fmt::format("+{} more settings: show this view large (7)", settings - shown));
    }
    ImGui::SetWindowFontScale(1.0f);
}

}  // namespace

namespace {

// The worked example for pair i at m, as lines (an empty line is a separator), ending with the
// pair's components in both layouts and the model's layout.
std::vector<std::string> worked_lines(const LabParams& p, const lab::products::Numbers& r) {
    const int i = r.pair;
    const double theta = r.theta, angle = r.angle, a = r.attention, c = r.cos_a, s = r.sin_a;
    const auto x = r.x, rotated = r.rotated;

    std::vector<std::string> lines;
    const double base_freq = r.base_theta;
    lines.push_back(fmt::format("θ_{} = {:.6g}^(−2·{}/{}) = {:.10g} rad per position", i, r.effective_theta, i,
                                r.rotary_dim, base_freq));
    const std::string type(to_string(p.model.rope_scaling.type));
    if (std::abs(theta - base_freq) > 1e-15 * base_freq) {
        lines.push_back(fmt::format("      × {:.6g} ({} scaling) = {:.10g} rad per position", theta / base_freq, type, theta));
    }
    lines.push_back(fmt::format("m·θ_{} = {} × {:.10g} = {:.10g} rad", i, p.position, theta, r.m_theta));
    lines.push_back(fmt::format("reduced: {:.12f} rad = {:.8f}°", shown(angle, 12), shown(angle * 180.0 / M_PI, 8)));
    if (a != 1.0) {
        lines.push_back(fmt::format("attention factor {:.10g} ({}): cos and sin are scaled by it", a, type));
        lines.push_back(fmt::format("{:.6g}·cos = {:.10f}     {:.6g}·sin = {:.10f}", a, shown(c, 10), a, shown(s, 10)));
    } else {
        lines.push_back(fmt::format("cos = {:.10f}     sin = {:.10f}", shown(c, 10), shown(s, 10)));
    }
    lines.emplace_back();
    const char* matrix = a != 1.0 ? "a·R(m·θ) = " : "R(m·θ) = ";
    const char* indent = a != 1.0 ? "           " : "         ";
    lines.push_back(fmt::format("{}| {:+.6f}  {:+.6f} |", matrix, shown(c, 6), shown(-s, 6)));
    lines.push_back(fmt::format("{}| {:+.6f}  {:+.6f} |", indent, shown(s, 6), shown(c, 6)));
    lines.emplace_back();
    lines.push_back(fmt::format("q pair as complex:  {:.6f} {:+.6f}i", shown(x.real(), 6), shown(x.imag(), 6)));
    lines.push_back(fmt::format("({:.4f} {:+.4f}i)({:.6f} {:+.6f}i) = {:.6f} {:+.6f}i", shown(x.real(), 4),
                                shown(x.imag(), 4), shown(c, 6), shown(s, 6), shown(rotated.real(), 6),
                                shown(rotated.imag(), 6)));
    lines.push_back(fmt::format("|before| = {:.6f}   |after| = {:.6f}{}", std::abs(x), std::abs(rotated),
                                a != 1.0 ? "   (× the attention factor)" : ""));
    lines.emplace_back();
    const auto [ia, ib] = r.interleaved;
    const auto [ha, hb] = r.half;
    lines.push_back(fmt::format("pair {} is components ({}, {}) interleaved (RoFormer, GPT-J, DeepSeek, Llama 4)", i, ia, ib));
    lines.push_back(fmt::format("        components ({}, {}) half-split (HF rotate_half: Llama, Qwen, Gemma, …)", ha, hb));
    lines.push_back(fmt::format("this model uses the {} layout; {} of {} components rotate", to_string(r.layout),
                                r.rotary_dim, r.head_dim));
    return lines;
}

// The lines, at the largest size that fits the cell down to kSmallestText px; where even that
// does not fit, the lines of least priority (the last) are left out. Lines break at spaces only.
// Below them, the pairing in both layouts, where it fits with them at ≥ 0.7 of the font. A wide
// but short view shows the pairing alone; in the lab it says where the rotation's numbers are,
// on a slide it says nothing to the room about keys.
void worked_example(Context& ctx, std::vector<std::string> lines) {
    ImVec2 room = ImGui::GetContentRegionAvail();
    const float strip_height = pairing_strip_height() + ImGui::GetStyle().ItemSpacing.y;
    const float font = ImGui::GetFontSize();
    const float at_strip = numbers_scale(lines, ImVec2(room.x, room.y - strip_height));
    const bool strip = room.y > strip_height + 4 * font && ((at_strip >= 0.7f && at_strip > 0.0f) || room.x >= 40 * font);
    if (strip) {
        room.y -= strip_height;
        if (!(numbers_scale(lines, room) >= 0.7f)) {  // the pairing alone: its three lines
            lines.erase(lines.begin(), lines.end() - 3);
            // A slide shows what fits; only the lab's user can make room.
            if (!on_slide(ctx.params)) lines.insert(lines.begin(), "The rotation's numbers: show this view large (7) or make room.");
        }
    }
    const std::string layout = lines.back();
    lines = lines_that_fit(std::move(lines), room);
    const bool with_layout = !lines.empty() && lines.back() == layout;
    const float scale = numbers_scale(lines, room);
    ImGui::SetWindowFontScale(scale > 0.0f ? scale : smallest_scale());
    if (with_layout) lines.pop_back();
    for (const std::string& line : lines) {
        if (line.empty()) {
            ImGui::Separator();
        } else {
            numbers_line(line);
        }
    }
    if (with_layout) numbers_line(layout, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImGui::SetWindowFontScale(1.0f);
    if (strip) pairing_strip(ctx, ImVec2(ImGui::GetContentRegionAvail().x, pairing_strip_height()));
}

}  // namespace

void numbers_view(Context& ctx) {
    const LabParams& p = ctx.params;
    if (comparing(p)) {
        caption("The focused pair's rotation at m in every compared setting.",
                "A column per setting: θ_i (and what its scaling did to it), m·θ_i, the angle reduced modulo 2π with "
                "integer arithmetic, the attention factor HF multiplies cos and sin by, and q's pair rotated. A "
                "setting with fewer pairs shows its last pair when the focus lies beyond it.");
        compared_numbers(ctx);
        return;
    }
    caption("One rotation, worked out with exact numbers.",
            "The numbers behind one rotation of the focused pair at the current position, as the "
            "posts work them out. The angle is reduced modulo 2π with integer arithmetic before "
            "cos and sin see it. Scalings with an attention factor (YaRN, LongRoPE) multiply cos and "
            "sin by it, so the rotated pair's length changes by that factor.");
    std::vector<std::string> lines = worked_lines(p, ctx.frame.numbers());
    // The linked Δ's score, the phasor sum's end (view 9), first (the last lines are the pairing's),
    // where the cell has room for one more line.
    if (p.link_distance) {
        std::vector<std::string> with = lines;
        with.insert(with.begin(), fmt::format("score at the linked Δ = {}: {:.8g}", p.key_distance, ctx.frame.phasors().score));
        if (numbers_scale(with, ImGui::GetContentRegionAvail()) > 0.51f) lines = std::move(with);
    }
    worked_example(ctx, lines);
}

}  // namespace ropelab::views
