#pragma once
// The lab's widgets: Dear ImGui's, each recorded as it is drawn (visible label, kind, screen
// rectangle, value, ImGui ID) in a log of the frame. The log is what `gui --script` aims its
// clicks at and dumps with {"widgets": …}, and it catches two items sharing one ID within a
// frame (a header and a button both called "Export" once made the button dead), naming both.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <imgui.h>

#include "ui/math_text.h"

namespace ropelab::ui {

struct Widget {
    std::string label;  // the visible label: the text before "##"
    std::string kind;   // button, checkbox, radio, combo, slider, drag, input, header, tab, plot, message
    std::string value;  // the shown value (checked, open, the slider's number, the field's text)
    float x = 0, y = 0, w = 0, h = 0;
    bool visible = true;               // its centre lies inside its window's visible region
    float clip[4] = {0, 0, 0, 0};      // that region: min x, min y, max x, max y
    std::string item_of;               // for a combo's entries: the combo's label
    unsigned id = 0;
};

// A text that does not fit the box it is drawn in, measured with the font: the clipped-text
// check's finding.
struct ClippedText {
    std::string text;
    float needed = 0, room = 0;  // its width (or height) and the box's
};

// The widgets as JSON (label, kind, x, y, w, h, visible, value, item_of): what scripts and the
// web page's tests read to find where ImGui laid a widget out.
std::string widgets_json(const std::vector<Widget>& widgets);

class WidgetLog {
public:
    void begin_frame();
    // Notes a text drawn at [min, max] inside `box` (min x, min y, max x, max y) that runs past
    // the box's sides, or past its bottom when the window cannot scroll to it.
    // A text wholly outside a scrolling box is scrolled away, not cut.
    void check_fits(std::string_view text, ImVec2 min, ImVec2 max, const ImVec4& box, bool can_scroll = false);
    // The last submitted item against its window's visible region.
    void check_item_fits(std::string_view text);
    // This frame's clipped texts (between frames: the frame just drawn).
    const std::vector<ClippedText>& clipped() const { return clipped_; }
    // Records the last submitted ImGui item.
    void record(std::string_view label, std::string_view kind, std::string value = {});
    // Records a drawn text (not an item) by its box, in the current window: a plot's labels.
    void record_box(std::string_view label, std::string_view kind, ImVec2 at, ImVec2 size);
    // Records an item by its rectangle (a combo box while its popup is open).
    void record_rect(std::string_view label, std::string_view kind, std::string value, ImVec2 at, ImVec2 size);
    // During a frame: the previous frame's widgets, and this one's so far. Between frames (where
    // scripts and tests look), this_frame() is the frame just drawn.
    const std::vector<Widget>& last_frame() const { return last_; }
    const std::vector<Widget>& this_frame() const { return current_; }
    // "ID 0x… shared by header "Export" and button "Export"" for each clash seen so far.
    const std::vector<std::string>& duplicates() const { return duplicates_; }
    void set_combo(std::string label) { combo_ = std::move(label); }

private:
    void add(std::string_view label, std::string_view kind, std::string value, ImVec2 a, ImVec2 b, const ImVec4& clip,
             unsigned id, bool item_visible);
    std::vector<Widget> current_, last_;
    std::vector<ClippedText> clipped_;
    std::vector<std::string> duplicates_;
    std::string combo_;
};

WidgetLog& log();

// Tooltips are off while presenting: nothing floats over the slides.
void allow_tooltips(bool on);
bool tooltips_allowed();
// The hovered item's tooltip, when allowed. ImGui's tooltip draws plain text, so maths markup
// becomes Unicode superscript and subscript characters where every character of a script has
// one (2^31 → 2³¹, x_{k+1} → xₖ₊₁) and stays as written otherwise (e^{iΔθ_i}: θ has none).
void tip(const char* text);

std::string visible_label(std::string_view label);

bool button(const char* label, ImVec2 size = ImVec2(0, 0));
// An arrow button has no text; `name` is what the log and scripts call it.
bool arrow_button(const char* id, ImGuiDir dir, const char* name);
// `name`, when the label shows no text, is what the log and scripts call it.
bool checkbox(const char* label, bool* v, const char* name = nullptr);
bool radio(const char* label, int* v, int v_button);
bool selectable(const char* label, bool selected, ImGuiSelectableFlags flags = 0, const char* kind = "button",
                ImVec2 size = ImVec2(0, 0));
// A combo of fixed names; returns true when the choice changed.
bool combo(const char* label, int* current, std::span<const char* const> names);
bool begin_combo(const char* label, const char* preview);
bool combo_item(const char* label, bool selected);
void end_combo();
bool header(const char* label, ImGuiTreeNodeFlags flags = 0);

bool slider_double(const char* label, double* v, double lo, double hi, const char* format, bool log_scale);
bool slider_int64(const char* label, std::int64_t* v, std::int64_t lo, std::int64_t hi, bool log_scale);
bool slider_int(const char* label, int* v, int lo, int hi, const char* format = "%d", ImGuiSliderFlags flags = 0);
bool slider_float(const char* label, float* v, float lo, float hi, const char* format, ImGuiSliderFlags flags = 0);
bool slider_int64_range(const char* label, std::int64_t range[2], std::int64_t lo, std::int64_t hi);

// Input fields commit on Enter (or when focus leaves): a half-typed number never reaches the state.
// Text fields hold at most `max_chars` characters (UTF-8 code points; what is typed or pasted
// beyond is cut, saying so): paths at most kMaxPathChars, as the system's PATH_MAX.
inline constexpr std::size_t kMaxPathChars = 4096;
inline constexpr std::size_t kMaxFieldChars = 1 << 18;  // a share string of a session with long custom vectors
bool input_text(const char* label, std::string* text, std::size_t max_chars = kMaxFieldChars);
bool input_int(const char* label, int* v, int step = 1, int step_fast = 10);
bool input_int64(const char* label, std::int64_t* v);
bool input_double(const char* label, double* v);
bool input_int2(const char* label, int v[2]);
bool input_double2(const char* label, double v[2], const char* format);

// Maths in text (ui/math_text.h: c_i, e^{iΔθ_i}, 2^31) typeset with ImGui's font: scripts at
// math_text::placement's size and height. Widths are the typeset text's, not the markup's.
float typeset_width(const ImFont* font, float size, const math_text::Typeset& text);
// `text`'s width at the current font and size, its markup read; plain text measures as
// ImGui::CalcTextSize does.
float typeset_width(std::string_view text);
// Each character's advance at its own size (the figure files place characters by them).
std::vector<float> typeset_advances(const ImFont* font, float size, const math_text::Typeset& text);
// Draws typeset text with the top-left of its line box at `at`, as ImDrawList::AddText does.
void add_typeset_text(ImDrawList* dl, const ImFont* font, float size, ImVec2 at, ImU32 color, const math_text::Typeset& text);
// The top-left at which a run of `level` is drawn (at its scaled size) in a line whose top is `line_top`.
float script_top(const ImFont* font, float size, math_text::Level level, float line_top);

// Text that wraps at the window's edge (a readout, a caption), checked against its box. It
// breaks at spaces (and its own newlines) only: ImGui's wrap breaks after a '.', which split
// "171.89°" into "171." and "89°".
void text(std::string_view text, ImU32 color = 0);
// The lines `text` takes in `width` pixels at font scale `scale`, broken at spaces and newlines
// only; a word wider than the box is a line of its own (and overflows, which the log reports).
std::vector<std::string> lines_at_spaces(std::string_view text, float width, float scale = 1.0f);
// The text as it fits in `width` at the current font: whole, or cut between characters (never
// inside a UTF-8 sequence) and ended with "…".
std::string cut_to_width(std::string text, float width);
void text_disabled(std::string_view text);
// SameLine() when `next` still fits on this line, else the next text starts a new one.
void same_line_if_fits(std::string_view next);

// A line of feedback (a refusal, a notice) that scripts and the crawl can read.
void message(const std::string& text, ImU32 color = 0);

}  // namespace ropelab::ui

namespace ropelab::ui {

// The menu bar's menus and items, recorded as kind "menu" (value "open" or "closed") and
// "menu item" (value "checked" for a ticked one; its menu as item_of) so scripts click them by
// label. A menu that opened is recorded by end_menu (ImGui hands back its item only then).
bool begin_menu(const char* label, bool enabled = true);
void end_menu();
bool menu_item(const char* label, const char* shortcut = nullptr, bool checked = false, bool enabled = true);

}  // namespace ropelab::ui
