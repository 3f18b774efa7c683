#pragma once
// The lab's views, one row each: everything that names a view — its shortcut key, its name on
// the command line and in lessons, its titles, the product it reads, what it exports, whether a
// lesson can hide its curves — is read from here, so adding a view is one row (plus its product
// in src/lab/products/ and its draw function in src/views/registry.cpp, bound in this order).
// Plain data below the views: the state, lessons, exports and the command line all read it.
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ropelab {

enum class View { Planes, Contrast, Scores, Invariance, Heatmap, Frequencies, Numbers, Precision, Phasors, Grid, Attention, Weights };

// What a view draws from: one product of the lab's committed state each (src/lab/frame.h).
enum class Product { Planes, Contrast, ScoreColumns, Invariance, Heatmap, Frequencies, Numbers, Precision, Phasors, Grid, Attention, Weights };

// How compare mode writes a view's data: each setting's columns side by side, or (rows whose
// count differs between settings: phasor chains, grids, masks) one setting after another with
// a setting column.
enum class CompareRows { SideBySide, Stacked };

struct ViewRow {
    View id;
    char key;                      // the shortcut that shows it large
    std::string_view name;         // --view NAME and a lesson's view name
    std::string_view short_title;  // a tab's label
    std::string_view title;        // the view's title bar
    Product product;
    bool data_export;     // export-data --view NAME writes its series
    bool picture_export;  // render --view NAME draws it alone
    CompareRows compare_rows;
    bool can_hide;  // a lesson scene may hide its curves until R (predict, then reveal)
};

using enum CompareRows;
inline constexpr ViewRow kViewTable[] = {
    {View::Planes, '1', "planes", "1 Planes", "1 Rotation planes", Product::Planes, true, true, SideBySide, true},
    {View::Contrast, '2', "contrast", "2 Add vs rotate", "2 Addition vs rotation", Product::Contrast, true, true, SideBySide, false},
    {View::Scores, '3', "scores", "3 Scores", "3 Score vs distance", Product::ScoreColumns, true, true, SideBySide, true},
    {View::Invariance, '4', "invariance", "4 Invariance", "4 Translation invariance", Product::Invariance, true, true, SideBySide, false},
    {View::Heatmap, '5', "heatmap", "5 Heatmap", "5 Angle heatmap", Product::Heatmap, true, true, SideBySide, false},
    {View::Frequencies, '6', "frequencies", "6 Frequencies", "6 Frequencies and scaling", Product::Frequencies, true, true, SideBySide, false},
    {View::Numbers, '7', "numbers", "7 Numbers", "7 Numbers", Product::Numbers, true, true, SideBySide, false},
    {View::Precision, '8', "precision", "8 Precision", "8 Precision", Product::Precision, true, true, SideBySide, false},
    {View::Phasors, '9', "phasors", "9 Phasors", "9 Phasor sum", Product::Phasors, true, true, Stacked, true},
    {View::Grid, '0', "grid", "10 Image", "10 Scores over an image", Product::Grid, true, true, Stacked, false},
    {View::Attention, 'A', "attention", "11 Attention", "11 Attention", Product::Attention, true, true, Stacked, false},
    {View::Weights, 'W', "weights", "12 Weights", "12 Weights per pair", Product::Weights, true, true, Stacked, false},
};
inline constexpr int kViewCount = static_cast<int>(std::size(kViewTable));

// The table is in View's order: a view's row is kViewTable[index].
constexpr bool table_in_view_order() {
    for (int i = 0; i < kViewCount; ++i) {
        if (static_cast<int>(kViewTable[i].id) != i) return false;
    }
    return true;
}
static_assert(table_in_view_order(), "kViewTable's rows are in View's order");

inline const ViewRow& view_row(View v) { return kViewTable[static_cast<int>(v)]; }
inline const ViewRow& view_row(int index) { return kViewTable[index]; }
inline std::span<const ViewRow> view_table() { return kViewTable; }

// The view that reads a product (one per view).
View view_of(Product product);
inline bool view_reads(int index, Product product) { return index >= 0 && index < kViewCount && kViewTable[index].product == product; }

// --view's value in every command and a lesson's view: a name ("planes") or a number 1..12.
// Returns the view, or nullopt when it is neither.
std::optional<View> find_view(std::string_view text);
// The same, or InputError listing the names and numbers.
View parse_view(std::string_view text);
// "planes, contrast, …, attention" (for help texts and refusals).
std::string view_names_list(std::string_view last_joiner = " or ");

std::string_view view_title(View v);
std::string_view view_short_title(View v);  // for tabs: "3 Scores"
std::string_view view_name(View v);         // "planes", "scores", …
inline bool can_hide(View v) { return view_row(v).can_hide; }

}  // namespace ropelab
