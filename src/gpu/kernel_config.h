#pragma once
// Constants shared by the C++ side and the shaders: injected into every shader as #defines
// (see program.cpp), never typed twice.
#include <cstdint>
#include <string>

namespace ropelab::gpu {

inline constexpr int kWorkgroupSize = 64;  // invocations per workgroup (1D kernels)
inline constexpr int kScoresBlock = 64;    // distances per invocation, one exact anchor each
// The GPU-shaped exact kernel (scores_tiled.comp): kTiledRun distances per invocation,
// kTiledGroup invocations per workgroup; one (min, max) per workgroup of kTiledBlock distances.
inline constexpr int kTiledGroup = 256;
inline constexpr int kTiledRun = 16;
inline constexpr int kTiledBlock = kTiledGroup * kTiledRun;
inline constexpr int kBoundBlock = 16;     // distances per invocation in the decay bound
inline constexpr int kHeatmapTile = 8;     // heatmap workgroups are kHeatmapTile² texels
// Iterations one shader loop may run: the cap llvmpipe puts on shader loops.
inline constexpr std::uint32_t kM4MaxColumnSamples = 65535u;
inline constexpr int kMaxTerms = 256;      // terms per sum: rotary dim 512 (a 16 KiB uniform block)

// "#define NAME value" lines for all of the above and the angle modes.
std::string shader_defines();

}  // namespace ropelab::gpu
