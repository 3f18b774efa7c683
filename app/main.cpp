// ropelab: a desktop lab for Rotary Position Embeddings. Subcommands print the core's numbers.
#include "cli.h"
#include "core/headroom.h"

int main(int argc, char** argv) {
    ropelab::fit_to_memory_limit();  // ulimit -v: reservations sized to it (core/headroom.h)
    return ropelab::run_cli(argc, argv);
}
