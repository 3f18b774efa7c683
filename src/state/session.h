#pragma once
// Sessions: the complete state of the lab (parameters, view arrangement, plot zoom, focus,
// playback) as a versioned JSON file, and as a compact share string (base64url of that JSON)
// to paste into another copy of ropelab.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "state/params.h"
#include "core/plot_state.h"

namespace ropelab {

inline constexpr int kSessionVersion = 2;  // 2: enums by name, the loop as two fields

struct Session {
    LabParams params;
    std::map<std::string, plot::PlotState> plots;  // by plot name
};

// Deterministic: the same session always gives the same bytes (save → load → save is identical).
std::string session_to_json(const Session& s);

// Parses and validates. Unknown fields go to `warnings` (named); a bad value throws InputError
// naming the field and value, and nothing is applied.
Session session_from_json(std::string_view json, std::vector<std::string>& warnings);

std::string share_string(const Session& s);
// Accepts a share string or, if it starts with '{', JSON text.
Session session_from_share_string(std::string_view text, std::vector<std::string>& warnings);

std::string base64url_encode(std::string_view bytes);
std::string base64url_decode(std::string_view text);  // throws InputError on bad characters

}  // namespace ropelab
