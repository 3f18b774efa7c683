#include "ui/widgets.h"

#include "core/utf8.h"

#include <algorithm>
#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <map>

#include <fmt/format.h>
#include <imgui_internal.h>
#include <imgui_stdlib.h>
#include <nlohmann/json.hpp>

namespace ropelab::ui {

namespace {

bool g_tooltips = true;

constexpr ImGuiInputTextFlags kCommit = ImGuiInputTextFlags_EnterReturnsTrue;

}  // namespace

WidgetLog& log() {
    static WidgetLog instance;
    return instance;
}

void WidgetLog::begin_frame() {
    last_ = std::move(current_);
    current_.clear();
    clipped_.clear();
}

void WidgetLog::check_fits(std::string_view text, ImVec2 min, ImVec2 max, const ImVec4& box, bool can_scroll) {
    constexpr float slack = 1.0f;  // sub-pixel rounding
    const bool outside = max.x <= box.x || min.x >= box.z || max.y <= box.y || min.y >= box.w;
    if ((outside && can_scroll) || text.empty()) return;
    if (min.x < box.x - slack || max.x > box.z + slack) {
        clipped_.push_back({std::string(text), max.x - min.x, std::max(0.0f, box.z - std::max(box.x, min.x))});
    } else if (!can_scroll && (max.y > box.w + slack || min.y < box.y - slack)) {
        clipped_.push_back({std::string(text), max.y - min.y, std::max(0.0f, box.w - min.y)});
    }
}

void WidgetLog::check_item_fits(std::string_view text) {
    const ImGuiWindow* window = ImGui::GetCurrentWindowRead();
    // Views never scroll; panels and popups may, and their hidden items are out of view, not cut.
    const bool can_scroll = !(window->Flags & ImGuiWindowFlags_NoScrollbar);
    check_fits(text, ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), window->ClipRect.ToVec4(), can_scroll);
}

void WidgetLog::record(std::string_view label, std::string_view kind, std::string value) {
    const ImGuiWindow* window = ImGui::GetCurrentWindowRead();
    const ImRect clip = window->ClipRect;
    if (window->SkipItems) {
        // A window with no room (a view squeezed to nothing by a long caption) submits no items:
        // "the last item" is still an earlier one, whose ID must not be taken for this one's.
        const ImVec2 at = window->DC.CursorPos;
        add(label, kind, std::move(value), at, at, clip.ToVec4(), 0, false);
        return;
    }
    add(label, kind, std::move(value), ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), clip.ToVec4(), ImGui::GetItemID(),
        ImGui::IsItemVisible());
}

void WidgetLog::record_box(std::string_view label, std::string_view kind, ImVec2 at, ImVec2 size) {
    const ImRect clip = ImGui::GetCurrentWindowRead()->ClipRect;
    add(label, kind, {}, at, ImVec2(at.x + size.x, at.y + size.y), clip.ToVec4(), 0, true);
}

void WidgetLog::record_rect(std::string_view label, std::string_view kind, std::string value, ImVec2 at, ImVec2 size) {
    // Called with the popup's window current: the box lies in its parent window.
    const ImGuiWindow* parent = ImGui::GetCurrentWindowRead()->ParentWindow;
    const ImRect clip = parent ? parent->ClipRect : ImGui::GetCurrentWindowRead()->ClipRect;
    add(label, kind, std::move(value), at, ImVec2(at.x + size.x, at.y + size.y), clip.ToVec4(), 0, true);
}

void WidgetLog::add(std::string_view label, std::string_view kind, std::string value, ImVec2 a, ImVec2 b,
                    const ImVec4& clip_rect, unsigned id, bool item_visible) {
    // What lies outside the screen is out of reach too (a long popup past the window's edge).
    const ImGuiViewport* screen = ImGui::GetMainViewport();
    ImRect clip(clip_rect);
    clip.ClipWith(ImRect(screen->Pos, ImVec2(screen->Pos.x + screen->Size.x, screen->Pos.y + screen->Size.y)));
    Widget w;
    w.label = visible_label(label);
    w.kind = kind;
    w.value = std::move(value);
    w.x = a.x, w.y = a.y, w.w = b.x - a.x, w.h = b.y - a.y;
    w.visible = clip.Contains(ImVec2((a.x + b.x) / 2, (a.y + b.y) / 2)) && item_visible;
    w.clip[0] = clip.Min.x, w.clip[1] = clip.Min.y, w.clip[2] = clip.Max.x, w.clip[3] = clip.Max.y;
    w.item_of = combo_;
    w.id = id;
    if (w.id != 0) {
        for (const Widget& other : current_) {
            if (other.id != w.id) continue;
            const std::string clash = fmt::format("ImGui ID {:#x} shared by {} \"{}\" and {} \"{}\"", w.id, other.kind,
                                                  other.label, w.kind, w.label);
            if (std::find(duplicates_.begin(), duplicates_.end(), clash) == duplicates_.end()) duplicates_.push_back(clash);
        }
    }
    // A control's label cut by its panel's edge (a checkbox past a narrow panel's side).
    // (Only its right side: selectables reach into the spacing left of them by design.)
    if (kind != "plot" && id != 0 && item_visible) check_fits(w.label, ImVec2(std::max(a.x, clip.Min.x), a.y), b, clip.ToVec4(), true);
    current_.push_back(std::move(w));
}

void allow_tooltips(bool on) { g_tooltips = on; }
bool tooltips_allowed() { return g_tooltips; }

// A long text (a 17,000-character path inside a refusal) is drawn in one piece, four vertices a
// character, more than ImGui's 16-bit indices reach in one draw command (16,383 characters), and
// aborts the app: beyond this many bytes, text on screen shows its start and its length.
constexpr std::size_t kMaxShownBytes = 4000;

std::string elided(std::string_view text) {
    if (text.size() <= kMaxShownBytes) return std::string(text);
    std::size_t end = kMaxShownBytes;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xc0) == 0x80) --end;  // a whole UTF-8 character
    return fmt::format("{}… ({} characters in all)", text.substr(0, end), text.size());
}

void tip(const char* text) {
    if (g_tooltips && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", math_text::with_unicode_scripts(elided(text)).c_str());
}

std::string visible_label(std::string_view label) {
    const auto hashes = label.find("##");
    return std::string(hashes == std::string_view::npos ? label : label.substr(0, hashes));
}

namespace {

float ascent_ratio(const ImFont* font) { return font != nullptr && font->FontSize > 0 ? font->Ascent / font->FontSize : 0.8f; }

// Calls f(run's bytes, its level) for each run of `text`, plain text as one base run.
template <typename F>
void each_run(const math_text::Typeset& text, F f) {
    if (text.spans.empty()) {
        f(std::string_view(text.text), math_text::kBase);
        return;
    }
    std::size_t at = 0;
    for (const math_text::Span& span : text.spans) {
        f(std::string_view(text.text).substr(at, span.bytes), span.level);
        at += span.bytes;
    }
}

}  // namespace

float script_top(const ImFont* font, float size, math_text::Level level, float line_top) {
    // The run's baseline sits `rise` above the line's; ImGui places a glyph under its font's ascent.
    const math_text::Placement p = math_text::placement(level);
    const float ascent = ascent_ratio(font);
    return line_top + ascent * size - p.rise * size - ascent * p.scale * size;
}

float typeset_width(const ImFont* font, float size, const math_text::Typeset& text) {
    float width = 0.0f;
    each_run(text, [&](std::string_view run, math_text::Level level) {
        width += font->CalcTextSizeA(size * math_text::placement(level).scale, FLT_MAX, 0.0f, run.data(), run.data() + run.size()).x;
    });
    return width;
}

float typeset_width(std::string_view text) {
    if (!math_text::has_markup(text)) return ImGui::CalcTextSize(text.data(), text.data() + text.size()).x;
    // Rounded up to a whole pixel, as ImGui::CalcTextSize rounds.
    return std::ceil(typeset_width(ImGui::GetFont(), ImGui::GetFontSize(), math_text::typeset(text)) - 0.00001f);
}

std::vector<float> typeset_advances(const ImFont* font, float size, const math_text::Typeset& text) {
    std::vector<float> advances;
    each_run(text, [&](std::string_view run, math_text::Level level) {
        const float scale = size * math_text::placement(level).scale / font->FontSize;
        for (const char* c = run.data(); c < run.data() + run.size();) {
            unsigned int code = 0;
            const int n = ImTextCharFromUtf8(&code, c, run.data() + run.size());
            advances.push_back(font->GetCharAdvance(static_cast<ImWchar>(code)) * scale);
            c += n > 0 ? n : 1;
        }
    });
    return advances;
}

void add_typeset_text(ImDrawList* dl, const ImFont* font, float size, ImVec2 at, ImU32 color, const math_text::Typeset& text) {
    float x = at.x;
    each_run(text, [&](std::string_view run, math_text::Level level) {
        const float run_size = size * math_text::placement(level).scale;
        dl->AddText(font, run_size, ImVec2(x, script_top(font, size, level, at.y)), color, run.data(), run.data() + run.size());
        x += font->CalcTextSizeA(run_size, FLT_MAX, 0.0f, run.data(), run.data() + run.size()).x;
    });
}

namespace {

float text_width(const std::string& text, float scale) { return typeset_width(text) * scale; }

// A word wider than the whole box (a path, a long name) is cut between characters, as ImGui
// cuts it; returns the last piece, which the next words may join.
std::string cut_long_word(std::string word, float width, float scale, std::vector<std::string>& lines) {
    while (text_width(word, scale) > width) {
        std::size_t end = 0, fits = 0;
        while (end < word.size()) {
            std::size_t next = end + 1;
            while (next < word.size() && (static_cast<unsigned char>(word[next]) & 0xc0) == 0x80) ++next;
            if (text_width(word.substr(0, next), scale) > width) break;
            fits = end = next;
        }
        if (fits == 0) break;  // not even one character fits: it overflows
        lines.push_back(word.substr(0, fits));
        word.erase(0, fits);
    }
    return word;
}

// One paragraph (no newline) broken at spaces: the longest run of words that fits per line.
void add_paragraph_lines(std::string_view paragraph, float width, float scale, std::vector<std::string>& lines) {
    std::string current;
    std::size_t i = 0;
    bool any = false;
    while (i < paragraph.size()) {
        std::size_t j = i;  // the next word with the spaces before it
        while (j < paragraph.size() && paragraph[j] == ' ') ++j;
        // A script in braces (e^{i x}) is one word: a line break inside would leave its markup open.
        int braces = 0;
        for (; j < paragraph.size() && (paragraph[j] != ' ' || braces > 0); ++j) {
            if (braces == 0 && (paragraph[j] == '^' || paragraph[j] == '_') && j + 1 < paragraph.size() && paragraph[j + 1] == '{') {
                braces = 1;
                ++j;
            } else if (braces > 0 && paragraph[j] == '{') {
                ++braces;
            } else if (braces > 0 && paragraph[j] == '}') {
                --braces;
            }
        }
        const std::string_view word = paragraph.substr(i, j - i);
        std::string joined = current;
        joined += word;
        if (text_width(joined, scale) <= width) {
            current = std::move(joined);
        } else {
            if (!current.empty()) lines.push_back(current);
            any = any || !current.empty();
            const std::size_t start = word.find_first_not_of(' ');
            const std::size_t before = lines.size();
            current = cut_long_word(start == std::string_view::npos ? "" : std::string(word.substr(start)), width, scale, lines);
            any = any || lines.size() > before;
        }
        i = j;
    }
    if (!current.empty() || !any) lines.push_back(current);
}

}  // namespace

std::vector<std::string> lines_at_spaces(std::string_view text, float width, float scale) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find('\n', start);
        add_paragraph_lines(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start),
                            width, scale, lines);
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    return lines;
}

namespace {

// Lines holding maths: an item of the lines' size, each line typeset into it with the window's
// draw list (ImGui's own text would show the markup).
void typeset_lines(const std::vector<std::string>& lines) {
    const ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    std::vector<math_text::Typeset> typeset;
    float width = 0.0f;
    for (const std::string& line : lines) {
        typeset.push_back(math_text::typeset(line));
        width = std::max(width, typeset_width(font, size, typeset.back()));
    }
    ImGui::Dummy(ImVec2(std::ceil(width - 0.00001f), size * static_cast<float>(lines.size())));
    if (!ImGui::IsItemVisible()) return;
    const ImVec2 at = ImGui::GetItemRectMin();
    const ImU32 color = ImGui::GetColorU32(ImGuiCol_Text);
    for (std::size_t k = 0; k < typeset.size(); ++k) {
        add_typeset_text(ImGui::GetWindowDrawList(), font, size, ImVec2(at.x, at.y + size * static_cast<float>(k)), color, typeset[k]);
    }
}

}  // namespace

void text(std::string_view full, ImU32 color) {
    const std::string shown = elided(full);
    const std::vector<std::string> lines = lines_at_spaces(shown, ImGui::GetContentRegionAvail().x);
    std::string text;
    for (const std::string& line : lines) {
        text += line;
        text += '\n';
    }
    if (!text.empty()) text.pop_back();
    if (color) ImGui::PushStyleColor(ImGuiCol_Text, color);
    if (math_text::has_markup(text)) {
        typeset_lines(lines);
    } else {
        ImGui::TextUnformatted(text.data(), text.data() + text.size());
    }
    if (color) ImGui::PopStyleColor();
    log().check_item_fits(text);  // a single word wider than the box still overflows
}

void text_disabled(std::string_view t) { text(t, ImGui::GetColorU32(ImGuiCol_TextDisabled)); }

void same_line_if_fits(std::string_view next) {
    const float after = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x;
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (after + typeset_width(next) <= right) ImGui::SameLine();
}

bool button(const char* label, ImVec2 size) {
    const bool pressed = ImGui::Button(label, size);
    log().record(label, "button");
    return pressed;
}

bool arrow_button(const char* id, ImGuiDir dir, const char* name) {
    const bool pressed = ImGui::ArrowButton(id, dir);
    log().record(name, "button");
    return pressed;
}

bool checkbox(const char* label, bool* v, const char* name) {
    const bool changed = ImGui::Checkbox(label, v);
    log().record(name ? name : label, "checkbox", *v ? "true" : "false");
    return changed;
}

bool radio(const char* label, int* v, int v_button) {
    const bool pressed = ImGui::RadioButton(label, v, v_button);
    log().record(label, "radio", *v == v_button ? "true" : "false");
    return pressed;
}

bool selectable(const char* label, bool selected, ImGuiSelectableFlags flags, const char* kind, ImVec2 size) {
    const bool pressed = ImGui::Selectable(label, selected, flags, size);
    log().record(label, kind, selected ? "true" : "false");
    return pressed;
}

bool begin_combo(const char* label, const char* preview) {
    // The box's rectangle, known before BeginCombo makes the popup's window current.
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float label_width = ImGui::CalcTextSize(label, nullptr, true).x;
    const ImVec2 size(ImGui::CalcItemWidth() + (label_width > 0 ? ImGui::GetStyle().ItemInnerSpacing.x + label_width : 0),
                      ImGui::GetFrameHeight());
    // Every entry in view at once (12 presets), as far as the window allows.
    const bool open = ImGui::BeginCombo(label, preview, ImGuiComboFlags_HeightLargest);
    if (open) {
        log().record_rect(label, "combo", preview, at, size);
        log().set_combo(visible_label(label));
    } else {
        log().record(label, "combo", preview);
    }
    return open;
}

bool combo_item(const char* label, bool selected) {
    const bool pressed = ImGui::Selectable(label, selected);
    log().record(label, "combo", selected ? "true" : "false");
    return pressed;
}

void end_combo() {
    log().set_combo({});
    ImGui::EndCombo();
}

bool combo(const char* label, int* current, std::span<const char* const> names) {
    bool changed = false;
    const char* preview = *current >= 0 && static_cast<std::size_t>(*current) < names.size() ? names[*current] : "";
    if (begin_combo(label, preview)) {
        for (std::size_t i = 0; i < names.size(); ++i) {
            if (combo_item(names[i], static_cast<int>(i) == *current) && static_cast<int>(i) != *current) {
                *current = static_cast<int>(i);
                changed = true;
            }
        }
        end_combo();
    }
    return changed;
}

bool header(const char* label, ImGuiTreeNodeFlags flags) {
    const bool open = ImGui::CollapsingHeader(label, flags);
    log().record(label, "header", open ? "open" : "closed");
    return open;
}

bool slider_double(const char* label, double* v, double lo, double hi, const char* format, bool log_scale) {
    const bool changed = ImGui::SliderScalar(label, ImGuiDataType_Double, v, &lo, &hi, format,
                                             log_scale ? ImGuiSliderFlags_Logarithmic : 0);
    log().record(label, "slider", fmt::format("{}", *v));
    return changed;
}

bool slider_int64(const char* label, std::int64_t* v, std::int64_t lo, std::int64_t hi, bool log_scale) {
    const bool changed = ImGui::SliderScalar(label, ImGuiDataType_S64, v, &lo, &hi, "%" PRId64,
                                             log_scale ? ImGuiSliderFlags_Logarithmic : 0);
    log().record(label, "slider", std::to_string(*v));
    return changed;
}

bool slider_int(const char* label, int* v, int lo, int hi, const char* format, ImGuiSliderFlags flags) {
    const bool changed = ImGui::SliderInt(label, v, lo, hi, format, flags);
    log().record(label, "slider", std::to_string(*v));
    return changed;
}

bool slider_float(const char* label, float* v, float lo, float hi, const char* format, ImGuiSliderFlags flags) {
    const bool changed = ImGui::SliderFloat(label, v, lo, hi, format, flags);
    log().record(label, "slider", fmt::format("{}", *v));
    return changed;
}

bool slider_int64_range(const char* label, std::int64_t range[2], std::int64_t lo, std::int64_t hi) {
    const bool changed = ImGui::SliderScalarN(label, ImGuiDataType_S64, range, 2, &lo, &hi, "%" PRId64,
                                              ImGuiSliderFlags_Logarithmic);
    log().record(label, "slider", fmt::format("{} {}", range[0], range[1]));
    return changed;
}

namespace {
// Cuts what is typed or pasted past the field's limit in characters, as it arrives (whole
// UTF-8 characters).
int keep_within(ImGuiInputTextCallbackData* data) {
    const auto limit = *static_cast<const std::size_t*>(data->UserData);
    const std::string_view buf(data->Buf, static_cast<std::size_t>(data->BufTextLen));
    if (utf8_characters(buf) > limit) {
        const int end = static_cast<int>(utf8_prefix_bytes(buf, limit));
        data->DeleteChars(end, data->BufTextLen - end);
    }
    return 0;
}
}  // namespace

bool input_text(const char* label, std::string* text, std::size_t max_chars) {
    // A text longer than the field holds (set by a file, not typed) is shown as it is and kept
    // byte for byte unless it is edited: the field never rewrites what the user did not touch.
    std::size_t limit = max_chars;
    const bool changed = ImGui::InputText(label, text, ImGuiInputTextFlags_CallbackEdit, keep_within, &limit);
    log().record(label, "input", *text);
    if (utf8_characters(*text) >= max_chars) {
        message(fmt::format("{}: at most {} characters; the rest was cut", visible_label(label), max_chars),
                ImGui::GetColorU32(ImGuiCol_TextDisabled));
    }
    return changed;
}

bool input_int(const char* label, int* v, int step, int step_fast) {
    // Enter on an unchanged number still counts: it is an answer (and clears a refusal).
    const bool changed = ImGui::InputInt(label, v, step, step_fast, kCommit) || ImGui::IsItemDeactivatedAfterEdit();
    log().record(label, "input", std::to_string(*v));
    return changed;
}

bool input_int64(const char* label, std::int64_t* v) {
    // Enter on an unchanged number still counts: it is an answer (and clears a refusal).
    const bool changed = ImGui::InputScalar(label, ImGuiDataType_S64, v, nullptr, nullptr, "%" PRId64, kCommit) || ImGui::IsItemDeactivatedAfterEdit();
    log().record(label, "input", std::to_string(*v));
    return changed;
}

bool input_double(const char* label, double* v) {
    // Enter on an unchanged number still counts: it is an answer (and clears a refusal).
    const bool changed = ImGui::InputDouble(label, v, 0, 0, "%.6g", kCommit) || ImGui::IsItemDeactivatedAfterEdit();
    log().record(label, "input", fmt::format("{}", *v));
    return changed;
}

bool input_int2(const char* label, int v[2]) {
    // Enter on an unchanged number still counts: it is an answer (and clears a refusal).
    const bool changed = ImGui::InputInt2(label, v, kCommit) || ImGui::IsItemDeactivatedAfterEdit();
    log().record(label, "input", fmt::format("{} {}", v[0], v[1]));
    return changed;
}

bool input_double2(const char* label, double v[2], const char* format) {
    // Enter on an unchanged number still counts: it is an answer (and clears a refusal).
    const bool changed = ImGui::InputScalarN(label, ImGuiDataType_Double, v, 2, nullptr, nullptr, format, kCommit) || ImGui::IsItemDeactivatedAfterEdit();
    log().record(label, "input", fmt::format("{} {}", v[0], v[1]));
    return changed;
}

void message(const std::string& text, ImU32 color) {
    if (color) ImGui::PushStyleColor(ImGuiCol_Text, color);
    ImGui::TextWrapped("%s", elided(text).c_str());
    if (color) ImGui::PopStyleColor();
    log().record(text, "message", text);
}

std::string cut_to_width(std::string text, float width) {
    if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
    while (!text.empty() && ImGui::CalcTextSize((text + "…").c_str()).x > width) {
        text.pop_back();
        while (!text.empty() && (static_cast<unsigned char>(text.back()) & 0xC0) == 0x80) text.pop_back();
        if (!text.empty() && static_cast<unsigned char>(text.back()) >= 0xC0) text.pop_back();
    }
    return text + "…";
}

}  // namespace ropelab::ui

namespace ropelab::ui {

namespace {
std::vector<std::string> g_open_menus;  // the menus being drawn, outermost first
}  // namespace

bool begin_menu(const char* label, bool enabled) {
    const bool open = ImGui::BeginMenu(label, enabled);
    if (!open) {
        log().record(label, "menu", "closed");
        return false;
    }
    g_open_menus.emplace_back(label);
    log().set_combo(visible_label(label));
    return true;
}

void end_menu() {
    ImGui::EndMenu();  // ImGui restores the menu's own item as the last one
    const std::string label = g_open_menus.back();
    g_open_menus.pop_back();
    log().set_combo(g_open_menus.empty() ? "" : visible_label(g_open_menus.back()));
    log().record(label, "menu", "open");
}

bool menu_item(const char* label, const char* shortcut, bool checked, bool enabled) {
    const bool chosen = ImGui::MenuItem(label, shortcut, checked, enabled);
    log().record(label, "menu item", checked ? "checked" : "");
    return chosen;
}

std::string widgets_json(const std::vector<ui::Widget>& widgets) {
    nlohmann::json out = nlohmann::json::array();
    for (const ui::Widget& w : widgets) {
        nlohmann::json j = {{"label", w.label}, {"kind", w.kind}, {"x", w.x}, {"y", w.y}, {"w", w.w}, {"h", w.h},
                  {"visible", w.visible}, {"value", w.value}};
        if (!w.item_of.empty()) j["item_of"] = w.item_of;
        out.push_back(j);
    }
    return out.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace ropelab::ui
