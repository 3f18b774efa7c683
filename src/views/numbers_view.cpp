// View 7: the worked example, the way the seeds do it: for the focused position and pair,
// θ_i, m·θ_i, cos and sin, the 2×2 matrix, the complex product with values, and which vector
// components form pair i in each layout.
#include <algorithm>
#include <cmath>
#include <complex>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/rotation.h"
#include "lab/pair_maths.h"
#include "state/compare.h"
#include "views/views.h"
#include "ui/widgets.h"

namespace ropelab::views {

namespace {
// A value as printed with `decimals` decimals, without the "−0.000000" that rounding a tiny
// negative number gives: a rounded zero is zero.
double shown(double v, int decimals) { return std::abs(v) < 0.5 * std::pow(10.0, -decimals) ? 0.0 : v; }

// The largest font scale (1 down to 0.5) at which the lines, wrapped at the box's width, fit
// its height; an empty line is a separator.
float numbers_scale(const std::vector<std::string>& lines, ImVec2 room) {
    const ImGuiStyle& style = ImGui::GetStyle();
    for (float scale = 1.0f; scale > 0.5f; scale -= 0.05f) {
        float height = 0.0f;
        for (const std::string& line : lines) {
            if (line.empty()) {
                height += style.ItemSpacing.y;
                continue;
            }
            const float width = ImGui::CalcTextSize(line.c_str()).x * scale;
            height += std::ceil(width / std::max(1.0f, room.x)) * ImGui::GetFontSize() * scale + style.ItemSpacing.y;
        }
        if (height <= room.y) return scale;
    }
    return 0.5f;
}
// Compare mode's rows, and their cells for each setting: the focused pair's rotation at m, each
// setting at its own pair count (a smaller model's focus stays inside it).
constexpr const char* kComparedRows[] = {"pair i", "θ_i (rad/position)", "× scaling", "m·θ_i (rad)", "reduced (°)", "attention a",
                                         "a·cos", "a·sin", "R q (re)", "R q (im)", "|q| → |R q|"};

std::vector<std::vector<std::string>> compared_cells(const Context& ctx, int settings) {
    const LabParams& p = ctx.params;
    std::vector<std::vector<std::string>> cells(static_cast<std::size_t>(settings));
    for (int s = 0; s < settings; ++s) {
        const LabData& d = ctx.compute.setting_data(s);
        const lab::PairRotation r = lab::pair_rotation(d, std::clamp(p.focused_pair, 0, d.freqs.pairs() - 1), p.position);
        cells[static_cast<std::size_t>(s)] = {
            fmt::format("{}", r.pair),
            fmt::format("{:.8g}", r.theta),
            fmt::format("{:.6g}", r.theta / r.unscaled_theta),
            fmt::format("{:.8g}", static_cast<double>(p.position) * r.theta),
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
    float widest = 0.0f;
    for (const char* r : kComparedRows) widest = std::max(widest, ImGui::CalcTextSize(r).x);
    float column = 0.0f;
    for (int s = 0; s < settings; ++s) {
        column = std::max(column, ImGui::CalcTextSize(setting_name(p, s).c_str()).x);
        for (const std::string& c : cells[static_cast<std::size_t>(s)]) column = std::max(column, ImGui::CalcTextSize(c.c_str()).x);
    }
    const float width_scale = room.x / (widest + pad + settings * (column + pad));
    const float height_scale = room.y / ((kRows + 1) * (font + ImGui::GetStyle().CellPadding.y * 2 + 1.0f));
    const float scale = std::clamp(std::min(width_scale, height_scale), 0.5f, 1.0f);
    ImGui::SetWindowFontScale(scale);
    if (ImGui::BeginTable("compared numbers", settings + 1, ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_RowBg)) {
        ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, widest * scale + pad);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ui::text_disabled(fmt::format("m = {}", p.position));
        for (int s = 0; s < settings; ++s) {
            ImGui::TableNextColumn();
            ui::text(setting_name(p, s), setting_color(ctx, s));
            ui::tip(setting_source(p, s).c_str());
        }
        for (int r = 0; r < kRows; ++r) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ui::text_disabled(kComparedRows[r]);
            for (int s = 0; s < settings; ++s) {
                ImGui::TableNextColumn();
                ui::text(cells[static_cast<std::size_t>(s)][static_cast<std::size_t>(r)]);
            }
        }
        ImGui::EndTable();
    }
    ImGui::SetWindowFontScale(1.0f);
}

}  // namespace

namespace {

// The worked example for pair i at m, as lines (an empty line is a separator), ending with the
// pair's components in both layouts and the model's layout.
std::vector<std::string> worked_lines(const LabParams& p, const LabData& d, int i) {
    const lab::PairRotation r = lab::pair_rotation(d, i, p.position);
    const double theta = r.theta, angle = r.angle, a = r.attention, c = r.cos_a, s = r.sin_a;
    const auto x = r.x, rotated = r.rotated;

    std::vector<std::string> lines;
    const double base_freq = r.base_theta;
    lines.push_back(fmt::format("θ_{} = {:.6g}^(−2·{}/{}) = {:.10g} rad per position", i, d.freqs.effective_theta, i,
                                d.freqs.rotary_dim, base_freq));
    const std::string type(to_string(p.model.rope_scaling.type));
    if (std::abs(theta - base_freq) > 1e-15 * base_freq) {
        lines.push_back(fmt::format("      × {:.6g} ({} scaling) = {:.10g} rad per position", theta / base_freq, type, theta));
    }
    lines.push_back(fmt::format("m·θ_{} = {} × {:.10g} = {:.10g} rad", i, p.position, theta,
                                static_cast<double>(p.position) * theta));
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
    const auto [ia, ib] = pair_components(i, d.freqs.rotary_dim, PairLayout::Interleaved);
    const auto [ha, hb] = pair_components(i, d.freqs.rotary_dim, PairLayout::Half);
    lines.push_back(fmt::format("pair {} is components ({}, {}) interleaved (RoFormer, GPT-J, DeepSeek, Llama 4)", i, ia, ib));
    lines.push_back(fmt::format("        components ({}, {}) half-split (HF rotate_half: Llama, Qwen, Gemma, …)", ha, hb));
    lines.push_back(fmt::format("this model uses the {} layout; {} of {} components rotate", to_string(d.freqs.layout),
                                d.freqs.rotary_dim, d.freqs.head_dim));
    return lines;
}

// The lines, shrunk until they fit the cell (down to half the font), wrapped at its width. Below
// them, the pairing in both layouts, where it fits with them at ≥ 0.7 of the font. A wide but
// short view (a lesson slide) shows the pairing alone and says where the rotation's numbers are;
// a small cell, the numbers alone.
void worked_example(Context& ctx, std::vector<std::string> lines) {
    const std::string layout = lines.back();
    ImVec2 room = ImGui::GetContentRegionAvail();
    const float strip_height = pairing_strip_height() + ImGui::GetStyle().ItemSpacing.y;
    const float font = ImGui::GetFontSize();
    const bool strip = room.y > strip_height + 4 * font &&
                       (numbers_scale(lines, ImVec2(room.x, room.y - strip_height)) >= 0.7f || room.x >= 40 * font);
    if (strip) {
        room.y -= strip_height;
        if (numbers_scale(lines, room) < 0.7f) {  // the pairing alone: its three lines
            lines.erase(lines.begin(), lines.end() - 3);
            lines.insert(lines.begin(), "The rotation's numbers: show this view large (7) or make room.");
        }
    }
    ImGui::SetWindowFontScale(numbers_scale(lines, room));
    lines.pop_back();
    for (const std::string& line : lines) {
        if (line.empty()) {
            ImGui::Separator();
        } else {
            ui::text(line);
        }
    }
    ui::text_disabled(layout);
    ImGui::SetWindowFontScale(1.0f);
    if (strip) pairing_strip(ctx, ImVec2(ImGui::GetContentRegionAvail().x, pairing_strip_height()));
}

}  // namespace

void numbers_view(Context& ctx) {
    const LabParams& p = ctx.params;
    const LabData& d = ctx.compute.data();
    if (comparing(p)) {
        caption("The focused pair's rotation at m in every compared setting.",
                "A column per setting: θ_i (and what its scaling did to it), m·θ_i, the angle reduced modulo 2π with "
                "integer arithmetic, the attention factor HF multiplies cos and sin by, and q's pair rotated. A "
                "setting with fewer pairs shows its last pair when the focus lies beyond it.");
        compared_numbers(ctx);
        return;
    }
    const int i = std::clamp(p.focused_pair, 0, d.freqs.pairs() - 1);
    caption("One rotation, worked out with exact numbers.",
            "The numbers behind one rotation of the focused pair at the current position, as the "
            "posts work them out. The angle is reduced modulo 2π with integer arithmetic before "
            "cos and sin see it. Scalings with an attention factor (YaRN, LongRoPE) multiply cos and "
            "sin by it, so the rotated pair's length changes by that factor.");
    std::vector<std::string> lines = worked_lines(p, d, i);
    // The linked Δ's score, the phasor sum's end (view 9), first (the last lines are the pairing's),
    // where the cell has room for one more line.
    if (p.link_distance) {
        std::vector<std::string> with = lines;
        with.insert(with.begin(), fmt::format("score at the linked Δ = {}: {:.8g}", p.key_distance, evaluate(d.rope_sum, p.key_distance)));
        if (numbers_scale(with, ImGui::GetContentRegionAvail()) > 0.51f) lines = std::move(with);
    }
    worked_example(ctx, lines);
}

}  // namespace ropelab::views
