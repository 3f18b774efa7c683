#include "version.h"

// Written at build time by cmake/VersionScript.cmake; only this file recompiles after a commit.
#include "ropelab_version.h"

namespace ropelab {

std::string version_line() { return std::string("ropelab ") + ROPELAB_VERSION + " (commit " + ROPELAB_COMMIT + ")"; }

}  // namespace ropelab
