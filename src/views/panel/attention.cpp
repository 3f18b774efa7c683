// The panel's Attention section: what the attention view (View 11) computes over the token
// layout — the tokens' q and k, the needle, vector files and the readout distance. T itself is
// the layout's (Images → Layout), shown here.
#include <array>
#include <string>

#include <fmt/format.h>

#include "core/attention.h"
#include "state/schema.h"
#include "views/panel/panel.h"

namespace ropelab::controls {

namespace {

constexpr std::array<const char*, 4> kVectorNames = {"same q, k", "random", "needle", "file"};

// A file field: committed when left (Enter or a click elsewhere), like the layout.
void file_field(const char* label, std::string& value, std::string& draft, bool& editing, const char* path) {
    if (!editing) draft = value;
    ui::input_text(label, &draft, static_cast<std::size_t>(schema::by_path(path)->max));
    editing = ImGui::IsItemActive();
    if (ImGui::IsItemDeactivatedAfterEdit()) value = draft;
}

// The "…" beside a vector file's field: the chosen file becomes the field's value.
void browse_vectors(const char* id, const char* name, std::string& value, const Lab& lab) {
    browse_button(id, name, value,
                  {.title = "Choose a T × d array", .mode = ui::FileDialogMode::Open, .extensions = {".npy", ".json", ".txt"},
                   .start = {}, .recent = {}}, lab);
    if (const auto path = browsed(id)) value = *path;
}

}  // namespace

void attention_section(LabParams& p, const Lab& lab) {
    const std::string& error = lab.status().error;
    const LabCompute& compute = lab.compute();
    const std::int64_t tokens = static_cast<std::int64_t>(compute.token_positions().ids.size());
    ui::text_disabled(fmt::format("T = {} tokens: from Images → Layout (at most {})", tokens, kMaxAttentionTokens));
    tip("The attention view's sequence is the token layout; e.g. text:4096 there gives T = 4096");
    enum_combo("Vectors##attention vectors", p.token_vectors, kVectorNames);
    tip("same: the lab's q and k at every token (the logits are view 3's curve as a Toeplitz matrix);\n"
        "random: seeded per token, with a shared part; needle: random, with one key equal to the last query;\n"
        "file: T × d arrays of q and k");
    if (p.token_vectors == TokenVectors::Random || p.token_vectors == TokenVectors::Needle) {
        int seed = static_cast<int>(p.seed % 1000000);
        if (ui::input_int("seed##attention seed", &seed)) p.seed = static_cast<std::uint64_t>(std::max(0, seed));
        tip("The random vectors' seed (shared with the Curves section's random q, k)");
        ui::slider_double("shared part##attention shared", &p.shared_part, 0.0, 1.0, "%.2f", false);
        tip("The weight s of one component every token shares: q_n = √s·u + √(1 − s)·r_n (0: independent tokens)");
    }
    if (p.token_vectors == TokenVectors::Needle) {
        ui::slider_int64("needle token##attention needle", &p.needle, 0, std::max<std::int64_t>(0, tokens - 1), false);
        tip("The token whose key is the last token's query: the last row finds it wherever it is");
    }
    if (p.token_vectors == TokenVectors::File) {
        static std::string q_draft, k_draft;
        static bool q_editing = false, k_editing = false;
        file_field("q file##attention q file", p.q_file, q_draft, q_editing, "attention.q_file");
        tip("The queries: T × d numbers (JSON, whitespace text or .npy float32/float64). Enter commits");
        browse_vectors("attention q", "Browse q file", p.q_file, lab);
        file_field("k file##attention k file", p.k_file, k_draft, k_editing, "attention.k_file");
        tip("The keys, T × d (empty: the queries' file). Enter commits");
        browse_vectors("attention k", "Browse k file", p.k_file, lab);
    }
    ui::slider_int64("readout w##attention readout distance", &p.readout_distance, 1, std::max<std::int64_t>(1, tokens), true);
    tip("The readout plots' \"mass within w\": the attention weight on keys with m − n < w");
    if (error.starts_with("attention.")) ui::message("Refused: " + error, views::error_color());
}

}  // namespace ropelab::controls
