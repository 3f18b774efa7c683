#pragma once
// `ropelab --version`: the project's version and the git commit the binary was built from.
#include <string>

namespace ropelab {

// "ropelab 0.1.0 (commit 1a2b3c4)", "(commit 1a2b3c4-dirty)" with uncommitted changes, or
// "(commit unknown)" when the source was no git checkout.
std::string version_line();

}  // namespace ropelab
