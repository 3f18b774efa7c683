#pragma once
// The red team's tables (tests/cli/test_hostile_inputs.cpp, test_hostile_round4.cpp,
// test_config_refusals.cpp): a row is a command line in which FILE/ names its input folder and
// OUT/ an empty output folder, the files to put in FILE/, and what must happen. run_case sets
// up the folders, runs the real binary there without a display under a 20 s kill, and hands back
// what it printed with the folders, for the row's own checks.
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "support/files.h"
#include "support/run_binary.h"

namespace ropelab::test {

// `text` with FILE/ and OUT/ replaced by the case's folders.
inline std::string with_folders(std::string text, const std::string& in, const std::string& out) {
    for (std::size_t at; (at = text.find("FILE/")) != std::string::npos;) text.replace(at, 5, in);
    for (std::size_t at; (at = text.find("OUT/")) != std::string::npos;) text.replace(at, 4, out);
    return text;
}

struct CaseRun {
    Result result;
    std::filesystem::path dir;  // holds in/ and out/; the caller removes it
    std::string in, out;        // "DIR/in/", "DIR/out/"
};

// `args` run in a fresh folder `name` whose in/ holds `files` (name → bytes). `quote`, when
// given, turns the command line (folders already in) into what the shell is handed.
inline CaseRun run_case(const std::string& name, const std::string& args,
                        const std::vector<std::pair<std::string, std::string>>& files,
                        const std::function<std::string(const std::string&)>& quote = {}) {
    CaseRun run;
    run.dir = fresh_dir(name);
    std::filesystem::create_directories(run.dir / "in");
    std::filesystem::create_directories(run.dir / "out");
    for (const auto& [file, bytes] : files) write_file((run.dir / "in" / file).string(), bytes);
    run.in = (run.dir / "in").string() + "/";
    run.out = (run.dir / "out").string() + "/";
    const std::string command = with_folders(args, run.in, run.out);
    run.result = ropelab::test::run(quote ? quote(command) : command,
                                    "cd '" + run.dir.string() + "' && env -u DISPLAY timeout -s KILL 20");
    return run;
}

}  // namespace ropelab::test
