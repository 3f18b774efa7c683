#include "lab/messages.h"

#include <regex>

namespace ropelab::lab {

std::string in_own_words(std::string_view message) {
    std::string out(message);
    if (out.find("json.exception") == std::string::npos) return out;
    // Rewritten in order: the exception's tag, then its parse-error preamble, then the type
    // errors' and the number overflow's phrasing.
    static const std::pair<std::regex, const char*> kRules[] = {
        {std::regex(R"(\[json\.exception\.[a-z_]+\.[0-9]+\] ?)"), ""},
        {std::regex(R"(parse error at line ([0-9]+), column ([0-9]+): (syntax error while parsing [a-z ]+ - )?)"),
         "line $1, column $2: "},
        {std::regex(R"(parse error at byte ([0-9]+): (syntax error while parsing [a-z ]+ - )?)"), "at character $1: "},
        {std::regex(R"(parse error: )"), ""},
        {std::regex(R"(type must be ([a-z]+), but is ([a-z]+))"), "expected a $1 but found a $2"},
        {std::regex(R"(number overflow parsing '([^']*)')"), "the number $1 is too large"},
        {std::regex(R"(unexpected end of input; expected (.*))"), "the text ends early (expected $1)"},
        // Cut short by a length limit inside the library's preamble: what is left still says it.
        {std::regex(R"(syntax e[a-z ]*\.\.\.$)"), "syntax error"},
    };
    for (const auto& [pattern, replacement] : kRules) out = std::regex_replace(out, pattern, replacement);
    return out;
}

}  // namespace ropelab::lab
