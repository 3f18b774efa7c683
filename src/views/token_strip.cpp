#include "views/token_strip.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>
#include <imgui.h>

#include "ui/widgets.h"
#include "views/panel/panel.h"

namespace ropelab::views {

namespace {

// Past this many tokens the strip draws the first ones and says how many it left out: a layout
// may hold 2^20 tokens, a panel a few thousand cells at most.
constexpr std::size_t kMostDrawn = 4096;

bool is_vision(TokenKind k) { return k == TokenKind::Image || k == TokenKind::Video; }

std::string ids_text(const TokenIds& ids, std::size_t i) {
    return fmt::format("({}, {}, {})", ids.t[i], ids.h[i], ids.w[i]);
}

// One drawn piece: a token box, or a frame's grid of cells (tokens first .. first + rows·cols).
struct Piece {
    std::size_t first = 0;
    std::int64_t rows = 1, cols = 1;
    float w = 0, h = 0;
    ImVec2 at;
};

// Splits the tokens into pieces: a run of a block's patches with the same t is one frame's grid.
std::vector<Piece> pieces_of(const TokenIds& ids, std::size_t count) {
    std::vector<Piece> out;
    for (std::size_t i = 0; i < count;) {
        Piece p;
        p.first = i;
        if (!is_vision(ids.kind[i])) {
            out.push_back(p);
            ++i;
            continue;
        }
        // The frame runs while the token stays a patch of the same part and frame (t, and a row
        // start again at the first row's h).
        std::size_t j = i + 1;
        const std::int64_t h0 = ids.h[i], w0 = ids.w[i];
        while (j < count && is_vision(ids.kind[j]) && ids.part[j] == ids.part[i] && ids.t[j] == ids.t[i] &&
               !(ids.h[j] == h0 && ids.w[j] == w0)) {
            ++j;
        }
        std::int64_t cols = 1;
        while (i + static_cast<std::size_t>(cols) < j && ids.h[i + static_cast<std::size_t>(cols)] == h0) ++cols;
        p.cols = cols;
        p.rows = static_cast<std::int64_t>(j - i) / cols;
        out.push_back(p);
        i = j;
    }
    return out;
}

}  // namespace

std::string token_strip_summary(const lab::TokenPositions& tp) {
    if (!tp.error.empty()) return "no layout: " + tp.error;
    int text = 0, markers = 0, image = 0, video = 0;
    for (TokenKind k : tp.ids.kind) {
        if (k == TokenKind::Text) ++text;
        if (k == TokenKind::VisionStart || k == TokenKind::VisionEnd) ++markers;
        if (k == TokenKind::Image) ++image;
        if (k == TokenKind::Video) ++video;
    }
    std::string out = fmt::format("{} tokens: {} text, {} vision start/end, {} image, {} video; ", tp.ids.size(), text,
                                  markers, image, video);
    if (tp.one_d) return out + "1-D positions (t = h = w = the token's index)";
    out += fmt::format("rule {}", to_string(tp.rule));
    out += tp.differing > 0 ? fmt::format("; {} differ under {}", tp.differing, to_string(tp.other))
                            : fmt::format("; {} gives the same ids", to_string(tp.other));
    if (tp.overlapping > 0) out += fmt::format("; {} overlap an earlier image or video", tp.overlapping);
    return out;
}

void token_strip(const lab::TokenPositions& tp) {
    const std::string summary = token_strip_summary(tp);
    if (!tp.error.empty() || tp.ids.size() == 0) {
        ui::text(summary);
        return;
    }
    const TokenIds& ids = tp.ids;
    const std::size_t count = std::min(ids.size(), kMostDrawn);
    const float font = ImGui::GetFontSize();
    const float width = std::max(ImGui::GetContentRegionAvail().x, font * 4);
    const float gap = std::max(2.0f, font * 0.2f);

    // Sizes, then a left-to-right flow that wraps at the panel's width.
    std::vector<Piece> pieces = pieces_of(ids, count);
    for (Piece& p : pieces) {
        const TokenKind k = ids.kind[p.first];
        if (is_vision(k)) {
            const float cell = std::clamp(std::floor((width - gap) / static_cast<float>(p.cols)), 2.0f, font * 0.9f);
            p.w = cell * static_cast<float>(p.cols);
            p.h = cell * static_cast<float>(p.rows);
        } else if (k == TokenKind::Text) {
            p.w = std::max(font * 1.2f, ImGui::CalcTextSize(fmt::format("{}", ids.t[p.first]).c_str()).x + font * 0.4f);
            p.h = font * 1.2f;
        } else {
            p.w = font * 0.45f;
            p.h = font * 1.2f;
        }
    }
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    float x = 0, y = 0, line = 0;
    for (Piece& p : pieces) {
        if (x > 0 && x + p.w > width) {
            x = 0;
            y += line + gap;
            line = 0;
        }
        p.at = ImVec2(origin.x + x, origin.y + y);
        x += p.w + gap;
        line = std::max(line, p.h);
    }
    const float height = y + line;
    ImGui::InvisibleButton("##token strip", ImVec2(width, std::max(height, 1.0f)));
    const bool hovered = ImGui::IsItemHovered();
    const ImVec2 mouse = ImGui::GetIO().MousePos;

    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 text_col = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 box_col = ImGui::GetColorU32(ImGuiCol_FrameBg);
    const ImU32 edge_col = ImGui::GetColorU32(ImGuiCol_Border);
    const ImU32 marker_col = ImGui::GetColorU32(ImGuiCol_PlotHistogram);
    const ImU32 image_col = ImGui::GetColorU32(ImGuiCol_PlotLines);
    const ImU32 warn = warning_color();
    std::size_t under = ids.size();
    for (const Piece& p : pieces) {
        const TokenKind k = ids.kind[p.first];
        const ImVec2 a = p.at, b(p.at.x + p.w, p.at.y + p.h);
        if (!is_vision(k)) {
            const bool flagged = tp.differ[p.first] || tp.overlap[p.first];
            draw->AddRectFilled(a, b, k == TokenKind::Text ? box_col : marker_col);
            draw->AddRect(a, b, flagged ? warn : edge_col, 0, 0, flagged ? 2.0f : 1.0f);
            if (k == TokenKind::Text) {
                const std::string id = fmt::format("{}", ids.t[p.first]);
                const ImVec2 size = ImGui::CalcTextSize(id.c_str());
                draw->AddText(ImVec2(a.x + (p.w - size.x) / 2, a.y + (p.h - size.y) / 2), flagged ? warn : text_col, id.c_str());
            }
            if (hovered && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y) under = p.first;
            continue;
        }
        const float cell = p.w / static_cast<float>(p.cols);
        for (std::int64_t r = 0; r < p.rows; ++r) {
            for (std::int64_t c = 0; c < p.cols; ++c) {
                const std::size_t i = p.first + static_cast<std::size_t>(r * p.cols + c);
                const ImVec2 ca(a.x + cell * static_cast<float>(c), a.y + cell * static_cast<float>(r));
                const ImVec2 cb(ca.x + cell, ca.y + cell);
                const bool flagged = tp.differ[i] || tp.overlap[i];
                draw->AddRectFilled(ca, cb, flagged ? warn : image_col);
                if (cell >= 4) draw->AddRect(ca, cb, edge_col);
                if (hovered && mouse.x >= ca.x && mouse.x < cb.x && mouse.y >= ca.y && mouse.y < cb.y) under = i;
            }
        }
    }
    // The log's value says what the hover shows, so scripts can read it.
    std::string hover;
    if (under < ids.size()) {
        hover = fmt::format("token {}: {} (part {})\n(t, h, w) under {}: {}\n(t, h, w) under {}: {}", under,
                            to_string(ids.kind[under]), ids.part[under] + 1, to_string(tp.rule), ids_text(ids, under),
                            to_string(tp.other), ids_text(tp.other_ids, under));
        if (tp.overlap[under]) hover += "\nits t id is at or below an earlier image or video token's";
        if (ui::tooltips_allowed()) ImGui::SetTooltip("%s", hover.c_str());
    }
    ui::log().record("token strip", "plot", hover.empty() ? summary : summary + " | hover: " + hover);
    if (ids.size() > count) ui::text_disabled(fmt::format("(the first {} of {} tokens drawn)", count, ids.size()));
    ui::text(summary, tp.differing > 0 || tp.overlapping > 0 ? warn : 0);
    if (tp.overlapping > 0) {
        ui::text("Overlap: text after the video resumes at or below the video's own t ids, so positions no longer follow "
                 "the sequence's order (the 5.x rule resumes at start + max(H, W)/merge)", warn);
    }
}

}  // namespace ropelab::views
