#pragma once
// The lecturer's window while presenting with notes: what the audience sees (a picture of the
// audience window, handed in as a texture), the scene's title, caption and speaker notes, the
// next scene, a scene list to jump to, the time, and buttons for the presenter's keys. ImGui
// only: it draws from the lab and returns what the lecturer asked for; the app applies it.
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "lab/input.h"
#include "lab/lab.h"

namespace ropelab::views {

struct ConsoleTime {
    double elapsed_s = 0.0;  // since the first scene was shown (or the last reset), pauses left out
    bool paused = false;
    std::string wall;        // the wall clock, "HH:MM"
};

struct ConsoleCommands {
    std::optional<int> scene;    // jump to this scene (0-based)
    std::vector<lab::Key> keys;  // the presenter keys the buttons stand for
    bool reset_clock = false;
    bool toggle_clock = false;   // pause the elapsed time, or let it run again
    // Where the audience's picture lies in this window (empty when it is not drawn): the pointer
    // over it steers the laser, the pen and the spotlight on the audience's screen.
    ImVec2 picture_min, picture_max;
};

// Fills the window (ImGui's main viewport). `audience` shows at `audience_size`'s aspect ratio,
// its rows bottom-up as GL renders them.
ConsoleCommands presenter_console(const Lab& lab, ImTextureID audience, ImVec2 audience_size, const ConsoleTime& time);

// "12:05" for 725 s, "1:02:05" past an hour.
std::string elapsed_text(double seconds);

}  // namespace ropelab::views
