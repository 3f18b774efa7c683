#pragma once

namespace ropelab {

// Parses the command line and runs a subcommand. Returns the process exit status:
// 0 on success, 2 on bad input (one message on stderr, nothing on stdout), 1 on other failures.
int run_cli(int argc, char** argv);

}  // namespace ropelab
