#pragma once
// Messages in the lab's own words: a JSON library's exception text ("[json.exception.
// parse_error.101] parse error at line 1, column 2: syntax error while parsing value - invalid
// literal; last read: 'x'") becomes "line 1, column 2: invalid literal; last read: 'x'". Text
// without such a part comes back unchanged.
#include <string>
#include <string_view>

namespace ropelab::lab {

std::string in_own_words(std::string_view message);

}  // namespace ropelab::lab
