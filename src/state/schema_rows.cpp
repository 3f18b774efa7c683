#include <string_view>
#include <vector>

#include "core/model_config.h"
#include "core/token_layout.h"
#include "state/schema_rows.h"

namespace ropelab::schema::rows {

namespace {

constexpr double kMaxPos = static_cast<double>(kMaxPosition);

const Names kEncodings = {"rope", "sinusoidal", "both"};
const Names kVectors = {"ones", "random", "mean", "pair", "custom"};
const Names kAngleModes = {"exact", "naive-fp32", "bf16"};
const Names kPositionRules = {"release", "4.x", "5.x"};
const Names kGridColours = {"fitted", "centred"};
const Names kThemes = {"dark", "light", "projector"};
const Names kTokenVectors = {"same", "random", "needle", "file"};
const Names kWorkspaces(kWorkspaceNames.begin(), kWorkspaceNames.end());

// The model: the names of HF's config.json.
void add_source_rows(std::vector<Field>& f) {
    using K = Kind;
    f.push_back(row({.path = "preset", .flag = "", .lesson = "preset", .kind = K::Text, .max = 4096,
                     .help = "Where the model came from: a preset name or a config.json path (a lesson's preset loads it)"},
                    MEMBER(p.preset)));
    // A label of where the model came from, like `preset`: the flag and the panel's picker reload
    // the config with it; a lesson sets the model's values instead.
    f.push_back(row({.path = "layer_type", .flag = "--layer-type", .lesson = "", .kind = K::Text, .max = 256,
                     .help = "Which layers' RoPE to show, for models whose layers differ (Gemma 3: full_attention, "
                             "sliding_attention); \"\" = full attention"},
                    MEMBER(p.layer_type)));
    // Like layer_type, a label of where the model came from: the flag and the panel's picker
    // reload the config with that layer's rules.
    f.push_back(row({.path = "layer", .flag = "--layer", .lesson = "", .kind = K::Int, .min = -1, .max = static_cast<double>(kMaxLayers),
                     .help = "The config's layer whose rules to show (NoPE, sliding window, chunks); -1: none picked"},
                    MEMBER(p.layer)));
}

// What is plotted.
void add_curve_rows(std::vector<Field>& f) {
    using K = Kind;
    using A = Affects;
    f.push_back(row({.path = "curves.encoding", .flag = "--encoding", .lesson = "encoding", .kind = K::Enum, .names = kEncodings,
                     .affects = A::Data, .help = "RoPE, sinusoidal (additive) or both"},
                    MEMBER(p.encoding)));
    f.push_back(row({.path = "curves.vectors", .flag = "--vectors", .lesson = "vectors", .kind = K::Enum, .names = kVectors,
                     .affects = A::Data, .help = "q and k: ones, random, mean of S random, the focused pair, custom"},
                    MEMBER(p.vectors)));
    f.push_back(row({.path = "curves.seed", .flag = "--seed", .lesson = "seed", .kind = K::Int, .min = 0, .max = 4294967295.0,
                     .affects = A::Data, .help = "Seed of the random q and k"},
                    MEMBER(p.seed)));
    f.push_back(row({.path = "curves.samples", .flag = "--samples", .lesson = "samples", .kind = K::Int, .min = 1,
                     .max = kMaxSamples, .affects = A::Data, .help = "S random vectors averaged (vectors = mean)"},
                    MEMBER(p.samples)));
    // q and k are --q and --k in every subcommand (scores always spelled them so).
    f.push_back(row({.path = "curves.custom_q", .flag = "--q", .lesson = "custom_q", .kind = K::Text, .max = 65536,
                     .affects = A::Data,
                     .help = "Query q for vectors = custom: ones | random:SEED | v0,v1,... (head_dim numbers) | @FILE",
                     .old_flag = "--custom-q"},
                    MEMBER(p.custom_q)));
    f.push_back(row({.path = "curves.custom_k", .flag = "--k", .lesson = "custom_k", .kind = K::Text, .max = 65536,
                     .affects = A::Data,
                     .help = "Key k for vectors = custom: ones | random:SEED | v0,v1,... (head_dim numbers) | @FILE",
                     .old_flag = "--custom-k"},
                    MEMBER(p.custom_k)));
    f.push_back(row({.path = "curves.max_distance", .flag = "--max-distance", .lesson = "max_distance", .kind = K::Int,
                     .min = static_cast<double>(kMinDistances), .max = static_cast<double>(kMaxDistances), .affects = A::Data,
                     .help = "N distances of the score curve"},
                    MEMBER(p.max_distance)));
    f.push_back(row({.path = "curves.angle_mode", .flag = "--angle-mode", .lesson = "angle_mode", .kind = K::Enum,
                     .names = kAngleModes, .affects = A::Data, .help = "exact, naive-fp32 or bf16 angles"},
                    MEMBER(p.angle_mode)));
    f.push_back(row({.path = "curves.mode_difference", .flag = "--mode-difference", .lesson = "mode_difference",
                     .kind = K::Bool, .affects = A::Data,
                     .help = "Plot naive − exact below the scores (naive angle modes)"},
                    MEMBER(p.mode_difference)));
    f.push_back(row({.path = "curves.show_bound", .flag = "--show-bound", .lesson = "show_bound", .kind = K::Bool,
                     .affects = A::Data, .help = "Draw RoFormer's decay bound"},
                    MEMBER(p.show_bound)));
    f.push_back(row({.path = "curves.show_unencoded", .flag = "--show-unencoded", .lesson = "show_unencoded",
                     .kind = K::Bool, .help = "Draw q·k with no position encoding (flat in Δ)"},
                    MEMBER(p.show_unencoded)));
    f.push_back(row({.path = "curves.log_distance", .flag = "--log-distance", .lesson = "log_distance", .kind = K::Bool,
                     .help = "Logarithmic distance axis"},
                    MEMBER(p.log_distance)));
    f.push_back(row({.path = "curves.invariance_distance", .flag = "--invariance-distance", .lesson = "invariance_distance",
                     .kind = K::Int, .min = 0, .max = kMaxPos, .affects = A::Data,
                     .help = "Δ = m − n of the translation-invariance view", .old_flag = "--distance"},
                    MEMBER(p.invariance_distance)));
}

// Images and video: a token layout, and the image the grid view scores.
void add_image_rows(std::vector<Field>& f) {
    using K = Kind;
    using A = Affects;
    f.push_back(row({.path = "images.tokens", .flag = "--tokens", .lesson = "tokens", .kind = K::Text, .max = 4096, .affects = A::Data,
                     .help = "A token layout: text:N, image:TxHxW, video:TxHxW@S (grid_thw in patches; S seconds per grid step), comma-separated"},
                    MEMBER(p.tokens)));
    f.push_back(row({.path = "images.position_rule", .flag = "--rule", .lesson = "", .kind = K::Enum, .names = kPositionRules,
                     .affects = A::Data, .help = "get_rope_index as in transformers 4.x or 5.x, where they differ (videos); release: the model's"},
                    MEMBER(p.position_rule)));
    f.push_back(row({.path = "images.frames", .flag = "--grid-frames", .lesson = "grid_frames", .kind = K::Int, .min = 1, .max = kMaxGridFrames,
                     .affects = A::Data, .help = "The grid view's image: frames T (video)"},
                    MEMBER(p.grid_frames)));
    f.push_back(row({.path = "images.height", .flag = "--grid-height", .lesson = "grid_height", .kind = K::Int, .min = 1, .max = kMaxGridSide,
                     .affects = A::Data, .help = "The grid view's image: rows H, in tokens"},
                    MEMBER(p.grid_height)));
    f.push_back(row({.path = "images.width", .flag = "--grid-width", .lesson = "grid_width", .kind = K::Int, .min = 1, .max = kMaxGridSide,
                     .affects = A::Data, .help = "The grid view's image: columns W, in tokens"},
                    MEMBER(p.grid_width)));
    f.push_back(row({.path = "images.query_row", .flag = "--query-row", .lesson = "query_row", .kind = K::Int, .min = 0,
                     .max = kMaxGridSide - 1, .help = "The query token's row in the image"},
                    MEMBER(p.query_row)));
    f.push_back(row({.path = "images.query_column", .flag = "--query-column", .lesson = "query_column", .kind = K::Int, .min = 0,
                     .max = kMaxGridSide - 1, .help = "The query token's column in the image"},
                    MEMBER(p.query_column)));
    f.push_back(row({.path = "images.frame_offset", .flag = "--frame-offset", .lesson = "frame_offset", .kind = K::Int,
                     .min = -(kMaxGridFrames - 1), .max = kMaxGridFrames - 1, .help = "The key frame's t minus the query's (video)"},
                    MEMBER(p.frame_offset)));
    f.push_back(row({.path = "images.colours", .flag = "--grid-colours", .lesson = "grid_colours", .kind = K::Enum, .names = kGridColours,
                     .help = "The grid view's colours: fitted (each heatmap its own lowest … highest, written under it) or centred (one scale, 0 white)"},
                    MEMBER(p.grid_colours)));
}

// The attention view: the tokens' q and k, and the per-row readouts.
void add_attention_rows(std::vector<Field>& f) {
    using K = Kind;
    using A = Affects;
    constexpr double kTokens = static_cast<double>(kMaxLayoutTokens);
    f.push_back(row({.path = "attention.vectors", .flag = "--token-vectors", .lesson = "token_vectors", .kind = K::Enum,
                     .names = kTokenVectors, .affects = A::Data,
                     .help = "q and k per token: same (the lab's q, k everywhere), random, needle (one key matches the query), file"},
                    MEMBER(p.token_vectors)));
    f.push_back(row({.path = "attention.shared", .flag = "--shared-part", .lesson = "shared_part", .kind = K::Real, .min = 0, .max = 1,
                     .affects = A::Data, .help = "Random and needle vectors: the weight of a part every token shares (0: independent)"},
                    MEMBER(p.shared_part)));
    f.push_back(row({.path = "attention.needle", .flag = "--needle", .lesson = "needle", .kind = K::Int, .min = 0, .max = kTokens - 1,
                     .affects = A::Data, .help = "Needle vectors: the token whose key points along the query"},
                    MEMBER(p.needle)));
    f.push_back(row({.path = "attention.q_file", .flag = "--q-file", .lesson = "", .kind = K::Text, .max = 4096, .affects = A::Data,
                     .help = "File vectors: the queries, T × d (JSON, whitespace text or .npy float32/float64)"},
                    MEMBER(p.q_file)));
    f.push_back(row({.path = "attention.k_file", .flag = "--k-file", .lesson = "", .kind = K::Text, .max = 4096, .affects = A::Data,
                     .help = "File vectors: the keys, T × d (\"\" = the queries' file)"},
                    MEMBER(p.k_file)));
    f.push_back(row({.path = "attention.readout_distance", .flag = "--readout-distance", .lesson = "readout_distance", .kind = K::Int,
                     .min = 1, .max = kTokens, .help = "The per-row readout: attention mass within this distance w (m − n < w)"},
                    MEMBER(p.readout_distance)));
}

// The weights view: which layer of the model file, which head's curve. The file's own counts
// bound them further (the product clamps and says so); these ranges bound what a file may claim.
void add_weights_rows(std::vector<Field>& f) {
    using K = Kind;
    f.push_back(row({.path = "weights.layer", .flag = "--weights-layer", .lesson = "weights_layer", .kind = K::Int, .min = 0, .max = 4095,
                     .help = "The weights view: the layer of the model file whose W_q, W_k pair energies are shown (0 = the first)"},
                    MEMBER(p.weights_layer)));
    f.push_back(row({.path = "weights.head", .flag = "--weights-head", .lesson = "weights_head", .kind = K::Int, .min = 0,
                     .max = 4095,
                     .help = "The weights view: the query head whose score curve is drawn (to models::kMaxAttentionHeads − 1)"},
                    MEMBER(p.weights_head)));
}

// Where we are, and playback.
void add_focus_playback_rows(std::vector<Field>& f) {
    using K = Kind;
    using A = Affects;
    f.push_back(row({.path = "focus.pair", .flag = "--pair", .lesson = "pair", .kind = K::Int, .min = 0,
                     .max = kMaxHeadDim / 2 - 1, .affects = A::Focus, .help = "Focused pair (inside the model)"},
                    MEMBER(p.focused_pair)));
    f.push_back(row({.path = "focus.position", .flag = "--position", .lesson = "position", .kind = K::Int, .min = 0,
                     .max = kMaxPos, .help = "Query position m"},
                    MEMBER(p.position)));
    f.push_back(row({.path = "focus.key_distance", .flag = "--key-distance", .lesson = "key_distance", .kind = K::Int,
                     .min = 0, .max = kMaxPos, .help = "The key sits at m − this in the planes view"},
                    MEMBER(p.key_distance)));
    f.push_back(row({.path = "focus.link_distance", .flag = "--link-distance", .lesson = "link_distance", .kind = K::Bool,
                     .affects = A::Focus,
                     .help = "One Δ for the lab: planes, phasors, the score cursor, invariance and numbers use the key distance"},
                    MEMBER(p.link_distance)));
    f.push_back(row({.path = "focus.log_position_slider", .flag = "", .lesson = "", .kind = K::Bool,
                     .help = "Logarithmic position slider"},
                    MEMBER(p.log_position_slider)));

    // Playback.
    f.push_back(row({.path = "playback.playing", .flag = "", .lesson = "", .kind = K::Bool, .help = "Playing"},
                    MEMBER(p.playing)));
    f.push_back(row({.path = "playback.speed", .flag = "--speed", .lesson = "", .kind = K::Real, .min = 0.01, .max = 4096,
                     .help = "Positions per second"},
                    MEMBER(p.speed)));
    f.push_back(row({.path = "playback.loop_from", .flag = "--loop-from", .lesson = "", .kind = K::Int, .min = 0, .max = kMaxPos,
                     .help = "Playback loop start"},
                    MEMBER(p.loop_from)));
    f.push_back(row({.path = "playback.loop_to", .flag = "--loop-to", .lesson = "", .kind = K::Int, .min = 1, .max = kMaxPos,
                     .help = "Playback loop end"},
                    MEMBER(p.loop_to)));
    f.push_back(row({.path = "playback.sweep_distance", .flag = "--sweep-distance", .lesson = "sweep_distance", .kind = K::Bool,
                     .help = "Playback moves the key distance Δ over 0 .. N − 1 (the phasor sum turns, the score cursor runs) instead of m"},
                    MEMBER(p.sweep_distance)));
}

// Presentation: kept by Reset.
void add_display_rows(std::vector<Field>& f) {
    using K = Kind;
    // A session saved before workspaces has no layout.workspace: it opens in Overview, the
    // default (a newcomer's first look), not in the grid of all eleven it used to show.
    // No lesson name: a scene says "workspace" beside its "views" (lesson_schema.h), and a
    // display field set in a scene would give way to the viewer's own.
    f.push_back(row({.path = "layout.workspace", .flag = "--workspace", .lesson = "", .kind = K::Enum, .names = kWorkspaces,
                     .reset = false, .help = "The views shown together: overview, rotation, distance, frequencies, attention, images or all"},
                    MEMBER(p.workspace)));
    f.push_back(row({.path = "layout.focused_view", .flag = "", .lesson = "", .kind = K::Int, .min = -1, .max = kViewCount - 1,
                     .reset = false, .help = "−1: the workspace's views; 0 .. 10: one view large"},
                    MEMBER(p.focused_view)));
    f.push_back(row({.path = "layout.tab_view", .flag = "", .lesson = "", .kind = K::Int, .min = 0, .max = kViewCount - 1,
                     .reset = false, .help = "The tab shown when the grid does not fit"},
                    MEMBER(p.tab_view)));
    f.push_back(row({.path = "layout.show_controls", .flag = "", .lesson = "", .kind = K::Bool, .reset = false,
                     .help = "The controls panel"},
                    MEMBER(p.show_controls)));
    f.push_back(row({.path = "layout.ui_scale", .flag = "--ui-scale", .lesson = "", .kind = K::Real, .min = kMinUiScale,
                     .max = kMaxUiScale, .reset = false, .help = "Text and widget size (3: readable at 4K)",
                     .old_flag = "--scale"},
                    MEMBER(p.ui_scale)));
    f.push_back(row({.path = "layout.theme", .flag = "--theme", .lesson = "", .kind = K::Enum, .names = kThemes,
                     .reset = false, .help = "dark, light or projector (high contrast, thick lines)"},
                    MEMBER(p.theme)));
    f.push_back(row({.path = "layout.stepwise_planes", .flag = "--stepwise", .lesson = "", .kind = K::Bool, .reset = false,
                     .help = "Playback moves the planes' arrows a whole position at a time instead of gliding"},
                    MEMBER(p.stepwise_planes)));
    f.push_back(row({.path = "layout.wavelength_axis", .flag = "--wavelength-axis", .lesson = "wavelength_axis", .kind = K::Bool,
                     .reset = false, .help = "Frequencies view: x = each pair's unscaled wavelength over the training context"},
                    MEMBER(p.wavelength_axis)));
    f.push_back(row({.path = "layout.spotlight", .flag = "--spotlight", .lesson = "spotlight", .kind = K::Int, .min = 0,
                     .max = kViewCount, .help = "Dim every view but this one (1-12; 0: off; S over a view)"},
                    MEMBER(p.spotlight)));
    f.push_back(row({.path = "layout.laser", .flag = "--laser", .lesson = "", .kind = K::List, .min = 0, .max = 1,
                     .reset = false, .help = "A laser dot at X,Y (fractions of the window; hold L or the right button live)",
                     .count = 2, .exact_count = true},
                    MEMBER(p.laser)));
    f.push_back(row({.path = "layout.show_help", .flag = "", .lesson = "", .kind = K::Bool, .scope = Scope::Transient,
                     .reset = false, .help = "The shortcut overlay (F1)"},
                    MEMBER(p.show_help)));
    f.push_back(row({.path = "layout.fullscreen", .flag = "", .lesson = "", .kind = K::Bool, .scope = Scope::Transient,
                     .reset = false, .help = "Fullscreen (F11)"},
                    MEMBER(p.fullscreen)));
    f.push_back(row({.path = "layout.presenting", .flag = "", .lesson = "", .kind = K::Bool, .scope = Scope::Transient,
                     .reset = false, .help = "Presenter mode"},
                    MEMBER(p.presenting)));
    f.push_back(row({.path = "layout.blank", .flag = "", .lesson = "", .kind = K::Bool, .scope = Scope::Transient,
                     .reset = false, .help = "Presenter's blank screen (B)"},
                    MEMBER(p.blank)));
    f.push_back(row({.path = "layout.scene_views", .flag = "", .lesson = "", .kind = K::List, .min = 0, .max = kViewCount - 1,
                     .scope = Scope::Transient, .reset = false, .help = "A lesson scene's views", .count = 4},
                    MEMBER(p.scene_views)));
    f.push_back(row({.path = "layout.hidden_views", .flag = "", .lesson = "", .kind = K::List, .min = 0, .max = kViewCount - 1,
                     .scope = Scope::Transient, .reset = false, .help = "A lesson scene's views whose curves wait for R", .count = 4},
                    MEMBER(p.hidden_views)));
}

}  // namespace

std::vector<Field> make_fields() {
    std::vector<Field> f;
    add_source_rows(f);
    add_model_rows(f, 0);
    add_compare_rows(f);
    add_curve_rows(f);
    add_image_rows(f);
    add_attention_rows(f);
    add_weights_rows(f);
    add_focus_playback_rows(f);
    add_display_rows(f);
    return f;
}

}  // namespace ropelab::schema::rows
