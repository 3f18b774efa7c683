#include "views/panel/panel.h"

#include <algorithm>
#include <cstdint>

namespace ropelab::controls {

void position_section(LabParams& p, int pairs) {
    ui::slider_int("Focused pair", &p.focused_pair, 0, std::max(0, pairs - 1));
    tip("Pair i rotates by m·θ_i; the planes, numbers and precision views follow it");
    ui::slider_int64("Position m", &p.position, 0, kMaxPosition, p.log_position_slider);
    tip("The query's position, up to 2^31 − 1; angles are exact at any m. Ctrl+click to type a value");
    ui::checkbox("log slider", &p.log_position_slider);
    ImGui::SameLine();
    if (ui::arrow_button("##back", ImGuiDir_Left, "Step back")) p.position = std::max<std::int64_t>(0, p.position - 1);
    tip("Step back one position (←)");
    ImGui::SameLine();
    if (ui::button(p.playing ? "Pause" : "Play")) p.playing = !p.playing;
    tip("Play or pause (Space)");
    ImGui::SameLine();
    if (ui::arrow_button("##forward", ImGuiDir_Right, "Step forward")) p.position = std::min(kMaxPosition, p.position + 1);
    tip("Step forward one position (→)");
    float speed = static_cast<float>(p.speed);
    if (ui::slider_float("speed", &speed, 0.25f, 4096.0f, p.sweep_distance ? "%.2f Δ/s" : "%.2f pos/s",
                         ImGuiSliderFlags_Logarithmic)) p.speed = speed;
    tip("Positions per second while playing (+ and − double and halve it)");
    std::int64_t range[2] = {p.loop_from, p.loop_to};
    if (ui::slider_int64_range("loop", range, 0, kMaxPosition)) p.loop_from = range[0], p.loop_to = range[1];
    tip("Playback wraps from the end of this range back to its start (from must stay below to)");
    ui::slider_int64("key distance", &p.key_distance, 0, 4096, true);
    tip("The key sits at n = m − this in the planes view; the score plot marks it");
    ui::checkbox("Play sweeps Δ##sweep distance", &p.sweep_distance, "Play sweeps Δ");
    tip("Play moves the key distance Δ from 0 to N − 1 (and round again) instead of the position m: the phasor sum "
        "curls and straightens as the score plot's cursor runs along the curve. The speed is then in Δ per second");
    ImGui::SameLine();
    ui::checkbox("Linked Δ##link distance", &p.link_distance, "Linked Δ");
    tip("One Δ for the lab: the planes, the phasor sum, the score cursor, invariance and numbers all use the key "
        "distance, and dragging the score plot's cursor moves it everywhere. Off: invariance uses its own Δ and "
        "the cursor only marks the key distance (not draggable)");
}

}  // namespace ropelab::controls
