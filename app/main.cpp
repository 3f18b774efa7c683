// ropelab: a desktop lab for Rotary Position Embeddings. Subcommands print the core's numbers.
#include "cli.h"

int main(int argc, char** argv) { return ropelab::run_cli(argc, argv); }
