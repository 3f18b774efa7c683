#pragma once
// Everything the lab shows is a function of this one struct. Its fields, their ranges and their
// serialisation are declared once, in lab/schema.h; Lab::apply is its one writer (every edit
// arrives as a candidate state and is validated first); views read it and hand back requests.
#include <algorithm>
#include <iterator>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/model_config.h"
#include "core/phasor_sum.h"
#include "state/view_table.h"
#include "state/workspaces.h"

namespace ropelab {

enum class Encoding { Rope, Sinusoidal, Both };
enum class VectorChoice { Ones, Random, MeanOfRandom, FocusedPair, Custom };
enum class Theme { Dark, Light, Projector };  // projector: high contrast, thick lines

// The lab's ranges. Angles are exact at every position a 32-bit signed index reaches; the score
// series holds up to 2^24 distances (64 MiB of floats per curve).
inline constexpr std::int64_t kMaxPosition = 2147483647;  // 2^31 − 1
inline constexpr std::int64_t kMinDistances = 16;
inline constexpr std::int64_t kMaxDistances = std::int64_t{1} << 24;
// The grid view's image, in tokens: sides to 1024 (2047² offsets), frames to 64.
inline constexpr std::int64_t kMaxGridSide = 1024, kMaxGridFrames = 64;
// Compare mode: the base setting (the model above) and up to three more, drawn on the same axes.
inline constexpr int kMaxCompared = 3;
// A setting's colour in every view and export: Auto is the slot's own (the base's is the RoPE
// curve's); the others are the Okabe–Ito colours, told apart with colour-vision deficiencies.
enum class SettingColour { Auto, Blue, Orange, Green, Vermillion, Purple, Sky, Yellow, Grey };

struct ComparedSetting {
    std::string name;        // the legend's label; "" = the source
    std::string source;      // where it came from: a preset, a config path, or "base + key=value,…"
    std::string layer_type;  // of a config whose layers differ
    ModelConfig model;       // what is drawn (a snapshot: editing the base later leaves it alone)
    SettingColour colour = SettingColour::Auto;
    bool operator==(const ComparedSetting&) const = default;
};

// Which transformers release's get_rope_index gives a layout its ids where 4.x and 5.x differ
// (videos): the model's release, or one named.
enum class PositionRule { Release, V4, V5 };
// The grid view's colours: each heatmap fitted to its own lowest … highest score (structure
// shows, the range is written under it), or one diverging scale centred at 0 shared by all.
enum class GridColours { Fitted, Centred };

// The attention view's q and k per token: the lab's q and k at every token (the logits are then
// the score curve as a Toeplitz matrix), random per token (seeded, with a shared part), random
// keys with one "needle" whose key matches the query, or T × d arrays from files.
enum class TokenVectors { Same, Random, Needle, File };

struct LabParams {
    // The model: exactly what config.json describes.
    std::string preset = "textbook";
    std::string layer_type;  // of a config whose layers use different RoPE; "" = full attention
    int layer = -1;          // the config's layer whose rules are shown (NoPE, window, chunks); −1: none picked
    ModelConfig model;
    std::string base_name;  // the base setting's label in compare mode; "" = the preset
    SettingColour base_colour = SettingColour::Auto;
    int compared_count = 0;  // compared[0 .. count) are drawn beside the base
    std::array<ComparedSetting, kMaxCompared> compared;
    int heatmap_difference = 0;  // 1..3: the heatmap shows base − compared setting K; 0: the base's angles
    int single_setting = 0;      // the setting views 2, 4 and 11 (one setting each) show: 0 the base, 1..3 a compared one

    // What is plotted.
    Encoding encoding = Encoding::Both;
    VectorChoice vectors = VectorChoice::Ones;
    std::uint64_t seed = 1;
    int samples = 16;                // for MeanOfRandom
    std::string custom_q = "ones", custom_k = "ones";  // for Custom, as typed (comma-separated, ones, random:SEED)
    std::int64_t max_distance = 4096;  // N
    AngleMode angle_mode = AngleMode::Exact;  // a naive mode is drawn over the exact curve
    bool mode_difference = false;              // and its difference (naive − exact) below
    bool show_bound = true;
    bool show_unencoded = false;  // q·k with no encoding: flat in Δ
    bool log_distance = false;
    std::int64_t invariance_distance = 8;  // Δ of the translation-invariance view

    // Images and video (multi-axis RoPE): a token layout and its ids, and the image whose scores
    // the grid view shows, in tokens (after the spatial merge).
    std::string tokens = "text:4,image:1x8x12,text:3";  // kinds text:N, image:TxHxW, video:TxHxW@S (grid_thw in patches)
    PositionRule position_rule = PositionRule::Release;
    std::int64_t grid_frames = 1, grid_height = 16, grid_width = 16;
    std::int64_t query_row = 8, query_column = 8;  // the query token's place in the image
    std::int64_t frame_offset = 0;                  // the key frame's t − the query's (video)
    GridColours grid_colours = GridColours::Fitted;

    // Attention over the token layout's T tokens: logits → causal mask → softmax, for the layer
    // the model describes (its window, chunks, NoPE, temperature).
    TokenVectors token_vectors = TokenVectors::Same;
    double shared_part = 0.5;          // Random, Needle: the weight of a component every token shares
    std::int64_t needle = 16;          // Needle: the token whose key is the query's direction
    std::string q_file, k_file;        // File: T × d arrays (JSON, whitespace text or .npy)
    std::int64_t readout_distance = 64;  // the per-row readout "mass within distance w"

    // The weights view (a GGUF's or checkpoint's W_q, W_k): the layer whose per-pair energies it
    // shows (clamped to the file's layers) and the query head whose score curve it draws.
    int weights_layer = 0;
    int weights_head = 0;

    // Where we are.
    int focused_pair = 0;
    std::int64_t position = 0;      // m, the query position
    std::int64_t key_distance = 3;  // k sits at m − key_distance in the planes view
    // One Δ for the lab: planes, phasors, the score cursor, invariance and numbers all use
    // key_distance (dragging the score cursor moves it everywhere); off: each its own.
    bool link_distance = true;
    bool log_position_slider = false;

    // Playback.
    bool playing = true;
    double speed = 4.0;  // positions per second
    std::int64_t loop_from = 0, loop_to = 4096;
    bool sweep_distance = false;  // playback moves the key distance Δ (0 .. N − 1) instead of m

    // Presentation.
    Workspace workspace = Workspace::Overview;  // the views shown together (state/workspaces.h)
    int focused_view = -1;  // −1: the workspace's views; 0..11: one view large
    int tab_view = 0;       // the view shown when the grid does not fit (large fonts, small windows)
    bool show_controls = true;
    std::vector<int> scene_views;  // a lesson scene's views, side by side (empty: the usual layout)
    std::vector<int> hidden_views;  // a lesson scene's views whose curves wait for R (predict, then reveal)
    bool presenting = false;       // presenter mode: controls hidden, scene title bar
    bool blank = false;            // presenter's B: a blank screen
    float ui_scale = 1.0f;
    Theme theme = Theme::Dark;
    bool stepwise_planes = false;  // playback jumps whole positions in the planes instead of gliding
    bool wavelength_axis = false;  // the frequencies view over λ/L₀ (tokens) instead of the pair index
    int spotlight = 0;          // 1..12: every other view dimmed; 0: off
    std::vector<double> laser;  // a still laser dot at (x, y), fractions of the window; empty: none
    bool show_help = false;
    bool fullscreen = false;

    bool operator==(const LabParams&) const = default;
};

// The UI scale a window of this size can show with every control in reach: 1 per 640×360
// pixels (2 at 1280×720, 3 at 1920×1080), never below 1. A larger setting is kept and shown
// at this scale, with a note, until the window grows.
inline float fitted_ui_scale(float wanted, float width, float height) {
    const float fits = std::max(1.0f, std::min(width / 640.0f, height / 360.0f));
    return std::min(wanted, fits);
}

std::string position_key(const LabParams& p);

// The translation-invariance view's Δ: the linked key distance, or its own.
inline std::int64_t invariance_delta(const LabParams& p) { return p.link_distance ? p.key_distance : p.invariance_distance; }

std::string_view to_string(Encoding e);
std::string_view to_string(VectorChoice v);
std::string_view to_string(TokenVectors v);  // as the schema names it: same, random, needle, file

}  // namespace ropelab
