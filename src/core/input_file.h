#pragma once
// Reading the files users hand the lab (configs, sessions, lessons, vectors): whole, at once,
// refusing what cannot be such a file (a folder, a device, a pipe that never ends, a huge
// file), with errors that name the file.
#include <cstdint>
#include <string>

namespace ropelab {

// Far above any real config, session or lesson (a few kB); a guard against /dev/zero and
// multi-gigabyte files dropped on the window by mistake.
inline constexpr std::uintmax_t kMaxInputFileBytes = 64ull << 20;

// The file's contents. Throws InputError "PATH: cannot open WHAT file (reason)" and the like.
// The file is remembered as one this run read (below).
std::string read_input_file(const std::string& path, const std::string& what);

// "the config file c.json this run read" when `target` is (through any name or link) a file this
// run has read, else "". Exports must never write over their own inputs: `export-data --config
// c.json --out c.json` would replace the user's config with the export.
std::string read_by_this_run(const std::string& target);

}  // namespace ropelab
